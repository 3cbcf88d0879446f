/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _TEST_RHASHTABLE_UTIL_H_
#define _TEST_RHASHTABLE_UTIL_H_

/*
 * Object type and helpers shared by the foundation suites. The key and the
 * head both sit at non-zero offsets, so every suite also checks that the
 * library honours key_offset and head_offset.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>
#include <rte_rhashtable_config.h>

#include "test.h"

struct test_obj {
	uint64_t cookie;              /* keeps key_offset non-zero */
	uint32_t key;
	uint32_t seen;                /* walk / free callback counter */
	struct rte_rhash_head node;   /* head_offset non-zero too */
	uint32_t freed;               /* free_obj calls */
};

#define TEST_OBJ_COOKIE 0x5aa5c33c0ff1ceULL

/*
 * The suites' numbers (64 buckets by default, grow above 70% of the slots,
 * shrink below 30%, overflow chains of 16, tables of at least 4) are those of the default build
 * options in meson_options.txt; a build with other tunables skips them.
 */
static inline int
test_default_config(void)
{
	if (RTE_RHT_GROW_PCT != 70 || RTE_RHT_SHRINK_PCT != 30 ||
	    RTE_RHT_MAX_CHAIN_LEN != 16 || RTE_RHT_DEFAULT_SIZE != 64 ||
	    RTE_RHT_MIN_SIZE != 4) {
		printf("built with non-default table tunables: suite skipped\n");
		return TEST_SKIPPED;
	}
	return TEST_SUCCESS;
}

/* Parameters of a table of objects with key_len-byte keys at key_offset. */
static inline void
test_params_set(struct rte_rhashtable_params *p, const char *name, uint32_t key_len,
	size_t key_offset, size_t head_offset)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->socket_id = SOCKET_ID_ANY;
	p->key_len = key_len;
	p->key_offset = key_offset;
	p->head_offset = head_offset;
}

static inline void
test_params_init(struct rte_rhashtable_params *p, const char *name)
{
	test_params_set(p, name, sizeof(uint32_t), offsetof(struct test_obj, key),
		offsetof(struct test_obj, node));
}

/* n objects with keys first, first + 1, ...; free with rte_free(). */
static inline struct test_obj *
test_objs_alloc(uint32_t n, uint32_t first)
{
	struct test_obj *objs = rte_zmalloc(NULL, sizeof(*objs) * n, 0);
	uint32_t i;

	if (objs == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		objs[i].cookie = TEST_OBJ_COOKIE;
		objs[i].key = first + i;
	}
	return objs;
}

/*
 * The usual fixture: *ht a table named name (nelem_hint hint), *objs n objects
 * with keys first, first + 1, ... TEST_SUCCESS, or TEST_FAILED with neither.
 */
static inline int
test_table_setup(struct rte_rhashtable **ht, struct test_obj **objs, const char *name,
	uint16_t hint, uint32_t n, uint32_t first)
{
	struct rte_rhashtable_params p;

	test_params_init(&p, name);
	p.nelem_hint = hint;
	*ht = rte_rhashtable_create(&p);
	*objs = test_objs_alloc(n, first);
	if (*ht != NULL && *objs != NULL)
		return TEST_SUCCESS;
	printf("setup of %s failed: %s\n", name, rte_strerror(rte_errno));
	rte_rhashtable_free(*ht);
	rte_free(*objs);
	*ht = NULL;
	*objs = NULL;
	return TEST_FAILED;
}

/* Slots of a table of b buckets, and the entries one past its grow threshold. */
#define TEST_SLOTS(b) ((b) * RTE_RHASHTABLE_BUCKET_SLOTS)
#define TEST_GROW_ENTRIES(b) (TEST_SLOTS(b) * RTE_RHT_GROW_PCT / 100 + 1)

/*
 * A table that nelem_hint TEST_PAST_GROW_HINT starts at TEST_PAST_GROW_BUCKETS
 * buckets (slots for 5000 * 4 / 3, rounded up), and the entries one past its
 * grow threshold. One lcore inserting them (the first at once, then
 * batches of 56 at that size) has carried 4985 to the count writers compare
 * with 70% of the slots (5017.6): no insert asks for the worker, only an exact count sees the
 * crossing (rhashtable_count.h).
 */
#define TEST_PAST_GROW_HINT 5000
#define TEST_PAST_GROW_BUCKETS 1024U
#define TEST_PAST_GROW_ENTRIES TEST_GROW_ENTRIES(TEST_PAST_GROW_BUCKETS)

/* Free what test_table_setup() made. */
static inline void
test_table_teardown(struct rte_rhashtable **ht, struct test_obj **objs)
{
	rte_rhashtable_free(*ht);
	rte_free(*objs);
	*ht = NULL;
	*objs = NULL;
}

static inline void
test_objs_clear_seen(struct test_obj *objs, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		objs[i].seen = 0;
}

/* Insert objs[from..to) with rte_rhashtable_insert(); first error or 0. */
static inline int
test_insert_range(struct rte_rhashtable *ht, struct test_obj *objs, uint32_t from, uint32_t to)
{
	uint32_t i;
	int ret;

	for (i = from; i < to; i++) {
		ret = rte_rhashtable_insert(ht, &objs[i].node);
		if (ret != 0) {
			printf("insert of key %u failed: %d\n", objs[i].key, ret);
			return ret;
		}
	}
	return 0;
}

/*
 * present: every object of objs[from..to) is found, and is that very object;
 * !present: none of them is found. 0 if so, else -1.
 */
static inline int
test_found(const struct rte_rhashtable *ht, struct test_obj *objs, uint32_t from, uint32_t to,
	bool present)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		if (rte_rhashtable_lookup(ht, &objs[i].key) != (present ? &objs[i] : NULL)) {
			printf("key %u (object %u) %s\n", objs[i].key, i,
			       present ? "not found" : "found after its removal");
			return -1;
		}
	}
	return 0;
}

/*
 * test_found(present) through rte_rhashtable_lookup_bulk(), bursts of
 * RTE_RHASHTABLE_LOOKUP_BULK_MAX keys: a chain of tables then takes the
 * bulk lookup's later passes too.
 */
static inline int
test_found_bulk(const struct rte_rhashtable *ht, struct test_obj *objs, uint32_t from,
		uint32_t to)
{
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	void *found[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint32_t i, k, n;
	uint64_t mask;
	int hits;

	for (i = from; i < to; i += n) {
		n = RTE_MIN(to - i, (uint32_t)RTE_RHASHTABLE_LOOKUP_BULK_MAX);
		for (k = 0; k < n; k++)
			keys[k] = &objs[i + k].key;
		hits = rte_rhashtable_lookup_bulk(ht, keys, n, &mask, found);
		for (k = 0; k < n; k++) {
			if (found[k] != &objs[i + k] || ((mask >> k) & 1) == 0) {
				printf("bulk: key %u (object %u) not found\n", objs[i + k].key,
				       i + k);
				return -1;
			}
		}
		if (hits != (int)n) {
			printf("bulk: %d hits in a burst of %u present keys\n", hits, n);
			return -1;
		}
	}
	return 0;
}

static inline struct rte_rhashtable_stats
test_stats(const struct rte_rhashtable *ht)
{
	struct rte_rhashtable_stats s;

	memset(&s, 0xff, sizeof(s));
	if (rte_rhashtable_stats_get(ht, &s) != 0)
		printf("rte_rhashtable_stats_get failed\n");
	return s;
}

/*
 * Hash function that ignores the seed and gives the value of a 4- or 8-byte
 * key (truncated): a key has the same bucket index in every table, and keys
 * k and k + buckets share one.
 */
static inline uint32_t
test_seedless_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	uint64_t k64;
	uint32_t k32;

	RTE_SET_USED(seed);
	if (key_len == sizeof(k64)) {
		memcpy(&k64, key, sizeof(k64));
		return (uint32_t)k64;
	}
	memcpy(&k32, key, sizeof(k32));
	return k32;
}

/* Bucket table idx of ht's chain; all zero when it does not exist. */
static inline struct rte_rhashtable_table_info
test_table_info(struct rte_rhashtable *ht, uint32_t idx)
{
	struct rte_rhashtable_table_info info;

	if (rte_rhashtable_table_info_get(ht, idx, &info) != 0)
		memset(&info, 0, sizeof(info));
	return info;
}

static inline uint32_t
test_table_buckets(struct rte_rhashtable *ht, uint32_t idx)
{
	return test_table_info(ht, idx).buckets;
}

static inline uint32_t
test_table_seed(struct rte_rhashtable *ht, uint32_t idx)
{
	return test_table_info(ht, idx).seed;
}

static inline uint32_t
test_table_key_seed(struct rte_rhashtable *ht, uint32_t idx)
{
	return test_table_info(ht, idx).key_seed;
}

/* A QSBR variable for every lcore id; NULL on no memory. */
static inline struct rte_rcu_qsbr *
test_qsbr_create(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v = rte_zmalloc("test_qsbr", sz, RTE_CACHE_LINE_SIZE);

	if (v != NULL && rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0) {
		rte_free(v);
		v = NULL;
	}
	return v;
}

/* Lcore id becomes an online reader of v: 0, or the error of the registration. */
static inline int
test_qsbr_reader_start(struct rte_rcu_qsbr *v, unsigned int id)
{
	int ret = rte_rcu_qsbr_thread_register(v, id);

	if (ret == 0)
		rte_rcu_qsbr_thread_online(v, id);
	return ret;
}

/* Lcore id stops being a reader of v. */
static inline void
test_qsbr_reader_stop(struct rte_rcu_qsbr *v, unsigned int id)
{
	rte_rcu_qsbr_thread_offline(v, id);
	rte_rcu_qsbr_thread_unregister(v, id);
}

/* What the rte_malloc heaps of every socket hold: compared before and after. */
struct test_heap {
	uint64_t bytes;       /* allocated */
	uint64_t blocks;      /* allocated */
	uint64_t free_bytes;
};

static inline struct test_heap
test_heap_usage(void)
{
	struct test_heap h = { 0, 0, 0 };
	struct rte_malloc_socket_stats st;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) != 0)
			continue;
		h.bytes += st.heap_allocsz_bytes;
		h.blocks += st.alloc_count;
		h.free_bytes += st.heap_freesz_bytes;
	}
	return h;
}

/* Both measures hold the same allocations. */
static inline bool
test_heap_same(const struct test_heap *a, const struct test_heap *b)
{
	return a->bytes == b->bytes && a->blocks == b->blocks;
}

#endif /* _TEST_RHASHTABLE_UTIL_H_ */
