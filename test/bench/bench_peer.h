/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _BENCH_PEER_H_
#define _BENCH_PEER_H_

/**
 * @file
 * Internal interface between the shim's common part (bench_common.c) and the
 * three systems compared (bench_rhashtable.c, bench_rte_hash.c, bench_lfht.c).
 *
 * Each system keeps one table and one array of user objects (flows) at a
 * time; object i holds key i of the common key set.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench_shim.h"

/** A 16-byte IPv4 5-tuple, the key of every table. */
struct bench_key {
	uint32_t src_ip;
	uint32_t dst_ip;
	uint16_t src_port;
	uint16_t dst_port;
	uint8_t proto;
	uint8_t pad[3];
};

/** Equality of two keys as two 8-byte compares (what every system's compare does). */
static inline int
bench_key_eq(const struct bench_key *a, const struct bench_key *b)
{
	uint64_t a0, a1, b0, b1;

	memcpy(&a0, a, 8);
	memcpy(&a1, (const char *)a + 8, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, (const char *)b + 8, 8);
	return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/**
 * Key idx of the hit set (miss == 0) or of the miss set. Distinct indices
 * give distinct keys, and no miss key equals a hit key.
 */
void bench_key_make(struct bench_key *k, uint64_t idx, int miss);

/** Operations of one compared system. */
struct bench_peer {
	const char *name;
	const char *note;
	size_t obj_size;
	size_t key_offset; /**< Of the struct bench_key in an object. */
	/** Once after EAL init (thread registration...), and at exit. */
	int (*init)(void);
	void (*fini)(void);
	/** Objects 0..n-1 with their keys (reused if already n). */
	int (*objs_prepare)(uint32_t n);
	void (*objs_free)(void);
	/** Empty table meant for n objects, sized as z says. */
	int (*create)(uint32_t n, enum bench_sizing z);
	/** Insert objects lo..hi-1 (the count is then hi). */
	int (*insert)(uint32_t lo, uint32_t hi);
	/** After the last insert: finish growth, record memory. */
	int (*settle)(void);
	/** Remove objects lo..hi-1. */
	int (*remove)(uint32_t lo, uint32_t hi);
	/**
	 * BENCH_BURST lookups of keys in each mode the system has (NULL: not
	 * this mode); returns the hits and, except in the bare modes, adds a
	 * field of each flow found to *acc.
	 */
	uint32_t (*lookup[BENCH_LOOKUP_MODE_MAX])(const struct bench_key *keys, uint64_t *acc);
	/**
	 * The writer of the contention case (NULL if none): inserts or
	 * removes obj, one of bench_churn_objs(); may run on another lcore
	 * than the lookups.
	 */
	int (*churn_op)(void *obj, int insert);
	/** Report a quiescent state of the calling reader. */
	void (*quiescent)(void);
	/** Table memory of the full table (after settle). */
	int (*table_bytes)(uint64_t *bytes, const char **method);
	void (*destroy)(void);
	/** Sizing used to build the tables that lookups run on. */
	enum bench_sizing lookup_sizing;
	/** A design probe, not a table: lookup cases only, with --probes. */
	int probe;
};

extern const struct bench_peer bench_peer_rht;
extern const struct bench_peer bench_peer_hash;
extern const struct bench_peer bench_peer_lfht;
extern const struct bench_peer bench_peer_line;

/* Shared state and helpers of bench_common.c */

/** The operations of sys (NULL if out of range). */
const struct bench_peer *bench_peer_of(enum bench_sys sys);

/** RCU QSBR variable of rte_rhashtable and rte_hash; the main lcore is reader 0. */
extern struct rte_rcu_qsbr *bench_qsbr;
extern unsigned int bench_qsbr_tid;

/** Put the main lcore online (lookups) or offline (writes) on bench_qsbr. */
void bench_reader_online(void);
void bench_reader_offline(void);

/** Unique object name "<prefix><counter>" (tables of one name cannot coexist). */
void bench_unique_name(char *buf, size_t len, const char *prefix);

/**
 * The writer objects of the contention case: w zeroed objects of obj_size
 * bytes whose struct bench_key at key_offset holds a key no lookup stream
 * of a table of n entries holds (rte_free() them); NULL when memory is
 * short.
 */
void *bench_churn_objs(uint32_t n, uint32_t w, size_t obj_size, size_t key_offset);

/** Allocate a zeroed object array from the DPDK heap; NULL on failure. */
void *bench_objs_alloc(uint32_t n, size_t obj_size);

/**
 * A peer's object array: n objects of obj_size bytes whose struct bench_key
 * at key_offset holds key i. Returns objs as it is when it already has n
 * objects (*objs_n), else frees it and returns a new array (NULL, *objs_n 0,
 * when memory is short).
 */
void *bench_objs_keyed(void *objs, uint32_t *objs_n, uint32_t n, size_t obj_size,
		       size_t key_offset);

/** Free an array of bench_objs_keyed() (NULL is fine) and zero its count. */
void bench_objs_release(void *objs, uint32_t *objs_n);

struct rte_rhashtable;

/**
 * An rte_rhashtable of 16-byte bench keys at the default size (64 buckets),
 * named "<prefix><n>", with bench_qsbr attached in defer-queue mode (and
 * single_writer as asked); NULL on failure.
 */
struct rte_rhashtable *bench_rht_new(const char *prefix, size_t key_offset,
				     size_t head_offset, bool shrink, bool single_writer);

/** CPU time of the calling thread, in seconds. */
double bench_thread_cpu_s(void);

/** Resident set size of the process, in bytes. */
uint64_t bench_rss_bytes(void);

/** First worker lcore, usable as a service lcore; RTE_MAX_LCORE if none. */
unsigned int bench_service_lcore(void);

/** Map service_id to the service lcore and start that lcore. */
int bench_service_start(uint32_t service_id);

/** Unmap service_id and stop the service lcore. */
void bench_service_stop(uint32_t service_id);

/**
 * rte_rhashtable's working set at n entries (bucket table + objects), as
 * measured when it was last built at that size, else estimated.
 */
uint64_t bench_rht_working_set(uint32_t n);

/** Free the active table and objects, for cases that need the memory. */
void bench_release(void);

/** Free the memory-limit probe's buffer (bench_limit.c), if any. */
void bench_limit_release(void);

/** Largest power of two <= x (x > 0). */
static inline uint64_t
bench_pow2_floor(uint64_t x)
{
	return 1ULL << (63 - __builtin_clzll(x));
}

/** Smallest power of two >= x (x > 0). */
static inline uint64_t
bench_pow2_ceil(uint64_t x)
{
	return x <= 1 ? 1 : 1ULL << (64 - __builtin_clzll(x - 1));
}

/** splitmix64 step: a fast PRNG for key choice and probes. */
static inline uint64_t
bench_rand64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* _BENCH_PEER_H_ */
