/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The flow table: one backend table and one flow mempool per address
 * family, the QSBR variable shared by both tables, and the control-lcore
 * work (aging, flush, show, dump).
 *
 * Only the control lcore removes flows. Removals go through the tables'
 * QSBR defer queues, which return a flow to its mempool once every
 * forwarding lcore has reported a quiescent state. Walks run on the control
 * lcore in batches: online as a QSBR reader while the batch walks, offline
 * while it removes what the batch picked (a removal may have to wait for a
 * grace period when the defer queue is full, and a thread cannot wait for
 * itself). The picked flows stay valid meanwhile because nobody else removes.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include "flowpmd.h"

static const char *const family_name[FLOW_NB_FAMILIES] = { "ipv4", "ipv6" };

static struct rte_rcu_qsbr *
qsbr_create(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v;

	v = rte_zmalloc("flowpmd_qsbr", sz, RTE_CACHE_LINE_SIZE);
	if (v == NULL)
		return NULL;
	if (rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0) {
		rte_free(v);
		return NULL;
	}
	return v;
}

static struct rte_mempool *
flow_pool_create(enum flow_family fam, uint32_t max_flows, int socket_id)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	/*
	 * Room for the table's flows, those waiting in a defer queue for
	 * their grace period, and the per-lcore caches.
	 */
	uint32_t n = max_flows + max_flows / 4 + 65536;

	snprintf(name, sizeof(name), "flowpmd_flows_%s", family_name[fam]);
	/* NO_SPREAD: no padding between flows (they are not DMA buffers) */
	return rte_mempool_create(name, n, FLOW_SIZE(fam), 256, 0, NULL, NULL, NULL, NULL,
				  socket_id, RTE_MEMPOOL_F_NO_SPREAD);
}

static int
backend_create(struct flow_table *ft, const struct ft_config *cfg, enum flow_family fam)
{
	char name[RTE_RHASHTABLE_NAMESIZE];
	struct ft_backend_conf bc = {
		.name = name,
		.family = fam,
		.max_flows = fam == FLOW_V4 ? cfg->max_flows : cfg->max_flows6,
		.socket_id = cfg->socket_id,
		.qsbr = ft->qsbr,
	};

	snprintf(name, sizeof(name), "flowpmd_%s", family_name[fam]);
	ft->pool[fam] = flow_pool_create(fam, bc.max_flows, cfg->socket_id);
	if (ft->pool[fam] == NULL) {
		printf("cannot create the %s flow mempool (%u flows)\n", family_name[fam],
		       bc.max_flows);
		return -ENOMEM;
	}
	bc.pool = ft->pool[fam];
	ft->be[fam] = ft->ops->create(&bc);
	return ft->be[fam] == NULL ? -ENOMEM : 0;
}

struct flow_table *
flow_table_create(const struct ft_config *cfg)
{
	struct flow_table *ft;
	int fam;

	ft = rte_zmalloc("flowpmd_ft", sizeof(*ft), RTE_CACHE_LINE_SIZE);
	if (ft == NULL)
		return NULL;
	ft->kind = cfg->kind;
	ft->ops = cfg->kind == FT_KIND_RTE_HASH ? &ft_hash_ops : &ft_rht_ops;
	ft->timeout_tsc = (uint64_t)(cfg->timeout_s * rte_get_tsc_hz());
	ft->age_family = -1;
	ft->qsbr = qsbr_create();
	if (ft->qsbr == NULL)
		goto err;
	/* the control lcore reads the tables too (walks, show flow) */
	ft->ctrl_thread_id = rte_lcore_id();
	rte_rcu_qsbr_thread_register(ft->qsbr, ft->ctrl_thread_id);
	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++)
		if (backend_create(ft, cfg, fam) != 0)
			goto err;
	return ft;
err:
	flow_table_free(ft);
	return NULL;
}

static void
flow_put_back(struct flow *f, void *arg)
{
	struct flow_table *ft = arg;

	rte_mempool_put(ft->pool[f->family], f);
}

void
flow_table_free(struct flow_table *ft)
{
	int fam;

	if (ft == NULL)
		return;
	if (ft->age_family >= 0)
		ft->ops->walk_end(ft->be[ft->age_family], &ft->age_walk);
	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++) {
		if (ft->be[fam] != NULL)
			ft->ops->destroy(ft->be[fam], flow_put_back, ft);
		rte_mempool_free(ft->pool[fam]);
	}
	rte_free(ft->qsbr);
	rte_free(ft);
}

int
flow_table_map_services(struct flow_table *ft)
{
	uint32_t lcores[RTE_MAX_LCORE];
	uint32_t id;
	int fam, n, i;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	if (n < 0)
		n = 0;
	ft->nb_services_lcores = n;
	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++) {
		if (ft->ops->service_id == NULL || ft->ops->service_id(ft->be[fam], &id) != 0)
			return 0;	/* rte_hash never rehashes */
		for (i = 0; i < n; i++)
			if (rte_service_map_lcore_set(id, lcores[i], 1) != 0)
				return -EINVAL;
	}
	for (i = 0; i < n; i++)
		rte_service_lcore_start(lcores[i]);	/* -EALREADY is fine */
	if (n == 0)
		printf("no service lcore (EAL -s): the main lcore runs the rehash work "
		       "every 10 ms\n");
	else
		printf("rehash services mapped to %d service lcore(s)\n", n);
	return 0;
}

/* ---- walks ---- */

typedef bool (*flow_pred_t)(const struct flow *f, void *arg);

/*
 * Walk up to max_visit flows of the current walk as a QSBR reader; put the
 * flows pred picks (at most max_visit) into out[] and mark them dead so a
 * walk that restarts after a rehash does not pick them twice.
 */
static unsigned int
walk_batch(struct flow_table *ft, void *be, struct ft_walk *w, flow_pred_t pred, void *arg,
	   struct flow **out, unsigned int max_visit, unsigned int *nb_out)
{
	unsigned int visited, n = 0;
	struct flow *f;

	rte_rcu_qsbr_thread_online(ft->qsbr, ft->ctrl_thread_id);
	ft->ops->walk_resume(be, w);
	for (visited = 0; visited < max_visit; visited++) {
		if (ft->ops->walk_next(be, w, &f) != 0)
			break;
		if (f->dead)
			continue;
		if (pred(f, arg)) {
			f->dead = 1;
			out[n++] = f;
		}
	}
	ft->ops->walk_pause(be, w);
	rte_rcu_qsbr_thread_offline(ft->qsbr, ft->ctrl_thread_id);
	*nb_out = n;
	return visited;
}

static uint64_t
remove_flows(struct flow_table *ft, void *be, struct flow **flows, unsigned int n)
{
	uint64_t removed = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ft->ops->remove(be, flows[i]) == 0)
			removed++;
	return removed;
}

struct expire_arg {
	uint64_t now;
	uint64_t timeout;
};

static bool
flow_expired(const struct flow *f, void *arg)
{
	const struct expire_arg *e = arg;
	uint64_t last = rte_atomic_load_explicit(&f->last_seen, rte_memory_order_relaxed);

	/* a forwarding lcore may have stamped a time later than e->now */
	return (int64_t)(e->now - last) > (int64_t)e->timeout;
}

static bool
flow_any(const struct flow *f, void *arg)
{
	RTE_SET_USED(f);
	RTE_SET_USED(arg);
	return true;
}

/* Walk one family completely, removing the flows pred picks. */
static uint64_t
remove_matching(struct flow_table *ft, enum flow_family fam, flow_pred_t pred, void *arg)
{
	struct flow *picked[FLOWPMD_WALK_BATCH];
	void *be = ft->be[fam];
	struct ft_walk w;
	unsigned int n;
	uint64_t removed = 0;

	ft->ops->walk_begin(be, &w);
	while (!w.done) {
		walk_batch(ft, be, &w, pred, arg, picked, RTE_DIM(picked), &n);
		removed += remove_flows(ft, be, picked, n);
	}
	ft->ops->walk_end(be, &w);
	return removed;
}

/* One step of the incremental aging pass: visit at most budget flows. */
static void
age_step(struct flow_table *ft, uint64_t now, uint32_t budget)
{
	struct expire_arg e = { .now = now, .timeout = ft->timeout_tsc };
	uint64_t interval = RTE_MIN(rte_get_tsc_hz(), ft->timeout_tsc / 2);
	struct flow *picked[FLOWPMD_WALK_BATCH];
	unsigned int n, visited;
	void *be;

	if (ft->age_family < 0) {
		if (now - ft->age_pass_start < interval)
			return;
		ft->age_pass_start = now;
		ft->age_family = FLOW_V4;
		ft->ops->walk_begin(ft->be[FLOW_V4], &ft->age_walk);
	}
	while (budget > 0) {
		be = ft->be[ft->age_family];
		visited = walk_batch(ft, be, &ft->age_walk, flow_expired, &e, picked,
				     RTE_MIN(budget, RTE_DIM(picked)), &n);
		/* relaxed atomic: the telemetry thread reads it */
		rte_atomic_fetch_add_explicit(&ft->aged, remove_flows(ft, be, picked, n),
					      rte_memory_order_relaxed);
		budget -= RTE_MIN(budget, RTE_MAX(visited, 1U));
		if (!ft->age_walk.done)
			continue;
		ft->ops->walk_end(be, &ft->age_walk);
		if (++ft->age_family == FLOW_NB_FAMILIES) {
			ft->age_family = -1;
			ft->age_passes++;
			return;
		}
		ft->ops->walk_begin(ft->be[ft->age_family], &ft->age_walk);
	}
}

void
flow_table_housekeeping(struct flow_table *ft, uint64_t now, uint32_t budget)
{
	int fam;

	if (ft->nb_services_lcores == 0 && ft->ops->rehash_run != NULL)
		for (fam = 0; fam < FLOW_NB_FAMILIES; fam++)
			ft->ops->rehash_run(ft->be[fam]);
	age_step(ft, now, budget);
}

uint64_t
flow_table_flush(struct flow_table *ft)
{
	uint64_t removed = 0;
	int fam;

	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++)
		removed += remove_matching(ft, fam, flow_any, NULL);
	rte_atomic_fetch_add_explicit(&ft->flushed, removed, rte_memory_order_relaxed);
	return removed;
}

/* ---- show and dump ---- */

static void
flow_snapshot(const struct flow *f, uint64_t now, struct flow_info *fi)
{
	double hz = rte_get_tsc_hz();
	uint64_t last = rte_atomic_load_explicit(&f->last_seen, rte_memory_order_relaxed);

	fi->family = f->family;
	memcpy(&fi->key, &f->key, flow_key_len(f->family));
	fi->pkts = rte_atomic_load_explicit(&f->pkts, rte_memory_order_relaxed);
	fi->bytes = rte_atomic_load_explicit(&f->bytes, rte_memory_order_relaxed);
	fi->age_s = (double)(int64_t)(now - f->first_seen) / hz;
	fi->idle_s = RTE_MAX((double)(int64_t)(now - last) / hz, 0.0);
}

int
flow_table_find(struct flow_table *ft, enum flow_family fam, const void *key,
		struct flow_info *out)
{
	struct flow *f;
	int ret = -ENOENT;

	rte_rcu_qsbr_thread_online(ft->qsbr, ft->ctrl_thread_id);
	f = ft->ops->lookup(ft->be[fam], key);
	if (f != NULL) {
		flow_snapshot(f, rte_rdtsc(), out);
		ret = 0;
	}
	rte_rcu_qsbr_thread_offline(ft->qsbr, ft->ctrl_thread_id);
	return ret;
}

/* Visit every flow of every family as a reader, in batches. */
static void
flow_table_visit(struct flow_table *ft, void (*fn)(const struct flow *f, void *arg), void *arg)
{
	struct ft_walk w;
	struct flow *f;
	unsigned int i;
	int fam;

	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++) {
		void *be = ft->be[fam];

		ft->ops->walk_begin(be, &w);
		while (!w.done) {
			rte_rcu_qsbr_thread_online(ft->qsbr, ft->ctrl_thread_id);
			ft->ops->walk_resume(be, &w);
			for (i = 0; i < FLOWPMD_WALK_BATCH; i++) {
				if (ft->ops->walk_next(be, &w, &f) != 0)
					break;
				if (!f->dead)
					fn(f, arg);
			}
			ft->ops->walk_pause(be, &w);
			rte_rcu_qsbr_thread_offline(ft->qsbr, ft->ctrl_thread_id);
		}
		ft->ops->walk_end(be, &w);
	}
}

struct top_arg {
	struct flow_info *top;   /* sorted by pkts, largest first */
	unsigned int n;
	unsigned int max;
	uint64_t now;
};

static void
top_visit(const struct flow *f, void *arg)
{
	struct top_arg *t = arg;
	uint64_t pkts = rte_atomic_load_explicit(&f->pkts, rte_memory_order_relaxed);
	unsigned int i;

	if (t->n == t->max && pkts <= t->top[t->n - 1].pkts)
		return;
	i = t->n < t->max ? t->n++ : t->n - 1;
	/* insertion sort: N is small */
	for (; i > 0 && t->top[i - 1].pkts < pkts; i--)
		t->top[i] = t->top[i - 1];
	flow_snapshot(f, t->now, &t->top[i]);
}

unsigned int
flow_table_top(struct flow_table *ft, struct flow_info *top, unsigned int n)
{
	struct top_arg t = { .top = top, .max = n, .now = rte_rdtsc() };

	if (n == 0)
		return 0;
	flow_table_visit(ft, top_visit, &t);
	return t.n;
}

static void
key_addr_str(const struct flow_info *fi, bool src, char *buf, size_t size)
{
	if (fi->family == FLOW_V4)
		inet_ntop(AF_INET, src ? &fi->key.v4.src : &fi->key.v4.dst, buf, size);
	else
		inet_ntop(AF_INET6, src ? fi->key.v6.src : fi->key.v6.dst, buf, size);
}

static void
key_fields(const struct flow_info *fi, char *src, char *dst, size_t size,
	   unsigned int *proto, unsigned int *sport, unsigned int *dport)
{
	key_addr_str(fi, true, src, size);
	key_addr_str(fi, false, dst, size);
	if (fi->family == FLOW_V4) {
		*proto = fi->key.v4.proto;
		*sport = ntohs(fi->key.v4.sport);
		*dport = ntohs(fi->key.v4.dport);
	} else {
		*proto = fi->key.v6.proto;
		*sport = ntohs(fi->key.v6.sport);
		*dport = ntohs(fi->key.v6.dport);
	}
}

void
flow_info_format(const struct flow_info *fi, char *buf, size_t size)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	unsigned int proto, sport, dport;

	key_fields(fi, src, dst, sizeof(src), &proto, &sport, &dport);
	snprintf(buf, size, "%s %s proto %u sport %u dport %u: %" PRIu64 " pkts %" PRIu64
		 " bytes, age %.1f s, idle %.1f s", src, dst, proto, sport, dport,
		 fi->pkts, fi->bytes, fi->age_s, fi->idle_s);
}

struct dump_arg {
	FILE *f;
	uint64_t n;
	uint64_t now;
};

static void
dump_visit(const struct flow *f, void *arg)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	unsigned int proto, sport, dport;
	struct dump_arg *d = arg;
	struct flow_info fi;

	flow_snapshot(f, d->now, &fi);
	key_fields(&fi, src, dst, sizeof(src), &proto, &sport, &dport);
	fprintf(d->f, "%s\n  {\"family\": \"%s\", \"src\": \"%s\", \"dst\": \"%s\", "
		"\"proto\": %u, \"sport\": %u, \"dport\": %u, \"pkts\": %" PRIu64
		", \"bytes\": %" PRIu64 "}", d->n == 0 ? "" : ",",
		family_name[fi.family], src, dst, proto, sport, dport, fi.pkts, fi.bytes);
	d->n++;
}

int
flow_table_dump_json(struct flow_table *ft, FILE *f)
{
	struct dump_arg d = { .f = f, .now = rte_rdtsc() };

	fprintf(f, "{\"flows\": [");
	flow_table_visit(ft, dump_visit, &d);
	fprintf(f, "\n], \"count\": %" PRIu64 "}\n", d.n);
	return 0;
}

void
flow_table_stats(struct flow_table *ft, struct ft_backend_stats *total)
{
	struct ft_backend_stats s;
	int fam;

	memset(total, 0, sizeof(*total));
	for (fam = 0; fam < FLOW_NB_FAMILIES; fam++) {
		memset(&s, 0, sizeof(s));
		ft->ops->stats(ft->be[fam], &s);
		total->flows += s.flows;
		total->buckets += s.buckets;
		total->tables = RTE_MAX(total->tables, s.tables);
		total->rehashes += s.rehashes;
		total->bytes += s.bytes;
		total->grows += s.grows;
		total->shrinks += s.shrinks;
		if (s.reclaim_pending < 0 || total->reclaim_pending < 0)
			total->reclaim_pending = -1;
		else
			total->reclaim_pending += s.reclaim_pending;
	}
}
