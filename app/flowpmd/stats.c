/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/* Statistics: the per-second line, the final summary, show commands. */

#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "flowpmd.h"

#define STAT_FIELDS(X) \
	X(rx) X(rx_bytes) X(tx) X(tx_drop) X(lookups) X(hits) X(inserts) \
	X(insert_exist) X(refused_full) X(refused_other) X(alloc_fail) \
	X(ipv4) X(ipv6) X(vlan) X(other)

void
stats_collect(struct app_totals *tot)
{
	const struct lcore_stats *s;
	unsigned int i;

	memset(tot, 0, sizeof(*tot));
	/* the sum is of the per-lcore snapshot: both always agree */
	for (i = 0; i < app.nb_fwd; i++) {
		s = &app.fwd[i].stats;
#define ADD(f) tot->lc[i].f = rte_atomic_load_explicit(&s->f, rte_memory_order_relaxed); \
		tot->s.f += tot->lc[i].f;
		STAT_FIELDS(ADD)
#undef ADD
	}
	flow_table_stats(app.ft, &tot->t);
	tot->tsc = rte_rdtsc();
}

static double
rate(uint64_t a, uint64_t b, double secs)
{
	return secs > 0 ? (double)(b - a) / secs : 0;
}

double
stats_hit_pct(uint64_t lookups, uint64_t hits)
{
	return lookups == 0 ? 0 : 100.0 * hits / lookups;
}

static double
elapsed_s(void)
{
	return app.start_tsc == 0 ? 0 : (double)(rte_rdtsc() - app.start_tsc) / rte_get_tsc_hz();
}

void
stats_period_compute(const struct app_totals *prev, const struct app_totals *cur,
		     struct stats_period *p)
{
	unsigned int i;

	p->secs = (double)(cur->tsc - prev->tsc) / rte_get_tsc_hz();
	p->rx_mpps = rate(prev->s.rx, cur->s.rx, p->secs) / 1e6;
	p->tx_mpps = rate(prev->s.tx, cur->s.tx, p->secs) / 1e6;
	p->lookups_mps = rate(prev->s.lookups, cur->s.lookups, p->secs) / 1e6;
	p->hit_pct = stats_hit_pct(cur->s.lookups - prev->s.lookups, cur->s.hits - prev->s.hits);
	for (i = 0; i < app.nb_fwd; i++)
		p->lcore_rx_mpps[i] = rate(prev->lc[i].rx, cur->lc[i].rx, p->secs) / 1e6;
}

/* Each forwarding lcore's receive rate in the period: imbalance shows here. */
static void
period_lcores_json(FILE *f, const struct stats_period *p)
{
	unsigned int i;

	fprintf(f, ", \"lcore_rx_mpps\": {");
	for (i = 0; i < app.nb_fwd; i++)
		fprintf(f, "%s\"%u\": %.3f", i > 0 ? ", " : "", app.fwd[i].lcore_id,
			p->lcore_rx_mpps[i]);
	fprintf(f, "}");
}

/* With several forwarding lcores, the line ends with each one's rate. */
static void
period_lcores_text(const struct stats_period *p)
{
	unsigned int i;

	if (app.nb_fwd < 2)
		return;
	printf(" | lcore Mpps");
	for (i = 0; i < app.nb_fwd; i++)
		printf(" %u:%.3f", app.fwd[i].lcore_id, p->lcore_rx_mpps[i]);
}

void
stats_print_period(const struct app_totals *prev, const struct app_totals *cur)
{
	struct stats_period p;
	double rx, tx, lk, hr;
	uint64_t refused = cur->s.refused_full + cur->s.refused_other;

	stats_period_compute(prev, cur, &p);
	rx = p.rx_mpps;
	tx = p.tx_mpps;
	lk = p.lookups_mps;
	hr = p.hit_pct;
	if (app.json != NULL) {
		fprintf(app.json, "{\"type\": \"stats\", \"t\": %.2f, \"rx_mpps\": %.3f, "
			"\"tx_mpps\": %.3f, \"lookups_mps\": %.3f, \"hit_pct\": %.2f, "
			"\"flows\": %" PRIu64 ", \"buckets\": %" PRIu64 ", \"tables\": %u, "
			"\"rehashes\": %" PRIu64 ", \"reclaim_pending\": %" PRId64
			", \"refused\": %" PRIu64 ", \"aged\": %" PRIu64,
			elapsed_s(), rx, tx, lk, hr, cur->t.flows, cur->t.buckets,
			cur->t.tables, cur->t.rehashes, cur->t.reclaim_pending, refused,
			app.ft->aged);
		period_lcores_json(app.json, &p);
		fprintf(app.json, "}\n");
		fflush(app.json);
		if (app.json == stdout)
			return;
	}
	printf("[%6.1fs] in %7.3f Mpps out %7.3f Mpps | lookups %7.3f M/s hit %6.2f%% | "
	       "flows %" PRIu64 " buckets %" PRIu64 " tables %u rehashes %" PRIu64
	       " reclaimq %" PRId64 " | refused %" PRIu64 " aged %" PRIu64,
	       elapsed_s(), rx, tx, lk, hr, cur->t.flows, cur->t.buckets, cur->t.tables,
	       cur->t.rehashes, cur->t.reclaim_pending, refused, app.ft->aged);
	period_lcores_text(&p);
	printf("\n");
	fflush(stdout);
}

/* The counters of each forwarding lcore, with its mean receive rate. */
static void
summary_lcores_json(FILE *f, const struct app_totals *t, double secs)
{
	const struct lcore_stats *s;
	unsigned int i;

	fprintf(f, ", \"lcores\": [");
	for (i = 0; i < app.nb_fwd; i++) {
		s = &t->lc[i];
		fprintf(f, "%s{\"lcore\": %u, \"rx_mpps\": %.3f, \"hit_pct\": %.3f",
			i > 0 ? ", " : "", app.fwd[i].lcore_id, rate(0, s->rx, secs) / 1e6,
			stats_hit_pct(s->lookups, s->hits));
#define JSON(f_) fprintf(f, ", \"%s\": %" PRIu64, #f_, s->f_);
		STAT_FIELDS(JSON)
#undef JSON
		fprintf(f, "}");
	}
	fprintf(f, "]");
}

static void
summary_json(FILE *f, const struct app_totals *t, double secs)
{
	fprintf(f, "{\"type\": \"summary\", \"backend\": \"%s\", \"fwd_mode\": \"%s\", "
		"\"fwd_lcores\": %u, \"ports\": %u, \"duration_s\": %.3f, "
		"\"rx_mpps\": %.3f, \"tx_mpps\": %.3f, \"hit_pct\": %.3f",
		app.ft->ops->name, fwd_mode_name(app.fwd_mode), app.nb_fwd, app.nb_ports,
		secs, rate(0, t->s.rx, secs) / 1e6, rate(0, t->s.tx, secs) / 1e6,
		stats_hit_pct(t->s.lookups, t->s.hits));
#define JSON(f_) fprintf(f, ", \"%s\": %" PRIu64, #f_, t->s.f_);
	STAT_FIELDS(JSON)
#undef JSON
	fprintf(f, ", \"flows\": %" PRIu64 ", \"buckets\": %" PRIu64 ", \"tables\": %u, "
		"\"rehashes\": %" PRIu64 ", \"grows\": %" PRIu64 ", \"shrinks\": %" PRIu64
		", \"reclaim_pending\": %" PRId64 ", \"table_bytes\": %" PRIu64
		", \"aged\": %" PRIu64 ", \"flushed\": %" PRIu64,
		t->t.flows, t->t.buckets, t->t.tables, t->t.rehashes, t->t.grows,
		t->t.shrinks, t->t.reclaim_pending, t->t.bytes, app.ft->aged,
		app.ft->flushed);
	summary_lcores_json(f, t, secs);
	fprintf(f, "}\n");
	fflush(f);
}

/* One line per forwarding lcore: its share of the traffic and of the work. */
static void
summary_lcores_text(const struct app_totals *t, double secs)
{
	const struct lcore_stats *s;
	unsigned int i;

	for (i = 0; i < app.nb_fwd; i++) {
		s = &t->lc[i];
		printf("  lcore %u: rx %" PRIu64 " pkts (%.3f Mpps, %.1f%%), tx %" PRIu64
		       ", dropped %" PRIu64 ", lookups %" PRIu64 " hits %" PRIu64 " (%.2f%%), "
		       "flows created %" PRIu64 ", refused %" PRIu64 "\n", app.fwd[i].lcore_id,
		       s->rx, rate(0, s->rx, secs) / 1e6,
		       t->s.rx == 0 ? 0.0 : 100.0 * s->rx / t->s.rx, s->tx, s->tx_drop,
		       s->lookups, s->hits, stats_hit_pct(s->lookups, s->hits), s->inserts,
		       s->refused_full + s->refused_other);
	}
}

void
stats_print_summary(const struct app_totals *t)
{
	double secs = (double)app.fwd_tsc / rte_get_tsc_hz();

	if (app.json != NULL)
		summary_json(app.json, t, secs);
	if (app.json == stdout)
		return;
	printf("\n==== flowpmd summary (%s, fwd %s, %u forwarding lcore(s), %.2f s) ====\n",
	       app.ft->ops->name, fwd_mode_name(app.fwd_mode), app.nb_fwd, secs);
	printf("  rx %" PRIu64 " pkts (%.3f Mpps), tx %" PRIu64 " pkts (%.3f Mpps), "
	       "dropped %" PRIu64 "\n", t->s.rx, rate(0, t->s.rx, secs) / 1e6, t->s.tx,
	       rate(0, t->s.tx, secs) / 1e6, t->s.tx_drop);
	printf("  ipv4 %" PRIu64 " ipv6 %" PRIu64 " vlan-tagged %" PRIu64 " other %" PRIu64
	       "\n", t->s.ipv4, t->s.ipv6, t->s.vlan, t->s.other);
	printf("  lookups %" PRIu64 " hits %" PRIu64 " (%.2f%%), flows created %" PRIu64
	       ", insert found existing %" PRIu64 "\n", t->s.lookups, t->s.hits,
	       stats_hit_pct(t->s.lookups, t->s.hits), t->s.inserts, t->s.insert_exist);
	printf("  refused inserts: full %" PRIu64 ", other %" PRIu64 "; flow alloc failures %"
	       PRIu64 "\n", t->s.refused_full, t->s.refused_other, t->s.alloc_fail);
	printf("  flows now %" PRIu64 ", aged %" PRIu64 ", flushed %" PRIu64 "; buckets %"
	       PRIu64 ", tables %u, rehashes %" PRIu64 " (grows %" PRIu64 ", shrinks %"
	       PRIu64 "), reclaim queue %" PRId64 "\n", t->t.flows, app.ft->aged,
	       app.ft->flushed, t->t.buckets, t->t.tables, t->t.rehashes, t->t.grows,
	       t->t.shrinks, t->t.reclaim_pending);
	summary_lcores_text(t, secs);
	fflush(stdout);
}

void
stats_print_ports(void)
{
	struct rte_eth_stats s;
	uint16_t i, port;

	for (i = 0; i < app.nb_ports; i++) {
		port = app.ports[i];
		if (rte_eth_stats_get(port, &s) != 0)
			continue;
		printf("port %u: rx %" PRIu64 " pkts %" PRIu64 " bytes, missed %" PRIu64
		       ", errors %" PRIu64 ", no mbuf %" PRIu64 "; tx %" PRIu64 " pkts %"
		       PRIu64 " bytes, errors %" PRIu64 "\n", port, s.ipackets, s.ibytes,
		       s.imissed, s.ierrors, s.rx_nombuf, s.opackets, s.obytes, s.oerrors);
	}
}

void
stats_print_table(void)
{
	struct app_totals t;

	stats_collect(&t);
	printf("flow table: %s, %s\n", app.ft->ops->name,
	       app.fwd_started ? "forwarding" : "stopped");
	printf("  flows %" PRIu64 ", buckets %" PRIu64 ", bucket tables %u, rehashes %" PRIu64
	       " (grows %" PRIu64 ", shrinks %" PRIu64 "), reclaim queue %" PRId64
	       ", memory %" PRIu64 " KiB\n", t.t.flows, t.t.buckets, t.t.tables, t.t.rehashes,
	       t.t.grows, t.t.shrinks, t.t.reclaim_pending, t.t.bytes / 1024);
	printf("  lookups %" PRIu64 ", hits %" PRIu64 " (%.2f%%), created %" PRIu64
	       ", refused full %" PRIu64 ", refused other %" PRIu64 ", alloc failures %"
	       PRIu64 "\n", t.s.lookups, t.s.hits, stats_hit_pct(t.s.lookups, t.s.hits),
	       t.s.inserts, t.s.refused_full, t.s.refused_other, t.s.alloc_fail);
	printf("  aging: timeout %.1f s, aged %" PRIu64 ", passes %" PRIu64 ", flushed %"
	       PRIu64 "; rehash on %s\n", app.ft_cfg.timeout_s, app.ft->aged,
	       app.ft->age_passes, app.ft->flushed,
	       app.ft->nb_services_lcores ? "service lcores" : "the main lcore");
}
