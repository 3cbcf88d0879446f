/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_rcu_basic_autotest: the QSBR wiring on one thread. In DQ mode
 * removed objects and retired bucket tables are freed only once the (online)
 * reader reported a quiescent state; in SYNC mode remove frees at once when
 * no reader is online. Concurrent readers are another suite's job.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_util.h"

#define N_OBJS 512
/* 94% of the 448 slots of the fixture's 64 buckets: above the grow threshold */
#define N_GROW (TEST_SLOTS(64) * 94 / 100)

static struct rte_rhashtable *ht;
static struct test_obj *objs;
static struct rte_rcu_qsbr *qv;
static uint32_t nfreed;
static unsigned int reader_id;

static void
free_obj_cb(void *ctx, void *obj)
{
	struct test_obj *o = obj;
	uint32_t *count = ctx;

	o->freed++;
	(*count)++;
}

static int
rcu_setup(void)
{
	nfreed = 0;
	reader_id = rte_lcore_id();
	if (test_table_setup(&ht, &objs, "rht_rcu", 0, N_OBJS, 500) != TEST_SUCCESS)
		return TEST_FAILED;
	qv = test_qsbr_create();
	if (qv == NULL) {
		test_table_teardown(&ht, &objs);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static void
rcu_teardown(void)
{
	/* the table's free waits for a grace period: no reader may be online */
	test_qsbr_reader_stop(qv, reader_id);
	test_table_teardown(&ht, &objs);
	rte_free(qv);
	qv = NULL;
}

static struct rte_rhashtable_rcu_config
rcu_config(enum rte_rhashtable_qsbr_mode mode)
{
	struct rte_rhashtable_rcu_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.v = qv;
	cfg.mode = mode;
	cfg.free_obj = free_obj_cb;
	cfg.free_obj_ctx = &nfreed;
	return cfg;
}

static int
test_rcu_add_invalid(void)
{
	struct rte_rhashtable_rcu_config cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_DQ);
	int ret;

	TEST_ASSERT_EQUAL(rte_rhashtable_rcu_qsbr_add(NULL, &cfg), -EINVAL, "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_rcu_qsbr_add(ht, NULL), -EINVAL, "NULL config");
	cfg.v = NULL;
	TEST_ASSERT_EQUAL(rte_rhashtable_rcu_qsbr_add(ht, &cfg), -EINVAL, "NULL QSBR variable");
	cfg = rcu_config((enum rte_rhashtable_qsbr_mode)7);
	TEST_ASSERT_EQUAL(rte_rhashtable_rcu_qsbr_add(ht, &cfg), -EINVAL, "unknown mode");

	/* none of the refused calls attached anything */
	cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_DQ);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rcu_qsbr_add(ht, &cfg), "valid add");
	ret = rte_rhashtable_rcu_qsbr_add(ht, &cfg);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "second add returned %d", ret);
	cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_SYNC);
	ret = rte_rhashtable_rcu_qsbr_add(ht, &cfg);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "second add (other mode) returned %d", ret);
	return TEST_SUCCESS;
}

/* objs[0..3] removed and objs[4] replaced by *twin: five objects to free. */
static int
remove_five(struct test_obj *twin)
{
	uint32_t i;

	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	TEST_ASSERT_SUCCESS(rte_rhashtable_replace(ht, &objs[4].node, &twin->node), "replace");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 4, false), "removed objects");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &objs[4].key), twin, "replacement");
	return TEST_SUCCESS;
}

static int
test_rcu_dq_objects(void)
{
	struct rte_rhashtable_rcu_config cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_DQ);
	/* not on the stack: the table may still free it after the case returns */
	struct test_obj *twin = &objs[N_OBJS - 1];
	struct rte_rhashtable_stats s;
	uint32_t i;

	twin->key = objs[4].key;
	TEST_ASSERT_SUCCESS(rte_rhashtable_rcu_qsbr_add(ht, &cfg), "rcu_qsbr_add");
	TEST_ASSERT_SUCCESS(test_qsbr_reader_start(qv, reader_id), "register");

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 20), "insert");
	TEST_ASSERT_SUCCESS(remove_five(twin), "remove");
	TEST_ASSERT_EQUAL(nfreed, 0, "object freed while a reader may hold it");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(nfreed, 0, "rehash_run freed objects a reader may hold");
	s = test_stats(ht);
	TEST_ASSERT(s.reclaim_pending >= 5, "stats.reclaim_pending %u", s.reclaim_pending);
	TEST_ASSERT_EQUAL(s.objs_freed, 0, "stats.objs_freed %" PRIu64, s.objs_freed);

	/* the reader moves on: now they may go */
	rte_rcu_qsbr_quiescent(qv, reader_id);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(nfreed, 5, "%u objects freed after the grace period, 5 expected",
			  nfreed);
	for (i = 0; i < 5; i++)
		TEST_ASSERT_EQUAL(objs[i].freed, 1, "object %u freed %u times", i, objs[i].freed);
	TEST_ASSERT_EQUAL(twin->freed, 0, "the replacement was freed");
	TEST_ASSERT_EQUAL(objs[5].freed, 0, "an object in the table was freed");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.objs_freed, 5, "stats.objs_freed %" PRIu64, s.objs_freed);
	TEST_ASSERT_EQUAL(s.reclaim_pending, 0, "stats.reclaim_pending %u", s.reclaim_pending);
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &twin->node), "remove the replacement");
	return TEST_SUCCESS;
}

static int
test_rcu_dq_tables(void)
{
	struct rte_rhashtable_rcu_config cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_DQ);
	struct rte_rhashtable_stats s;
	uint64_t freed_before;

	cfg.free_obj = NULL;
	TEST_ASSERT_SUCCESS(rte_rhashtable_rcu_qsbr_add(ht, &cfg), "rcu_qsbr_add");
	TEST_ASSERT_SUCCESS(test_qsbr_reader_start(qv, reader_id), "register");

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, N_GROW), "insert");
	freed_before = test_stats(ht).tables_freed;
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 128, "no grow at 94%% load");
	TEST_ASSERT_EQUAL(s.tables_freed, freed_before,
			  "old bucket table freed while a reader may be in it");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_GROW, true), "lookups after the grow");

	rte_rcu_qsbr_quiescent(qv, reader_id);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.tables_freed, freed_before + 1,
			  "old bucket table not freed after the grace period");

	/* free_obj NULL: removed objects are the application's business */
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[0].node), "remove");
	rte_rcu_qsbr_quiescent(qv, reader_id);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(nfreed, 0, "objects freed without free_obj");
	return TEST_SUCCESS;
}

static int
test_rcu_sync(void)
{
	struct rte_rhashtable_rcu_config cfg = rcu_config(RTE_RHASHTABLE_QSBR_MODE_SYNC);
	/* not on the stack: the table may still free it after the case returns */
	struct test_obj *twin = &objs[N_OBJS - 1];
	uint32_t i;

	twin->key = objs[4].key;
	TEST_ASSERT_SUCCESS(rte_rhashtable_rcu_qsbr_add(ht, &cfg), "rcu_qsbr_add");
	/* registered but offline: the grace period does not wait for it */
	TEST_ASSERT_SUCCESS(rte_rcu_qsbr_thread_register(qv, reader_id), "register");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 20), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[0].node), "remove");
	TEST_ASSERT_EQUAL(nfreed, 1, "SYNC remove did not free the object (%u freed)", nfreed);
	TEST_ASSERT_EQUAL(objs[0].freed, 1, "the removed object was not the one freed");
	for (i = 1; i < 4; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_replace(ht, &objs[4].node, &twin->node), "replace");
	TEST_ASSERT_EQUAL(nfreed, 5, "%u freed after 4 removes and a replace", nfreed);
	TEST_ASSERT_EQUAL(objs[4].freed, 1, "replaced object not freed");
	TEST_ASSERT_EQUAL(twin->freed, 0, "replacement freed");
	TEST_ASSERT_EQUAL(test_stats(ht).reclaim_pending, 0, "SYNC mode queued entries");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 5, 20, true), "lookups");

	/* a grow retires a bucket table: freed at once too, objects untouched */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 20, N_GROW), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT(test_stats(ht).tables_freed >= 1, "old table not freed in SYNC mode");
	TEST_ASSERT_EQUAL(nfreed, 5, "rehash freed objects");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &twin->node), "remove the replacement");
	return TEST_SUCCESS;
}

static struct unit_test_suite rcu_suite = {
	.suite_name = "rhashtable rcu basics",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(rcu_setup, rcu_teardown, test_rcu_add_invalid),
		TEST_CASE_ST(rcu_setup, rcu_teardown, test_rcu_dq_objects),
		TEST_CASE_ST(rcu_setup, rcu_teardown, test_rcu_dq_tables),
		TEST_CASE_ST(rcu_setup, rcu_teardown, test_rcu_sync),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_rcu_basic(void)
{
	return unit_test_suite_runner(&rcu_suite);
}

REGISTER_FAST_TEST(rhashtable_rcu_basic_autotest, true, true, test_rhashtable_rcu_basic);
