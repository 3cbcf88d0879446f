/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Forwarding lcores: receive a burst, parse each packet's 5-tuple, look the
 * burst's flows up in one bulk call per address family, create the missing
 * flows, update their counters and forward the burst.
 */

#include <errno.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>

#include "flowpmd.h"
#include "parse.h"

/* Keys of one burst, split by family; idx maps a key back to its packet. */
struct burst_keys {
	unsigned int n[FLOW_NB_FAMILIES];
	const void *kp[FLOW_NB_FAMILIES][FLOWPMD_MAX_BURST];
	uint32_t len[FLOW_NB_FAMILIES][FLOWPMD_MAX_BURST];
	struct flow *flow[FLOWPMD_MAX_BURST];
	struct flow_key4 k4[FLOWPMD_MAX_BURST];
	struct flow_key6 k6[FLOWPMD_MAX_BURST];
};

/* Single-writer update: a plain add published with a relaxed store. */
static inline void
stat_add(uint64_t *c, uint64_t v)
{
	rte_atomic_store_explicit(c, *c + v, rte_memory_order_relaxed);
}

/* ---- parsing (parse.h) ---- */

/*
 * Add the packet's key to the burst; returns its family, or -1 for a frame
 * that is not a flow (it is forwarded but not tracked). Headers are looked
 * for in the first segment only.
 */
static inline int
parse_pkt(struct rte_mbuf *m, struct burst_keys *b, struct lcore_stats *st)
{
	unsigned int vlans;
	int fam;

	fam = flowpmd_parse(rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m),
			    &b->k4[b->n[FLOW_V4]], &b->k6[b->n[FLOW_V6]], &vlans);
	if (fam < 0)
		return -1;
	st->vlan += vlans != 0;
	b->len[fam][b->n[fam]] = rte_pktmbuf_pkt_len(m);
	b->kp[fam][b->n[fam]] = fam == FLOW_V4 ? (const void *)&b->k4[b->n[FLOW_V4]] :
						 (const void *)&b->k6[b->n[FLOW_V6]];
	b->n[fam]++;
	return fam;
}

/* ---- flow update ---- */

/*
 * Per-flow counters: a forwarding lcore that is the only one updating a
 * flow does a load and a relaxed store (no locked instruction; the control
 * lcore's relaxed loads see whole values). With several forwarding lcores a
 * vdev without RSS can deliver one flow on several queues, so the counters
 * then use relaxed fetch-adds, which do not lose increments.
 */
static inline void
flow_account(struct flow *f, uint32_t len, uint64_t now, bool shared)
{
	if (shared) {
		rte_atomic_fetch_add_explicit(&f->pkts, 1, rte_memory_order_relaxed);
		rte_atomic_fetch_add_explicit(&f->bytes, len, rte_memory_order_relaxed);
	} else {
		rte_atomic_store_explicit(&f->pkts, f->pkts + 1, rte_memory_order_relaxed);
		rte_atomic_store_explicit(&f->bytes, f->bytes + len, rte_memory_order_relaxed);
	}
	rte_atomic_store_explicit(&f->last_seen, now, rte_memory_order_relaxed);
}

static inline void
flow_init(struct flow *f, int fam, const void *key, uint64_t now)
{
	f->node.next = NULL;
	f->last_seen = now;
	f->first_seen = now;
	f->pkts = 0;
	f->bytes = 0;
	f->family = fam;
	f->dead = 0;
	memcpy(&f->key, key, flow_key_len(fam));
}

/*
 * The flow a miss goes on once the insert of new flow f returned ret: f,
 * the flow another insert made (existing), or NULL.
 */
static struct flow *
flow_inserted(struct flow_table *ft, int fam, struct flow *f, int ret, struct flow *existing,
	      struct lcore_stats *st)
{
	if (likely(ret == 0)) {
		st->inserts++;
		return f;
	}
	/* never published: no reader can hold it, put it back at once */
	rte_mempool_put(ft->pool[fam], f);
	if (ret == -EEXIST) {
		st->insert_exist++;
		return existing;
	}
	if (ret == -ENOSPC || ret == -E2BIG)
		st->refused_full++;
	else
		st->refused_other++;
	return NULL;
}

/* A bulk-lookup miss: create the flow, or take the one another insert made. */
static struct flow *
flow_create(struct flow_table *ft, int fam, const void *key, uint64_t now,
	    struct lcore_stats *st)
{
	struct flow *f, *existing = NULL;
	void *obj;
	int ret;

	if (unlikely(rte_mempool_get(ft->pool[fam], &obj) != 0)) {
		st->alloc_fail++;
		return NULL;
	}
	f = obj;
	flow_init(f, fam, key, now);
	ret = ft->ops->insert(ft->be[fam], f, &existing);
	return flow_inserted(ft, fam, f, ret, existing, st);
}

/*
 * The misses miss[0..nm) of a burst in one insert_bulk() call, so that the
 * buckets of new flows are fetched together: b->flow[] gets their flows.
 * One at a time when the backend has no bulk insert or the pool cannot
 * give them all at once.
 */
static void
flows_create(struct flow_table *ft, struct burst_keys *b, int fam, const uint8_t *miss,
	     unsigned int nm, uint64_t now, struct lcore_stats *st)
{
	struct flow *nf[FLOWPMD_MAX_BURST], *existing[FLOWPMD_MAX_BURST];
	int rets[FLOWPMD_MAX_BURST];
	unsigned int j;

	if (ft->ops->insert_bulk == NULL || nm == 1 ||
	    rte_mempool_get_bulk(ft->pool[fam], (void **)nf, nm) != 0) {
		for (j = 0; j < nm; j++)
			b->flow[miss[j]] = flow_create(ft, fam, b->kp[fam][miss[j]], now, st);
		return;
	}
	for (j = 0; j < nm; j++)
		flow_init(nf[j], fam, b->kp[fam][miss[j]], now);
	ft->ops->insert_bulk(ft->be[fam], nf, nm, rets, existing);
	for (j = 0; j < nm; j++)
		b->flow[miss[j]] = flow_inserted(ft, fam, nf[j], rets[j], existing[j], st);
}

static void
flows_update(struct flow_table *ft, struct burst_keys *b, int fam, uint64_t now,
	     struct lcore_stats *st, bool shared)
{
	unsigned int i, nm = 0, n = b->n[fam];
	uint8_t miss[FLOWPMD_MAX_BURST];
	struct flow *f;
	int hits;

	if (n == 0)
		return;
	hits = ft->ops->lookup_bulk(ft->be[fam], b->kp[fam], n, b->flow);
	st->lookups += n;
	st->hits += hits > 0 ? hits : 0;
	for (i = 0; i < n && hits != (int)n; i++)
		if (b->flow[i] == NULL)
			miss[nm++] = i;
	if (nm != 0)
		flows_create(ft, b, fam, miss, nm, now, st);
	for (i = 0; i < n; i++) {
		f = b->flow[i];
		if (f != NULL)
			flow_account(f, b->len[fam][i], now, shared);
	}
}

/* ---- forwarding ---- */

static inline void
macswap(struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ether_addr tmp;

	rte_ether_addr_copy(&eth->src_addr, &tmp);
	rte_ether_addr_copy(&eth->dst_addr, &eth->src_addr);
	rte_ether_addr_copy(&tmp, &eth->dst_addr);
}

static void
pkts_send(const struct fwd_lcore *fl, uint16_t rx_port, struct rte_mbuf **pkts, uint16_t n,
	  struct lcore_stats *st)
{
	enum fwd_mode mode = rte_atomic_load_explicit(&app.fwd_mode, rte_memory_order_relaxed);
	uint16_t port = app.port[rx_port].peer;
	struct port_info *pi = &app.port[port];
	uint16_t txq = fl->index % pi->nb_txq;
	uint16_t i, sent;

	if (mode == FWD_MODE_DROP) {
		rte_pktmbuf_free_bulk(pkts, n);
		st->tx_drop += n;
		return;
	}
	if (mode == FWD_MODE_MACSWAP)
		for (i = 0; i < n; i++)
			macswap(pkts[i]);
	if (pi->tx_shared)
		rte_spinlock_lock(&pi->txq_lock[txq]);
	sent = rte_eth_tx_burst(port, txq, pkts, n);
	if (pi->tx_shared)
		rte_spinlock_unlock(&pi->txq_lock[txq]);
	if (unlikely(sent < n))
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	st->tx += sent;
	st->tx_drop += n - sent;
}

#define PREFETCH_AHEAD 4

/*
 * A burst in flight through the forwarding pipeline: received and parsed,
 * its keys waiting for the lookup.
 */
struct fwd_burst {
	const struct rxq_ref *q;
	uint16_t n;                 /**< 0: an empty slot. */
	struct rte_mbuf *pkts[FLOWPMD_MAX_BURST];
	struct burst_keys b;
};

/*
 * The pipeline of one forwarding lcore: burst k of the loop is received in
 * slot k % FWD_SLOTS and looked up lookup_stages steps later.
 */
#define FWD_SLOTS (FWD_MAX_LOOKUP_STAGES + 1)

struct fwd_pipe {
	uint64_t step;
	struct fwd_burst slot[FWD_SLOTS];
};

/*
 * Keys per prefetch call. A core has a dozen or so cache misses in flight;
 * a prefetch issued beyond that waits for a free slot, and the lcore with
 * it. So the early stages of the lookups go out a few keys at a time,
 * between the parsing of packets, and the misses overlap with the parsing
 * and the next RX burst instead of stalling the loop.
 */
#define FWD_PREFETCH_CHUNK 8

/* Where the prefetch stage of a burst has got to, per family. */
struct prefetch_cursor {
	unsigned int done[FLOW_NB_FAMILIES];
};

/* Run prefetch stage depth on up to max more parsed keys of bt. */
static void
burst_prefetch_more(const struct flow_table *ft, struct fwd_burst *bt,
		    struct prefetch_cursor *c, unsigned int max, uint32_t depth)
{
	unsigned int k;
	int fam;

	for (fam = 0; fam < FLOW_NB_FAMILIES && max > 0; fam++) {
		k = RTE_MIN(bt->b.n[fam] - c->done[fam], max);
		if (k == 0)
			continue;
		ft->ops->prefetch(ft->be[fam], bt->b.kp[fam] + c->done[fam], k, depth);
		c->done[fam] += k;
		max -= k;
	}
}

/* One chunk of every prefetch stage: stage d works on burst k-d. */
static void
pipe_prefetch(const struct flow_table *ft, struct fwd_pipe *p, uint64_t k, unsigned int stages,
	      struct prefetch_cursor *c, unsigned int max)
{
	unsigned int d;

	for (d = 0; d < stages; d++)
		burst_prefetch_more(ft, &p->slot[(k - d) % FWD_SLOTS], &c[d], max, d);
}

/*
 * Receive burst k (from q; none when q is NULL) and parse its keys. Every
 * FWD_PREFETCH_CHUNK packets, run the prefetch stages on as many keys:
 * stage 0 (buckets) on the keys just parsed, stage d on burst k-d.
 */
static void
burst_receive(const struct flow_table *ft, struct fwd_pipe *p, uint64_t k,
	      unsigned int stages, const struct rxq_ref *q, struct lcore_stats *st)
{
	struct prefetch_cursor c[FWD_MAX_LOOKUP_STAGES] = { 0 };
	struct fwd_burst *bt = &p->slot[k % FWD_SLOTS];
	struct burst_keys *b = &bt->b;
	struct rte_mbuf **pkts = bt->pkts;
	uint16_t n = 0, i;
	int fam;

	if (ft->ops->prefetch == NULL)
		stages = 0;
	b->n[FLOW_V4] = 0;
	b->n[FLOW_V6] = 0;
	if (q != NULL) {
		bt->q = q;
		n = rte_eth_rx_burst(q->port, q->queue, pkts, app.burst);
	}
	bt->n = n;
	for (i = 0; i < RTE_MIN(n, PREFETCH_AHEAD); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		if (i + PREFETCH_AHEAD < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + PREFETCH_AHEAD], void *));
		st->rx_bytes += rte_pktmbuf_pkt_len(pkts[i]);
		fam = parse_pkt(pkts[i], b, st);
		if (fam == FLOW_V4)
			st->ipv4++;
		else if (fam == FLOW_V6)
			st->ipv6++;
		else
			st->other++;
		if ((i + 1) % FWD_PREFETCH_CHUNK == 0)
			pipe_prefetch(ft, p, k, stages, c, FWD_PREFETCH_CHUNK);
	}
	/* the rest: a short burst's keys, the older bursts' longer ones */
	pipe_prefetch(ft, p, k, stages, c, FLOWPMD_MAX_BURST);
	st->rx += n;
}

/* The last stage: look the flows up, create the missing ones, forward. */
static void
burst_finish(struct fwd_lcore *fl, struct fwd_burst *bt, uint64_t now, bool shared,
	     struct lcore_stats *st)
{
	if (bt->n == 0)
		return;
	flows_update(app.ft, &bt->b, FLOW_V4, now, st, shared);
	flows_update(app.ft, &bt->b, FLOW_V6, now, st, shared);
	pkts_send(fl, bt->q->port, bt->pkts, bt->n, st);
	bt->n = 0;
}

/* Publish one step's counts: one store per counter. */
static void
stats_publish(struct fwd_lcore *fl, const struct lcore_stats *st)
{
	stat_add(&fl->stats.rx, st->rx);
	stat_add(&fl->stats.rx_bytes, st->rx_bytes);
	stat_add(&fl->stats.tx, st->tx);
	stat_add(&fl->stats.tx_drop, st->tx_drop);
	stat_add(&fl->stats.lookups, st->lookups);
	stat_add(&fl->stats.hits, st->hits);
	stat_add(&fl->stats.ipv4, st->ipv4);
	stat_add(&fl->stats.ipv6, st->ipv6);
	stat_add(&fl->stats.other, st->other);
	stat_add(&fl->stats.vlan, st->vlan);
	if (unlikely(st->lookups != st->hits)) {
		stat_add(&fl->stats.inserts, st->inserts);
		stat_add(&fl->stats.insert_exist, st->insert_exist);
		stat_add(&fl->stats.refused_full, st->refused_full);
		stat_add(&fl->stats.refused_other, st->refused_other);
		stat_add(&fl->stats.alloc_fail, st->alloc_fail);
	}
}

/*
 * One step of the pipeline: receive burst k from q (unless q is NULL: the
 * pipeline drains), running the prefetch stages of the bursts in flight
 * along the way, then look up and forward burst k - stages. So the memory
 * round trips of a burst's lookup (bucket, object, next object of the
 * chain) run while the lcore receives and parses the next bursts, instead
 * of stalling it. With stages 0 a burst is looked up as soon as it is
 * parsed.
 */
static void
fwd_step(struct fwd_lcore *fl, struct fwd_pipe *p, unsigned int stages,
	 const struct rxq_ref *q, uint64_t now, bool shared)
{
	const struct flow_table *ft = app.ft;
	struct lcore_stats st = { 0 };
	uint64_t k = p->step++;

	burst_receive(ft, p, k, stages, q, &st);
	burst_finish(fl, &p->slot[(k - stages) % FWD_SLOTS], now, shared, &st);
	stats_publish(fl, &st);
}

int
fwd_lcore_main(void *arg)
{
	struct fwd_lcore *fl = arg;
	struct rte_rcu_qsbr *v = app.ft->qsbr;
	unsigned int stages = app.lookup_stages;
	bool shared = app.counters_shared;
	struct fwd_pipe *p;
	unsigned int i;

	p = rte_zmalloc_socket("fwd_pipe", sizeof(*p), RTE_CACHE_LINE_SIZE,
			       rte_lcore_to_socket_id(fl->lcore_id));
	if (p == NULL) {
		printf("lcore %u: no memory for its pipeline\n", fl->lcore_id);
		return -ENOMEM;
	}
	p->step = stages;	/* the first steps look up empty slots */
	rte_rcu_qsbr_thread_register(v, fl->lcore_id);
	rte_rcu_qsbr_thread_online(v, fl->lcore_id);
	while (app.fwd_running) {
		for (i = 0; i < fl->nb_rxq; i++) {
			fwd_step(fl, p, stages, &fl->rxq[i], rte_rdtsc(), shared);
			/* nothing found in this step is used any more */
			rte_rcu_qsbr_quiescent(v, fl->lcore_id);
		}
	}
	/* forward the bursts still in flight: the last stages received */
	for (i = 0; i < stages; i++)
		fwd_step(fl, p, stages, NULL, rte_rdtsc(), shared);
	rte_rcu_qsbr_thread_offline(v, fl->lcore_id);
	rte_rcu_qsbr_thread_unregister(v, fl->lcore_id);
	rte_free(p);
	return 0;
}

int
fwd_start(void)
{
	unsigned int i;
	int ret;

	if (app.fwd_started)
		return -EALREADY;
	app.fwd_running = true;
	rte_smp_wmb();
	for (i = 0; i < app.nb_fwd; i++) {
		ret = rte_eal_remote_launch(fwd_lcore_main, &app.fwd[i], app.fwd[i].lcore_id);
		if (ret != 0) {
			printf("cannot launch lcore %u: %d\n", app.fwd[i].lcore_id, ret);
			app.fwd_running = false;
			rte_eal_mp_wait_lcore();
			return ret;
		}
	}
	app.fwd_started = true;
	app.last_start_tsc = rte_rdtsc();
	if (app.start_tsc == 0)
		app.start_tsc = app.last_start_tsc;
	return 0;
}

void
fwd_stop(void)
{
	unsigned int i;

	if (!app.fwd_started)
		return;
	app.fwd_running = false;
	for (i = 0; i < app.nb_fwd; i++)
		rte_eal_wait_lcore(app.fwd[i].lcore_id);
	app.fwd_started = false;
	app.fwd_tsc += rte_rdtsc() - app.last_start_tsc;
}
