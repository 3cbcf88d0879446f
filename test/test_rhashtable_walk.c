/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_walk_autotest: the walker sees every object exactly once when
 * no rehash happens (or while the rehash lock is held), at least once when a
 * rehash or an emergency growth interrupts it, and reports -EAGAIN then.
 * The rehash-lock case blocks a rehash_run on a worker lcore (-l 0-1).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_util.h"

#define N_OBJS 1024
/* objects of the locked walk, in a table of 64 buckets */
#define N_LOCKED 700

static struct rte_rhashtable *ht;
static struct test_obj *objs;

/* What one walk saw. */
struct walk_result {
	uint32_t returned; /* objects returned by walk_next */
	uint32_t eagain;   /* -EAGAIN from walk_next or walk_start_check */
	int end;           /* last return of walk_next */
};

static int
walk_setup_hint(uint16_t hint)
{
	return test_table_setup(&ht, &objs, "rht_walk", hint, N_OBJS, 77);
}

/* 64 buckets: the cases that want resizes. */
static int
walk_setup_small(void)
{
	return walk_setup_hint(0);
}

/* 256 buckets: no resize up to 1254 objects (70% of 1792 slots). */
static int
walk_setup_large(void)
{
	return walk_setup_hint(1000);
}

/*
 * 64 buckets with a maximum size: the count that inserts compare with the
 * load thresholds is then exact, not carried in batches of an lcore's
 * inserts (rhashtable_count.h), so an insert's emergency growth comes at a
 * count known in advance.
 */
static int
walk_setup_exact(void)
{
	struct rte_rhashtable_params p;

	test_params_init(&p, "rht_walk");
	p.max_size = 1U << 16;
	ht = rte_rhashtable_create(&p);
	objs = test_objs_alloc(N_OBJS, 77);
	if (ht != NULL && objs != NULL)
		return TEST_SUCCESS;
	printf("setup of rht_walk failed: %s\n", rte_strerror(rte_errno));
	test_table_teardown(&ht, &objs);
	return TEST_FAILED;
}

static void
walk_teardown(void)
{
	test_table_teardown(&ht, &objs);
}

/* Take up to max objects from a started walk (max 0: until it ends). */
static void
walk_take(struct rte_rhashtable_iter *it, uint32_t max, struct walk_result *r)
{
	struct test_obj *o;
	void *obj;
	uint32_t taken = 0;

	while (max == 0 || taken < max) {
		r->end = rte_rhashtable_walk_next(it, &obj);
		if (r->end == -EAGAIN) {
			/* bounded: a walk that never ends must fail, not hang */
			if (++r->eagain > 1000)
				return;
			continue;
		}
		if (r->end != 0)
			return;
		o = obj;
		o->seen++;
		r->returned++;
		taken++;
	}
}

/* Resume a stopped walk, counting -EAGAIN. */
static int
walk_resume(struct rte_rhashtable_iter *it, struct walk_result *r)
{
	int ret = rte_rhashtable_walk_start_check(it);

	if (ret == -EAGAIN)
		r->eagain++;
	else if (ret != 0)
		printf("walk_start_check returned %d\n", ret);
	return ret == -EAGAIN ? 0 : ret;
}

/* Each of objs[from..to) seen exactly `exact` times, or at least once (0). */
static int
check_seen(uint32_t from, uint32_t to, uint32_t exact)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		if (exact ? objs[i].seen != exact : objs[i].seen == 0) {
			printf("object %u seen %u times\n", i, objs[i].seen);
			return -1;
		}
	}
	return 0;
}

static int
test_walk_empty_and_invalid(void)
{
	struct rte_rhashtable_iter it, zero;
	void *obj;

	rte_rhashtable_walk_enter(ht, &it);
	TEST_ASSERT_EQUAL(rte_rhashtable_walk_next(&it, &obj), -EINVAL,
			  "walk_next before walk_start");
	rte_rhashtable_walk_start(&it);
	TEST_ASSERT_EQUAL(rte_rhashtable_walk_next(&it, &obj), -ENOENT, "walk of an empty table");
	TEST_ASSERT_EQUAL(rte_rhashtable_walk_next(&it, NULL), -EINVAL, "walk_next(it, NULL)");
	TEST_ASSERT_EQUAL(rte_rhashtable_walk_next(NULL, &obj), -EINVAL, "walk_next(NULL)");
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);

	TEST_ASSERT_EQUAL(rte_rhashtable_walk_start_check(NULL), -EINVAL, "start_check(NULL)");
	memset(&zero, 0, sizeof(zero));
	TEST_ASSERT_EQUAL(rte_rhashtable_walk_start_check(&zero), -EINVAL,
			  "start_check of an iterator never entered");
	return TEST_SUCCESS;
}

static int
test_walk_all_once(void)
{
	struct rte_rhashtable_iter it;
	struct walk_result r = { 0 };

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 500), "insert");
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	walk_take(&it, 0, &r);
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(r.end, -ENOENT, "walk ended with %d", r.end);
	TEST_ASSERT_EQUAL(r.eagain, 0, "-EAGAIN without any rehash");
	TEST_ASSERT_EQUAL(r.returned, 500, "walk returned %u objects", r.returned);
	TEST_ASSERT_SUCCESS(check_seen(0, 500, 1), "every object exactly once");
	TEST_ASSERT_EQUAL(objs[500].seen, 0, "an object never inserted was walked");
	return TEST_SUCCESS;
}

/* Stop and resume every 37 objects: the position is kept. */
static int
test_walk_stop_start(void)
{
	struct rte_rhashtable_iter it;
	struct walk_result r = { 0 };

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 700), "insert");
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	for (;;) {
		walk_take(&it, 37, &r);
		rte_rhashtable_walk_stop(&it);
		if (r.end != 0)
			break;
		TEST_ASSERT_SUCCESS(walk_resume(&it, &r), "walk_start_check");
	}
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(r.end, -ENOENT, "walk ended with %d", r.end);
	TEST_ASSERT_EQUAL(r.eagain, 0, "-EAGAIN without any rehash");
	TEST_ASSERT_SUCCESS(check_seen(0, 700, 1), "every object exactly once");
	return TEST_SUCCESS;
}

/* A rehash between walk_stop and walk_start_check retires the table walked. */
static int
walk_across_rehash(bool grow)
{
	struct rte_rhashtable_iter it;
	struct walk_result r = { 0 };

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 40), "insert");
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	walk_take(&it, 10, &r);
	rte_rhashtable_walk_stop(&it);
	TEST_ASSERT_EQUAL(r.returned, 10, "first part of the walk");

	if (grow)
		TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 40,
						      TEST_GROW_ENTRIES(test_stats(ht).buckets)),
				    "insert");
	else
		TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT(test_stats(ht).rehashes_done >= 1, "nothing was rehashed");

	TEST_ASSERT_SUCCESS(walk_resume(&it, &r), "walk_start_check");
	walk_take(&it, 0, &r);
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(r.end, -ENOENT, "walk ended with %d", r.end);
	TEST_ASSERT(r.eagain > 0, "no -EAGAIN after the walked table was retired");
	TEST_ASSERT_SUCCESS(check_seen(0, 40, 0), "every object at least once");
	TEST_ASSERT(r.returned >= 40, "walk returned only %u objects", r.returned);
	return TEST_SUCCESS;
}

static int
test_walk_reseed_between(void)
{
	return walk_across_rehash(false);
}

static int
test_walk_grow_between(void)
{
	return walk_across_rehash(true);
}

/*
 * An insert attaches a new bucket table while the walk is running. The first
 * table is filled to its limit first (an insert goes to a new table once the
 * count exceeds the slots, so the limit is slots + 1 objects: the count is
 * exact, see walk_setup_exact()), so every insert during the walk goes to a
 * newer table, which the walk has not started yet: an object inserted into
 * a bucket already walked could legitimately be missed.
 */
static int
test_walk_emergency_growth(void)
{
	uint32_t full = TEST_SLOTS(test_stats(ht).buckets) + 1;
	struct rte_rhashtable_iter it;
	struct walk_result r = { 0 };

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, full), "insert");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1, "new table at 100%% load");
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	walk_take(&it, 5, &r);
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, full, full + 1), "insert past 100%% load");
	TEST_ASSERT(test_stats(ht).ntables > 1, "no emergency table was attached");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, full + 1, full + 200),
			    "insert past 100%% load");
	walk_take(&it, 0, &r);
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(r.end, -ENOENT, "walk ended with %d", r.end);
	TEST_ASSERT(r.eagain > 0, "walk_next never reported the new bucket table");
	/* nothing moves without a worker: every object is in some table walked */
	TEST_ASSERT_SUCCESS(check_seen(0, full + 200, 0), "every object at least once");
	return TEST_SUCCESS;
}

static int
rehash_on_worker(void *arg)
{
	return rte_rhashtable_rehash_run(arg);
}

/* Launch rehash_run on a worker lcore and check that it stays blocked. */
static int
start_blocked_rehash(unsigned int *worker)
{
	*worker = rte_get_next_lcore(-1, 1, 0);
	if (*worker >= RTE_MAX_LCORE) {
		printf("no worker lcore (run with -l 0-1): rehash_run not raced\n");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(rehash_on_worker, ht, *worker), "launch");
	rte_delay_ms(20);
	TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(*worker), RUNNING,
			  "rehash_run returned while the rehash lock was held");
	return TEST_SUCCESS;
}

static int
walk_locked(unsigned int worker, struct walk_result *r)
{
	struct rte_rhashtable_iter it;

	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	walk_take(&it, 50, r);
	rte_rhashtable_walk_stop(&it);
	/* a grow is due (and a re-seed asked for), but the lock holds it off */
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	rte_delay_ms(10);
	TEST_ASSERT_SUCCESS(rte_rhashtable_walk_start_check(&it), "start_check under the lock");
	walk_take(&it, 0, r);
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	if (worker < RTE_MAX_LCORE)
		TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(worker), RUNNING,
				  "rehash_run ran during the locked walk");
	return TEST_SUCCESS;
}

static int
test_walk_rehash_lock(void)
{
	unsigned int worker = RTE_MAX_LCORE;
	struct walk_result r = { 0 };
	int ret, wret;

	/*
	 * tables chained by emergency growth (past the 448 slots of the first),
	 * and load above the grow threshold of the newest (627 of its 896)
	 */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, N_LOCKED), "insert");
	rte_rhashtable_rehash_lock(ht);
	ret = start_blocked_rehash(&worker);
	if (ret == TEST_SUCCESS)
		ret = walk_locked(worker, &r);
	rte_rhashtable_rehash_unlock(ht);
	wret = worker < RTE_MAX_LCORE ? rte_eal_wait_lcore(worker) : 0;
	TEST_ASSERT_SUCCESS(ret, "locked walk");
	TEST_ASSERT_SUCCESS(wret, "rehash_run after the unlock");

	TEST_ASSERT_EQUAL(r.end, -ENOENT, "walk ended with %d", r.end);
	TEST_ASSERT_SUCCESS(check_seen(0, N_LOCKED, 1),
			    "every object exactly once under the lock");
	TEST_ASSERT_EQUAL(r.returned, N_LOCKED, "walk returned %u objects", r.returned);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1, "ntables after unlock and rehash_run");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_LOCKED, true), "lookups after the walk");
	return TEST_SUCCESS;
}

static struct unit_test_suite walk_suite = {
	.suite_name = "rhashtable walk",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(walk_setup_large, walk_teardown, test_walk_empty_and_invalid),
		TEST_CASE_ST(walk_setup_large, walk_teardown, test_walk_all_once),
		TEST_CASE_ST(walk_setup_large, walk_teardown, test_walk_stop_start),
		TEST_CASE_ST(walk_setup_small, walk_teardown, test_walk_reseed_between),
		TEST_CASE_ST(walk_setup_small, walk_teardown, test_walk_grow_between),
		TEST_CASE_ST(walk_setup_exact, walk_teardown, test_walk_emergency_growth),
		TEST_CASE_ST(walk_setup_small, walk_teardown, test_walk_rehash_lock),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_walk(void)
{
	return unit_test_suite_runner(&walk_suite);
}

REGISTER_FAST_TEST(rhashtable_walk_autotest, true, true, test_rhashtable_walk);
