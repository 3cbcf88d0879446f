/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The read side: lock-free lookups.
 *
 * Why a lookup that races with a rehash never misses a present object:
 * the worker moves an object only from the end of its old chain to the head
 * of its new chain, and links it into the new chain (release store) before
 * unlinking it from the old one (release store). So an object is always
 * reachable from one bucket of some table of the chain.
 * - A reader walking the old chain either sees the object there, or read a
 *   link written at or after the unlink; that unlink happened after the new
 *   table was attached, so the reader's acquire load of future_tbl that
 *   follows the walk sees the new table, where the object already is.
 * - A reader standing on the moved object follows its next link into the
 *   new chain. It has seen every object of the old chain (the moved one was
 *   the last), and at the end of the new chain it finds a nulls marker that
 *   is not its bucket's: it restarts the bucket, which is harmless. The same
 *   marker check catches an object removed and re-inserted elsewhere while a
 *   reader stood on it.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_prefetch.h>

#include "rhashtable_pvt.h"

/*
 * Find key in chain idx of a bucket table, starting from p, the head the
 * caller loaded (with acquire) from bkt. Restart the chain if a concurrent
 * move carried us into another chain.
 */
static inline struct rte_rhash_head *
rht_chain_find(const struct rte_rhashtable *ht, const void *key, uint32_t idx,
	       struct rte_rhash_head **bkt, struct rte_rhash_head *p)
{
	for (;;) {
		/* acquire: pairs with the release stores that link objects (insert,
		 * rehash move, replace): the object and its next link are initialised.
		 */
		for (; !rht_is_nulls(p); p = __atomic_load_n(&p->next, __ATOMIC_ACQUIRE)) {
			if (rht_key_cmp(ht, key, rht_obj(ht, p)) == 0)
				return p;
		}
		if (likely(p == rht_nulls(idx)))
			return NULL;
		p = __atomic_load_n(bkt, __ATOMIC_ACQUIRE);
	}
}

static struct rte_rhash_head *
rht_table_find(const struct rte_rhashtable *ht, const struct rht_table *tbl,
	       const void *key, uint32_t hash)
{
	uint32_t idx = hash & tbl->mask;
	struct rte_rhash_head **bkt = rht_bucket(tbl, idx);

	return rht_chain_find(ht, key, idx, bkt, __atomic_load_n(bkt, __ATOMIC_ACQUIRE));
}

/* Go on in the tables after tbl (a rehash is under way). */
static struct rte_rhash_head *
rht_lookup_from(const struct rte_rhashtable *ht, const struct rht_table *tbl,
		const void *key)
{
	struct rte_rhash_head *he = NULL;

	/* acquire: pairs with the release in rht_table_attach() */
	while (he == NULL && (tbl = __atomic_load_n(&tbl->future_tbl, __ATOMIC_ACQUIRE)) != NULL)
		he = rht_table_find(ht, tbl, key, rht_key_hash(ht, tbl, key));
	return he;
}

struct rte_rhash_head *
rht_lookup_head(const struct rte_rhashtable *ht, const void *key)
{
	/* acquire: pairs with the release that publishes a new first table */
	const struct rht_table *tbl = __atomic_load_n(&ht->tbl, __ATOMIC_ACQUIRE);
	struct rte_rhash_head *he;

	he = rht_table_find(ht, tbl, key, rht_key_hash(ht, tbl, key));
	if (likely(he != NULL))
		return he;
	return rht_lookup_from(ht, tbl, key);
}

void *
rte_rhashtable_lookup(const struct rte_rhashtable *ht, const void *key)
{
	struct rte_rhash_head *he;

	if (unlikely(ht == NULL || key == NULL)) {
		rte_errno = EINVAL;
		return NULL;
	}
	he = rht_lookup_head(ht, key);
	return he == NULL ? NULL : rht_obj(ht, he);
}

struct rte_rhlist_head *
rte_rhltable_lookup(const struct rte_rhltable *hlt, const void *key)
{
	if (unlikely(hlt == NULL || key == NULL)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return (struct rte_rhlist_head *)rht_lookup_head(&hlt->ht, key);
}

/*
 * Bulk lookup as a software pipeline: hash every key and prefetch its
 * bucket, then prefetch the first object of every chain, then compare. The
 * memory accesses of the whole burst overlap instead of running one after
 * the other. Anything unusual (a longer chain, a moved chain, a table being
 * rehashed) goes through the single-key path.
 */
int
rte_rhashtable_lookup_bulk(const struct rte_rhashtable *ht, const void **keys,
			   uint32_t num_keys, uint64_t *hit_mask, void *objs[])
{
	struct rte_rhash_head **bkts[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	struct rte_rhash_head *first[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint32_t idx[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const struct rht_table *tbl;
	uint64_t hits = 0;
	uint32_t i;

	if (unlikely(ht == NULL || keys == NULL || objs == NULL || num_keys == 0 ||
		     num_keys > RTE_RHASHTABLE_LOOKUP_BULK_MAX)) {
		RHT_LOG(ERR, "bad argument (num_keys %u, at most %u)", num_keys,
			RTE_RHASHTABLE_LOOKUP_BULK_MAX);
		return -EINVAL;
	}
	/* acquire: pairs with the release that publishes a new first table */
	tbl = __atomic_load_n(&ht->tbl, __ATOMIC_ACQUIRE);

	for (i = 0; i < num_keys; i++) {
		idx[i] = rht_key_hash(ht, tbl, keys[i]) & tbl->mask;
		bkts[i] = rht_bucket(tbl, idx[i]);
		rte_prefetch0(bkts[i]);
	}
	for (i = 0; i < num_keys; i++) {
		/* acquire: as in rht_chain_find() */
		first[i] = __atomic_load_n(bkts[i], __ATOMIC_ACQUIRE);
		if (!rht_is_nulls(first[i]))
			rte_prefetch0(rht_obj(ht, first[i]));
	}
	for (i = 0; i < num_keys; i++) {
		struct rte_rhash_head *he;

		he = rht_chain_find(ht, keys[i], idx[i], bkts[i], first[i]);
		if (unlikely(he == NULL))
			he = rht_lookup_from(ht, tbl, keys[i]);
		objs[i] = he == NULL ? NULL : rht_obj(ht, he);
		hits |= (uint64_t)(he != NULL) << i;
	}
	if (hit_mask != NULL)
		*hit_mask = hits;
	return __builtin_popcountll(hits);
}
