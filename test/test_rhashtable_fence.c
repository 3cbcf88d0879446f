/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The writers' entry protocol with either kind of fence (rhashtable_fence.c).
 * A writer marks itself busy and then reads the first bucket table; the
 * worker replaces the first table and then waits for the writers it sees
 * marked. Where the kernel offers membarrier(), the writers' fence is a
 * compiler barrier and the worker's a membarrier() call; elsewhere both are
 * full fences. A broken pair lets a writer insert into a bucket table the
 * worker has already emptied: the object is lost with that table, and its
 * removal fails with -ENOENT.
 *
 * Writers on worker lcores insert and remove their own objects in a loop,
 * while the main lcore re-seeds and runs the rehash to completion again and
 * again (each run replaces the first table twice), once with each kind of
 * fence. The test hook __rte_rhashtable_fence_symmetric() picks the kind.
 */

#include <errno.h>
#include <stdbool.h>

#ifdef RTE_EXEC_ENV_LINUX
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_launch.h>

#include "rhashtable_debug.h"
#include "test_rhashtable_util.h"

#define FENCE_MS 700
#define FENCE_WRITERS_MAX 2
#define FENCE_OBJS 64 /* per writer */

struct fence_writer {
	struct rte_rhashtable *ht;
	struct test_obj *objs;
	bool *stop;
	uint64_t rounds;
	uint32_t failures;
	int first_error;
};

/* Whether this kernel offers what the asymmetric fence needs. */
static bool
membarrier_offered(void)
{
#ifdef RTE_EXEC_ENV_LINUX
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
		(cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
#else
	return false;
#endif
}

static void
fence_writer_fail(struct fence_writer *w, int ret)
{
	if (w->failures++ == 0)
		w->first_error = ret;
}

/* Insert every object, then remove every one: each call must succeed. */
static int
fence_writer_main(void *arg)
{
	struct fence_writer *w = arg;
	uint32_t i;
	int ret;

	while (!rte_atomic_load_explicit(w->stop, rte_memory_order_acquire)) {
		for (i = 0; i < FENCE_OBJS; i++) {
			ret = rte_rhashtable_insert(w->ht, &w->objs[i].node);
			if (ret != 0)
				fence_writer_fail(w, ret);
		}
		for (i = 0; i < FENCE_OBJS; i++) {
			ret = rte_rhashtable_remove(w->ht, &w->objs[i].node);
			if (ret != 0)
				fence_writer_fail(w, ret);
		}
		w->rounds++;
	}
	return 0;
}

/* FENCE_MS of writers beside table replacements with the fence kind in use. */
static int
fence_run(const char *kind)
{
	struct fence_writer w[FENCE_WRITERS_MAX];
	unsigned int lcore, nw = 0, i;
	struct rte_rhashtable_stats s;
	struct rte_rhashtable *ht;
	struct test_obj *objs;
	uint64_t deadline, runs = 0;
	bool stop = false;

	if (test_table_setup(&ht, &objs, "rht_fence", 0, FENCE_WRITERS_MAX * FENCE_OBJS, 0) !=
	    TEST_SUCCESS)
		return TEST_FAILED;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (nw == FENCE_WRITERS_MAX)
			break;
		w[nw] = (struct fence_writer){ .ht = ht, .objs = &objs[nw * FENCE_OBJS],
					       .stop = &stop };
		rte_eal_remote_launch(fence_writer_main, &w[nw], lcore);
		nw++;
	}
	deadline = rte_get_timer_cycles() + FENCE_MS * rte_get_timer_hz() / 1000;
	while (rte_get_timer_cycles() < deadline) {
		if (rte_rhashtable_reseed(ht) != 0 || rte_rhashtable_rehash_run(ht) < 0)
			break;
		runs++;
	}
	rte_atomic_store_explicit(&stop, true, rte_memory_order_release);
	rte_eal_mp_wait_lcore();
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &s), "stats");
	printf("%s fences: %" PRIu64 " re-seeds, %" PRIu64 " tables replaced, writer rounds",
	       kind, runs, s.rehashes_done);
	for (i = 0; i < nw; i++)
		printf(" %" PRIu64, w[i].rounds);
	printf("\n");
	for (i = 0; i < nw; i++) {
		TEST_ASSERT_EQUAL(w[i].failures, 0, "%s fences: writer %u: %u failed calls, "
				  "the first %s", kind, i, w[i].failures,
				  rte_strerror(-w[i].first_error));
		TEST_ASSERT(w[i].rounds > 0, "%s fences: writer %u made no round", kind, i);
	}
	TEST_ASSERT(s.rehashes_done >= 10, "%s fences: only %" PRIu64 " tables replaced", kind,
		    s.rehashes_done);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 0, "objects left after every removal");
	test_table_teardown(&ht, &objs);
	return TEST_SUCCESS;
}

/* The kind is fixed while a table exists; the default follows the kernel. */
static int
test_fence_kind(void)
{
	struct rte_rhashtable *ht;
	struct test_obj *objs;
	bool asym = __rte_rhashtable_fence_is_asymmetric();

	TEST_ASSERT_EQUAL(asym, membarrier_offered(),
			  "asymmetric fences %s, while the kernel %s membarrier()",
			  asym ? "in use" : "not in use", asym ? "does not offer" : "offers");
	TEST_ASSERT_SUCCESS(test_table_setup(&ht, &objs, "rht_fence_kind", 0, 1, 0), "setup");
	TEST_ASSERT_EQUAL(__rte_rhashtable_fence_symmetric(!asym), -EBUSY,
			  "fence kind changed while a table exists");
	TEST_ASSERT_EQUAL(__rte_rhashtable_fence_is_asymmetric(), asym, "fence kind changed");
	test_table_teardown(&ht, &objs);
	return TEST_SUCCESS;
}

static int
test_rhashtable_fence(void)
{
	bool asym = __rte_rhashtable_fence_is_asymmetric();
	int ret;

	if (rte_lcore_count() < 2) {
		printf("needs a worker lcore, e.g. --lcores '(0-2)@(0,1)'\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(test_fence_kind(), "fence kind");
	TEST_ASSERT_SUCCESS(__rte_rhashtable_fence_symmetric(true), "symmetric fences");
	ret = fence_run("full");
	/* back to the default, for the suites that follow */
	TEST_ASSERT_SUCCESS(__rte_rhashtable_fence_symmetric(!asym), "default fences");
	TEST_ASSERT_SUCCESS(ret, "with full fences on both sides");
	if (!asym) {
		printf("membarrier() not offered: asymmetric fences not tested\n");
		return TEST_SUCCESS;
	}
	return fence_run("asymmetric");
}

REGISTER_FAST_TEST(rhashtable_fence_autotest, true, true, test_rhashtable_fence);
