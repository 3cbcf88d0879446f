/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * A removed object re-inserted at once, while a rehash is pending, under a
 * reader that stands on it. The API allows it (without free_obj the caller
 * owns a removed object): the re-insert links the object into an overflow
 * chain of the newest bucket table, so a reader standing on it is carried
 * into that chain. The chain it lands in has the same bucket index as the
 * one it left (the hash here ignores the seed and both indexes take the
 * same low bits): only a nulls marker that names the bucket table as well
 * as the bucket tells the reader it left its chain and must restart it.
 * Objects in slots have no links: fillers take the seven slots of that
 * bucket in both tables, so that X and S are chained in the first and X
 * is chained again in the second.
 *
 * The interleaving is forced from inside obj_cmpfn (lookups, bulk lookups)
 * and between two walk_next calls (walkers), in one thread, so that each
 * case fails every time without the fix.
 */

#include <errno.h>
#include <stdbool.h>

#include "test_rhashtable_util.h"

/* Both in bucket 0 of a 4-bucket table and of its 8-bucket successor. */
#define KEY_S 0x10 /* never removed: every lookup must find it */
#define KEY_X 0x20 /* removed and re-inserted under the reader */
/* fillers of the slots of bucket 0, in the first table and in its successor */
#define KEY_SLOTS_OLD 0x100
#define KEY_SLOTS_NEW 0x200
#define N_OBJS 48

static struct rte_rhashtable *ht;
static struct test_obj *objs;
static struct test_obj *obj_s, *obj_x;
/* obj_cmpfn removes and re-inserts obj_x the first time it sees it */
static bool hook_armed;
static int hook_ret;

static void
reinsert_x(void)
{
	hook_ret = rte_rhashtable_remove(ht, &obj_x->node);
	if (hook_ret == 0)
		hook_ret = rte_rhashtable_insert(ht, &obj_x->node);
}

static int
hooked_cmp(const void *key, const void *obj)
{
	const struct test_obj *o = obj;

	if (hook_armed && o == obj_x) {
		hook_armed = false;
		reinsert_x();
	}
	return memcmp(key, &o->key, sizeof(o->key));
}

/* Insert objects o[0..n) with keys first, first + 8, ...: bucket 0 of both tables. */
static int
fill_bucket_0(struct test_obj *o, uint32_t n, uint32_t first)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		o[i].key = first + 8 * i;
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &o[i].node), "insert %#x",
				    o[i].key);
	}
	return TEST_SUCCESS;
}

/*
 * Fillers in the slots of bucket 0, then chain X -> S there in the first
 * table, then fillers in the other buckets until an insert finds the table
 * full and attaches a successor itself (emergency growth): a rehash is
 * pending, and nothing moves objects (no service lcore runs the worker
 * here). Last, fillers in the slots of bucket 0 of the successor: X's
 * re-insert goes to its overflow chain.
 */
static int
reinsert_setup(void)
{
	struct test_obj *fillers;
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats s;
	uint32_t i;

	test_params_init(&p, "rht_reinsert");
	p.nelem_hint = 1; /* 4 buckets */
	p.hashfn = test_seedless_hash;
	p.obj_cmpfn = hooked_cmp;
	ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(ht, "create failed");
	objs = test_objs_alloc(N_OBJS, 0);
	TEST_ASSERT_NOT_NULL(objs, "no memory for objects");
	obj_s = &objs[0];
	obj_x = &objs[1];
	obj_s->key = KEY_S;
	obj_x->key = KEY_X;
	fillers = &objs[2];
	TEST_ASSERT_SUCCESS(fill_bucket_0(fillers, RTE_RHASHTABLE_BUCKET_SLOTS, KEY_SLOTS_OLD),
			    "slots of bucket 0");
	fillers += RTE_RHASHTABLE_BUCKET_SLOTS;
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &obj_s->node), "insert S");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &obj_x->node), "insert X");
	/* fillers: keys 1, 2, 3, 5, 6, 7, 9, ... (never bucket 0) */
	for (i = 0; fillers + i < objs + N_OBJS - RTE_RHASHTABLE_BUCKET_SLOTS; i++) {
		fillers[i].key = i + i / 3 + 1;
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &fillers[i].node),
				    "insert filler %u", fillers[i].key);
		TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &s), "stats");
		if (s.ntables == 2)
			return fill_bucket_0(fillers + i + 1, RTE_RHASHTABLE_BUCKET_SLOTS,
					     KEY_SLOTS_NEW);
	}
	printf("no emergency growth after %u inserts\n", i);
	return TEST_FAILED;
}

static void
reinsert_teardown(void)
{
	rte_rhashtable_free(ht);
	ht = NULL;
	rte_free(objs);
	objs = NULL;
	hook_armed = false;
}

static int
test_reinsert_lookup(void)
{
	uint32_t key = KEY_S;

	hook_armed = true;
	TEST_ASSERT(rte_rhashtable_lookup(ht, &key) == obj_s,
		    "lookup missed S after X was re-inserted under it");
	TEST_ASSERT(!hook_armed, "the lookup never compared X");
	TEST_ASSERT_SUCCESS(hook_ret, "remove + re-insert of X");
	key = KEY_X;
	TEST_ASSERT(rte_rhashtable_lookup(ht, &key) == obj_x, "X lost");
	return TEST_SUCCESS;
}

static int
test_reinsert_lookup_bulk(void)
{
	uint32_t key = KEY_S;
	const void *keys[1] = { &key };
	void *found[1] = { NULL };
	uint64_t hits = 0;

	hook_armed = true;
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, 1, &hits, found), 1,
			  "bulk lookup missed S after X was re-inserted under it");
	TEST_ASSERT(hits == 1 && found[0] == obj_s, "bulk lookup: wrong object");
	TEST_ASSERT(!hook_armed, "the bulk lookup never compared X");
	TEST_ASSERT_SUCCESS(hook_ret, "remove + re-insert of X");
	return TEST_SUCCESS;
}

/*
 * A walker returns X, X is re-inserted before the next walk_next: the walk
 * must still return S (duplicates are allowed, skipping is not).
 */
static int
test_reinsert_walk(void)
{
	struct rte_rhashtable_iter it;
	bool seen_s = false, seen_x = false;
	void *obj;
	int ret;

	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &obj)) != -ENOENT) {
		if (ret == -EAGAIN)
			continue;
		TEST_ASSERT_SUCCESS(ret, "walk_next");
		if (obj == obj_s)
			seen_s = true;
		if (obj == obj_x && !seen_x) {
			seen_x = true;
			reinsert_x();
			TEST_ASSERT_SUCCESS(hook_ret, "remove + re-insert of X");
		}
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT(seen_x, "the walk never returned X");
	TEST_ASSERT(seen_s, "the walk skipped S after X was re-inserted under it");
	return TEST_SUCCESS;
}

static struct unit_test_suite reinsert_suite = {
	.suite_name = "rte_rhashtable re-insert under a reader",
	.unit_test_cases = {
		TEST_CASE_ST(reinsert_setup, reinsert_teardown, test_reinsert_lookup),
		TEST_CASE_ST(reinsert_setup, reinsert_teardown, test_reinsert_lookup_bulk),
		TEST_CASE_ST(reinsert_setup, reinsert_teardown, test_reinsert_walk),
		TEST_CASES_END()
	},
};

static int
test_rhashtable_reinsert(void)
{
	return unit_test_suite_runner(&reinsert_suite);
}

REGISTER_FAST_TEST(rhashtable_reinsert_autotest, true, true, test_rhashtable_reinsert);
