/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_writers_perf_autotest: writes per second with one writer, then
 * with one writer on each of two lcores (the main one and the first worker),
 * for rte_rhashtable and, in the same run and with the same keys, rte_hash
 * with RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD and lock-free readers (the
 * combination that lets several lcores add flows). Each writer inserts its
 * own WRITERS_OBJS flows and removes them again, for WRITERS_MS; the tables
 * are sized for every flow, so no resize happens. 16-byte keys.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test.h"

#define WRITERS_MAX 2
#define WRITERS_OBJS 4096 /* per writer */
#define WRITERS_KEY_LEN 16
#define WRITERS_MS 500

struct writers_flow {
	uint8_t key[WRITERS_KEY_LEN];
	struct rte_rhash_head head;
};

enum writers_sys { WR_RHT, WR_HASH, WR_SYS_MAX };

static const char *const sys_names[WR_SYS_MAX] = { "rte_rhashtable", "rte_hash" };

struct writers_run {
	enum writers_sys sys;
	struct rte_rhashtable *ht;
	struct rte_hash *h;
	struct writers_flow *flows;   /* WRITERS_OBJS per writer */
	uint64_t deadline;            /* timer cycles */
	uint64_t ops[WRITERS_MAX];
	int rc[WRITERS_MAX];
};

static struct writers_run run;
static unsigned int run_writer_lcore[RTE_MAX_LCORE];

static int
flow_insert(struct writers_flow *f)
{
	if (run.sys == WR_RHT)
		return rte_rhashtable_insert(run.ht, &f->head);
	return rte_hash_add_key_data(run.h, f->key, f);
}

static int
flow_remove(struct writers_flow *f)
{
	if (run.sys == WR_RHT)
		return rte_rhashtable_remove(run.ht, &f->head);
	return rte_hash_del_key(run.h, f->key) >= 0 ? 0 : -1;
}

/* Insert and remove this writer's flows until the deadline. */
static int
writer_main(void *arg)
{
	unsigned int w = run_writer_lcore[rte_lcore_id()];
	struct writers_flow *f = &run.flows[w * WRITERS_OBJS];
	uint64_t ops = 0;
	unsigned int i;
	int rc = 0;

	RTE_SET_USED(arg);
	while (rc == 0 && rte_get_timer_cycles() < run.deadline) {
		for (i = 0; i < WRITERS_OBJS && rc == 0; i++)
			rc = flow_insert(&f[i]);
		for (i = 0; i < WRITERS_OBJS && rc == 0; i++)
			rc = flow_remove(&f[i]);
		ops += 2 * WRITERS_OBJS;
	}
	run.ops[w] = ops;
	run.rc[w] = rc;
	return 0;
}

static int
tables_create(struct rte_rcu_qsbr *v)
{
	struct rte_rhashtable_params p = {
		.name = "wr_perf_rht",
		.socket_id = (int)rte_socket_id(),
		.key_len = WRITERS_KEY_LEN,
		.key_offset = offsetof(struct writers_flow, key),
		.head_offset = offsetof(struct writers_flow, head),
		.nelem_hint = WRITERS_MAX * WRITERS_OBJS,
	};
	struct rte_hash_parameters hp = {
		.name = "wr_perf_hash",
		.entries = WRITERS_MAX * WRITERS_OBJS * 2,
		.key_len = WRITERS_KEY_LEN,
		.hash_func = rte_hash_crc,
		.socket_id = (int)rte_socket_id(),
		.extra_flag = RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD |
			RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_hash_rcu_config rc = { .v = v, .mode = RTE_HASH_QSBR_MODE_DQ };

	run.ht = rte_rhashtable_create(&p);
	run.h = rte_hash_create(&hp);
	if (run.ht == NULL || run.h == NULL)
		return -1;
	/* deleted keys' slots come back through the defer queue: no reader is
	 * registered, so every grace period is over at once
	 */
	return rte_hash_rcu_qsbr_add(run.h, &rc);
}

/* WRITERS_MS of nw writers on sys; Mops/s of all writers, or < 0 on error. */
static double
writers_measure(enum writers_sys sys, unsigned int nw, unsigned int worker)
{
	uint64_t start, hz = rte_get_timer_hz(), ops = 0;
	unsigned int w;

	run.sys = sys;
	memset(run.ops, 0, sizeof(run.ops));
	memset(run.rc, 0, sizeof(run.rc));
	start = rte_get_timer_cycles();
	run.deadline = start + hz * WRITERS_MS / 1000;
	if (nw > 1 && rte_eal_remote_launch(writer_main, NULL, worker) != 0)
		return -1;
	writer_main(NULL);
	if (nw > 1)
		rte_eal_wait_lcore(worker);
	for (w = 0; w < nw; w++) {
		if (run.rc[w] != 0) {
			printf("%s: writer %u failed: %d\n", sys_names[sys], w, run.rc[w]);
			return -1;
		}
		ops += run.ops[w];
	}
	return ops / ((double)(rte_get_timer_cycles() - start) / hz) / 1e6;
}

static void
flows_init(void)
{
	uint32_t i;

	for (i = 0; i < WRITERS_MAX * WRITERS_OBJS; i++) {
		uint64_t r = rte_rand();

		memcpy(run.flows[i].key, &i, sizeof(i));
		memcpy(run.flows[i].key + 4, &r, sizeof(r));
		r = rte_rand();
		memcpy(run.flows[i].key + 12, &r, 4);
	}
}

/* Every writer removed what it inserted: no flow may be found. */
static int
flows_left(void)
{
	uint32_t i, left = 0;

	for (i = 0; i < WRITERS_MAX * WRITERS_OBJS; i++)
		left += (rte_rhashtable_lookup(run.ht, run.flows[i].key) != NULL) +
			(rte_hash_lookup(run.h, run.flows[i].key) >= 0);
	if (left != 0 || rte_rhashtable_count(run.ht) != 0)
		printf("%u flows still found, rte_rhashtable counts %u\n", left,
		       rte_rhashtable_count(run.ht));
	return left != 0 || rte_rhashtable_count(run.ht) != 0;
}

static int
test_rhashtable_writers_perf(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), nw, sys;
	double mops[WR_SYS_MAX][WRITERS_MAX + 1];
	size_t qsz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v = rte_zmalloc(NULL, qsz, RTE_CACHE_LINE_SIZE);
	int ret = TEST_FAILED;

	if (worker >= RTE_MAX_LCORE) {
		printf("needs a worker lcore, e.g. -l 0-1\n");
		rte_free(v);
		return TEST_SKIPPED;
	}
	run_writer_lcore[rte_lcore_id()] = 0;
	run_writer_lcore[worker] = 1;
	run.flows = rte_zmalloc(NULL, sizeof(*run.flows) * WRITERS_MAX * WRITERS_OBJS,
				RTE_CACHE_LINE_SIZE);
	if (v == NULL || run.flows == NULL || rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0 ||
	    tables_create(v) != 0) {
		printf("setup failed\n");
		goto out;
	}
	flows_init();
	for (nw = 1; nw <= WRITERS_MAX; nw++)
		for (sys = 0; sys < WR_SYS_MAX; sys++) {
			mops[sys][nw] = writers_measure(sys, nw, worker);
			if (mops[sys][nw] < 0)
				goto out;
		}
	printf("\nwriters: insert + remove of their own %u flows, %u ms, Mops/s of all writers\n",
	       WRITERS_OBJS, WRITERS_MS);
	printf("%-8s %16s %16s %10s\n", "writers", sys_names[WR_RHT], sys_names[WR_HASH],
	       "ratio");
	for (nw = 1; nw <= WRITERS_MAX; nw++)
		printf("%-8u %16.1f %16.1f %9.2fx\n", nw, mops[WR_RHT][nw], mops[WR_HASH][nw],
		       mops[WR_RHT][nw] / mops[WR_HASH][nw]);
	if (flows_left() != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	rte_rhashtable_free(run.ht);
	rte_hash_free(run.h);
	rte_free(run.flows);
	rte_free(v);
	memset(&run, 0, sizeof(run));
	return ret;
}

REGISTER_PERF_TEST(rhashtable_writers_perf_autotest, test_rhashtable_writers_perf);
