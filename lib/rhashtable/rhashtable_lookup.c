/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The read side: lock-free lookups.
 *
 * Why a lookup that races with a rehash never misses a present object:
 * the worker moves an object out of a slot of its old bucket, or from the
 * end of the old bucket's overflow chain, into a slot or the head of the
 * overflow chain of its new bucket, and links it there (release store)
 * before it empties the old slot or unlinks it from the old chain (release
 * store). So an object is always reachable from one bucket of some table
 * of the chain.
 * - A reader that reads the old slot or walks the old chain either sees the
 *   object there, or read a slot or link written at or after its removal;
 *   that removal happened after the new table was attached, so the
 *   reader's load of future_tbl that follows sees the new table, where the
 *   object already is.
 * - A reader standing on a moved chain object follows its next link: into
 *   the new bucket's chain, where a nulls marker that is not its bucket's
 *   ends the walk and it restarts the chain, which is harmless; or, when
 *   the object went into a slot, which leaves its next link as it was, on
 *   to the old chain's end (the moved object was the last).
 * - A reader standing on an object that a writer removed and re-inserted
 *   (allowed at once: see rte_rhashtable_remove()) follows its next link
 *   into the chain it was re-inserted in, possibly of another table at the
 *   same bucket index, while objects behind it in the old chain are still
 *   there. The marker at the end of that chain is the address of its bucket,
 *   which no bucket of another table shares: the reader restarts its own.
 * A restart needs a concurrent change of the chain, so a lookup is
 * lock-free, not wait-free: never blocked by a writer, but a storm of
 * moves (re-seeds) can make it walk its chain again and again.
 *
 * The functions below are written once and inlined with a constant key
 * length for the common key sizes of RHT_FAST_KEY_LEN_SELECT() (as the
 * kernel's _fast variants inline constant parameters): the hash and the
 * compare then compile to a few instructions.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_prefetch.h>

#include "rhashtable_pvt.h"

/*
 * key_len is a constant when fast is true: the table uses the default hash,
 * memcmp semantics and one of the specialised lengths.
 */
static __rte_always_inline uint64_t
hash_k(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void *key,
	uint32_t key_len, bool fast)
{
	if (fast)
		return __rte_rht_table_hash(tbl, key, key_len);
	return rht_key_hash(ht, tbl, key);
}

static __rte_always_inline bool
match_k(const struct rte_rhashtable *ht, const void *key, const struct rte_rhash_head *he,
	uint32_t key_len, bool fast)
{
	const void *obj = rht_obj(ht, he);

	if (fast)
		return __rte_rht_keys_differ(key, rht_obj_key(ht, obj), key_len) == 0;
	return rht_key_cmp(ht, key, obj) == 0;
}

/*
 * The next object of bucket bkt that may hold the key whose hash is hash,
 * for a walk that has the slots of mask *m still to read, then the
 * overflow chain (*in_chain once there): NULL once none is left. After
 * prev (an object of the chain), its next link; a nulls marker that is not
 * this bucket's means a concurrent move or re-insert carried the walk into
 * another chain: the chain is read again from its head. Acquire loads:
 * pair with the release stores that link objects.
 */
static __rte_always_inline struct rte_rhash_head *
bucket_next(struct rte_rhash_head **bkt, uint64_t hash, uint32_t *m, bool *in_chain,
	    const struct rte_rhash_head *prev)
{
	const uint16_t tag = __rte_rht_tag(hash);
	struct rte_rhash_head *w;

	while (*m != 0) {
		w = rte_atomic_load_explicit(&__rte_rht_slots(bkt)[__rte_rht_match_slot(*m)],
					     rte_memory_order_acquire);
		*m &= *m - 1;
		/* an empty slot's tag, 0, is no key's */
		if (__rte_rht_slot_tag(w) == tag)
			return __rte_rht_slot_obj(w);
	}
	if (*in_chain) {
		w = rte_atomic_load_explicit(&prev->next, rte_memory_order_acquire);
		if (likely(!__rte_rht_is_nulls(w)))
			return w;
		if (likely(w == __rte_rht_nulls(bkt)))
			return NULL;
	}
	*in_chain = true;
	w = rte_atomic_load_explicit(bkt, rte_memory_order_acquire);
	if (!__rte_rht_summary_may_hold(w, hash) || __rte_rht_is_nulls(__rte_rht_ptr(w)))
		return NULL;
	return __rte_rht_ptr(w);
}

/*
 * The key in bucket bkt (its hash hash): the slots of its tag, then the
 * overflow chain when the bucket's summary may hold it (bucket_next()).
 * Also the end of a bulk pass for the keys whose first candidate was not
 * theirs: their bucket is in cache, and the candidate already compared is
 * compared again rather than remembered for every key of the burst.
 */
static __rte_always_inline struct rte_rhash_head *
bucket_find(const struct rte_rhashtable *ht, struct rte_rhash_head **bkt, const void *key,
	    uint64_t hash, uint32_t key_len, bool fast)
{
	uint32_t m = __rte_rht_line_match(__rte_rht_slots(bkt), __rte_rht_tag(hash));
	struct rte_rhash_head *he = NULL;
	bool in_chain = false;

	while ((he = bucket_next(bkt, hash, &m, &in_chain, he)) != NULL)
		if (match_k(ht, key, he, key_len, fast))
			return he;
	return NULL;
}

/* The key in its bucket of tbl. */
static __rte_always_inline struct rte_rhash_head *
table_find_hashed(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
		  const void *key, uint64_t hash, uint32_t key_len, bool fast)
{
	return bucket_find(ht, __rte_rht_bucket(tbl, rht_hash_idx(tbl, hash)), key, hash,
			   key_len, fast);
}

static __rte_always_inline struct rte_rhash_head *
table_find(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void *key,
	   uint32_t key_len, bool fast)
{
	return table_find_hashed(ht, tbl, key, hash_k(ht, tbl, key, key_len, fast), key_len,
				 fast);
}

/* Go on in the tables after tbl: a rehash is under way. */
static __rte_always_inline struct rte_rhash_head *
lookup_from(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void *key,
	    uint32_t key_len, bool fast)
{
	struct rte_rhash_head *he = NULL;

	/* acquire: pairs with the release in __rte_rht_table_attach() */
	while (he == NULL &&
	       (tbl = rte_atomic_load_explicit(&tbl->future_tbl,
					       rte_memory_order_acquire)) != NULL)
		he = table_find(ht, tbl, key, key_len, fast);
	return he;
}

/*
 * The table after tbl, or NULL when tbl is not being rehashed; *emptied is
 * then how many of tbl's buckets the worker has emptied for good.
 */
static __rte_always_inline const struct __rte_rht_table *
rehash_progress(const struct __rte_rht_table *tbl, uint32_t *emptied)
{
	/* acquire: pairs with the release in __rte_rht_table_attach() */
	const struct __rte_rht_table *later =
		rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);

	/* acquire: pairs with the worker's release once a bucket is empty:
	 * the objects it moved are linked in a later table
	 */
	*emptied = later != NULL ?
		rte_atomic_load_explicit(&tbl->emptied, rte_memory_order_acquire) : 0;
	return later;
}

/*
 * The table where a key is looked for first: tbl, or later (from
 * rehash_progress()) when the key's bucket of tbl is already emptied. *hash
 * is the key's hash in that table. The tables of a grow or shrink share the
 * hash's first step, which then runs once. With masked, a specialised
 * lookup computes both hashes and chooses the table without a branch: which
 * keys sit below the worker's mark is a coin toss halfway through a rehash,
 * and the mispredictions made the middle of a resize the slowest stretch
 * of bulk lookups. A single lookup is the other way round (measured with
 * resize/rhashtable/single, the choice then made in the inline lookup:
 * worst window / steady 0.55-0.62 masked, 0.67-0.78 with the branch;
 * frozen halfway, 0.55-0.58 and 0.70-0.74): the second hash costs it more
 * than the mispredictions, and it hashes again only the keys that moved,
 * as lookups with a user hash (a call through a pointer) always do.
 */
/*
 * The key's hash in later; mix is its first step when shared (key_table():
 * later keeps the key seed of the table before it).
 */
static __rte_always_inline uint64_t
later_hash(const struct rte_rhashtable *ht, const struct __rte_rht_table *later,
	   const void *key, uint64_t mix, bool shared, uint32_t key_len, bool fast)
{
	if (shared)
		return __rte_rht_hash_final(mix, &later->mix_seeds);
	return hash_k(ht, later, key, key_len, fast);
}

static __rte_always_inline const struct __rte_rht_table *
key_table(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
	  const struct __rte_rht_table *later, uint32_t emptied, const void *key, uint64_t *hash,
	  uint32_t key_len, bool fast, bool masked)
{
	bool shared = fast && later != NULL && later->key_seed == tbl->key_seed;
	uint64_t h, h_later, mix = 0, moved;

	if (shared) {
		mix = __rte_rht_key_mix(key, key_len, &tbl->mix_seeds);
		h = __rte_rht_hash_final(mix, &tbl->mix_seeds);
	} else {
		h = hash_k(ht, tbl, key, key_len, fast);
	}
	*hash = h;
	if (later == NULL)
		return tbl;
	if (!fast || !masked) {
		if (rht_hash_idx(tbl, h) >= emptied)
			return tbl;
		*hash = later_hash(ht, later, key, mix, shared, key_len, fast);
		return later;
	}
	h_later = later_hash(ht, later, key, mix, shared, key_len, fast);
	moved = -(uint64_t)(rht_hash_idx(tbl, h) < emptied);
	*hash = (h_later & moved) | (h & ~moved);
	return (const struct __rte_rht_table *)(((uintptr_t)later & moved) |
						((uintptr_t)tbl & ~moved));
}

/*
 * The whole algorithm for one key: the table where the key is looked for
 * first (key_table()), then the later tables.
 * A key not in its bucket of the first table it tries is in a later one, if
 * anywhere: it was moved on, or a rehash started during the walk.
 */
static __rte_always_inline struct rte_rhash_head *
lookup_k(const struct rte_rhashtable *ht, const void *key, uint32_t key_len, bool fast)
{
	/* acquire: pairs with the release that publishes a new first table */
	const struct __rte_rht_table *tbl = rte_atomic_load_explicit(&ht->core.tbl,
			rte_memory_order_acquire);
	const struct __rte_rht_table *later, *t;
	struct rte_rhash_head *he;
	uint32_t emptied;
	uint64_t hash;

	later = rehash_progress(tbl, &emptied);
	t = key_table(ht, tbl, later, emptied, key, &hash, key_len, fast, false);
	he = table_find_hashed(ht, t, key, hash, key_len, fast);
	if (likely(he != NULL))
		return he;
	return lookup_from(ht, t, key, key_len, fast);
}

/* Two flat tables of a grow or shrink: they share the hash's first step. */
static __rte_always_inline bool
flat_pair(const struct __rte_rht_table *tbl, const struct __rte_rht_table *later)
{
	return !tbl->nested && !later->nested && later->key_seed == tbl->key_seed;
}

/* Bucket idx of a flat table whose lines start at base (__rte_rht_bucket()). */
static __rte_always_inline struct rte_rhash_head **
flat_bucket(struct rte_rhash_head **base, uint32_t idx)
{
	return base + (size_t)idx * __RTE_RHT_LINE_WORDS + __RTE_RHT_SLOTS;
}

/* Where a bulk pass picks tables with a branch: an eighth of the table from either end. */
#define RHT_MARK_EDGE_DIV 8

/*
 * Whether the worker's mark is in the first or last eighth of tbl: the keys
 * of a burst are then nearly all on one side of it (see hash_moving_flat_n()).
 */
static __rte_always_inline bool
mark_near_end(const struct __rte_rht_table *tbl, uint32_t emptied)
{
	uint32_t edge = tbl->size / RHT_MARK_EDGE_DIV;

	return emptied < edge || emptied > tbl->size - edge;
}

/*
 * The first stage of a bulk pass while tbl's objects move to later (both
 * flat_pair()): hash keys 0 to n-1, pick each one's table as key_table()
 * does, store its hash and bucket and prefetch the bucket. What it needs
 * of the tables is loaded once, before the loop: a bulk lookup runs as many
 * instructions as it can keep lookups in flight, and a pass through
 * key_table(), which reloaded the tables' fields at every key and or-ed the
 * keys' tables into a mask on the stack, ran at 0.81x of one at rest with
 * the worker stopped at 99% (resize/rhashtable/bulk32).
 *
 * branchy (a constant) says how a key's table is picked. Near either end
 * of the rehash (mark_near_end()) nearly every key of a burst is on the
 * same side of the worker's mark: a branch that the core predicts, and the
 * later table's hash for the moved keys only. In the middle, where that
 * side is a coin toss: both hashes of every key and two masked selects,
 * which cost less than the mispredictions. Measured with
 * frozen/rhashtable/bulk32 (rate with the rehash held still over the rate
 * at its threshold, 9 runs each, masked -> branchy): 0.89x -> 0.94x at 1%
 * moved, 1.06x -> 1.11x at 99%; at 50%, 0.96x masked, 0.88x branchy.
 */
static __rte_always_inline void
hash_moving_flat_n(const struct __rte_rht_table *tbl, const struct __rte_rht_table *later,
		   uint32_t emptied, const void **keys, uint32_t n, uint64_t *hashes,
		   struct rte_rhash_head ***bkts, uint32_t key_len, bool branchy)
{
	const struct __rte_rht_mix_seeds ms = tbl->mix_seeds, ms_later = later->mix_seeds;
	struct rte_rhash_head **const base = __rte_rht_flat_buckets(tbl);
	struct rte_rhash_head **const base_later = __rte_rht_flat_buckets(later);
	const uint32_t mask = tbl->mask, mask_later = later->mask;
	uint64_t mix, h, h_later, moved;
	uintptr_t bkt, bkt_later;
	uint32_t i;

	for (i = 0; i < n; i++) {
		mix = __rte_rht_key_mix(keys[i], key_len, &ms);
		h = __rte_rht_hash_final(mix, &ms);
		if (branchy && ((uint32_t)h & mask) < emptied) {
			h = __rte_rht_hash_final(mix, &ms_later);
			bkts[i] = flat_bucket(base_later, (uint32_t)h & mask_later);
		} else if (branchy) {
			bkts[i] = flat_bucket(base, (uint32_t)h & mask);
		} else {
			h_later = __rte_rht_hash_final(mix, &ms_later);
			bkt = (uintptr_t)flat_bucket(base, (uint32_t)h & mask);
			bkt_later = (uintptr_t)flat_bucket(base_later,
							   (uint32_t)h_later & mask_later);
			/* all ones when the worker has emptied the key's bucket of tbl */
			moved = -(uint64_t)(((uint32_t)h & mask) < emptied);
			h ^= (h ^ h_later) & moved;
			bkts[i] = (struct rte_rhash_head **)(bkt ^ ((bkt ^ bkt_later) & moved));
		}
		hashes[i] = h;
		rte_prefetch0(bkts[i]);
	}
}

/*
 * The keys of mask whose bucket from hash_moving_flat_n() is in later: asked
 * only for the keys a pass did not find, so that a burst of hits does not
 * pay for it.
 */
static __rte_always_inline uint64_t
in_flat_table(const struct __rte_rht_table *later, struct rte_rhash_head **const *bkts,
	      uint64_t mask)
{
	uintptr_t base = (uintptr_t)__rte_rht_flat_buckets(later);
	uintptr_t last = ((uintptr_t)later->mask + 1) * __RTE_RHT_LINE_WORDS * sizeof(*bkts[0]);
	uint64_t in = 0;
	uint32_t i;

	for (; mask != 0; mask &= mask - 1) {
		i = rte_ctz64(mask);
		in |= (uint64_t)((uintptr_t)bkts[i] - base < last) << i;
	}
	return in;
}

/*
 * A key of a bulk pass that its candidate he did not match: where he heads
 * the overflow chain of bkt, prefetch the object after it, which the third
 * stage (bucket_find()) reads next, so that its miss overlaps the compares
 * of the burst's other keys instead of coming alone after them. Nothing
 * when he is a slot's object (a tag that matched another key's).
 */
static __rte_always_inline void
prefetch_chain_next(struct rte_rhash_head **bkt, struct rte_rhash_head *he, uint32_t head_off)
{
	struct rte_rhash_head *next;

	/* relaxed: only a prefetch hangs on them; bucket_find() reads again */
	if (__rte_rht_ptr(rte_atomic_load_explicit(bkt, rte_memory_order_relaxed)) != he)
		return;
	next = rte_atomic_load_explicit(&he->next, rte_memory_order_relaxed);
	if (!__rte_rht_is_nulls(next))
		rte_prefetch0((char *)next - head_off);
}

/*
 * The buckets of a bulk pass, keys of todo (0 to n-1), whose buckets (bkts,
 * hashes) the pass's first stage found and prefetched. A software pipeline
 * in three stages over the burst, so that the memory accesses of the whole
 * burst overlap: compare each key's tag with the seven of its bucket and
 * prefetch the object of the first match (or, where none matches and the
 * overflow word's summary may hold the key, the chain's head); compare the
 * keys with those objects; then the few keys left (a tag or summary that
 * matched another key, an object further on, a slot emptied since its
 * tag was compared) are looked for again in their buckets, which are in
 * cache (bucket_find()), the object after a chain's head prefetched by
 * the second stage (prefetch_chain_next()). A miss that no tag and no
 * summary matches (nearly all of them) is answered in the first stage, at
 * the cost of one line. The stages keep one candidate a key and two
 * masks, no more: a burst runs as many instructions a key as it can keep
 * lookups in flight.
 * The objects' offsets are loaded once a burst: the loops store to the
 * caller's objs[], which may alias the table, and the compiler would
 * reload them after every store. all (a constant) says that todo is every
 * key from 0 to n-1: the loops then count. Returns the keys found, their
 * objects in objs, NULL in objs for the others of todo.
 */
static __rte_always_inline uint64_t
bulk_buckets_k(const struct rte_rhashtable *ht, const void **keys, uint32_t n, uint64_t todo,
	       struct rte_rhash_head **const bkts[], const uint64_t hashes[], void *objs[],
	       uint32_t key_len, bool fast, bool all)
{
	struct rte_rhash_head *cur[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const uint32_t head_off = ht->core.head_offset, key_off = ht->core.key_offset;
	uint64_t found = 0, compared = 0, slow = 0;
	struct rte_rhash_head **slots, *he, *w;
	uint32_t i, m;
	bool eq;
	char *o;

	for (i = 0; i < n; i++) {
		if (!all && ((todo >> i) & 1) == 0)
			continue;
		slots = __rte_rht_slots(bkts[i]);
		m = __rte_rht_line_match(slots, __rte_rht_tag(hashes[i]));
		if (likely(m != 0)) {
			/* acquire: pairs with the release store of the slot. A
			 * slot filled again since the compare holds another
			 * candidate, compared as any; one emptied, none: the
			 * key is looked for again after the burst
			 */
			w = rte_atomic_load_explicit(&slots[__rte_rht_match_slot(m)],
						     rte_memory_order_acquire);
			he = __rte_rht_slot_obj(w);
			if (unlikely(he == NULL))
				slow |= UINT64_C(1) << i;
		} else {
			/* acquire: as in bucket_next() */
			w = rte_atomic_load_explicit(bkts[i], rte_memory_order_acquire);
			he = __rte_rht_ptr(w);
			if (!__rte_rht_summary_may_hold(w, hashes[i]) || __rte_rht_is_nulls(he))
				he = NULL;
		}
		cur[i] = he;
		if (he != NULL) {
			rte_prefetch0((char *)he - head_off);
			compared |= UINT64_C(1) << i;
		}
	}
	for (i = 0; i < n; i++) {
		if (!all && ((todo >> i) & 1) == 0)
			continue;
		he = cur[i];
		if (he == NULL) {
			objs[i] = NULL;
			continue;
		}
		o = (char *)he - head_off;
		if (fast)
			eq = __rte_rht_keys_differ(keys[i], (const uint8_t *)o + key_off,
						   key_len) == 0;
		else
			eq = match_k(ht, keys[i], he, key_len, fast);
		/* stored as if it held the key: a hit then takes no branch of its own */
		objs[i] = o;
		found |= (uint64_t)eq << i;
		if (unlikely(!eq))
			prefetch_chain_next(bkts[i], he, head_off);
	}
	for (slow |= compared & ~found; slow != 0; slow &= slow - 1) {
		i = rte_ctz64(slow);
		he = bucket_find(ht, bkts[i], keys[i], hashes[i], key_len, fast);
		objs[i] = he == NULL ? NULL : (char *)he - head_off;
		found |= (uint64_t)(he != NULL) << i;
	}
	return found;
}

/*
 * One pass of a bulk lookup over the keys of the todo mask in one bucket
 * table: hash every key and prefetch its bucket, then bulk_buckets_k().
 * Returns the mask of keys found, with their objects in objs.
 *
 * While tbl is being rehashed (resizing), a key whose bucket of tbl the
 * worker has already emptied is looked for in the next table instead, in
 * the same pipeline: late in a rehash most keys are there, and a second
 * pass for them would double the memory round trips. Those keys are
 * returned in in_next.
 */
static __rte_always_inline uint64_t
bulk_pass_k(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl, const void **keys,
	    uint32_t n, uint64_t todo, void *objs[], uint64_t *in_next, uint32_t key_len,
	    bool fast, bool resizing)
{
	struct rte_rhash_head **bkts[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint64_t hashes[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const struct __rte_rht_table *later = NULL, *t;
	uint32_t i, emptied = 0;
	uint64_t m;

	if (resizing)
		later = rehash_progress(tbl, &emptied);
	for (m = todo; m != 0; m &= m - 1) {
		i = rte_ctz64(m);
		t = key_table(ht, tbl, later, emptied, keys[i], &hashes[i], key_len, fast, true);
		if (resizing)
			*in_next |= (uint64_t)(t != tbl) << i;
		bkts[i] = __rte_rht_bucket(t, rht_hash_idx(t, hashes[i]));
		rte_prefetch0(bkts[i]);
	}
	return bulk_buckets_k(ht, keys, n, todo, bkts, hashes, objs, key_len, fast, false);
}

/* The first stage of a specialised first pass over a table at rest, the common case. */
static __rte_always_inline void
hash_rest_n(const struct __rte_rht_table *tbl, const void **keys, uint32_t n, uint64_t *hashes,
	    struct rte_rhash_head ***bkts, uint32_t key_len)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		hashes[i] = __rte_rht_table_hash(tbl, keys[i], key_len);
		bkts[i] = __rte_rht_bucket(tbl, rht_hash_idx(tbl, hashes[i]));
		rte_prefetch0(bkts[i]);
	}
}

/*
 * The first pass of a specialised bulk lookup, keys 0 to n-1 (todo), in
 * the common cases: a table at rest, or a grow or shrink between flat
 * tables of the same key seed, whose keys are hashed as bulk_pass_k()
 * picks their tables. Their buckets are then read by the same code
 * (bulk_buckets_k()), inlined once instead of once for each case. Returns
 * false when the tables are of another kind (nested, a re-seed), which
 * bulk_pass_k() looks up; else the keys found in *found and, during a
 * rehash, those not found whose bucket is in the later table in *in_next.
 */
static __rte_always_inline bool
bulk_first_pass_k(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
		  const void **keys, uint32_t n, uint64_t todo, void *objs[], uint64_t *found,
		  uint64_t *in_next, uint32_t key_len)
{
	struct rte_rhash_head **bkts[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint64_t hashes[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const struct __rte_rht_table *later = NULL;
	uint32_t emptied;

	/* relaxed: only picks the code; a key the pass misses is looked for
	 * again after an acquire load of future_tbl
	 */
	if (likely(rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_relaxed) == NULL)) {
		hash_rest_n(tbl, keys, n, hashes, bkts, key_len);
	} else {
		later = rehash_progress(tbl, &emptied);
		if (later == NULL || !flat_pair(tbl, later))
			return false;
		if (mark_near_end(tbl, emptied))
			hash_moving_flat_n(tbl, later, emptied, keys, n, hashes, bkts, key_len,
					   true);
		else
			hash_moving_flat_n(tbl, later, emptied, keys, n, hashes, bkts, key_len,
					   false);
	}
	*found = bulk_buckets_k(ht, keys, n, todo, bkts, hashes, objs, key_len, true, true);
	if (later != NULL && *found != todo)
		*in_next = in_flat_table(later, bkts, todo & ~*found);
	return true;
}

/*
 * Bulk lookup: a pipelined pass over the first bucket table, then, while a
 * rehash is under way, another pass over the next table for the keys not
 * found yet and not already looked for there, so that lookups keep their
 * memory parallelism during a resize.
 */
static __rte_always_inline int
lookup_bulk_k(const struct rte_rhashtable *ht, const void **keys, uint32_t n,
	      uint64_t *hit_mask, void *objs[], uint32_t key_len, bool fast)
{
	/* acquire: pairs with the release that publishes a new first table */
	const struct __rte_rht_table *tbl = rte_atomic_load_explicit(&ht->core.tbl,
			rte_memory_order_acquire);
	uint64_t todo = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
	uint64_t hits = 0, probed = 0, in_next, m;

	if (fast && bulk_first_pass_k(ht, tbl, keys, n, todo, objs, &hits, &probed, key_len)) {
		if (likely(hits == todo))
			goto done;
		/* acquire: pairs with the release in __rte_rht_table_attach() */
		tbl = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
		if (likely(tbl == NULL))
			goto done;
	}
	for (;;) {
		in_next = 0;
		/* relaxed: only picks the code; the pass reloads with acquire */
		if (likely(rte_atomic_load_explicit(&tbl->future_tbl,
						    rte_memory_order_relaxed) == NULL))
			hits |= bulk_pass_k(ht, tbl, keys, n, todo & ~hits & ~probed, objs,
					    &in_next, key_len, fast, false);
		else
			hits |= bulk_pass_k(ht, tbl, keys, n, todo & ~hits & ~probed, objs,
					    &in_next, key_len, fast, true);
		if (likely(hits == todo))
			break;
		/* after the walks of tbl: a key moved out of it is in a later
		 * table. acquire: pairs with the release in __rte_rht_table_attach()
		 */
		tbl = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
		if (likely(tbl == NULL))
			break;
		probed = in_next;
	}
	for (m = todo & ~hits; m != 0; m &= m - 1)
		objs[rte_ctz64(m)] = NULL;
done:
	if (hit_mask != NULL)
		*hit_mask = hits;
	return rte_popcount64(hits);
}

/*
 * Stage depth of a bulk lookup, for a caller that pipelines its bursts:
 * depth 0 prefetches the bucket of each key; depth d > 0 reads the bucket
 * and steps through the objects that may hold the key (bucket_next(): the
 * slots of its tag, then the overflow chain) as a bulk lookup does, the
 * first d-1 of them prefetched by the earlier stages, stops at the key's
 * object, and prefetches the d-th. A prefetch never faults and the stage
 * returns nothing, so the caller may pass quiescent states between the
 * stages: a concurrent change only makes a prefetch useless.
 */
static __rte_always_inline void
prefetch_k(const struct rte_rhashtable *ht, const void **keys, uint32_t n, uint32_t depth,
	   uint32_t key_len, bool fast)
{
	/* acquire: pairs with the release that publishes a new first table */
	const struct __rte_rht_table *tbl = rte_atomic_load_explicit(&ht->core.tbl,
							       rte_memory_order_acquire);
	const struct __rte_rht_table *t, *later;
	struct rte_rhash_head **bkt, *he;
	uint32_t i, d, emptied, m;
	uint64_t hash;
	bool in_chain;

	later = rehash_progress(tbl, &emptied);
	for (i = 0; i < n; i++) {
		t = key_table(ht, tbl, later, emptied, keys[i], &hash, key_len, fast, true);
		bkt = __rte_rht_bucket(t, rht_hash_idx(t, hash));
		if (depth == 0) {
			rte_prefetch0(bkt);
			continue;
		}
		m = __rte_rht_line_match(__rte_rht_slots(bkt), __rte_rht_tag(hash));
		in_chain = false;
		he = NULL;
		for (d = 0; d < depth; d++) {
			if (d > 0 && match_k(ht, keys[i], he, key_len, fast))
				break;
			he = bucket_next(bkt, hash, &m, &in_chain, he);
			if (he == NULL)
				break;
		}
		if (he != NULL && d == depth)
			rte_prefetch0(rht_obj(ht, he));
	}
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_prefetch_bulk, 26.03)
int
rte_rhashtable_prefetch_bulk(const struct rte_rhashtable *ht, const void **keys,
			     uint32_t num_keys, uint32_t depth)
{
	if (unlikely(ht == NULL || keys == NULL || num_keys > RTE_RHASHTABLE_LOOKUP_BULK_MAX ||
		     depth > RTE_RHASHTABLE_PREFETCH_DEPTH_MAX)) {
		RHT_LOG(ERR, "bad argument (num_keys %u, at most %u; depth %u, at most %u)",
			num_keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, depth,
			RTE_RHASHTABLE_PREFETCH_DEPTH_MAX);
		return -EINVAL;
	}
#define PREFETCH(len, fast) prefetch_k(ht, keys, num_keys, depth, len, fast)
	RHT_FAST_KEY_LEN_SELECT(ht->core.fast_key_len, PREFETCH);
#undef PREFETCH
	return 0;
}

/*
 * The common case of a specialised lookup (__rte_rht_lookup_common(), which
 * rte_rhashtable_lookup_fast() inlines too); *slow when the answer needs
 * lookup_full_<len>(): a key not found while a rehash is under way, a
 * re-seed, a concurrent move that carried the walk into another chain, or a
 * table without a specialised length.
 */
static __rte_always_inline struct rte_rhash_head *
lookup_common_k(const struct rte_rhashtable *ht, const void *key, uint32_t key_len, bool fast,
		bool *slow)
{
	if (!fast) {
		*slow = true;
		return NULL;
	}
	return __rte_rht_lookup_common(&ht->core, key, key_len, slow);
}

typedef void *(*lookup_obj_t)(const struct rte_rhashtable *ht, const void *key);

/*
 * The object of key, or NULL: the few instructions of the common case for
 * one key length, the whole algorithm (full, out of line and reached by a
 * tail call, so that the common case saves no register) only when that
 * case cannot answer.
 */
static __rte_always_inline void *
lookup_obj_k(const struct rte_rhashtable *ht, const void *key, uint32_t key_len, bool fast,
	     lookup_obj_t full)
{
	struct rte_rhash_head *he;
	bool slow = false;

	he = lookup_common_k(ht, key, key_len, fast, &slow);
	if (unlikely(slow))
		return full(ht, key);
	return he == NULL ? NULL : rht_obj(ht, he);
}

/*
 * Two functions for each key length, each with only the registers it
 * needs: the whole algorithm, restarts and rehashes included, and the
 * lookup that tries the common case first.
 */
#define LOOKUP_OBJ_DEFINE(len, fast) \
static __rte_noinline void * \
lookup_full_##len(const struct rte_rhashtable *ht, const void *key) \
{ \
	struct rte_rhash_head *he = lookup_k(ht, key, len, fast); \
\
	return he == NULL ? NULL : rht_obj(ht, he); \
} \
static __rte_noinline void * \
lookup_obj_##len(const struct rte_rhashtable *ht, const void *key) \
{ \
	return lookup_obj_k(ht, key, len, fast, lookup_full_##len); \
}
LOOKUP_OBJ_DEFINE(4, true)
LOOKUP_OBJ_DEFINE(8, true)
LOOKUP_OBJ_DEFINE(13, true)
LOOKUP_OBJ_DEFINE(16, true)
LOOKUP_OBJ_DEFINE(32, true)
LOOKUP_OBJ_DEFINE(40, true)
LOOKUP_OBJ_DEFINE(64, true)
LOOKUP_OBJ_DEFINE(0, false)
#undef LOOKUP_OBJ_DEFINE

static const lookup_obj_t lookup_objs[] = {
	[RHT_KIND_0] = lookup_obj_0,
	[RHT_KIND_4] = lookup_obj_4,
	[RHT_KIND_8] = lookup_obj_8,
	[RHT_KIND_13] = lookup_obj_13,
	[RHT_KIND_16] = lookup_obj_16,
	[RHT_KIND_32] = lookup_obj_32,
	[RHT_KIND_40] = lookup_obj_40,
	[RHT_KIND_64] = lookup_obj_64,
};

/*
 * The exported lookups reach the code of their key length in a tail call.
 * 16-byte keys (IPv4 5-tuples padded, as l3fwd's ipv4_5tuple_host) are
 * tested first: a compare and a direct jump. The other lengths go through
 * the table: an indirect jump. Measured with single_call at 16Mi entries
 * (devtools/run-bench.sh): the indirect jump, or a chain of compares and
 * a second call level as before, cost a tenth of the lookups.
 */
static __rte_always_inline void *
lookup_obj(const struct rte_rhashtable *ht, const void *key)
{
	RTE_BUILD_BUG_ON(RTE_DIM(lookup_objs) != RHT_KIND_COUNT);
	if (likely(ht->lookup_kind == RHT_KIND_16))
		return lookup_obj_16(ht, key);
	return lookup_objs[ht->lookup_kind](ht, key);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_lookup, 26.03)
void *
rte_rhashtable_lookup(const struct rte_rhashtable *ht, const void *key)
{
	if (unlikely(ht == NULL || key == NULL)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return lookup_obj(ht, key);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_lookup, 26.03)
struct rte_rhlist_head *
rte_rhltable_lookup(const struct rte_rhltable *hlt, const void *key)
{
	char *obj;

	if (unlikely(hlt == NULL || key == NULL)) {
		rte_errno = EINVAL;
		return NULL;
	}
	obj = lookup_obj(&hlt->ht, key);
	return obj == NULL ? NULL : (struct rte_rhlist_head *)(obj + hlt->ht.core.head_offset);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_lookup_bulk, 26.03)
int
rte_rhashtable_lookup_bulk(const struct rte_rhashtable *ht, const void **keys,
			   uint32_t num_keys, uint64_t *hit_mask, void *objs[])
{
	if (unlikely(ht == NULL || keys == NULL || objs == NULL || num_keys == 0 ||
		     num_keys > RTE_RHASHTABLE_LOOKUP_BULK_MAX)) {
		RHT_LOG(ERR, "bad argument (num_keys %u, at most %u)", num_keys,
			RTE_RHASHTABLE_LOOKUP_BULK_MAX);
		return -EINVAL;
	}
#define LOOKUP_BULK(len, fast) lookup_bulk_k(ht, keys, num_keys, hit_mask, objs, len, fast)
	return RHT_FAST_KEY_LEN_SELECT(ht->core.fast_key_len, LOOKUP_BULK);
#undef LOOKUP_BULK
}
