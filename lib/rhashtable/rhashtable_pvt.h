/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_PVT_H_
#define _RHASHTABLE_PVT_H_

/*
 * Private structures of librte_rhashtable and the helpers every .c file
 * shares: bucket addressing, nulls markers, hashing, bucket locks, log macro.
 *
 * The library follows the design of the Linux kernel's rhashtable that
 * "the article" of the comments describes:
 *   Neil Brown, "Rhashtables: under the hood", LWN.net, 2018,
 *   https://lwn.net/Articles/751374/
 */

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#include <rte_spinlock.h>

#include "rhashtable_export.h"
#include "rte_rhashtable_config.h"
#include "rte_rhashtable.h"

extern int rte_rhashtable_logtype;
#define RTE_LOGTYPE_RHASHTABLE rte_rhashtable_logtype

#define RHT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, rte_rhashtable_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/* Buckets emptied by the worker between two updates of __rte_rht_table.emptied. */
#define RHT_EMPTIED_STEP 256

/* A retired pointer waiting for its grace period outside the defer queue. */
struct rht_overflow_entry {
	void *ptr;
	uint64_t kind;
	uint64_t token;
};

/* RCU state set by rte_rhashtable_rcu_qsbr_add(). */
struct rht_rcu {
	struct rte_rcu_qsbr *v;
	enum rte_rhashtable_qsbr_mode mode;
	struct rte_rcu_qsbr_dq *dq;
	rte_rhashtable_free_obj_t free_obj;
	void *free_obj_ctx;
	uint32_t pending;          /* entries in dq and overflow */
	/* when the defer queue is full: grows, never blocks the writer */
	rte_spinlock_t ovf_lock;
	struct rht_overflow_entry *ovf;
	uint32_t ovf_n;
	uint32_t ovf_cap;
};

/*
 * Write-side state of one lcore, written by that lcore only (in the line
 * it writes at every write call anyway).
 * seq: odd while the lcore is inside a write call. The worker waits for
 * odd values to change before it frees a bucket table, so writers need not
 * be QSBR readers (rht_writers_drain()).
 * nelems: chain entries this lcore linked less those it unlinked; flushed:
 * how much of that it has added to ht->nelems; batch: how far they may
 * differ (rhashtable_count.h).
 */
struct __rte_cache_aligned rht_writer {
	uint32_t seq;
	uint32_t batch;
	int64_t nelems;
	int64_t flushed;
};

struct rte_rhashtable {
	/* Read by every lookup, written only at create: kept on cache lines of
	 * their own, away from the counters writers update, so that lookups
	 * on other lcores do not miss on them after each insert. The first
	 * member: rte_rhashtable_lookup_fast() casts the table pointer.
	 */
	struct __rte_rht_core core;
	uint8_t lookup_kind;       /* rht_lookup_kind() of core.fast_key_len */
	bool rhlist;               /* an rhltable: chain entries head lists */
	rte_rhashtable_hashfn_t hashfn;         /* NULL: the inline default */
	rte_rhashtable_obj_hashfn_t obj_hashfn; /* may be NULL */
	rte_rhashtable_obj_cmpfn_t obj_cmpfn;   /* may be NULL */
	char name[RTE_RHASHTABLE_NAMESIZE];
	uint32_t max_size;         /* largest bucket table; 0: none */
	uint32_t min_size;         /* smallest for automatic shrinking */
	uint32_t max_elems;
	bool automatic_shrinking;
	bool single_writer;        /* writes and the worker on one thread: no locks */
	int socket_id;

	/* Written by every insert and remove: a line of their own, as the
	 * worker on a service lcore writes its lock and flags on every call.
	 * Sharing one line, each insert waited for that line to come back
	 * from the service lcore.
	 */
	/* chain entries, as far as the lcores' batches have reached it: drives
	 * resizing (rhashtable_count.h)
	 */
	alignas(RTE_CACHE_LINE_SIZE) int64_t nelems;
	int64_t anon_nelems;       /* the share of threads without an lcore id */
	uint32_t nobjs;            /* rhltable: every object of every list */

	/* Written rarely, read by writers or polled by the worker. */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t no_worker_warned;
	uint32_t shrink_armed;     /* an object was removed: shrinking may start */
	/* a threshold was crossed or a re-seed asked: the article's
	 * schedule_work(); see rht_work_schedule()
	 */
	uint32_t work_pending;

	/* Written by the worker (rehash_lock: the article's ht->mutex), or rarely. */
	alignas(RTE_CACHE_LINE_SIZE) rte_spinlock_t rehash_lock;
	uint32_t reseed_pending;
	uint32_t ntables;          /* tables in the chain */
	uint32_t last_size;        /* buckets of the newest table */
	int32_t last_node;         /* NUMA node of the newest table's buckets */
	uint64_t stall_warned_at;  /* timer cycles of the last stalled-worker warning */
	/* timer cycles of the service's last exact count at rest; also its
	 * sign of life for the stall check (worker_ran_lately())
	 */
	uint64_t count_checked_at;
	bool moves_miss_cache;     /* this rehash plans its moves (rhashtable_rehash.c) */
	uint64_t bytes;            /* memory held */
	rte_spinlock_t walk_lock;   /* walker lists and table retirement */
	uint32_t service_id;
	struct rht_rcu rcu;
	/* counters (RHT_STAT_COUNTER in rhashtable_debug.h; other fields unused) */
	struct rte_rhashtable_stats ctr;
	/* Writers on threads without an lcore id, counted in two phases so
	 * that the worker waits only for those that entered before it asked
	 * (rht_writers_drain() flips anon_phase): a single count of a busy
	 * set of such threads might never fall to zero.
	 */
	uint32_t anon_phase;
	uint32_t anon_writers[2];
	struct rht_writer writers[RTE_MAX_LCORE];
};

/* An rhltable is an rhashtable whose chain entries head lists of objects. */
struct rte_rhltable {
	struct rte_rhashtable ht;
};

/* Relaxed counter increment: statistics (and a log-once test), no table decision. */
#define RHT_COUNT(ht, field) \
	rte_atomic_fetch_add_explicit(&(ht)->ctr.field, 1, rte_memory_order_relaxed)

/*
 * Bucket words as integers, for the lock bit's atomic operations: the
 * words are pointers, which the atomic bitwise operations do not take.
 * may_alias: the same word is read as a pointer elsewhere.
 */
typedef uintptr_t __rte_may_alias rht_word_t;

static inline rht_word_t *
rht_word(struct rte_rhash_head **bkt)
{
	return (rht_word_t *)(uintptr_t)bkt;
}

/*
 * Who writes an overflow word (and a slot): the writers and the rehash
 * worker, each holding the bucket's lock, a bit of the overflow word itself
 * (a single_writer table takes none: its one writer runs the worker too).
 * The worker, which moves an object under its old bucket's lock, takes the
 * new bucket's lock to link it (see link_in_new()). The new word keeps the lock bit of the one it
 * replaces: held until rht_bucket_lock_drop(). relaxed load: under the
 * lock, the word is the holder's own. release: pairs with the readers'
 * acquire loads of the word, so whoever sees the new head sees it
 * initialised.
 */
static inline void
rht_bucket_store(struct rte_rhash_head **bkt, struct rte_rhash_head *word)
{
	rht_word_t held = rte_atomic_load_explicit(rht_word(bkt), rte_memory_order_relaxed) &
			  __RTE_RHT_LOCK_BIT;

	rte_atomic_store_explicit(rht_word(bkt), (rht_word_t)word | held,
				  rte_memory_order_release);
}

/*
 * Link he at the head of the locked chain of bucket bkt, whose word is w,
 * with its summary bits (from hash) and the chain's length.
 */
static inline void
rht_chain_push(struct rte_rhash_head **bkt, struct rte_rhash_head *w, struct rte_rhash_head *he,
	       uint64_t hash)
{
	/* release: a reader may stand on he, a moving object still last in
	 * its old chain or a removed object inserted again at once (the API
	 * allows it); it goes on into this chain, whose objects must be
	 * initialised for it, and ends on this bucket's marker, which tells it
	 * to restart its own chain
	 */
	rte_atomic_store_explicit(&he->next, __rte_rht_ptr(w), rte_memory_order_release);
	rht_bucket_store(bkt, __rte_rht_bucket_word(he,
			__rte_rht_summary_add(__rte_rht_bucket_summary(w), hash),
			__rte_rht_bucket_len(w) + 1));
}

/*
 * Store word in slot s of the locked bucket bkt. release: pairs with the
 * readers' acquire loads of the slot, so whoever sees an object there sees
 * it initialised.
 */
static inline void
rht_slot_store(struct rte_rhash_head **bkt, uint32_t s, struct rte_rhash_head *word)
{
	rte_atomic_store_explicit(&__rte_rht_slots(bkt)[s], word, rte_memory_order_release);
}

/*
 * Slot s of the locked bucket bkt, whose word is word, holds he instead:
 * an object of the same key (a replacement, an rhltable list's new first
 * member), so the tag stays.
 */
static inline void
rht_slot_replace(struct rte_rhash_head **bkt, uint32_t s, const struct rte_rhash_head *word,
		 struct rte_rhash_head *he)
{
	rht_slot_store(bkt, s, (struct rte_rhash_head *)((uintptr_t)he |
			((uintptr_t)word & ~__RTE_RHT_SLOT_PTR_MASK)));
}

/*
 * The slot of the locked bucket bkt that holds he, or -1. relaxed: only
 * the lock holder changes the slots.
 */
static inline int
rht_slot_of(struct rte_rhash_head **bkt, const struct rte_rhash_head *he)
{
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	uint32_t s;

	for (s = 0; s < __RTE_RHT_SLOTS; s++)
		if (__rte_rht_slot_obj(rte_atomic_load_explicit(&slots[s],
				rte_memory_order_relaxed)) == he)
			return (int)s;
	return -1;
}

/* An empty slot of the locked bucket bkt, or -1 when the seven are taken. */
static inline int
rht_slot_free(struct rte_rhash_head **bkt)
{
	return rht_slot_of(bkt, NULL);
}

/*
 * Link he, whose hash is hash, into the locked bucket bkt, whose overflow
 * word is w: an empty slot, else the head of the overflow chain.
 */
static inline void
rht_bucket_add(struct rte_rhash_head **bkt, struct rte_rhash_head *w, struct rte_rhash_head *he,
	       uint64_t hash)
{
	int s = rht_slot_free(bkt);

	if (likely(s >= 0))
		rht_slot_store(bkt, (uint32_t)s, __rte_rht_slot_word(he, hash));
	else
		rht_chain_push(bkt, w, he, hash);
}

/*
 * The link that points to he in the locked chain of bucket bkt, or NULL.
 * acquire: as the readers' loads (the lock orders them already).
 */
static inline struct rte_rhash_head **
rht_chain_find_link(struct rte_rhash_head **bkt, const struct rte_rhash_head *he)
{
	struct rte_rhash_head **pprev = bkt;
	struct rte_rhash_head *p;

	for (;;) {
		p = __rte_rht_ptr(rte_atomic_load_explicit(pprev, rte_memory_order_acquire));
		if (__rte_rht_is_nulls(p))
			return NULL;
		if (p == he)
			return pprev;
		pprev = &p->next;
	}
}

/*
 * In the locked chain of bucket bkt, make the link pprev point to p, keeping
 * the bucket word's summary and length. release: pairs with the readers'
 * acquire loads of links, so whoever sees p sees it initialised.
 */
static inline void
rht_link_replace(struct rte_rhash_head **bkt, struct rte_rhash_head **pprev,
		 struct rte_rhash_head *p)
{
	struct rte_rhash_head *w;

	if (pprev == bkt) {
		/* relaxed: under the lock, the word is the last holder's */
		w = rte_atomic_load_explicit(bkt, rte_memory_order_relaxed);
		rht_bucket_store(bkt, __rte_rht_bucket_word(p, __rte_rht_bucket_summary(w),
							    __rte_rht_bucket_len(w)));
		return;
	}
	/* a link inside an object carries no summary */
	rte_atomic_store_explicit(pprev, p, rte_memory_order_release);
}

/* Objects must sit below 2^48, 8-byte aligned, for bucket words to carry
 * a summary and a length.
 */
static inline bool
rht_addr_taggable(const void *p)
{
	return ((uintptr_t)p & ~__RTE_RHT_PTR_MASK) == 0 && ((uintptr_t)p & 7) == 0;
}

/*
 * Fetch the line at p to be written: on x86, PREFETCHW, which asks for the
 * line in a state that a store (or the locked instruction that takes a
 * bucket lock) can change at once, where a read prefetch may bring a line
 * that readers on other lcores share and that the write then has to fetch
 * again. DPDK's rte_prefetch0_write() emits it only when the target has
 * the PRFCHW feature, which DPDK's baseline -march=corei7 lacks;
 * processors without the feature execute it as a no-op.
 */
static __rte_always_inline void
rht_prefetch_write(const void *p)
{
#ifdef RTE_ARCH_X86_64
	/* an address in a register, not a memory operand: a prefetch never
	 * faults, and the address may be no object's (see prefetch_linked())
	 */
	__asm__ volatile("prefetchw (%0)" : : "r"(p));
#else
	rte_prefetch0_write(p);
#endif
}

/*
 * Take and release a bucket's lock: bit 48 of its word (see
 * rte_rhashtable_core.h), which readers ignore. In the word, the lock
 * costs no line of its own: the bucket's line is the one a writer or the
 * worker changes anyway, and lines of a lock array would pass between the
 * lcores of the writers and the worker at nearly every lock they take
 * (two writers on random buckets of a shared 64-line array each find most
 * lines last written by the other). Taking: an atomic or (acquire) that
 * finds the bit clear, read-only spinning between tries.
 */
static inline void
rht_lock(struct rte_rhash_head **bkt)
{
	rht_word_t *w = rht_word(bkt);

	while (rte_atomic_fetch_or_explicit(w, __RTE_RHT_LOCK_BIT, rte_memory_order_acquire) &
	       __RTE_RHT_LOCK_BIT)
		while (rte_atomic_load_explicit(w, rte_memory_order_relaxed) & __RTE_RHT_LOCK_BIT)
			rte_pause();
}

/*
 * Releasing: a plain store of the word without the bit, as only the holder
 * changes a held word (a waiter's atomic or sets a bit already set).
 * release: the critical section's stores come first.
 */
static inline void
rht_unlock(struct rte_rhash_head **bkt)
{
	rht_word_t *w = rht_word(bkt);

	rte_atomic_store_explicit(w, rte_atomic_load_explicit(w, rte_memory_order_relaxed) &
				  ~__RTE_RHT_LOCK_BIT, rte_memory_order_release);
}

/*
 * The lock of bucket bkt, as writers and the worker take it. A
 * single-writer table has one thread that writes and runs the worker, in
 * turn: nothing changes a chain beside it, so it takes no lock (as
 * rte_hash's single writer takes none). Readers never take one either way.
 */
static inline void
rht_bucket_lock_take(const struct rte_rhashtable *ht, struct rte_rhash_head **bkt)
{
	if (!ht->single_writer)
		rht_lock(bkt);
}

static inline void
rht_bucket_lock_drop(const struct rte_rhashtable *ht, struct rte_rhash_head **bkt)
{
	if (!ht->single_writer)
		rht_unlock(bkt);
}

static inline void *
rht_obj(const struct rte_rhashtable *ht, const struct rte_rhash_head *he)
{
	return (char *)(uintptr_t)he - ht->core.head_offset;
}

static inline const void *
rht_obj_key(const struct rte_rhashtable *ht, const void *obj)
{
	return (const char *)obj + ht->core.key_offset;
}

/*
 * The key lengths that lookups are specialised for, the one list of them:
 * call(len, true), len the constant equal to key_len when key_len is one of
 * them, else call(0, false). A table with the default hash and compare and
 * one of these key lengths has it in core.fast_key_len, which
 * rhashtable_lookup.c dispatches on (the compiler makes a switch of it).
 */
#define RHT_FAST_KEY_LEN_SELECT(key_len, call) \
	((key_len) == 4 ? call(4, true) : (key_len) == 8 ? call(8, true) : \
	 (key_len) == 13 ? call(13, true) : (key_len) == 16 ? call(16, true) : \
	 (key_len) == 32 ? call(32, true) : (key_len) == 40 ? call(40, true) : \
	 (key_len) == 64 ? call(64, true) : call(0, false))

#define RHT_FAST(len, fast) (fast)
static inline bool
rht_key_len_fast(uint32_t key_len)
{
	return RHT_FAST_KEY_LEN_SELECT(key_len, RHT_FAST);
}
#undef RHT_FAST

/*
 * The same lengths as a dense index, 0 for a table without one: the
 * out-of-line lookups' index in their table of functions (ht->lookup_kind,
 * rhashtable_lookup.c). An index, not a function pointer in the table
 * object: a secondary process maps the library at another address.
 */
enum rht_lookup_kind {
	RHT_KIND_0, RHT_KIND_4, RHT_KIND_8, RHT_KIND_13, RHT_KIND_16, RHT_KIND_32,
	RHT_KIND_40, RHT_KIND_64, RHT_KIND_COUNT
};

#define RHT_KIND(len, fast) RHT_KIND_##len
static inline uint8_t
rht_lookup_kind(uint32_t fast_key_len)
{
	return RHT_FAST_KEY_LEN_SELECT(fast_key_len, RHT_KIND);
}
#undef RHT_KIND

/*
 * Full hash of a key in a bucket table: the low 32 bits pick the bucket,
 * the top 16 the slot tag (__rte_rht_tag()), the top 8 the overflow
 * summary's Bloom bits. A user hash gives 32 bits only, in both halves:
 * its top bits then feed the tag and the summary.
 */
static __rte_always_inline uint64_t
rht_key_hash(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void *key)
{
	uint32_t h;

	if (ht->hashfn == NULL)
		return __rte_rht_table_hash(tbl, key, ht->core.key_len);
	h = ht->hashfn(key, ht->core.key_len, tbl->seed);
	return ((uint64_t)h << 32) | h;
}

static inline uint64_t
rht_obj_hash(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void *obj)
{
	uint32_t h;

	if (ht->obj_hashfn == NULL)
		return rht_key_hash(ht, tbl, rht_obj_key(ht, obj));
	h = ht->obj_hashfn(obj, ht->core.key_len, tbl->seed);
	return ((uint64_t)h << 32) | h;
}

static inline uint32_t
rht_hash_idx(const struct __rte_rht_table *tbl, uint64_t hash)
{
	return (uint32_t)hash & tbl->mask;
}

/* 0 when obj has this key. */
static inline int
rht_key_cmp(const struct rte_rhashtable *ht, const void *key, const void *obj)
{
	if (ht->obj_cmpfn != NULL)
		return ht->obj_cmpfn(key, obj);
	return memcmp(key, rht_obj_key(ht, obj), ht->core.key_len);
}

/* The newest table of the chain, where inserts go. */
static inline struct __rte_rht_table *
rht_last_table(struct __rte_rht_table *tbl)
{
	struct __rte_rht_table *next;

	/* acquire: pairs with the release in __rte_rht_table_attach() */
	while ((next = rte_atomic_load_explicit(&tbl->future_tbl,
						rte_memory_order_acquire)) != NULL)
		tbl = next;
	return tbl;
}

/* rhashtable_table.c: bucket table memory */
struct __rte_rht_table *__rte_rht_table_alloc(struct rte_rhashtable *ht, uint32_t size,
					      const struct __rte_rht_table *keep_key_seed);
void __rte_rht_table_free(struct rte_rhashtable *ht, struct __rte_rht_table *tbl);
bool __rte_rht_table_attach(struct rte_rhashtable *ht, struct __rte_rht_table *tbl,
			    struct __rte_rht_table *next, bool emergency);
uint32_t __rte_rht_initial_size(const struct rte_rhashtable_params *p, uint32_t max_size);

/* rte_rhashtable.c: visit every table, under the tailq read lock */
void __rte_rht_foreach_table(void (*fn)(const struct rte_rhashtable *ht, void *arg), void *arg);
/* Call fn on the table of this name under the tailq read lock, so that no
 * rte_rhashtable_free() can free it meanwhile: fn's result, or -ENOENT.
 */
int __rte_rht_with_table(const char *name,
			 int (*fn)(const struct rte_rhashtable *ht, void *arg), void *arg);

/* rhashtable_fence.c: the fences of the writers' entry protocol */
extern bool __rte_rht_fence_asymmetric;
void __rte_rht_heavy_fence(void);

/*
 * The writer's side of the entry protocol's fences: a compiler barrier
 * where the worker's side (__rte_rht_heavy_fence()) is a membarrier() that
 * fences every running thread, a full fence otherwise.
 */
static __rte_always_inline void
rht_light_fence(void)
{
	if (likely(__rte_rht_fence_asymmetric))
		rte_compiler_barrier();
	else
		rte_atomic_thread_fence(rte_memory_order_seq_cst);
}

/*
 * A writer without an lcore id joins the count of the current phase. If
 * the phase flipped meanwhile, the worker may have read that count before
 * our increment: leave it and join the new phase, which the worker does
 * not wait for and need not, since whoever reads the new phase (acquire:
 * pairs with the release flip in rht_writers_drain()) sees the table the
 * worker replaced before the flip.
 */
static inline uint32_t *
rht_anon_writer_enter(struct rte_rhashtable *ht)
{
	uint32_t phase, *count;

	for (;;) {
		phase = rte_atomic_load_explicit(&ht->anon_phase, rte_memory_order_acquire);
		count = &ht->anon_writers[phase & 1];
		rte_atomic_fetch_add_explicit(count, 1, rte_memory_order_relaxed);
		/* as in rht_writer_enter(); pairs with the fence that follows
		 * the flip: either the worker sees our increment, or we see the
		 * new phase
		 */
		rht_light_fence();
		if (rte_atomic_load_explicit(&ht->anon_phase, rte_memory_order_relaxed) == phase)
			return count;
		rte_atomic_fetch_sub_explicit(count, 1, rte_memory_order_relaxed);
	}
}

static inline bool
rht_is_anon_count(const struct rte_rhashtable *ht, const uint32_t *seq)
{
	return seq == &ht->anon_writers[0] || seq == &ht->anon_writers[1];
}

/*
 * Bracket a write call (rhashtable_update.c). Returns the counter to pass
 * to rht_writer_exit(), NULL when nested in another write call.
 */
static inline uint32_t *
rht_writer_enter(struct rte_rhashtable *ht)
{
	unsigned int id = rte_lcore_id();
	uint32_t *seq;

	if (likely(id < RTE_MAX_LCORE)) {
		seq = &ht->writers[id].seq;
		if (unlikely(*seq & 1))
			return NULL;
		rte_atomic_store_explicit(seq, *seq + 1, rte_memory_order_relaxed);
	} else {
		return rht_anon_writer_enter(ht);
	}
	/* our mark is visible before we read ht->core.tbl. Pairs with the
	 * fence in rht_writers_drain(): either the worker sees us marked, or
	 * we see the first table it has already replaced.
	 */
	rht_light_fence();
	return seq;
}

/*
 * The counter of the lcore that rht_writer_enter() returned seq for: NULL
 * for a thread without an lcore id; for a nested call (seq NULL), that of
 * the calling lcore.
 */
static inline struct rht_writer *
rht_writer_of(struct rte_rhashtable *ht, uint32_t *seq)
{
	unsigned int id;

	if (likely(seq != NULL))
		return rht_is_anon_count(ht, seq) ? NULL :
			container_of(seq, struct rht_writer, seq);
	id = rte_lcore_id();
	return id < RTE_MAX_LCORE ? &ht->writers[id] : NULL;
}

static inline void
rht_writer_exit(struct rte_rhashtable *ht, uint32_t *seq)
{
	if (seq == NULL)
		return;
	/* release: our last access to a bucket table happens before the
	 * worker sees the mark gone (its acquire load in rht_writers_drain())
	 */
	if (rht_is_anon_count(ht, seq))
		rte_atomic_fetch_sub_explicit(seq, 1, rte_memory_order_release);
	else
		rte_atomic_store_explicit(seq, *seq + 1, rte_memory_order_release);
}

/* rhashtable_rehash.c: the worker */
int __rte_rht_service_register(struct rte_rhashtable *ht);
void __rte_rht_service_unregister(struct rte_rhashtable *ht);
void __rte_rht_deferred_work_needed(struct rte_rhashtable *ht);
int __rte_rht_emergency_table(struct rte_rhashtable *ht, struct __rte_rht_table *tbl);

/* rhashtable_walk.c */
void __rte_rht_walkers_retire(struct rte_rhashtable *ht, struct __rte_rht_table *tbl);

/* rhashtable_rcu.c: deferred reclamation */
void __rte_rht_retire_table(struct rte_rhashtable *ht, struct __rte_rht_table *tbl);
void __rte_rht_retire_obj(struct rte_rhashtable *ht, void *obj);
void __rte_rht_rcu_reclaim(struct rte_rhashtable *ht);
void __rte_rht_rcu_free(struct rte_rhashtable *ht);
uint32_t __rte_rht_rcu_pending(const struct rte_rhashtable *ht);

/* rhashtable_fault.c: test hook */
void *__rte_rht_malloc(struct rte_rhashtable *ht, const char *what, size_t size);

#endif /* _RHASHTABLE_PVT_H_ */
