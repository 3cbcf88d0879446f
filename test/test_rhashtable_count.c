/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The count of chain entries (rhashtable_count.h). Each lcore counts its
 * inserts and removals in a line of its own and adds them in batches (up to
 * 1/128th of the newest bucket table's slots) to the count that writers
 * compare with the thresholds. The count that the API reports must still be
 * exact once the writers are done, whichever lcore inserted or removed what;
 * and the rehash worker must decide on the exact count, since a batch that
 * is not full does not carry the crossing of a threshold to the writers'
 * count.
 */

#include <errno.h>

#include <rte_launch.h>
#include <rte_lcore.h>

#include "test_rhashtable_util.h"

#define COUNT_OBJS 3000
#define COUNT_HINT 5000 /* 1024 buckets: room for COUNT_OBJS without a resize */

struct count_range {
	struct rte_rhashtable *ht;
	struct test_obj *objs;
	uint32_t from, to;
	bool insert;
	int ret;
};

static int
count_range_main(void *arg)
{
	struct count_range *r = arg;
	uint32_t i;

	for (i = r->from; i < r->to && r->ret == 0; i++)
		r->ret = r->insert ? rte_rhashtable_insert(r->ht, &r->objs[i].node) :
			rte_rhashtable_remove(r->ht, &r->objs[i].node);
	return 0;
}

/* Run the inserts or removals of objs[from..to) on lcore (the main one too). */
static int
count_range_on(unsigned int lcore, struct rte_rhashtable *ht, struct test_obj *objs,
	       uint32_t from, uint32_t to, bool insert)
{
	struct count_range r = {
		.ht = ht, .objs = objs, .from = from, .to = to, .insert = insert,
	};

	if (lcore == rte_lcore_id()) {
		count_range_main(&r);
	} else {
		if (rte_eal_remote_launch(count_range_main, &r, lcore) != 0)
			return -EBUSY;
		rte_eal_wait_lcore(lcore);
	}
	return r.ret;
}

static int
count_is(struct rte_rhashtable *ht, uint32_t expected, const char *when)
{
	struct rte_rhashtable_stats s = test_stats(ht);

	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), expected, "%s: count %u, expected %u",
			  when, rte_rhashtable_count(ht), expected);
	TEST_ASSERT_EQUAL(s.nelems, expected, "%s: stats.nelems %" PRIu64 ", expected %u",
			  when, s.nelems, expected);
	return TEST_SUCCESS;
}

/*
 * One lcore inserts, another removes half, the main lcore the rest: each
 * lcore's own count ends positive or negative, their sum must be exact.
 */
static int
test_count_across_lcores(void)
{
	unsigned int main_lcore = rte_lcore_id(), a, b;
	struct rte_rhashtable *ht;
	struct test_obj *objs;

	a = rte_get_next_lcore(-1, 1, 0);
	if (a >= RTE_MAX_LCORE) {
		printf("needs a worker lcore, e.g. -l 0-1\n");
		return TEST_SKIPPED;
	}
	b = rte_get_next_lcore(a, 1, 0);
	if (b >= RTE_MAX_LCORE)
		b = main_lcore;
	TEST_ASSERT_SUCCESS(test_table_setup(&ht, &objs, "rht_count", COUNT_HINT, COUNT_OBJS, 0),
			    "setup");
	TEST_ASSERT_SUCCESS(count_range_on(a, ht, objs, 0, COUNT_OBJS, true), "inserts");
	TEST_ASSERT_SUCCESS(count_is(ht, COUNT_OBJS, "after the inserts"), "count");
	TEST_ASSERT_SUCCESS(count_range_on(b, ht, objs, 0, COUNT_OBJS / 2, false), "removals");
	TEST_ASSERT_SUCCESS(count_is(ht, COUNT_OBJS - COUNT_OBJS / 2, "after half the removals"),
			    "count");
	TEST_ASSERT_SUCCESS(count_range_on(main_lcore, ht, objs, COUNT_OBJS / 2, COUNT_OBJS,
					   false), "removals");
	TEST_ASSERT_SUCCESS(count_is(ht, 0, "after every removal"), "count");
	TEST_ASSERT_SUCCESS(count_range_on(b, ht, objs, 0, COUNT_OBJS, true), "inserts again");
	TEST_ASSERT_SUCCESS(count_is(ht, COUNT_OBJS, "after the inserts again"), "count");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, COUNT_OBJS, true), "lookups");
	test_table_teardown(&ht, &objs);
	return TEST_SUCCESS;
}

/*
 * One entry past the grow threshold, inserted by one lcore: no writer asks
 * for the worker (TEST_PAST_GROW_ENTRIES). rte_rhashtable_rehash_run() must
 * still grow the table, as the worker counts exactly.
 */
static int
test_count_worker_decides_exactly(void)
{
	uint32_t past = TEST_PAST_GROW_ENTRIES;
	struct rte_rhashtable_stats s;
	struct rte_rhashtable *ht;
	struct test_obj *objs;

	TEST_ASSERT_SUCCESS(test_table_setup(&ht, &objs, "rht_count_grow", TEST_PAST_GROW_HINT,
					     past, 0), "setup");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, TEST_PAST_GROW_BUCKETS, "first table size");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, past), "inserts");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, TEST_PAST_GROW_BUCKETS,
			  "grew with nothing running the worker");
	TEST_ASSERT_EQUAL(s.nelems, past, "count");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 2 * TEST_PAST_GROW_BUCKETS,
			  "%u entries in %u buckets, past %u%%, and the worker did not grow it",
			  past, TEST_PAST_GROW_BUCKETS, RTE_RHT_GROW_PCT);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, past, true), "lookups");
	test_table_teardown(&ht, &objs);
	return TEST_SUCCESS;
}

static struct unit_test_suite count_suite = {
	.suite_name = "rhashtable element count",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_count_across_lcores),
		TEST_CASE(test_count_worker_decides_exactly),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_count(void)
{
	return unit_test_suite_runner(&count_suite);
}

REGISTER_FAST_TEST(rhashtable_count_autotest, true, true, test_rhashtable_count);
