/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhltable_autotest: several objects per key. Lookup returns a list with
 * every object of the key, remove takes one object, count and walk see every
 * object, free_and_destroy frees each exactly once, and lists survive resizes,
 * also while the rehash worker moves them on a service lcore.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_util.h"

struct list_obj {
	uint32_t id;
	struct rte_rhlist_head list;
	uint32_t key;
	uint32_t seen;
};

#define N_LOBJS 600
/* object i has key i % N_KEYS: 6 objects per key */
#define N_KEYS 100

static struct rte_rhltable *hlt;
static struct list_obj *lobjs;

/* A table of nelem_hint hint, at most max_size buckets (0: no limit), hashing with fn. */
static int
rhl_setup_with(uint16_t hint, uint32_t max_size, rte_rhashtable_hashfn_t fn)
{
	struct rte_rhashtable_params p;
	uint32_t i;

	test_params_set(&p, "rhl_test", sizeof(uint32_t), offsetof(struct list_obj, key),
		offsetof(struct list_obj, list));
	p.automatic_shrinking = true;
	p.nelem_hint = hint;
	p.max_size = max_size;
	p.hashfn = fn;
	hlt = rte_rhltable_create(&p);
	lobjs = rte_zmalloc(NULL, sizeof(*lobjs) * N_LOBJS, 0);
	if (hlt == NULL || lobjs == NULL) {
		printf("setup failed: %s\n", rte_strerror(rte_errno));
		rte_rhltable_free(hlt);
		rte_free(lobjs);
		return TEST_FAILED;
	}
	for (i = 0; i < N_LOBJS; i++) {
		lobjs[i].id = i;
		lobjs[i].key = i % N_KEYS;
	}
	return TEST_SUCCESS;
}

/* 64 buckets */
static int
rhl_setup(void)
{
	return rhl_setup_with(0, 0, NULL);
}

/* the smallest table, 4 buckets (28 slots) */
static int
rhl_setup_small(void)
{
	return rhl_setup_with(1, 0, NULL);
}

/* The key modulo 8, whatever the seed: the keys fill buckets 0 to 7 of any table. */
static uint32_t
rhl_hash_mod8(const void *key, uint32_t key_len, uint32_t seed)
{
	return test_seedless_hash(key, key_len, seed) % 8;
}

/*
 * 16 buckets for good (112 keys at most), and a hash that puts keys k and
 * k + 8 in one of the first 8 buckets of every table, 12 or 13 of the 100
 * keys each, so that each of those buckets has its 7 slots full and an
 * overflow chain of 5 or 6.
 */
static int
rhl_setup_chains(void)
{
	return rhl_setup_with(42, 16, rhl_hash_mod8);
}

static void
rhl_teardown(void)
{
	rte_rhltable_free(hlt);
	rte_free(lobjs);
	hlt = NULL;
	lobjs = NULL;
}

static int
insert_range(uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &lobjs[i].list), "insert %u", i);
	return TEST_SUCCESS;
}

/*
 * The list of key holds exactly the objects i of [0, n) with i % N_KEYS == key
 * that are not marked removed (seen == UINT32_MAX), each once.
 */
static int
check_key_list(uint32_t key, uint32_t n)
{
	struct rte_rhlist_head *pos;
	struct list_obj *o;
	uint32_t found = 0, expected = 0, i;

	for (i = key; i < n; i += N_KEYS) {
		if (lobjs[i].seen != UINT32_MAX) {
			lobjs[i].seen = 0;
			expected++;
		}
	}
	for (pos = rte_rhltable_lookup(hlt, &key); pos != NULL; pos = pos->next) {
		o = container_of(pos, struct list_obj, list);
		TEST_ASSERT(o->key == key, "object of key %u in the list of key %u", o->key, key);
		TEST_ASSERT(o->seen != UINT32_MAX, "removed object %u still listed", o->id);
		TEST_ASSERT(++o->seen == 1, "object %u listed twice", o->id);
		TEST_ASSERT(found++ < n, "list of key %u does not end", key);
	}
	TEST_ASSERT_EQUAL(found, expected, "key %u: %u objects listed, %u expected", key, found,
			  expected);
	return TEST_SUCCESS;
}

static int
check_all_lists(uint32_t n)
{
	uint32_t key;

	for (key = 0; key < N_KEYS; key++)
		TEST_ASSERT_SUCCESS(check_key_list(key, n), "list of key %u", key);
	return TEST_SUCCESS;
}

static int
test_rhl_lists(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	struct rte_rhashtable_stats s;
	uint32_t absent = N_KEYS + 5;
	struct rte_rhash_head *head;
	int ret;

	TEST_ASSERT_NOT_NULL(t, "rhltable_table");
	TEST_ASSERT_EQUAL(rte_rhashtable_find_existing("rhl_test"), t,
			  "find_existing does not give the rhltable's table");
	TEST_ASSERT_SUCCESS(insert_range(0, N_LOBJS), "insert");
	TEST_ASSERT_SUCCESS(check_all_lists(N_LOBJS), "lists after insert");
	TEST_ASSERT_NULL(rte_rhltable_lookup(hlt, &absent), "absent key found");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(t), N_LOBJS, "count %u",
			  rte_rhashtable_count(t));
	s = test_stats(t);
	TEST_ASSERT_EQUAL(s.nelems, N_KEYS, "stats.nelems %" PRIu64 " (keys)", s.nelems);
	TEST_ASSERT_EQUAL(s.nobjs, N_LOBJS, "stats.nobjs %" PRIu64, s.nobjs);

	TEST_ASSERT_EQUAL(rte_rhltable_insert(NULL, &lobjs[0].list), -EINVAL, "insert(NULL)");
	TEST_ASSERT_EQUAL(rte_rhltable_insert(hlt, NULL), -EINVAL, "insert(hlt, NULL)");
	TEST_ASSERT_EQUAL(rte_rhltable_remove(hlt, NULL), -EINVAL, "remove(hlt, NULL)");
	TEST_ASSERT_NULL(rte_rhltable_table(NULL), "rhltable_table(NULL)");
	/* its table takes rhltable inserts only */
	head = (struct rte_rhash_head *)&lobjs[0].list;
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert_bulk(t, &head, 1, &ret, NULL), -EINVAL,
			  "lookup_insert_bulk into an rhltable's table");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(t), N_LOBJS, "count after a refused insert");
	return TEST_SUCCESS;
}

/* Remove the objects of one key one at a time: first, middle and last of the list. */
static int
test_rhl_remove(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	uint32_t key = 7, i, left = N_LOBJS;
	static const uint32_t order[] = { 3, 0, 5, 2, 4, 1 };

	TEST_ASSERT_SUCCESS(insert_range(0, N_LOBJS), "insert");
	for (i = 0; i < RTE_DIM(order); i++) {
		struct list_obj *o = &lobjs[key + order[i] * N_KEYS];

		TEST_ASSERT_SUCCESS(rte_rhltable_remove(hlt, &o->list), "remove %u", o->id);
		o->seen = UINT32_MAX;
		left--;
		TEST_ASSERT_SUCCESS(check_key_list(key, N_LOBJS), "after removing %u", o->id);
		TEST_ASSERT_EQUAL(rte_rhashtable_count(t), left, "count %u, expected %u",
				  rte_rhashtable_count(t), left);
		TEST_ASSERT_EQUAL(rte_rhltable_remove(hlt, &o->list), -ENOENT,
				  "second remove of %u", o->id);
	}
	TEST_ASSERT_NULL(rte_rhltable_lookup(hlt, &key), "key found after removing all");
	TEST_ASSERT_EQUAL(test_stats(t).nelems, N_KEYS - 1, "stats.nelems");
	TEST_ASSERT_SUCCESS(check_all_lists(N_LOBJS), "other keys");

	/* a removed object can come back */
	lobjs[key].seen = 0;
	TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &lobjs[key].list), "re-insert");
	TEST_ASSERT_EQUAL(rte_rhltable_lookup(hlt, &key), &lobjs[key].list, "re-inserted");
	return TEST_SUCCESS;
}

static int
walk_all(struct rte_rhashtable *t, uint32_t *returned)
{
	struct rte_rhashtable_iter it;
	struct list_obj *o;
	void *obj;
	int ret;

	*returned = 0;
	rte_rhashtable_walk_enter(t, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &obj)) == 0) {
		o = obj;
		o->seen++;
		(*returned)++;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	return ret;
}

/*
 * A walk paused on the first member of a key's list, whose slot holds the
 * list: that member leaves, so that the slot holds the second member when
 * the walk goes on. The walk must still return every member that stayed
 * (the second one too, which it has not seen yet).
 */
static int
test_rhl_walk_head_leaves(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	struct rte_rhashtable_iter it;
	struct list_obj *first, *o;
	uint32_t i;
	void *obj;
	int ret;

	/* three members of key 0 */
	for (i = 0; i < 3 * N_KEYS; i += N_KEYS)
		TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &lobjs[i].list), "insert %u", i);
	rte_rhashtable_walk_enter(t, &it);
	rte_rhashtable_walk_start(&it);
	TEST_ASSERT_SUCCESS(rte_rhashtable_walk_next(&it, &obj), "first member");
	first = obj;
	rte_rhashtable_walk_stop(&it);
	TEST_ASSERT_SUCCESS(rte_rhltable_remove(hlt, &first->list), "remove the first member");
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &obj)) == 0) {
		o = obj;
		o->seen++;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(ret, -ENOENT, "walk ended with %d", ret);
	for (i = 0; i < 3 * N_KEYS; i += N_KEYS)
		if (&lobjs[i] != first)
			TEST_ASSERT(lobjs[i].seen >= 1, "member %u that stayed was not walked", i);
	return TEST_SUCCESS;
}

static int
test_rhl_walk(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	uint32_t returned, i;
	int ret;

	/* rehash first: the walk then runs on one bucket table, no -EAGAIN */
	TEST_ASSERT_SUCCESS(insert_range(0, N_LOBJS), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	ret = walk_all(t, &returned);
	TEST_ASSERT_EQUAL(ret, -ENOENT, "walk ended with %d", ret);
	TEST_ASSERT_EQUAL(returned, N_LOBJS, "walk returned %u objects of %u", returned,
			  N_LOBJS);
	for (i = 0; i < N_LOBJS; i++)
		TEST_ASSERT_EQUAL(lobjs[i].seen, 1, "object %u walked %u times", i, lobjs[i].seen);
	return TEST_SUCCESS;
}

/* Lists stay whole when the table grows, re-seeds and shrinks under them. */
static int
test_rhl_resize(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	uint32_t i;

	/*
	 * 100 keys in 4 buckets, past the slots of 8 too (emergency growth): the
	 * list heads, in slots and overflow chains, must move as one. 100 keys
	 * are above 70% of 16 buckets' 112 slots, below that of 32 buckets;
	 * 600 objects would grow the table to 128.
	 */
	TEST_ASSERT_SUCCESS(insert_range(0, N_LOBJS), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(t).buckets, 32,
			  "100 keys: grow is driven by keys, not objects");
	TEST_ASSERT_SUCCESS(check_all_lists(N_LOBJS), "lists after the grow");
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(t), "reseed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	TEST_ASSERT_SUCCESS(check_all_lists(N_LOBJS), "lists after the re-seed");

	/* leave 10 keys: the table shrinks */
	for (i = 0; i < N_LOBJS; i++) {
		if (lobjs[i].key < 10)
			continue;
		TEST_ASSERT_SUCCESS(rte_rhltable_remove(hlt, &lobjs[i].list), "remove %u", i);
		lobjs[i].seen = UINT32_MAX;
	}
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(t), "rehash_run");
	TEST_ASSERT(test_stats(t).buckets < 32, "no shrink with 10 keys");
	TEST_ASSERT_SUCCESS(check_all_lists(N_LOBJS), "lists after the shrink");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(t), 60, "count");
	return TEST_SUCCESS;
}

/*
 * Remove the objects of key from the lists and insert them again, one at a
 * time: the list entry is replaced (head removed, then joined again), and
 * the key leaves its bucket and comes back with its last object.
 */
static int
churn_key(uint32_t key)
{
	uint32_t i;

	for (i = key; i < N_LOBJS; i += N_KEYS)
		TEST_ASSERT_SUCCESS(rte_rhltable_remove(hlt, &lobjs[i].list), "remove %u", i);
	for (i = key; i < N_LOBJS; i += N_KEYS)
		TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &lobjs[i].list), "insert %u", i);
	return TEST_SUCCESS;
}

/* Service lcore running the table's worker, or RTE_MAX_LCORE. */
static unsigned int
start_worker(struct rte_rhashtable *t)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint32_t sid;

	if (lcore >= RTE_MAX_LCORE || rte_rhashtable_service_id_get(t, &sid) != 0 ||
	    rte_service_lcore_add(lcore) != 0)
		return RTE_MAX_LCORE;
	if (rte_service_map_lcore_set(sid, lcore, 1) != 0 || rte_service_lcore_start(lcore) != 0) {
		rte_service_lcore_del(lcore);
		return RTE_MAX_LCORE;
	}
	return lcore;
}

static void
stop_worker(struct rte_rhashtable *t, unsigned int lcore)
{
	uint32_t sid;

	if (rte_rhashtable_service_id_get(t, &sid) == 0)
		rte_service_map_lcore_set(sid, lcore, 0);
	rte_service_lcore_stop(lcore);
	rte_eal_wait_lcore(lcore);
	rte_service_lcore_del(lcore);
}

/*
 * Lists stay whole while this lcore removes and re-inserts list members and
 * the worker, on a service lcore, keeps moving every bucket into a re-seeded
 * table: the worker links moved list entries into slots and overflow chains
 * of their new buckets while they are still reachable from the old ones
 * (link_in_new()): a removal or join that changes a slot or an overflow
 * word must not lose a move that came first, nor be lost to one.
 */
static int
test_rhl_lists_beside_worker(void)
{
	struct rte_rhashtable *t = rte_rhltable_table(hlt);
	struct rte_rhashtable_rcu_config cfg;
	struct rte_rcu_qsbr *qv = test_qsbr_create();
	unsigned int self = rte_lcore_id(), lcore = RTE_MAX_LCORE;
	uint64_t end, rehashes;
	uint32_t key, rounds = 0;
	int ret = TEST_FAILED;

	if (qv == NULL)
		return TEST_FAILED;
	memset(&cfg, 0, sizeof(cfg));
	cfg.v = qv;
	if (rte_rhashtable_rcu_qsbr_add(t, &cfg) != 0 || test_qsbr_reader_start(qv, self) != 0)
		goto free_qv;
	if (insert_range(0, N_LOBJS) != TEST_SUCCESS)
		goto offline;
	if (test_stats(t).buckets != 16) {
		printf("%u buckets, not 16\n", test_stats(t).buckets);
		goto offline;
	}
	lcore = start_worker(t);
	if (lcore >= RTE_MAX_LCORE) {
		printf("no service lcore for the worker\n");
		ret = TEST_SKIPPED;
		goto offline;
	}
	rehashes = test_stats(t).rehashes_done;
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 2;
	do {
		if (rte_rhashtable_reseed(t) != 0)
			goto stop;
		for (key = 0; key < N_KEYS; key++) {
			if (churn_key(key) != TEST_SUCCESS)
				goto stop;
			rte_rcu_qsbr_quiescent(qv, self);
		}
		rounds++;
	} while (rte_get_timer_cycles() < end);
	rehashes = test_stats(t).rehashes_done - rehashes;
	stop_worker(t, lcore);
	lcore = RTE_MAX_LCORE;
	printf("%u rounds of %u keys, %" PRIu64 " rehashes beside them\n", rounds, N_KEYS,
	       rehashes);
	if (rehashes < 2) {
		printf("the worker did not rehash beside the writer\n");
		goto offline;
	}
	if (rte_rhashtable_rehash_run(t) != 0 || check_all_lists(N_LOBJS) != TEST_SUCCESS ||
	    rte_rhashtable_count(t) != N_LOBJS) {
		printf("lists or count wrong after the churn (count %u)\n",
		       rte_rhashtable_count(t));
		goto offline;
	}
	ret = TEST_SUCCESS;
stop:
	if (lcore < RTE_MAX_LCORE)
		stop_worker(t, lcore);
offline:
	test_qsbr_reader_stop(qv, self);
	rhl_teardown();
free_qv:
	rte_free(qv);
	return ret;
}

static void
count_free(void *arg, void *obj)
{
	struct list_obj *o = obj;
	uint32_t *calls = arg;

	o->seen++;
	(*calls)++;
}

static int
test_rhl_free_and_destroy(void)
{
	uint32_t calls = 0, i;

	TEST_ASSERT_SUCCESS(insert_range(0, N_LOBJS), "insert");
	TEST_ASSERT_SUCCESS(rte_rhltable_remove(hlt, &lobjs[9].list), "remove");
	rte_rhashtable_free_and_destroy(rte_rhltable_table(hlt), count_free, &calls);
	hlt = NULL;
	TEST_ASSERT_EQUAL(calls, N_LOBJS - 1, "free_fn called %u times for %u objects", calls,
			  N_LOBJS - 1);
	for (i = 0; i < N_LOBJS; i++)
		TEST_ASSERT_EQUAL(lobjs[i].seen, (i == 9 ? 0U : 1U), "object %u freed %u times", i,
				  lobjs[i].seen);
	TEST_ASSERT_NULL(rte_rhashtable_find_existing("rhl_test"), "destroyed table found");
	return TEST_SUCCESS;
}

static struct unit_test_suite rhltable_suite = {
	.suite_name = "rhltable",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(rhl_setup, rhl_teardown, test_rhl_lists),
		TEST_CASE_ST(rhl_setup, rhl_teardown, test_rhl_remove),
		TEST_CASE_ST(rhl_setup, rhl_teardown, test_rhl_walk),
		TEST_CASE_ST(rhl_setup, rhl_teardown, test_rhl_walk_head_leaves),
		TEST_CASE_ST(rhl_setup_small, rhl_teardown, test_rhl_resize),
		TEST_CASE_ST(rhl_setup_chains, rhl_teardown, test_rhl_lists_beside_worker),
		TEST_CASE_ST(rhl_setup, rhl_teardown, test_rhl_free_and_destroy),
		TEST_CASES_END()
	}
};

static int
test_rhltable(void)
{
	return unit_test_suite_runner(&rhltable_suite);
}

REGISTER_FAST_TEST(rhltable_autotest, true, true, test_rhltable);
