/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rte_hash backend, for comparison: a fixed-size cuckoo table in lock-free
 * read/write concurrency mode, sized by --max-flows, storing a pointer to
 * the flow as the key's data (one more cache miss per lookup than the
 * intrusive rhashtable).
 *
 * rte_hash has no "insert unless present, and give me what is there": its
 * add overwrites the data of a present key, so two lcores creating the same
 * flow would orphan one of the two flows. Writers (inserts on forwarding
 * lcores, removals on the control lcore) therefore serialise on one spinlock
 * and insert with lookup-then-add under it. rte_hash itself takes a
 * table-wide lock for every add in its multi-writer mode, so this costs
 * about what the library would; lookups stay lock-free.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>
#include <rte_spinlock.h>

#include "flowpmd.h"

struct hash_be {
	struct rte_hash *h;
	rte_spinlock_t writer_lock;
	uint32_t entries;
};

static void
hash_free_key_data(void *p, void *key_data)
{
	rte_mempool_put(p, key_data);
}

static void *
hash_create(const struct ft_backend_conf *conf)
{
	struct rte_hash_parameters p = {
		.name = conf->name,
		.entries = conf->max_flows,
		.key_len = flow_key_len(conf->family),
		.hash_func = NULL,	/* rte_hash's default (CRC32 on x86) */
		.socket_id = conf->socket_id,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_hash_rcu_config rcu = {
		.v = conf->qsbr,
		.mode = RTE_HASH_QSBR_MODE_DQ,
		.key_data_ptr = conf->pool,
		.free_key_data_func = hash_free_key_data,
	};
	struct hash_be *be;

	be = rte_zmalloc_socket("flowpmd_hash", sizeof(*be), RTE_CACHE_LINE_SIZE,
				conf->socket_id);
	if (be == NULL)
		return NULL;
	rte_spinlock_init(&be->writer_lock);
	be->entries = conf->max_flows;
	be->h = rte_hash_create(&p);
	if (be->h == NULL) {
		printf("rte_hash_create(%s, %u entries): %s\n", conf->name, conf->max_flows,
		       rte_strerror(rte_errno));
		goto err;
	}
	if (rte_hash_rcu_qsbr_add(be->h, &rcu) != 0) {
		printf("rte_hash_rcu_qsbr_add(%s): %s\n", conf->name, rte_strerror(rte_errno));
		goto err;
	}
	return be;
err:
	rte_hash_free(be->h);
	rte_free(be);
	return NULL;
}

static void
hash_destroy(void *arg_be, void (*free_fn)(struct flow *f, void *arg), void *arg)
{
	struct hash_be *be = arg_be;
	const void *key;
	void *data;
	uint32_t next = 0;

	while (rte_hash_iterate(be->h, &key, &data, &next) >= 0)
		free_fn(data, arg);
	/* the defer queue hands the removed flows back to the mempool */
	rte_hash_free(be->h);
	rte_free(be);
}

static int
hash_lookup_bulk(void *arg_be, const void **keys, uint32_t n, struct flow **flows)
{
	struct hash_be *be = arg_be;
	uint64_t hit_mask = 0;
	uint32_t i;
	int hits;

	hits = rte_hash_lookup_bulk_data(be->h, keys, n, &hit_mask, (void **)flows);
	/* misses leave their data slot untouched */
	for (i = 0; i < n; i++)
		if ((hit_mask & (1ULL << i)) == 0)
			flows[i] = NULL;
	return hits;
}

static struct flow *
hash_lookup(void *arg_be, const void *key)
{
	struct hash_be *be = arg_be;
	void *data;

	if (rte_hash_lookup_data(be->h, key, &data) < 0)
		return NULL;
	return data;
}

static int
hash_insert(void *arg_be, struct flow *f, struct flow **existing)
{
	struct hash_be *be = arg_be;
	void *data;
	int ret;

	rte_spinlock_lock(&be->writer_lock);
	if (rte_hash_lookup_data(be->h, &f->key, &data) >= 0) {
		*existing = data;
		ret = -EEXIST;
	} else {
		ret = rte_hash_add_key_data(be->h, &f->key, f);
	}
	rte_spinlock_unlock(&be->writer_lock);
	return ret;
}

static int
hash_remove(void *arg_be, struct flow *f)
{
	struct hash_be *be = arg_be;
	int ret;

	rte_spinlock_lock(&be->writer_lock);
	/* with the QSBR defer queue, the flow is freed after a grace period */
	ret = rte_hash_del_key(be->h, &f->key);
	rte_spinlock_unlock(&be->writer_lock);
	return ret < 0 ? ret : 0;
}

static void
hash_walk_begin(void *be, struct ft_walk *w)
{
	RTE_SET_USED(be);
	w->next = 0;
	w->done = false;
}

static void
hash_walk_nop(void *be, struct ft_walk *w)
{
	RTE_SET_USED(be);
	RTE_SET_USED(w);
}

static int
hash_walk_next(void *arg_be, struct ft_walk *w, struct flow **f)
{
	struct hash_be *be = arg_be;
	const void *key;
	void *data;

	if (rte_hash_iterate(be->h, &key, &data, &w->next) < 0) {
		w->done = true;
		return -ENOENT;
	}
	*f = data;
	return 0;
}

static void
hash_stats(void *arg_be, struct ft_backend_stats *s)
{
	struct hash_be *be = arg_be;

	s->flows = rte_hash_count(be->h);
	/* rte_hash: power-of-two buckets of 8 entries */
	s->buckets = rte_align32pow2(be->entries) / 8;
	s->tables = 1;
	s->rehashes = 0;
	s->reclaim_pending = -1;
	s->bytes = 0;
}

const struct ft_backend_ops ft_hash_ops = {
	.name = "rte_hash",
	.create = hash_create,
	.destroy = hash_destroy,
	.lookup_bulk = hash_lookup_bulk,
	.lookup = hash_lookup,
	.insert = hash_insert,
	.remove = hash_remove,
	.walk_begin = hash_walk_begin,
	.walk_resume = hash_walk_nop,
	.walk_next = hash_walk_next,
	.walk_pause = hash_walk_nop,
	.walk_end = hash_walk_nop,
	.stats = hash_stats,
};
