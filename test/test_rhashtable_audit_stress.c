/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Stress cases for the patterns an audit of the lockless paths found
 * broken, so that a regression of that kind fails a test:
 * - reinsert: writers remove objects and insert them again at once while
 *   the service lcore re-seeds a 4-bucket table all the time; readers look
 *   up never-removed keys through every lookup path and walk the table: no
 *   miss is allowed;
 * - live_hash: the table's object hash checks that the object it is given
 *   is live (not yet handed to free_obj) while writers remove and free
 *   objects and the worker re-seeds: the worker must hash only objects it
 *   holds under a bucket lock;
 * - anon_writers: writers on threads without an lcore id insert and remove
 *   without pause while the service lcore re-seeds: each re-seed must
 *   complete in bounded time.
 * reinsert and live_hash run twice: as a rehash that fits the caches
 * moves, and with the moves planned ahead (a window of old buckets locked
 * and hashed ahead of their moves), as a larger one does; reinsert's
 * planned run uses 128 buckets, 32 groups of planned moves, so that the
 * worker holds the locks of three groups at once as in a large table.
 * rhashtable_audit_short_autotest runs each for 2 s (fast suite),
 * rhashtable_audit_autotest for RHT_STRESS_SECONDS / 3 (stress suite).
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_thread.h>

#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_stress.h"

#define AS_NSTABLE 2    /* never removed */
#define AS_NMOVING 2    /* removed and re-inserted */
#define AS_NCHURN 48    /* live_hash: slots of objects inserted and freed */
#define AS_ANON_THREADS 2
#define AS_ANON_OBJS 64
#define AS_RESEED_DEADLINE_S 2
#define AS_WALK_EAGAIN_MAX 10000

static struct {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	struct stress_obj *stable[AS_NSTABLE];
	struct stress_obj *moving[AS_NMOVING];
	struct stress_obj *churn[AS_NCHURN];
	uint64_t deadline;        /* timer cycles */
	int service_lcore;
	unsigned int writer_lcore;
	uint64_t dead_hashed;     /* the object hash was given a freed object */
	uint64_t walks, walks_cut;
	struct stress_counts counts[RTE_MAX_LCORE];
	unsigned int seconds;
} as;

static bool
as_stopped(void)
{
	return rte_get_timer_cycles() >= as.deadline;
}

static uint64_t
stable_key(uint32_t i)
{
	return STRESS_KEY(STRESS_CLS_STABLE, i);
}

/* ---- shared set-up ---- */

static int
as_table_create(struct rte_rhashtable_params *p, enum rte_rhashtable_qsbr_mode mode,
		bool free_objs)
{
	struct rte_rhashtable_rcu_config rc;

	as.service_lcore = -1;
	as.ht = rte_rhashtable_create(p);
	as.v = test_qsbr_create();
	if (as.ht == NULL || as.v == NULL)
		return -ENOMEM;
	memset(&rc, 0, sizeof(rc));
	rc.v = as.v;
	rc.mode = mode;
	rc.free_obj = free_objs ? stress_obj_free_cb : NULL;
	return rte_rhashtable_rcu_qsbr_add(as.ht, &rc);
}

static void
as_cleanup(void)
{
	uint32_t i;

	rte_eal_mp_wait_lcore();
	if (as.service_lcore >= 0)
		stress_service_stop(as.ht, as.service_lcore);
	rte_rhashtable_free(as.ht);
	as.ht = NULL;
	rte_free(as.v);
	as.v = NULL;
	for (i = 0; i < AS_NSTABLE; i++)
		stress_obj_discard(as.stable[i]);
	for (i = 0; i < AS_NMOVING; i++)
		stress_obj_discard(as.moving[i]);
	for (i = 0; i < AS_NCHURN; i++)
		stress_obj_discard(as.churn[i]);
	memset(as.stable, 0, sizeof(as.stable));
	memset(as.moving, 0, sizeof(as.moving));
	memset(as.churn, 0, sizeof(as.churn));
	stress_pool_fini();
}

/* Start the service lcore and the workers; the first worker writes. */
static int
as_launch(lcore_function_t *writer, lcore_function_t *reader)
{
	unsigned int ids[RTE_MAX_LCORE], n, i;

	memset(as.counts, 0, sizeof(as.counts));
	as.service_lcore = stress_service_start(as.ht, reader != NULL ? 2 : 1);
	if (as.service_lcore < 0) {
		printf("needs a service lcore and %d workers (e.g. --lcores '(0-5)@(0,1)')\n",
		       reader != NULL ? 2 : 1);
		return TEST_SKIPPED;
	}
	n = stress_worker_lcores(ids, RTE_MAX_LCORE);
	as.deadline = rte_get_timer_cycles() + as.seconds * rte_get_timer_hz();
	as.writer_lcore = ids[0];
	if (writer != NULL)
		rte_eal_remote_launch(writer, NULL, ids[0]);
	for (i = writer != NULL ? 1 : 0; reader != NULL && i < n; i++)
		rte_eal_remote_launch(reader, NULL, ids[i]);
	return TEST_SUCCESS;
}

/*
 * Run the case's lcores to their deadline and collect their counters and
 * the table's; when the lcores cannot be had, clean up and return why.
 */
static int
as_run(lcore_function_t *writer, lcore_function_t *reader, struct stress_totals *t,
	struct rte_rhashtable_stats *s)
{
	int ret = as_launch(writer, reader);

	if (ret != TEST_SUCCESS) {
		as_cleanup();
		return ret;
	}
	rte_eal_mp_wait_lcore();
	*t = stress_totals_sum(as.counts);
	rte_rhashtable_stats_get(as.ht, s);
	return TEST_SUCCESS;
}

/* ---- reinsert ---- */

static void
as_check_stable(struct stress_counts *c, uint32_t i, const void *obj)
{
	c->lookups++;
	if (obj == NULL)
		c->misses++;
	else if (!stress_obj_ok(obj, stable_key(i)))
		c->bad_objs++;
}

/* Every stable key through the single, inline and bulk lookups. */
static void
as_lookup_round(struct stress_counts *c)
{
	uint64_t keys[AS_NSTABLE], hits = 0;
	const void *kp[AS_NSTABLE];
	void *objs[AS_NSTABLE];
	uint32_t i;

	for (i = 0; i < AS_NSTABLE; i++) {
		keys[i] = stable_key(i);
		kp[i] = &keys[i];
		as_check_stable(c, i, rte_rhashtable_lookup(as.ht, &keys[i]));
		as_check_stable(c, i, rte_rhashtable_lookup_fast(as.ht, &keys[i],
								 sizeof(keys[i])));
	}
	rte_rhashtable_prefetch_bulk(as.ht, kp, AS_NSTABLE, 1);
	if (rte_rhashtable_lookup_bulk(as.ht, kp, AS_NSTABLE, &hits, objs) < 0) {
		c->errors++;
		return;
	}
	for (i = 0; i < AS_NSTABLE; i++)
		as_check_stable(c, i, (hits >> i) & 1 ? objs[i] : NULL);
}

/* A whole walk must return every stable object; a walk that a re-seed
 * storm keeps restarting is cut (and counted) after AS_WALK_EAGAIN_MAX.
 */
static void
as_walk(struct stress_counts *c)
{
	struct rte_rhashtable_iter it;
	uint32_t seen = 0, eagain = 0, i;
	void *obj;
	int ret;

	rte_rhashtable_walk_enter(as.ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &obj)) != -ENOENT) {
		if (ret == -EAGAIN) {
			if (++eagain == AS_WALK_EAGAIN_MAX)
				break;
			continue;
		}
		for (i = 0; i < AS_NSTABLE; i++)
			if (obj == as.stable[i])
				seen |= 1U << i;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	if (ret != -ENOENT) {
		rte_atomic_fetch_add_explicit(&as.walks_cut, 1, rte_memory_order_relaxed);
		return;
	}
	rte_atomic_fetch_add_explicit(&as.walks, 1, rte_memory_order_relaxed);
	c->lookups += AS_NSTABLE;
	c->misses += AS_NSTABLE - rte_popcount32(seen);
}

static int
as_reinsert_reader(void *arg)
{
	unsigned int id = rte_lcore_id();
	struct stress_counts *c = &as.counts[id];
	uint64_t round;

	RTE_SET_USED(arg);
	test_qsbr_reader_start(as.v, id);
	for (round = 0; !as_stopped(); round++) {
		as_lookup_round(c);
		if (round % 64 == 0)
			as_walk(c);
		rte_rcu_qsbr_quiescent(as.v, id);
		c->qs++;
	}
	test_qsbr_reader_stop(as.v, id);
	return 0;
}

/* Remove each moving object and insert it again at once; re-seed always. */
static int
as_reinsert_writer(void *arg)
{
	struct stress_counts *c = &as.counts[rte_lcore_id()];
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; !as_stopped(); i = (i + 1) % AS_NMOVING) {
		if (rte_rhashtable_remove(as.ht, &as.moving[i]->node) != 0 ||
		    rte_rhashtable_insert(as.ht, &as.moving[i]->node) != 0)
			c->errors++;
		rte_rhashtable_reseed(as.ht);
		c->ops++;
	}
	return 0;
}

/*
 * buckets for good (max_size): the same index in old and new table at 4
 * buckets; at 128, the planned moves hold up to 12 consecutive buckets
 * locked, three groups of four, as in a large table.
 */
static int
audit_reinsert(uint32_t buckets)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats s;
	struct stress_totals t;
	uint32_t i;
	int ret;

	TEST_ASSERT_SUCCESS(stress_pool_init(), "pool");
	stress_params_init(&p, "rht_audit_reinsert");
	p.max_size = buckets;
	p.nelem_hint = (uint16_t)(buckets * RTE_RHASHTABLE_BUCKET_SLOTS / 2);
	ret = as_table_create(&p, RTE_RHASHTABLE_QSBR_MODE_DQ, false);
	TEST_ASSERT_SUCCESS(ret, "table");
	for (i = 0; i < AS_NSTABLE; i++) {
		as.stable[i] = stress_obj_new(stable_key(i), 0);
		TEST_ASSERT_NOT_NULL(as.stable[i], "no memory");
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(as.ht, &as.stable[i]->node), "insert");
	}
	for (i = 0; i < AS_NMOVING; i++) {
		as.moving[i] = stress_obj_new(STRESS_KEY(STRESS_CLS_CHURN, i), 0);
		TEST_ASSERT_NOT_NULL(as.moving[i], "no memory");
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(as.ht, &as.moving[i]->node), "insert");
	}
	ret = as_run(as_reinsert_writer, as_reinsert_reader, &t, &s);
	if (ret != TEST_SUCCESS)
		return ret;
	printf("reinsert: %" PRIu64 " lookups, %" PRIu64 " misses, %" PRIu64 " bad, %"
	       PRIu64 " re-inserts, %" PRIu64 " re-seeds, %" PRIu64 " walks (%" PRIu64
	       " cut by re-seeds)\n", t.lookups, t.misses, t.bad_objs, t.ops, s.reseeds,
	       as.walks, as.walks_cut);
	as_cleanup();
	TEST_ASSERT_EQUAL(t.misses, 0, "a lookup or walk missed a never-removed key");
	TEST_ASSERT_EQUAL(t.bad_objs + t.errors, 0, "wrong objects or failed calls");
	TEST_ASSERT(t.lookups > 0 && t.ops > 0 && s.reseeds > 0, "nothing ran");
	TEST_ASSERT_EQUAL(s.buckets, buckets, "the table has %u buckets, not %u", s.buckets,
			  buckets);
	return TEST_SUCCESS;
}

static int
test_audit_reinsert(void)
{
	return audit_reinsert(4);
}

/* ---- live_hash ---- */

static uint32_t
as_key_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	return rte_rhashtable_default_hash(key, key_len, seed);
}

/* The worker's calls wait a little first, so that a writer has time to
 * free the object if the worker reads one it does not hold.
 */
static uint32_t
as_live_obj_hash(const void *obj, uint32_t key_len, uint32_t seed)
{
	const struct stress_obj *o = obj;

	if ((int)rte_lcore_id() == as.service_lcore)
		rte_delay_us_block(1);
	if (rte_atomic_load_explicit(&o->magic, rte_memory_order_relaxed) != STRESS_MAGIC_LIVE)
		rte_atomic_fetch_add_explicit(&as.dead_hashed, 1, rte_memory_order_relaxed);
	return as_key_hash(&o->key, key_len, seed);
}

/* Insert new objects and remove (so free) old ones; re-seed always. */
static int
as_live_writer(void *arg)
{
	struct stress_counts *c = &as.counts[rte_lcore_id()];
	uint64_t n = 0;
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; !as_stopped(); i = (i + 1) % AS_NCHURN, n++) {
		if (as.churn[i] != NULL) {
			if (rte_rhashtable_remove(as.ht, &as.churn[i]->node) != 0)
				c->errors++;
			as.churn[i] = NULL;
		} else {
			as.churn[i] = stress_obj_new(STRESS_KEY(STRESS_CLS_CHURN, n), 0);
			if (as.churn[i] == NULL ||
			    rte_rhashtable_insert(as.ht, &as.churn[i]->node) != 0)
				c->errors++;
		}
		rte_rhashtable_reseed(as.ht);
		c->ops++;
	}
	return 0;
}

static int
test_audit_live_hash(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats s;
	struct stress_totals t;
	uint64_t dead;
	int ret;

	TEST_ASSERT_SUCCESS(stress_pool_init(), "pool");
	stress_params_init(&p, "rht_audit_live_hash");
	p.nelem_hint = AS_NCHURN; /* 16 buckets: four groups of planned moves */
	p.hashfn = as_key_hash;
	p.obj_hashfn = as_live_obj_hash;
	as.dead_hashed = 0;
	/* SYNC: no thread reads, so a removed object is freed at once */
	ret = as_table_create(&p, RTE_RHASHTABLE_QSBR_MODE_SYNC, true);
	TEST_ASSERT_SUCCESS(ret, "table");
	ret = as_run(as_live_writer, NULL, &t, &s);
	if (ret != TEST_SUCCESS)
		return ret;
	dead = rte_atomic_load_explicit(&as.dead_hashed, rte_memory_order_relaxed);
	printf("live_hash: %" PRIu64 " writes, %" PRIu64 " re-seeds, %" PRIu64
	       " objects moved, %" PRIu64 " freed objects hashed\n", t.ops, s.reseeds,
	       s.objs_moved, dead);
	as_cleanup();
	TEST_ASSERT_EQUAL(dead, 0, "the object hash was given a freed object");
	TEST_ASSERT_EQUAL(t.errors, 0, "a writer call failed");
	TEST_ASSERT(t.ops > 0 && s.reseeds > 0, "nothing ran");
	return TEST_SUCCESS;
}

/* ---- anon_writers ---- */

struct as_anon {
	struct stress_obj *objs[AS_ANON_OBJS];
	uint64_t ops, errors;
};

/* A thread without an lcore id: insert and remove its objects, no pause. */
static uint32_t
as_anon_writer(void *arg)
{
	struct as_anon *a = arg;
	uint32_t i;

	while (!as_stopped()) {
		for (i = 0; i < AS_ANON_OBJS; i++)
			a->errors += rte_rhashtable_insert(as.ht, &a->objs[i]->node) != 0;
		for (i = 0; i < AS_ANON_OBJS; i++)
			a->errors += rte_rhashtable_remove(as.ht, &a->objs[i]->node) != 0;
		a->ops += 2 * AS_ANON_OBJS;
	}
	return 0;
}

/* Ask for re-seeds one after the other; count those the worker did not
 * finish within AS_RESEED_DEADLINE_S.
 */
static uint64_t
as_reseed_loop(uint64_t *done)
{
	uint64_t late = 0, limit = AS_RESEED_DEADLINE_S * rte_get_timer_hz(), start;
	struct rte_rhashtable_stats s;
	uint64_t before;

	*done = 0;
	while (!as_stopped()) {
		rte_rhashtable_stats_get(as.ht, &s);
		before = s.rehashes_done;
		rte_rhashtable_reseed(as.ht);
		start = rte_get_timer_cycles();
		do {
			rte_delay_us_sleep(100);
			rte_rhashtable_stats_get(as.ht, &s);
		} while (s.rehashes_done == before && rte_get_timer_cycles() - start < limit);
		if (s.rehashes_done == before)
			late++;
		else
			(*done)++;
	}
	return late;
}

static int
test_audit_anon_writers(void)
{
	static struct as_anon anon[AS_ANON_THREADS];
	struct rte_rhashtable_params p;
	rte_thread_t tid[AS_ANON_THREADS];
	uint64_t late, done, ops = 0, errors = 0;
	uint32_t i, j;
	int ret;

	TEST_ASSERT_SUCCESS(stress_pool_init(), "pool");
	stress_params_init(&p, "rht_audit_anon");
	ret = as_table_create(&p, RTE_RHASHTABLE_QSBR_MODE_DQ, false);
	TEST_ASSERT_SUCCESS(ret, "table");
	memset(anon, 0, sizeof(anon));
	for (i = 0; i < AS_ANON_THREADS; i++)
		for (j = 0; j < AS_ANON_OBJS; j++) {
			anon[i].objs[j] = stress_obj_new(
				STRESS_KEY(STRESS_CLS_CHURN, i * AS_ANON_OBJS + j), 0);
			TEST_ASSERT_NOT_NULL(anon[i].objs[j], "no memory");
		}
	ret = as_launch(NULL, NULL);
	if (ret != TEST_SUCCESS) {
		as_cleanup();
		return ret;
	}
	for (i = 0; i < AS_ANON_THREADS; i++)
		TEST_ASSERT_SUCCESS(rte_thread_create(&tid[i], NULL, as_anon_writer, &anon[i]),
				    "rte_thread_create");
	late = as_reseed_loop(&done);
	for (i = 0; i < AS_ANON_THREADS; i++) {
		rte_thread_join(tid[i], NULL);
		ops += anon[i].ops;
		errors += anon[i].errors;
		for (j = 0; j < AS_ANON_OBJS; j++)
			stress_obj_discard(anon[i].objs[j]);
	}
	printf("anon_writers: %" PRIu64 " writes by %d threads without an lcore id, %" PRIu64
	       " re-seeds done, %" PRIu64 " over %d s\n", ops, AS_ANON_THREADS, done, late,
	       AS_RESEED_DEADLINE_S);
	as_cleanup();
	TEST_ASSERT_EQUAL(late, 0, "the worker stalled behind writers without an lcore id");
	TEST_ASSERT_EQUAL(errors, 0, "a writer call failed");
	TEST_ASSERT(ops > 0 && done > 0, "nothing ran");
	return TEST_SUCCESS;
}

/* Run test with every rehash planning its moves: no cache size known. */
static int
as_with_planned_moves(int (*test)(void))
{
	uint64_t cache_bytes = __rte_rhashtable_cache_bytes_set(0);
	int ret = test();

	__rte_rhashtable_cache_bytes_set(cache_bytes);
	return ret;
}

static int
audit_reinsert_128(void)
{
	return audit_reinsert(128);
}

static int
test_audit_reinsert_planned(void)
{
	return as_with_planned_moves(audit_reinsert_128);
}

static int
test_audit_live_hash_planned(void)
{
	return as_with_planned_moves(test_audit_live_hash);
}

/* ---- suites ---- */

static struct unit_test_suite audit_suite = {
	.suite_name = "rte_rhashtable audit stress",
	.unit_test_cases = {
		TEST_CASE(test_audit_reinsert),
		TEST_CASE(test_audit_reinsert_planned),
		TEST_CASE(test_audit_live_hash),
		TEST_CASE(test_audit_live_hash_planned),
		TEST_CASE(test_audit_anon_writers),
		TEST_CASES_END()
	},
};

static int
test_rhashtable_audit_short(void)
{
	as.seconds = 2;
	return unit_test_suite_runner(&audit_suite);
}

static int
test_rhashtable_audit(void)
{
	as.seconds = RTE_MAX(stress_seconds(60) / 3, 5U);
	return unit_test_suite_runner(&audit_suite);
}

REGISTER_FAST_TEST(rhashtable_audit_short_autotest, true, true, test_rhashtable_audit_short);
REGISTER_STRESS_TEST(rhashtable_audit_autotest, test_rhashtable_audit);
