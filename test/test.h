/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHT_TEST_H_
#define _RHT_TEST_H_

/**
 * @file
 * Autotest harness of the rte_rhashtable test binary (dpdk-rhashtable-test).
 *
 * Debian does not install DPDK's app/test/test.h, so this is the project's
 * own small equivalent: return codes, assert macros, unit test suites with a
 * runner, and named commands run either through DPDK_TEST=<name> or from the
 * RTE>> prompt.
 */

#include <inttypes.h>
#include <stdio.h>
#include <sys/queue.h>

#include <rte_common.h>

#define TEST_SUCCESS 0
#define TEST_FAILED (-1)
#define TEST_SKIPPED 77

/* Every assert prints where it failed and why, then fails the test case. */
#define RHT_TEST_FAIL_MSG(msg, ...) \
	printf("TestCase %s() line %d failed: " msg "\n", __func__, __LINE__, ##__VA_ARGS__)

#define TEST_ASSERT(cond, msg, ...) do {				\
	if (!(cond)) {							\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_EQUAL(a, b, msg, ...) do {				\
	if (!((a) == (b))) {						\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) do {			\
	if (!((a) != (b))) {						\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_SUCCESS(val, msg, ...) do {				\
	typeof(val) _rht_val = (val);					\
	if (!(_rht_val == 0)) {						\
		RHT_TEST_FAIL_MSG(msg " (value %d)", ##__VA_ARGS__,	\
				  (int)_rht_val);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_FAIL(val, msg, ...) do {				\
	if (!((val) != 0)) {						\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_NULL(p, msg, ...) do {				\
	if (!((p) == NULL)) {						\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

#define TEST_ASSERT_NOT_NULL(p, msg, ...) do {				\
	if (!((p) != NULL)) {						\
		RHT_TEST_FAIL_MSG(msg, ##__VA_ARGS__);			\
		return TEST_FAILED;					\
	}								\
} while (0)

/** One test case of a suite; setup and teardown may be NULL. */
struct unit_test_case {
	int (*setup)(void);       /**< Runs first; a failure skips the case. */
	void (*teardown)(void);   /**< Runs after the case, even if it failed. */
	int (*testcase)(void);    /**< Returns TEST_SUCCESS, _FAILED or _SKIPPED. */
	const char *name;         /**< Printed by the runner. */
	/** Called with data when testcase is NULL: one function for a table of cases. */
	int (*testcase_with_data)(const void *data);
	const void *data;         /**< Argument of testcase_with_data. */
};

#define TEST_CASE(fn) { NULL, NULL, fn, #fn }
#define TEST_CASE_NAMED(name, fn) { NULL, NULL, fn, name }
#define TEST_CASE_ST(setup, teardown, fn) { setup, teardown, fn, #fn }
#define TEST_CASE_NAMED_WITH_DATA(name, setup, teardown, fn, data) \
	{ setup, teardown, NULL, name, fn, data }
#define TEST_CASES_END() { NULL, NULL, NULL, NULL, NULL, NULL }

/** A list of cases ending with TEST_CASES_END(). */
struct unit_test_suite {
	const char *suite_name;   /**< Printed by the runner. */
	int (*setup)(void);       /**< Runs once first; a failure skips the suite. */
	void (*teardown)(void);   /**< Runs once at the end. */
	struct unit_test_case unit_test_cases[]; /**< Ends with TEST_CASES_END(). */
};

/**
 * Run every case of a suite, print one line per case and a summary.
 *
 * @return
 *   TEST_SUCCESS, TEST_FAILED if any case failed (or the suite setup did),
 *   TEST_SKIPPED if every case was skipped.
 */
int unit_test_suite_runner(struct unit_test_suite *suite);

/** A named command of the test binary. */
struct test_command {
	TAILQ_ENTRY(test_command) next; /**< Link in the command list. */
	const char *command;            /**< Name: DPDK_TEST value or prompt word. */
	int (*callback)(void);          /**< Returns TEST_SUCCESS, _FAILED or _SKIPPED. */
};

/** Add a command to the list main() knows (called by REGISTER_TEST_COMMAND). */
void add_test_command(struct test_command *t);

/** Register int func(void) as test command cmd (a bare identifier). */
#define REGISTER_TEST_COMMAND(cmd, func)				\
	static struct test_command test_struct_##cmd = {		\
		.command = RTE_STR(cmd),				\
		.callback = func,					\
	};								\
	RTE_INIT(test_register_##cmd)					\
	{								\
		add_test_command(&test_struct_##cmd);			\
	}

/*
 * The registration macros of DPDK's app/test/test.h, so that the library's
 * test files build unchanged in dpdk-test too (devtools/dpdk-tree.sh lays
 * them into a DPDK tree, whose meson reads the suite from the macro name).
 * Here the suites and EAL arguments come from test/meson.build instead:
 * no_huge (the test runs with --no-huge) and asan (it runs under
 * AddressSanitizer) only matter to DPDK's meson.
 */
#define REGISTER_FAST_TEST(cmd, no_huge, asan, func) REGISTER_TEST_COMMAND(cmd, func)
#define REGISTER_PERF_TEST(cmd, func) REGISTER_TEST_COMMAND(cmd, func)
#define REGISTER_STRESS_TEST(cmd, func) REGISTER_TEST_COMMAND(cmd, func)

/** Run a registered command by name: its result, or TEST_FAILED if unknown. */
int run_test_command(const char *name);

/* Used by the harness itself (test.c, commands.c). */

/** First registered command, or NULL. */
struct test_command *test_command_first(void);

/** Command after t, or NULL. */
struct test_command *test_command_next(struct test_command *t);

/**
 * Run the RTE>> prompt until "quit" or end of input.
 *
 * @return
 *   TEST_FAILED if a command run from it failed, else TEST_SUCCESS.
 */
int test_prompt(void);

#endif /* _RHT_TEST_H_ */
