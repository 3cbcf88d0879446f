/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Readers beside a writer: lookups of present keys on the main lcore while
 * the first worker lcore inserts and removes other keys as fast as it can.
 * rte_hash's lock-free readers retry when a cuckoo displacement moves a key
 * under them; rte_rhashtable's readers never wait for a writer. Both are
 * measured alone and beside the writer in the same run.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "bench_peer.h"

/* Writer objects present at a time, and the pool they rotate through: an
 * object is re-inserted CHURN_WINDOW steps after it was removed.
 */
#define CHURN_WINDOW 1024u
#define CHURN_POOL (2 * CHURN_WINDOW)

struct churn_ctx {
	const struct bench_peer *peer;
	char *objs;
	volatile int stop;
	uint64_t steps;
	double seconds;
	int rc;
};

/* Insert or remove the object of step t. */
static int
churn_op(const struct churn_ctx *c, uint64_t t, int insert)
{
	return c->peer->churn_op(c->objs + (t % CHURN_POOL) * c->peer->obj_size, insert);
}

/* Step t inserts object t mod POOL and removes the one inserted WINDOW
 * steps before, so CHURN_WINDOW objects stay in the table.
 */
static int
churn_writer(void *arg)
{
	struct churn_ctx *c = arg;
	double t0 = bench_now();
	uint64_t t = 0;
	int rc = 0;

	while (!c->stop) {
		rc = churn_op(c, t, 1);
		if (rc == 0 && t >= CHURN_WINDOW)
			rc = churn_op(c, t - CHURN_WINDOW, 0);
		if (rc != 0)
			break;
		t++;
	}
	c->seconds = bench_now() - t0;
	c->steps = t;
	c->rc = rc;
	return 0;
}

/* Remove what the writer left in: the objects of its last WINDOW steps. */
static int
churn_drain(const struct churn_ctx *c)
{
	uint64_t t = c->steps > CHURN_WINDOW ? c->steps - CHURN_WINDOW : 0;
	int rc = 0;

	for (; t < c->steps && rc == 0; t++)
		rc = churn_op(c, t, 0);
	return rc;
}

/* The machine is shared: CPU time tells how long the reader really ran. */
static void
reader_loop(enum bench_sys sys, enum bench_lookup_mode mode, double seconds,
	    struct bench_contend_result *r)
{
	double t0 = bench_now(), c0 = bench_thread_cpu_s(), now = t0;
	uint64_t h;

	while (now - t0 < seconds) {
		r->lookups += bench_lookup_run(sys, mode, 64, &h);
		r->hits += h;
		now = bench_now();
	}
	r->seconds = now - t0;
	r->cpu_seconds = bench_thread_cpu_s() - c0;
}

int
bench_contend_run(enum bench_sys sys, enum bench_lookup_mode mode, uint32_t n,
		  int writer, double seconds, struct bench_contend_result *r)
{
	const struct bench_peer *p = bench_peer_of(sys);
	struct churn_ctx c = { .peer = p };
	unsigned int lc = bench_service_lcore();
	int rc;

	*r = (struct bench_contend_result){ 0 };
	if (p == NULL || !bench_sys_has_mode(sys, mode))
		return -EINVAL;
	if (writer && (p->churn_op == NULL || lc >= RTE_MAX_LCORE))
		return -ENOTSUP;
	rc = bench_lookup_setup(sys, n, BENCH_HIT_UNIFORM);
	if (rc != 0 || !writer) {
		if (rc == 0)
			reader_loop(sys, mode, seconds, r);
		return rc;
	}
	c.objs = bench_churn_objs(n, CHURN_POOL, p->obj_size, p->key_offset);
	if (c.objs == NULL)
		return -ENOMEM;
	rc = rte_eal_remote_launch(churn_writer, &c, lc);
	if (rc != 0) {
		rte_free(c.objs);
		return rc;
	}
	reader_loop(sys, mode, seconds, r);
	c.stop = 1;
	rte_eal_wait_lcore(lc);
	r->writes = c.steps < CHURN_WINDOW ? c.steps : 2 * c.steps - CHURN_WINDOW;
	r->write_seconds = c.seconds;
	rc = c.rc;
	if (rc == 0)
		rc = churn_drain(&c);
	if (rc != 0) {
		fprintf(stderr, "bench: %s writer failed: %d\n", p->name, rc);
		/* some writer objects may still be linked: drop the table first */
		bench_release();
	}
	rte_free(c.objs);
	return rc;
}
