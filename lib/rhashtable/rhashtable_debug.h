/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_DEBUG_H_
#define _RHASHTABLE_DEBUG_H_

/**
 * @file
 * Internal API of librte_rhashtable shared with its autotests (not
 * installed): the fields of the statistics, and test-only hooks. The shared
 * library does not export the hooks (version.map): callers link
 * librte_rhashtable.a and build with -DALLOW_INTERNAL_API.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include "rte_rhashtable.h"

/** Type of a field of struct rte_rhashtable_stats. */
enum rht_stat_kind {
	RHT_STAT_COUNTER, /**< uint64_t, the table's counter of that name (ht->ctr). */
	RHT_STAT_U64,     /**< Other uint64_t. */
	RHT_STAT_U32,     /**< uint32_t. */
	RHT_STAT_INT,     /**< int. */
};

/** A field of struct rte_rhashtable_stats: its name (and telemetry key). */
struct rht_stat_field {
	const char *name;        /**< Name. */
	size_t offset;           /**< offsetof() in struct rte_rhashtable_stats. */
	enum rht_stat_kind kind; /**< Type. */
};

/* The kind that the type of a field calls for; other types do not compile. */
#define RHT_STAT_KIND_OF(field) \
	_Generic(((struct rte_rhashtable_stats *)NULL)->field, \
		uint64_t : RHT_STAT_U64, \
		uint32_t : RHT_STAT_U32, \
		int : RHT_STAT_INT)

/* A field that rte_rhashtable_stats_get() fills: its kind follows its type. */
#define RHT_STAT(field) \
	{ #field, offsetof(struct rte_rhashtable_stats, field), RHT_STAT_KIND_OF(field) }

/* A counter of the table (in ht->ctr): a field that is not a uint64_t does
 * not compile (a negative array size).
 */
#define RHT_STAT_CTR(field) { #field, offsetof(struct rte_rhashtable_stats, field) + \
	0 * sizeof(char[RHT_STAT_KIND_OF(field) == RHT_STAT_U64 ? 1 : -1]), RHT_STAT_COUNTER }

/**
 * Every field of struct rte_rhashtable_stats, in its order: the one list
 * that rte_rhashtable_stats_get(), the telemetry command /rhashtable/info
 * and the autotests go through.
 */
static const struct rht_stat_field rht_stat_fields[] = {
	RHT_STAT(nelems),
	RHT_STAT(nobjs),
	RHT_STAT(buckets),
	RHT_STAT(ntables),
	RHT_STAT_CTR(grows),
	RHT_STAT_CTR(shrinks),
	RHT_STAT_CTR(reseeds),
	RHT_STAT_CTR(emergency_allocs),
	RHT_STAT_CTR(rehashes_done),
	RHT_STAT_CTR(objs_moved),
	RHT_STAT_CTR(tables_freed),
	RHT_STAT_CTR(objs_freed),
	RHT_STAT_CTR(alloc_failures),
	RHT_STAT_CTR(nested_tables),
	RHT_STAT_CTR(refused_eexist),
	RHT_STAT_CTR(refused_enomem),
	RHT_STAT_CTR(refused_ebusy),
	RHT_STAT_CTR(refused_e2big),
	RHT_STAT_CTR(worker_stalls),
	RHT_STAT(bytes),
	RHT_STAT(reclaim_pending),
	RHT_STAT(socket_id),
	RHT_STAT(numa_node),
};

/** The value of field f in s, widened to 64 bits (an int sign-extended). */
static inline uint64_t
rht_stat_value(const struct rte_rhashtable_stats *s, const struct rht_stat_field *f)
{
	const void *p = (const char *)s + f->offset;

	if (f->kind == RHT_STAT_INT)
		return (uint64_t)(int64_t)*(const int *)p;
	return f->kind == RHT_STAT_U32 ? *(const uint32_t *)p : *(const uint64_t *)p;
}

/** Fault injection for bucket-table allocations (all tables of the process). */
struct rhashtable_fault {
	uint32_t fail_after; /**< Allocations that succeed before faults start. */
	uint32_t one_in;     /**< Then fail one in one_in at random (0 or 1: every one). */
	size_t min_bytes;    /**< Only allocations of at least this size fail (0: all). */
	/**
	 * Which attempts one_in fails: a pure function of the seed and the
	 * attempt's number, so that the same seed fails the same attempts in
	 * every run (0: a seed drawn with rte_rand()).
	 */
	uint64_t seed;
};

/**
 * Set (f non-NULL) or clear (f NULL) allocation fault injection. Affects the
 * bucket arrays and the nested-table pieces of every table.
 * Not thread safe against itself; allocations read it atomically.
 */
__rte_internal
void
__rte_rhashtable_fault_inject(const struct rhashtable_fault *f);

/** Allocations that failed because of fault injection since the last set. */
__rte_internal
uint64_t
__rte_rhashtable_fault_count(void);

/**
 * Make the writers' entry protocol use a full fence on both sides (true),
 * or the asymmetric pair of a compiler barrier and membarrier() (false, the
 * default where the kernel offers it), so that tests cover both.
 *
 * @return
 *   0; -EBUSY if a table exists (the kind is fixed while one does);
 *   -ENOTSUP if false was asked and membarrier() is not available.
 */
__rte_internal
int
__rte_rhashtable_fence_symmetric(bool symmetric);

/** Whether the writers' entry protocol uses membarrier() (see above). */
__rte_internal
bool
__rte_rhashtable_fence_is_asymmetric(void);

/**
 * Set the memory size that the rehash worker compares a rehash's memory
 * with, to choose whether it plans its moves ahead (rhashtable_rehash.c):
 * 0 makes every rehash plan them, which the small tables of the tests
 * otherwise never do. Takes effect at the next rehash.
 *
 * @return
 *   The size set before (four times the L2 size from sysconf() at
 *   start-up).
 */
__rte_internal
uint64_t
__rte_rhashtable_cache_bytes_set(uint64_t bytes);

/**
 * Take (hold true) or release (hold false) the lock of every bucket of the
 * newest bucket table, as writers take one, so that a test can stop the
 * rehash worker where it links a moving object into its new chain. Release
 * before anything else writes to the table.
 *
 * @return
 *   0; -EINVAL for a NULL table; -ENOTSUP for a single_writer table, whose
 *   buckets have no lock.
 */
__rte_internal
int
__rte_rhashtable_newest_buckets_hold(struct rte_rhashtable *ht, bool hold);

#endif /* _RHASHTABLE_DEBUG_H_ */
