/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The write side: insert, remove, replace. Writers take one bucket lock at a
 * time, in each bucket table of the chain in turn: an object only ever moves
 * from an older table to a newer one, under the lock of its old bucket, and
 * is in its new bucket before that lock is released, so a writer that looks
 * at the tables in order under their locks finds it. Inserts go to the
 * newest table only. The worker links the objects it moves under the
 * locks of their new buckets too: every slot and overflow word changes
 * under its bucket's lock.
 */

#include <errno.h>

#include <rte_prefetch.h>

#include "rhashtable_count.h"
#include "rhashtable_pvt.h"

/* modes of rht_insert() */
#define RHT_INSERT_ANY 0     /* do not look for the key */
#define RHT_INSERT_UNIQUE 1  /* -EEXIST when the key is present */
#define RHT_INSERT_LIST 2    /* rhltable: join the key's list */

static void rht_bucket_reseal(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
			      struct rte_rhash_head **bkt);
static int rht_rhl_remove(struct rte_rhashtable *ht, struct rte_rhlist_head *list);

/* Outcome of looking at one bucket of one table during an insert. */
struct rht_insert_ctx {
	struct rte_rhash_head *obj;
	uint64_t hash;          /* of obj in the table looked at */
	const void *key;
	int mode;
	void **existing;
	struct __rte_rht_table *full_tbl; /* set with -EAGAIN: grow or re-seed it */
	struct rht_writer *writer;        /* the lcore's counter; NULL: none */
	struct rte_rhash_head *word;      /* the bucket word bucket_scan() saw */
	const struct __rte_rht_table *ahead; /* table of insert_prefetch(), or NULL */
	uint64_t ahead_hash;              /* hash of obj in ahead */
};

/*
 * rhltable: obj becomes the chain entry of the key's list, in place of head,
 * which the link pprev of bucket bkt points to.
 */
static void
rhl_push(struct rte_rhash_head **bkt, struct rte_rhash_head **pprev,
	 struct rte_rhash_head *head, struct rte_rhash_head *obj)
{
	struct rte_rhlist_head *list = (struct rte_rhlist_head *)obj;

	list->next = (struct rte_rhlist_head *)head;
	/* release: a reader may stand on obj if it was removed and is
	 * re-inserted at once (see bucket_link())
	 */
	rte_atomic_store_explicit(&list->rhead.next, head->next, rte_memory_order_release);
	/* same key: the bucket summary already holds its bits */
	rht_link_replace(bkt, pprev, obj);
}

/*
 * rhltable: obj becomes the entry of the key's list in slot s of bucket
 * bkt, in place of head, whose slot word is word (the tag stays: same key).
 */
static void
rhl_push_slot(struct rte_rhash_head **bkt, uint32_t s, struct rte_rhash_head *word,
	      struct rte_rhash_head *head, struct rte_rhash_head *obj)
{
	((struct rte_rhlist_head *)obj)->next = (struct rte_rhlist_head *)head;
	rht_slot_replace(bkt, s, word, obj);
}

/*
 * Look for the key among the slots of one locked bucket whose tag is the
 * key's. Returns 1 when the insert is done (rhltable joined a list),
 * -EEXIST, or 0.
 */
static int
slots_scan(struct rte_rhashtable *ht, struct rte_rhash_head **bkt, struct rht_insert_ctx *c)
{
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	const uint16_t tag = __rte_rht_tag(c->hash);
	struct rte_rhash_head *w, *p;
	uint32_t m, s;

	for (m = __rte_rht_line_match(slots, tag); m != 0; m &= m - 1) {
		s = __rte_rht_match_slot(m);
		/* relaxed: only the lock holder changes the slots */
		w = rte_atomic_load_explicit(&slots[s], rte_memory_order_relaxed);
		p = __rte_rht_slot_obj(w);
		if (__rte_rht_slot_tag(w) != tag || rht_key_cmp(ht, c->key, rht_obj(ht, p)) != 0)
			continue;
		if (c->mode == RHT_INSERT_UNIQUE) {
			if (c->existing != NULL)
				*c->existing = rht_obj(ht, p);
			return -EEXIST;
		}
		rhl_push_slot(bkt, s, w, p, c->obj);
		return 1;
	}
	return 0;
}

/*
 * Look for the key in one locked bucket: its slots, then its overflow
 * chain. Returns 1 when the insert is done (rhltable joined a list),
 * -EEXIST, or 0 with *len the chain's length. The overflow word's summary
 * and length spare the walk most of the time: then no object of the chain
 * is touched.
 */
static int
bucket_scan(struct rte_rhashtable *ht, struct rte_rhash_head **bkt, struct rht_insert_ctx *c,
	    uint32_t *len)
{
	/* acquire: as the readers' loads (the lock orders them already) */
	struct rte_rhash_head *w = rte_atomic_load_explicit(bkt, rte_memory_order_acquire);
	bool look = c->mode != RHT_INSERT_ANY && __rte_rht_summary_may_hold(w, c->hash);
	struct rte_rhash_head **pprev;
	struct rte_rhash_head *p;
	int ret;

	c->word = w;
	*len = __rte_rht_bucket_len(w);
	if (c->mode != RHT_INSERT_ANY) {
		ret = slots_scan(ht, bkt, c);
		if (ret != 0)
			return ret;
	}
	if (!look && *len < __RTE_RHT_LEN_MAX)
		return 0;
	*len = 0;
	for (pprev = bkt, p = __rte_rht_ptr(w); !__rte_rht_is_nulls(p);
	     pprev = &p->next, p = __rte_rht_ptr(*pprev)) {
		(*len)++;
		if (!look || rht_key_cmp(ht, c->key, rht_obj(ht, p)) != 0)
			continue;
		if (c->mode == RHT_INSERT_UNIQUE) {
			if (c->existing != NULL)
				*c->existing = rht_obj(ht, p);
			return -EEXIST;
		}
		rhl_push(bkt, pprev, p, c->obj);
		return 1;
	}
	return 0;
}

/*
 * Link obj into a locked bucket of the newest table: a free slot, else the
 * head of the overflow chain, which may hold RTE_RHT_MAX_CHAIN_LEN objects.
 */
static int
bucket_link(struct rte_rhashtable *ht, struct __rte_rht_table *tbl, struct rte_rhash_head **bkt,
	    struct rht_insert_ctx *c, uint32_t len)
{
	if (rht_grow_above_pct(ht, tbl, 100) ||
	    (len >= RTE_RHT_MAX_CHAIN_LEN && rht_slot_free(bkt) < 0)) {
		c->full_tbl = tbl;
		return -EAGAIN;
	}
	if (rht_nelems_reserve(ht, c->writer) != 0)
		return -E2BIG;
	if (ht->rhlist)
		((struct rte_rhlist_head *)c->obj)->next = NULL;
	/* the word the scan saw: the lock has been held since */
	rht_bucket_add(bkt, c->word, c->obj, c->hash);
	return 0;
}

/*
 * Whether the key cannot be in bucket idx (bkt) of a table the worker has
 * started to empty (emptied, non-zero, is its published progress), without
 * taking the bucket's lock:
 * - the worker emptied the bucket for good; or
 * - the key is looked for (not an rhltable list join), no slot has its
 *   tag and the overflow word's summary rules it out. Once the worker has
 *   published progress, it has waited for every writer that could still
 *   insert into that table
 *   (rht_writers_drain()), so objects only leave the bucket, and the worker
 *   links an object into the newest table before it unlinks it here: an
 *   object of this key that the acquire load below does not see is in a
 *   later table already, where the insert looks under that bucket's lock.
 * Skipping the lock matters with the worker on another lcore: a locked
 * instruction on a bucket it empties pulls the line away from it.
 */
static inline bool
old_bucket_rules_out(struct rte_rhash_head **bkt, const struct rht_insert_ctx *c, uint32_t idx,
		     uint64_t hash, uint32_t emptied)
{
	if (idx < emptied)
		return true;
	/* acquire: pairs with the release stores that unlink moved objects */
	return c->mode == RHT_INSERT_UNIQUE &&
	       __rte_rht_line_match(__rte_rht_slots(bkt), __rte_rht_tag(hash)) == 0 &&
	       !__rte_rht_summary_may_hold(rte_atomic_load_explicit(bkt, rte_memory_order_acquire),
					 hash);
}

/*
 * Hash obj for bucket table tbl, where it is to be linked, and fetch its
 * bucket (and lock) ahead of the insert: the misses of the buckets of a
 * burst then overlap, and during a resize that of the newest table overlaps
 * those of the older ones, which the insert reads first. The bucket lock,
 * a locked instruction, would otherwise wait for each in turn.
 */
static void
insert_prefetch(struct rte_rhashtable *ht, struct rht_insert_ctx *c,
		const struct __rte_rht_table *tbl)
{
	uint32_t idx;

	c->ahead = tbl;
	c->ahead_hash = rht_obj_hash(ht, tbl, rht_obj(ht, c->obj));
	idx = rht_hash_idx(tbl, c->ahead_hash);
	rht_prefetch_write(__rte_rht_bucket(tbl, idx));
}

/* The hash of obj in tbl, which insert_prefetch() may have computed. */
static uint64_t
insert_hash(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
	    const struct rht_insert_ctx *c, const void *obj)
{
	if (tbl == c->ahead)
		return c->ahead_hash;
	return rht_obj_hash(ht, tbl, obj);
}

/* One pass over the chain of tables; -EAGAIN asks for a new table. */
static int
try_insert(struct rte_rhashtable *ht, struct rht_insert_ctx *c)
{
	/* acquire: pairs with the release that publishes a new first table */
	struct __rte_rht_table *first = rte_atomic_load_explicit(&ht->core.tbl,
			rte_memory_order_acquire);
	struct __rte_rht_table *tbl = first;
	const void *obj = rht_obj(ht, c->obj);

	/* without a key check, older tables have nothing to tell */
	if (c->mode == RHT_INSERT_ANY)
		tbl = rht_last_table(tbl);
	for (;;) {
		uint64_t hash = insert_hash(ht, tbl, c, obj);
		uint32_t idx = rht_hash_idx(tbl, hash);
		struct rte_rhash_head **bkt = __rte_rht_bucket(tbl, idx);
		struct __rte_rht_table *next;
		uint32_t len, emptied;
		int ret;

		/* acquire: pairs with the worker's release */
		emptied = rte_atomic_load_explicit(&tbl->emptied, rte_memory_order_acquire);
		if (emptied != 0 && old_bucket_rules_out(bkt, c, idx, hash, emptied)) {
			/* acquire: pairs with __rte_rht_table_attach() */
			next = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
			if (likely(next != NULL)) {
				tbl = next;
				continue;
			}
		}
		c->hash = hash;
		rht_bucket_lock_take(ht, bkt);
		ret = bucket_scan(ht, bkt, c, &len);
		/* acquire: pairs with __rte_rht_table_attach(); read under the bucket lock
		 * so that the worker cannot have emptied this bucket yet.
		 */
		next = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
		if (ret == 0 && next == NULL)
			ret = bucket_link(ht, tbl, bkt, c, len);
		rht_bucket_lock_drop(ht, bkt);
		if (ret != 0 || next == NULL)
			return ret < 0 ? ret : 0;
		tbl = next;
	}
}

static void
count_refusal(struct rte_rhashtable *ht, int ret)
{
	switch (ret) {
	case -EEXIST:
		RHT_COUNT(ht, refused_eexist);
		break;
	case -ENOMEM:
		RHT_COUNT(ht, refused_enomem);
		break;
	case -EBUSY:
		RHT_COUNT(ht, refused_ebusy);
		break;
	case -E2BIG:
		RHT_COUNT(ht, refused_e2big);
		break;
	}
}

/* -EINVAL, with a log line, when obj cannot go into ht in this mode. */
static int
insert_check(const struct rte_rhashtable *ht, const struct rte_rhash_head *obj, int mode)
{
	if (unlikely(obj == NULL)) {
		RHT_LOG(ERR, "%s: NULL object", ht->name);
		return -EINVAL;
	}
	if (unlikely(ht->rhlist != (mode == RHT_INSERT_LIST))) {
		RHT_LOG(ERR, "%s: %s", ht->name, ht->rhlist ?
			"an rhltable takes rte_rhltable_insert() only" :
			"rte_rhltable_insert() on a table that is not an rhltable");
		return -EINVAL;
	}
	if (unlikely(!rht_addr_taggable(obj))) {
		RHT_LOG(ERR, "%s: object head %p not 8-byte aligned or above 2^48", ht->name,
			obj);
		return -EINVAL;
	}
	return 0;
}

/* Insert c->obj, within a write section of the calling lcore (c->writer). */
static int
insert_in_section(struct rte_rhashtable *ht, struct rht_insert_ctx *c)
{
	int ret;

	c->key = rht_obj_key(ht, rht_obj(ht, c->obj));
	while ((ret = try_insert(ht, c)) == -EAGAIN) {
		ret = __rte_rht_emergency_table(ht, c->full_tbl);
		if (ret != 0)
			break;
	}
	if (likely(ret == 0))
		__rte_rht_deferred_work_needed(ht);
	return ret;
}

/* Count the outcome of an insert. */
static int
insert_done(struct rte_rhashtable *ht, int ret)
{
	if (unlikely(ret != 0)) {
		count_refusal(ht, ret);
		return ret;
	}
	if (ht->rhlist)
		rte_atomic_fetch_add_explicit(&ht->nobjs, 1, rte_memory_order_relaxed);
	return 0;
}

static int
rht_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj, int mode, void **existing)
{
	struct rht_insert_ctx c = {
		.obj = obj, .mode = mode, .existing = existing,
	};
	struct __rte_rht_table *first, *last;
	uint32_t *seq;
	int ret;

	if (unlikely(ht == NULL)) {
		RHT_LOG(ERR, "NULL table");
		return -EINVAL;
	}
	ret = insert_check(ht, obj, mode);
	if (unlikely(ret != 0))
		return ret;
	seq = rht_writer_enter(ht);
	c.writer = rht_writer_of(ht, seq);
	if (mode != RHT_INSERT_ANY) {
		/* acquire: pairs with the release that publishes a new first table */
		first = rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire);
		last = rht_last_table(first);
		/* during a resize: the older tables are read first */
		if (last != first)
			insert_prefetch(ht, &c, last);
	}
	ret = insert_in_section(ht, &c);
	rht_writer_exit(ht, seq);
	return insert_done(ht, ret);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_insert, 26.03)
int
rte_rhashtable_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj)
{
	return rht_insert(ht, obj, RHT_INSERT_ANY, NULL);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_lookup_insert, 26.03)
int
rte_rhashtable_lookup_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj)
{
	return rht_insert(ht, obj, RHT_INSERT_UNIQUE, NULL);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_lookup_get_insert, 26.03)
int
rte_rhashtable_lookup_get_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj,
				 void **existing)
{
	return rht_insert(ht, obj, RHT_INSERT_UNIQUE, existing);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_lookup_insert_bulk, 26.03)
int
rte_rhashtable_lookup_insert_bulk(struct rte_rhashtable *ht, struct rte_rhash_head *objs[],
				  uint32_t num_objs, int rets[], void *existing[])
{
	struct rht_insert_ctx c[RTE_RHASHTABLE_INSERT_BULK_MAX];
	struct __rte_rht_table *last;
	struct rht_writer *writer;
	uint32_t *seq, i;
	int inserted = 0;

	if (unlikely(ht == NULL || objs == NULL || rets == NULL || num_objs == 0 ||
		     num_objs > RTE_RHASHTABLE_INSERT_BULK_MAX)) {
		RHT_LOG(ERR, "bad argument (num_objs %u, at most %u)", num_objs,
			RTE_RHASHTABLE_INSERT_BULK_MAX);
		return -EINVAL;
	}
	if (unlikely(ht->rhlist)) {
		RHT_LOG(ERR, "%s: an rhltable takes rte_rhltable_insert() only", ht->name);
		return -EINVAL;
	}
	seq = rht_writer_enter(ht);
	writer = rht_writer_of(ht, seq);
	/* acquire: pairs with the release that publishes a new first table */
	last = rht_last_table(rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire));
	for (i = 0; i < num_objs; i++) {
		if (existing != NULL)
			existing[i] = NULL;
		rets[i] = insert_check(ht, objs[i], RHT_INSERT_UNIQUE);
		if (unlikely(rets[i] != 0))
			continue;
		/* field by field: zeroing the whole context cost a rep stos
		 * (a third of the call in a table that fits the caches)
		 */
		c[i].obj = objs[i];
		c[i].mode = RHT_INSERT_UNIQUE;
		c[i].existing = existing != NULL ? &existing[i] : NULL;
		c[i].writer = writer;
		insert_prefetch(ht, &c[i], last);
	}
	for (i = 0; i < num_objs; i++) {
		/* counted at once: the -EBUSY warning is for a table's first */
		if (likely(rets[i] == 0))
			rets[i] = insert_done(ht, insert_in_section(ht, &c[i]));
		inserted += rets[i] == 0;
	}
	rht_writer_exit(ht, seq);
	return inserted;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_insert, 26.03)
int
rte_rhltable_insert(struct rte_rhltable *hlt, struct rte_rhlist_head *list)
{
	if (hlt == NULL || list == NULL) {
		RHT_LOG(ERR, "NULL %s", hlt == NULL ? "table" : "object");
		return -EINVAL;
	}
	return rht_insert(&hlt->ht, &list->rhead, RHT_INSERT_LIST, NULL);
}

/*
 * Visit the bucket that would hold obj in every table of the chain, under
 * its lock, until fn reports it done (non-zero). Returns fn's result, or 0.
 * Then, if fn did something, see whether the table needs the worker.
 */
typedef int (*bucket_visit_t)(struct rte_rhashtable *ht, struct __rte_rht_table *tbl,
			      struct rte_rhash_head **bkt, struct rht_writer *w, void *arg);

static int
visit_obj_buckets(struct rte_rhashtable *ht, const void *obj, bucket_visit_t fn, void *arg)
{
	uint32_t *seq = rht_writer_enter(ht);
	struct rht_writer *w = rht_writer_of(ht, seq);
	/* acquire: pairs with the release that publishes a new first table */
	struct __rte_rht_table *tbl = rte_atomic_load_explicit(&ht->core.tbl,
			rte_memory_order_acquire);
	int ret = 0;

	while (tbl != NULL && ret == 0) {
		struct rte_rhash_head **bkt = __rte_rht_bucket(tbl,
				rht_hash_idx(tbl, rht_obj_hash(ht, tbl, obj)));

		rht_bucket_lock_take(ht, bkt);
		ret = fn(ht, tbl, bkt, w, arg);
		/* acquire: pairs with __rte_rht_table_attach() */
		tbl = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
		rht_bucket_lock_drop(ht, bkt);
	}
	if (ret != 0)
		__rte_rht_deferred_work_needed(ht);
	rht_writer_exit(ht, seq);
	return ret;
}

/*
 * Recompute the summary and length of a locked bucket from the objects left
 * in it, so that removals do not fill the summary with stale bits.
 */
static void
rht_bucket_reseal(const struct rte_rhashtable *ht, const struct __rte_rht_table *tbl,
		  struct rte_rhash_head **bkt)
{
	/* acquire: as in bucket_scan() */
	struct rte_rhash_head *w = rte_atomic_load_explicit(bkt, rte_memory_order_acquire);
	struct rte_rhash_head *p;
	uint16_t summary = 0;
	uint32_t len = 0;

	for (p = __rte_rht_ptr(w); !__rte_rht_is_nulls(p); p = __rte_rht_ptr(p->next), len++)
		summary = __rte_rht_summary_add(summary, rht_obj_hash(ht, tbl, rht_obj(ht, p)));
	rht_bucket_store(bkt, __rte_rht_bucket_word(__rte_rht_ptr(w), summary, len));
}

static int
unlink_obj(struct rte_rhashtable *ht, struct __rte_rht_table *tbl, struct rte_rhash_head **bkt,
	   struct rht_writer *w, void *arg)
{
	struct rte_rhash_head *obj = arg;
	int s = rht_slot_of(bkt, obj);
	struct rte_rhash_head **pprev;

	if (s >= 0) {
		rht_slot_store(bkt, (uint32_t)s, NULL);
		rht_nelems_dec(ht, w);
		return 1;
	}
	pprev = rht_chain_find_link(bkt, obj);
	if (pprev == NULL)
		return 0;
	/* obj->next is left as it is, so that a reader standing on obj goes
	 * on along the chain.
	 */
	rht_link_replace(bkt, pprev, obj->next);
	rht_bucket_reseal(ht, tbl, bkt);
	rht_nelems_dec(ht, w);
	return 1;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_remove, 26.03)
int
rte_rhashtable_remove(struct rte_rhashtable *ht, struct rte_rhash_head *obj)
{
	if (unlikely(ht == NULL || obj == NULL)) {
		RHT_LOG(ERR, "NULL %s", ht == NULL ? "table" : "object");
		return -EINVAL;
	}
	if (ht->rhlist)
		return rht_rhl_remove(ht, (struct rte_rhlist_head *)obj);
	if (visit_obj_buckets(ht, rht_obj(ht, obj), unlink_obj, obj) == 0)
		return -ENOENT;
	__rte_rht_retire_obj(ht, rht_obj(ht, obj));
	return 0;
}

struct replace_arg {
	struct rte_rhash_head *old_obj;
	struct rte_rhash_head *new_obj;
};

static int
swap_obj(struct rte_rhashtable *ht, struct __rte_rht_table *tbl, struct rte_rhash_head **bkt,
	 struct rht_writer *w, void *arg)
{
	struct replace_arg *r = arg;
	int s = rht_slot_of(bkt, r->old_obj);
	struct rte_rhash_head **pprev;

	RTE_SET_USED(ht);
	RTE_SET_USED(tbl);
	RTE_SET_USED(w);
	if (s >= 0) {
		/* relaxed: only the lock holder changes the slots */
		rht_slot_replace(bkt, (uint32_t)s,
				 rte_atomic_load_explicit(&__rte_rht_slots(bkt)[s],
							  rte_memory_order_relaxed),
				 r->new_obj);
		return 1;
	}
	pprev = rht_chain_find_link(bkt, r->old_obj);
	if (pprev == NULL)
		return 0;
	/* release: as in bucket_link(), new_obj may be a removed object that
	 * a reader still stands on
	 */
	rte_atomic_store_explicit(&r->new_obj->next, r->old_obj->next, rte_memory_order_release);
	/* equal keys: the bucket summary stays right */
	rht_link_replace(bkt, pprev, r->new_obj);
	return 1;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_replace, 26.03)
int
rte_rhashtable_replace(struct rte_rhashtable *ht, struct rte_rhash_head *old_obj,
		       struct rte_rhash_head *new_obj)
{
	struct replace_arg r = { .old_obj = old_obj, .new_obj = new_obj };
	const void *old_start;

	if (unlikely(ht == NULL || old_obj == NULL || new_obj == NULL || ht->rhlist ||
		     !rht_addr_taggable(new_obj))) {
		RHT_LOG(ERR, "NULL argument, an rhltable, or a head not 8-byte aligned or above 2^48");
		return -EINVAL;
	}
	old_start = rht_obj(ht, old_obj);
	if (rht_key_cmp(ht, rht_obj_key(ht, rht_obj(ht, new_obj)), old_start) != 0) {
		RHT_LOG(ERR, "%s: the new object's key differs from the old one's", ht->name);
		return -EINVAL;
	}
	if (visit_obj_buckets(ht, old_start, swap_obj, &r) == 0)
		return -ENOENT;
	__rte_rht_retire_obj(ht, rht_obj(ht, old_obj));
	return 0;
}

/*
 * rhltable: unlink target from the list of entry, not entry itself.
 * Returns whether it was there.
 */
static bool
list_unlink(struct rte_rhlist_head *entry, struct rte_rhlist_head *target)
{
	struct rte_rhlist_head **lprev;

	for (lprev = &entry->next; *lprev != NULL; lprev = &(*lprev)->next) {
		if (*lprev == target) {
			/* release: readers walking the list go on past it */
			rte_atomic_store_explicit(lprev, target->next, rte_memory_order_release);
			return true;
		}
	}
	return false;
}

/*
 * rhltable: unlink target from the list of a slot's entry, or the entry
 * itself. Returns 1 when done, 0 when target is in no slot's list.
 */
static int
unlink_slot_member(struct rte_rhashtable *ht, struct rte_rhash_head **bkt,
		   struct rht_writer *w, struct rte_rhlist_head *target)
{
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	struct rte_rhlist_head *entry;
	struct rte_rhash_head *word;
	uint32_t s;

	for (s = 0; s < __RTE_RHT_SLOTS; s++) {
		/* relaxed: only the lock holder changes the slots */
		word = rte_atomic_load_explicit(&slots[s], rte_memory_order_relaxed);
		entry = (struct rte_rhlist_head *)__rte_rht_slot_obj(word);
		if (entry == NULL)
			continue;
		if (entry != target) {
			if (list_unlink(entry, target))
				return 1;
			continue;
		}
		if (target->next == NULL) {
			/* the key is gone */
			rht_slot_store(bkt, s, NULL);
			rht_nelems_dec(ht, w);
		} else {
			/* the list goes on from its second member */
			rht_slot_replace(bkt, s, word, &target->next->rhead);
		}
		return 1;
	}
	return 0;
}

/* rhltable: unlink list from the chain entry's list, or the entry itself. */
static int
unlink_list_member(struct rte_rhashtable *ht, struct __rte_rht_table *tbl,
		   struct rte_rhash_head **bkt, struct rht_writer *w, void *arg)
{
	struct rte_rhlist_head *target = arg;
	struct rte_rhlist_head *entry;
	struct rte_rhash_head **pprev;
	struct rte_rhash_head *p;

	if (unlink_slot_member(ht, bkt, w, target))
		return 1;

	/* acquire: as in bucket_scan() */
	p = __rte_rht_ptr(rte_atomic_load_explicit(bkt, rte_memory_order_acquire));
	for (pprev = bkt; !__rte_rht_is_nulls(p); pprev = &p->next, p = __rte_rht_ptr(*pprev)) {
		entry = (struct rte_rhlist_head *)p;
		if (entry == target) {
			struct rte_rhlist_head *second = target->next;

			if (second == NULL) {
				/* the key is gone */
				rht_link_replace(bkt, pprev, target->rhead.next);
				rht_bucket_reseal(ht, tbl, bkt);
				rht_nelems_dec(ht, w);
				return 1;
			}
			/* release: as in bucket_link() */
			rte_atomic_store_explicit(&second->rhead.next, target->rhead.next,
					 rte_memory_order_release);
			rht_link_replace(bkt, pprev, &second->rhead);
			return 1;
		}
		if (list_unlink(entry, target))
			return 1;
	}
	return 0;
}

static int
rht_rhl_remove(struct rte_rhashtable *ht, struct rte_rhlist_head *list)
{
	int ret = visit_obj_buckets(ht, rht_obj(ht, &list->rhead), unlink_list_member, list);

	if (ret == 0)
		return -ENOENT;
	rte_atomic_fetch_sub_explicit(&ht->nobjs, 1, rte_memory_order_relaxed);
	__rte_rht_retire_obj(ht, rht_obj(ht, &list->rhead));
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_remove, 26.03)
int
rte_rhltable_remove(struct rte_rhltable *hlt, struct rte_rhlist_head *list)
{
	if (hlt == NULL || list == NULL) {
		RHT_LOG(ERR, "NULL %s", hlt == NULL ? "table" : "object");
		return -EINVAL;
	}
	return rht_rhl_remove(&hlt->ht, list);
}
