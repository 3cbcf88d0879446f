/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWPMD_H_
#define _FLOWPMD_H_

/**
 * @file
 * dpdk-flowpmd: a testpmd-like forwarding application that keeps a flow
 * table (5-tuple -> counters) in an rte_rhashtable or, for comparison, in
 * DPDK's rte_hash.
 *
 * Threads:
 * - forwarding lcores (EAL workers that are not service lcores) poll RX
 *   queues, look the packets' flows up in bursts, create missing flows and
 *   forward; they are QSBR readers and report a quiescent state after each
 *   burst;
 * - service lcores (EAL -s) run the tables' rehash services;
 * - the main lcore is the control thread: command line, statistics, aging
 *   (the only thread that removes flows) and, without service lcores, the
 *   rehash work.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_spinlock.h>

#include <rte_rhashtable.h>

#define FLOWPMD_BURST 32           /**< Default packets per RX burst (--burst). */
/**
 * Largest --burst: a burst is one bulk lookup per family, and both backends
 * take at most 64 keys a call (RTE_RHASHTABLE_LOOKUP_BULK_MAX,
 * RTE_HASH_LOOKUP_BULK_MAX).
 */
#define FLOWPMD_MAX_BURST 64
#define FWD_MAX_LOOKUP_STAGES 3    /**< Most bursts in flight before a lookup. */
/** Default --pipeline: see "Pipelining lookups across bursts" in the guide. */
#define FWD_DEFAULT_LOOKUP_STAGES 1
#define FLOWPMD_MAX_PORTS 32       /**< Ports the application drives. */
#define FLOWPMD_MAX_LCORE_RXQ 64   /**< RX queues one forwarding lcore polls. */
#define FLOWPMD_WALK_BATCH 256     /**< Objects visited per walk_start/stop. */

enum fwd_mode {
	FWD_MODE_IO,      /**< Send every packet back out unchanged. */
	FWD_MODE_DROP,    /**< Free every packet after the flow update. */
	FWD_MODE_MACSWAP, /**< Swap the Ethernet addresses, then send. */
};

enum ft_kind {
	FT_KIND_RHASHTABLE, /**< rte_rhashtable (the default). */
	FT_KIND_RTE_HASH,   /**< DPDK rte_hash, lock-free RW concurrency mode. */
};

/**
 * Flows are kept in one table per address family, so that the IPv4 fast
 * path hashes and compares a 16-byte key, not a 40-byte one (l3fwd's exact
 * match mode does the same).
 */
enum flow_family {
	FLOW_V4,
	FLOW_V6,
	FLOW_NB_FAMILIES,
};

/* Keys hold the header fields in network byte order; padding is zero. */
struct flow_key4 {
	uint32_t src;
	uint32_t dst;
	uint16_t sport;
	uint16_t dport;
	uint8_t proto;
	uint8_t pad[3];
};

struct flow_key6 {
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint8_t proto;
	uint8_t pad[3];
};

/**
 * A flow: 64 bytes (one cache line) for IPv4, 88 for IPv6. Everything the
 * forwarding path touches (link, counters, key) shares the first line for
 * IPv4. The counters are written by the forwarding lcores and read by the
 * control lcore, with relaxed atomics (see flow_account() in fwd.c).
 */
struct flow {
	struct rte_rhash_head node; /**< rhashtable link (unused by rte_hash). */
	uint64_t last_seen;         /**< TSC of the last packet. */
	uint64_t pkts;
	uint64_t bytes;
	uint64_t first_seen;        /**< TSC of the first packet. */
	uint8_t family;             /**< enum flow_family. */
	uint8_t dead;               /**< Control lcore: already picked for removal. */
	uint8_t pad[6];
	union {
		struct flow_key4 v4;
		struct flow_key6 v6;
	} key;
};

#define FLOW_KEY_OFFSET offsetof(struct flow, key)
#define FLOW_SIZE(fam) (FLOW_KEY_OFFSET + ((fam) == FLOW_V4 ? \
	sizeof(struct flow_key4) : sizeof(struct flow_key6)))

static inline uint32_t
flow_key_len(enum flow_family fam)
{
	return fam == FLOW_V4 ? sizeof(struct flow_key4) : sizeof(struct flow_key6);
}

/* ---- flow table backends (flow_table_rht.c, flow_table_hash.c) ---- */

struct ft_backend_conf {
	const char *name;          /**< Table name (unique). */
	enum flow_family family;
	uint32_t max_flows;        /**< rte_hash entries; a hint for rhashtable. */
	int socket_id;
	struct rte_rcu_qsbr *qsbr; /**< Readers: forwarding lcores, control lcore. */
	struct rte_mempool *pool;  /**< Where removed flows go after a grace period. */
};

struct ft_backend_stats {
	uint64_t flows;
	uint64_t buckets;
	uint32_t tables;          /**< Bucket tables in the chain (1 when idle). */
	uint64_t rehashes;        /**< Bucket tables retired. */
	int64_t reclaim_pending;  /**< Defer queue entries; -1: not known. */
	uint64_t bytes;           /**< Table memory; 0: not known. */
	uint64_t grows;
	uint64_t shrinks;
};

/** A walk over one backend, resumable across batches. */
struct ft_walk {
	struct rte_rhashtable_iter it; /**< rhashtable backend. */
	uint32_t next;                 /**< rte_hash backend: rte_hash_iterate() cursor. */
	bool done;
};

/**
 * Backend interface. Only lookup_bulk and insert (or insert_bulk) are on the
 * fast path; they are called once per burst and once per missed packet (or
 * once per burst with misses).
 */
struct ft_backend_ops {
	const char *name;
	void *(*create)(const struct ft_backend_conf *conf);
	/** Free the table; every flow still in it goes to free_fn. */
	void (*destroy)(void *be, void (*free_fn)(struct flow *f, void *arg), void *arg);
	/** Reader. flows[i] is the flow of keys[i] or NULL; returns the hits. */
	int (*lookup_bulk)(void *be, const void **keys, uint32_t n, struct flow **flows);
	/**
	 * Reader, optional (NULL: the backend has none). Stage depth of a
	 * lookup_bulk() of the same keys a few bursts later: 0 prefetches the
	 * keys' buckets, 1 the objects those buckets point to, 2 the next
	 * objects of the chains.
	 */
	void (*prefetch)(void *be, const void **keys, uint32_t n, uint32_t depth);
	/** Reader. */
	struct flow *(*lookup)(void *be, const void *key);
	/**
	 * Insert f unless its key is present: 0, -EEXIST (*existing set, a
	 * lookup result for the caller to use) or another negative errno.
	 */
	int (*insert)(void *be, struct flow *f, struct flow **existing);
	/**
	 * Optional (NULL: insert() one flow at a time): insert f[0..n), n at
	 * most FLOWPMD_MAX_BURST, in order, each as insert() would (rets[i],
	 * existing[i]; a key twice: the second finds the first), overlapping
	 * their memory accesses.
	 */
	void (*insert_bulk)(void *be, struct flow **f, uint32_t n, int *rets,
			    struct flow **existing);
	/** Remove f; freed through QSBR. 0 or -ENOENT. */
	int (*remove)(void *be, struct flow *f);
	void (*walk_begin)(void *be, struct ft_walk *w);
	/** Between walk_resume and walk_pause the caller is a QSBR reader. */
	void (*walk_resume)(void *be, struct ft_walk *w);
	/** 0 with *f set, or -ENOENT at the end. */
	int (*walk_next)(void *be, struct ft_walk *w, struct flow **f);
	void (*walk_pause)(void *be, struct ft_walk *w);
	void (*walk_end)(void *be, struct ft_walk *w);
	void (*stats)(void *be, struct ft_backend_stats *s);
	/** Optional (NULL: the table never rehashes): the rehash worker's service. */
	int (*service_id)(void *be, uint32_t *id);
	/** Optional, as service_id: do pending rehash work on the calling thread. */
	void (*rehash_run)(void *be);
};

extern const struct ft_backend_ops ft_rht_ops;
extern const struct ft_backend_ops ft_hash_ops;

/* ---- the flow table (flow_table.c) ---- */

struct flow_table {
	enum ft_kind kind;
	const struct ft_backend_ops *ops;
	void *be[FLOW_NB_FAMILIES];
	struct rte_mempool *pool[FLOW_NB_FAMILIES];
	struct rte_rcu_qsbr *qsbr;
	unsigned int ctrl_thread_id;   /**< QSBR thread id of the control lcore. */
	uint64_t timeout_tsc;          /**< Idle time after which a flow is aged. */
	uint32_t nb_services_lcores;   /**< 0: control lcore runs the rehash work. */
	/* aging state (control lcore only) */
	struct ft_walk age_walk;
	int age_family;                /**< Family walked, -1 between passes. */
	uint64_t age_pass_start;
	uint64_t aged;                 /**< Flows removed by aging. */
	uint64_t flushed;              /**< Flows removed by flush. */
	uint64_t age_passes;
};

struct ft_config {
	enum ft_kind kind;
	uint32_t max_flows;   /**< IPv4 flows (rte_hash entries, flow mempool size). */
	uint32_t max_flows6;  /**< IPv6 flows. */
	double timeout_s;
	int socket_id;
};

/** Per-flow snapshot for show/dump commands. */
struct flow_info {
	enum flow_family family;
	union {
		struct flow_key4 v4;
		struct flow_key6 v6;
	} key;
	uint64_t pkts;
	uint64_t bytes;
	double age_s;   /**< Since the first packet. */
	double idle_s;  /**< Since the last packet. */
};

struct flow_table *flow_table_create(const struct ft_config *cfg);
void flow_table_free(struct flow_table *ft);
int flow_table_map_services(struct flow_table *ft);
void flow_table_housekeeping(struct flow_table *ft, uint64_t now, uint32_t budget);
uint64_t flow_table_flush(struct flow_table *ft);
int flow_table_find(struct flow_table *ft, enum flow_family fam, const void *key,
		    struct flow_info *out);
unsigned int flow_table_top(struct flow_table *ft, struct flow_info *top, unsigned int n);
int flow_table_dump_json(struct flow_table *ft, FILE *f);
void flow_table_stats(struct flow_table *ft, struct ft_backend_stats *total);
void flow_info_format(const struct flow_info *fi, char *buf, size_t size);

/* ---- forwarding (fwd.c) ---- */

/** Counters of one forwarding lcore, written by it alone. */
struct lcore_stats {
	uint64_t rx;
	uint64_t rx_bytes;
	uint64_t tx;
	uint64_t tx_drop;        /**< Refused by the TX queue or dropped by fwd drop. */
	uint64_t lookups;        /**< Keys looked up (IPv4 and IPv6 packets). */
	uint64_t hits;           /**< Found by the bulk lookup. */
	uint64_t inserts;        /**< Flows created. */
	uint64_t insert_exist;   /**< Misses whose insert found the flow (race, or 2 in a burst). */
	uint64_t refused_full;   /**< Inserts refused: table full (rte_hash -ENOSPC, -E2BIG). */
	uint64_t refused_other;  /**< Inserts refused: -ENOMEM, -EBUSY. */
	uint64_t alloc_fail;     /**< Flow mempool empty. */
	uint64_t ipv4;
	uint64_t ipv6;
	uint64_t vlan;           /**< Packets with one or two VLAN tags. */
	uint64_t other;          /**< Neither IPv4 nor IPv6 (forwarded, not tracked). */
} __rte_cache_aligned;

struct rxq_ref {
	uint16_t port;
	uint16_t queue;
};

struct fwd_lcore {
	unsigned int lcore_id;
	unsigned int index;        /**< Among forwarding lcores. */
	unsigned int nb_rxq;
	struct rxq_ref rxq[FLOWPMD_MAX_LCORE_RXQ];
	struct lcore_stats stats;
};

struct port_info {
	uint16_t nb_rxq;
	uint16_t nb_txq;
	uint16_t peer;             /**< Port the packets received here go out of. */
	bool tx_shared;            /**< Fewer TX queues than forwarding lcores. */
	rte_spinlock_t txq_lock[RTE_MAX_LCORE];
};

struct app {
	/* configuration */
	struct ft_config ft_cfg;
	enum fwd_mode fwd_mode;    /**< Read by forwarding lcores (relaxed). */
	bool interactive;
	bool auto_start;
	double duration_s;         /**< 0: until SIGINT or quit. */
	double stats_period_s;     /**< 0: no periodic stats line. */
	const char *json_path;     /**< NULL: no JSON; "-": stdout. */
	const char *dump_flows_path;
	uint16_t rxq_per_port;     /**< 0: one per forwarding lcore. */
	uint16_t nb_rxd;
	uint16_t nb_txd;
	uint16_t burst;            /**< Packets per RX burst, up to FLOWPMD_MAX_BURST. */
	uint32_t total_num_mbufs;  /**< 0: sized from the queues and lcores. */
	uint16_t mbuf_size;        /**< Data room of an mbuf, headroom included. */
	unsigned int lookup_stages; /**< Bursts received before one is looked up. */
	/* runtime */
	struct flow_table *ft;
	struct rte_mempool *mbuf_pool;
	uint16_t nb_ports;
	uint16_t ports[FLOWPMD_MAX_PORTS];
	struct port_info port[RTE_MAX_ETHPORTS];
	unsigned int nb_fwd;
	struct fwd_lcore fwd[RTE_MAX_LCORE];
	bool counters_shared;      /**< Several lcores may update one flow. */
	volatile bool fwd_running; /**< Forwarding lcores loop while set. */
	bool fwd_started;
	volatile bool quit;
	bool thp;                  /**< DPDK memory advised MADV_HUGEPAGE. */
	uint64_t start_tsc;        /**< First start. */
	uint64_t fwd_tsc;          /**< Cycles spent forwarding (all starts). */
	uint64_t last_start_tsc;
	FILE *json;
};

extern struct app app;

int fwd_lcore_main(void *arg);
int fwd_start(void);
void fwd_stop(void);

/* ---- statistics (stats.c) ---- */

struct app_totals {
	struct lcore_stats s;                 /**< Sum over the forwarding lcores. */
	struct lcore_stats lc[RTE_MAX_LCORE]; /**< Each forwarding lcore, as app.fwd[]. */
	struct ft_backend_stats t;
	uint64_t tsc;
};

/** Rates of the last statistics period (the periodic line). */
struct stats_period {
	double secs;        /**< Length of the period; 0: none yet. */
	double rx_mpps;
	double tx_mpps;
	double lookups_mps;
	double hit_pct;     /**< Hits per lookup in the period. */
	double lcore_rx_mpps[RTE_MAX_LCORE]; /**< Each forwarding lcore, as app.fwd[]. */
};

void stats_collect(struct app_totals *tot);
void stats_period_compute(const struct app_totals *prev, const struct app_totals *cur,
			  struct stats_period *p);
double stats_hit_pct(uint64_t lookups, uint64_t hits);
void stats_print_period(const struct app_totals *prev, const struct app_totals *cur);
void stats_print_summary(const struct app_totals *tot);
void stats_print_ports(void);
void stats_print_table(void);

/* ---- command line (cmdline.c) ---- */

/** The prompt, with tick() between keystrokes until it returns false. */
int flowpmd_cmdline_run(bool (*tick)(void));

/* ---- telemetry (telemetry.c) ---- */

/** Let the telemetry handlers read the flow table (after it is created). */
void telemetry_start(void);
/** Keep them away from it (before it is freed); waits for a running handler. */
void telemetry_stop(void);
/** Control lcore: the rates /flowpmd/stats reports. */
void telemetry_period_publish(const struct stats_period *p);

/* ---- options (config.c) ---- */

int flowpmd_parse_args(int argc, char **argv);
void flowpmd_usage(const char *prog);
bool flowpmd_help_wanted(int argc, char **argv);
unsigned int flowpmd_mem_estimate(int argc, char **argv);
const char *fwd_mode_name(enum fwd_mode m);
int fwd_mode_parse(const char *s, enum fwd_mode *m);

#endif /* _FLOWPMD_H_ */
