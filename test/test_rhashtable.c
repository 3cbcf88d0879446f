/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_autotest: create/free/find_existing, parameter checks, and the
 * object API (insert, lookup, lookup_insert, lookup_get_insert,
 * lookup_insert_bulk, remove, replace, lookup_bulk, count, stats, custom and
 * variable-length keys, free_and_destroy).
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_jhash.h>
#include <rte_malloc.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_util.h"

#define N_OBJS 1000

static struct rte_rhashtable *ht;
static struct test_obj *objs;

static int
basic_setup(void)
{
	return test_table_setup(&ht, &objs, "rht_basic", 0, N_OBJS, 1);
}

static void
basic_teardown(void)
{
	test_table_teardown(&ht, &objs);
}

static int
test_create_find_free(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t, *dup;

	test_params_init(&p, "rht_named");
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create failed: %s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(rte_rhashtable_find_existing("rht_named"), t,
			  "find_existing did not return the table");

	rte_errno = 0;
	dup = rte_rhashtable_create(&p);
	TEST_ASSERT_NULL(dup, "a second table of the same name was created");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "duplicate name: rte_errno %d, not EEXIST",
			  rte_errno);
	TEST_ASSERT_EQUAL(rte_rhashtable_find_existing("rht_named"), t,
			  "the refused duplicate replaced the table");

	rte_rhashtable_free(t);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rhashtable_find_existing("rht_named"),
			 "find_existing found a freed table");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "after free: rte_errno %d, not ENOENT", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rhashtable_find_existing(NULL), "find_existing(NULL)");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "find_existing(NULL): rte_errno %d", rte_errno);

	/* the name is free again */
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "re-create after free failed: %s", rte_strerror(rte_errno));
	rte_rhashtable_free(t);

	rte_rhashtable_free(NULL);
	rte_rhashtable_free_and_destroy(NULL, NULL, NULL);
	rte_rhltable_free(NULL);
	return TEST_SUCCESS;
}

/* create(p) must fail with rte_errno err and leave the heap as it was. */
static int
expect_create_fails(const struct rte_rhashtable_params *p, int err, const char *what)
{
	struct test_heap before = test_heap_usage(), after;
	struct rte_rhashtable *t;

	rte_errno = 0;
	t = rte_rhashtable_create(p);
	if (t != NULL) {
		printf("%s: create succeeded\n", what);
		rte_rhashtable_free(t);
		return -1;
	}
	if (rte_errno != err) {
		printf("%s: rte_errno %d (%s), expected %d\n", what, rte_errno,
		       rte_strerror(rte_errno), err);
		return -1;
	}
	after = test_heap_usage();
	if (after.bytes != before.bytes) {
		printf("%s: failed create leaked %" PRIu64 " heap bytes\n", what,
		       after.bytes - before.bytes);
		return -1;
	}
	return 0;
}

static uint32_t
str_hash(const void *key, uint32_t key_len __rte_unused, uint32_t seed)
{
	return rte_jhash(key, strlen(key), seed);
}

static int
test_create_invalid(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;

	TEST_ASSERT_NULL(rte_rhashtable_create(NULL), "create(NULL) succeeded");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "create(NULL): rte_errno %d", rte_errno);

	test_params_init(&p, NULL);
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "NULL name"), "NULL name");

	/* 21 characters: one more than RTE_RHASHTABLE_NAMESIZE - 1 */
	test_params_init(&p, "abcdefghijklmnopqrstu");
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "long name"), "long name");
	test_params_init(&p, "abcdefghijklmnopqrst");
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "a name of RTE_RHASHTABLE_NAMESIZE - 1 chars was refused: %s",
			     rte_strerror(rte_errno));
	rte_rhashtable_free(t);

	test_params_init(&p, "rht_keylen0");
	p.key_len = 0;
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "key_len 0"), "key_len 0");
	p.hashfn = str_hash;
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "key_len 0, hashfn only"),
			    "key_len 0 with only hashfn");

	test_params_init(&p, "rht_keyoff");
	p.key_offset = UINT16_MAX - 1;
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "key beyond 65535"),
			    "key beyond 65535");

	test_params_init(&p, "rht_maxmin");
	p.automatic_shrinking = true;
	p.min_size = 64;
	p.max_size = 16;
	TEST_ASSERT_SUCCESS(expect_create_fails(&p, EINVAL, "max_size < min_size"),
			    "max_size below min_size");
	return TEST_SUCCESS;
}

/* Creates that fail after allocating (duplicate, no memory) free it all. */
static int
test_create_fail_no_leak(void)
{
	struct rhashtable_fault all = { .fail_after = 0, .one_in = 0, .min_bytes = 0 };
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	int ret;

	test_params_init(&p, "rht_leak");
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create failed");
	ret = expect_create_fails(&p, EEXIST, "duplicate");
	rte_rhashtable_free(t);
	TEST_ASSERT_SUCCESS(ret, "duplicate create");

	__rte_rhashtable_fault_inject(&all);
	ret = expect_create_fails(&p, ENOMEM, "bucket allocation failing");
	__rte_rhashtable_fault_inject(NULL);
	TEST_ASSERT_SUCCESS(ret, "create without memory for the bucket table");

	/* neither the name nor the service slot was kept by the failure */
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create after a failed create: %s", rte_strerror(rte_errno));
	rte_rhashtable_free(t);
	return TEST_SUCCESS;
}

static int
test_insert_lookup(void)
{
	struct rte_rhashtable_stats s;
	uint32_t absent = N_OBJS + 100;

	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 0, "new table not empty");
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, &objs[0].key), "found in an empty table");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, N_OBJS), "insert");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_OBJS, true), "lookup after insert");
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, &absent), "absent key found");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), N_OBJS, "count %u",
			  rte_rhashtable_count(ht));

	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.nelems, N_OBJS, "stats.nelems %" PRIu64, s.nelems);
	TEST_ASSERT_EQUAL(s.nobjs, N_OBJS, "stats.nobjs %" PRIu64, s.nobjs);
	TEST_ASSERT(s.bytes > 0, "stats.bytes is 0");
	TEST_ASSERT(s.ntables >= 1, "stats.ntables %u", s.ntables);

	/* the keys sit where key_offset says: the cookie before it is intact */
	TEST_ASSERT_EQUAL(objs[7].cookie, TEST_OBJ_COOKIE, "insert overwrote the object");

	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rhashtable_lookup(NULL, &absent), "lookup(NULL table)");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "lookup(NULL): rte_errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, NULL), "lookup(NULL key)");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "lookup(NULL key): rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_rhashtable_insert(ht, NULL), -EINVAL, "insert(NULL obj)");
	TEST_ASSERT_EQUAL(rte_rhashtable_insert(NULL, &objs[0].node), -EINVAL,
			  "insert(NULL table)");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(NULL), 0, "count(NULL)");
	TEST_ASSERT_EQUAL(rte_rhashtable_stats_get(NULL, &s), -EINVAL, "stats_get(NULL)");
	TEST_ASSERT_EQUAL(rte_rhashtable_stats_get(ht, NULL), -EINVAL, "stats_get(ht, NULL)");
	return TEST_SUCCESS;
}

static int
test_lookup_insert(void)
{
	struct test_obj twin = { .cookie = TEST_OBJ_COOKIE, .key = objs[3].key };
	void *existing = NULL;
	int ret;

	TEST_ASSERT_SUCCESS(rte_rhashtable_lookup_insert(ht, &objs[3].node), "lookup_insert");
	ret = rte_rhashtable_lookup_insert(ht, &twin.node);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "lookup_insert of a present key returned %d", ret);
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &twin.key), &objs[3],
			  "the refused twin replaced the object");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 1, "count %u", rte_rhashtable_count(ht));
	TEST_ASSERT_EQUAL(test_stats(ht).refused_eexist, 1, "stats.refused_eexist");

	TEST_ASSERT_SUCCESS(rte_rhashtable_lookup_get_insert(ht, &objs[4].node, &existing),
			    "lookup_get_insert of a new key");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &objs[4].key), &objs[4],
			  "lookup_get_insert did not insert");
	ret = rte_rhashtable_lookup_get_insert(ht, &twin.node, &existing);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "lookup_get_insert of a present key returned %d", ret);
	TEST_ASSERT_EQUAL(existing, &objs[3], "*existing is not the present object");
	ret = rte_rhashtable_lookup_get_insert(ht, &twin.node, NULL);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "lookup_get_insert(existing NULL) returned %d", ret);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 2, "count %u", rte_rhashtable_count(ht));
	TEST_ASSERT_EQUAL(test_stats(ht).refused_eexist, 3, "stats.refused_eexist");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert(ht, NULL), -EINVAL, "NULL object");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_get_insert(NULL, &twin.node, NULL), -EINVAL,
			  "NULL table");
	return TEST_SUCCESS;
}

static int
test_remove(void)
{
	struct test_obj stranger = { .cookie = TEST_OBJ_COOKIE, .key = objs[10].key };
	uint32_t i;

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 100), "insert");
	for (i = 0; i < 100; i += 2)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	for (i = 0; i < 100; i++) {
		void *want = (i % 2) ? &objs[i] : NULL;

		TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &objs[i].key), want,
				  "key %u after removing the even ones", objs[i].key);
	}
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 50, "count %u", rte_rhashtable_count(ht));
	TEST_ASSERT_EQUAL(rte_rhashtable_remove(ht, &objs[0].node), -ENOENT, "remove twice");
	/* same key as a present object, but not that object */
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[10].node), "re-insert");
	TEST_ASSERT_EQUAL(rte_rhashtable_remove(ht, &stranger.node), -ENOENT,
			  "removing an object never inserted");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &objs[10].key), &objs[10],
			  "the stranger's remove took the real object");
	TEST_ASSERT_EQUAL(rte_rhashtable_remove(ht, NULL), -EINVAL, "remove(NULL)");
	TEST_ASSERT_EQUAL(rte_rhashtable_remove(NULL, &objs[1].node), -EINVAL,
			  "remove(NULL table)");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 51, "count %u", rte_rhashtable_count(ht));
	return TEST_SUCCESS;
}

static int
test_replace(void)
{
	struct test_obj a = { .cookie = TEST_OBJ_COOKIE, .key = 42 };
	struct test_obj b = a, c = a, d = { .cookie = TEST_OBJ_COOKIE, .key = 43 };
	int ret;

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 100, 200), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &a.node), "insert a");
	TEST_ASSERT_SUCCESS(rte_rhashtable_replace(ht, &a.node, &b.node), "replace a by b");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &a.key), &b, "lookup after replace");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 101, "replace changed the count");

	ret = rte_rhashtable_replace(ht, &a.node, &c.node);
	TEST_ASSERT_EQUAL(ret, -ENOENT, "replace of an object not in the table: %d", ret);
	ret = rte_rhashtable_replace(ht, &b.node, &d.node);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "replace by an object of another key: %d", ret);
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &b.key), &b, "refused replace removed b");
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, &d.key), "refused replace inserted d");
	TEST_ASSERT_EQUAL(rte_rhashtable_replace(ht, NULL, &c.node), -EINVAL, "NULL old");
	TEST_ASSERT_EQUAL(rte_rhashtable_replace(ht, &b.node, NULL), -EINVAL, "NULL new");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 100, 200, true), "other objects after replace");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &b.node), "remove b");
	return TEST_SUCCESS;
}

static int
check_bulk(const void **keys, uint32_t n, struct test_obj *const *want)
{
	void *got[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint64_t mask = 0, want_mask = 0;
	int hits = 0, ret;
	uint32_t i;

	for (i = 0; i < n; i++) {
		got[i] = (void *)(uintptr_t)0xdead;
		if (want[i] != NULL) {
			want_mask |= UINT64_C(1) << i;
			hits++;
		}
	}
	ret = rte_rhashtable_lookup_bulk(ht, keys, n, &mask, got);
	TEST_ASSERT_EQUAL(ret, hits, "lookup_bulk of %u keys: %d hits, expected %d", n, ret,
			  hits);
	TEST_ASSERT_EQUAL(mask, want_mask, "hit_mask %#" PRIx64 ", expected %#" PRIx64, mask,
			  want_mask);
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(got[i], (void *)want[i], "objs[%u] wrong", i);
	return TEST_SUCCESS;
}

static int
test_lookup_bulk(void)
{
	struct test_obj *want[RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1];
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1];
	void *got[RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1];
	uint32_t i;

	/* even objects in, odd ones out */
	for (i = 0; i < RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1; i++) {
		keys[i] = &objs[i].key;
		want[i] = (i % 2 == 0) ? &objs[i] : NULL;
		if (want[i] != NULL)
			TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[i].node), "insert");
	}
	TEST_ASSERT_SUCCESS(check_bulk(keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, want), "64 keys");
	TEST_ASSERT_SUCCESS(check_bulk(keys, 1, want), "1 key");
	TEST_ASSERT_SUCCESS(check_bulk(keys + 1, 1, want + 1), "1 absent key");
	TEST_ASSERT_SUCCESS(check_bulk(keys + 3, 13, want + 3), "13 keys");

	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, 5, NULL, got), 3,
			  "lookup_bulk with NULL hit_mask");
	TEST_ASSERT_EQUAL(got[4], (void *)&objs[4], "objs with NULL hit_mask");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, 0, NULL, got), -EINVAL, "0 keys");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1,
						     NULL, got), -EINVAL, "65 keys");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(NULL, keys, 1, NULL, got), -EINVAL,
			  "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, NULL, 1, NULL, got), -EINVAL,
			  "NULL keys");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, 1, NULL, NULL), -EINVAL,
			  "NULL objs");
	return TEST_SUCCESS;
}

/*
 * Bulk lookups of keys deep in an overflow chain: each chain step of the
 * burst is one round of the pipeline, so keys in the slots and at every
 * position of a long chain, and absent keys of the same bucket that walk it
 * to its end, must come out right. One bucket takes CHAIN_LEN objects: its
 * seven slots, then a chain of ten. No rehash runs: the 64-bucket table
 * keeps its chains.
 */
#define CHAIN_LEN (RTE_RHASHTABLE_BUCKET_SLOTS + 10)
#define CHAIN_POOL 8192

/*
 * rte_rhashtable_prefetch_bulk() at every depth, as a pipelined caller runs
 * it, walks chains (the deeper stages compare keys on the way, and stop at
 * the end of a chain or at the key's object) and changes nothing: the bulk
 * lookup after it finds the same objects; bad arguments are refused.
 */
static int
prefetch_stages(const void **keys, struct test_obj **want)
{
	uint32_t depth, n;

	for (depth = 0; depth <= RTE_RHASHTABLE_PREFETCH_DEPTH_MAX; depth++)
		for (n = 0; n <= RTE_RHASHTABLE_LOOKUP_BULK_MAX; n += 7)
			TEST_ASSERT_SUCCESS(rte_rhashtable_prefetch_bulk(ht, keys, n, depth),
					    "prefetch of %u keys at depth %u", n, depth);
	TEST_ASSERT_SUCCESS(check_bulk(keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, want),
			    "lookup after the prefetch stages");
	TEST_ASSERT_EQUAL(rte_rhashtable_prefetch_bulk(ht, keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1,
						       0), -EINVAL, "65 keys");
	TEST_ASSERT_EQUAL(rte_rhashtable_prefetch_bulk(ht, keys, 1,
						       RTE_RHASHTABLE_PREFETCH_DEPTH_MAX + 1),
			  -EINVAL, "depth above the maximum");
	TEST_ASSERT_EQUAL(rte_rhashtable_prefetch_bulk(NULL, keys, 1, 0), -EINVAL, "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_prefetch_bulk(ht, NULL, 1, 1), -EINVAL, "NULL keys");
	return TEST_SUCCESS;
}

static int
lookup_bulk_chains(struct test_obj *pool)
{
	struct test_obj *want[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	struct rte_rhashtable_table_info info;
	uint32_t i, idx, n = 0, target;

	TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table info");
	TEST_ASSERT_EQUAL(info.buckets, 64u, "a 64-bucket table");
	target = rte_rhashtable_default_hash(&pool[0].key, sizeof(pool[0].key), info.seed) &
		 (info.buckets - 1);
	/* CHAIN_LEN objects of bucket target in, as many of its keys out,
	 * from the keys below those the second loop takes: about 127 of them
	 * fall in the bucket, so finding 34 does not depend on the seed
	 */
	for (i = 0; i < CHAIN_POOL - RTE_RHASHTABLE_LOOKUP_BULK_MAX && n < 2 * CHAIN_LEN; i++) {
		idx = rte_rhashtable_default_hash(&pool[i].key, sizeof(pool[i].key), info.seed) &
		      (info.buckets - 1);
		if (idx != target)
			continue;
		keys[n] = &pool[i].key;
		want[n] = n < CHAIN_LEN ? &pool[i] : NULL;
		if (want[n] != NULL)
			TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &pool[i].node), "insert");
		n++;
	}
	TEST_ASSERT_EQUAL(n, 2u * CHAIN_LEN, "%u keys of bucket %u", n, target);
	/* then keys of any bucket, every other one in */
	for (i = CHAIN_POOL - 1; n < RTE_RHASHTABLE_LOOKUP_BULK_MAX; i--, n++) {
		keys[n] = &pool[i].key;
		want[n] = (i % 2 == 0) ? &pool[i] : NULL;
		if (want[n] != NULL)
			TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &pool[i].node), "insert");
	}
	TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table info");
	TEST_ASSERT_EQUAL(info.buckets, 64u, "still 64 buckets");
	TEST_ASSERT_SUCCESS(check_bulk(keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, want),
			    "64 keys, a bucket of %u objects", CHAIN_LEN);
	TEST_ASSERT_SUCCESS(check_bulk(keys, 2 * CHAIN_LEN, want), "the chain's bucket only");
	TEST_ASSERT_SUCCESS(check_bulk(keys + CHAIN_LEN - 1, 2, want + CHAIN_LEN - 1),
			    "the chain's last object and an absent key");
	TEST_ASSERT_SUCCESS(prefetch_stages(keys, want), "prefetch stages over the chain");
	return TEST_SUCCESS;
}

static int
test_lookup_bulk_chains(void)
{
	struct test_obj *pool = test_objs_alloc(CHAIN_POOL, 1);
	int rc;

	TEST_ASSERT_NOT_NULL(pool, "objects");
	rc = lookup_bulk_chains(pool);
	/* the table links pool's objects: free it first */
	rte_rhashtable_free(ht);
	ht = NULL;
	rte_free(pool);
	return rc;
}

/* Insert objs[from..from + n) in one bulk call; its return value. */
static int
insert_bulk(struct rte_rhashtable *t, struct test_obj *o, uint32_t from, uint32_t n, int *rets)
{
	struct rte_rhash_head *heads[RTE_RHASHTABLE_INSERT_BULK_MAX];
	uint32_t k;

	for (k = 0; k < n; k++)
		heads[k] = &o[from + k].node;
	return rte_rhashtable_lookup_insert_bulk(t, heads, n, rets, NULL);
}

/*
 * Bursts of every size from 1 to RTE_RHASHTABLE_INSERT_BULK_MAX fill the
 * table, which grows under them (nothing runs the worker: emergency
 * growth); then a burst mixing new keys, a present key, a key twice and a
 * NULL object gets lookup_insert's answer for each.
 */
static int
test_lookup_insert_bulk(void)
{
	struct test_obj *extra = test_objs_alloc(3, N_OBJS + 1);
	struct test_obj twin = { .cookie = TEST_OBJ_COOKIE, .key = objs[5].key };
	struct rte_rhash_head *mixed[6];
	int rets[RTE_RHASHTABLE_INSERT_BULK_MAX];
	const int want[6] = { 0, -EEXIST, -EINVAL, 0, -EEXIST, 0 };
	const void *want_existing[6] = { NULL, &objs[5], NULL, NULL, &extra[0], NULL };
	void *existing[6];
	uint32_t i, k, n, burst = 1;
	int ret;

	TEST_ASSERT_NOT_NULL(extra, "objects");
	for (i = 0; i < N_OBJS; i += n, burst = burst % RTE_RHASHTABLE_INSERT_BULK_MAX + 1) {
		n = RTE_MIN(burst, N_OBJS - i);
		ret = insert_bulk(ht, objs, i, n, rets);
		TEST_ASSERT_EQUAL(ret, (int)n, "burst of %u from %u: %d inserted", n, i, ret);
		for (k = 0; k < n; k++)
			TEST_ASSERT_EQUAL(rets[k], 0, "object %u: %d", i + k, rets[k]);
	}
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_OBJS, true), "lookup after bulk inserts");
	TEST_ASSERT(test_stats(ht).ntables > 1 || test_table_buckets(ht, 0) > 64,
		    "the table did not grow under the bursts");

	/* extra[0] is inserted, then offered again in the same burst */
	mixed[0] = &extra[0].node;
	mixed[1] = &twin.node;
	mixed[2] = NULL;
	mixed[3] = &extra[1].node;
	mixed[4] = &extra[0].node;
	mixed[5] = &extra[2].node;
	memset(existing, 0xa5, sizeof(existing));
	ret = rte_rhashtable_lookup_insert_bulk(ht, mixed, RTE_DIM(mixed), rets, existing);
	TEST_ASSERT_EQUAL(ret, 3, "mixed burst: %d inserted", ret);
	for (k = 0; k < RTE_DIM(mixed); k++) {
		TEST_ASSERT_EQUAL(rets[k], want[k], "mixed burst, object %u: %d, not %d", k,
				  rets[k], want[k]);
		TEST_ASSERT_EQUAL(existing[k], want_existing[k], "mixed burst, object %u: "
				  "existing %p, not %p", k, existing[k], want_existing[k]);
	}
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &twin.key), &objs[5],
			  "the refused twin replaced the object");
	TEST_ASSERT_SUCCESS(test_found(ht, extra, 0, 3, true), "new keys of the mixed burst");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), N_OBJS + 3, "count %u",
			  rte_rhashtable_count(ht));
	TEST_ASSERT_EQUAL(test_stats(ht).refused_eexist, 2, "stats.refused_eexist");

	/* bad arguments change nothing */
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert_bulk(NULL, mixed, 1, rets, NULL), -EINVAL,
			  "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert_bulk(ht, NULL, 1, rets, NULL), -EINVAL,
			  "NULL objects");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert_bulk(ht, mixed, 1, NULL, NULL), -EINVAL,
			  "NULL rets");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert_bulk(ht, mixed, 0, rets, NULL), -EINVAL,
			  "no object");
	/* refused before objs is read */
	ret = rte_rhashtable_lookup_insert_bulk(ht, mixed, RTE_RHASHTABLE_INSERT_BULK_MAX + 1,
						rets, NULL);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "above RTE_RHASHTABLE_INSERT_BULK_MAX");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), N_OBJS + 3, "count after bad arguments");
	/* the table links extra's objects: free it first */
	rte_rhashtable_free(ht);
	ht = NULL;
	rte_free(extra);
	return TEST_SUCCESS;
}

/*
 * A bulk insert answers as lookup_insert one object after the other, also
 * where buckets fill up (seven slots, then an overflow chain of
 * RTE_RHT_MAX_CHAIN_LEN): two tables with a seedless hash of few values
 * take the same objects, one by single calls, one by bursts of 32, and
 * must end alike, object by object.
 */
#define BULK_SAME_N 600

static uint32_t
few_buckets_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	return test_seedless_hash(key, key_len, seed) % 7;
}

static int
bulk_same_body(struct rte_rhashtable *one, struct rte_rhashtable *bulk, struct test_obj *a,
	       struct test_obj *b)
{
	int rets[32], single, ebusy = 0;
	uint32_t i, k, n;

	for (i = 0; i < BULK_SAME_N; i += n) {
		n = RTE_MIN(32U, BULK_SAME_N - i);
		insert_bulk(bulk, b, i, n, rets);
		for (k = 0; k < n; k++) {
			single = rte_rhashtable_lookup_insert(one, &a[i + k].node);
			TEST_ASSERT_EQUAL(rets[k], single, "object %u: bulk %d, single %d", i + k,
					  rets[k], single);
			ebusy += single == -EBUSY;
		}
	}
	TEST_ASSERT(ebusy > 0, "no chain reached its limit: the case tests nothing");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(bulk), rte_rhashtable_count(one), "counts");
	for (i = 0; i < BULK_SAME_N; i++) {
		/* DPDK's TEST_ASSERT_EQUAL() does not bracket its operands */
		bool in_one = rte_rhashtable_lookup(one, &a[i].key) != NULL;
		bool in_bulk = rte_rhashtable_lookup(bulk, &b[i].key) != NULL;

		TEST_ASSERT_EQUAL(in_bulk, in_one, "key %u", a[i].key);
	}
	return TEST_SUCCESS;
}

static int
test_lookup_insert_bulk_chains(void)
{
	struct test_obj *a = test_objs_alloc(BULK_SAME_N, 1);
	struct test_obj *b = test_objs_alloc(BULK_SAME_N, 1);
	struct rte_rhashtable *one = NULL, *bulk = NULL;
	struct rte_rhashtable_params p;
	int rc = TEST_FAILED;

	test_params_init(&p, "rht_bulk_one");
	p.hashfn = few_buckets_hash;
	one = rte_rhashtable_create(&p);
	test_params_init(&p, "rht_bulk_many");
	p.hashfn = few_buckets_hash;
	bulk = rte_rhashtable_create(&p);
	if (a != NULL && b != NULL && one != NULL && bulk != NULL)
		rc = bulk_same_body(one, bulk, a, b);
	else
		printf("no memory for the tables or objects\n");
	rte_rhashtable_free(one);
	rte_rhashtable_free(bulk);
	rte_free(a);
	rte_free(b);
	return rc;
}

/*
 * rte_rhashtable_lookup_fast() agrees with rte_rhashtable_lookup(): inline
 * on a table at rest, through the call while a rehash is pending, with a
 * key length that is not the table's, and on bad arguments.
 */
static int
check_fast(uint32_t n, uint32_t absent_from)
{
	uint32_t i, key;

	for (i = 0; i < n; i++) {
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_fast(ht, &objs[i].key, sizeof(key)),
				  (void *)&objs[i], "key %u", objs[i].key);
		/* not the table's key length: the call decides */
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_fast(ht, &objs[i].key, 8),
				  rte_rhashtable_lookup(ht, &objs[i].key), "key %u, len 8",
				  objs[i].key);
	}
	for (key = absent_from; key < absent_from + 100; key++)
		TEST_ASSERT_NULL(rte_rhashtable_lookup_fast(ht, &key, sizeof(key)),
				 "absent key %u found", key);
	return TEST_SUCCESS;
}

static int
test_lookup_fast(void)
{
	struct rte_rhashtable_stats st;
	uint32_t i, key = 1;

	for (i = 0; i < N_OBJS; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[i].node), "insert %u", i);
	/* no worker ran: inserts grew the table by emergency, objects wait
	 * in older bucket tables
	 */
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &st), "stats");
	TEST_ASSERT(st.ntables > 1, "a rehash pending (%u tables)", st.ntables);
	TEST_ASSERT_SUCCESS(check_fast(N_OBJS, N_OBJS + 1), "during a rehash");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash");
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &st), "stats");
	TEST_ASSERT_EQUAL(st.ntables, 1u, "one bucket table after the rehash");
	TEST_ASSERT_SUCCESS(check_fast(N_OBJS, N_OBJS + 1), "at rest");
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rhashtable_lookup_fast(NULL, &key, sizeof(key)), "NULL table");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno after NULL table");
	TEST_ASSERT_NULL(rte_rhashtable_lookup_fast(ht, NULL, sizeof(key)), "NULL key");
	return TEST_SUCCESS;
}

/*
 * Every key length reaches lookup code that hashes and compares all of its
 * bytes: the specialised lengths (rhashtable_pvt.h) and the lengths around
 * them. Keys differ in their first and in their last byte, so that a
 * lookup of the wrong length misses keys, or finds the wrong object.
 * LEN_OBJS fill the 448 slots of the first table (64 buckets) several
 * times over.
 */
#define LEN_KEY_MAX 100
#define LEN_OBJS 2100

struct len_obj {
	uint8_t key[LEN_KEY_MAX];
	struct rte_rhash_head node;
};

static void
len_key_make(uint8_t *key, uint32_t len, uint32_t i)
{
	memset(key, 0x5a, len);
	key[0] = (uint8_t)i;
	key[len - 1] = (uint8_t)(i >> 8) ^ 0x80;
}

static int
check_len_lookups(struct rte_rhashtable *t, struct len_obj *o, uint32_t len)
{
	const void *kp[LEN_OBJS];
	void *found[LEN_OBJS];
	uint8_t absent[LEN_KEY_MAX];
	uint32_t i;

	for (i = 0; i < LEN_OBJS; i++) {
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup(t, o[i].key), (void *)&o[i],
				  "len %u: key %u", len, i);
		kp[i] = o[i].key;
	}
	for (i = 0; i < LEN_OBJS; i += RTE_RHASHTABLE_LOOKUP_BULK_MAX) {
		uint32_t n = RTE_MIN(LEN_OBJS - i, (uint32_t)RTE_RHASHTABLE_LOOKUP_BULK_MAX);

		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(t, &kp[i], n, NULL, &found[i]),
				  (int)n, "len %u: bulk from %u", len, i);
	}
	for (i = 0; i < LEN_OBJS; i++)
		TEST_ASSERT_EQUAL(found[i], (void *)&o[i], "len %u: bulk key %u", len, i);
	for (i = LEN_OBJS; i < 2 * LEN_OBJS; i++) {
		len_key_make(absent, len, i);
		TEST_ASSERT_NULL(rte_rhashtable_lookup(t, absent), "len %u: absent %u", len, i);
	}
	return TEST_SUCCESS;
}

static int
check_key_len(uint32_t len, struct len_obj *o)
{
	struct rte_rhashtable_stats st;
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	uint32_t i;
	int rc = TEST_SUCCESS;

	test_params_set(&p, "rht_keylen", len, offsetof(struct len_obj, key),
			offsetof(struct len_obj, node));
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create with key_len %u: %s", len, rte_strerror(rte_errno));
	memset(o, 0, LEN_OBJS * sizeof(*o));
	for (i = 0; i < LEN_OBJS && rc == TEST_SUCCESS; i++) {
		len_key_make(o[i].key, len, i);
		if (rte_rhashtable_insert(t, &o[i].node) != 0)
			rc = TEST_FAILED;
	}
	/* inserts grew the table: first with objects in older bucket tables
	 * (the whole algorithm), then at rest (the common case)
	 */
	if (rc == TEST_SUCCESS && (rte_rhashtable_stats_get(t, &st) != 0 || st.ntables < 2))
		rc = TEST_FAILED;
	if (rc == TEST_SUCCESS)
		rc = check_len_lookups(t, o, len);
	if (rc == TEST_SUCCESS && rte_rhashtable_rehash_run(t) != 0)
		rc = TEST_FAILED;
	if (rc == TEST_SUCCESS)
		rc = check_len_lookups(t, o, len);
	rte_rhashtable_free(t);
	return rc;
}

static int
test_key_lengths(void)
{
	static const uint32_t lens[] = {
		2, 3, 4, 5, 7, 8, 9, 12, 13, 14, 15, 16, 17, 24, 31, 32, 33, 39, 40, 41,
		48, 63, 64, 65, LEN_KEY_MAX,
	};
	struct len_obj *o = rte_zmalloc(NULL, LEN_OBJS * sizeof(*o), 0);
	uint32_t i;
	int rc = TEST_SUCCESS;

	TEST_ASSERT_NOT_NULL(o, "objects");
	for (i = 0; i < RTE_DIM(lens) && rc == TEST_SUCCESS; i++) {
		rc = check_key_len(lens[i], o);
		if (rc != TEST_SUCCESS)
			printf("key_len %u failed\n", lens[i]);
	}
	rte_free(o);
	return rc;
}

/* Case-insensitive 8-byte names: only found if the custom functions are used. */
struct ci_obj {
	char pad[5];
	char name[8];
	struct rte_rhash_head node;
};

static unsigned int ci_hash_calls, ci_obj_hash_calls, ci_cmp_calls;

static uint32_t
ci_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	const char *k = key;
	alignas(uint32_t) char low[8];	/* rte_jhash() reads 32-bit words */
	uint32_t i;

	ci_hash_calls++;
	for (i = 0; i < key_len && i < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)k[i]);
	return rte_jhash(low, i, seed);
}

static uint32_t
ci_obj_hash(const void *obj, uint32_t key_len, uint32_t seed)
{
	const struct ci_obj *o = obj;

	ci_obj_hash_calls++;
	return ci_hash(o->name, key_len, seed);
}

static int
ci_cmp(const void *key, const void *obj)
{
	const struct ci_obj *o = obj;

	ci_cmp_calls++;
	return strncasecmp(key, o->name, sizeof(o->name));
}

static int
test_custom_functions(void)
{
	struct rte_rhashtable_params p;
	struct ci_obj a = { .name = "abcdefg" }, b = { .name = "zzz" };
	struct rte_rhashtable *t;
	char key[8] = "ABCDEFG", other[8] = "ABCDEFH";

	test_params_set(&p, "rht_custom", sizeof(a.name), offsetof(struct ci_obj, name),
		offsetof(struct ci_obj, node));
	p.hashfn = ci_hash;
	p.obj_hashfn = ci_obj_hash;
	p.obj_cmpfn = ci_cmp;
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create with custom functions");
	ci_hash_calls = ci_obj_hash_calls = ci_cmp_calls = 0;

	if (rte_rhashtable_insert(t, &a.node) != 0 ||
	    rte_rhashtable_lookup_insert(t, &b.node) != 0 ||
	    rte_rhashtable_lookup(t, key) != &a ||
	    rte_rhashtable_lookup(t, other) != NULL) {
		rte_rhashtable_free(t);
		TEST_ASSERT(0, "case-insensitive lookup failed: custom functions not used");
	}
	rte_rhashtable_free(t);
	TEST_ASSERT(ci_hash_calls > 0, "hashfn never called");
	TEST_ASSERT(ci_obj_hash_calls > 0, "obj_hashfn never called");
	TEST_ASSERT(ci_cmp_calls > 0, "obj_cmpfn never called");
	return TEST_SUCCESS;
}

/*
 * Variable-length keys: NUL-terminated strings at key_offset (the library
 * passes object + key_offset as the key of an object being inserted).
 */
struct var_obj {
	uint32_t id;
	struct rte_rhash_head node;
	char name[48];
};

static unsigned int var_obj_hash_calls;

static uint32_t
var_obj_hash(const void *obj, uint32_t key_len, uint32_t seed)
{
	const struct var_obj *o = obj;

	var_obj_hash_calls++;
	return str_hash(o->name, key_len, seed);
}

static int
var_cmp(const void *key, const void *obj)
{
	const struct var_obj *o = obj;

	return strcmp(key, o->name);
}

/* past the grow threshold of 256 buckets (1254 objects): the table grows to 512 */
#define N_VAR 1300

static int
var_keys_check(struct rte_rhashtable *t, struct var_obj *vo)
{
	char key[48];
	uint32_t i;

	for (i = 0; i < N_VAR; i++) {
		/* a copy, so the table cannot get away with pointer compares */
		strcpy(key, vo[i].name);
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup(t, key), &vo[i], "key '%s'", key);
		/* a prefix of the key is another (absent) key */
		key[strlen(key) - 1] = '\0';
		TEST_ASSERT_NULL(rte_rhashtable_lookup(t, key), "prefix '%s' found", key);
	}
	return TEST_SUCCESS;
}

static int
test_variable_keys_body(struct rte_rhashtable *t, struct var_obj *vo)
{
	struct var_obj dup;
	uint32_t i;

	for (i = 0; i < N_VAR; i++) {
		vo[i].id = i;
		/* 4 to 43 characters; every key ends in '|', so a key without
		 * its last character is never a key
		 */
		snprintf(vo[i].name, sizeof(vo[i].name), "k%u_%.*s|", i, (int)(i % 37),
			 "abcdefghijklmnopqrstuvwxyz0123456789xyz");
		TEST_ASSERT_SUCCESS(rte_rhashtable_lookup_insert(t, &vo[i].node), "insert %u", i);
	}
	TEST_ASSERT_SUCCESS(var_keys_check(t, vo), "lookups");

	dup = vo[5];
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert(t, &dup.node), -EEXIST, "duplicate key");

	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	TEST_ASSERT(test_stats(t).buckets >= 512, "%u objects did not grow the table", N_VAR);
	TEST_ASSERT_SUCCESS(var_keys_check(t, vo), "lookups after the grow");

	/* a re-seed moves every object: each is rehashed with obj_hashfn */
	var_obj_hash_calls = 0;
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(t), "reseed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	TEST_ASSERT(var_obj_hash_calls >= N_VAR, "rehash called obj_hashfn %u times",
		    var_obj_hash_calls);
	TEST_ASSERT_SUCCESS(var_keys_check(t, vo), "lookups after the re-seed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(t, &vo[7].node), "remove");
	TEST_ASSERT_NULL(rte_rhashtable_lookup(t, vo[7].name), "removed key found");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(t), N_VAR - 1, "count");
	return TEST_SUCCESS;
}

static int
test_variable_keys(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	struct var_obj *vo;
	int ret;

	test_params_set(&p, "rht_varkey", 0, offsetof(struct var_obj, name),
		offsetof(struct var_obj, node));
	p.hashfn = str_hash;
	p.obj_hashfn = var_obj_hash;
	p.obj_cmpfn = var_cmp;
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create with key_len 0: %s", rte_strerror(rte_errno));
	vo = rte_zmalloc(NULL, sizeof(*vo) * N_VAR, 0);
	ret = vo == NULL ? TEST_FAILED : test_variable_keys_body(t, vo);
	rte_rhashtable_free(t);
	rte_free(vo);
	return ret;
}

/* A 16-byte key far from a head that comes first in the object. */
struct far_obj {
	char pad0[40];
	struct rte_rhash_head node;
	char pad1[52];
	uint8_t key[16];
	uint32_t tail;
};

static int
test_offsets(void)
{
	struct rte_rhashtable_params p;
	struct far_obj o[64];
	struct rte_rhashtable *t;
	uint8_t key[16];
	uint32_t i;

	memset(o, 0, sizeof(o));
	test_params_set(&p, "rht_offsets", sizeof(key), offsetof(struct far_obj, key),
		offsetof(struct far_obj, node));
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create");
	for (i = 0; i < RTE_DIM(o); i++) {
		/* keys differ only in their last byte */
		o[i].key[15] = (uint8_t)i;
		o[i].tail = 0xfeedbeef;
		if (rte_rhashtable_insert(t, &o[i].node) != 0)
			break;
	}
	for (i = 0; i < RTE_DIM(o); i++) {
		memset(key, 0, sizeof(key));
		key[15] = (uint8_t)i;
		if (rte_rhashtable_lookup(t, key) != &o[i] || o[i].tail != 0xfeedbeef)
			break;
	}
	rte_rhashtable_free(t);
	TEST_ASSERT_EQUAL(i, RTE_DIM(o), "object %u not found at its offsets", i);
	return TEST_SUCCESS;
}

static void
count_free(void *arg, void *obj)
{
	struct test_obj *o = obj;
	unsigned int *calls = arg;

	o->seen++;
	(*calls)++;
}

static int
test_free_and_destroy(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	unsigned int calls = 0;
	uint32_t i;

	test_params_init(&p, "rht_destroy");
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create");
	test_objs_clear_seen(objs, N_OBJS);
	/* a removed object must not be passed */
	if (test_insert_range(t, objs, 0, N_OBJS) != 0 ||
	    rte_rhashtable_remove(t, &objs[0].node) != 0) {
		rte_rhashtable_free(t);
		return TEST_FAILED;
	}
	rte_rhashtable_free_and_destroy(t, count_free, &calls);
	TEST_ASSERT_EQUAL(calls, N_OBJS - 1, "free_fn called %u times for %u objects", calls,
			  N_OBJS - 1);
	TEST_ASSERT_EQUAL(objs[0].seen, 0, "free_fn called for a removed object");
	for (i = 1; i < N_OBJS; i++)
		TEST_ASSERT_EQUAL(objs[i].seen, 1, "object %u freed %u times", i, objs[i].seen);
	TEST_ASSERT_NULL(rte_rhashtable_find_existing("rht_destroy"), "table still named");

	/* NULL free_fn: as rte_rhashtable_free() */
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "re-create");
	TEST_ASSERT_SUCCESS(test_insert_range(t, objs, 0, 10), "insert");
	rte_rhashtable_free_and_destroy(t, NULL, NULL);
	TEST_ASSERT_NULL(rte_rhashtable_find_existing("rht_destroy"), "table still named");
	return TEST_SUCCESS;
}

/* Average number of output bits that flip when one key bit flips (ideal: 16). */
static double
default_hash_avalanche(void)
{
	uint32_t key[4], h, bit, flips = 0, n = 0, k;

	for (k = 0; k < 256; k++) {
		key[0] = k;
		key[1] = k * 2654435761u;
		key[2] = ~k;
		key[3] = 7;
		h = rte_rhashtable_default_hash(key, sizeof(key), 0x1234);
		for (bit = 0; bit < 128; bit += 3) {
			key[bit / 32] ^= 1u << (bit % 32);
			flips += rte_popcount32(h ^
				rte_rhashtable_default_hash(key, sizeof(key), 0x1234));
			key[bit / 32] ^= 1u << (bit % 32);
			n++;
		}
	}
	return (double)flips / n;
}

static int
test_default_hash(void)
{
	uint32_t key[3] = { 1, 2, 3 };
	uint32_t h1 = rte_rhashtable_default_hash(key, sizeof(key), 7);
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	double avalanche;

	TEST_ASSERT_EQUAL(h1, rte_rhashtable_default_hash(key, sizeof(key), 7),
			  "default hash not deterministic");
	TEST_ASSERT_NOT_EQUAL(h1, rte_rhashtable_default_hash(key, sizeof(key), 8),
			      "default hash ignores the seed");
	TEST_ASSERT_NOT_EQUAL(h1, rte_rhashtable_default_hash(key, sizeof(key) - 1, 7),
			      "default hash ignores the length");
	/* not linear: every key bit reaches about half the output bits */
	avalanche = default_hash_avalanche();
	TEST_ASSERT(avalanche > 14.0 && avalanche < 18.0,
		    "one flipped key bit flips %.2f of 32 hash bits", avalanche);

	/* given explicitly as hashfn, it behaves as the default */
	test_params_init(&p, "rht_defhash");
	p.hashfn = rte_rhashtable_default_hash;
	t = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(t, "create with hashfn = default hash");
	if (test_insert_range(t, objs, 0, 300) != 0 || rte_rhashtable_rehash_run(t) != 0 ||
	    test_found(t, objs, 0, 300, true) != 0) {
		rte_rhashtable_free(t);
		TEST_ASSERT(0, "table with the default hash as hashfn");
	}
	rte_rhashtable_free(t);
	return TEST_SUCCESS;
}

/*
 * Known answers of the default hash, from the portable 128-bit product: the
 * x86-64 build multiplies with inline assembly instead, and both must give
 * every table the same hashes.
 */
static int
test_default_hash_vectors(void)
{
	static const struct {
		uint32_t len;
		uint32_t hash;
	} vec[] = {
		{ 1, 0x1d2c0385 }, { 3, 0x2d311811 }, { 4, 0xe5ca509c },
		{ 7, 0x1604df57 }, { 8, 0xc9a429bd }, { 12, 0xc494b9b2 },
		{ 16, 0x871586de }, { 17, 0x0c1fb75a }, { 32, 0xa6c0a1a4 },
		{ 40, 0xc02d21d7 },
	};
	uint8_t key[40];
	uint32_t i, h;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 37 + 11);
	for (i = 0; i < RTE_DIM(vec); i++) {
		h = rte_rhashtable_default_hash(key, vec[i].len, 0x9e3779b9);
		TEST_ASSERT_EQUAL(h, vec[i].hash, "%u-byte key: hash 0x%08x, want 0x%08x",
				  vec[i].len, h, vec[i].hash);
	}
	return TEST_SUCCESS;
}

/*
 * Bucket word summaries (rte_rhashtable_core.h): three Bloom bits an
 * object, from its 8-bit fingerprint. A summary must hold every hash
 * pushed into it, in any order,
 * and turn away exactly what its reading says, whether a writer holds the
 * bucket's lock (bit 48 of the word) or not.
 */
static uint64_t
xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * The Bloom bits of a hash, from first principles: the (93 * f mod 455)-th
 * set of three of the 15 bits in lexicographic order, f the hash's top 8
 * bits.
 */
static uint16_t
bloom_bits(uint64_t h)
{
	uint32_t want = (uint32_t)(h >> 56) * 93 % 455, k = 0, a, b, c;

	for (a = 0; a < 15; a++)
		for (b = a + 1; b < 15; b++)
			for (c = b + 1; c < 15; c++)
				if (k++ == want)
					return (uint16_t)(1U << a | 1U << b | 1U << c);
	return 0;
}

/* What the summary of these n hashes should hold, from first principles. */
static bool
summary_should_hold(const uint64_t *h, uint32_t n, uint64_t probe)
{
	uint16_t bloom = 0, bits = bloom_bits(probe);
	uint32_t i;

	for (i = 0; i < n; i++)
		bloom |= bloom_bits(h[i]);
	return n != 0 && (bloom & bits) == bits;
}

static int
test_bucket_summary(void)
{
	static struct rte_rhash_head obj, *bucket;
	struct rte_rhash_head *word, *locked;
	uint64_t h[6], probe, rng = 0x243f6a8885a308d3ULL;
	uint32_t n, i, trial, passed[RTE_DIM(h) + 1] = { 0 };
	uint16_t summary, reversed;
	bool want;

	for (trial = 0; trial < 2000; trial++) {
		for (n = 0; n < RTE_DIM(h); n++)
			h[n] = xorshift64(&rng);
		for (n = 0; n <= RTE_DIM(h); n++) {
			summary = 0;
			for (i = 0; i < n; i++)
				summary = __rte_rht_summary_add(summary, h[i]);
			word = n == 0 ? __rte_rht_nulls(&bucket) :
				__rte_rht_bucket_word(&obj, summary, n);
			TEST_ASSERT_EQUAL(__rte_rht_bucket_len(word), RTE_MIN(n, 3u),
					  "length of %u objects", n);
			for (i = 0; i < n; i++)
				TEST_ASSERT(__rte_rht_summary_may_hold(word, h[i]),
					    "a summary of %u lost object %u", n, i);
			probe = xorshift64(&rng);
			want = summary_should_hold(h, n, probe);
			TEST_ASSERT_EQUAL(__rte_rht_summary_may_hold(word, probe), want,
					  "%u objects, probe 0x%016" PRIx64, n, probe);
			passed[n] += want;
			locked = (struct rte_rhash_head *)((uintptr_t)word | __RTE_RHT_LOCK_BIT);
			TEST_ASSERT_EQUAL(__rte_rht_summary_may_hold(locked, probe), want,
					  "%u objects, locked, probe 0x%016" PRIx64, n, probe);
			TEST_ASSERT(__rte_rht_ptr(locked) == __rte_rht_ptr(word) &&
				    __rte_rht_bucket_len(locked) == __rte_rht_bucket_len(word) &&
				    __rte_rht_is_nulls(locked) == __rte_rht_is_nulls(word),
				    "the lock bit changed how a word of %u objects reads", n);
		}
		/* the order of the pushes does not matter */
		summary = __rte_rht_summary_add(__rte_rht_summary_add(0, h[0]), h[1]);
		reversed = __rte_rht_summary_add(__rte_rht_summary_add(0, h[1]), h[0]);
		TEST_ASSERT_EQUAL(reversed, summary, "two objects, reversed");
	}
	TEST_ASSERT_EQUAL(passed[0], 0u, "an empty bucket let %u probes through", passed[0]);
	/* every key's Bloom bits, so that a bulk lookup may skip the nulls
	 * test of a bucket word whose summary it checked
	 */
	for (i = 0; i < 256; i++) {
		probe = (uint64_t)i << 56 | (xorshift64(&rng) >> 8);
		word = __rte_rht_nulls(&bucket);
		locked = (struct rte_rhash_head *)((uintptr_t)word | __RTE_RHT_LOCK_BIT);
		TEST_ASSERT(!__rte_rht_summary_may_hold(word, probe) &&
			    !__rte_rht_summary_may_hold(locked, probe),
			    "an empty bucket holds the keys of Bloom bits %u", i);
	}
	/* one object lets the keys of its fingerprint through, one in 256
	 * (7.8 of 2000 expected), the Bloom bits of two objects about 3.4% (68)
	 */
	TEST_ASSERT(passed[1] <= 25, "one object let %u of 2000 probes through", passed[1]);
	TEST_ASSERT(passed[2] <= 100, "two objects let %u of 2000 probes through", passed[2]);
	printf("random probes let through, of 2000: 1 object %u, 2: %u, 3: %u, 6: %u\n",
	       passed[1], passed[2], passed[3], passed[6]);
	return TEST_SUCCESS;
}

/*
 * One bucket through every summary: keys that share their bucket in every
 * table but not their fingerprint (fp_hash()); once fillers take the
 * bucket's seven slots, its overflow chain grows to 4 and shrinks back by
 * removals at the head, in the middle and at the end, each of which
 * recomputes the summary. Lookups of the keys left must hit; of absent keys
 * must miss, and while the chain holds one object, without comparing with
 * it any key but those of its fingerprint (fp_cmp() counts the compares
 * with the chain's objects, not with the fillers, whose slot tags decide).
 */
#define FP_KEYS 4
#define FP_ABSENT 64
#define FP_OBJS (FP_KEYS + FP_ABSENT + RTE_RHASHTABLE_BUCKET_SLOTS) /* fillers last */

static unsigned int fp_cmp_calls;
static const struct test_obj *fp_chain; /* the FP_KEYS objects of the chain */

static uint32_t
fp_hash(const void *key, uint32_t key_len __rte_unused, uint32_t seed __rte_unused)
{
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	/* the low half picks the bucket, the high half is the fingerprint */
	return (uint32_t)((k * 40503u) << 16) | 5u;
}

static int
fp_cmp(const void *key, const void *obj)
{
	const struct test_obj *o = obj;

	fp_cmp_calls += o >= fp_chain && o < fp_chain + FP_KEYS;
	return memcmp(key, &o->key, sizeof(uint32_t));
}

/*
 * The absent keys of fp_check() (looked up one by one and in bulk) whose
 * fingerprint, the top 8 bits of the hash, is that of key k: a summary of
 * k's object alone lets exactly those through to a compare.
 */
static unsigned int
fp_twins(const struct test_obj *o, uint32_t k)
{
	uint32_t fp = fp_hash(&k, sizeof(k), 0) >> 24, i, a;
	unsigned int n = 0;

	for (i = 0; i < FP_ABSENT; i++) {
		a = 1000 + i;
		n += (fp_hash(&a, sizeof(a), 0) >> 24) == fp;
		n += (fp_hash(&o[FP_KEYS + i].key, sizeof(a), 0) >> 24) == fp;
	}
	return n;
}

/* Lookups of objs[0..FP_KEYS) (present where in is set) and of absent keys. */
static int
fp_check(struct rte_rhashtable *t, struct test_obj *o, const bool *in, unsigned int *absent_cmps)
{
	const void *keys[FP_ABSENT];
	void *found[FP_ABSENT], *want;
	uint32_t i, k;

	for (i = 0; i < FP_KEYS; i++) {
		/* a variable: DPDK's TEST_ASSERT_EQUAL does not bracket its operands */
		want = in[i] ? &o[i] : NULL;
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup(t, &o[i].key), want, "key %u, %s",
				  o[i].key, in[i] ? "present" : "removed");
	}
	fp_cmp_calls = 0;
	for (i = 0; i < FP_ABSENT; i++) {
		k = 1000 + i;
		TEST_ASSERT_NULL(rte_rhashtable_lookup(t, &k), "absent key %u found", k);
	}
	for (i = 0; i < FP_ABSENT; i++)
		keys[i] = &o[FP_KEYS + i].key;
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(t, keys, FP_ABSENT, NULL, found), 0,
			  "bulk lookup of absent keys");
	*absent_cmps = fp_cmp_calls;
	return TEST_SUCCESS;
}

static int
summary_transitions(struct rte_rhashtable *t, struct test_obj *o)
{
	static const uint32_t removal_order[FP_KEYS] = { 3, 1, 0, 2 };
	bool in[FP_KEYS] = { false };
	unsigned int cmps;
	uint32_t i, r;

	/* the fillers take the slots: the keys below go to the overflow chain */
	TEST_ASSERT_SUCCESS(test_insert_range(t, o, FP_KEYS + FP_ABSENT, FP_OBJS), "fillers");
	for (i = 0; i < FP_KEYS; i++) {
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(t, &o[i].node), "insert %u", i);
		in[i] = true;
		TEST_ASSERT_SUCCESS(fp_check(t, o, in, &cmps), "a chain of %u", i + 1);
		if (i == 0)
			TEST_ASSERT_EQUAL(cmps, fp_twins(o, o[0].key),
					  "one object: absent keys compared %u times", cmps);
	}
	TEST_ASSERT_EQUAL(test_table_buckets(t, 0), 64u, "no resize");
	/* 3 is the head, 1 in the middle, then 0 the tail of 0-2, 2 alone */
	for (r = 0; r < FP_KEYS; r++) {
		i = removal_order[r];
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(t, &o[i].node), "remove %u", i);
		in[i] = false;
		TEST_ASSERT_SUCCESS(fp_check(t, o, in, &cmps), "after removing %u", i);
		if (r == FP_KEYS - 2)
			TEST_ASSERT_EQUAL(cmps, fp_twins(o, o[2].key),
					  "one object left: absent keys compared %u times", cmps);
	}
	TEST_ASSERT_SUCCESS(test_found(t, o, FP_KEYS + FP_ABSENT, FP_OBJS, true), "fillers");
	return TEST_SUCCESS;
}

static int
test_summary_transitions(void)
{
	struct test_obj *o = test_objs_alloc(FP_OBJS, 1);
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	int rc;

	TEST_ASSERT_NOT_NULL(o, "objects");
	fp_chain = o;
	test_params_init(&p, "rht_fp");
	p.hashfn = fp_hash;
	p.obj_cmpfn = fp_cmp;
	t = rte_rhashtable_create(&p);
	if (t == NULL) {
		rte_free(o);
		TEST_ASSERT(0, "create: %s", rte_strerror(rte_errno));
	}
	rc = summary_transitions(t, o);
	rte_rhashtable_free(t);
	rte_free(o);
	return rc;
}

static struct unit_test_suite rhashtable_suite = {
	.suite_name = "rhashtable basic",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_create_find_free),
		TEST_CASE(test_create_invalid),
		TEST_CASE(test_create_fail_no_leak),
		TEST_CASE_ST(basic_setup, basic_teardown, test_insert_lookup),
		TEST_CASE_ST(basic_setup, basic_teardown, test_lookup_insert),
		TEST_CASE_ST(basic_setup, basic_teardown, test_remove),
		TEST_CASE_ST(basic_setup, basic_teardown, test_replace),
		TEST_CASE_ST(basic_setup, basic_teardown, test_lookup_bulk),
		TEST_CASE_ST(basic_setup, basic_teardown, test_lookup_bulk_chains),
		TEST_CASE_ST(basic_setup, basic_teardown, test_lookup_fast),
		TEST_CASE_ST(basic_setup, basic_teardown, test_lookup_insert_bulk),
		TEST_CASE(test_lookup_insert_bulk_chains),
		TEST_CASE(test_key_lengths),
		TEST_CASE(test_custom_functions),
		TEST_CASE(test_variable_keys),
		TEST_CASE(test_offsets),
		TEST_CASE_ST(basic_setup, basic_teardown, test_free_and_destroy),
		TEST_CASE_ST(basic_setup, basic_teardown, test_default_hash),
		TEST_CASE(test_default_hash_vectors),
		TEST_CASE(test_bucket_summary),
		TEST_CASE(test_summary_transitions),
		TEST_CASES_END()
	}
};

static int
test_rhashtable(void)
{
	return unit_test_suite_runner(&rhashtable_suite);
}

REGISTER_FAST_TEST(rhashtable_autotest, true, true, test_rhashtable);
