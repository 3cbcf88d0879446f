/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Walkers. Between walk_start and walk_stop a walker is an RCU reader and
 * walks its bucket table freely. Between walk_stop and walk_start it is
 * parked on its table's walker list; when the worker retires that table it
 * clears the walker's table pointer under ht->walk_lock, and the next
 * walk_start_check reports -EAGAIN and restarts on the current first table.
 */

#include <errno.h>

#include "rhashtable_pvt.h"

static void
walker_park(struct __rte_rht_table *tbl, struct rte_rhashtable_iter *it)
{
	it->walker_next = tbl->walkers;
	if (it->walker_next != NULL)
		it->walker_next->walker_pprev = &it->walker_next;
	it->walker_pprev = &tbl->walkers;
	tbl->walkers = it;
}

static void
walker_unpark(struct rte_rhashtable_iter *it)
{
	if (it->walker_pprev == NULL)
		return;
	*it->walker_pprev = it->walker_next;
	if (it->walker_next != NULL)
		it->walker_next->walker_pprev = it->walker_pprev;
	it->walker_next = NULL;
	it->walker_pprev = NULL;
}

/* Called by the worker when tbl leaves the chain, before it is freed. */
void
__rte_rht_walkers_retire(struct rte_rhashtable *ht, struct __rte_rht_table *tbl)
{
	rte_spinlock_lock(&ht->walk_lock);
	tbl->retired = true;
	while (tbl->walkers != NULL) {
		struct rte_rhashtable_iter *it = tbl->walkers;

		walker_unpark(it);
		it->tbl = NULL;
	}
	rte_spinlock_unlock(&ht->walk_lock);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_enter, 26.03)
void
rte_rhashtable_walk_enter(struct rte_rhashtable *ht, struct rte_rhashtable_iter *it)
{
	struct __rte_rht_table *tbl;

	if (ht == NULL || it == NULL) {
		RHT_LOG(ERR, "NULL %s", ht == NULL ? "table" : "iterator");
		return;
	}
	memset(it, 0, sizeof(*it));
	it->ht = ht;
	rte_spinlock_lock(&ht->walk_lock);
	/* under walk_lock, a table read here is not retired yet, or is marked */
	tbl = rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire);
	if (!tbl->retired) {
		it->tbl = tbl;
		walker_park(tbl, it);
	}
	rte_spinlock_unlock(&ht->walk_lock);
}

/*
 * A walker's position in its bucket (it->pos): the next slot to read
 * (it->p, when set, came from the slot before), the head of the overflow
 * chain, or the chain after it->p.
 */
#define WALK_CHAIN_HEAD __RTE_RHT_SLOTS
#define WALK_CHAIN_NEXT (__RTE_RHT_SLOTS + 1)

/* Start the walker's bucket it->slot from its first slot. */
static void
walker_bucket_reset(struct rte_rhashtable_iter *it)
{
	it->p = NULL;
	it->list = NULL;
	it->pos = 0;
}

/*
 * rhltable: after a pause, find the list member returned last in the list
 * of entry p; if it left the list, restart the key's list: members may
 * then be returned twice, but none that stayed is skipped.
 */
static void
walker_refind_list(struct rte_rhashtable_iter *it, struct rte_rhash_head *p)
{
	struct rte_rhlist_head *l;

	if (it->list == NULL)
		return;
	for (l = (struct rte_rhlist_head *)p; l != NULL && l != it->list;
	     l = rte_atomic_load_explicit(&l->next, rte_memory_order_acquire))
		;
	if (l == NULL)
		it->list = (struct rte_rhlist_head *)p;
}

/*
 * After a pause, find the entry returned last in its bucket again. In a
 * slot, the walk goes on with the next slot (slots do not shift), or reads
 * the slot again if it holds another entry now; in the overflow chain, if
 * the entry left the chain, the walk restarts the chain: objects may then
 * be returned twice, but none that stayed is skipped.
 */
static void
walker_refind(struct rte_rhashtable_iter *it)
{
	struct rte_rhash_head **bkt;
	struct rte_rhash_head *p;

	if (it->p == NULL)
		return;
	bkt = __rte_rht_bucket(it->tbl, it->slot);
	/* acquire loads: pair with the release stores that link objects */
	if (it->pos <= __RTE_RHT_SLOTS) {
		p = __rte_rht_slot_obj(rte_atomic_load_explicit(&__rte_rht_slots(bkt)[it->pos - 1],
								 rte_memory_order_acquire));
		if (p == it->p) {
			walker_refind_list(it, p);
			return;
		}
		/* the slot changed: read it again (an rhltable key whose first
		 * member left has its second there now)
		 */
		it->pos--;
		it->p = NULL;
		it->list = NULL;
		return;
	}
	for (p = __rte_rht_ptr(rte_atomic_load_explicit(bkt, rte_memory_order_acquire));
	     !__rte_rht_is_nulls(p) && p != it->p;
	     p = rte_atomic_load_explicit(&p->next, rte_memory_order_acquire))
		;
	if (__rte_rht_is_nulls(p)) {
		it->p = NULL;
		it->list = NULL;
		it->pos = WALK_CHAIN_HEAD;
		return;
	}
	walker_refind_list(it, p);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_start_check, 26.03)
int
rte_rhashtable_walk_start_check(struct rte_rhashtable_iter *it)
{
	struct rte_rhashtable *ht;
	int ret = 0;

	if (it == NULL || it->ht == NULL) {
		RHT_LOG(ERR, "iterator %s", it == NULL ? "NULL" : "not entered");
		return -EINVAL;
	}
	ht = it->ht;
	rte_spinlock_lock(&ht->walk_lock);
	walker_unpark(it);
	if (!it->end_of_table && it->tbl == NULL) {
		/* our table was retired while we were parked */
		it->tbl = rte_atomic_load_explicit(&ht->core.tbl, rte_memory_order_acquire);
		it->slot = 0;
		walker_bucket_reset(it);
		ret = -EAGAIN;
	}
	it->started = true;
	rte_spinlock_unlock(&ht->walk_lock);
	if (!it->end_of_table)
		walker_refind(it);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_start, 26.03)
void
rte_rhashtable_walk_start(struct rte_rhashtable_iter *it)
{
	(void)rte_rhashtable_walk_start_check(it);
}

/*
 * The object after the walker's position in its bucket, or NULL at the end
 * of the bucket: the slots in order, then the overflow chain. Going on
 * from the last object of the chain (not counting from its head) keeps
 * inserts at the head and removals behind the walker from shifting it: a
 * removed object keeps its next link. A nulls marker that is not this
 * bucket's means a concurrent move or re-insert carried the walker into
 * another chain (see rhashtable_lookup.c): it starts the chain again, so
 * objects may be returned twice, but none is skipped.
 */
static void *
bucket_next(struct rte_rhashtable_iter *it)
{
	const struct rte_rhashtable *ht = it->ht;
	struct rte_rhash_head **bkt = __rte_rht_bucket(it->tbl, it->slot);
	struct rte_rhash_head *p = NULL;

	/* acquire loads: pair with the release stores that link objects */
	if (it->list != NULL) {
		struct rte_rhlist_head *l =
			rte_atomic_load_explicit(&it->list->next, rte_memory_order_acquire);

		if (l != NULL) {
			it->list = l;
			return rht_obj(ht, &l->rhead);
		}
	}
	while (p == NULL && it->pos < __RTE_RHT_SLOTS)
		p = __rte_rht_slot_obj(rte_atomic_load_explicit(&__rte_rht_slots(bkt)[it->pos++],
								 rte_memory_order_acquire));
	while (p == NULL) {
		if (it->pos == WALK_CHAIN_HEAD)
			p = __rte_rht_ptr(rte_atomic_load_explicit(bkt, rte_memory_order_acquire));
		else
			p = rte_atomic_load_explicit(&it->p->next, rte_memory_order_acquire);
		it->pos = WALK_CHAIN_NEXT;
		if (!__rte_rht_is_nulls(p))
			break;
		if (p == __rte_rht_nulls(bkt))
			return NULL;
		it->pos = WALK_CHAIN_HEAD;
		p = NULL;
	}
	it->p = p;
	it->list = ht->rhlist ? (struct rte_rhlist_head *)p : NULL;
	return rht_obj(ht, p);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_next, 26.03)
int
rte_rhashtable_walk_next(struct rte_rhashtable_iter *it, void **obj)
{
	struct __rte_rht_table *tbl;

	if (it == NULL || obj == NULL || it->ht == NULL || !it->started) {
		RHT_LOG(ERR, "iterator NULL, not entered or not started");
		return -EINVAL;
	}
	if (it->end_of_table)
		return -ENOENT;
	tbl = it->tbl;
	for (; it->slot < tbl->size; it->slot++, walker_bucket_reset(it)) {
		*obj = bucket_next(it);
		if (*obj != NULL)
			return 0;
	}
	/* acquire: pairs with __rte_rht_table_attach() */
	tbl = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
	if (tbl != NULL) {
		it->tbl = tbl;
		it->slot = 0;
		walker_bucket_reset(it);
		return -EAGAIN;
	}
	it->end_of_table = true;
	return -ENOENT;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_stop, 26.03)
void
rte_rhashtable_walk_stop(struct rte_rhashtable_iter *it)
{
	struct rte_rhashtable *ht;
	struct __rte_rht_table *tbl;

	if (it == NULL || it->ht == NULL || !it->started) {
		RHT_LOG(ERR, "iterator NULL, not entered or not started");
		return;
	}
	ht = it->ht;
	rte_spinlock_lock(&ht->walk_lock);
	tbl = it->tbl;
	if (tbl != NULL && !tbl->retired)
		walker_park(tbl, it);
	else
		it->tbl = NULL;
	it->started = false;
	rte_spinlock_unlock(&ht->walk_lock);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_walk_exit, 26.03)
void
rte_rhashtable_walk_exit(struct rte_rhashtable_iter *it)
{
	struct rte_rhashtable *ht;

	if (it == NULL || it->ht == NULL) {
		RHT_LOG(ERR, "iterator %s", it == NULL ? "NULL" : "not entered");
		return;
	}
	ht = it->ht;
	rte_spinlock_lock(&ht->walk_lock);
	walker_unpark(it);
	rte_spinlock_unlock(&ht->walk_lock);
	it->ht = NULL;
	it->tbl = NULL;
}
