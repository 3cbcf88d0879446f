/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Bucket table memory: one flat array when a large allocation succeeds,
 * otherwise a nested table of page-sized pieces, as the article
 * (rhashtable_pvt.h) describes for the kernel. Every bucket starts as its own nulls marker.
 */

#include <errno.h>

#include <numaif.h>

#include <rte_malloc.h>
#include <rte_random.h>

#include "rhashtable_debug.h"
#include "rhashtable_pvt.h"
#include "rhashtable_trace.h"

uint32_t
__rte_rht_initial_size(const struct rte_rhashtable_params *p, uint32_t max_size)
{
	uint32_t size = RTE_RHT_DEFAULT_SIZE;

	/* slots for nelem_hint * 4 / 3 objects, seven a bucket */
	if (p->nelem_hint != 0)
		size = RTE_MAX(rte_align32pow2((uint32_t)(((uint64_t)p->nelem_hint * 4 / 3 +
							  __RTE_RHT_SLOTS - 1) / __RTE_RHT_SLOTS)),
			       (uint32_t)RTE_RHT_MIN_SIZE);
	if (max_size != 0 && size > max_size)
		size = max_size;
	return size;
}

/* n empty buckets from b: empty slots, overflow words that end at once. */
static void
fill_nulls(struct rte_rhash_head **b, uint32_t n)
{
	uint32_t i;

	memset(b, 0, (size_t)n * __RTE_RHT_LINE_WORDS * sizeof(*b));
	for (i = 0; i < n; i++, b += __RTE_RHT_LINE_WORDS)
		b[__RTE_RHT_SLOTS] = __rte_rht_nulls(&b[__RTE_RHT_SLOTS]);
}

static void
free_pieces(struct __rte_rht_table *tbl)
{
	uint32_t i, npieces = tbl->size >> __RTE_RHT_PIECE_SHIFT;

	for (i = 0; i < npieces; i++)
		rte_free(tbl->pieces[i]);
	rte_free(tbl->pieces);
}

/* Buckets as pieces of one page each: used when the flat array cannot be had. */
static struct __rte_rht_table *
alloc_nested(struct rte_rhashtable *ht, uint32_t size)
{
	uint32_t i, npieces = size >> __RTE_RHT_PIECE_SHIFT;
	size_t piece_bytes = __RTE_RHT_PIECE_BUCKETS * __RTE_RHT_LINE_WORDS *
			     sizeof(struct rte_rhash_head *);
	struct __rte_rht_table *tbl;

	tbl = __rte_rht_malloc(ht, "__rte_rht_table", sizeof(*tbl));
	if (tbl == NULL)
		return NULL;
	memset(tbl, 0, sizeof(*tbl));
	tbl->size = size;
	tbl->nested = true;
	tbl->pieces = __rte_rht_malloc(ht, "rht_pieces", npieces * sizeof(*tbl->pieces));
	if (tbl->pieces == NULL)
		goto err;
	memset(tbl->pieces, 0, npieces * sizeof(*tbl->pieces));
	for (i = 0; i < npieces; i++) {
		tbl->pieces[i] = __rte_rht_malloc(ht, "rht_piece", piece_bytes);
		if (tbl->pieces[i] == NULL)
			goto err;
		fill_nulls(tbl->pieces[i], __RTE_RHT_PIECE_BUCKETS);
	}
	tbl->bytes = sizeof(*tbl) + npieces * (sizeof(*tbl->pieces) + piece_bytes);
	RHT_COUNT(ht, nested_tables);
	RHT_LOG(INFO, "%s: %u buckets as a nested table of %u pages", ht->name, size,
		npieces);
	return tbl;
err:
	if (tbl->pieces != NULL)
		free_pieces(tbl);
	rte_free(tbl);
	return NULL;
}

static struct __rte_rht_table *
alloc_flat(struct rte_rhashtable *ht, uint32_t size)
{
	size_t bytes = sizeof(struct __rte_rht_table) +
		(size_t)size * __RTE_RHT_LINE_WORDS * sizeof(struct rte_rhash_head *);
	struct __rte_rht_table *tbl;

	/* the buckets start on the line after the struct (__rte_rht_flat_buckets()) */
	RTE_BUILD_BUG_ON(sizeof(struct __rte_rht_table) % RTE_CACHE_LINE_SIZE != 0);
	tbl = __rte_rht_malloc(ht, "__rte_rht_table", bytes);
	if (tbl == NULL)
		return NULL;
	memset(tbl, 0, sizeof(*tbl));
	tbl->size = size;
	tbl->bytes = bytes;
	fill_nulls(__rte_rht_flat_buckets(tbl), size);
	return tbl;
}

/*
 * The NUMA node that backs the buckets, as the kernel sees it (libnuma):
 * rte_malloc_socket() gives memory of the socket's heap, but without
 * hugepages (--no-huge) that is ordinary memory the kernel places itself.
 * The buckets are written already (nulls markers), so their page exists.
 */
static int32_t
buckets_node(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl)
{
	int node = -1;

	if (get_mempolicy(&node, NULL, 0, (void *)(uintptr_t)__rte_rht_bucket(tbl, 0),
			  MPOL_F_NODE | MPOL_F_ADDR) != 0)
		return -1;
	if (ht->socket_id != SOCKET_ID_ANY && node != ht->socket_id)
		RHT_LOG(WARNING, "%s: %u buckets asked on socket %d are on NUMA node %d",
			ht->name, tbl->size, ht->socket_id, node);
	return node;
}

/*
 * Allocate a bucket table of size buckets with a new random seed, and the
 * key seed of keep_key_seed (a grow or shrink of it), or a new one too
 * (NULL: a new table or a re-seed, see __rte_rht_table_hash()). Does not
 * block (rte_malloc only), so inserts may call it. NULL when memory is short:
 * the caller keeps using the tables it has.
 */
struct __rte_rht_table *
__rte_rht_table_alloc(struct rte_rhashtable *ht, uint32_t size,
		      const struct __rte_rht_table *keep_key_seed)
{
	struct __rte_rht_table *tbl = NULL;

	tbl = alloc_flat(ht, size);
	/* pieces are one page: smaller tables have no fallback */
	if (tbl == NULL && size >= __RTE_RHT_PIECE_BUCKETS)
		tbl = alloc_nested(ht, size);
	if (tbl == NULL)
		goto fail;

	tbl->mask = size - 1;
	tbl->seed = (uint32_t)rte_rand();
	tbl->key_seed = keep_key_seed != NULL ? keep_key_seed->key_seed : tbl->seed;
	tbl->mix_seeds = __rte_rht_mix_seeds(tbl->key_seed, tbl->seed, ht->core.key_len);
	tbl->numa_node = buckets_node(ht, tbl);
	rte_atomic_fetch_add_explicit(&ht->bytes, tbl->bytes, rte_memory_order_relaxed);
	return tbl;
fail:
	RHT_COUNT(ht, alloc_failures);
	rte_rhashtable_trace_enomem(ht->name, size);
	RHT_LOG(WARNING, "%s: no memory for a table of %u buckets; keeping the old one",
		ht->name, size);
	return NULL;
}

void
__rte_rht_table_free(struct rte_rhashtable *ht, struct __rte_rht_table *tbl)
{
	if (tbl == NULL)
		return;
	rte_atomic_fetch_sub_explicit(&ht->bytes, tbl->bytes, rte_memory_order_relaxed);
	if (tbl->nested)
		free_pieces(tbl);
	rte_free(tbl);
}

/*
 * Make next the successor of tbl, unless another thread (an insert's
 * emergency growth, or the worker) attached one first.
 */
bool
__rte_rht_table_attach(struct rte_rhashtable *ht, struct __rte_rht_table *tbl,
		       struct __rte_rht_table *next, bool emergency)
{
	struct __rte_rht_table *expected = NULL;

	/* release: pairs with the acquire loads of future_tbl by readers, inserts
	 * and rht_last_table(): whoever sees next sees its buckets initialised.
	 */
	if (!rte_atomic_compare_exchange_strong_explicit(&tbl->future_tbl, &expected, next,
			rte_memory_order_release, rte_memory_order_relaxed))
		return false;
	rte_rhashtable_trace_resize(ht->name, tbl->size, next->size, emergency);
	rte_atomic_fetch_add_explicit(&ht->ntables, 1, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&ht->last_size, next->size, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&ht->last_node, next->numa_node, rte_memory_order_relaxed);
	if (next->size > tbl->size)
		RHT_COUNT(ht, grows);
	else if (next->size < tbl->size)
		RHT_COUNT(ht, shrinks);
	else
		RHT_COUNT(ht, reseeds);
	return true;
}

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_newest_buckets_hold)
int
__rte_rhashtable_newest_buckets_hold(struct rte_rhashtable *ht, bool hold)
{
	struct __rte_rht_table *tbl;
	uint32_t i;

	if (ht == NULL)
		return -EINVAL;
	if (ht->single_writer)
		return -ENOTSUP;
	/* acquire: pairs with the release that publishes a first table */
	tbl = rht_last_table(rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire));
	for (i = 0; i < tbl->size; i++) {
		if (hold)
			rht_lock(__rte_rht_bucket(tbl, i));
		else
			rht_unlock(__rte_rht_bucket(tbl, i));
	}
	return 0;
}
