/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Reclamation through rte_rcu_qsbr, wired as rte_hash_rcu_qsbr_add() does:
 * in DQ mode retired bucket tables and removed objects wait in a defer queue
 * that the rehash service and writers reclaim; in SYNC mode the retiring
 * thread waits for a grace period. Without a QSBR variable the table assumes
 * no concurrent readers and frees at once.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_errno.h>
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
		rht_table_free(ht, ptr);
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
	__atomic_fetch_sub(&ht->rcu.pending, n, __ATOMIC_RELAXED);
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
		__atomic_fetch_add(&ht->rcu.pending, 1, __ATOMIC_RELAXED);
		if (rte_rcu_qsbr_dq_enqueue(ht->rcu.dq, &e) == 0)
			return;
		__atomic_fetch_sub(&ht->rcu.pending, 1, __ATOMIC_RELAXED);
	}
	/* SYNC mode, or the defer queue is full of entries readers still hold */
	rte_rcu_qsbr_synchronize(ht->rcu.v, RTE_QSBR_THRID_INVALID);
	free_now(ht, ptr, kind);
}

void
rht_retire_table(struct rte_rhashtable *ht, struct rht_table *tbl)
{
	retire(ht, tbl, RHT_DQ_TABLE);
}

void
rht_retire_obj(struct rte_rhashtable *ht, void *obj)
{
	if (ht->rcu.free_obj != NULL)
		retire(ht, obj, RHT_DQ_OBJ);
}

void
rht_rcu_reclaim(struct rte_rhashtable *ht)
{
	if (ht->rcu.dq != NULL)
		rte_rcu_qsbr_dq_reclaim(ht->rcu.dq, RHT_DQ_DEFAULT_SIZE, NULL, NULL, NULL);
}

uint32_t
rht_rcu_pending(const struct rte_rhashtable *ht)
{
	return __atomic_load_n(&ht->rcu.pending, __ATOMIC_RELAXED);
}

/* At free: wait for a grace period, so that everything queued can go. */
void
rht_rcu_free(struct rte_rhashtable *ht)
{
	if (ht->rcu.dq == NULL)
		return;
	rte_rcu_qsbr_synchronize(ht->rcu.v, RTE_QSBR_THRID_INVALID);
	if (rte_rcu_qsbr_dq_delete(ht->rcu.dq) != 0)
		RHT_LOG(WARNING, "%s: defer queue not empty at free", ht->name);
	ht->rcu.dq = NULL;
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
	__atomic_store_n(&ht->rcu.v, cfg->v, __ATOMIC_RELEASE);
	return 0;
}
