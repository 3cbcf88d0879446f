/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rte_rhashtable backend. The table is intrusive: a flow embeds its
 * rte_rhash_head, so a lookup returns the flow itself and the counters sit
 * in the cache line the lookup already brought in.
 */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "flowpmd.h"

static void
rht_free_obj(void *ctx, void *obj)
{
	rte_mempool_put(ctx, obj);
}

static void *
rht_create(const struct ft_backend_conf *conf)
{
	struct rte_rhashtable_params p = {
		.name = conf->name,
		.socket_id = conf->socket_id,
		/* start small: the table grows with the traffic */
		.nelem_hint = 0,
		.key_len = flow_key_len(conf->family),
		.key_offset = FLOW_KEY_OFFSET,
		.head_offset = offsetof(struct flow, node),
		.automatic_shrinking = true,
	};
	struct rte_rhashtable_rcu_config rcu = {
		.v = conf->qsbr,
		.mode = RTE_RHASHTABLE_QSBR_MODE_DQ,
		.free_obj_ctx = conf->pool,
		.free_obj = rht_free_obj,
	};
	struct rte_rhashtable *ht;
	int ret;

	ht = rte_rhashtable_create(&p);
	if (ht == NULL) {
		printf("rte_rhashtable_create(%s): %s\n", conf->name, rte_strerror(rte_errno));
		return NULL;
	}
	ret = rte_rhashtable_rcu_qsbr_add(ht, &rcu);
	if (ret != 0) {
		printf("rte_rhashtable_rcu_qsbr_add(%s): %s\n", conf->name, strerror(-ret));
		rte_rhashtable_free(ht);
		return NULL;
	}
	return ht;
}

struct rht_destroy_arg {
	void (*free_fn)(struct flow *f, void *arg);
	void *arg;
};

static void
rht_destroy_one(void *arg, void *obj)
{
	struct rht_destroy_arg *d = arg;

	d->free_fn(obj, d->arg);
}

static void
rht_destroy(void *be, void (*free_fn)(struct flow *f, void *arg), void *arg)
{
	struct rht_destroy_arg d = { .free_fn = free_fn, .arg = arg };

	rte_rhashtable_free_and_destroy(be, rht_destroy_one, &d);
}

static int
rht_lookup_bulk(void *be, const void **keys, uint32_t n, struct flow **flows)
{
	/* the head is at offset 0, so the object pointers are the flows */
	return rte_rhashtable_lookup_bulk(be, keys, n, NULL, (void **)flows);
}

static void
rht_prefetch(void *be, const void **keys, uint32_t n, uint32_t depth)
{
	rte_rhashtable_prefetch_bulk(be, keys, n, depth);
}

static struct flow *
rht_lookup(void *be, const void *key)
{
	return rte_rhashtable_lookup(be, key);
}

static int
rht_insert(void *be, struct flow *f, struct flow **existing)
{
	void *obj = NULL;
	int ret;

	/* racing lcores inserting one key agree on one flow */
	ret = rte_rhashtable_lookup_get_insert(be, &f->node, &obj);
	if (ret == -EEXIST)
		*existing = obj;
	return ret;
}

static void
rht_insert_bulk(void *be, struct flow **f, uint32_t n, int *rets, struct flow **existing)
{
	struct rte_rhash_head *heads[FLOWPMD_MAX_BURST];
	uint32_t i;

	RTE_BUILD_BUG_ON(FLOWPMD_MAX_BURST > RTE_RHASHTABLE_INSERT_BULK_MAX);
	for (i = 0; i < n; i++)
		heads[i] = &f[i]->node;
	/* the head is at offset 0: the objects returned are the flows */
	if (rte_rhashtable_lookup_insert_bulk(be, heads, n, rets, (void **)existing) < 0)
		for (i = 0; i < n; i++)
			rets[i] = -EINVAL;
}

static int
rht_remove(void *be, struct flow *f)
{
	return rte_rhashtable_remove(be, &f->node);
}

static void
rht_walk_begin(void *be, struct ft_walk *w)
{
	w->done = false;
	rte_rhashtable_walk_enter(be, &w->it);
}

static void
rht_walk_resume(void *be, struct ft_walk *w)
{
	RTE_SET_USED(be);
	/*
	 * -EAGAIN: the bucket table was retired while paused and the walk
	 * restarts on the new one. Flows seen twice are harmless: the callers
	 * mark the flows they pick (flow->dead) or only read them.
	 */
	rte_rhashtable_walk_start(&w->it);
}

static int
rht_walk_next(void *be, struct ft_walk *w, struct flow **f)
{
	void *obj;
	int ret;

	RTE_SET_USED(be);
	do {
		ret = rte_rhashtable_walk_next(&w->it, &obj);
	} while (ret == -EAGAIN);	/* rehash: go on in the next bucket table */
	if (ret != 0) {
		w->done = true;
		return -ENOENT;
	}
	*f = obj;
	return 0;
}

static void
rht_walk_pause(void *be, struct ft_walk *w)
{
	RTE_SET_USED(be);
	rte_rhashtable_walk_stop(&w->it);
}

static void
rht_walk_end(void *be, struct ft_walk *w)
{
	RTE_SET_USED(be);
	rte_rhashtable_walk_exit(&w->it);
}

static void
rht_stats(void *be, struct ft_backend_stats *s)
{
	struct rte_rhashtable_stats st;

	if (rte_rhashtable_stats_get(be, &st) != 0)
		return;
	s->flows = st.nelems;
	s->buckets = st.buckets;
	s->tables = st.ntables;
	s->rehashes = st.rehashes_done;
	s->reclaim_pending = st.reclaim_pending;
	s->bytes = st.bytes;
	s->grows = st.grows;
	s->shrinks = st.shrinks;
}

static int
rht_service_id(void *be, uint32_t *id)
{
	return rte_rhashtable_service_id_get(be, id);
}

static void
rht_rehash_run(void *be)
{
	rte_rhashtable_rehash_run(be);
}

const struct ft_backend_ops ft_rht_ops = {
	.name = "rhashtable",
	.create = rht_create,
	.destroy = rht_destroy,
	.lookup_bulk = rht_lookup_bulk,
	.prefetch = rht_prefetch,
	.lookup = rht_lookup,
	.insert = rht_insert,
	.insert_bulk = rht_insert_bulk,
	.remove = rht_remove,
	.walk_begin = rht_walk_begin,
	.walk_resume = rht_walk_resume,
	.walk_next = rht_walk_next,
	.walk_pause = rht_walk_pause,
	.walk_end = rht_walk_end,
	.stats = rht_stats,
	.service_id = rht_service_id,
	.rehash_run = rht_rehash_run,
};
