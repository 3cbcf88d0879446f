/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Helpers of the multi-lcore stress suites: poisoned objects with a
 * quarantine, service lcore, figures; reader lcores that count misses.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_service.h>

#include "test_rhashtable_stress.h"

#if defined(__SANITIZE_ADDRESS__)
#define STRESS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRESS_ASAN 1
#endif
#endif

/* Freed objects wait this long (in frees) before reuse: long enough for a
 * reader that was wrongly handed one to see the poison.
 */
#define STRESS_QUARANTINE_MIN (1U << 16)
#define STRESS_QUARANTINE_SIZE (1U << 20)

static struct rte_ring *quarantine;
static uint64_t objs_freed;
/* the lcore this file turned into a service lcore, or -1 */
static int service_lcore_added = -1;

unsigned int
stress_seconds(unsigned int def)
{
	const char *s = getenv("RHT_STRESS_SECONDS");
	long v;

	if (s == NULL)
		return def;
	v = strtol(s, NULL, 0);
	return v > 0 ? (unsigned int)v : def;
}

bool
stress_case_selected(const char *name)
{
	const char *only = getenv("RHT_STRESS_ONLY");

	return only == NULL || strstr(name, only) != NULL;
}

int
stress_pool_init(void)
{
	rte_atomic_store_explicit(&objs_freed, 0, rte_memory_order_relaxed);
#ifdef STRESS_ASAN
	quarantine = NULL;
	return 0;
#else
	/* RTS sync: free_obj runs on writers and the worker, which share two
	 * CPUs with the readers here; a producer preempted between its head and
	 * tail updates must not keep the others spinning (classic MP mode
	 * waits for it, and livelocked this test now and then)
	 */
	quarantine = rte_ring_create("rht_stress_q", STRESS_QUARANTINE_SIZE, SOCKET_ID_ANY,
				     RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ);
	return quarantine == NULL ? -ENOMEM : 0;
#endif
}

void
stress_pool_fini(void)
{
	void *o;

	if (quarantine == NULL)
		return;
	while (rte_ring_dequeue(quarantine, &o) == 0)
		free(o);
	rte_ring_free(quarantine);
	quarantine = NULL;
}

struct stress_obj *
stress_obj_new(uint64_t key, uint32_t writer)
{
	struct stress_obj *o = NULL;
	void *p;

	if (quarantine != NULL && rte_ring_count(quarantine) > STRESS_QUARANTINE_MIN &&
	    rte_ring_dequeue(quarantine, &p) == 0)
		o = p;
	if (o == NULL)
		o = malloc(sizeof(*o));
	if (o == NULL)
		return NULL;
	memset(o, 0, sizeof(*o));
	o->key = key;
	o->writer = writer;
	o->magic = STRESS_MAGIC_LIVE;
	return o;
}

void
stress_obj_discard(struct stress_obj *o)
{
	free(o);
}

void
stress_obj_free_cb(void *ctx, void *obj)
{
	struct stress_obj *o = obj;

	RTE_SET_USED(ctx);
	if (o->magic != STRESS_MAGIC_LIVE)
		printf("free_obj: object %p freed twice (magic %" PRIx64 ")\n", obj, o->magic);
	/* a reader still holding it sees this */
	rte_atomic_store_explicit(&o->key, STRESS_KEY_POISON, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&o->magic, STRESS_MAGIC_POISON, rte_memory_order_relaxed);
	rte_atomic_fetch_add_explicit(&objs_freed, 1, rte_memory_order_relaxed);
	if (quarantine == NULL || rte_ring_enqueue(quarantine, o) != 0)
		free(o);
}

uint64_t
stress_objs_freed(void)
{
	return rte_atomic_load_explicit(&objs_freed, rte_memory_order_relaxed);
}

void
stress_params_init(struct rte_rhashtable_params *p, const char *name)
{
	test_params_set(p, name, sizeof(uint64_t), offsetof(struct stress_obj, key),
		offsetof(struct stress_obj, node));
}

unsigned int
stress_worker_lcores(unsigned int *ids, unsigned int max)
{
	unsigned int lcore, n = 0;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (n < max && rte_eal_get_lcore_state(lcore) == WAIT)
			ids[n++] = lcore;
	}
	return n;
}

/* The last worker lcore becomes a service lcore; -1 if too few are left. */
static int
service_lcore_take(unsigned int min_workers_left)
{
	unsigned int ids[RTE_MAX_LCORE];
	unsigned int n = stress_worker_lcores(ids, RTE_MAX_LCORE);
	unsigned int lcore;

	if (n < min_workers_left + 1)
		return -1;
	lcore = ids[n - 1];
	if (rte_service_lcore_add(lcore) != 0)
		return -1;
	service_lcore_added = (int)lcore;
	return (int)lcore;
}

int
stress_service_start(struct rte_rhashtable *ht, unsigned int min_workers_left)
{
	uint32_t list[RTE_MAX_LCORE];
	uint32_t sid;
	int lcore, ret;

	if (rte_rhashtable_service_id_get(ht, &sid) != 0)
		return -1;
	if (rte_service_lcore_count() > 0 && rte_service_lcore_list(list, RTE_MAX_LCORE) > 0)
		lcore = (int)list[0];
	else
		lcore = service_lcore_take(min_workers_left);
	if (lcore < 0)
		return -1;
	if (rte_service_map_lcore_set(sid, lcore, 1) != 0) {
		stress_service_stop(ht, lcore);
		return -1;
	}
	ret = rte_service_lcore_start(lcore);
	if (ret != 0 && ret != -EALREADY) {
		stress_service_stop(ht, lcore);
		return -1;
	}
	return lcore;
}

void
stress_service_stop(struct rte_rhashtable *ht, int lcore)
{
	uint32_t sid;

	if (lcore < 0)
		return;
	if (rte_rhashtable_service_id_get(ht, &sid) == 0)
		rte_service_map_lcore_set(sid, lcore, 0);
	if (lcore != service_lcore_added)
		return;
	rte_service_lcore_stop(lcore);
	while (rte_service_lcore_may_be_active(lcore) == 1)
		rte_delay_us_sleep(100);
	rte_eal_wait_lcore(lcore);
	rte_service_lcore_del(lcore);
	service_lcore_added = -1;
}

struct stress_totals
stress_totals_sum(const struct stress_counts *counts)
{
	struct stress_totals t;
	const struct stress_counts *c;

	memset(&t, 0, sizeof(t));
	for (c = counts; c < counts + RTE_MAX_LCORE; c++) {
		t.lookups += c->lookups;
		t.misses += c->misses;
		t.false_hits += c->false_hits;
		t.bad_objs += c->bad_objs;
		t.ops += c->ops;
		t.errors += c->errors;
		t.qs += c->qs;
	}
	return t;
}

void
stress_print_stats(const char *what, const struct rte_rhashtable_stats *s)
{
	printf("  %s: nelems %" PRIu64 " buckets %u ntables %u grows %" PRIu64
	       " shrinks %" PRIu64 " reseeds %" PRIu64 " emergency %" PRIu64 "\n"
	       "  %s: rehashes_done %" PRIu64 " objs_moved %" PRIu64 " tables_freed %" PRIu64
	       " objs_freed %" PRIu64 " reclaim_pending %u alloc_failures %" PRIu64
	       " refused eexist/enomem/ebusy/e2big %" PRIu64 "/%" PRIu64 "/%" PRIu64
	       "/%" PRIu64 "\n",
	       what, s->nelems, s->buckets, s->ntables, s->grows, s->shrinks, s->reseeds,
	       s->emergency_allocs, what, s->rehashes_done, s->objs_moved, s->tables_freed,
	       s->objs_freed, s->reclaim_pending, s->alloc_failures, s->refused_eexist,
	       s->refused_enomem, s->refused_ebusy, s->refused_e2big);
}

bool
stress_within_thresholds(const struct rte_rhashtable_stats *s, uint32_t min_size)
{
	uint64_t load = s->nelems * 100;
	uint64_t slots = (uint64_t)s->buckets * RTE_RHASHTABLE_BUCKET_SLOTS;

	return s->ntables == 1 && load <= slots * 70 &&
		(load >= slots * 30 || s->buckets <= min_size);
}

bool
stress_wait_rest(struct rte_rhashtable *ht, double seconds, uint32_t min_size, bool run)
{
	uint64_t deadline = rte_get_timer_cycles() + (uint64_t)(seconds * rte_get_timer_hz());
	struct rte_rhashtable_stats s;

	do {
		if (run)
			rte_rhashtable_rehash_run(ht);
		if (rte_rhashtable_stats_get(ht, &s) == 0 && stress_within_thresholds(&s, min_size))
			return true;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < deadline);
	return false;
}

static uint64_t
rel_xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const void *
rel_obj(const struct rel_readers *r, uint32_t i)
{
	return r->objs + (size_t)i * r->obj_size;
}

/* One lookup of a random object of [lo, hi); a miss counts only if it was
 * present from before the lookup to after it.
 */
static void
rel_reader_probe(struct rel_readers *r, struct rel_reader_count *c, uint64_t *seed)
{
	/* acquire: pairs with the main lcore's release stores of lo, hi and present[] */
	uint32_t lo = rte_atomic_load_explicit(&r->lo, rte_memory_order_acquire);
	uint32_t hi = rte_atomic_load_explicit(&r->hi, rte_memory_order_acquire);
	const void *obj;
	uint32_t i;

	if (hi <= lo)
		return;
	i = lo + (uint32_t)(rel_xorshift(seed) % (hi - lo));
	if (r->present != NULL &&
	    rte_atomic_load_explicit(&r->present[i], rte_memory_order_acquire) == 0)
		return;
	obj = rel_obj(r, i);
	c->lookups++;
	if (rte_rhashtable_lookup(r->ht, (const char *)obj + r->key_offset) == obj)
		return;
	if (i >= rte_atomic_load_explicit(&r->lo, rte_memory_order_acquire)) {
		c->misses++;
		if (c->misses < 4)
			printf("reader lcore %u missed object %u\n", rte_lcore_id(), i);
	}
}

static int
rel_reader_main(void *arg)
{
	struct rel_readers *r = arg;
	unsigned int id = rte_lcore_id();
	struct rel_reader_count *c = &r->count[id];
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (id + 1);
	unsigned int j;

	if (test_qsbr_reader_start(r->v, id) != 0)
		return -1;
	while (rte_atomic_load_explicit(&r->stop, rte_memory_order_acquire) == 0) {
		for (j = 0; j < 64; j++)
			rel_reader_probe(r, c, &seed);
		rte_rcu_qsbr_quiescent(r->v, id);
	}
	test_qsbr_reader_stop(r->v, id);
	return 0;
}

int
rel_readers_start(struct rel_readers *r)
{
	struct rte_rhashtable_rcu_config cfg = {
		.v = r->v,
		.mode = RTE_RHASHTABLE_QSBR_MODE_DQ,
	};
	unsigned int lcore;

	if (rte_rhashtable_rcu_qsbr_add(r->ht, &cfg) != 0)
		return -1;
	r->stop = 0;
	r->nb_lcores = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		memset(&r->count[lcore], 0, sizeof(r->count[lcore]));
		if (rte_eal_remote_launch(rel_reader_main, r, lcore) != 0)
			return -1;
		r->nb_lcores++;
	}
	return 0;
}

uint64_t
rel_readers_stop(struct rel_readers *r, uint64_t *lookups)
{
	uint64_t misses = 0;
	unsigned int lcore;

	rte_atomic_store_explicit(&r->stop, 1, rte_memory_order_release);
	rte_eal_mp_wait_lcore();
	*lookups = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		*lookups += r->count[lcore].lookups;
		misses += r->count[lcore].misses;
	}
	return misses;
}
