/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * DPDK rte_hash as a benchmark peer, set up as a DPDK user with concurrent
 * readers would: lock-free RW concurrency, an RCU QSBR variable attached,
 * entries = 1.125 n (it refuses adds near full load). The flow is a separate
 * struct stored as the key's data; every lookup dereferences it, since a real
 * flow lookup needs the flow, not only the key's position.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "bench_peer.h"
#include "../test_rhashtable_util.h"

struct hash_flow {
	struct bench_key key;
	uint64_t hits;
};

static struct rte_hash *h;
static struct hash_flow *objs;
static uint32_t objs_n;
static uint64_t heap_before;
static uint64_t heap_table;

static int
hash_init(void)
{
	return 0;
}

static void
hash_fini(void)
{
}

static void
hash_objs_free(void)
{
	bench_objs_release(objs, &objs_n);
	objs = NULL;
}

static int
hash_objs_prepare(uint32_t n)
{
	objs = bench_objs_keyed(objs, &objs_n, n, sizeof(*objs), offsetof(struct hash_flow, key));
	return objs == NULL ? -ENOMEM : 0;
}

static int
hash_create(uint32_t n, enum bench_sizing z)
{
	struct rte_hash_parameters p = {
		.entries = RTE_MAX(n + n / 8, 64u),
		.key_len = sizeof(struct bench_key),
		/* DPDK's default on x86 (l3fwd uses it too): the hash a user of
		 * rte_hash would pick
		 */
		.hash_func = rte_hash_crc,
		.hash_func_init_val = 0x9747b28c,
		.socket_id = (int)rte_socket_id(),
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_hash_rcu_config rcu = {
		.v = bench_qsbr,
		.mode = RTE_HASH_QSBR_MODE_DQ,
	};
	char name[RTE_HASH_NAMESIZE];

	if (z != BENCH_PRESIZED)
		return -ENOTSUP;
	bench_unique_name(name, sizeof(name), "bench_hash");
	p.name = name;
	heap_before = test_heap_usage().bytes;
	h = rte_hash_create(&p);
	if (h == NULL)
		return -rte_errno;
	if (rte_hash_rcu_qsbr_add(h, &rcu) != 0) {
		rte_hash_free(h);
		h = NULL;
		return -rte_errno;
	}
	return 0;
}

static int
hash_insert(uint32_t lo, uint32_t hi)
{
	uint32_t i;
	int rc;

	for (i = lo; i < hi; i++) {
		rc = rte_hash_add_key_data(h, &objs[i].key, &objs[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
hash_settle(void)
{
	heap_table = test_heap_usage().bytes - heap_before;
	return 0;
}

static int
hash_remove(uint32_t lo, uint32_t hi)
{
	uint32_t i;
	int rc;

	for (i = lo; i < hi; i++) {
		rc = rte_hash_del_key(h, &objs[i].key);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static uint32_t
hash_lookup(const struct bench_key *keys, uint64_t *acc)
{
	uint32_t i, hits = 0;
	void *data;

	for (i = 0; i < BENCH_BURST; i++) {
		if (rte_hash_lookup_data(h, &keys[i], &data) >= 0) {
			hits++;
			*acc += ((const struct hash_flow *)data)->hits;
		}
	}
	return hits;
}

static uint32_t
hash_lookup_bulk(const struct bench_key *keys, uint64_t *acc)
{
	const void *kp[BENCH_BURST];
	void *data[BENCH_BURST];
	uint64_t mask = 0, m;
	uint32_t i;
	int hits;

	for (i = 0; i < BENCH_BURST; i++)
		kp[i] = &keys[i];
	hits = rte_hash_lookup_bulk_data(h, kp, BENCH_BURST, &mask, data);
	for (m = mask; m != 0; m &= m - 1)
		*acc += ((const struct hash_flow *)data[__builtin_ctzll(m)])->hits;
	return hits > 0 ? (uint32_t)hits : 0;
}

/* As DPDK's hash_perf_autotest calls it: the position or data pointer is
 * returned, the flow it points to is never read.
 */
static uint32_t
hash_lookup_bare(const struct bench_key *keys, uint64_t *acc)
{
	uint32_t i, hits = 0;
	void *data;

	RTE_SET_USED(acc);
	for (i = 0; i < BENCH_BURST; i++)
		hits += rte_hash_lookup_data(h, &keys[i], &data) >= 0;
	return hits;
}

static uint32_t
hash_lookup_bulk_bare(const struct bench_key *keys, uint64_t *acc)
{
	const void *kp[BENCH_BURST];
	void *data[BENCH_BURST];
	uint64_t mask = 0;
	uint32_t i;
	int hits;

	RTE_SET_USED(acc);
	for (i = 0; i < BENCH_BURST; i++)
		kp[i] = &keys[i];
	hits = rte_hash_lookup_bulk_data(h, kp, BENCH_BURST, &mask, data);
	return hits > 0 ? (uint32_t)hits : 0;
}

static int
hash_churn_op(void *obj, int insert)
{
	struct hash_flow *f = obj;
	int rc;

	if (insert)
		return rte_hash_add_key_data(h, &f->key, f);
	rc = rte_hash_del_key(h, &f->key);
	return rc < 0 ? rc : 0;
}

static void
hash_quiescent(void)
{
	rte_rcu_qsbr_quiescent(bench_qsbr, bench_qsbr_tid);
}

static int
hash_table_bytes(uint64_t *bytes, const char **method)
{
	*bytes = heap_table;
	*method = "rte_malloc_get_socket_stats() heap_allocsz_bytes after create+fill minus before";
	return 0;
}

static void
hash_destroy(void)
{
	rte_hash_free(h);
	h = NULL;
}

const struct bench_peer bench_peer_hash = {
	.name = "rte_hash",
	.note = "rte_hash: RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF + rte_hash_rcu_qsbr_add "
		"(defer queue); entries = 1.125 n; rte_hash_crc (DPDK's default on x86, as l3fwd uses); "
		"data = pointer to a separate 24 B flow {16 B key, 8 B payload} that every "
		"lookup dereferences (a flow lookup needs the flow); single = "
		"rte_hash_lookup_data, bulk = rte_hash_lookup_bulk_data of 32 keys; "
		"single_bare / bulk32_bare: the same calls, the flow not read, as DPDK's "
		"hash_perf_autotest runs them",
	.obj_size = sizeof(struct hash_flow),
	.key_offset = offsetof(struct hash_flow, key),
	.init = hash_init,
	.fini = hash_fini,
	.objs_prepare = hash_objs_prepare,
	.objs_free = hash_objs_free,
	.create = hash_create,
	.insert = hash_insert,
	.settle = hash_settle,
	.remove = hash_remove,
	.lookup = {
		[BENCH_SINGLE] = hash_lookup,
		[BENCH_BULK] = hash_lookup_bulk,
		[BENCH_SINGLE_BARE] = hash_lookup_bare,
		[BENCH_BULK_BARE] = hash_lookup_bulk_bare,
	},
	.churn_op = hash_churn_op,
	.quiescent = hash_quiescent,
	.table_bytes = hash_table_bytes,
	.destroy = hash_destroy,
	.lookup_sizing = BENCH_PRESIZED,
};
