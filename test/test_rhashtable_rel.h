/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _TEST_RHASHTABLE_REL_H_
#define _TEST_RHASHTABLE_REL_H_

/*
 * Shared by the reliability suites (faults, scale): reader lcores that look
 * up keys known to be present while the main lcore inserts, removes and
 * rehashes, and count every miss; heap accounting; fault helpers.
 *
 * Object i lives at objs + i * obj_size and has its key at key_offset. The
 * main lcore publishes the range [lo, hi) of objects that may be present,
 * and, if present is set, a flag per object; a reader that misses object i
 * re-reads lo afterwards and counts a miss only if i was present during the
 * whole lookup.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test.h"

struct __rte_cache_aligned rel_reader_count {
	uint64_t lookups;
	uint64_t misses;
};

struct rel_readers {
	struct rte_rhashtable *ht;
	struct rte_rcu_qsbr *v;
	const uint8_t *present;   /* NULL: all of [lo, hi) is present */
	const char *objs;
	size_t obj_size;
	size_t key_offset;
	uint32_t lo;              /* objects below lo may be gone (acquire/release) */
	uint32_t hi;              /* objects from hi on are not inserted yet */
	uint32_t stop;
	unsigned int nb_lcores;
	struct rel_reader_count count[RTE_MAX_LCORE];
};

static inline uint64_t
rel_xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline const void *
rel_obj(const struct rel_readers *r, uint32_t i)
{
	return r->objs + (size_t)i * r->obj_size;
}

/* One lookup of a random object of [lo, hi); a miss counts only if it was
 * present from before the lookup to after it.
 */
static inline void
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

static inline int
rel_reader_main(void *arg)
{
	struct rel_readers *r = arg;
	unsigned int id = rte_lcore_id();
	struct rel_reader_count *c = &r->count[id];
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (id + 1);
	unsigned int j;

	if (rte_rcu_qsbr_thread_register(r->v, id) != 0)
		return -1;
	rte_rcu_qsbr_thread_online(r->v, id);
	while (rte_atomic_load_explicit(&r->stop, rte_memory_order_acquire) == 0) {
		for (j = 0; j < 64; j++)
			rel_reader_probe(r, c, &seed);
		rte_rcu_qsbr_quiescent(r->v, id);
	}
	rte_rcu_qsbr_thread_offline(r->v, id);
	rte_rcu_qsbr_thread_unregister(r->v, id);
	return 0;
}

/* A QSBR variable for every lcore id; NULL on no memory. */
static inline struct rte_rcu_qsbr *
rel_qsbr_create(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v = rte_zmalloc("rel_qsbr", sz, RTE_CACHE_LINE_SIZE);

	if (v != NULL && rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0) {
		rte_free(v);
		v = NULL;
	}
	return v;
}

/* Attach v to ht in defer-queue mode and start readers on every worker lcore. */
static inline int
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

/* Stop the readers; the total of misses (0 expected), lookups in *lookups. */
static inline uint64_t
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

/* Bytes and blocks allocated from the rte_malloc heaps of every socket. */
static inline void
rel_heap_usage(uint64_t *bytes, uint64_t *blocks)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;

	*bytes = 0;
	*blocks = 0;
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) != 0)
			continue;
		*bytes += st.heap_allocsz_bytes;
		*blocks += st.alloc_count;
	}
}

#endif /* _TEST_RHASHTABLE_REL_H_ */
