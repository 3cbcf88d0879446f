/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * main() of dpdk-rhashtable-test: EAL init (with the --no-huge fallback of
 * common/), then, as dpdk-test does, the command named by DPDK_TEST, else
 * the test names given after the EAL arguments and "--", else the RTE>>
 * prompt.
 * Also the unit test suite runner and the command list.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "rht_eal_mem.h"
#include "rht_eal_runtime.h"
#include "test.h"

/* Memory the tests need when main() has to fall back to --no-huge. */
#define TEST_DEFAULT_MEM_MB 512

static TAILQ_HEAD(test_commands_list, test_command) commands_list =
	TAILQ_HEAD_INITIALIZER(commands_list);

void
add_test_command(struct test_command *t)
{
	TAILQ_INSERT_TAIL(&commands_list, t, next);
}

struct test_command *
test_command_first(void)
{
	return TAILQ_FIRST(&commands_list);
}

struct test_command *
test_command_next(struct test_command *t)
{
	return TAILQ_NEXT(t, next);
}

static struct test_command *
find_test_command(const char *name)
{
	struct test_command *t;

	TAILQ_FOREACH(t, &commands_list, next)
		if (strcmp(t->command, name) == 0)
			return t;
	return NULL;
}

int
run_test_command(const char *name)
{
	struct test_command *t = find_test_command(name);
	uint64_t start;
	int ret;

	if (t == NULL) {
		printf("Unknown test command '%s' (help lists them)\n", name);
		return TEST_FAILED;
	}
	start = rte_get_timer_cycles();
	ret = t->callback();
	printf("%s: %s (%.1f ms)\n", name,
	       ret == TEST_SUCCESS ? "Test OK" :
	       ret == TEST_SKIPPED ? "Test Skipped" : "Test Failed",
	       (double)(rte_get_timer_cycles() - start) * 1000.0 / rte_get_timer_hz());
	fflush(stdout);
	return ret;
}

/*
 * The tests named on the command line, in order, as dpdk-test runs them:
 * failed if one failed, skipped if all were skipped.
 */
static int
run_test_names(int n, char **names)
{
	int i, ret, failed = 0, skipped = 0;

	for (i = 0; i < n; i++) {
		ret = run_test_command(names[i]);
		if (ret == TEST_SKIPPED)
			skipped++;
		else if (ret != TEST_SUCCESS)
			failed++;
	}
	if (failed > 0)
		return TEST_FAILED;
	return skipped == n ? TEST_SKIPPED : TEST_SUCCESS;
}

/* Run one case: setup, case, teardown. A failed setup counts as failed. */
static int
run_test_case(const struct unit_test_case *tc)
{
	int ret;

	if (tc->setup != NULL) {
		ret = tc->setup();
		if (ret == TEST_SKIPPED)
			return TEST_SKIPPED;
		if (ret != TEST_SUCCESS) {
			printf("  setup of %s failed\n", tc->name);
			return TEST_FAILED;
		}
	}
	if (tc->testcase != NULL)
		ret = tc->testcase();
	else
		ret = tc->testcase_with_data(tc->data);
	if (tc->teardown != NULL)
		tc->teardown();
	return ret;
}

static const char *
result_name(int ret)
{
	if (ret == TEST_SUCCESS)
		return "succeeded";
	if (ret == TEST_SKIPPED)
		return "skipped";
	return "failed";
}

int
unit_test_suite_runner(struct unit_test_suite *suite)
{
	unsigned int total = 0, passed = 0, skipped = 0, failed = 0;
	const struct unit_test_case *tc;
	uint64_t start = rte_get_timer_cycles();
	int ret;

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite : %s\n", suite->suite_name);
	printf(" + ------------------------------------------------------- +\n");
	if (suite->setup != NULL) {
		ret = suite->setup();
		if (ret == TEST_SKIPPED) {
			printf(" + Test Suite skipped by its setup\n");
			return TEST_SKIPPED;
		}
		if (ret != TEST_SUCCESS) {
			printf(" + Test Suite setup failed, no case run\n");
			return TEST_FAILED;
		}
	}

	for (tc = suite->unit_test_cases; tc->testcase != NULL || tc->testcase_with_data != NULL;
	     tc++) {
		ret = run_test_case(tc);
		printf(" + TestCase [%2u] : %s %s\n", total, tc->name, result_name(ret));
		fflush(stdout);
		total++;
		if (ret == TEST_SUCCESS)
			passed++;
		else if (ret == TEST_SKIPPED)
			skipped++;
		else
			failed++;
	}

	if (suite->teardown != NULL)
		suite->teardown();

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite Summary : %s\n", suite->suite_name);
	printf(" + Tests Total :       %2u\n", total);
	printf(" + Tests Skipped :     %2u\n", skipped);
	printf(" + Tests Passed :      %2u\n", passed);
	printf(" + Tests Failed :      %2u\n", failed);
	printf(" + Tests Lasted :      %.1f ms\n",
	       (double)(rte_get_timer_cycles() - start) * 1000.0 / rte_get_timer_hz());
	printf(" + ------------------------------------------------------- +\n");

	if (failed > 0)
		return TEST_FAILED;
	if (total > 0 && skipped == total)
		return TEST_SKIPPED;
	return TEST_SUCCESS;
}

static unsigned int
test_mem_mb(void)
{
	const char *s = getenv("RHT_TEST_MEM_MB");

	if (s == NULL || atoi(s) <= 0)
		return TEST_DEFAULT_MEM_MB;
	return (unsigned int)atoi(s);
}

/*
 * How long a test that needs hugepages waits for some to be free. The other
 * tests of a suite run beside it and may hold them all for a moment: a
 * first fast-suite run on a fresh machine (2048 pages reserved) once
 * skipped rhashtable_mp_autotest so, and the next runs passed it.
 */
#define HUGEPAGE_WAIT_MS 10000
#define HUGEPAGE_POLL_MS 100

/*
 * meson sets RHT_TEST_NEEDS_HUGEPAGES=1 for tests that make no sense
 * without: missing when the machine reserves none, or none came free
 * within HUGEPAGE_WAIT_MS.
 */
static int
hugepages_missing(void)
{
	const char *s = getenv("RHT_TEST_NEEDS_HUGEPAGES");
	unsigned int waited;

	if (s == NULL || strcmp(s, "1") != 0)
		return 0;
	for (waited = 0; rht_hugepage_free_mb() == 0; waited += HUGEPAGE_POLL_MS) {
		if (rht_hugepage_total_mb() == 0 || waited >= HUGEPAGE_WAIT_MS)
			return 1;
		usleep(HUGEPAGE_POLL_MS * 1000);
	}
	return 0;
}

static int
exit_code(int ret)
{
	if (ret == TEST_SUCCESS)
		return 0;
	if (ret == TEST_SKIPPED)
		return TEST_SKIPPED;
	return 1;
}

int
main(int argc, char **argv)
{
	const char *name = getenv("DPDK_TEST");
	char **eal_argv;
	int ret;

	if (name != NULL && hugepages_missing()) {
		printf("%s needs hugepages and none came free in %u s: skipped\n", name,
		       HUGEPAGE_WAIT_MS / 1000);
		return TEST_SKIPPED;
	}

	rht_eal_tag_file_prefix(argc, argv);
	eal_argv = rht_eal_args_with_memory(&argc, argv, test_mem_mb());
	ret = rte_eal_init(argc, eal_argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	/* what follows the EAL arguments ("--" included) are test names */
	argc -= ret;
	eal_argv += ret;

	if (name != NULL && name[0] != '\0')
		ret = run_test_command(name);
	else if (argc > 1)
		ret = run_test_names(argc - 1, eal_argv + 1);
	else
		ret = test_prompt();

	if (rht_eal_cleanup_runtime() < 0 && ret == TEST_SUCCESS)
		ret = TEST_FAILED;
	return exit_code(ret);
}
