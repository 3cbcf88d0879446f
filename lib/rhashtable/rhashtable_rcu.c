/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Reclamation through rte_rcu_qsbr, wired as rte_hash_rcu_qsbr_add() does:
 * in DQ mode retired bucket tables and removed objects wait in a defer queue
 * that the rehash service and writers reclaim; in SYNC mode the retiring
 * thread waits for a grace period. Without a QSBR variable the table assumes
 * no concurrent readers and frees at once.
 *
 * A full defer queue must not make a writer wait: the writer may itself be
 * an online reader that the grace period waits for. Entries then go to an
 * overflow array that grows as needed and is reclaimed with the queue.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "rhashtable_pvt.h"

#define RHT_DQ_DEFAULT_SIZE 65536
#define RHT_DQ_DEFAULT_RECLAIM_MAX 64

/* A defer queue entry: what to free. */
enum rht_dq_kind {
	RHT_DQ_TABLE,
	RHT_DQ_OBJ,
};

struct rht_dq_entry {
	void *ptr;
	uint64_t kind;
};

static void
free_now(struct rte_rhashtable *ht, void *ptr, enum rht_dq_kind kind)
{
	if (kind == RHT_DQ_TABLE) {
		__rte_rht_table_free(ht, ptr);
		RHT_COUNT(ht, tables_freed);
	} else {
		ht->rcu.free_obj(ht->rcu.free_obj_ctx, ptr);
		RHT_COUNT(ht, objs_freed);
	}
}

static void
dq_free(void *p, void *e, unsigned int n)
{
	struct rte_rhashtable *ht = p;
	struct rht_dq_entry *entries = e;
	unsigned int i;

	for (i = 0; i < n; i++)
		free_now(ht, entries[i].ptr, (enum rht_dq_kind)entries[i].kind);
	rte_atomic_fetch_sub_explicit(&ht->rcu.pending, n, rte_memory_order_relaxed);
}

/* Keep an entry that did not fit in the defer queue; -ENOMEM if no room. */
static int
overflow_push(struct rte_rhashtable *ht, void *ptr, enum rht_dq_kind kind)
{
	struct rht_rcu *r = &ht->rcu;
	struct rht_overflow_entry e = {
		.ptr = ptr, .kind = kind, .token = rte_rcu_qsbr_start(r->v),
	};
	int ret = 0;

	rte_spinlock_lock(&r->ovf_lock);
	if (r->ovf_n == r->ovf_cap) {
		uint32_t cap = RTE_MAX(2 * r->ovf_cap, 64U);
		struct rht_overflow_entry *a = rte_realloc(r->ovf, cap * sizeof(*a), 0);

		if (a == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		r->ovf = a;
		r->ovf_cap = cap;
	}
	r->ovf[r->ovf_n++] = e;
	rte_atomic_fetch_add_explicit(&r->pending, 1, rte_memory_order_relaxed);
out:
	rte_spinlock_unlock(&r->ovf_lock);
	return ret;
}

/* Free the overflow entries whose grace period is over, a batch at a time. */
static void
overflow_reclaim(struct rte_rhashtable *ht)
{
	struct rht_rcu *r = &ht->rcu;
	struct rht_overflow_entry done[64];
	uint32_t i, keep = 0, n = 0;

	if (rte_atomic_load_explicit(&r->ovf_n, rte_memory_order_relaxed) == 0 ||
	    !rte_spinlock_trylock(&r->ovf_lock))
		return;
	for (i = 0; i < r->ovf_n; i++) {
		if (n < RTE_DIM(done) && rte_rcu_qsbr_check(r->v, r->ovf[i].token, false) == 1)
			done[n++] = r->ovf[i];
		else
			r->ovf[keep++] = r->ovf[i];
	}
	r->ovf_n = keep;
	rte_spinlock_unlock(&r->ovf_lock);
	/* outside the lock: free_obj may call back into the table */
	for (i = 0; i < n; i++)
		free_now(ht, done[i].ptr, (enum rht_dq_kind)done[i].kind);
	rte_atomic_fetch_sub_explicit(&r->pending, n, rte_memory_order_relaxed);
}

/* Free ptr once no registered reader can hold it. */
static void
retire(struct rte_rhashtable *ht, void *ptr, enum rht_dq_kind kind)
{
	struct rht_dq_entry e = { .ptr = ptr, .kind = kind };

	if (ht->rcu.v == NULL) {
		free_now(ht, ptr, kind);
		return;
	}
	if (ht->rcu.mode == RTE_RHASHTABLE_QSBR_MODE_DQ) {
		/* counted first: the enqueue may reclaim it at once */
		rte_atomic_fetch_add_explicit(&ht->rcu.pending, 1, rte_memory_order_relaxed);
		if (rte_rcu_qsbr_dq_enqueue(ht->rcu.dq, &e) == 0)
			return;
		rte_atomic_fetch_sub_explicit(&ht->rcu.pending, 1, rte_memory_order_relaxed);
		overflow_reclaim(ht);
		if (overflow_push(ht, ptr, kind) == 0)
			return;
		RHT_LOG(ERR, "%s: defer queue full and no memory: waiting for a grace period",
			ht->name);
	}
	/* SYNC mode (the caller must not be an online reader), or no memory */
	rte_rcu_qsbr_synchronize(ht->rcu.v, RTE_QSBR_THRID_INVALID);
	free_now(ht, ptr, kind);
}

void
__rte_rht_retire_table(struct rte_rhashtable *ht, struct __rte_rht_table *tbl)
{
	retire(ht, tbl, RHT_DQ_TABLE);
}

void
__rte_rht_retire_obj(struct rte_rhashtable *ht, void *obj)
{
	if (ht->rcu.free_obj != NULL)
		retire(ht, obj, RHT_DQ_OBJ);
}

void
__rte_rht_rcu_reclaim(struct rte_rhashtable *ht)
{
	/* nothing retired: skip the call, which also logs a line at INFO
	 * level each time (DPDK 22.11), and the service calls us in a loop
	 */
	if (ht->rcu.dq == NULL ||
	    rte_atomic_load_explicit(&ht->rcu.pending, rte_memory_order_relaxed) == 0)
		return;
	rte_rcu_qsbr_dq_reclaim(ht->rcu.dq, RHT_DQ_DEFAULT_SIZE, NULL, NULL, NULL);
	overflow_reclaim(ht);
}

uint32_t
__rte_rht_rcu_pending(const struct rte_rhashtable *ht)
{
	return rte_atomic_load_explicit(&ht->rcu.pending, rte_memory_order_relaxed);
}

/* At free: wait for a grace period, so that everything queued can go. */
void
__rte_rht_rcu_free(struct rte_rhashtable *ht)
{
	uint32_t i;

	if (ht->rcu.dq == NULL)
		return;
	rte_rcu_qsbr_synchronize(ht->rcu.v, RTE_QSBR_THRID_INVALID);
	if (rte_rcu_qsbr_dq_delete(ht->rcu.dq) != 0)
		RHT_LOG(WARNING, "%s: defer queue not empty at free", ht->name);
	ht->rcu.dq = NULL;
	for (i = 0; i < ht->rcu.ovf_n; i++)
		free_now(ht, ht->rcu.ovf[i].ptr, (enum rht_dq_kind)ht->rcu.ovf[i].kind);
	rte_free(ht->rcu.ovf);
	ht->rcu.ovf = NULL;
	ht->rcu.ovf_n = 0;
}

static int
dq_create(struct rte_rhashtable *ht, const struct rte_rhashtable_rcu_config *cfg)
{
	struct rte_rcu_qsbr_dq_parameters params = {0};
	char name[RTE_RCU_QSBR_DQ_NAMESIZE];

	snprintf(name, sizeof(name), "rht_%s", ht->name);
	params.name = name;
	params.size = cfg->dq_size != 0 ? cfg->dq_size : RHT_DQ_DEFAULT_SIZE;
	params.esize = sizeof(struct rht_dq_entry);
	params.trigger_reclaim_limit = cfg->trigger_reclaim_limit != 0 ?
		cfg->trigger_reclaim_limit : params.size / 8;
	params.max_reclaim_size = cfg->max_reclaim_size != 0 ?
		cfg->max_reclaim_size : RHT_DQ_DEFAULT_RECLAIM_MAX;
	params.free_fn = dq_free;
	params.p = ht;
	params.v = cfg->v;
	ht->rcu.dq = rte_rcu_qsbr_dq_create(&params);
	if (ht->rcu.dq == NULL) {
		RHT_LOG(ERR, "%s: cannot create the defer queue: %s", ht->name,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_rhashtable_rcu_qsbr_add, 26.03)
int
rte_rhashtable_rcu_qsbr_add(struct rte_rhashtable *ht,
			    const struct rte_rhashtable_rcu_config *cfg)
{
	int ret;

	if (ht == NULL || cfg == NULL || cfg->v == NULL) {
		RHT_LOG(ERR, "NULL table, config or QSBR variable");
		return -EINVAL;
	}
	if (cfg->mode != RTE_RHASHTABLE_QSBR_MODE_DQ &&
	    cfg->mode != RTE_RHASHTABLE_QSBR_MODE_SYNC) {
		RHT_LOG(ERR, "%s: unknown QSBR mode %d", ht->name, cfg->mode);
		return -EINVAL;
	}
	if (ht->rcu.v != NULL) {
		RHT_LOG(ERR, "%s: a QSBR variable is attached already", ht->name);
		return -EEXIST;
	}
	if (cfg->mode == RTE_RHASHTABLE_QSBR_MODE_DQ) {
		ret = dq_create(ht, cfg);
		if (ret != 0)
			return ret;
	}
	ht->rcu.mode = cfg->mode;
	ht->rcu.free_obj = cfg->free_obj;
	ht->rcu.free_obj_ctx = cfg->free_obj_ctx;
	/* release: the worker and writers that see v see the rest of ht->rcu */
	rte_atomic_store_explicit(&ht->rcu.v, cfg->v, rte_memory_order_release);
	return 0;
}
