/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Helpers of the multi-lcore stress suites: poisoned objects with a
 * quarantine, QSBR variable, service lcore, figures.
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
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->socket_id = SOCKET_ID_ANY;
	p->key_len = sizeof(uint64_t);
	p->key_offset = offsetof(struct stress_obj, key);
	p->head_offset = offsetof(struct stress_obj, node);
}

struct rte_rcu_qsbr *
stress_qsbr_create(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v = rte_zmalloc("rht_stress_qsbr", sz, RTE_CACHE_LINE_SIZE);

	if (v == NULL)
		return NULL;
	if (rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0) {
		rte_free(v);
		return NULL;
	}
	return v;
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

void
stress_totals_add(struct stress_totals *t, const struct stress_counts *c)
{
	t->lookups += c->lookups;
	t->misses += c->misses;
	t->false_hits += c->false_hits;
	t->bad_objs += c->bad_objs;
	t->ops += c->ops;
	t->errors += c->errors;
	t->qs += c->qs;
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

	return s->ntables == 1 && load <= (uint64_t)s->buckets * 70 &&
		(load >= (uint64_t)s->buckets * 30 || s->buckets <= min_size);
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
