/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The rehash worker: decides when to grow, shrink or re-seed, and moves the
 * objects of the oldest bucket table into the newest, one bucket at a time.
 * It runs as an rte_service on a service lcore (in steps of
 * RTE_RHT_REHASH_BATCH buckets, so that it shares its lcore), or to
 * completion in rte_rhashtable_rehash_run(). ht->rehash_lock makes it single.
 */

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#include <rte_errno.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "rhashtable_count.h"
#include "rhashtable_debug.h"
#include "rhashtable_pvt.h"
#include "rhashtable_trace.h"

#define RHT_SERVICE_PREFIX "rhashtable_"

/* Find the last object of a locked chain and the link that points to it. */
static struct rte_rhash_head **
chain_last_link(struct rte_rhash_head **bkt)
{
	struct rte_rhash_head **pprev = bkt;

	while (!__rte_rht_is_nulls(__rte_rht_ptr(*pprev)->next))
		pprev = &__rte_rht_ptr(*pprev)->next;
	return pprev;
}

/*
 * What the worker learnt about a locked old bucket ahead of its moves: the
 * objects of its slots (slot[k] holds obj[k]) and their hashes in table dst.
 */
struct move_plan {
	const struct __rte_rht_table *dst;
	uint32_t n;
	uint8_t slot[__RTE_RHT_SLOTS];
	struct rte_rhash_head *obj[__RTE_RHT_SLOTS];
	uint64_t hash[__RTE_RHT_SLOTS];
};

/*
 * Link he, whose hash in new_tbl is hash, into its bucket of new_tbl, under
 * that bucket's lock. he is still reachable from its old bucket: when the
 * link goes into the overflow chain, the head that the push stores in
 * he->next is visible at once to a reader standing on he. Pushing with a
 * compare-and-swap and no lock, as the worker once did, a writer could
 * unlink that head (and retire it) between the two: the push failed and
 * linked again, but a reader that followed he->next meanwhile, in a read
 * section begun after the retirement, reached a freed object (a
 * use-after-free an ASan build of the rcu stress test caught). A single
 * writer is the thread that runs us and takes no lock.
 * acquire: as in bucket_scan() (rhashtable_update.c).
 */
static void
link_in_new(const struct rte_rhashtable *ht, struct __rte_rht_table *new_tbl,
	    struct rte_rhash_head *he, uint64_t hash)
{
	struct rte_rhash_head **nbkt = __rte_rht_bucket(new_tbl, rht_hash_idx(new_tbl, hash));

	rht_bucket_lock_take(ht, nbkt);
	rht_bucket_add(nbkt, rte_atomic_load_explicit(nbkt, rte_memory_order_acquire), he, hash);
	rht_bucket_lock_drop(ht, nbkt);
}

/*
 * Move he, the object of slot s of the locked old bucket bkt, to new_tbl:
 * link it there first, empty its slot second, so that it is always
 * reachable (see rhashtable_lookup.c). release (in rht_slot_store()): a
 * reader that no longer sees he in the slot will see old->future_tbl
 * (attached before this move) after it.
 */
static void
move_slot(const struct rte_rhashtable *ht, struct __rte_rht_table *new_tbl,
	  struct rte_rhash_head **bkt, uint32_t s, struct rte_rhash_head *he, uint64_t hash)
{
	link_in_new(ht, new_tbl, he, hash);
	rht_slot_store(bkt, s, NULL);
}

/*
 * Move the last object of the locked overflow chain of old bucket bkt to
 * new_tbl, linked there before it is unlinked here. A plain marker, also
 * in an emptied overflow word (an empty summary), which keeps the lock the
 * worker holds. release (in rht_link_replace()): as in move_slot().
 */
static void
move_last_object(const struct rte_rhashtable *ht, struct __rte_rht_table *new_tbl,
		 struct rte_rhash_head **bkt)
{
	struct rte_rhash_head **pprev = chain_last_link(bkt);
	struct rte_rhash_head *he = __rte_rht_ptr(*pprev);

	link_in_new(ht, new_tbl, he, rht_obj_hash(ht, new_tbl, rht_obj(ht, he)));
	rht_link_replace(bkt, pprev, __rte_rht_nulls(bkt));
}

/*
 * Move every object of the locked old bucket bkt to the newest table and
 * unlock it; returns how many. Its slots, with the hashes of plan (may be
 * NULL) when it was made for that table: plan_bucket() noted every object
 * of the slots, which the lock has kept as they were. Then the overflow
 * chain from its end.
 */
static uint32_t
empty_locked_bucket(struct rte_rhashtable *ht, struct __rte_rht_table *old,
		    struct rte_rhash_head **bkt, const struct move_plan *plan)
{
	struct __rte_rht_table *new_tbl = rht_last_table(old);
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	struct rte_rhash_head *he;
	uint32_t moved = 0, k, s;

	if (plan != NULL && plan->dst == new_tbl) {
		for (k = 0; k < plan->n; k++)
			move_slot(ht, new_tbl, bkt, plan->slot[k], plan->obj[k], plan->hash[k]);
		moved = plan->n;
	} else {
		for (s = 0; s < __RTE_RHT_SLOTS; s++) {
			/* relaxed: under the lock, the slots are the worker's */
			he = __rte_rht_slot_obj(rte_atomic_load_explicit(&slots[s],
									 rte_memory_order_relaxed));
			if (he == NULL)
				continue;
			move_slot(ht, new_tbl, bkt, s, he,
				  rht_obj_hash(ht, new_tbl, rht_obj(ht, he)));
			moved++;
		}
	}
	while (!__rte_rht_is_nulls(*bkt)) {
		move_last_object(ht, new_tbl, bkt);
		moved++;
	}
	rht_bucket_lock_drop(ht, bkt);
	return moved;
}

/*
 * Whether old bucket idx holds objects: a hint, read without the bucket's
 * lock, to skip a lock or aim a prefetch only. The worker is no QSBR
 * reader, so a writer may remove an object and free_obj release it at
 * any time.
 */
static bool
bucket_hint_full(const struct __rte_rht_table *old, uint32_t idx)
{
	struct rte_rhash_head **bkt = __rte_rht_bucket(old, idx);
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	uintptr_t any = 0;
	uint32_t s;

	for (s = 0; s < __RTE_RHT_SLOTS; s++)
		any |= (uintptr_t)rte_atomic_load_explicit(&slots[s], rte_memory_order_relaxed);
	return any != 0 ||
	       !__rte_rht_is_nulls(rte_atomic_load_explicit(bkt, rte_memory_order_relaxed));
}

/* Move every object of old bucket idx; returns how many. */
static uint32_t
empty_bucket(struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t idx)
{
	struct rte_rhash_head **bkt = __rte_rht_bucket(old, idx);

	/* no insert reaches old any more (see rehash_some()): an empty bucket
	 * stays empty, and needs no lock
	 */
	if (!bucket_hint_full(old, idx))
		return 0;
	rht_bucket_lock_take(ht, bkt);
	return empty_locked_bucket(ht, old, bkt, NULL);
}

/*
 * Ask the worker to look at the thresholds: writers call it when they see
 * one crossed, as the kernel's inserts call schedule_work(). The worker at
 * rest reads this flag only, so that its polling on a service lcore does
 * not pull the line of the element count away from the writers at every
 * call. seq_cst fence: pairs with the one in work_take(): either the worker
 * sees the flag set, or its threshold check sees the count (or re-seed
 * request) the caller changed before this call.
 */
static void
rht_work_schedule(struct rte_rhashtable *ht)
{
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (rte_atomic_load_explicit(&ht->work_pending, rte_memory_order_relaxed) == 0)
		rte_atomic_store_explicit(&ht->work_pending, 1, rte_memory_order_relaxed);
}

/* Wait until no writer can still use a replaced table. */
static void
rht_writers_drain(struct rte_rhashtable *ht)
{
	uint32_t snap[RTE_MAX_LCORE];
	unsigned int i, self = rte_lcore_id();
	/* release: a writer without an lcore id that reads the new phase
	 * (acquire) sees the table change made before this call
	 */
	uint32_t phase = rte_atomic_fetch_add_explicit(&ht->anon_phase, 1,
						       rte_memory_order_release);

	/* pairs with the fences in rht_writer_enter() and
	 * rht_anon_writer_enter() (see rhashtable_fence.c)
	 */
	__rte_rht_heavy_fence();
	for (i = 0; i < RTE_MAX_LCORE; i++)
		snap[i] = rte_atomic_load_explicit(&ht->writers[i].seq, rte_memory_order_acquire);
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (!(snap[i] & 1) || i == self)
			continue;
		/* acquire: pairs with the release in rht_writer_exit() */
		while (rte_atomic_load_explicit(&ht->writers[i].seq,
						rte_memory_order_acquire) == snap[i])
			rte_pause();
	}
	/* only those of the phase that ends; acquire: as above */
	while (rte_atomic_load_explicit(&ht->anon_writers[phase & 1],
					rte_memory_order_acquire) != 0)
		rte_pause();
}

/* The oldest table is empty: make its successor the first table, retire it. */
static void
drop_first_table(struct rte_rhashtable *ht, struct __rte_rht_table *old)
{
	/* acquire: pairs with __rte_rht_table_attach(), which may have run in an
	 * inserting thread (emergency growth)
	 */
	struct __rte_rht_table *next = rte_atomic_load_explicit(&old->future_tbl,
			rte_memory_order_acquire);

	/* release: pairs with the acquire of ht->core.tbl by readers and writers */
	rte_atomic_store_explicit(&ht->core.tbl, next, rte_memory_order_release);
	/* writers that read the old pointer finish with the table first;
	 * readers are covered by the QSBR grace period of __rte_rht_retire_table()
	 */
	rht_writers_drain(ht);
	rte_atomic_fetch_sub_explicit(&ht->ntables, 1, rte_memory_order_relaxed);
	RHT_COUNT(ht, rehashes_done);
	rte_rhashtable_trace_rehash_done(ht->name, old->size, next->size);
	__rte_rht_walkers_retire(ht, old);
	__rte_rht_retire_table(ht, old);
}

/*
 * Moving is a chain of cache misses: old bucket, its objects, their new
 * buckets. The objects of a bucket are fetched RHT_MOVE_AHEAD buckets
 * ahead of its move (move_range()); when the moves miss the caches, the
 * worker plans them (move_range_planned()).
 */
#define RHT_MOVE_AHEAD 8

/* Prefetch the key line of each object in the slots of old bucket idx (a hint). */
static void
prefetch_bucket_objects(const struct rte_rhashtable *ht, const struct __rte_rht_table *old,
			uint32_t idx)
{
	struct rte_rhash_head **slots;
	struct rte_rhash_head *he;
	uint32_t s;

	if (idx >= old->size)
		return;
	slots = __rte_rht_slots(__rte_rht_bucket(old, idx));
	for (s = 0; s < __RTE_RHT_SLOTS; s++) {
		he = __rte_rht_slot_obj(rte_atomic_load_explicit(&slots[s],
								 rte_memory_order_relaxed));
		if (he != NULL)
			rte_prefetch0((const char *)he - ht->core.head_offset +
				      ht->core.key_offset);
	}
}

/*
 * The memory a rehash may touch before planning its moves pays: four times
 * the L2 cache of a core, 0 when the C library does not know its size.
 * Measured with the grow benchmarks on a 2 MiB L2 (and a 260 MiB L3 whose
 * latency is close to memory's in this VM; same process, alternating
 * libraries): tables growing to 64Ki entries (rehashes of up to 4.4 MiB)
 * grew some 13% faster unplanned, tables growing to 1Mi (up to 70 MiB)
 * 15-20% faster planned. On a 1 MiB L2 (an AMD EPYC guest, whose L3
 * share is some 8 MiB), four and sixteen times the L2 grew tables to 64Ki
 * and 1Mi entries at the same rate (builds in turns, four rounds; ratios
 * to rte_hash's pre-sized insert in the same process within 4%).
 */
#define RHT_UNPLANNED_L2_TIMES 4

static uint64_t rht_cache_bytes;

RTE_INIT(rht_cache_init)
{
	long bytes = 0;

	/* glibc's name, not a POSIX one */
#ifdef _SC_LEVEL2_CACHE_SIZE
	bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	rht_cache_bytes = bytes > 0 ? (uint64_t)bytes * RHT_UNPLANNED_L2_TIMES : 0;
}

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_cache_bytes_set)
uint64_t
__rte_rhashtable_cache_bytes_set(uint64_t bytes)
{
	return rte_atomic_exchange_explicit(&rht_cache_bytes, bytes, rte_memory_order_relaxed);
}

/*
 * Will the moves out of old miss the caches (rht_cache_bytes)? A rehash
 * reads one line of every object (key and link), in bucket order, that is
 * in random memory order, and the two bucket arrays. Without a known cache
 * size, yes.
 */
static bool
rehash_misses_cache(const struct rte_rhashtable *ht, struct __rte_rht_table *old)
{
	/* the batched count: a hint is enough here */
	uint64_t bytes = rht_nelems(ht) * RTE_CACHE_LINE_SIZE +
		((uint64_t)old->size + rht_last_table(old)->size) * RTE_CACHE_LINE_SIZE;
	uint64_t cache = rte_atomic_load_explicit(&rht_cache_bytes, rte_memory_order_relaxed);

	return cache == 0 || bytes > cache;
}

/* Buckets of old below done are empty: publish the progress now and then. */
static void
buckets_done(struct __rte_rht_table *old, uint32_t done)
{
	uint32_t before = old->rehash;

	old->rehash = done;
	/* release: a lookup that reads the new value looks for the keys
	 * of the buckets below it in the later tables only
	 */
	if (done / RHT_EMPTIED_STEP != before / RHT_EMPTIED_STEP || done == old->size)
		rte_atomic_store_explicit(&old->emptied, done, rte_memory_order_release);
}


/*
 * Empty old buckets [start, end) one after the other; returns the objects
 * moved. Where the objects stay in cache, planning costs more than the
 * misses it hides (see rehash_misses_cache()).
 */
static uint64_t
move_range(struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t start, uint32_t end)
{
	uint64_t moved = 0;
	uint32_t i;

	for (i = start; i < end; i++) {
		prefetch_bucket_objects(ht, old, i + RHT_MOVE_AHEAD);
		moved += empty_bucket(ht, old, i);
		buckets_done(old, i + 1);
	}
	return moved;
}

/*
 * Planned moves, for a rehash that misses the caches: the worker takes old
 * buckets in groups of RHT_PLAN_GROUP. It fetches the lines of a group
 * RHT_PLAN_AHEAD buckets ahead; it locks the full buckets of a group two
 * groups ahead of the one it empties, reads their slots and prefetches
 * their objects; one group ahead, it hashes those objects and prefetches
 * their new buckets; then it empties the group with the hashes it planned
 * (the overflow chains, a few objects in a hundred, unplanned). Writers
 * hold one bucket lock at a time, and the worker takes the new buckets'
 * after the old ones': holding up to 3 * RHT_PLAN_GROUP of these cannot
 * deadlock. The locks keep the planned slots as they were planned, and
 * their objects alive. A writer that needs a bucket of the window waits
 * for at most three groups of moves.
 */
#define RHT_PLAN_GROUP 4U
#define RHT_PLAN_LAG 2U     /* groups between planning and moving */
#define RHT_PLAN_RING 4U    /* a power of 2 above RHT_PLAN_LAG */
#define RHT_PLAN_AHEAD (RHT_PLAN_GROUP * 4)

struct plan_group {
	uint32_t full;    /* buckets locked and planned */
	struct move_plan plan[RHT_PLAN_GROUP];
};

/* Lock old bucket idx, note its slots' objects and prefetch them. */
static void
plan_bucket(const struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t idx,
	    struct move_plan *plan)
{
	struct rte_rhash_head **bkt = __rte_rht_bucket(old, idx);
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	struct rte_rhash_head *he;
	uint32_t s;

	rht_bucket_lock_take(ht, bkt);
	plan->dst = rht_last_table(old);
	plan->n = 0;
	for (s = 0; s < __RTE_RHT_SLOTS; s++) {
		/* relaxed: under the lock, the slots are the worker's */
		he = __rte_rht_slot_obj(rte_atomic_load_explicit(&slots[s],
								 rte_memory_order_relaxed));
		if (he == NULL)
			continue;
		rte_prefetch0((const char *)he - ht->core.head_offset + ht->core.key_offset);
		plan->slot[plan->n] = (uint8_t)s;
		plan->obj[plan->n] = he;
		plan->n++;
	}
}

/* Lock and plan the full buckets of the group of n buckets from base. */
static void
plan_group(const struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t base,
	   uint32_t n, struct plan_group *g)
{
	uint32_t k;

	g->full = 0;
	for (k = 0; k < n; k++) {
		if (!bucket_hint_full(old, base + k))
			continue;
		plan_bucket(ht, old, base + k, &g->plan[k]);
		g->full |= 1U << k;
	}
}

/* Hash the planned objects of a group, prefetched by plan_bucket(), and fetch their new buckets. */
static void
plan_hashes(const struct rte_rhashtable *ht, struct plan_group *g)
{
	struct move_plan *plan;
	uint32_t f, k;

	for (f = g->full; f != 0; f &= f - 1) {
		plan = &g->plan[rte_ctz32(f)];
		for (k = 0; k < plan->n; k++) {
			plan->hash[k] = rht_obj_hash(ht, plan->dst, rht_obj(ht, plan->obj[k]));
			/* the new bucket, whose lock link_in_new() takes */
			rht_prefetch_write(__rte_rht_bucket(plan->dst,
						rht_hash_idx(plan->dst, plan->hash[k])));
		}
	}
}

/* Empty the locked buckets of a planned group; returns the objects moved. */
static uint64_t
empty_group(struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t base,
	    const struct plan_group *g)
{
	uint64_t moved = 0;
	uint32_t f, k;

	for (f = g->full; f != 0; f &= f - 1) {
		k = rte_ctz32(f);
		moved += empty_locked_bucket(ht, old, __rte_rht_bucket(old, base + k), &g->plan[k]);
	}
	return moved;
}

/*
 * Empty old buckets [start, end) through the planned groups; returns the
 * objects moved. Iteration i plans group i, hashes group i - 1 and
 * empties group i - RHT_PLAN_LAG.
 */
static uint64_t
move_range_planned(struct rte_rhashtable *ht, struct __rte_rht_table *old, uint32_t start,
		   uint32_t end)
{
	struct plan_group groups[RHT_PLAN_RING];
	uint32_t ngroups = (end - start + RHT_PLAN_GROUP - 1) / RHT_PLAN_GROUP;
	uint64_t moved = 0;
	uint32_t i, k, base, n;

	RTE_BUILD_BUG_ON(RHT_PLAN_GROUP > 32);
	for (i = 0; i < ngroups + RHT_PLAN_LAG; i++) {
		if (i < ngroups) {
			base = start + i * RHT_PLAN_GROUP;
			n = RTE_MIN(RHT_PLAN_GROUP, end - base);
			for (k = base + RHT_PLAN_AHEAD; k < base + RHT_PLAN_AHEAD + n &&
			     k < old->size; k++)
				rht_prefetch_write(__rte_rht_bucket(old, k));
			plan_group(ht, old, base, n, &groups[i % RHT_PLAN_RING]);
		}
		if (i >= 1 && i - 1 < ngroups)
			plan_hashes(ht, &groups[(i - 1) % RHT_PLAN_RING]);
		if (i < RHT_PLAN_LAG)
			continue;
		base = start + (i - RHT_PLAN_LAG) * RHT_PLAN_GROUP;
		moved += empty_group(ht, old, base, &groups[(i - RHT_PLAN_LAG) % RHT_PLAN_RING]);
		buckets_done(old, RTE_MIN(base + RHT_PLAN_GROUP, end));
	}
	return moved;
}

/*
 * Move up to budget buckets out of the first table. Returns the buckets
 * done; drops the table once it is empty.
 */
static uint32_t
rehash_some(struct rte_rhashtable *ht, uint32_t budget)
{
	struct __rte_rht_table *old = ht->core.tbl;
	uint32_t start = old->rehash;
	uint32_t done = RTE_MIN(budget, old->size - start);
	uint64_t moved;

	/* inserts go to old only if they read old->future_tbl before it was
	 * set; once those writers are gone, old only loses objects
	 */
	if (start == 0) {
		rht_writers_drain(ht);
		ht->moves_miss_cache = rehash_misses_cache(ht, old);
	}
	if (ht->moves_miss_cache)
		moved = move_range_planned(ht, old, start, start + done);
	else
		moved = move_range(ht, old, start, start + done);
	/* once a batch: a locked add per bucket was a tenth of the worker's time */
	rte_atomic_fetch_add_explicit(&ht->ctr.objs_moved, moved, rte_memory_order_relaxed);
	if (old->rehash == old->size)
		drop_first_table(ht, old);
	return done;
}

/*
 * With ht->rehash_lock held: nothing to move, the first table has no
 * successor. Only the worker changes ht->core.tbl, and it holds the lock.
 * relaxed: an insert's emergency growth may set future_tbl concurrently
 * (compare-and-swap); the moves read it again with acquire
 * (rht_last_table()).
 */
static bool
at_rest(const struct rte_rhashtable *ht)
{
	return rte_atomic_load_explicit(&ht->core.tbl->future_tbl, rte_memory_order_relaxed) ==
		NULL;
}

/* Size of the next table for a table at rest: 0 when none is needed. */
static uint32_t
next_table_size(struct rte_rhashtable *ht, const struct __rte_rht_table *tbl)
{
	/* exact: the writers' batches may not have reached ht->nelems */
	uint64_t nelems = rht_nelems_exact(ht);

	if (rht_grow_above(ht, tbl->size, RTE_RHT_GROW_PCT, nelems))
		return tbl->size * 2;
	if (rht_shrink_below(ht, tbl->size, nelems))
		return tbl->size / 2;
	if (rte_atomic_exchange_explicit(&ht->reseed_pending, 0, rte_memory_order_relaxed) != 0)
		return tbl->size;
	return 0;
}

/* Allocate and attach the table that the thresholds ask for, if any. */
static int
start_resize(struct rte_rhashtable *ht, bool *started)
{
	struct __rte_rht_table *tbl = ht->core.tbl, *next;
	uint32_t size = next_table_size(ht, tbl);

	*started = false;
	if (size == 0)
		return 0;
	/* a grow or shrink keeps the key seed; a re-seed draws it anew */
	next = __rte_rht_table_alloc(ht, size, size != tbl->size ? tbl : NULL);
	if (next == NULL)
		return -ENOMEM;
	/* an insert's emergency growth may have attached one meanwhile */
	if (!__rte_rht_table_attach(ht, tbl, next, false))
		__rte_rht_table_free(ht, next);
	*started = true;
	return 0;
}

/*
 * One step of the worker, with ht->rehash_lock held: move up to budget
 * buckets, or start a resize. Returns 1 when it did something, 0 when the
 * table is at rest, -ENOMEM when a needed table could not be allocated.
 */
static int
worker_step(struct rte_rhashtable *ht, uint32_t budget)
{
	bool started;
	int ret;

	if (!at_rest(ht))
		return rehash_some(ht, budget) > 0 ? 1 : 0;
	ret = start_resize(ht, &started);
	return ret != 0 ? ret : started;
}

/* With ht->rehash_lock held: whether a writer asked for the worker; clears the request. */
static bool
work_take(struct rte_rhashtable *ht)
{
	if (rte_atomic_load_explicit(&ht->work_pending, rte_memory_order_relaxed) == 0)
		return false;
	rte_atomic_store_explicit(&ht->work_pending, 0, rte_memory_order_relaxed);
	/* seq_cst: pairs with the fence in rht_work_schedule() */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	return true;
}

/* Milliseconds between two exact counts of the rehash service at rest. */
#define RHT_RECOUNT_MS 10

/*
 * At rest, the service looks at the exact count now and then: the count
 * writers compare with the thresholds lags it by their unfinished batches
 * (rhashtable_count.h), a lag that no later write flushes once they stop.
 * The stamp of that look also tells worker_stalled() that the service runs:
 * a longer period here needs a longer RHT_WORKER_ALIVE_MS.
 * With the newest table's size as ht keeps it: without the lock, a bucket
 * table may be retired and freed under us.
 */
static void
rehash_recount(struct rte_rhashtable *ht)
{
	uint64_t now = rte_get_timer_cycles(), nelems;
	uint32_t size;

	if (now - rte_atomic_load_explicit(&ht->count_checked_at, rte_memory_order_relaxed) <
	    rte_get_timer_hz() / 1000 * RHT_RECOUNT_MS)
		return;
	rte_atomic_store_explicit(&ht->count_checked_at, now, rte_memory_order_relaxed);
	size = rte_atomic_load_explicit(&ht->last_size, rte_memory_order_relaxed);
	nelems = rht_nelems_exact(ht);
	if (rht_grow_above(ht, size, RTE_RHT_GROW_PCT, nelems) ||
	    rht_shrink_below(ht, size, nelems))
		rht_work_schedule(ht);
}

static int32_t
rehash_service(void *arg)
{
	struct rte_rhashtable *ht = arg;
	int ret = 0;

	/* at rest and not asked: touch no line that writers write. Not
	 * at_rest(): without the lock, the first bucket table may be retired
	 * and freed under us (we are no QSBR reader); the count of tables
	 * lives in ht, and a change it does not show yet is seen next call.
	 */
	if (rte_atomic_load_explicit(&ht->ntables, rte_memory_order_relaxed) == 1 &&
	    rte_atomic_load_explicit(&ht->work_pending, rte_memory_order_relaxed) == 0) {
		rehash_recount(ht);
		goto reclaim;
	}
	if (!rte_spinlock_trylock(&ht->rehash_lock))
		return -EBUSY;
	/* the request is taken under the lock, so that a caller of
	 * rte_rhashtable_rehash_lock() cannot make it get lost
	 */
	if (!at_rest(ht) || work_take(ht))
		ret = worker_step(ht, RTE_RHT_REHASH_BATCH);
	/* a step that did something, or could not allocate the table the
	 * thresholds ask for, asks for the next one, until a step finds the
	 * table at rest within its thresholds: no writer may come to ask (a
	 * table emptied by removals halves several times once they stop)
	 */
	if (ret != 0)
		rht_work_schedule(ht);
	rte_spinlock_unlock(&ht->rehash_lock);
reclaim:
	__rte_rht_rcu_reclaim(ht);
	return ret > 0 ? 0 : -EAGAIN;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_rehash_run, 26.03)
int
rte_rhashtable_rehash_run(struct rte_rhashtable *ht)
{
	int ret;

	if (ht == NULL) {
		RHT_LOG(ERR, "NULL table");
		return -EINVAL;
	}
	/* the application runs the worker itself: no need to warn. Stored
	 * once, as rht_nelems_dec() stores shrink_armed: every removal reads
	 * this line, and a store at every call would take it from them
	 */
	if (rte_atomic_load_explicit(&ht->no_worker_warned, rte_memory_order_relaxed) == 0)
		rte_atomic_store_explicit(&ht->no_worker_warned, 1, rte_memory_order_relaxed);
	rte_spinlock_lock(&ht->rehash_lock);
	do {
		ret = worker_step(ht, UINT32_MAX);
	} while (ret > 0);
	rte_spinlock_unlock(&ht->rehash_lock);
	__rte_rht_rcu_reclaim(ht);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_rehash_lock, 26.03)
void
rte_rhashtable_rehash_lock(struct rte_rhashtable *ht)
{
	if (ht == NULL) {
		RHT_LOG(ERR, "NULL table");
		return;
	}
	rte_spinlock_lock(&ht->rehash_lock);
	/* finish the rehash under way: objects then stay where they are */
	while (!at_rest(ht))
		rehash_some(ht, UINT32_MAX);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_rehash_unlock, 26.03)
void
rte_rhashtable_rehash_unlock(struct rte_rhashtable *ht)
{
	if (ht == NULL) {
		RHT_LOG(ERR, "NULL table");
		return;
	}
	rte_spinlock_unlock(&ht->rehash_lock);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_reseed, 26.03)
int
rte_rhashtable_reseed(struct rte_rhashtable *ht)
{
	if (ht == NULL) {
		RHT_LOG(ERR, "NULL table");
		return -EINVAL;
	}
	rte_atomic_store_explicit(&ht->reseed_pending, 1, rte_memory_order_relaxed);
	rht_work_schedule(ht);
	return 0;
}

/* Seconds between two warnings about a worker that does not run. */
#define RHT_STALL_WARN_PERIOD 10

/*
 * A service that looked at the count at rest this recently runs
 * (rehash_recount() looks every RHT_RECOUNT_MS): tables that pile up
 * meanwhile come from a writer that outran it, not from a stall.
 */
#define RHT_WORKER_ALIVE_MS 1000

static bool
worker_ran_lately(const struct rte_rhashtable *ht, uint64_t now)
{
	uint64_t seen = rte_atomic_load_explicit(&ht->count_checked_at, rte_memory_order_relaxed);

	return seen != 0 && now - seen < rte_get_timer_hz() / 1000 * RHT_WORKER_ALIVE_MS;
}

/*
 * An insert attached a bucket table while the worker had not yet emptied a
 * single step of the first one: bucket tables pile up because nothing runs
 * the worker, unless the service ran lately (a writer that fills a new
 * 64-bucket table within a microsecond outruns a service that polls).
 * rte_service_runstate_get() cannot tell, as it reports a service mapped
 * to a service lcore that never runs (one outside the coremask, or never
 * started) as running. Counted each time, logged at most every
 * RHT_STALL_WARN_PERIOD seconds.
 */
static void
worker_stalled(struct rte_rhashtable *ht)
{
	uint64_t now = rte_get_timer_cycles();
	uint64_t last = rte_atomic_load_explicit(&ht->stall_warned_at, rte_memory_order_relaxed);

	if (worker_ran_lately(ht, now))
		return;
	RHT_COUNT(ht, worker_stalls);
	if (last != 0 && now - last < RHT_STALL_WARN_PERIOD * rte_get_timer_hz())
		return;
	if (!rte_atomic_compare_exchange_strong_explicit(&ht->stall_warned_at, &last, now,
			rte_memory_order_relaxed, rte_memory_order_relaxed))
		return;
	if (ht->single_writer)
		RHT_LOG(WARNING, "%s: %u bucket tables chained and the rehash worker has "
			"not started on the first: its writer should call "
			"rte_rhashtable_rehash_run()", ht->name,
			rte_atomic_load_explicit(&ht->ntables, rte_memory_order_relaxed));
	else
		RHT_LOG(WARNING, "%s: %u bucket tables chained and the rehash worker has "
			"not started on the first: is service %s%s mapped to a running "
			"service lcore? (or call rte_rhashtable_rehash_run())", ht->name,
			rte_atomic_load_explicit(&ht->ntables, rte_memory_order_relaxed),
			RHT_SERVICE_PREFIX, ht->name);
}

/*
 * An insert found tbl (the newest table) over 100% load or with a full
 * chain: attach the next table itself, without blocking, as the kernel
 * of the article (rhashtable_pvt.h) does. 0 means "try the insert again".
 */
int
__rte_rht_emergency_table(struct rte_rhashtable *ht, struct __rte_rht_table *tbl)
{
	struct __rte_rht_table *first = rte_atomic_load_explicit(&ht->core.tbl,
			rte_memory_order_acquire);
	struct __rte_rht_table *next;
	uint32_t size = tbl->size;
	int ret;

	if (rht_grow_above_pct(ht, tbl, RTE_RHT_GROW_PCT))
		size *= 2;
	else if (first != tbl) {
		/* a full chain while a resize is pending: do not pile up tables */
		ret = -EBUSY;
		goto fail;
	}
	/* a new key seed too: a full chain may be keys whose first step collides */
	next = __rte_rht_table_alloc(ht, size, NULL);
	if (next == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	if (!__rte_rht_table_attach(ht, tbl, next, true)) {
		__rte_rht_table_free(ht, next);
		return 0;
	}
	RHT_COUNT(ht, emergency_allocs);
	/* relaxed: a hint; the worker publishes its progress every
	 * RHT_EMPTIED_STEP buckets, long before inserts fill another table
	 */
	if (first != tbl &&
	    rte_atomic_load_explicit(&first->emptied, rte_memory_order_relaxed) == 0)
		worker_stalled(ht);
	return 0;
fail:
	/* another thread attached a table: the insert can go there */
	if (rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire) != NULL)
		return 0;
	if (ret == -EBUSY) {
		rte_rhashtable_trace_ebusy(ht->name, tbl->size);
		/* re-seeding cannot shorten chains of a hash that ignores the seed */
		if (rte_atomic_load_explicit(&ht->ctr.refused_ebusy, rte_memory_order_relaxed) == 0)
			RHT_LOG(WARNING, "%s: a chain of %d objects outlived a re-seed: does "
				"the hash function ignore its seed?", ht->name,
				RTE_RHT_MAX_CHAIN_LEN);
	}
	return ret;
}

/*
 * Called after a change of the element count: schedule the worker when the
 * newest table crossed a threshold, and log once when it needs the worker
 * and nothing runs it.
 */
void
__rte_rht_deferred_work_needed(struct rte_rhashtable *ht)
{
	const struct __rte_rht_table *last =
		rht_last_table(rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire));
	bool grow = rht_grow_above_pct(ht, last, RTE_RHT_GROW_PCT);

	if (!grow && !rht_shrink_below_pct(ht, last))
		return;
	rht_work_schedule(ht);
	if (likely(rte_atomic_load_explicit(&ht->no_worker_warned, rte_memory_order_relaxed) != 0))
		return;
	if (!grow || (!ht->single_writer && rte_service_runstate_get(ht->service_id) == 1))
		return;
	if (rte_atomic_exchange_explicit(&ht->no_worker_warned, 1, rte_memory_order_relaxed) != 0)
		return;
	if (ht->single_writer)
		RHT_LOG(NOTICE, "%s: growing by emergency allocations only until its writer "
			"calls rte_rhashtable_rehash_run()", ht->name);
	else
		RHT_LOG(NOTICE, "%s: no service lcore runs service %s%s; growing by emergency "
			"allocations only: map it or call rte_rhashtable_rehash_run()",
			ht->name, RHT_SERVICE_PREFIX, ht->name);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_service_id_get, 26.03)
int
rte_rhashtable_service_id_get(const struct rte_rhashtable *ht, uint32_t *service_id)
{
	if (ht == NULL || service_id == NULL) {
		RHT_LOG(ERR, "NULL %s", ht == NULL ? "table" : "service_id");
		return -EINVAL;
	}
	if (ht->single_writer) {
		RHT_LOG(ERR, "%s: a single-writer table has no service: its writer calls "
			"rte_rhashtable_rehash_run()", ht->name);
		return -ENOTSUP;
	}
	*service_id = ht->service_id;
	return 0;
}

int
__rte_rht_service_register(struct rte_rhashtable *ht)
{
	struct rte_service_spec spec = {
		.callback = rehash_service,
		.callback_userdata = ht,
		.capabilities = RTE_SERVICE_CAP_MT_SAFE,
		.socket_id = ht->socket_id,
	};
	int ret;

	snprintf(spec.name, sizeof(spec.name), RHT_SERVICE_PREFIX "%s", ht->name);
	ret = rte_service_component_register(&spec, &ht->service_id);
	if (ret != 0) {
		RHT_LOG(ERR, "%s: cannot register service %s: %s", ht->name, spec.name,
			rte_strerror(-ret));
		return ret == -ENOSPC ? -ENOSPC : -ENOMEM;
	}
	rte_service_component_runstate_set(ht->service_id, 1);
	rte_service_runstate_set(ht->service_id, 1);
	return 0;
}

/* Stop the service and wait until no lcore runs it any more. */
void
__rte_rht_service_unregister(struct rte_rhashtable *ht)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();

	rte_service_runstate_set(ht->service_id, 0);
	rte_service_component_runstate_set(ht->service_id, 0);
	while (rte_service_may_be_active(ht->service_id) == 1) {
		if (rte_get_timer_cycles() > deadline) {
			RHT_LOG(WARNING, "%s: service still active after 5 s", ht->name);
			break;
		}
		rte_delay_us_sleep(100);
	}
	/* the service callback holds the lock while it runs */
	rte_spinlock_lock(&ht->rehash_lock);
	rte_spinlock_unlock(&ht->rehash_lock);
	if (rte_service_component_unregister(ht->service_id) != 0)
		RHT_LOG(WARNING, "%s: cannot unregister its service", ht->name);
}
