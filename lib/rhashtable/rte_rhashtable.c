/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Table lifetime: parameter checks, creation, the named-object tailq,
 * freeing, statistics.
 */

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal_memconfig.h>
#include <rte_string_fns.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_tailq.h>

#include "rhashtable_debug.h"
#include "rhashtable_count.h"
#include "rhashtable_pvt.h"

RTE_LOG_REGISTER_DEFAULT(rte_rhashtable_logtype, INFO);

TAILQ_HEAD(rte_rhashtable_list, rte_tailq_entry);

static struct rte_tailq_elem rte_rhashtable_tailq = {
	.name = "RTE_RHASHTABLE",
};
EAL_REGISTER_TAILQ(rte_rhashtable_tailq)

/* rte_rhashtable_lookup_fast() reads the table through struct __rte_rht_core. */
static_assert(offsetof(struct rte_rhashtable, core) == 0,
	      "struct __rte_rht_core must be the first member of struct rte_rhashtable");

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_default_hash, 26.03)
uint32_t
rte_rhashtable_default_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	return (uint32_t)__rte_rht_default_hash64(key, key_len, seed);
}

static uint32_t
round_down_pow2(uint32_t v)
{
	return v == 0 ? 0 : UINT32_C(1) << (31 - rte_clz32(v));
}

static int
params_check(const struct rte_rhashtable_params *p, bool rhlist)
{
	size_t head_len = rhlist ? sizeof(struct rte_rhlist_head) : sizeof(struct rte_rhash_head);

	if (p == NULL || p->name == NULL) {
		RHT_LOG(ERR, "params and params->name must be set");
		return -EINVAL;
	}
	if (strnlen(p->name, RTE_RHASHTABLE_NAMESIZE) >= RTE_RHASHTABLE_NAMESIZE ||
	    p->name[0] == '\0') {
		RHT_LOG(ERR, "name '%.*s' must have 1 to %d characters",
			RTE_RHASHTABLE_NAMESIZE, p->name, RTE_RHASHTABLE_NAMESIZE - 1);
		return -EINVAL;
	}
	if (p->key_len == 0 &&
	    (p->hashfn == NULL || p->obj_hashfn == NULL || p->obj_cmpfn == NULL)) {
		RHT_LOG(ERR, "%s: key_len 0 (variable keys) needs hashfn, obj_hashfn and obj_cmpfn",
			p->name);
		return -EINVAL;
	}
	/* the offsets are 16-bit: an object the table addresses ends at byte 65534 */
	if ((uint32_t)p->key_offset + p->key_len > UINT16_MAX) {
		RHT_LOG(ERR, "%s: key at offset %u of %u bytes does not fit in 65535 bytes",
			p->name, p->key_offset, p->key_len);
		return -EINVAL;
	}
	if (p->head_offset + head_len > UINT16_MAX) {
		RHT_LOG(ERR, "%s: head at offset %u does not fit in 65535 bytes", p->name,
			p->head_offset);
		return -EINVAL;
	}
	if (p->max_size != 0 && round_down_pow2(p->max_size) <
	    RTE_MAX(round_down_pow2(p->min_size), (uint32_t)RTE_RHT_MIN_SIZE)) {
		RHT_LOG(ERR, "%s: max_size %u is below min_size %u", p->name, p->max_size,
			RTE_MAX(p->min_size, RTE_RHT_MIN_SIZE));
		return -EINVAL;
	}
	if (p->socket_id != SOCKET_ID_ANY &&
	    (p->socket_id < 0 || p->socket_id >= RTE_MAX_NUMA_NODES)) {
		RHT_LOG(ERR, "%s: socket_id %d out of range", p->name, p->socket_id);
		return -EINVAL;
	}
	return 0;
}

static void
params_apply(struct rte_rhashtable *ht, const struct rte_rhashtable_params *p)
{
	strlcpy(ht->name, p->name, sizeof(ht->name));
	ht->core.key_len = p->key_len;
	ht->core.key_offset = p->key_offset;
	ht->core.head_offset = p->head_offset;
	/* the library's own hash stays NULL here, so that it is inlined */
	ht->hashfn = p->hashfn == rte_rhashtable_default_hash ? NULL : p->hashfn;
	ht->obj_hashfn = p->obj_hashfn;
	ht->obj_cmpfn = p->obj_cmpfn;
	if (ht->hashfn == NULL && ht->obj_cmpfn == NULL && rht_key_len_fast(ht->core.key_len))
		ht->core.fast_key_len = ht->core.key_len;
	ht->lookup_kind = rht_lookup_kind(ht->core.fast_key_len);
	ht->max_size = round_down_pow2(p->max_size);
	ht->min_size = RTE_MAX(round_down_pow2(p->min_size), (uint32_t)RTE_RHT_MIN_SIZE);
	/* as many objects as the largest table has slots: a bucket holds at
	 * most RTE_RHT_MAX_CHAIN_LEN more, which a fuller table would pass in
	 * some of its buckets
	 */
	ht->max_elems = ht->max_size != 0 ? (uint32_t)RTE_MIN((uint64_t)__RTE_RHT_SLOTS *
		ht->max_size, (uint64_t)RTE_RHASHTABLE_MAX_ELEMS) : RTE_RHASHTABLE_MAX_ELEMS;
	ht->automatic_shrinking = p->automatic_shrinking;
	ht->single_writer = p->single_writer;
	ht->socket_id = p->socket_id;
	rte_spinlock_init(&ht->rehash_lock);
	rte_spinlock_init(&ht->walk_lock);
}

static struct rte_tailq_entry *
tailq_find(const char *name)
{
	struct rte_rhashtable_list *list =
		RTE_TAILQ_CAST(rte_rhashtable_tailq.head, rte_rhashtable_list);
	struct rte_tailq_entry *te;

	TAILQ_FOREACH(te, list, next) {
		const struct rte_rhashtable *ht = te->data;

		if (strncmp(name, ht->name, RTE_RHASHTABLE_NAMESIZE) == 0)
			return te;
	}
	return NULL;
}

/* Add ht to the named-object list; -EEXIST when the name is taken. */
static int
tailq_add(struct rte_rhashtable *ht)
{
	struct rte_rhashtable_list *list =
		RTE_TAILQ_CAST(rte_rhashtable_tailq.head, rte_rhashtable_list);
	struct rte_tailq_entry *te;
	int ret = 0;

	rte_mcfg_tailq_write_lock();
	if (tailq_find(ht->name) != NULL) {
		ret = -EEXIST;
		goto out;
	}
	te = rte_zmalloc("rht_tailq_entry", sizeof(*te), 0);
	if (te == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	te->data = ht;
	TAILQ_INSERT_TAIL(list, te, next);
out:
	rte_mcfg_tailq_write_unlock();
	return ret;
}

static void
tailq_del(const struct rte_rhashtable *ht)
{
	struct rte_rhashtable_list *list =
		RTE_TAILQ_CAST(rte_rhashtable_tailq.head, rte_rhashtable_list);
	struct rte_tailq_entry *te;

	rte_mcfg_tailq_write_lock();
	te = tailq_find(ht->name);
	if (te != NULL && te->data == ht) {
		TAILQ_REMOVE(list, te, next);
		rte_free(te);
	}
	rte_mcfg_tailq_write_unlock();
}

void
__rte_rht_foreach_table(void (*fn)(const struct rte_rhashtable *ht, void *arg), void *arg)
{
	struct rte_rhashtable_list *list =
		RTE_TAILQ_CAST(rte_rhashtable_tailq.head, rte_rhashtable_list);
	struct rte_tailq_entry *te;

	rte_mcfg_tailq_read_lock();
	TAILQ_FOREACH(te, list, next)
		fn(te->data, arg);
	rte_mcfg_tailq_read_unlock();
}

int
__rte_rht_with_table(const char *name, int (*fn)(const struct rte_rhashtable *ht, void *arg),
		     void *arg)
{
	struct rte_tailq_entry *te;
	int ret = -ENOENT;

	/* rte_rhashtable_free() takes the table out of the list, under the
	 * write lock, before it frees it: it cannot free it while fn runs
	 */
	rte_mcfg_tailq_read_lock();
	te = tailq_find(name);
	if (te != NULL)
		ret = fn(te->data, arg);
	rte_mcfg_tailq_read_unlock();
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_find_existing, 26.03)
struct rte_rhashtable *
rte_rhashtable_find_existing(const char *name)
{
	struct rte_tailq_entry *te;
	struct rte_rhashtable *ht = NULL;

	if (name == NULL) {
		RHT_LOG(ERR, "NULL name");
		rte_errno = EINVAL;
		return NULL;
	}
	rte_mcfg_tailq_read_lock();
	te = tailq_find(name);
	if (te != NULL)
		ht = te->data;
	rte_mcfg_tailq_read_unlock();
	if (ht == NULL)
		rte_errno = ENOENT;
	return ht;
}

static struct rte_rhashtable *
table_create(const struct rte_rhashtable_params *p, bool rhlist)
{
	struct rte_rhashtable *ht;
	struct __rte_rht_table *tbl;
	int ret;

	ret = params_check(p, rhlist);
	if (ret != 0)
		goto fail;
	ret = -ENOMEM;
	ht = rte_zmalloc_socket("rhashtable", sizeof(struct rte_rhltable),
				RTE_CACHE_LINE_SIZE, p->socket_id);
	if (ht == NULL && p->socket_id != SOCKET_ID_ANY)
		ht = rte_zmalloc("rhashtable", sizeof(struct rte_rhltable), RTE_CACHE_LINE_SIZE);
	if (ht == NULL)
		goto fail;
	params_apply(ht, p);
	ht->rhlist = rhlist;
	ht->bytes = sizeof(struct rte_rhltable);

	tbl = __rte_rht_table_alloc(ht, __rte_rht_initial_size(p, ht->max_size), NULL);
	if (tbl == NULL)
		goto err_ht;
	ht->core.tbl = tbl;
	ht->ntables = 1;
	ht->last_size = tbl->size;
	ht->last_node = tbl->numa_node;

	ret = tailq_add(ht);
	if (ret != 0)
		goto err_tbl;
	/* a single writer runs the worker itself */
	ret = ht->single_writer ? 0 : __rte_rht_service_register(ht);
	if (ret != 0)
		goto err_tailq;
	RHT_LOG(DEBUG, "%s: created with %u buckets on socket %d", ht->name, tbl->size,
		ht->socket_id);
	return ht;

err_tailq:
	tailq_del(ht);
err_tbl:
	__rte_rht_table_free(ht, tbl);
err_ht:
	rte_free(ht);
fail:
	if (ret == -EEXIST)
		RHT_LOG(ERR, "a table named '%s' exists already", p->name);
	else if (ret != -EINVAL)
		RHT_LOG(ERR, "cannot create table: %s", rte_strerror(-ret));
	rte_errno = -ret;
	return NULL;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_create, 26.03)
struct rte_rhashtable *
rte_rhashtable_create(const struct rte_rhashtable_params *p)
{
	return table_create(p, false);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_create, 26.03)
struct rte_rhltable *
rte_rhltable_create(const struct rte_rhashtable_params *p)
{
	return (struct rte_rhltable *)table_create(p, true);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_table, 26.03)
struct rte_rhashtable *
rte_rhltable_table(struct rte_rhltable *hlt)
{
	return hlt == NULL ? NULL : &hlt->ht;
}

/* Call fn on the object of one chain entry, or on each of its list. */
static void
entry_destroy(struct rte_rhashtable *ht, struct rte_rhash_head *p,
	      rte_rhashtable_free_obj_t free_fn, void *ctx)
{
	struct rte_rhlist_head *l = (struct rte_rhlist_head *)p;
	struct rte_rhlist_head *lnext;

	if (!ht->rhlist) {
		free_fn(ctx, rht_obj(ht, p));
		return;
	}
	for (; l != NULL; l = lnext) {
		lnext = l->next;
		free_fn(ctx, rht_obj(ht, &l->rhead));
	}
}

/* Call fn on every object of bucket bkt: its slots, then its chain (next read first). */
static void
bucket_destroy(struct rte_rhashtable *ht, struct rte_rhash_head **bkt,
	       rte_rhashtable_free_obj_t free_fn, void *ctx)
{
	struct rte_rhash_head *p, *next;
	uint32_t s;

	for (s = 0; s < __RTE_RHT_SLOTS; s++) {
		p = __rte_rht_slot_obj(__rte_rht_slots(bkt)[s]);
		if (p != NULL)
			entry_destroy(ht, p, free_fn, ctx);
	}
	for (p = __rte_rht_ptr(*bkt); !__rte_rht_is_nulls(p); p = __rte_rht_ptr(next)) {
		next = p->next;
		entry_destroy(ht, p, free_fn, ctx);
	}
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_free_and_destroy, 26.03)
void
rte_rhashtable_free_and_destroy(struct rte_rhashtable *ht,
				rte_rhashtable_free_obj_t free_fn, void *ctx)
{
	struct __rte_rht_table *tbl, *next;
	uint32_t i;

	if (ht == NULL)
		return;
	if (!ht->single_writer)
		__rte_rht_service_unregister(ht);
	rte_spinlock_lock(&ht->rehash_lock);
	tailq_del(ht);
	for (tbl = ht->core.tbl; tbl != NULL; tbl = next) {
		next = tbl->future_tbl;
		for (i = 0; free_fn != NULL && i < tbl->size; i++)
			bucket_destroy(ht, __rte_rht_bucket(tbl, i), free_fn, ctx);
		__rte_rht_table_free(ht, tbl);
	}
	__rte_rht_rcu_free(ht);
	RHT_LOG(DEBUG, "%s: freed", ht->name);
	rte_free(ht);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_free, 26.03)
void
rte_rhashtable_free(struct rte_rhashtable *ht)
{
	rte_rhashtable_free_and_destroy(ht, NULL, NULL);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhltable_free, 26.03)
void
rte_rhltable_free(struct rte_rhltable *hlt)
{
	rte_rhashtable_free_and_destroy(rte_rhltable_table(hlt), NULL, NULL);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_count, 26.03)
uint32_t
rte_rhashtable_count(const struct rte_rhashtable *ht)
{
	if (ht == NULL)
		return 0;
	if (ht->rhlist)
		return rte_atomic_load_explicit(&ht->nobjs, rte_memory_order_relaxed);
	return rht_nelems_exact(ht);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_stats_get, 26.03)
int
rte_rhashtable_stats_get(const struct rte_rhashtable *ht, struct rte_rhashtable_stats *s)
{
	const struct rht_stat_field *f;
	unsigned int i;

	if (ht == NULL || s == NULL) {
		RHT_LOG(ERR, "NULL %s", ht == NULL ? "table" : "stats");
		return -EINVAL;
	}
	memset(s, 0, sizeof(*s));
	for (i = 0; i < RTE_DIM(rht_stat_fields); i++) {
		f = &rht_stat_fields[i];
		if (f->kind == RHT_STAT_COUNTER)
			*(uint64_t *)RTE_PTR_ADD(s, f->offset) = rte_atomic_load_explicit(
				(const uint64_t *)RTE_PTR_ADD(&ht->ctr, f->offset),
				rte_memory_order_relaxed);
	}
	s->nelems = rht_nelems_exact(ht);
	/* the exact count sums every lcore's line: once is enough */
	s->nobjs = ht->rhlist ? rte_atomic_load_explicit(&ht->nobjs, rte_memory_order_relaxed) :
		s->nelems;
	s->buckets = rte_atomic_load_explicit(&ht->last_size, rte_memory_order_relaxed);
	s->ntables = rte_atomic_load_explicit(&ht->ntables, rte_memory_order_relaxed);
	s->bytes = rte_atomic_load_explicit(&ht->bytes, rte_memory_order_relaxed);
	s->reclaim_pending = __rte_rht_rcu_pending(ht);
	s->socket_id = ht->socket_id;
	s->numa_node = rte_atomic_load_explicit(&ht->last_node, rte_memory_order_relaxed);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_table_info_get, 26.03)
int
rte_rhashtable_table_info_get(struct rte_rhashtable *ht, uint32_t idx,
			      struct rte_rhashtable_table_info *info)
{
	struct __rte_rht_table *tbl;
	int ret = 0;

	if (ht == NULL || info == NULL) {
		RHT_LOG(ERR, "NULL %s", ht == NULL ? "table" : "info");
		return -EINVAL;
	}
	/* the worker retires tables only under this lock */
	rte_spinlock_lock(&ht->rehash_lock);
	for (tbl = ht->core.tbl; tbl != NULL && idx > 0; idx--)
		tbl = rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_acquire);
	if (tbl == NULL) {
		ret = -ENOENT;
	} else {
		info->buckets = tbl->size;
		info->seed = tbl->seed;
		info->key_seed = tbl->key_seed;
		info->nlocks = tbl->size;
		info->nested = tbl->nested;
		info->bytes = tbl->bytes;
		info->bucket_mem = __rte_rht_slots(__rte_rht_bucket(tbl, 0));
		info->numa_node = tbl->numa_node;
	}
	rte_spinlock_unlock(&ht->rehash_lock);
	return ret;
}
