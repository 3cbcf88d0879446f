/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Telemetry: /flowpmd/stats gives the counters of the periodic statistics
 * line, /flowpmd/lcores those of each forwarding lcore,
 * /flowpmd/flow,<src>,<dst>,<proto>,<sport>,<dport> one flow's counters
 * (dpdk-telemetry.py shows them).
 *
 * The handlers run on EAL telemetry threads (one per connected client),
 * which are neither forwarding lcores nor the control lcore. They read the
 * counters with relaxed atomic loads, as the control lcore does, and take
 * no lock that a forwarding lcore takes. A lock of their own serialises
 * them, so that the one QSBR thread id below has one user at a time.
 *
 * A flow lookup returns a pointer into the table, valid only while the
 * thread is an online QSBR reader: once it goes offline, the control lcore
 * may age the flow out and its mempool may hand it to a new flow. `show
 * flow` uses the control lcore's own QSBR thread id for that, which a
 * telemetry thread cannot share (online/offline of one id from two threads
 * would let one thread's offline end the other's read-side section). So the
 * telemetry handlers get a QSBR thread id of their own, an lcore id that EAL
 * does not use (flowpmd registers no non-EAL thread that could claim it).
 * A handler copies the counters while online with that id; it is online
 * for one lookup only and never waits meanwhile, so it delays a grace
 * period by a few hundred nanoseconds at most, and while offline the grace
 * period checks ignore it.
 *
 * The commands are registered at start-up, before the flow table exists,
 * and cannot be unregistered: a lock (taken by the telemetry threads and by
 * the control lcore at start and exit, never by a forwarding lcore) keeps
 * the handlers away from the table before telemetry_start() and after
 * telemetry_stop().
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>
#include <rte_seqlock.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "flowpmd.h"
#include "flowpmd_compat.h"

#define FLOW_PARAMS 5 /* src, dst, proto, sport, dport */

static struct {
	rte_spinlock_t lock;         /**< Held by a handler while it runs. */
	bool ready;                  /**< Under lock: the flow table may be read. */
	unsigned int qsbr_id;        /**< QSBR thread id of the telemetry thread. */
	bool qsbr_ok;                /**< A free id was found and registered. */
	rte_seqlock_t period_lock;   /**< Writer: control lcore; reader: telemetry. */
	struct stats_period period;  /**< Last period of the statistics line. */
} tel = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* ---- control lcore side ---- */

/* The highest lcore id EAL does not use, or -1. */
static int
free_lcore_id(void)
{
	int id;

	for (id = RTE_MAX_LCORE - 1; id >= 0; id--)
		if (rte_eal_lcore_role(id) == ROLE_OFF)
			return id;
	return -1;
}

void
telemetry_start(void)
{
	int id = free_lcore_id();

	rte_spinlock_lock(&tel.lock);
	/* the table's QSBR variable counts RTE_MAX_LCORE thread ids */
	tel.qsbr_ok = id >= 0 && rte_rcu_qsbr_thread_register(app.ft->qsbr, id) == 0;
	if (tel.qsbr_ok)
		tel.qsbr_id = id;
	else
		printf("telemetry: no free QSBR thread id, /flowpmd/flow disabled\n");
	tel.ready = true;
	rte_spinlock_unlock(&tel.lock);
}

void
telemetry_stop(void)
{
	rte_spinlock_lock(&tel.lock);
	tel.ready = false;
	if (tel.qsbr_ok)
		rte_rcu_qsbr_thread_unregister(app.ft->qsbr, tel.qsbr_id);
	tel.qsbr_ok = false;
	rte_spinlock_unlock(&tel.lock);
}

void
telemetry_period_publish(const struct stats_period *p)
{
	rte_seqlock_write_lock(&tel.period_lock);
	tel.period = *p;
	rte_seqlock_write_unlock(&tel.period_lock);
}

/* ---- telemetry thread side ---- */

static void
period_read(struct stats_period *p)
{
	uint32_t sn;

	do {
		sn = rte_seqlock_read_begin(&tel.period_lock);
		*p = tel.period;
	} while (rte_seqlock_read_retry(&tel.period_lock, sn));
}

/* 2.5 -> "2.500": DPDK 22.11 telemetry has no floating-point values. */
static void
add_real(struct rte_tel_data *d, const char *name, double v, int decimals)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	rte_tel_data_add_dict_string(d, name, buf);
}

#define ADD_U64(d, name, v) rte_tel_data_add_dict_uint(d, name, v)

static void
add_period(struct rte_tel_data *d)
{
	struct stats_period p;

	period_read(&p);
	add_real(d, "period_s", p.secs, 3);
	add_real(d, "rx_mpps", p.rx_mpps, 3);
	add_real(d, "tx_mpps", p.tx_mpps, 3);
	add_real(d, "lookups_mps", p.lookups_mps, 3);
	add_real(d, "period_hit_pct", p.hit_pct, 2);
}

/* The counters /flowpmd/stats and /flowpmd/lcores both report. */
static void
add_lcore_stats(struct rte_tel_data *d, const struct lcore_stats *s)
{
	ADD_U64(d, "rx", s->rx);
	ADD_U64(d, "tx", s->tx);
	ADD_U64(d, "tx_drop", s->tx_drop);
	ADD_U64(d, "lookups", s->lookups);
	ADD_U64(d, "hits", s->hits);
	add_real(d, "hit_pct", stats_hit_pct(s->lookups, s->hits), 2);
	ADD_U64(d, "flows_created", s->inserts);
	ADD_U64(d, "refused_full", s->refused_full);
	ADD_U64(d, "refused_other", s->refused_other);
	ADD_U64(d, "alloc_fail", s->alloc_fail);
}

static void
add_totals(struct rte_tel_data *d, const struct app_totals *t)
{
	const struct flow_table *ft = app.ft;

	add_lcore_stats(d, &t->s);
	ADD_U64(d, "rx_bytes", t->s.rx_bytes);
	ADD_U64(d, "flows", t->t.flows);
	/* written by the control lcore alone */
	ADD_U64(d, "flows_aged", rte_atomic_load_explicit(&ft->aged, rte_memory_order_relaxed));
	ADD_U64(d, "flows_flushed", rte_atomic_load_explicit(&ft->flushed, rte_memory_order_relaxed));
	ADD_U64(d, "buckets", t->t.buckets);
	ADD_U64(d, "tables", t->t.tables);
	ADD_U64(d, "rehashes", t->t.rehashes);
	ADD_U64(d, "grows", t->t.grows);
	ADD_U64(d, "shrinks", t->t.shrinks);
	rte_tel_data_add_dict_int(d, "reclaim_pending", (int)t->t.reclaim_pending);
	ADD_U64(d, "table_bytes", t->t.bytes);
}

static int
cmd_stats(const char *cmd __rte_unused, const char *params __rte_unused,
	  struct rte_tel_data *d)
{
	struct app_totals t;
	int ret = -EINVAL;

	rte_spinlock_lock(&tel.lock);
	if (tel.ready) {
		stats_collect(&t);
		rte_tel_data_start_dict(d);
		rte_tel_data_add_dict_string(d, "backend", app.ft->ops->name);
		rte_tel_data_add_dict_string(d, "fwd_mode",
			fwd_mode_name(rte_atomic_load_explicit(&app.fwd_mode, rte_memory_order_relaxed)));
		rte_tel_data_add_dict_int(d, "forwarding", app.fwd_running);
		rte_tel_data_add_dict_int(d, "fwd_lcores", app.nb_fwd);
		add_totals(d, &t);
		add_period(d);
		ret = 0;
	}
	rte_spinlock_unlock(&tel.lock);
	return ret;
}

/* One forwarding lcore's counters and its rate in the last period. */
static int
add_lcore(struct rte_tel_data *d, unsigned int i, const struct lcore_stats *s,
	  const struct stats_period *p)
{
	struct rte_tel_data *lc = rte_tel_data_alloc();
	char name[16];

	if (lc == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(lc);
	add_lcore_stats(lc, s);
	add_real(lc, "rx_mpps", p->lcore_rx_mpps[i], 3);
	snprintf(name, sizeof(name), "%u", app.fwd[i].lcore_id);
	/* keep = 0: freed with d, once the reply is sent */
	if (rte_tel_data_add_dict_container(d, name, lc, 0) != 0) {
		rte_tel_data_free(lc);
		return -ENOSPC;
	}
	return 0;
}

static int
cmd_lcores(const char *cmd __rte_unused, const char *params __rte_unused,
	   struct rte_tel_data *d)
{
	struct app_totals t;
	struct stats_period p;
	unsigned int i;
	int ret = -EINVAL;

	rte_spinlock_lock(&tel.lock);
	if (tel.ready) {
		stats_collect(&t);
		period_read(&p);
		rte_tel_data_start_dict(d);
		for (ret = 0, i = 0; i < app.nb_fwd && ret == 0; i++)
			ret = add_lcore(d, i, &t.lc[i], &p);
	}
	rte_spinlock_unlock(&tel.lock);
	return ret;
}

/* A decimal number in [0, max], the whole string. */
static int
parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno != 0 || *end != '\0' || *v > max ? -EINVAL : 0;
}

/* "src,dst,proto,sport,dport" -> key of the returned family, or -EINVAL. */
static int
parse_flow(const char *params, struct flow_key4 *k4, struct flow_key6 *k6)
{
	char buf[256], *f[FLOW_PARAMS + 1], *save = NULL;
	unsigned long proto, sport, dport;
	unsigned int n = 0;
	int fam;

	if (params == NULL || strlen(params) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, params);
	for (f[0] = strtok_r(buf, ",", &save); f[n] != NULL && n < FLOW_PARAMS; )
		f[++n] = strtok_r(NULL, ",", &save);
	if (n != FLOW_PARAMS || f[FLOW_PARAMS] != NULL)
		return -EINVAL;
	if (parse_uint(f[2], UINT8_MAX, &proto) != 0 ||
	    parse_uint(f[3], UINT16_MAX, &sport) != 0 ||
	    parse_uint(f[4], UINT16_MAX, &dport) != 0)
		return -EINVAL;
	memset(k4, 0, sizeof(*k4));
	memset(k6, 0, sizeof(*k6));
	if (inet_pton(AF_INET, f[0], &k4->src) == 1 && inet_pton(AF_INET, f[1], &k4->dst) == 1) {
		fam = FLOW_V4;
		k4->proto = proto;
		k4->sport = htons(sport);
		k4->dport = htons(dport);
	} else if (inet_pton(AF_INET6, f[0], k6->src) == 1 &&
		   inet_pton(AF_INET6, f[1], k6->dst) == 1) {
		fam = FLOW_V6;
		k6->proto = proto;
		k6->sport = htons(sport);
		k6->dport = htons(dport);
	} else {
		return -EINVAL;
	}
	return fam;
}

/*
 * Copy the counters of the flow of key while online as the telemetry
 * thread's QSBR reader (see the top of the file). Caller holds tel.lock.
 */
static int
flow_counters(enum flow_family fam, const void *key, uint64_t *pkts, uint64_t *bytes)
{
	struct flow_table *ft = app.ft;
	struct flow *f;
	int ret = -EINVAL;

	rte_rcu_qsbr_thread_online(ft->qsbr, tel.qsbr_id);
	f = ft->ops->lookup(ft->be[fam], key);
	if (f != NULL) {
		*pkts = rte_atomic_load_explicit(&f->pkts, rte_memory_order_relaxed);
		*bytes = rte_atomic_load_explicit(&f->bytes, rte_memory_order_relaxed);
		ret = 0;
	}
	rte_rcu_qsbr_thread_offline(ft->qsbr, tel.qsbr_id);
	return ret;
}

static int
cmd_flow(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	uint64_t pkts = 0, bytes = 0;
	struct flow_key4 k4;
	struct flow_key6 k6;
	int fam, ret = -EINVAL;

	fam = parse_flow(params, &k4, &k6);
	if (fam < 0)
		return -EINVAL;
	rte_spinlock_lock(&tel.lock);
	if (tel.ready && tel.qsbr_ok)
		ret = flow_counters(fam, fam == FLOW_V4 ? (void *)&k4 : (void *)&k6,
				    &pkts, &bytes);
	rte_spinlock_unlock(&tel.lock);
	if (ret != 0)
		return ret;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "family", fam == FLOW_V4 ? "ipv4" : "ipv6");
	ADD_U64(d, "packets", pkts);
	ADD_U64(d, "bytes", bytes);
	return 0;
}

RTE_INIT(flowpmd_telemetry_init)
{
	rte_seqlock_init(&tel.period_lock);
	rte_telemetry_register_cmd("/flowpmd/stats", cmd_stats,
		"Returns dpdk-flowpmd's forwarding and flow table counters. Takes no parameters");
	rte_telemetry_register_cmd("/flowpmd/lcores", cmd_lcores,
		"Returns dpdk-flowpmd's counters per forwarding lcore. Takes no parameters");
	rte_telemetry_register_cmd("/flowpmd/flow", cmd_flow,
		"Returns the packet and byte counters of one flow. "
		"Parameters: src,dst,proto,sport,dport (IPv4 or IPv6 addresses)");
}
