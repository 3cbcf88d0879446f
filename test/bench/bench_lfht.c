/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * liburcu's cds_lfht as a benchmark peer: urcu-qsbr flavour, auto-resize
 * with accounting, intrusive flows {key, cds_lfht_node, payload}, keys hashed
 * with rte_jhash like rte_rhashtable's default. The main lcore stays an
 * online urcu-qsbr reader and reports a quiescent state once per burst (and
 * every 32 writes, so that lfht's resize worker can make progress).
 */

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

#include <rte_common.h>
#include <rte_jhash.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include <urcu-qsbr.h>
#include <urcu/rculfhash.h>

#include "bench_peer.h"

struct lfht_flow {
	struct bench_key key;
	struct cds_lfht_node node;
	uint64_t hits;
};

static struct cds_lfht *ht;
static struct lfht_flow *objs;
static uint32_t objs_n;
static uint32_t seed;
static uint64_t malloc_before;
static uint64_t malloc_table;

static int
lfht_init(void)
{
	rcu_register_thread();
	seed = (uint32_t)rte_rand();
	return 0;
}

static void
lfht_fini(void)
{
	rcu_unregister_thread();
}

static uint64_t
malloc_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	/* every arena (the resize worker allocates too) plus mmap'd chunks */
	return mi.uordblks + mi.hblkhd;
}

static void
lfht_objs_free(void)
{
	bench_objs_release(objs, &objs_n);
	objs = NULL;
}

static int
lfht_objs_prepare(uint32_t n)
{
	objs = bench_objs_keyed(objs, &objs_n, n, sizeof(*objs), offsetof(struct lfht_flow, key));
	return objs == NULL ? -ENOMEM : 0;
}

static int
lfht_match(struct cds_lfht_node *node, const void *key)
{
	const struct lfht_flow *f = caa_container_of(node, struct lfht_flow, node);

	return bench_key_eq(&f->key, key);
}

static unsigned long
lfht_hash(const struct bench_key *k)
{
	return rte_jhash(k, sizeof(*k), seed);
}

static int
lfht_create(uint32_t n, enum bench_sizing z)
{
	unsigned long init = z == BENCH_PRESIZED ? bench_pow2_ceil(n) : 64;

	if (z == BENCH_GROW_SERVICE)
		return -ENOTSUP;
	malloc_before = malloc_bytes();
	ht = cds_lfht_new(init, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	return ht == NULL ? -ENOMEM : 0;
}

static int
lfht_insert(uint32_t lo, uint32_t hi)
{
	struct cds_lfht_node *got;
	uint32_t i;

	rcu_read_lock();
	for (i = lo; i < hi; i++) {
		cds_lfht_node_init(&objs[i].node);
		got = cds_lfht_add_unique(ht, lfht_hash(&objs[i].key), lfht_match,
					  &objs[i].key, &objs[i].node);
		if (got != &objs[i].node) {
			rcu_read_unlock();
			return -EEXIST;
		}
		if ((i & 31) == 31) {
			rcu_read_unlock();
			rcu_quiescent_state();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return 0;
}

static int
lfht_settle(void)
{
	rcu_quiescent_state();
	malloc_table = malloc_bytes() - malloc_before;
	return 0;
}

static int
lfht_remove(uint32_t lo, uint32_t hi)
{
	uint32_t i;
	int rc = 0;

	rcu_read_lock();
	for (i = lo; i < hi && rc == 0; i++) {
		rc = cds_lfht_del(ht, &objs[i].node);
		if ((i & 31) == 31) {
			rcu_read_unlock();
			rcu_quiescent_state();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return rc;
}

static uint32_t
lfht_lookup(const struct bench_key *keys, uint64_t *acc)
{
	const struct lfht_flow *f;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	uint32_t i, hits = 0;

	rcu_read_lock();
	for (i = 0; i < BENCH_BURST; i++) {
		cds_lfht_lookup(ht, lfht_hash(&keys[i]), lfht_match, &keys[i], &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node != NULL) {
			f = caa_container_of(node, struct lfht_flow, node);
			hits++;
			*acc += f->hits;
		}
	}
	rcu_read_unlock();
	return hits;
}

static void
lfht_quiescent(void)
{
	rcu_quiescent_state();
}

static int
lfht_table_bytes(uint64_t *bytes, const char **method)
{
	*bytes = malloc_table;
	*method = "mallinfo2() uordblks+hblkhd after create+fill minus before";
	return 0;
}

static void
lfht_destroy(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	/* cds_lfht_destroy() refuses a table that still holds nodes; deleting
	 * them in list order keeps each delete's unlink walk short. No
	 * quiescent state inside: the iterator must stay valid.
	 */
	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node)
		cds_lfht_del(ht, node);
	rcu_read_unlock();
	/* destroy waits for the resize worker, which waits for a grace period */
	rcu_thread_offline();
	cds_lfht_destroy(ht, NULL);
	rcu_thread_online();
	ht = NULL;
}

const struct bench_peer bench_peer_lfht = {
	.name = "cds_lfht",
	.note = "cds_lfht (liburcu 0.13, urcu-qsbr): CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING; "
		"intrusive flow {16 B key, cds_lfht_node, 8 B payload} = 40 B; rte_jhash; "
		"add_unique; single lookups only; lookup tables pre-sized (init_size = n "
		"rounded up); grow starts at 64 buckets, resized by liburcu's own worker thread",
	.obj_size = sizeof(struct lfht_flow),
	.key_offset = offsetof(struct lfht_flow, key),
	.init = lfht_init,
	.fini = lfht_fini,
	.objs_prepare = lfht_objs_prepare,
	.objs_free = lfht_objs_free,
	.create = lfht_create,
	.insert = lfht_insert,
	.settle = lfht_settle,
	.remove = lfht_remove,
	.lookup = { [BENCH_SINGLE] = lfht_lookup },
	.quiescent = lfht_quiescent,
	.table_bytes = lfht_table_bytes,
	.destroy = lfht_destroy,
	.lookup_sizing = BENCH_PRESIZED,
};
