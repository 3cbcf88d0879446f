/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Writers on threads without an lcore id must not stall the rehash worker.
 * Before the worker uses a replaced bucket table it waits for the writers
 * that may still hold it. Two such threads here hand over to each other so
 * that at every instant one of them is inside a write call: a worker that
 * waited for "no writer without an lcore id at all" would wait until they
 * stop. It must wait only for the write calls that began before it asked.
 *
 * The handover happens inside the table's hash function, which the writers
 * call inside their write calls before they take a bucket lock.
 */

#include <stdbool.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_thread.h>

#include "test_rhashtable_util.h"

#define HANDOFF_SECONDS 3

static uint32_t handoff_gen;          /* generation of the last entry */
static uint32_t inside_gen[2];        /* each thread's entry generation */
static bool handoff_stop;             /* set at handoff_deadline */
static uint64_t handoff_deadline;
static __thread int handoff_self = -1; /* 0 or 1 in the two writers */

/*
 * Called inside a write call: stay inside until the other thread has
 * entered after us. So one of the two is always inside.
 */
static void
handoff(void)
{
	int self = handoff_self;
	uint32_t gen = rte_atomic_fetch_add_explicit(&handoff_gen, 1, rte_memory_order_seq_cst) + 1;

	rte_atomic_store_explicit(&inside_gen[self], gen, rte_memory_order_seq_cst);
	while (rte_atomic_load_explicit(&inside_gen[1 - self], rte_memory_order_seq_cst) <= gen &&
	       !rte_atomic_load_explicit(&handoff_stop, rte_memory_order_seq_cst)) {
		if (rte_get_timer_cycles() > handoff_deadline)
			rte_atomic_store_explicit(&handoff_stop, true, rte_memory_order_seq_cst);
		rte_pause();
	}
}

/* Seedless (key 0 -> bucket 0, key 1 -> bucket 1 in every table), and the
 * handover point of the two writer threads.
 */
static uint32_t
handoff_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	uint32_t k;

	RTE_SET_USED(key_len);
	RTE_SET_USED(seed);
	if (handoff_self >= 0)
		handoff();
	memcpy(&k, key, sizeof(k));
	return k;
}

struct handoff_writer {
	struct rte_rhashtable *ht;
	struct test_obj *obj;
	int self;
	int failed;
};

/* Insert and remove one object (of a bucket of its own) until told to stop. */
static uint32_t
handoff_writer_main(void *arg)
{
	struct handoff_writer *w = arg;

	handoff_self = w->self;
	while (!rte_atomic_load_explicit(&handoff_stop, rte_memory_order_seq_cst)) {
		if (rte_rhashtable_insert(w->ht, &w->obj->node) != 0 ||
		    rte_rhashtable_remove(w->ht, &w->obj->node) != 0) {
			w->failed = 1;
			break;
		}
	}
	handoff_self = -1;
	return 0;
}

static int
test_anon_writers_handoff(void)
{
	struct handoff_writer w[2];
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats s;
	struct rte_rhashtable *ht;
	struct test_obj *objs;
	rte_thread_t tid[2];
	uint64_t start, took;
	bool stopped_first;
	int i, ret;

	test_params_init(&p, "rht_anon_writers");
	p.hashfn = handoff_hash;
	ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(ht, "create failed");
	objs = test_objs_alloc(2, 0);
	TEST_ASSERT_NOT_NULL(objs, "no memory");
	handoff_stop = false;
	handoff_deadline = rte_get_timer_cycles() + HANDOFF_SECONDS * rte_get_timer_hz();
	handoff_gen = 0;
	inside_gen[0] = inside_gen[1] = 0;
	for (i = 0; i < 2; i++) {
		w[i] = (struct handoff_writer){ .ht = ht, .obj = &objs[i], .self = i };
		/* threads of no lcore: their writes count as anonymous */
		ret = rte_thread_create(&tid[i], NULL, handoff_writer_main, &w[i]);
		TEST_ASSERT_SUCCESS(ret, "rte_thread_create");
	}
	/* wait until the handover runs: both threads entered at least once */
	while (rte_atomic_load_explicit(&handoff_gen, rte_memory_order_seq_cst) < 4)
		rte_pause();

	/* a re-seed: the worker attaches a table, then waits for the writers
	 * that may have missed it before it moves objects. The writers stop
	 * at handoff_deadline on their own: a worker still waiting then
	 * waited for writers that entered after it asked.
	 */
	start = rte_get_timer_cycles();
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	ret = rte_rhashtable_rehash_run(ht);
	took = rte_get_timer_cycles() - start;
	stopped_first = rte_atomic_exchange_explicit(&handoff_stop, true, rte_memory_order_seq_cst);
	for (i = 0; i < 2; i++)
		rte_thread_join(tid[i], NULL);
	TEST_ASSERT_SUCCESS(ret, "rehash_run");
	TEST_ASSERT(!stopped_first, "the worker waited %u s, until the writers stopped",
		    HANDOFF_SECONDS);
	TEST_ASSERT(!w[0].failed && !w[1].failed, "a writer's insert or remove failed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &s), "stats");
	TEST_ASSERT_EQUAL(s.reseeds, 1, "re-seed not done");
	printf("re-seed under two handing-over writers: %.1f ms\n",
	       (double)took * 1000 / rte_get_timer_hz());
	rte_rhashtable_free(ht);
	rte_free(objs);
	return TEST_SUCCESS;
}

static int
test_rhashtable_anon_writers(void)
{
	return test_anon_writers_handoff();
}

REGISTER_FAST_TEST(rhashtable_anon_writers_autotest, true, true, test_rhashtable_anon_writers);
