/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_service_autotest: the rehash service, mapped to service lcore 1
 * (run with -l 0-1), grows a table without any rehash_run call.
 * rhashtable_numa_autotest: bucket tables sit on the requested socket.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <numa.h>
#include <numaif.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_util.h"

#define N_OBJS 1400
/* 94% of the 448 slots of 64 buckets: past the grow threshold, not the slots */
#define N_NEAR_FULL (TEST_SLOTS(64) * 94 / 100)
#define SERVICE_WAIT_MS 5000

static struct rte_rhashtable *ht;
static struct test_obj *objs;

/* ---- service ---- */

static struct rte_rcu_qsbr *qv;
static unsigned int service_lcore = RTE_MAX_LCORE;
static uint32_t service_id;

static int
check_service_name(void)
{
	const char *name;
	uint32_t id;

	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &id), "service_id_get");
	name = rte_service_get_name(id);
	TEST_ASSERT_NOT_NULL(name, "service %u has no name", id);
	TEST_ASSERT(strcmp(name, "rhashtable_rht_svc") == 0,
		    "service named '%s', expected 'rhashtable_rht_svc'", name);
	TEST_ASSERT_EQUAL(rte_rhashtable_service_id_get(NULL, &id), -EINVAL, "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_service_id_get(ht, NULL), -EINVAL, "NULL id");
	service_id = id;
	return TEST_SUCCESS;
}

/*
 * The service thread retires bucket tables while this thread looks up: the
 * table gets a QSBR variable and this thread reports on it as a reader.
 */
static int
attach_qsbr(void)
{
	struct rte_rhashtable_rcu_config cfg;

	qv = test_qsbr_create();
	TEST_ASSERT_NOT_NULL(qv, "QSBR variable");
	memset(&cfg, 0, sizeof(cfg));
	cfg.v = qv;
	cfg.mode = RTE_RHASHTABLE_QSBR_MODE_DQ;
	TEST_ASSERT_SUCCESS(rte_rhashtable_rcu_qsbr_add(ht, &cfg), "rcu_qsbr_add");
	TEST_ASSERT_SUCCESS(test_qsbr_reader_start(qv, rte_lcore_id()), "register");
	return TEST_SUCCESS;
}

static int
start_service_lcore(void)
{
	service_lcore = rte_get_next_lcore(-1, 1, 0);
	if (service_lcore >= RTE_MAX_LCORE)
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(rte_service_lcore_add(service_lcore), "service_lcore_add");
	TEST_ASSERT_SUCCESS(rte_service_map_lcore_set(service_id, service_lcore, 1), "map");
	TEST_ASSERT_SUCCESS(rte_service_lcore_start(service_lcore), "service_lcore_start");
	/* 1 needs both run states set (the library's job) and a mapped lcore */
	TEST_ASSERT_EQUAL(rte_service_runstate_get(service_id), 1,
			  "service run state not running once mapped");
	return TEST_SUCCESS;
}

/* Poll (as a reader that reports quiescent states) until the grow is done. */
static int
wait_for_grow(uint32_t buckets)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * SERVICE_WAIT_MS / 1000;
	struct rte_rhashtable_stats s;

	do {
		rte_rcu_qsbr_quiescent(qv, rte_lcore_id());
		s = test_stats(ht);
		if (s.buckets == buckets && s.ntables == 1)
			return 0;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < deadline);
	printf("after %u ms: %u buckets, %u tables\n", SERVICE_WAIT_MS, s.buckets, s.ntables);
	return -1;
}

static int
service_setup(void)
{
	qv = NULL;
	service_lcore = RTE_MAX_LCORE;
	return test_table_setup(&ht, &objs, "rht_svc", 0, N_OBJS, 1);
}

static void
service_teardown(void)
{
	if (service_lcore < RTE_MAX_LCORE) {
		/* a lcore cannot stop while it is the only one running a service */
		rte_service_map_lcore_set(service_id, service_lcore, 0);
		rte_service_lcore_stop(service_lcore);
		rte_eal_wait_lcore(service_lcore);
		rte_service_lcore_del(service_lcore);
	}
	if (qv != NULL)
		test_qsbr_reader_stop(qv, rte_lcore_id());
	test_table_teardown(&ht, &objs);
	rte_free(qv);
	qv = NULL;
}

static int
test_service_grows(void)
{
	struct rte_rhashtable_stats s;
	int ret;

	TEST_ASSERT_SUCCESS(check_service_name(), "service name");
	TEST_ASSERT_SUCCESS(attach_qsbr(), "QSBR");
	ret = start_service_lcore();
	if (ret == TEST_SKIPPED)
		printf("no second lcore: run with -l 0-1\n");
	if (ret != TEST_SUCCESS)
		return ret;

	/* 421 of 448 slots: only the service can grow it (no insert passes 100%) */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, N_NEAR_FULL), "insert");
	TEST_ASSERT_SUCCESS(wait_for_grow(128), "the service did not grow the table");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.grows, 1, "stats.grows %" PRIu64, s.grows);
	TEST_ASSERT_EQUAL(s.emergency_allocs, 0, "the grow was an emergency allocation");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_NEAR_FULL, true), "lookups after the grow");

	/* and again, with inserts racing the service: 1400 objects are past 70%
	 * of 256 buckets' 1792 slots, not of 512's
	 */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, N_NEAR_FULL, N_OBJS), "insert");
	TEST_ASSERT_SUCCESS(wait_for_grow(512), "the service did not grow to 512");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_OBJS, true),
			    "lookups after the second grow");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), N_OBJS, "count");
	return TEST_SUCCESS;
}

/*
 * The service is mapped to a service lcore that is never started: its run
 * state says "running", yet nothing moves objects, and inserts pile up
 * bucket tables. The table must count (and log) that.
 */
static int
test_service_stalled(void)
{
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(check_service_name(), "service name");
	service_lcore = rte_get_next_lcore(-1, 1, 0);
	if (service_lcore >= RTE_MAX_LCORE) {
		printf("no second lcore: run with -l 0-1\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(rte_service_lcore_add(service_lcore), "service_lcore_add");
	TEST_ASSERT_SUCCESS(rte_service_map_lcore_set(service_id, service_lcore, 1), "map");
	TEST_ASSERT_EQUAL(rte_service_runstate_get(service_id), 1, "run state");

	/* 64 buckets: past their 448 slots an insert attaches 128 buckets, past
	 * those 896 slots another
	 */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 600), "insert");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.ntables, 2, "%u tables after 600 inserts", s.ntables);
	TEST_ASSERT_EQUAL(s.worker_stalls, 0, "a stall with the first emergency table");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 600, 1200), "insert");
	s = test_stats(ht);
	TEST_ASSERT(s.ntables >= 3, "%u tables after 1200 inserts", s.ntables);
	TEST_ASSERT(s.worker_stalls >= 1, "tables piled up uncounted: %" PRIu64 " stalls",
		    s.worker_stalls);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 1200, true), "lookups across the chain");
	TEST_ASSERT_SUCCESS(test_found_bulk(ht, objs, 0, 1200), "bulk lookups across the chain");

	/* the application runs the worker itself: no more stalls */
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.ntables, 1, "%u tables after rehash_run", s.ntables);
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 1200, N_OBJS), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).worker_stalls, s.worker_stalls,
			  "stall counted while the worker ran");
	return TEST_SUCCESS;
}

/*
 * A service that runs, but that a writer outruns: right after one call of
 * the service (at rest: it looks at the count), inserts pile up bucket
 * tables before its next call. That is no stall: nothing counted. Before
 * any call, the same inserts count stalls (test_service_stalled()).
 */
static int
test_service_outrun(void)
{
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(check_service_name(), "service name");
	TEST_ASSERT_SUCCESS(rte_service_runstate_set(service_id, 1), "runstate");
	TEST_ASSERT_SUCCESS(rte_service_run_iter_on_app_lcore(service_id, 1),
			    "one call of the service");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 1200), "insert");
	s = test_stats(ht);
	TEST_ASSERT(s.ntables >= 3, "%u tables after 1200 inserts", s.ntables);
	TEST_ASSERT_EQUAL(s.worker_stalls, 0, "a running service counted as stalled");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 1200, true), "lookups across the chain");
	TEST_ASSERT_SUCCESS(test_found_bulk(ht, objs, 0, 1200), "bulk lookups across the chain");
	TEST_ASSERT_SUCCESS(rte_service_runstate_set(service_id, 0), "runstate");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1, "tables after rehash_run");
	return TEST_SUCCESS;
}

/*
 * One entry past the grow threshold, inserted by this lcore before the
 * service runs: no insert asks for the worker (TEST_PAST_GROW_ENTRIES). The
 * service must find the crossing itself, on the exact count it takes now
 * and then.
 */
static int
test_service_grows_on_exact_count(void)
{
	uint32_t past = TEST_PAST_GROW_ENTRIES;
	struct test_obj *many;
	int ret;

	test_table_teardown(&ht, &objs);
	TEST_ASSERT_SUCCESS(test_table_setup(&ht, &many, "rht_svc", TEST_PAST_GROW_HINT, past, 1),
			    "setup");
	TEST_ASSERT_SUCCESS(check_service_name(), "service name");
	TEST_ASSERT_SUCCESS(attach_qsbr(), "QSBR");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, TEST_PAST_GROW_BUCKETS, "first table size");
	ret = test_insert_range(ht, many, 0, past);
	if (ret == 0)
		ret = start_service_lcore();
	if (ret == TEST_SKIPPED)
		printf("no second lcore: run with -l 0-1\n");
	if (ret == 0 && wait_for_grow(2 * TEST_PAST_GROW_BUCKETS) != 0) {
		printf("%u entries in %u buckets: the service did not grow the table\n", past,
		       TEST_PAST_GROW_BUCKETS);
		ret = TEST_FAILED;
	}
	if (ret == 0 && test_found(ht, many, 0, past, true) != 0)
		ret = TEST_FAILED;
	/* service_teardown() frees the table; these objects are ours */
	service_teardown();
	rte_free(many);
	return ret;
}

static struct unit_test_suite service_suite = {
	.suite_name = "rhashtable rehash service",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(service_setup, service_teardown, test_service_grows),
		TEST_CASE_ST(service_setup, service_teardown, test_service_stalled),
		TEST_CASE_ST(service_setup, service_teardown, test_service_outrun),
		TEST_CASE_ST(service_setup, NULL, test_service_grows_on_exact_count),
		TEST_CASES_END()
	}
};

/* ---- NUMA ---- */

/* NUMA node of the page holding addr, after touching it; -1 on error. */
static int
page_node(const void *addr)
{
	const volatile uint8_t *p = addr;
	int node = -1;

	(void)*p;
	if (get_mempolicy(&node, NULL, 0, (void *)(uintptr_t)addr,
			  MPOL_F_NODE | MPOL_F_ADDR) != 0) {
		perror("get_mempolicy");
		return -1;
	}
	return node;
}

static int
check_bucket_node(int expected)
{
	struct rte_rhashtable_table_info info;
	int node;

	TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table_info");
	TEST_ASSERT_NOT_NULL(info.bucket_mem, "no bucket_mem");
	node = page_node(info.bucket_mem);
	TEST_ASSERT_EQUAL(node, expected, "%u-bucket table on node %d, expected %d",
			  info.buckets, node, expected);
	TEST_ASSERT_EQUAL(info.numa_node, node, "table_info says node %d, the kernel %d",
			  info.numa_node, node);
	return TEST_SUCCESS;
}

static int
numa_table(int socket_id, int expected_node)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats s;
	int ret;

	test_params_init(&p, "rht_numa");
	p.socket_id = socket_id;
	ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(ht, "create on socket %d: %s", socket_id, rte_strerror(rte_errno));
	/* the inserts write the buckets, the grow allocates a second table */
	ret = test_insert_range(ht, objs, 0, 30);
	if (ret == 0)
		ret = check_bucket_node(expected_node);
	if (ret == 0)
		ret = test_insert_range(ht, objs, 30, N_NEAR_FULL);
	if (ret == 0)
		ret = rte_rhashtable_rehash_run(ht);
	if (ret == 0)
		ret = check_bucket_node(expected_node);
	s = test_stats(ht);
	rte_rhashtable_free(ht);
	ht = NULL;
	TEST_ASSERT_SUCCESS(ret, "socket %d", socket_id);
	TEST_ASSERT_EQUAL(s.buckets, 128, "no grow");
	TEST_ASSERT_EQUAL(s.numa_node, expected_node, "stats.numa_node %d, expected %d",
			  s.numa_node, expected_node);
	if (socket_id != SOCKET_ID_ANY)
		TEST_ASSERT_EQUAL(s.socket_id, socket_id, "stats.socket_id %d", s.socket_id);
	return TEST_SUCCESS;
}

static int
numa_setup(void)
{
	objs = test_objs_alloc(N_OBJS, 1);
	return objs != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
numa_teardown(void)
{
	rte_free(objs);
	objs = NULL;
}

static int
test_numa_placement(void)
{
	int main_socket = (int)rte_socket_id();

	if (numa_available() < 0) {
		printf("libnuma: NUMA not available here\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(numa_table(0, 0), "socket 0");
	/* SOCKET_ID_ANY: the socket of the creating lcore */
	TEST_ASSERT_SUCCESS(numa_table(SOCKET_ID_ANY, main_socket < 0 ? 0 : main_socket),
			    "SOCKET_ID_ANY");
	return TEST_SUCCESS;
}

static struct unit_test_suite numa_suite = {
	.suite_name = "rhashtable NUMA placement",
	.setup = test_default_config,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(numa_setup, numa_teardown, test_numa_placement),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_service(void)
{
	return unit_test_suite_runner(&service_suite);
}

static int
test_rhashtable_numa(void)
{
	return unit_test_suite_runner(&numa_suite);
}

REGISTER_FAST_TEST(rhashtable_service_autotest, true, true, test_rhashtable_service);
REGISTER_FAST_TEST(rhashtable_numa_autotest, true, true, test_rhashtable_numa);
