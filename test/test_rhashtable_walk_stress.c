/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_walk_stress_autotest (long) and _short_autotest (fast): walkers
 * on several lcores while the rehash service grows, shrinks and re-seeds
 * the table and a writer inserts (and in some cases removes) other keys.
 * Run with e.g. --lcores '(0-5)@(0,1)'.
 *
 * What must hold for the stable keys (present for the whole walk):
 * - a walk that goes on after -EAGAIN sees each at least once;
 * - a walk done under rte_rhashtable_rehash_lock() sees each exactly once.
 * Walkers pause (walk_stop, quiescent state, walk_start_check) every few
 * hundred objects, so that the bucket table they walk can be retired
 * meanwhile and walk_start_check takes its -EAGAIN path.
 *
 * rhashtable_walk_repro_autotest: the same two promises checked on one
 * thread, with a hash that puts chosen keys in one bucket: a removal or an
 * insert in the overflow chain being walked must not make the walk skip an
 * object (nor, under the rehash lock, return one twice).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_stress.h"

#define WS_PAUSE_EVERY 256
#define WS_RESEED_MS 20
#define WS_MIN_SIZE 64
#define WS_PRINT_MAX 5

struct ws_cfg {
	const char *name;
	unsigned int seconds;
	uint32_t nstable;
	uint32_t bulk_target;
	bool removals;      /* the writer also removes: fill/drain cycles */
	bool locked_walks;  /* every other walk holds the rehash lock */
};

struct __rte_cache_aligned ws_counts {
	uint64_t walks, locked_walks, objs;
	uint64_t eagain_next, eagain_start;
	uint64_t misses;        /* stable key not seen by a walk */
	uint64_t locked_misses; /* same, under the rehash lock */
	uint64_t locked_dups;   /* stable key seen twice under the rehash lock */
	uint64_t dups;          /* stable key seen twice (allowed after -EAGAIN) */
	uint64_t bad_objs;
};

static struct {
	const struct ws_cfg *cfg;
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	struct stress_obj **stable;
	struct stress_obj **bulk;
	uint32_t nbulk;
	uint64_t retired;
	uint32_t stop;
	uint32_t printed;
	struct ws_counts counts[RTE_MAX_LCORE];
} ws;

#define WS_REPORT(fmt, ...) do {						\
	if (rte_atomic_fetch_add_explicit(&ws.printed, 1,			\
					  rte_memory_order_relaxed) < WS_PRINT_MAX) \
		printf("lcore %u: " fmt "\n", rte_lcore_id(), ##__VA_ARGS__);	\
} while (0)

static bool
ws_stopped(void)
{
	return rte_atomic_load_explicit(&ws.stop, rte_memory_order_relaxed) != 0;
}

/* ---- the writer: grows the table (and with removals, shrinks it) ---- */

static void
ws_writer_step(unsigned int id, bool *filling, uint64_t *errors)
{
	struct stress_obj *o;

	if (*filling) {
		o = stress_obj_new(STRESS_KEY(STRESS_CLS_BULK, ws.nbulk), id);
		if (o == NULL || rte_rhashtable_insert(ws.ht, &o->node) != 0) {
			(*errors)++;
			stress_obj_discard(o);
			return;
		}
		ws.bulk[ws.nbulk++] = o;
		if (ws.nbulk == ws.cfg->bulk_target)
			*filling = false;
		return;
	}
	if (!ws.cfg->removals) {
		rte_delay_us_sleep(1000);
		return;
	}
	o = ws.bulk[--ws.nbulk];
	if (rte_rhashtable_remove(ws.ht, &o->node) != 0)
		(*errors)++;
	else
		ws.retired++;
	if (ws.nbulk == 0)
		*filling = true;
}

static int
ws_writer(void *arg)
{
	unsigned int id = rte_lcore_id();
	bool filling = true;
	uint64_t *errors = arg;
	uint32_t n = 0;

	test_qsbr_reader_start(ws.v, id);
	while (!ws_stopped()) {
		ws_writer_step(id, &filling, errors);
		if ((++n & 63) == 0)
			rte_rcu_qsbr_quiescent(ws.v, id);
	}
	test_qsbr_reader_stop(ws.v, id);
	return 0;
}

/* ---- walkers ---- */

static void
ws_seen(struct ws_counts *c, uint8_t *seen, const struct stress_obj *o)
{
	uint64_t key = o->key;

	c->objs++;
	if (o->magic != STRESS_MAGIC_LIVE) {
		c->bad_objs++;
		WS_REPORT("walk returned freed object %p (key %#" PRIx64 ")", (const void *)o, key);
		return;
	}
	if (STRESS_KEY_CLS(key) == STRESS_CLS_STABLE && STRESS_KEY_IDX(key) < ws.cfg->nstable &&
	    seen[STRESS_KEY_IDX(key)] < UINT8_MAX)
		seen[STRESS_KEY_IDX(key)]++;
}

/* One whole walk, paused every WS_PAUSE_EVERY objects. */
static void
ws_walk_once(struct ws_counts *c, uint8_t *seen, unsigned int id)
{
	struct rte_rhashtable_iter it;
	uint64_t n = 0;
	void *obj;
	int ret;

	memset(seen, 0, ws.cfg->nstable);
	rte_rhashtable_walk_enter(ws.ht, &it);
	if (rte_rhashtable_walk_start_check(&it) == -EAGAIN)
		c->eagain_start++;
	for (;;) {
		ret = rte_rhashtable_walk_next(&it, &obj);
		if (ret == -EAGAIN) {
			c->eagain_next++;
			continue;
		}
		if (ret != 0)
			break;
		ws_seen(c, seen, obj);
		if (++n % WS_PAUSE_EVERY == 0) {
			rte_rhashtable_walk_stop(&it);
			rte_rcu_qsbr_quiescent(ws.v, id);
			/* now and then long enough for the walked table to retire */
			if (n % (WS_PAUSE_EVERY * 16) == 0) {
				rte_rcu_qsbr_thread_offline(ws.v, id);
				rte_delay_us_sleep(200);
				rte_rcu_qsbr_thread_online(ws.v, id);
			}
			if (rte_rhashtable_walk_start_check(&it) == -EAGAIN)
				c->eagain_start++;
		}
	}
	if (ret != -ENOENT) {
		c->bad_objs++;
		WS_REPORT("walk_next returned %d", ret);
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
}

static void
ws_check_walk(struct ws_counts *c, const uint8_t *seen, bool locked)
{
	uint32_t i;

	for (i = 0; i < ws.cfg->nstable; i++) {
		if (seen[i] == 0) {
			if (locked)
				c->locked_misses++;
			else
				c->misses++;
			WS_REPORT("%s walk missed stable key %u", locked ? "locked" : "a", i);
		} else if (seen[i] > 1) {
			if (locked) {
				c->locked_dups++;
				WS_REPORT("locked walk saw stable key %u %u times", i, seen[i]);
			} else {
				c->dups++;
			}
		}
	}
}

static int
ws_walker(void *arg)
{
	unsigned int id = rte_lcore_id();
	struct ws_counts *c = &ws.counts[id];
	uint8_t *seen = arg;

	test_qsbr_reader_start(ws.v, id);
	while (!ws_stopped()) {
		bool locked = ws.cfg->locked_walks && (c->walks & 1) != 0;

		if (locked) {
			/* rehash_lock may wait for a grace period: not as a reader */
			rte_rcu_qsbr_thread_offline(ws.v, id);
			rte_rhashtable_rehash_lock(ws.ht);
			rte_rcu_qsbr_thread_online(ws.v, id);
		}
		ws_walk_once(c, seen, id);
		if (locked) {
			rte_rcu_qsbr_thread_offline(ws.v, id);
			rte_rhashtable_rehash_unlock(ws.ht);
			rte_rcu_qsbr_thread_online(ws.v, id);
			c->locked_walks++;
		}
		ws_check_walk(c, seen, locked);
		c->walks++;
		rte_rcu_qsbr_quiescent(ws.v, id);
	}
	test_qsbr_reader_stop(ws.v, id);
	return 0;
}

/* ---- setup, run, checks ---- */

static int
ws_setup(const struct ws_cfg *cfg)
{
	struct rte_rhashtable_rcu_config rc;
	struct rte_rhashtable_params p;
	uint32_t i;

	memset(&ws, 0, sizeof(ws));
	ws.cfg = cfg;
	stress_params_init(&p, cfg->name);
	p.automatic_shrinking = true;
	p.min_size = WS_MIN_SIZE;
	ws.ht = rte_rhashtable_create(&p);
	ws.v = test_qsbr_create();
	ws.stable = calloc(cfg->nstable, sizeof(*ws.stable));
	ws.bulk = calloc(cfg->bulk_target, sizeof(*ws.bulk));
	if (stress_pool_init() != 0 || ws.ht == NULL || ws.v == NULL || ws.stable == NULL ||
	    ws.bulk == NULL)
		return -ENOMEM;
	memset(&rc, 0, sizeof(rc));
	rc.v = ws.v;
	rc.dq_size = rte_align32pow2(cfg->bulk_target + 4096);
	rc.free_obj = stress_obj_free_cb;
	if (rte_rhashtable_rcu_qsbr_add(ws.ht, &rc) != 0)
		return -EINVAL;
	for (i = 0; i < cfg->nstable; i++) {
		ws.stable[i] = stress_obj_new(STRESS_KEY(STRESS_CLS_STABLE, i), 0);
		if (ws.stable[i] == NULL || rte_rhashtable_insert(ws.ht, &ws.stable[i]->node) != 0)
			return -ENOMEM;
	}
	return 0;
}

static void
ws_free_obj(void *arg, void *obj)
{
	RTE_SET_USED(arg);
	stress_obj_discard(obj);
}

static void
ws_cleanup(int service_lcore)
{
	stress_service_stop(ws.ht, service_lcore);
	rte_rhashtable_free_and_destroy(ws.ht, ws_free_obj, NULL);
	rte_free(ws.v);
	free(ws.stable);
	free(ws.bulk);
	stress_pool_fini();
	memset(&ws, 0, sizeof(ws));
}

/* The main lcore asks for re-seeds while the others work. */
static void
ws_control(const struct ws_cfg *cfg)
{
	uint64_t hz = rte_get_timer_hz();
	uint64_t deadline = rte_get_timer_cycles() + cfg->seconds * hz;

	while (rte_get_timer_cycles() < deadline) {
		rte_rhashtable_reseed(ws.ht);
		rte_delay_us_sleep(WS_RESEED_MS * 1000);
	}
}

static int
ws_check(const struct ws_cfg *cfg, uint64_t writer_errors)
{
	struct rte_rhashtable_stats s;
	struct ws_counts t;
	unsigned int l;

	memset(&t, 0, sizeof(t));
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct ws_counts *c = &ws.counts[l];

		t.walks += c->walks;
		t.locked_walks += c->locked_walks;
		t.objs += c->objs;
		t.eagain_next += c->eagain_next;
		t.eagain_start += c->eagain_start;
		t.misses += c->misses;
		t.locked_misses += c->locked_misses;
		t.locked_dups += c->locked_dups;
		t.dups += c->dups;
		t.bad_objs += c->bad_objs;
	}
	rte_rhashtable_stats_get(ws.ht, &s);
	printf("%s: walks %" PRIu64 " (locked %" PRIu64 "), objects %" PRIu64
	       ", -EAGAIN next/start %" PRIu64 "/%" PRIu64 ", misses %" PRIu64
	       " (locked %" PRIu64 "), duplicates %" PRIu64 " (locked %" PRIu64
	       "), bad %" PRIu64 ", writer errors %" PRIu64 "\n",
	       cfg->name, t.walks, t.locked_walks, t.objs, t.eagain_next, t.eagain_start,
	       t.misses, t.locked_misses, t.dups, t.locked_dups, t.bad_objs, writer_errors);
	stress_print_stats("end", &s);
	TEST_ASSERT(t.walks > 0, "no walk finished");
	TEST_ASSERT(s.rehashes_done > 0, "no rehash happened under the walkers");
	TEST_ASSERT(t.eagain_next + t.eagain_start > 0, "no walk met a rehash");
	TEST_ASSERT_EQUAL(writer_errors, 0, "writer calls failed");
	TEST_ASSERT_EQUAL(t.bad_objs, 0, "walks returned freed objects or failed");
	TEST_ASSERT_EQUAL(t.misses, 0, "walks missed objects present throughout");
	TEST_ASSERT_EQUAL(t.locked_misses, 0, "walks under the rehash lock missed objects");
	TEST_ASSERT_EQUAL(t.locked_dups, 0, "walks under the rehash lock saw objects twice");
	return TEST_SUCCESS;
}

static int
ws_case(const struct ws_cfg *cfg)
{
	unsigned int lcores[RTE_MAX_LCORE], n, i;
	uint8_t *seen[RTE_MAX_LCORE] = { NULL };
	int service_lcore = -1, ret = TEST_FAILED;
	uint64_t writer_errors = 0;

	if (!stress_case_selected(cfg->name))
		return TEST_SKIPPED;
	if (ws_setup(cfg) != 0) {
		printf("%s: setup failed\n", cfg->name);
		goto out;
	}
	service_lcore = stress_service_start(ws.ht, 2);
	n = stress_worker_lcores(lcores, RTE_MAX_LCORE);
	if (service_lcore < 0 || n < 2) {
		printf("%s: needs 4 lcores, e.g. --lcores '(0-5)@(0,1)'\n", cfg->name);
		ret = TEST_SKIPPED;
		goto out;
	}
	for (i = 1; i < n; i++) {
		seen[i] = calloc(cfg->nstable, 1);
		if (seen[i] == NULL)
			goto out;
	}
	printf("%s: %u s, 1 writer, %u walkers, service lcore %d\n", cfg->name, cfg->seconds,
	       n - 1, service_lcore);
	rte_eal_remote_launch(ws_writer, &writer_errors, lcores[0]);
	for (i = 1; i < n; i++)
		rte_eal_remote_launch(ws_walker, seen[i], lcores[i]);
	ws_control(cfg);
	rte_atomic_store_explicit(&ws.stop, 1, rte_memory_order_relaxed);
	for (i = 0; i < n; i++)
		rte_eal_wait_lcore(lcores[i]);
	ret = ws_check(cfg, writer_errors);
out:
	for (i = 0; i < RTE_MAX_LCORE; i++)
		free(seen[i]);
	ws_cleanup(service_lcore);
	return ret;
}

static bool ws_long;

/* A case as the short run has it; the long run lasts a third of
 * stress_seconds(60) (5 s at least) with long_bulk bulk keys.
 */
struct ws_case_def {
	struct ws_cfg cfg;
	uint32_t long_bulk;
};

/* grows and re-seeds under the walkers; the writer only inserts */
static const struct ws_case_def ws_rehash = { { .name = "rht_walk_rehash", .seconds = 4,
	.nstable = 8192, .bulk_target = 256U << 10 }, 2U << 20 };
/* grows, shrinks and re-seeds: the writer fills and empties the table */
static const struct ws_case_def ws_churn = { { .name = "rht_walk_churn", .seconds = 4,
	.nstable = 8192, .bulk_target = 128U << 10, .removals = true }, 1U << 20 };
/* every other walk holds the rehash lock while the writer inserts */
static const struct ws_case_def ws_locked = { { .name = "rht_walk_locked", .seconds = 3,
	.nstable = 8192, .bulk_target = 256U << 10, .locked_walks = true }, 2U << 20 };

static int
ws_case_run(const void *data)
{
	const struct ws_case_def *def = data;
	struct ws_cfg cfg = def->cfg;

	if (ws_long) {
		cfg.seconds = RTE_MAX(stress_seconds(60) / 3, 5U);
		cfg.bulk_target = def->long_bulk;
	}
	return ws_case(&cfg);
}

#define WS_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_walk_" #c, NULL, NULL, ws_case_run, &ws_##c)

static struct unit_test_suite walk_stress_suite = {
	.suite_name = "rhashtable walk stress",
	.unit_test_cases = {
		WS_CASE(rehash),
		WS_CASE(churn),
		WS_CASE(locked),
		TEST_CASES_END(),
	},
};

static int
test_rhashtable_walk_stress(void)
{
	ws_long = true;
	return unit_test_suite_runner(&walk_stress_suite);
}

static int
test_rhashtable_walk_stress_short(void)
{
	ws_long = false;
	return unit_test_suite_runner(&walk_stress_suite);
}

REGISTER_STRESS_TEST(rhashtable_walk_stress_autotest, test_rhashtable_walk_stress);
REGISTER_FAST_TEST(rhashtable_walk_stress_short_autotest, true, true,
		   test_rhashtable_walk_stress_short);

/* ---- one-thread reproducers: changes in the chain being walked ---- */

/* objs[0-3] the cases' own; objs[4..] fill the slots of bucket 0 */
#define REPRO_FILL 4
static struct rte_rhashtable *repro_ht;
static struct stress_obj repro_objs[REPRO_FILL + RTE_RHASHTABLE_BUCKET_SLOTS];

static int
repro_setup(void)
{
	struct rte_rhashtable_params p;
	uint32_t i;

	stress_params_init(&p, "rht_walk_repro");
	p.hashfn = test_seedless_hash; /* keys k and k + 64 share bucket k & 63 */
	p.nelem_hint = 336; /* 64 buckets: 448 slots */
	repro_ht = rte_rhashtable_create(&p);
	if (repro_ht == NULL)
		return TEST_FAILED;
	memset(repro_objs, 0, sizeof(repro_objs));
	for (i = 0; i < RTE_DIM(repro_objs); i++) {
		repro_objs[i].key = (uint64_t)i * 64; /* all in bucket 0 */
		repro_objs[i].magic = STRESS_MAGIC_LIVE;
	}
	/* the fillers take the 7 slots, so that the next objects of the bucket
	 * go to its overflow chain
	 */
	for (i = REPRO_FILL; i < RTE_DIM(repro_objs); i++)
		if (rte_rhashtable_insert(repro_ht, &repro_objs[i].node) != 0)
			return TEST_FAILED;
	/* the chain of bucket 0 is objs[1] -> objs[2]; objs[0] and [3] wait */
	if (rte_rhashtable_insert(repro_ht, &repro_objs[2].node) != 0 ||
	    rte_rhashtable_insert(repro_ht, &repro_objs[1].node) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
repro_teardown(void)
{
	rte_rhashtable_free(repro_ht);
	repro_ht = NULL;
}

/*
 * Enter and start a walk of repro_ht and take the fillers of the slots, which
 * come first; *obj the object after them, the first of the overflow chain.
 * Each object returned is counted in seen.
 */
static int
repro_walk_first(struct rte_rhashtable_iter *it, uint32_t *seen, void **obj)
{
	uint32_t i;

	rte_rhashtable_walk_enter(repro_ht, it);
	rte_rhashtable_walk_start(it);
	for (i = 0; i <= RTE_RHASHTABLE_BUCKET_SLOTS; i++) {
		TEST_ASSERT_SUCCESS(rte_rhashtable_walk_next(it, obj), "object %u", i);
		seen[(struct stress_obj *)*obj - repro_objs]++;
		if (i < RTE_RHASHTABLE_BUCKET_SLOTS)
			TEST_ASSERT(*obj == &repro_objs[REPRO_FILL + i],
				    "the slots come first, in order");
	}
	return TEST_SUCCESS;
}

/* Walk to the end, stop and exit; count how often each object was returned. */
static int
repro_walk_rest(struct rte_rhashtable_iter *it, uint32_t *seen)
{
	void *obj;
	int ret;

	while ((ret = rte_rhashtable_walk_next(it, &obj)) == 0 || ret == -EAGAIN)
		if (ret == 0)
			seen[(struct stress_obj *)obj - repro_objs]++;
	rte_rhashtable_walk_stop(it);
	rte_rhashtable_walk_exit(it);
	return ret == -ENOENT ? 0 : ret;
}

/*
 * The walk returned objs[1], the head of the overflow chain; objs[1] is
 * removed. objs[2], present throughout, must still be returned.
 */
static int
test_walk_repro_remove(void)
{
	struct rte_rhashtable_iter it;
	uint32_t seen[RTE_DIM(repro_objs)] = { 0 };
	void *obj;

	TEST_ASSERT_SUCCESS(repro_walk_first(&it, seen, &obj), "walk start");
	TEST_ASSERT(obj == &repro_objs[1], "the chain head comes first");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(repro_ht, &repro_objs[1].node), "remove");
	TEST_ASSERT_SUCCESS(repro_walk_rest(&it, seen), "walk");
	TEST_ASSERT_EQUAL(seen[2], 1, "object present for the whole walk returned %u times "
			  "after an object before it in its chain was removed", seen[2]);
	return TEST_SUCCESS;
}

/*
 * Under the rehash lock, the walk returned objs[1]; objs[3] is inserted at
 * the head of the same overflow chain (the slots are full). objs[1] must
 * not be returned again.
 */
static int
test_walk_repro_insert_locked(void)
{
	struct rte_rhashtable_iter it;
	uint32_t seen[RTE_DIM(repro_objs)] = { 0 };
	void *obj;

	rte_rhashtable_rehash_lock(repro_ht);
	TEST_ASSERT_SUCCESS(repro_walk_first(&it, seen, &obj), "walk start");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(repro_ht, &repro_objs[3].node), "insert");
	TEST_ASSERT_SUCCESS(repro_walk_rest(&it, seen), "walk");
	rte_rhashtable_rehash_unlock(repro_ht);
	TEST_ASSERT(seen[1] == 1 && seen[2] == 1, "under the rehash lock, objects present "
		    "throughout returned %u and %u times after an insert in their chain",
		    seen[1], seen[2]);
	return TEST_SUCCESS;
}

/* The same removal, across walk_stop / walk_start. */
static int
test_walk_repro_remove_paused(void)
{
	struct rte_rhashtable_iter it;
	uint32_t seen[RTE_DIM(repro_objs)] = { 0 };
	void *obj;

	TEST_ASSERT_SUCCESS(repro_walk_first(&it, seen, &obj), "walk start");
	rte_rhashtable_walk_stop(&it);
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(repro_ht, &repro_objs[1].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_walk_start_check(&it), "no rehash happened");
	TEST_ASSERT_SUCCESS(repro_walk_rest(&it, seen), "walk");
	TEST_ASSERT_EQUAL(seen[2], 1, "object present for the whole walk returned %u times "
			  "after an object before it was removed during a pause", seen[2]);
	return TEST_SUCCESS;
}

static struct unit_test_suite walk_repro_suite = {
	.suite_name = "rhashtable walk: chain changes under the walker",
	.unit_test_cases = {
		TEST_CASE_ST(repro_setup, repro_teardown, test_walk_repro_remove),
		TEST_CASE_ST(repro_setup, repro_teardown, test_walk_repro_insert_locked),
		TEST_CASE_ST(repro_setup, repro_teardown, test_walk_repro_remove_paused),
		TEST_CASES_END(),
	},
};

static int
test_rhashtable_walk_repro(void)
{
	return unit_test_suite_runner(&walk_repro_suite);
}

REGISTER_FAST_TEST(rhashtable_walk_repro_autotest, true, true, test_rhashtable_walk_repro);
