/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_rcu_autotest (long) and rhashtable_rcu_short_autotest (fast):
 * lookups under real concurrency. Run with several lcores sharing few CPUs,
 * e.g. --lcores '(0-5)@(0,1)', so that preemption mixes the interleavings.
 *
 * Roles, from rte_lcore_count(): the main lcore is the control thread (it
 * asks for same-size re-seeds, or runs rte_rhashtable_rehash_run()); one
 * worker becomes the service lcore running the rehash service; one or two
 * writers; the rest are readers.
 * - Readers look up stable keys (always present: a miss is a bug), keys never
 *   inserted (a hit is a bug), and keys the writers churn, in bursts and one
 *   at a time, and check every object returned: its key, and that free_obj
 *   has not poisoned it. They report a quiescent state between bursts.
 * - Writer 0 fills the table with bulk keys, forcing grows, then empties it,
 *   forcing shrinks, over and over (every other fill in bursts of
 *   rte_rhashtable_lookup_insert_bulk()); it also replaces stable objects.
 * - Every writer churns its own keys with insert, lookup_insert,
 *   lookup_get_insert, remove and replace, and knows exactly what its own
 *   lookups must return.
 * At the end the counts are exact, the table comes to rest within its
 * thresholds, and every retired bucket table and removed object was freed.
 * Cases: DQ and SYNC reclamation with a service lcore, rehash_run from the
 * main lcore, emergency growth alone, a single_writer table whose one writer
 * runs rehash_run between its writes (no bucket locks: planned and unplanned
 * moves), and writers racing on the same keys.
 *
 * Environment: RHT_STRESS_SECONDS sets the long test's duration (default
 * 60); RHT_STRESS_ONLY=<part of a case's table name> runs only that case
 * (dq_svc, sync_svc, dq_run, emergency, dq_1w, race).
 * RHT_STRESS_NEGATIVE_CONTROL=1 leaves the readers unregistered, so the
 * table frees objects under them: the test must then fail (poison seen, or a
 * use-after-free report in an AddressSanitizer build).
 *
 * The rhashtable_rcu_*_repro_autotest commands at the end reproduce library
 * bugs deterministically (stress-tests suite until fixed).
 */

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_stress.h"

#define RS_MIN_SIZE 64
#define RS_BURST 64
#define RS_SINGLES 16
#define RS_RESEED_MS 20
/* a single writer re-seeds itself, moving every object: less often */
#define RS_RESEED_1W_MS 200
#define RS_REPORT_S 10
#define RS_MAX_WRITERS 2
#define RS_PRINT_MAX 5

enum rs_worker {
	RS_WORKER_SERVICE, /* the rehash service on a service lcore */
	RS_WORKER_RUN,     /* rte_rhashtable_rehash_run() on the main lcore */
	RS_WORKER_NONE,    /* nobody: emergency growth only */
	RS_WORKER_WRITER,  /* a single_writer table: its one writer runs rehash_run */
};

struct rs_cfg {
	const char *name;
	enum rte_rhashtable_qsbr_mode mode;
	enum rs_worker worker;
	unsigned int seconds;
	uint32_t bulk_target; /* bulk keys of one fill */
	uint32_t nstable;
	uint32_t nchurn;      /* churn keys of each writer */
	/* the rehash worker's planned moves, which tables this small skip:
	 * it locks a window of old buckets and hashes their objects ahead
	 */
	bool planned_moves;
};

/* One writer's own state. */
struct rs_writer {
	unsigned int idx;
	struct stress_obj **churn;   /* object of each churn key, or NULL */
	struct stress_obj **bulk;    /* writer 0: bulk objects in the table */
	uint32_t nbulk;
	bool filling;
	uint64_t present;            /* objects it left in the table */
	uint64_t retired;            /* objects it handed to free_obj */
	uint64_t fills, drains;      /* bulk cycles */
	uint64_t rng;
};

static struct {
	const struct rs_cfg *cfg;
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	struct stress_obj **stable;  /* written by writer 0 only, after start */
	uint32_t nwriters;
	uint32_t stop;
	uint32_t printed;            /* failure messages printed */
	struct rs_writer writers[RS_MAX_WRITERS];
	struct stress_counts counts[RTE_MAX_LCORE];
} rs;

static inline uint64_t
rs_rand(uint64_t *s)
{
	/* xorshift64*: cheap and per thread */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static bool
rs_stopped(void)
{
	return rte_atomic_load_explicit(&rs.stop, rte_memory_order_relaxed) != 0;
}

/* Print the first few failures only: a bug would flood the log otherwise. */
#define RS_REPORT(fmt, ...) do {						\
	if (rte_atomic_fetch_add_explicit(&rs.printed, 1,			\
					  rte_memory_order_relaxed) < RS_PRINT_MAX) \
		printf("lcore %u: " fmt "\n", rte_lcore_id(), ##__VA_ARGS__);	\
} while (0)

/* ---- readers ---- */

static uint64_t
rs_pick_key(uint64_t *rng)
{
	uint64_t r = rs_rand(rng);
	uint64_t i = r >> 8;

	switch (r & 7) {
	case 0: case 1: case 2: case 3:
		return STRESS_KEY(STRESS_CLS_STABLE, i % rs.cfg->nstable);
	case 4:
		return STRESS_KEY(STRESS_CLS_NEVER, i & 0xffffff);
	case 5:
		return STRESS_KEY(STRESS_CLS_CHURN, i % (rs.cfg->nchurn * rs.nwriters));
	default:
		return STRESS_KEY(STRESS_CLS_BULK, i % rs.cfg->bulk_target);
	}
}

static void
rs_check(struct stress_counts *c, uint64_t key, const struct stress_obj *o)
{
	c->lookups++;
	if (o == NULL) {
		if (STRESS_KEY_CLS(key) == STRESS_CLS_STABLE) {
			c->misses++;
			RS_REPORT("stable key %#" PRIx64 " not found", key);
		}
		return;
	}
	if (STRESS_KEY_CLS(key) == STRESS_CLS_NEVER) {
		c->false_hits++;
		RS_REPORT("never-inserted key %#" PRIx64 " found", key);
	}
	if (!stress_obj_ok(o, key)) {
		c->bad_objs++;
		RS_REPORT("key %#" PRIx64 " gave object %p with key %#" PRIx64 " magic %#" PRIx64,
			  key, (const void *)o, o->key, o->magic);
	}
}

static void
rs_reader_burst(struct stress_counts *c, uint64_t *rng)
{
	uint64_t keys[RS_BURST];
	const void *kp[RS_BURST];
	void *objs[RS_BURST];
	uint64_t hits = 0;
	int i, n;

	for (i = 0; i < RS_BURST; i++) {
		keys[i] = rs_pick_key(rng);
		kp[i] = &keys[i];
	}
	n = rte_rhashtable_lookup_bulk(rs.ht, kp, RS_BURST, &hits, objs);
	if (n != (int)rte_popcount64(hits)) {
		c->bad_objs++;
		RS_REPORT("lookup_bulk returned %d for %u hits", n, rte_popcount64(hits));
	}
	for (i = 0; i < RS_BURST; i++) {
		if (((hits >> i) & 1) != (objs[i] != NULL)) {
			c->bad_objs++;
			RS_REPORT("lookup_bulk: hit bit %d disagrees with its object", i);
		}
		rs_check(c, keys[i], objs[i]);
	}
}

static int
rs_reader(void *arg)
{
	unsigned int id = rte_lcore_id();
	struct stress_counts *c = &rs.counts[id];
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (id + 1);
	int i;

	RTE_SET_USED(arg);
	/* negative control: readers the table does not wait for must be caught */
	if (getenv("RHT_STRESS_NEGATIVE_CONTROL") == NULL)
		test_qsbr_reader_start(rs.v, id);
	while (!rs_stopped()) {
		rs_reader_burst(c, &rng);
		for (i = 0; i < RS_SINGLES; i++) {
			uint64_t key = rs_pick_key(&rng);

			/* half of them through the inline lookup */
			rs_check(c, key, (i & 1) ? rte_rhashtable_lookup(rs.ht, &key) :
				 rte_rhashtable_lookup_fast(rs.ht, &key, sizeof(key)));
		}
		rte_rcu_qsbr_quiescent(rs.v, id);
		c->qs++;
	}
	test_qsbr_reader_stop(rs.v, id);
	return 0;
}

/* ---- writers ---- */

/*
 * In SYNC mode remove and replace wait for a grace period: a writer that is
 * an online reader would wait for itself, so it goes offline around them.
 */
static void
rs_sync_begin(unsigned int id)
{
	if (rs.cfg->mode == RTE_RHASHTABLE_QSBR_MODE_SYNC)
		rte_rcu_qsbr_thread_offline(rs.v, id);
}

static void
rs_sync_end(unsigned int id)
{
	if (rs.cfg->mode == RTE_RHASHTABLE_QSBR_MODE_SYNC)
		rte_rcu_qsbr_thread_online(rs.v, id);
}

static void
rs_error(struct stress_counts *c, const char *what, uint64_t key, int ret)
{
	c->errors++;
	RS_REPORT("%s of key %#" PRIx64 " returned %d", what, key, ret);
}

static int
rs_remove(struct rs_writer *w, struct stress_obj *o, unsigned int id)
{
	int ret;

	rs_sync_begin(id);
	ret = rte_rhashtable_remove(rs.ht, &o->node);
	rs_sync_end(id);
	if (ret == 0)
		w->retired++;
	return ret;
}

static int
rs_replace(struct rs_writer *w, struct stress_obj *old, struct stress_obj *n,
	   unsigned int id)
{
	int ret;

	rs_sync_begin(id);
	ret = rte_rhashtable_replace(rs.ht, &old->node, &n->node);
	rs_sync_end(id);
	if (ret == 0)
		w->retired++;
	return ret;
}

/* After a fill step: the table holds every bulk key, drain it next. */
static void
rs_fill_check(struct rs_writer *w)
{
	if (w->nbulk == rs.cfg->bulk_target) {
		w->filling = false;
		w->fills++;
	}
}

/* Bulk keys a burst of rs_bulk_fill_burst() inserts. */
#define RS_FILL_BURST 16

/*
 * A fill step of up to RS_FILL_BURST bulk keys in one
 * rte_rhashtable_lookup_insert_bulk() call: each must go in.
 */
static void
rs_bulk_fill_burst(struct rs_writer *w, unsigned int id, struct stress_counts *c)
{
	uint32_t n = RTE_MIN((uint32_t)RS_FILL_BURST, rs.cfg->bulk_target - w->nbulk);
	struct rte_rhash_head *heads[RS_FILL_BURST];
	struct stress_obj *o[RS_FILL_BURST];
	uint32_t made, k, first = w->nbulk;
	int rets[RS_FILL_BURST], ret;

	for (made = 0; made < n; made++) {
		o[made] = stress_obj_new(STRESS_KEY(STRESS_CLS_BULK, first + made), id);
		if (o[made] == NULL)
			break;
		heads[made] = &o[made]->node;
	}
	if (made == 0)
		return;
	ret = rte_rhashtable_lookup_insert_bulk(rs.ht, heads, made, rets, NULL);
	if (ret != (int)made)
		rs_error(c, "bulk burst insert: objects inserted",
			 STRESS_KEY(STRESS_CLS_BULK, first), ret);
	for (k = 0; k < made; k++) {
		if (ret < 0 || rets[k] != 0) {
			if (ret >= 0)
				rs_error(c, "bulk burst insert",
					 STRESS_KEY(STRESS_CLS_BULK, first + k), rets[k]);
			stress_obj_discard(o[k]);
			continue;
		}
		w->bulk[w->nbulk++] = o[k];
	}
	rs_fill_check(w);
}

/*
 * One fill or drain step of the bulk keys: the table grows, then shrinks.
 * Every other fill inserts in bursts.
 */
static void
rs_bulk_step(struct rs_writer *w, unsigned int id, struct stress_counts *c)
{
	struct stress_obj *o;
	int ret;

	if (w->filling && (w->fills & 1) != 0) {
		rs_bulk_fill_burst(w, id, c);
		return;
	}
	if (w->filling) {
		uint64_t key = STRESS_KEY(STRESS_CLS_BULK, w->nbulk);

		o = stress_obj_new(key, id);
		if (o == NULL)
			return;
		ret = rte_rhashtable_insert(rs.ht, &o->node);
		if (ret != 0) {
			rs_error(c, "bulk insert", key, ret);
			stress_obj_discard(o);
			return;
		}
		w->bulk[w->nbulk++] = o;
		rs_fill_check(w);
		return;
	}
	o = w->bulk[--w->nbulk];
	ret = rs_remove(w, o, id);
	if (ret != 0)
		rs_error(c, "bulk remove", STRESS_KEY(STRESS_CLS_BULK, w->nbulk), ret);
	if (w->nbulk == 0) {
		w->filling = true;
		w->drains++;
	}
}

/* Replace *slot by a new object with its key (what names it in errors). */
static void
rs_replace_slot(struct rs_writer *w, struct stress_obj **slot, uint64_t key, unsigned int id,
		struct stress_counts *c, const char *what)
{
	struct stress_obj *n = stress_obj_new(key, id);
	int ret;

	if (n == NULL)
		return;
	ret = rs_replace(w, *slot, n, id);
	if (ret != 0) {
		rs_error(c, what, key, ret);
		stress_obj_discard(n);
		return;
	}
	*slot = n;
}

/* Replace a stable object: its key stays present for readers throughout. */
static void
rs_stable_replace(struct rs_writer *w, unsigned int id, struct stress_counts *c)
{
	uint32_t i = rs_rand(&w->rng) % rs.cfg->nstable;

	rs_replace_slot(w, &rs.stable[i], STRESS_KEY(STRESS_CLS_STABLE, i), id, c,
			"stable replace");
}

/* Insert a churn key with one of the three insert calls. */
static void
rs_churn_insert(struct rs_writer *w, uint32_t i, uint64_t key, unsigned int id,
		struct stress_counts *c)
{
	struct stress_obj *n = stress_obj_new(key, id);
	void *existing = NULL;
	int ret;

	if (n == NULL)
		return;
	switch (rs_rand(&w->rng) % 3) {
	case 0:
		ret = rte_rhashtable_insert(rs.ht, &n->node);
		break;
	case 1:
		ret = rte_rhashtable_lookup_insert(rs.ht, &n->node);
		break;
	default:
		ret = rte_rhashtable_lookup_get_insert(rs.ht, &n->node, &existing);
		break;
	}
	if (ret != 0) {
		rs_error(c, "churn insert", key, ret);
		stress_obj_discard(n);
		return;
	}
	w->churn[i] = n;
}

/* The key is present: lookup_get_insert must give back the object in place. */
static void
rs_churn_get_existing(struct rs_writer *w, uint32_t i, uint64_t key, unsigned int id,
		      struct stress_counts *c)
{
	struct stress_obj *n = stress_obj_new(key, id);
	void *existing = NULL;
	int ret;

	if (n == NULL)
		return;
	ret = rte_rhashtable_lookup_get_insert(rs.ht, &n->node, &existing);
	if (ret != -EEXIST || existing != w->churn[i])
		rs_error(c, "lookup_get_insert of a present key", key, ret);
	if (ret == 0)
		w->churn[i] = n; /* wrongly inserted twice: keep the count honest */
	else
		stress_obj_discard(n);
}

static void
rs_churn_step(struct rs_writer *w, unsigned int id, struct stress_counts *c)
{
	uint32_t i = rs_rand(&w->rng) % rs.cfg->nchurn;
	uint64_t key = STRESS_KEY(STRESS_CLS_CHURN, w->idx * rs.cfg->nchurn + i);
	struct stress_obj *o = w->churn[i];
	int ret;

	if (o == NULL) {
		rs_churn_insert(w, i, key, id, c);
	} else {
		switch (rs_rand(&w->rng) & 3) {
		case 0: case 1:
			ret = rs_remove(w, o, id);
			if (ret != 0)
				rs_error(c, "churn remove", key, ret);
			else
				w->churn[i] = NULL;
			break;
		case 2:
			rs_replace_slot(w, &w->churn[i], key, id, c, "churn replace");
			break;
		default:
			rs_churn_get_existing(w, i, key, id, c);
			break;
		}
	}
	/* the writer knows exactly what its own lookup must give */
	if (rte_rhashtable_lookup(rs.ht, &key) != w->churn[i])
		rs_error(c, "own lookup after a churn step", key, 0);
}

static int
rs_writer(void *arg)
{
	struct rs_writer *w = arg;
	unsigned int id = rte_lcore_id();
	struct stress_counts *c = &rs.counts[id];
	uint32_t i;

	test_qsbr_reader_start(rs.v, id);
	while (!rs_stopped()) {
		if (w->bulk != NULL) {
			rs_bulk_step(w, id, c);
			if ((c->ops & 255) == 0)
				rs_stable_replace(w, id, c);
		}
		if (w->bulk == NULL || rs.nwriters == 1 || (c->ops & 7) == 0)
			rs_churn_step(w, id, c);
		/* a single writer resizes its table itself, between writes */
		if (rs.cfg->worker == RS_WORKER_WRITER && (c->ops & 31) == 0) {
			int ret = rte_rhashtable_rehash_run(rs.ht);

			if (ret < 0)
				rs_error(c, "rehash_run after the write", 0, ret);
		}
		c->ops++;
		rte_rcu_qsbr_quiescent(rs.v, id);
		c->qs++;
	}
	test_qsbr_reader_stop(rs.v, id);
	w->present = w->nbulk;
	for (i = 0; i < rs.cfg->nchurn; i++)
		w->present += w->churn[i] != NULL;
	return 0;
}

/* ---- control, setup, checks ---- */

static int
rs_table_create(const struct rs_cfg *cfg)
{
	struct rte_rhashtable_rcu_config rc;
	struct rte_rhashtable_params p;
	uint32_t i;

	stress_params_init(&p, cfg->name);
	p.automatic_shrinking = true;
	p.min_size = RS_MIN_SIZE;
	p.single_writer = cfg->worker == RS_WORKER_WRITER;
	rs.ht = rte_rhashtable_create(&p);
	rs.v = test_qsbr_create();
	if (rs.ht == NULL || rs.v == NULL)
		return -ENOMEM;
	memset(&rc, 0, sizeof(rc));
	rc.v = rs.v;
	rc.mode = cfg->mode;
	/* room for a whole drain while a preempted reader holds grace periods */
	rc.dq_size = rte_align32pow2(cfg->bulk_target + 4096);
	rc.free_obj = stress_obj_free_cb;
	if (rte_rhashtable_rcu_qsbr_add(rs.ht, &rc) != 0)
		return -EINVAL;
	rs.stable = calloc(cfg->nstable, sizeof(*rs.stable));
	if (rs.stable == NULL)
		return -ENOMEM;
	for (i = 0; i < cfg->nstable; i++) {
		rs.stable[i] = stress_obj_new(STRESS_KEY(STRESS_CLS_STABLE, i), 0);
		if (rs.stable[i] == NULL || rte_rhashtable_insert(rs.ht, &rs.stable[i]->node) != 0)
			return -ENOMEM;
	}
	return 0;
}

static int
rs_writers_init(const struct rs_cfg *cfg, uint32_t nwriters)
{
	uint32_t i;

	memset(rs.writers, 0, sizeof(rs.writers));
	rs.nwriters = nwriters;
	for (i = 0; i < nwriters; i++) {
		struct rs_writer *w = &rs.writers[i];

		w->idx = i;
		w->rng = 0x1234567ULL * (i + 3);
		w->churn = calloc(cfg->nchurn, sizeof(*w->churn));
		if (w->churn == NULL)
			return -ENOMEM;
	}
	rs.writers[0].filling = true;
	rs.writers[0].bulk = calloc(cfg->bulk_target, sizeof(*rs.writers[0].bulk));
	return rs.writers[0].bulk == NULL ? -ENOMEM : 0;
}

static void
rs_free_obj(void *arg, void *obj)
{
	RTE_SET_USED(arg);
	stress_obj_discard(obj);
}

static void
rs_cleanup(int service_lcore)
{
	uint32_t i;

	stress_service_stop(rs.ht, service_lcore);
	/* objects still in the table are freed here; removed ones through free_obj */
	rte_rhashtable_free_and_destroy(rs.ht, rs_free_obj, NULL);
	rs.ht = NULL;
	rte_free(rs.v);
	rs.v = NULL;
	free(rs.stable);
	rs.stable = NULL;
	for (i = 0; i < RS_MAX_WRITERS; i++) {
		free(rs.writers[i].churn);
		free(rs.writers[i].bulk);
	}
	memset(rs.writers, 0, sizeof(rs.writers));
	stress_pool_fini();
}

static bool
rs_failing(void)
{
	struct stress_totals t = stress_totals_sum(rs.counts);

	return t.misses + t.false_hits + t.bad_objs + t.errors != 0;
}

/* The main lcore: re-seeds, rehash_run, progress, until time is up. */
static void
rs_control(const struct rs_cfg *cfg)
{
	uint64_t hz = rte_get_timer_hz();
	uint64_t now = rte_get_timer_cycles();
	uint64_t deadline = now + cfg->seconds * hz;
	uint64_t reseed_ms = cfg->worker == RS_WORKER_WRITER ? RS_RESEED_1W_MS : RS_RESEED_MS;
	uint64_t next_reseed = now + reseed_ms * hz / 1000;
	uint64_t next_report = now + RS_REPORT_S * hz;
	struct rte_rhashtable_stats s;

	while ((now = rte_get_timer_cycles()) < deadline && !rs_failing()) {
		if (cfg->worker == RS_WORKER_RUN)
			rte_rhashtable_rehash_run(rs.ht);
		else
			rte_delay_us_sleep(1000);
		if (cfg->worker != RS_WORKER_NONE && now >= next_reseed) {
			rte_rhashtable_reseed(rs.ht);
			next_reseed = now + reseed_ms * hz / 1000;
		}
		if (now >= next_report) {
			rte_rhashtable_stats_get(rs.ht, &s);
			stress_print_stats("progress", &s);
			next_report = now + RS_REPORT_S * hz;
		}
	}
}

/* Two writers from four lcores on, but a single_writer table has one. */
static unsigned int
rs_nwriters(const struct rs_cfg *cfg, unsigned int lcores)
{
	return lcores >= 4 && cfg->worker != RS_WORKER_WRITER ? 2 : 1;
}

/* Launch readers and writers, run the control loop, stop them. */
static int
rs_run(const struct rs_cfg *cfg, const unsigned int *lcores, unsigned int n)
{
	unsigned int i, nwriters = rs_nwriters(cfg, n);

	if (rs_writers_init(cfg, nwriters) != 0)
		return -ENOMEM;
	rte_atomic_store_explicit(&rs.stop, 0, rte_memory_order_relaxed);
	for (i = 0; i < n; i++) {
		if (i < nwriters)
			rte_eal_remote_launch(rs_writer, &rs.writers[i], lcores[i]);
		else
			rte_eal_remote_launch(rs_reader, NULL, lcores[i]);
	}
	rs_control(cfg);
	rte_atomic_store_explicit(&rs.stop, 1, rte_memory_order_relaxed);
	for (i = 0; i < n; i++)
		rte_eal_wait_lcore(lcores[i]);
	return 0;
}

/* After the run: every removed object and every retired table was freed. */
static int
rs_check_reclaim(uint64_t retired)
{
	struct rte_rhashtable_stats s;
	int tries;

	/* no reader is registered any more: everything queued is reclaimable.
	 * The service lcore may still be retiring a last table, and with six
	 * lcores on two CPUs it can be descheduled between counting an entry
	 * and queueing it: give it up to 2 s, not just a few loops.
	 */
	for (tries = 0; tries < 2000; tries++) {
		rte_rhashtable_rehash_run(rs.ht);
		rte_rhashtable_stats_get(rs.ht, &s);
		if (s.reclaim_pending == 0)
			break;
		rte_delay_us_sleep(1000);
	}
	stress_print_stats("end", &s);
	TEST_ASSERT_EQUAL(s.reclaim_pending, 0, "defer queue not empty: %u", s.reclaim_pending);
	TEST_ASSERT_EQUAL(s.tables_freed, s.rehashes_done,
			  "tables freed %" PRIu64 " != retired %" PRIu64,
			  s.tables_freed, s.rehashes_done);
	TEST_ASSERT_EQUAL(s.objs_freed, retired, "objects freed %" PRIu64 " != removed %" PRIu64,
			  s.objs_freed, retired);
	TEST_ASSERT_EQUAL(stress_objs_freed(), retired, "free_obj calls %" PRIu64
			  " != removed %" PRIu64, stress_objs_freed(), retired);
	return TEST_SUCCESS;
}

static int
rs_check_end(const struct rs_cfg *cfg, uint64_t elapsed_ms)
{
	struct stress_totals t = stress_totals_sum(rs.counts);
	struct rte_rhashtable_stats s;
	uint64_t present = cfg->nstable, retired = 0, fills = 0, drains = 0;
	unsigned int l;

	for (l = 0; l < rs.nwriters; l++) {
		present += rs.writers[l].present;
		retired += rs.writers[l].retired;
		fills += rs.writers[l].fills;
		drains += rs.writers[l].drains;
	}
	printf("%s: %" PRIu64 " ms, lookups %" PRIu64 " misses %" PRIu64 " false hits %" PRIu64
	       " bad objects %" PRIu64 ", writer ops %" PRIu64 " errors %" PRIu64
	       ", bulk fills %" PRIu64 " drains %" PRIu64 ", removed/replaced %" PRIu64 "\n",
	       cfg->name, elapsed_ms, t.lookups, t.misses, t.false_hits, t.bad_objs, t.ops,
	       t.errors, fills, drains, retired);
	rte_rhashtable_stats_get(rs.ht, &s);
	stress_print_stats("after the run", &s);
	TEST_ASSERT(t.lookups > 0 && t.ops > 0, "nothing ran");
	TEST_ASSERT_EQUAL(t.misses, 0, "stable keys missed");
	TEST_ASSERT_EQUAL(t.false_hits, 0, "never-inserted keys found");
	TEST_ASSERT_EQUAL(t.bad_objs, 0, "wrong or poisoned objects returned");
	TEST_ASSERT_EQUAL(t.errors, 0, "writer calls failed");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(rs.ht), present,
			  "count %u, expected %" PRIu64, rte_rhashtable_count(rs.ht), present);
	if (cfg->worker == RS_WORKER_NONE) {
		TEST_ASSERT(s.emergency_allocs > 0, "inserts never grew the table themselves");
		TEST_ASSERT_EQUAL(s.rehashes_done, 0, "something ran the worker");
	} else {
		TEST_ASSERT(s.grows > 0 && s.reseeds > 0, "no grow or no re-seed happened");
	}
	/* the service (or rehash_run here) brings the table within its thresholds */
	TEST_ASSERT(stress_wait_rest(rs.ht, 10.0, RS_MIN_SIZE, cfg->worker != RS_WORKER_SERVICE),
		    "the table did not come to rest within its thresholds");
	return rs_check_reclaim(retired);
}

static int
rs_case(const struct rs_cfg *cfg)
{
	unsigned int lcores[RTE_MAX_LCORE], n;
	int service_lcore = -1, ret = TEST_FAILED;
	uint64_t start, cache_bytes;

	if (!stress_case_selected(cfg->name))
		return TEST_SKIPPED;
	/* 0: no cache size known, every rehash plans its moves */
	cache_bytes = __rte_rhashtable_cache_bytes_set(0);
	if (!cfg->planned_moves)
		__rte_rhashtable_cache_bytes_set(cache_bytes);
	memset(&rs, 0, sizeof(rs));
	rs.cfg = cfg;
	if (stress_pool_init() != 0 || rs_table_create(cfg) != 0) {
		printf("%s: setup failed\n", cfg->name);
		goto out;
	}
	if (cfg->worker == RS_WORKER_SERVICE) {
		service_lcore = stress_service_start(rs.ht, 2);
		if (service_lcore < 0) {
			printf("%s: needs 4 lcores, e.g. --lcores '(0-5)@(0,1)'\n", cfg->name);
			ret = TEST_SKIPPED;
			goto out;
		}
	}
	n = stress_worker_lcores(lcores, RTE_MAX_LCORE);
	if (n < 2) {
		printf("%s: needs a writer and a reader lcore\n", cfg->name);
		ret = TEST_SKIPPED;
		goto out;
	}
	printf("%s: %u s, %u writers, %u readers, service lcore %d, bulk %u%s\n", cfg->name,
	       cfg->seconds, rs_nwriters(cfg, n), n - rs_nwriters(cfg, n), service_lcore,
	       cfg->bulk_target, cfg->planned_moves ? ", planned moves" : "");
	start = rte_get_timer_cycles();
	if (rs_run(cfg, lcores, n) != 0)
		goto out;
	ret = rs_check_end(cfg, (rte_get_timer_cycles() - start) * 1000 / rte_get_timer_hz());
out:
	rs_cleanup(service_lcore);
	__rte_rhashtable_cache_bytes_set(cache_bytes);
	return ret;
}

/* ---- concurrent writers racing on the same keys ---- */

#define RACE_MAX_SHARED (1U << 16)

static struct {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	uint32_t nwriters, n_own, nshared;
	uint32_t barrier;
	uint32_t done;
	struct stress_obj **own[RTE_MAX_LCORE];
	struct stress_obj *shared[RACE_MAX_SHARED]; /* the winner of each key */
	uint32_t wins[RACE_MAX_SHARED];
	uint32_t removed[RACE_MAX_SHARED];
	struct stress_counts counts[RTE_MAX_LCORE];
} race;

static void
race_qs(unsigned int id, uint32_t i)
{
	if ((i & 63) == 0)
		rte_rcu_qsbr_quiescent(race.v, id);
}

/* Insert the writer's own keys, then remove every odd one. */
static void
race_own(unsigned int w, unsigned int id, struct stress_counts *c)
{
	struct stress_obj **own = race.own[w];
	uint32_t i;
	int ret;

	for (i = 0; i < race.n_own; i++) {
		uint64_t key = STRESS_KEY(STRESS_CLS_CHURN, w * race.n_own + i);

		own[i] = stress_obj_new(key, id);
		if (own[i] == NULL) {
			c->errors++;
			continue;
		}
		ret = (i & 1) ? rte_rhashtable_insert(race.ht, &own[i]->node) :
			rte_rhashtable_lookup_insert(race.ht, &own[i]->node);
		if (ret != 0)
			c->errors++;
		race_qs(id, i);
	}
	for (i = 1; i < race.n_own; i += 2) {
		if (own[i] != NULL && rte_rhashtable_remove(race.ht, &own[i]->node) != 0)
			c->errors++;
		race_qs(id, i);
	}
}

/* Every writer inserts every shared key: exactly one wins each. */
static void
race_shared_insert(unsigned int id, struct stress_counts *c)
{
	uint32_t i;

	for (i = 0; i < race.nshared; i++) {
		uint64_t key = STRESS_KEY(STRESS_CLS_SHARED, i);
		struct stress_obj *o = stress_obj_new(key, id);
		void *existing = NULL;
		int ret;

		if (o == NULL) {
			c->errors++;
			continue;
		}
		ret = (i & 1) ? rte_rhashtable_lookup_insert(race.ht, &o->node) :
			rte_rhashtable_lookup_get_insert(race.ht, &o->node, &existing);
		if (ret == 0) {
			rte_atomic_fetch_add_explicit(&race.wins[i], 1, rte_memory_order_relaxed);
			rte_atomic_store_explicit(&race.shared[i], o, rte_memory_order_release);
		} else {
			if (ret != -EEXIST ||
			    ((i & 1) == 0 && !stress_obj_ok(existing, key)))
				c->errors++;
			stress_obj_discard(o);
		}
		c->ops++;
		race_qs(id, i);
	}
}

/* Every writer removes every third shared key: exactly one succeeds each. */
static void
race_shared_remove(unsigned int id, struct stress_counts *c)
{
	uint32_t i;

	for (i = 0; i < race.nshared; i += 3) {
		struct stress_obj *o = rte_atomic_load_explicit(&race.shared[i],
								rte_memory_order_acquire);
		int ret = o == NULL ? -EINVAL : rte_rhashtable_remove(race.ht, &o->node);

		if (ret == 0)
			rte_atomic_fetch_add_explicit(&race.removed[i], 1,
						      rte_memory_order_relaxed);
		else if (ret != -ENOENT)
			c->errors++;
		race_qs(id, i);
	}
}

static int
race_writer(void *arg)
{
	unsigned int w = (unsigned int)(uintptr_t)arg;
	unsigned int id = rte_lcore_id();
	struct stress_counts *c = &race.counts[id];

	test_qsbr_reader_start(race.v, id);
	race_own(w, id, c);
	race_shared_insert(id, c);
	/* every winner is known before anyone removes */
	rte_atomic_fetch_add_explicit(&race.barrier, 1, rte_memory_order_acq_rel);
	while (rte_atomic_load_explicit(&race.barrier, rte_memory_order_acquire) < race.nwriters)
		rte_rcu_qsbr_quiescent(race.v, id);
	race_shared_remove(id, c);
	test_qsbr_reader_stop(race.v, id);
	rte_atomic_fetch_add_explicit(&race.done, 1, rte_memory_order_release);
	return 0;
}

static int
race_check(void)
{
	struct rte_rhashtable_stats s;
	uint64_t errors = 0, expected;
	uint32_t i, w;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		errors += race.counts[i].errors;
	TEST_ASSERT_EQUAL(errors, 0, "%" PRIu64 " writer calls failed", errors);
	for (i = 0; i < race.nshared; i++) {
		TEST_ASSERT_EQUAL(race.wins[i], 1, "shared key %u inserted %u times", i,
				  race.wins[i]);
		if (i % 3 == 0)
			TEST_ASSERT_EQUAL(race.removed[i], 1, "shared key %u removed %u times", i,
					  race.removed[i]);
		TEST_ASSERT(rte_rhashtable_lookup(race.ht, &race.shared[i]->key) ==
			    (i % 3 == 0 ? NULL : race.shared[i]), "shared key %u wrong", i);
	}
	for (w = 0; w < race.nwriters; w++)
		for (i = 0; i < race.n_own; i++)
			TEST_ASSERT(rte_rhashtable_lookup(race.ht, &race.own[w][i]->key) ==
				    ((i & 1) ? NULL : race.own[w][i]),
				    "writer %u key %u wrong", w, i);
	expected = (uint64_t)race.nwriters * ((race.n_own + 1) / 2) +
		race.nshared - (race.nshared + 2) / 3;
	TEST_ASSERT_EQUAL(rte_rhashtable_count(race.ht), expected, "count %u, expected %" PRIu64,
			  rte_rhashtable_count(race.ht), expected);
	rte_rhashtable_stats_get(race.ht, &s);
	stress_print_stats("end", &s);
	return TEST_SUCCESS;
}

static void
race_cleanup(int service_lcore)
{
	uint32_t i, w;

	stress_service_stop(race.ht, service_lcore);
	rte_rhashtable_free(race.ht);
	for (w = 0; w < RTE_MAX_LCORE; w++) {
		if (race.own[w] == NULL)
			continue;
		for (i = 0; i < race.n_own; i++)
			stress_obj_discard(race.own[w][i]);
		free(race.own[w]);
	}
	for (i = 0; i < race.nshared; i++)
		stress_obj_discard(race.shared[i]);
	rte_free(race.v);
	stress_pool_fini();
}

static int
race_setup(uint32_t n_own, uint32_t nshared)
{
	struct rte_rhashtable_rcu_config rc;
	struct rte_rhashtable_params p;

	memset(&race, 0, sizeof(race));
	race.n_own = n_own;
	race.nshared = RTE_MIN(nshared, RACE_MAX_SHARED);
	stress_params_init(&p, "rht_race");
	p.automatic_shrinking = true;
	p.min_size = RS_MIN_SIZE;
	race.ht = rte_rhashtable_create(&p);
	race.v = test_qsbr_create();
	if (stress_pool_init() != 0 || race.ht == NULL || race.v == NULL)
		return -ENOMEM;
	/* the writers are QSBR readers: bucket tables are freed under them */
	memset(&rc, 0, sizeof(rc));
	rc.v = race.v;
	return rte_rhashtable_rcu_qsbr_add(race.ht, &rc);
}

static int
race_case(uint32_t n_own, uint32_t nshared)
{
	unsigned int lcores[RTE_MAX_LCORE], n, i;
	int service_lcore = -1, ret = TEST_FAILED;
	uint64_t start = rte_get_timer_cycles();

	if (!stress_case_selected("rht_race"))
		return TEST_SKIPPED;
	if (race_setup(n_own, nshared) != 0)
		goto out;
	service_lcore = stress_service_start(race.ht, 2);
	n = stress_worker_lcores(lcores, RTE_MAX_LCORE);
	if (n < 2) {
		printf("writers race: needs 2 writer lcores\n");
		ret = TEST_SKIPPED;
		goto out;
	}
	race.nwriters = n;
	for (i = 0; i < n; i++) {
		race.own[i] = calloc(n_own, sizeof(*race.own[i]));
		if (race.own[i] == NULL)
			goto out;
	}
	for (i = 0; i < n; i++)
		rte_eal_remote_launch(race_writer, (void *)(uintptr_t)i, lcores[i]);
	while (rte_atomic_load_explicit(&race.done, rte_memory_order_acquire) < n) {
		rte_rhashtable_reseed(race.ht);
		if (service_lcore < 0)
			rte_rhashtable_rehash_run(race.ht);
		rte_delay_us_sleep(RS_RESEED_MS * 1000);
	}
	for (i = 0; i < n; i++)
		rte_eal_wait_lcore(lcores[i]);
	printf("writers race: %u writers, %u own keys each, %u shared keys, %" PRIu64 " ms\n",
	       n, n_own, race.nshared,
	       (rte_get_timer_cycles() - start) * 1000 / rte_get_timer_hz());
	/* the service may still be rehashing: look up as a registered reader */
	test_qsbr_reader_start(race.v, rte_lcore_id());
	ret = race_check();
	test_qsbr_reader_stop(race.v, rte_lcore_id());
	if (ret == TEST_SUCCESS && !stress_wait_rest(race.ht, 10.0, RS_MIN_SIZE,
						      service_lcore < 0)) {
		printf("writers race: the table did not come to rest\n");
		ret = TEST_FAILED;
	}
out:
	race_cleanup(service_lcore);
	return ret;
}

/* ---- cases and commands ---- */

static bool rs_long;

/* A case: rs_cfg as the short run has it, and what the long run changes. */
struct rs_case_def {
	struct rs_cfg cfg;
	unsigned int long_div;  /* long run: stress_seconds(60) / long_div, 5 s at least */
	uint32_t long_bulk;
};

static const struct rs_case_def rs_dq_service = {
	{ "rht_rcu_dq_svc", RTE_RHASHTABLE_QSBR_MODE_DQ, RS_WORKER_SERVICE, 5, 256U << 10,
		8192, 4096 }, 1, 4U << 20 };
static const struct rs_case_def rs_sync_service = {
	{ "rht_rcu_sync_svc", RTE_RHASHTABLE_QSBR_MODE_SYNC, RS_WORKER_SERVICE, 3, 4U << 10,
		4096, 1024, true }, 4, 64U << 10 };
static const struct rs_case_def rs_dq_rehash_run = {
	{ "rht_rcu_dq_run", RTE_RHASHTABLE_QSBR_MODE_DQ, RS_WORKER_RUN, 3, 128U << 10,
		8192, 4096, true }, 4, 1U << 20 };
static const struct rs_case_def rs_dq_single_writer = {
	{ "rht_rcu_dq_1w", RTE_RHASHTABLE_QSBR_MODE_DQ, RS_WORKER_WRITER, 2, 128U << 10,
		8192, 4096, true }, 4, 1U << 20 };
static const struct rs_case_def rs_dq_single_writer_unplanned = {
	{ "rht_rcu_dq_1w_unpl", RTE_RHASHTABLE_QSBR_MODE_DQ, RS_WORKER_WRITER, 2,
		128U << 10, 8192, 4096 }, 6, 1U << 20 };
static const struct rs_case_def rs_emergency_only = {
	{ "rht_rcu_emergency", RTE_RHASHTABLE_QSBR_MODE_DQ, RS_WORKER_NONE, 2, 128U << 10,
		8192, 4096 }, 6, 1U << 20 };

static int
rs_case_run(const void *data)
{
	const struct rs_case_def *def = data;
	struct rs_cfg cfg = def->cfg;

	if (rs_long) {
		cfg.seconds = RTE_MAX(stress_seconds(60) / def->long_div, 5U);
		cfg.bulk_target = def->long_bulk;
	}
	return rs_case(&cfg);
}

static int
test_rcu_writers_race(void)
{
	return rs_long ? race_case(200000, 1U << 16) : race_case(20000, 20000);
}

#define RS_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_rcu_" #c, NULL, NULL, rs_case_run, &rs_##c)

static struct unit_test_suite rcu_stress_suite = {
	.suite_name = "rhashtable RCU stress",
	.unit_test_cases = {
		RS_CASE(dq_service),
		RS_CASE(sync_service),
		RS_CASE(dq_rehash_run),
		RS_CASE(dq_single_writer),
		RS_CASE(dq_single_writer_unplanned),
		RS_CASE(emergency_only),
		TEST_CASE(test_rcu_writers_race),
		TEST_CASES_END(),
	},
};

static int
test_rhashtable_rcu_stress(void)
{
	rs_long = true;
	return unit_test_suite_runner(&rcu_stress_suite);
}

static int
test_rhashtable_rcu_short(void)
{
	rs_long = false;
	return unit_test_suite_runner(&rcu_stress_suite);
}

REGISTER_STRESS_TEST(rhashtable_rcu_autotest, test_rhashtable_rcu_stress);
REGISTER_FAST_TEST(rhashtable_rcu_short_autotest, true, true, test_rhashtable_rcu_short);

/*
 * ---- rhashtable_rcu_writer_repro_autotest ----
 *
 * A writer holds a bucket table while a rehash retires it: the table must
 * not be freed before the writer is done with it. In SYNC mode a writer
 * cannot be an online QSBR reader during remove (the grace period would wait
 * for itself), so this writer is not registered at all, as the header
 * allows. The table's hash function parks the writer inside
 * rte_rhashtable_remove(), after it read the first bucket table; another
 * lcore re-seeds and runs the worker to completion, which retires that
 * table. If tables_freed moves while the writer is parked, the library freed
 * memory a writer was about to use: the test fails, and the writer leaves
 * the hash function with longjmp() instead of returning into the library,
 * which would use the freed table (it holds no lock there yet). Needs 3
 * lcores.
 */

static struct {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	unsigned int writer_lcore;
	uint32_t armed, parked, release, run_done;
	bool escape;          /* leave remove() through wr.env */
	jmp_buf env;
	struct stress_obj obj;
} wr;

static uint32_t
wr_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	if (rte_lcore_id() == wr.writer_lcore &&
	    rte_atomic_exchange_explicit(&wr.armed, 0, rte_memory_order_acq_rel) != 0) {
		rte_atomic_store_explicit(&wr.parked, 1, rte_memory_order_release);
		while (rte_atomic_load_explicit(&wr.release, rte_memory_order_acquire) == 0)
			rte_delay_us_sleep(100);
		if (wr.escape)
			longjmp(wr.env, 1);
	}
	return rte_rhashtable_default_hash(key, key_len, seed);
}

static int
wr_writer(void *arg)
{
	int *ret = arg;

	if (setjmp(wr.env) != 0) {
		*ret = -ECANCELED;
		return 0;
	}
	rte_atomic_store_explicit(&wr.armed, 1, rte_memory_order_release);
	*ret = rte_rhashtable_remove(wr.ht, &wr.obj.node);
	return 0;
}

static int
wr_rehasher(void *arg)
{
	RTE_SET_USED(arg);
	rte_rhashtable_reseed(wr.ht);
	rte_rhashtable_rehash_run(wr.ht);
	rte_atomic_store_explicit(&wr.run_done, 1, rte_memory_order_release);
	return 0;
}

static int
wr_setup(void)
{
	struct rte_rhashtable_rcu_config rc;
	struct rte_rhashtable_params p;

	memset(&wr, 0, sizeof(wr));
	stress_params_init(&p, "rht_wr_repro");
	p.hashfn = wr_hash;
	wr.ht = rte_rhashtable_create(&p);
	wr.v = test_qsbr_create();
	if (wr.ht == NULL || wr.v == NULL)
		return -ENOMEM;
	memset(&rc, 0, sizeof(rc));
	rc.v = wr.v;
	rc.mode = RTE_RHASHTABLE_QSBR_MODE_SYNC;
	if (rte_rhashtable_rcu_qsbr_add(wr.ht, &rc) != 0)
		return -EINVAL;
	wr.obj.key = STRESS_KEY(STRESS_CLS_STABLE, 1);
	wr.obj.magic = STRESS_MAGIC_LIVE;
	return rte_rhashtable_insert(wr.ht, &wr.obj.node);
}

/* Wait up to ms for flag to become non-zero. */
static bool
wr_wait(uint32_t *flag, unsigned int ms)
{
	while (rte_atomic_load_explicit(flag, rte_memory_order_acquire) == 0 && ms-- > 0)
		rte_delay_us_sleep(1000);
	return rte_atomic_load_explicit(flag, rte_memory_order_acquire) != 0;
}

static int
test_rhashtable_rcu_writer_repro(void)
{
	unsigned int lcores[RTE_MAX_LCORE];
	struct rte_rhashtable_stats s;
	int remove_ret = -1;

	if (stress_worker_lcores(lcores, RTE_MAX_LCORE) < 2) {
		printf("needs 3 lcores, e.g. --lcores '(0-2)@(0,1)'\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(wr_setup(), "setup");
	wr.writer_lcore = lcores[0];
	rte_eal_remote_launch(wr_writer, &remove_ret, lcores[0]);
	TEST_ASSERT(wr_wait(&wr.parked, 5000), "the writer did not reach the hash function");
	rte_eal_remote_launch(wr_rehasher, NULL, lcores[1]);
	/* a library that protects the writer's table makes the rehash wait */
	wr_wait(&wr.run_done, 1000);
	rte_rhashtable_stats_get(wr.ht, &s);
	printf("while a writer is inside remove(): rehashes_done %" PRIu64
	       " tables_freed %" PRIu64 "\n", s.rehashes_done, s.tables_freed);
	wr.escape = s.tables_freed != 0;
	rte_atomic_store_explicit(&wr.release, 1, rte_memory_order_release);
	rte_eal_wait_lcore(lcores[0]);
	rte_eal_wait_lcore(lcores[1]);
	TEST_ASSERT_EQUAL(s.tables_freed, 0, "a bucket table was freed under a writer");
	TEST_ASSERT_SUCCESS(remove_ret, "remove of a present object");
	rte_rhashtable_free(wr.ht);
	rte_free(wr.v);
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(rhashtable_rcu_writer_repro_autotest, true, true,
		   test_rhashtable_rcu_writer_repro);

/*
 * ---- rhashtable_rcu_dq_full_repro_autotest ----
 *
 * DQ mode, a writer that is also a registered online reader (as
 * lookup_get_insert asks) removes objects with free_obj while another reader
 * holds a grace period open: the defer queue fills, and the library falls
 * back to rte_rcu_qsbr_synchronize(RTE_QSBR_THRID_INVALID), which waits for
 * every online reader, the calling writer included. Once the other reader
 * goes offline, the writer must finish; if it is still blocked a second
 * later, it waits for itself forever: the test fails, then reports the
 * writer's quiescent states on its behalf to let it go. Needs 2 lcores.
 */

#define DQF_SIZE 16
#define DQF_OBJS 256
#define DQF_HOLDER (RTE_MAX_LCORE - 1) /* a reader id that no lcore uses */

static struct {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	struct stress_obj objs[DQF_OBJS];
	uint32_t removed, done;
} dqf;

static void
dqf_free(void *ctx, void *obj)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(obj);
}

static int
dqf_writer(void *arg)
{
	unsigned int id = rte_lcore_id();
	uint32_t i;

	RTE_SET_USED(arg);
	test_qsbr_reader_start(dqf.v, id);
	for (i = 0; i < DQF_OBJS; i++) {
		if (rte_rhashtable_remove(dqf.ht, &dqf.objs[i].node) == 0)
			rte_atomic_fetch_add_explicit(&dqf.removed, 1, rte_memory_order_relaxed);
		rte_rcu_qsbr_quiescent(dqf.v, id);
	}
	test_qsbr_reader_stop(dqf.v, id);
	rte_atomic_store_explicit(&dqf.done, 1, rte_memory_order_release);
	return 0;
}

static int
dqf_setup(void)
{
	struct rte_rhashtable_rcu_config rc;
	struct rte_rhashtable_params p;
	uint32_t i;

	memset(&dqf, 0, sizeof(dqf));
	stress_params_init(&p, "rht_dqf_repro");
	dqf.ht = rte_rhashtable_create(&p);
	dqf.v = test_qsbr_create();
	if (dqf.ht == NULL || dqf.v == NULL)
		return -ENOMEM;
	memset(&rc, 0, sizeof(rc));
	rc.v = dqf.v;
	rc.mode = RTE_RHASHTABLE_QSBR_MODE_DQ;
	rc.dq_size = DQF_SIZE;
	rc.free_obj = dqf_free;
	if (rte_rhashtable_rcu_qsbr_add(dqf.ht, &rc) != 0)
		return -EINVAL;
	for (i = 0; i < DQF_OBJS; i++) {
		dqf.objs[i].key = STRESS_KEY(STRESS_CLS_CHURN, i);
		dqf.objs[i].magic = STRESS_MAGIC_LIVE;
		if (rte_rhashtable_insert(dqf.ht, &dqf.objs[i].node) != 0)
			return -ENOMEM;
	}
	return 0;
}

static int
test_rhashtable_rcu_dq_full_repro(void)
{
	unsigned int lcores[RTE_MAX_LCORE];
	bool blocked;

	if (stress_worker_lcores(lcores, RTE_MAX_LCORE) < 1) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(dqf_setup(), "setup");
	/* a reader that holds every grace period open for a while */
	test_qsbr_reader_start(dqf.v, DQF_HOLDER);
	rte_eal_remote_launch(dqf_writer, NULL, lcores[0]);
	rte_delay_us_sleep(200 * 1000);
	printf("removed %u of %u while a reader held the grace period\n",
	       rte_atomic_load_explicit(&dqf.removed, rte_memory_order_relaxed), DQF_OBJS);
	test_qsbr_reader_stop(dqf.v, DQF_HOLDER);
	blocked = !wr_wait(&dqf.done, 1000);
	while (rte_atomic_load_explicit(&dqf.done, rte_memory_order_acquire) == 0) {
		rte_rcu_qsbr_quiescent(dqf.v, lcores[0]);
		rte_delay_us_sleep(100);
	}
	rte_eal_wait_lcore(lcores[0]);
	TEST_ASSERT(!blocked, "the writer stayed blocked after the other reader went offline: "
		    "it waited for its own quiescent state in the full-queue fallback");
	TEST_ASSERT_EQUAL(dqf.removed, DQF_OBJS, "removes failed");
	rte_rhashtable_free(dqf.ht);
	rte_free(dqf.v);
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(rhashtable_rcu_dq_full_repro_autotest, true, true,
		   test_rhashtable_rcu_dq_full_repro);
