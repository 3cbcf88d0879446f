/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _TEST_RHASHTABLE_STRESS_H_
#define _TEST_RHASHTABLE_STRESS_H_

/*
 * Shared by the multi-lcore suites (the stress suites, faults, scale),
 * implemented in test_rhashtable_stress.c: objects that are poisoned when the
 * table frees them, the service lcore, durations, reader lcores.
 *
 * Objects come from libc malloc, so that an AddressSanitizer build catches a
 * reader touching an object after free_obj freed it (rte_malloc memory is
 * not instrumented). Without ASan, freed objects are poisoned and parked in
 * a FIFO quarantine before reuse, so a reader handed an object too early
 * sees the poison.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test_rhashtable_util.h"

/* Key classes, in the top byte of a 64-bit key. */
#define STRESS_CLS_STABLE 1ULL /* inserted first, only ever replaced */
#define STRESS_CLS_CHURN 2ULL  /* inserted, removed, replaced all the time */
#define STRESS_CLS_BULK 3ULL   /* fills the table to force grows, then shrinks */
#define STRESS_CLS_NEVER 4ULL  /* never inserted: must never be found */
#define STRESS_CLS_SHARED 5ULL /* several writers race on them */
#define STRESS_KEY(cls, i) (((cls) << 56) | (uint64_t)(i))
#define STRESS_KEY_CLS(k) ((k) >> 56)
#define STRESS_KEY_IDX(k) ((uint32_t)((k) & 0xffffffffULL))

#define STRESS_MAGIC_LIVE 0x4c4956454f424a31ULL   /* "LIVEOBJ1" */
#define STRESS_MAGIC_POISON 0xdeadbeefdeadbeefULL
#define STRESS_KEY_POISON 0xdeaddeaddeaddeadULL

/* The head first and the key after it: a freed object's key is not where
 * glibc keeps its free-list pointers, so poison stays visible.
 */
struct stress_obj {
	struct rte_rhash_head node;
	uint64_t pad;
	uint64_t key;
	uint64_t magic;
	uint32_t writer;  /* lcore that inserted it (lookup_insert races) */
	uint32_t seen;    /* walkers */
};

/* Per-thread counters, one cache line each. */
struct __rte_cache_aligned stress_counts {
	uint64_t lookups;
	uint64_t misses;      /* stable key not found: must stay 0 */
	uint64_t false_hits;  /* never-inserted key found: must stay 0 */
	uint64_t bad_objs;    /* wrong key or poisoned object returned: 0 */
	uint64_t ops;         /* writer operations */
	uint64_t errors;      /* writer calls that returned an unexpected code */
	uint64_t qs;          /* quiescent states reported */
};

/* Figures of the current test, printed at the end. */
struct stress_totals {
	uint64_t lookups, misses, false_hits, bad_objs, ops, errors, qs;
};

/* Seconds a long test runs: RHT_STRESS_SECONDS, or def. */
unsigned int stress_seconds(unsigned int def);

/* False when RHT_STRESS_ONLY is set and is not part of name (to run one case). */
bool stress_case_selected(const char *name);

/* Quarantine and counters of freed objects; call once per test. */
int stress_pool_init(void);
void stress_pool_fini(void);

/* A live object with this key (malloc or quarantine), NULL on no memory. */
struct stress_obj *stress_obj_new(uint64_t key, uint32_t writer);

/* Free an object that never entered a table (no poisoning needed). */
void stress_obj_discard(struct stress_obj *o);

/* free_obj callback: poison, then free or quarantine. */
void stress_obj_free_cb(void *ctx, void *obj);

/* Objects passed to stress_obj_free_cb since stress_pool_init(). */
uint64_t stress_objs_freed(void);

/* True when o is a live object with this key. */
static inline bool
stress_obj_ok(const struct stress_obj *o, uint64_t key)
{
	return o->key == key && o->magic == STRESS_MAGIC_LIVE;
}

/* Table parameters for struct stress_obj with 64-bit keys. */
void stress_params_init(struct rte_rhashtable_params *p, const char *name);

/*
 * The lcore that runs the table's rehash service: the first -s service lcore
 * if any, else the last worker lcore, turned into a service lcore.
 * Returns the lcore, or -1 when there are not enough lcores.
 */
int stress_service_start(struct rte_rhashtable *ht, unsigned int min_workers_left);

/* Unmap the table's service and give the lcore back to EAL. */
void stress_service_stop(struct rte_rhashtable *ht, int lcore);

/* Worker lcores that are not service lcores. */
unsigned int stress_worker_lcores(unsigned int *ids, unsigned int max);

/* Sum the per-thread counters of every lcore id, counts[RTE_MAX_LCORE]. */
struct stress_totals stress_totals_sum(const struct stress_counts *counts);

/* Print the table's counters. */
void stress_print_stats(const char *what, const struct rte_rhashtable_stats *s);

/*
 * Wait, with a deadline, until the table is at rest within its thresholds:
 * the service brings it there, or (run) rte_rhashtable_rehash_run() here.
 */
bool stress_wait_rest(struct rte_rhashtable *ht, double seconds, uint32_t min_size, bool run);

/* True when the newest bucket table is within the resize thresholds. */
bool stress_within_thresholds(const struct rte_rhashtable_stats *s, uint32_t min_size);

/*
 * Reader lcores of the reliability suites (faults, scale): they look up keys
 * known to be present while the main lcore inserts, removes and rehashes,
 * and count every miss.
 *
 * Object i lives at objs + i * obj_size and has its key at key_offset. The
 * main lcore publishes the range [lo, hi) of objects that may be present,
 * and, if present is set, a flag per object; a reader that misses object i
 * re-reads lo afterwards and counts a miss only if i was present during the
 * whole lookup.
 */

struct __rte_cache_aligned rel_reader_count {
	uint64_t lookups;
	uint64_t misses;
};

struct rel_readers {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	const uint8_t *present;   /* NULL: all of [lo, hi) is present */
	const char *objs;
	size_t obj_size;
	size_t key_offset;
	uint32_t lo;              /* objects below lo may be gone (acquire/release) */
	uint32_t hi;              /* objects from hi on are not inserted yet */
	uint32_t stop;
	unsigned int nb_lcores;
	struct rel_reader_count count[RTE_MAX_LCORE];
};

/* Attach r->v to r->ht in defer-queue mode and start readers on every worker lcore. */
int rel_readers_start(struct rel_readers *r);

/* Stop the readers; the total of misses (0 expected), lookups in *lookups. */
uint64_t rel_readers_stop(struct rel_readers *r, uint64_t *lookups);

#endif /* _TEST_RHASHTABLE_STRESS_H_ */
