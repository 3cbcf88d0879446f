/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_COUNT_H_
#define _RHASHTABLE_COUNT_H_

/*
 * The count of chain entries, which drives resizing.
 *
 * A locked add on one shared counter at every insert and removal cost a
 * quarter of an insert in cache, and made the writers of several lcores
 * take turns on its line. So each lcore counts in its own line (struct
 * rht_writer) and adds to ht->nelems in batches: ht->nelems lags the exact
 * count by less than one batch per writing lcore, at most 1/128th of the
 * newest bucket table's slots each (under 1% of load). Writers compare
 * ht->nelems with the thresholds, which only picks the moment the worker is
 * asked; the worker decides on the exact count (rht_nelems_exact()), as do
 * rte_rhashtable_count() and the statistics, and the rehash service
 * recounts exactly now and then, for a lag that no later write flushes.
 * Batches are of one, and ht->nelems exact, where a limit must hold exactly:
 * a table with a maximum size (max_elems, twice it), and near
 * RTE_RHASHTABLE_MAX_ELEMS. Threads without an lcore id add to ht->nelems
 * at once.
 */

#include <errno.h>

#include "rhashtable_pvt.h"

#define RHT_COUNT_BATCH_SHIFT 7
#define RHT_COUNT_BATCH_MAX 64U

/* The count as the batches have reached it, never below 0 (an lcore may
 * have flushed removals of entries that another has not flushed yet).
 */
static inline uint64_t
rht_nelems(const struct rte_rhashtable *ht)
{
	int64_t n = rte_atomic_load_explicit(&ht->nelems, rte_memory_order_relaxed);

	return n > 0 ? (uint64_t)n : 0;
}

/* The exact count: every lcore's own plus that of threads without an lcore id. */
static inline uint64_t
rht_nelems_exact(const struct rte_rhashtable *ht)
{
	int64_t n = rte_atomic_load_explicit(&ht->anon_nelems, rte_memory_order_relaxed);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		n += rte_atomic_load_explicit(&ht->writers[i].nelems, rte_memory_order_relaxed);
	return n > 0 ? (uint64_t)n : 0;
}

/*
 * Load thresholds of the article, for a count in a bucket table of size
 * buckets: the load is of the slots, seven a bucket, as a bucket holds
 * seven objects without a chain.
 */
static inline bool
rht_grow_above(const struct rte_rhashtable *ht, uint32_t size, uint32_t pct, uint64_t nelems)
{
	return nelems * 100 > (uint64_t)size * __RTE_RHT_SLOTS * pct &&
	       (ht->max_size == 0 || size < ht->max_size);
}

static inline bool
rht_shrink_below(const struct rte_rhashtable *ht, uint32_t size, uint64_t nelems)
{
	return ht->automatic_shrinking && size > ht->min_size &&
		rte_atomic_load_explicit(&ht->shrink_armed, rte_memory_order_relaxed) != 0 &&
		nelems * 100 < (uint64_t)size * __RTE_RHT_SLOTS * RTE_RHT_SHRINK_PCT;
}

/* The same for one bucket table with the batched count: what writers check. */
static inline bool
rht_grow_above_pct(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, uint32_t pct)
{
	return rht_grow_above(ht, tbl->size, pct, rht_nelems(ht));
}

static inline bool
rht_shrink_below_pct(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl)
{
	return rht_shrink_below(ht, tbl->size, rht_nelems(ht));
}

/* Entries an lcore may count before it adds them to ht->nelems; 1: at once. */
static inline uint32_t
rht_count_batch(const struct rte_rhashtable *ht)
{
	uint32_t size = rte_atomic_load_explicit(&ht->last_size, rte_memory_order_relaxed);

	if (ht->max_size != 0 ||
	    rte_atomic_load_explicit(&ht->nelems, rte_memory_order_relaxed) >= ht->max_elems / 2)
		return 1;
	return RTE_MIN(RTE_MAX(size * __RTE_RHT_SLOTS >> RHT_COUNT_BATCH_SHIFT, 1U),
		       RHT_COUNT_BATCH_MAX);
}

/*
 * Add what lcore w counted since its last flush to ht->nelems, and size its
 * next batch (after the flush: near the limit, the next count is exact).
 */
static inline void
rht_count_flush(struct rte_rhashtable *ht, struct rht_writer *w)
{
	if (w->nelems != w->flushed) {
		rte_atomic_fetch_add_explicit(&ht->nelems, w->nelems - w->flushed,
					      rte_memory_order_relaxed);
		w->flushed = w->nelems;
	}
	w->batch = rht_count_batch(ht);
}

/* Count delta (1 or -1) entries on lcore w, in its batch. */
static inline void
rht_count_batched(struct rte_rhashtable *ht, struct rht_writer *w, int64_t delta)
{
	int64_t n = w->nelems + delta;

	/* relaxed: rht_nelems_exact() of another lcore reads it */
	rte_atomic_store_explicit(&w->nelems, n, rte_memory_order_relaxed);
	if (n - w->flushed >= w->batch || w->flushed - n >= w->batch)
		rht_count_flush(ht, w);
}

/*
 * One chain entry more, before it is linked, counted by lcore w (NULL: a
 * thread without an lcore id): -E2BIG when the table holds max_elems
 * already. A batched count is far below the limit (rht_count_batch());
 * otherwise the slot is reserved in ht->nelems first, so that the limit
 * holds exactly under concurrency.
 */
static inline int
rht_nelems_reserve(struct rte_rhashtable *ht, struct rht_writer *w)
{
	if (likely(w != NULL && w->batch > 1)) {
		rht_count_batched(ht, w, 1);
		return 0;
	}
	if (w != NULL)
		rht_count_flush(ht, w);
	if (rte_atomic_fetch_add_explicit(&ht->nelems, 1, rte_memory_order_relaxed) >=
	    ht->max_elems) {
		rte_atomic_fetch_sub_explicit(&ht->nelems, 1, rte_memory_order_relaxed);
		return -E2BIG;
	}
	if (w == NULL) {
		rte_atomic_fetch_add_explicit(&ht->anon_nelems, 1, rte_memory_order_relaxed);
		return 0;
	}
	/* relaxed: as in rht_count_batched() */
	rte_atomic_store_explicit(&w->nelems, w->nelems + 1, rte_memory_order_relaxed);
	w->flushed = w->nelems;
	return 0;
}

/*
 * One chain entry fewer, counted by lcore w (NULL: a thread without an
 * lcore id). Shrinking waits for the first removal, as in the kernel, where
 * only a removal schedules it: a table sized by nelem_hint keeps its size
 * while it fills, instead of being halved while still empty. The flag is
 * written once, so removals do not share a written line for it.
 */
static inline void
rht_nelems_dec(struct rte_rhashtable *ht, struct rht_writer *w)
{
	/* a batch of one (or none sized yet) is flushed at once */
	if (likely(w != NULL)) {
		rht_count_batched(ht, w, -1);
	} else {
		rte_atomic_fetch_sub_explicit(&ht->nelems, 1, rte_memory_order_relaxed);
		rte_atomic_fetch_sub_explicit(&ht->anon_nelems, 1, rte_memory_order_relaxed);
	}
	if (unlikely(rte_atomic_load_explicit(&ht->shrink_armed, rte_memory_order_relaxed) == 0))
		rte_atomic_store_explicit(&ht->shrink_armed, 1, rte_memory_order_relaxed);
}

#endif /* _RHASHTABLE_COUNT_H_ */
