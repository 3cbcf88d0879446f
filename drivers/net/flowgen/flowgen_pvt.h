/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWGEN_PVT_H_
#define _FLOWGEN_PVT_H_

/*
 * net_flowgen's structs, shared by its files; its devargs and the traffic
 * it generates are described in doc/guides/nics/flowgen.rst. A packet's
 * cost must not depend on the number of flows (the generator is charged to
 * the application it feeds, at up to 64M flows), so no per-flow record is
 * read: a flow is a number, and its header fields are computed from it on
 * the fly (flowgen_model.h, flowgen_pkt.h, flowgen_rss.h).
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_ether.h>
#include <rte_version.h>
#include <ethdev_driver.h>

#if RTE_VERSION_NUM(23, 11, 0, 0) > RTE_VERSION
/*
 * Before 23.11 DPDK had no rte_stdatomic.h: the few calls of its API that
 * the driver makes, on the compiler builtins they wrap.
 */
#define RTE_ATOMIC(type) type
#define rte_memory_order_relaxed __ATOMIC_RELAXED
#define rte_atomic_load_explicit(ptr, mo) __atomic_load_n(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) __atomic_store_n(ptr, val, mo)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) __atomic_fetch_add(ptr, val, mo)
#else
#include <rte_stdatomic.h>
#endif

extern int flowgen_logtype;

#define FLOWGEN_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, flowgen_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#define FLOWGEN_FLOWS_DEFAULT	1024
#define FLOWGEN_FLOWS_MAX	(1u << 26)
#define FLOWGEN_PKT_SIZE_DEFAULT	64
/* a frame always fits one mbuf segment */
#define FLOWGEN_PKT_SIZE_MAX	9216
#define FLOWGEN_RETA_SIZE	128
#define FLOWGEN_RSS_KEY_LEN	40	/* Toeplitz key, bytes */
#define FLOWGEN_QUEUES_MAX	64
#define FLOWGEN_ZIPF_S_MAX	10
/* packets generated per pass of the burst loop (sizes the on-stack arrays) */
#define FLOWGEN_CHUNK		32
/*
 * Slot choices made (and their table entries prefetched) ahead of use, at
 * least FLOWGEN_CHUNK: one burst ahead already covers DRAM latency.
 */
#define FLOWGEN_AHEAD		32
/* one RSS table per byte of a flow's 64 bits */
#define FLOWGEN_RSS_TABS	8

enum flowgen_proto {
	FLOWGEN_PROTO_UDP,
	FLOWGEN_PROTO_TCP,
	FLOWGEN_PROTO_MIX,
	FLOWGEN_PROTO_NUM,
};

/* index of a template in pmd_internals.tmpl */
enum flowgen_tmpl_idx {
	FLOWGEN_TMPL_UDP,
	FLOWGEN_TMPL_TCP,
	FLOWGEN_TMPL_NUM,
};

struct flowgen_options {
	uint32_t flows;		/**< Flows in the population, all queues. */
	double zipf_s;		/**< Zipf exponent, 0 for uniform. */
	double new_flow_rate;	/**< Share of packets starting a new flow. */
	unsigned int ipv6;	/**< 1: IPv6 frames. */
	enum flowgen_proto proto; /**< L4 protocol(s). */
	unsigned int pkt_size;	/**< Frame length, 0 for the default. */
	uint64_t seed;		/**< Population and sampling seed. */
	unsigned int queues;	/**< RX and TX queues offered. */
	char em_rules[PATH_MAX]; /**< l3fwd EM rule file written at start; "": none. */
	char pcap[PATH_MAX];	/**< Capture of the population written at start; "": none. */
};

/* How a devarg's value is read (flowgen_args.c). */
enum flowgen_val_type {
	FLOWGEN_VAL_UINT,	/* whole number in [min, max], 32- or 64-bit field */
	FLOWGEN_VAL_DOUBLE,	/* number in [min, max] */
	FLOWGEN_VAL_DIST,	/* "uniform", "zipf" or "zipf:<s>", 0 < s <= max */
	FLOWGEN_VAL_PROTO,	/* one of flowgen_proto_names */
	FLOWGEN_VAL_PATH,	/* a file name */
	FLOWGEN_VAL_NUM,
};

/* One devarg: its key and where, and how, its value goes in the options. */
struct flowgen_devarg {
	const char *key;	/* NULL ends a table */
	enum flowgen_val_type type;
	size_t offset;		/* of the field in struct flowgen_options */
	size_t size;		/* of that field */
	uint64_t min, max;
};

extern const char * const flowgen_proto_names[FLOWGEN_PROTO_NUM];

/*
 * One frame layout per L4 protocol. The frame holds the address prefixes;
 * ports and checksums are zero. Sums are folded to 16 bits, in host order.
 */
struct flowgen_tmpl {
	uint32_t ptype;		/* mbuf packet_type */
	uint32_t ip_sum;	/* IPv4 header */
	uint32_t l4_sum;	/* pseudo-header (address prefixes, protocol,
				 * length), L4 header, payload
				 */
	uint16_t l4_cksum_off;	/* offset of the L4 checksum in the frame */
	uint8_t udp;		/* a computed 0 is sent as 0xffff (0: "none") */
	uint8_t frame[FLOWGEN_PKT_SIZE_MAX] __rte_cache_aligned;
};

/*
 * Alias table entry (Walker/Vose): slot k is drawn uniformly, then kept when
 * a 32-bit random number is below thresh, else replaced by alias.
 */
struct flowgen_alias {
	uint32_t thresh;
	uint32_t alias;
};

/* A queue's counters: one writer (its lcore), stats_get reads them. */
struct flowgen_stats {
	RTE_ATOMIC(uint64_t) pkts;
	RTE_ATOMIC(uint64_t) bytes;
	uint64_t pkts_base;		/* stats_reset snapshot */
	uint64_t bytes_base;
};

struct pmd_internals {
	struct flowgen_options opt;
	uint16_t pkt_size;
	struct rte_ether_addr mac;
	uint8_t rss_key[FLOWGEN_RSS_KEY_LEN];
	/* RSS hash of a flow: XOR over its bytes j of rss_tab[j][byte] */
	uint32_t rss_tab[FLOWGEN_RSS_TABS][256] __rte_cache_aligned;
	struct flowgen_tmpl tmpl[FLOWGEN_TMPL_NUM];
};

struct flowgen_rxq {
	/* read on every burst */
	struct rte_mempool *mp;
	const struct flowgen_tmpl *tmpl;	/* [FLOWGEN_TMPL_NUM] */
	const uint32_t (*rss_tab)[256];		/* the port's [FLOWGEN_RSS_TABS] */
	uint32_t *gen;			/* slot -> generation; NULL: one queue */
	struct flowgen_alias *alias;	/* NULL: uniform popularity */
	uint32_t nb_flows;		/* slots */
	uint16_t pkt_size;
	uint16_t port_id;
	uint64_t ol_flags;
	uint64_t mbuf_rearm;		/* data_off, refcnt, nb_segs and port of an mbuf */
	uint64_t rng;			/* xorshift64* state, never 0 */
	uint64_t id_salt;		/* the seed's term, added to an id before mixing */
	uint64_t lines;			/* ids between two generations of a slot */
	uint16_t queue_id;
	uint16_t nb_queues;
	uint8_t proto;			/* enum flowgen_proto */
	bool rss_hash;			/* fill mbuf hash.rss */
	unsigned int ring_head;		/* next position of the pick ring */
	uint32_t ahead[FLOWGEN_AHEAD];	/* gen: chosen slots, entry prefetched */
	uint32_t pre_slot[FLOWGEN_AHEAD]; /* zipf: drawn slots, alias entry prefetched */
	uint32_t pre_hi[FLOWGEN_AHEAD];	/* zipf: their alias decision bits */
	uint64_t churn_left;		/* packets of this chunk before the next new flow */
	uint64_t sweep;			/* one queue, churn: sweep positions passed */
	uint64_t sweep_mul;		/* position -> slot, odd */
	uint64_t sweep_inv;		/* slot -> position: sweep_mul's inverse */
	uint64_t sweep_mask;		/* positions: a power of two >= nb_flows */
	unsigned int sweep_bits;	/* log2(sweep_mask + 1) */
	double churn_inv_log;		/* 1 / ln(1 - new_flow_rate), gap sampling */
	int churn;			/* new_flow_rate > 0 */
	struct flowgen_stats stats;	/* written on every burst */
	/* slow path */
	RTE_ATOMIC(uint64_t) *alloc_failed;	/* the port's rx_mbuf_alloc_failed */
	const struct pmd_internals *pi;
};

struct flowgen_txq {
	struct flowgen_stats stats;
	bool fast_free;			/* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
};


/* splitmix64 finaliser: a bijection of 64-bit values, so distinct ids stay distinct. */
static inline uint64_t
flowgen_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* xorshift64*: one multiply and three shifts per 64 random bits. */
static inline uint64_t
flowgen_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* flowgen_args.c */
int flowgen_args_parse(const char *params, const struct flowgen_devarg *args,
		const char * const *keys, struct flowgen_options *o);

/* flowgen_export.c */
int flowgen_export(struct rte_eth_dev *dev);

#endif /* _FLOWGEN_PVT_H_ */
