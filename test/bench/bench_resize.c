/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Lookups during a resize. The main lcore looks up a stable key set S
 * (every lookup must hit) and counts its lookups in 10 ms windows, while the
 * service lcore runs two services: the table's rehash service and a writer
 * that first inserts an extra set E (the load passes the grow threshold and
 * the table doubles from 128Ki to 256Ki buckets of 7 slots) and then
 * removes E again (the load falls below the shrink threshold and the table
 * halves back).
 */

#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>
#include <rte_service_component.h>
#include <rte_pause.h>

#include <rte_rhashtable.h>
#include <rte_rhashtable_config.h>

#include "bench_peer.h"

#define BASE_BUCKETS (1u << 17)
/* its slots: the loads of the thresholds are of them (as many bytes as 1Mi
 * one-word buckets, which the case used before buckets were lines)
 */
#define BASE_SLOTS ((uint64_t)BASE_BUCKETS * RTE_RHASHTABLE_BUCKET_SLOTS)
#define STREAM_KEYS (1u << 20)
#define WINDOW_MS 10
#define MAX_WINDOWS 4096
#define BASELINE_MS 300
#define HOLD_MS 200
#define TAIL_MS 300
#define PHASE_TIMEOUT_MS 20000

struct resize_flow {
	struct bench_key key;
	struct rte_rhash_head head;
	uint64_t hits;
};

/* Phases, driven by the main lcore from what it sees between windows. */
enum phase { PH_BASELINE, PH_GROW, PH_HOLD, PH_SHRINK, PH_TAIL, PH_DONE };

static const char *const phase_names[] = {
	"baseline", "grow", "hold", "shrink", "tail", "done",
};

enum writer_cmd { W_IDLE, W_INSERT, W_REMOVE };

struct resize_ctx {
	struct rte_rhashtable *ht;
	struct resize_flow *objs;
	uint32_t s_keys;          /* stable set: objects [0, s_keys) */
	uint32_t e_keys;          /* extra set: objects [s_keys, s_keys + e_keys) */
	struct bench_key *stream;
	uint32_t rht_svc;
	uint32_t writer_svc;
	int writer_registered;
	/* What the writer writes, on lines of its own: the reader reads the
	 * fields above at every lookup, and while they shared a line with
	 * writer_next and writer_busy, each insert (and each idle call of the
	 * writer service) made the next lookup miss on it: the bench then
	 * measured its own false sharing, 30% of the reader's rate.
	 */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t writer_cmd; /* enum writer_cmd, set by main */
	uint32_t writer_next;     /* next extra object to handle (writer only) */
	uint32_t writer_done;     /* set by the writer when a command is done */
	/* 1 while the writer callback runs; it does nothing once stop is set.
	 * A service lcore may enter the callback after the service is
	 * unmapped (it read the map just before): ctx_free() sets stop, then
	 * waits for busy to drop before freeing what the writer uses.
	 */
	uint32_t writer_busy;
	uint32_t writer_stop;
};

/* Static, not on a stack: a late callback must still find it. */
static struct resize_ctx resize_ctx;

struct window {
	double t_ms;
	double mops;
	double on_cpu;      /* share of the window the main thread was running */
	double cpu_mops;    /* lookups per second of the thread's CPU time */
	enum phase ph;
	uint32_t buckets;
	uint32_t ntables;
};

static struct window windows[MAX_WINDOWS];
static volatile uint64_t resize_sink;

static int32_t writer_step(struct resize_ctx *c);

/* One call of the writer service: up to 256 inserts or removes of E. */
static int32_t
writer_service(void *arg)
{
	struct resize_ctx *c = arg;
	int rc;

	/* seq_cst: pairs with ctx_free(): either it sees busy, or we see stop */
	rte_atomic_store_explicit(&c->writer_busy, 1, rte_memory_order_seq_cst);
	if (rte_atomic_load_explicit(&c->writer_stop, rte_memory_order_seq_cst)) {
		rte_atomic_store_explicit(&c->writer_busy, 0, rte_memory_order_release);
		return -EAGAIN;
	}
	rc = writer_step(c);
	rte_atomic_store_explicit(&c->writer_busy, 0, rte_memory_order_release);
	return rc;
}

static int32_t
writer_step(struct resize_ctx *c)
{
	uint32_t cmd = rte_atomic_load_explicit(&c->writer_cmd, rte_memory_order_acquire);
	uint32_t end = c->s_keys + c->e_keys, i, k;
	int rc;

	if (cmd == W_IDLE || rte_atomic_load_explicit(&c->writer_done, rte_memory_order_relaxed))
		return -EAGAIN;
	for (k = 0; k < 256 && c->writer_next < end; k++) {
		i = c->writer_next;
		if (cmd == W_INSERT)
			rc = rte_rhashtable_insert(c->ht, &c->objs[i].head);
		else
			rc = rte_rhashtable_remove(c->ht, &c->objs[i].head);
		if (rc == -EBUSY)
			return 0; /* a chain is full: let the rehash service run */
		c->writer_next++;
	}
	if (c->writer_next == end)
		rte_atomic_store_explicit(&c->writer_done, 1, rte_memory_order_release);
	return 0;
}

/*
 * Give the writer a new command. A callback may be running the previous one:
 * park it first (W_IDLE, then wait until no callback is inside), or it
 * could read the reset writer_next with the old command and insert objects
 * that are already in the table (a run of this bench once did, and the
 * object linked twice pointed to itself).
 */
static void
writer_start(struct resize_ctx *c, enum writer_cmd cmd)
{
	/* seq_cst: a callback that enters after the wait sees W_IDLE */
	rte_atomic_store_explicit(&c->writer_cmd, W_IDLE, rte_memory_order_seq_cst);
	while (rte_atomic_load_explicit(&c->writer_busy, rte_memory_order_seq_cst))
		rte_pause();
	c->writer_next = c->s_keys;
	rte_atomic_store_explicit(&c->writer_done, 0, rte_memory_order_relaxed);
	/* pairs with the acquire load in writer_step() */
	rte_atomic_store_explicit(&c->writer_cmd, cmd, rte_memory_order_release);
}

static int
writer_register(struct resize_ctx *c)
{
	struct rte_service_spec spec = {
		.name = "bench_resize_writer",
		.callback = writer_service,
		.callback_userdata = c,
		.socket_id = (int)rte_socket_id(),
	};
	int rc;

	rte_atomic_store_explicit(&c->writer_stop, 0, rte_memory_order_release);
	rc = rte_service_component_register(&spec, &c->writer_svc);
	if (rc != 0)
		return rc;
	c->writer_registered = 1;
	return rte_service_component_runstate_set(c->writer_svc, 1);
}

static int
stats(struct resize_ctx *c, struct rte_rhashtable_stats *s)
{
	return rte_rhashtable_stats_get(c->ht, s);
}

/* S so that the table settles at BASE_BUCKETS and S alone is below the
 * shrink threshold of twice that; E so that S + E passes the grow threshold.
 */
static int
ctx_build(struct resize_ctx *c)
{
	struct rte_rhashtable_stats s;
	uint32_t i, total;
	uint64_t rng = 0x082efa98ec4e6c89ULL;

	c->s_keys = (uint32_t)((uint64_t)BASE_SLOTS * (RTE_RHT_SHRINK_PCT * 2 - 5) / 100);
	c->e_keys = (uint32_t)((uint64_t)BASE_SLOTS * (RTE_RHT_GROW_PCT + 5) / 100) - c->s_keys;
	total = c->s_keys + c->e_keys;
	c->objs = bench_objs_alloc(total, sizeof(*c->objs));
	c->stream = malloc(sizeof(*c->stream) * STREAM_KEYS);
	c->ht = bench_rht_new("bench_rsz", offsetof(struct resize_flow, key),
			      offsetof(struct resize_flow, head), true, false);
	if (c->objs == NULL || c->stream == NULL || c->ht == NULL)
		return -ENOMEM;
	for (i = 0; i < total; i++)
		bench_key_make(&c->objs[i].key, i, 0);
	for (i = 0; i < STREAM_KEYS; i++)
		bench_key_make(&c->stream[i], bench_rand64(&rng) % c->s_keys, 0);
	for (i = 0; i < c->s_keys; i++) {
		if (rte_rhashtable_insert(c->ht, &c->objs[i].head) != 0)
			return -EIO;
		if (rte_is_power_of_2(i + 1))
			rte_rhashtable_rehash_run(c->ht);
	}
	rte_rhashtable_rehash_run(c->ht);
	if (stats(c, &s) != 0 || s.buckets != BASE_BUCKETS) {
		fprintf(stderr, "bench: resize: %u keys settled at %u buckets, not %u\n",
			c->s_keys, s.buckets, BASE_BUCKETS);
		return -EINVAL;
	}
	return 0;
}

/*
 * Unmap both services, which stops the service lcore once it returns from
 * them, before unregistering the writer: a service lcore that read the map
 * just before the unmap may still call the writer, and one that calls an
 * unregistered service jumps to a NULL callback (a run of this bench
 * crashed so, in about one of two runs while other builds loaded the
 * machine).
 */
static void
ctx_free(struct resize_ctx *c)
{
	if (c->writer_registered) {
		/* seq_cst: pairs with writer_service() */
		rte_atomic_store_explicit(&c->writer_stop, 1, rte_memory_order_seq_cst);
		while (rte_atomic_load_explicit(&c->writer_busy, rte_memory_order_seq_cst))
			rte_pause();
		bench_service_stop(c->writer_svc);
	}
	if (c->ht != NULL)
		bench_service_stop(c->rht_svc);
	if (c->writer_registered) {
		rte_service_component_runstate_set(c->writer_svc, 0);
		rte_service_component_unregister(c->writer_svc);
	}
	rte_rhashtable_free(c->ht);
	free(c->stream);
	rte_free(c->objs);
}

static uint32_t
lookup_burst(struct resize_ctx *c, const struct bench_key *keys, int bulk, uint64_t *acc)
{
	const struct resize_flow *f;
	const void *kp[BENCH_BURST];
	void *found[BENCH_BURST];
	uint32_t i, hits = 0;
	int rc;

	if (!bulk) {
		for (i = 0; i < BENCH_BURST; i++) {
			f = rte_rhashtable_lookup_fast(c->ht, &keys[i], sizeof(keys[i]));
			if (f != NULL) {
				hits++;
				*acc += f->hits;
			}
		}
		return hits;
	}
	for (i = 0; i < BENCH_BURST; i++)
		kp[i] = &keys[i];
	rc = rte_rhashtable_lookup_bulk(c->ht, kp, BENCH_BURST, NULL, found);
	for (i = 0; i < BENCH_BURST; i++)
		if (found[i] != NULL)
			*acc += ((const struct resize_flow *)found[i])->hits;
	return rc > 0 ? (uint32_t)rc : 0;
}

/*
 * One burst of lookups of the stable set from *pos, then a quiescent state
 * (as a packet loop reports one per burst); counts the misses.
 */
static void
lookup_step(struct resize_ctx *c, int bulk, uint32_t *pos, uint64_t *acc, uint64_t *misses)
{
	uint32_t hits = lookup_burst(c, c->stream + *pos, bulk, acc);

	*misses += BENCH_BURST - hits;
	*pos = (*pos + BENCH_BURST) & (STREAM_KEYS - 1);
	rte_rcu_qsbr_quiescent(bench_qsbr, bench_qsbr_tid);
}

/* Between windows: move to the next phase when the current one is over. */
static enum phase
next_phase(struct resize_ctx *c, enum phase ph, double ph_ms, const struct rte_rhashtable_stats *s,
	   struct bench_resize_result *r)
{
	int settled = s->ntables == 1;
	int writer_done = rte_atomic_load_explicit(&c->writer_done, rte_memory_order_acquire);

	switch (ph) {
	case PH_BASELINE:
		if (ph_ms < BASELINE_MS)
			return ph;
		writer_start(c, W_INSERT);
		return PH_GROW;
	case PH_GROW:
		if (!(writer_done && settled && s->buckets > r->buckets_start))
			return ph;
		r->grow_ms = ph_ms;
		return PH_HOLD;
	case PH_HOLD:
		if (ph_ms < HOLD_MS)
			return ph;
		writer_start(c, W_REMOVE);
		return PH_SHRINK;
	case PH_SHRINK:
		if (!(writer_done && settled && s->buckets == r->buckets_start))
			return ph;
		r->shrink_ms = ph_ms;
		return PH_TAIL;
	case PH_TAIL:
		return ph_ms < TAIL_MS ? ph : PH_DONE;
	default:
		return PH_DONE;
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, uint32_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

/*
 * Whether window i of a grow or shrink phase ran before the phase's rehash
 * started: the table had one bucket table of the phase's first size at the
 * start of every window of the phase up to i and at the end of i (the
 * state recorded with window i + 1). The writer's inserts or removals then
 * ran alone, and what they cost the lookups is no resize's.
 */
static bool
before_rehash(uint32_t i, uint32_t n)
{
	uint32_t first = i, j;

	while (first > 0 && windows[first - 1].ph == windows[i].ph)
		first--;
	for (j = first; j <= i + 1 && j < n; j++)
		if (windows[j].ntables != 1 || windows[j].buckets != windows[first].buckets)
			return false;
	return true;
}

/* *min is the least v so far, 0 before the first. */
static void
keep_min(double *min, double v)
{
	if (*min == 0 || v < *min)
		*min = v;
}

/* Steady rate: median of the baseline windows; worst: the slowest window
 * from the first grow window to the last shrink window; and the slowest
 * baseline window, which shows how much a window dips with no resize at all;
 * and the slowest windows of the grow and shrink phases before and after
 * their rehash started (before_rehash()). On a shared machine
 * the main thread is sometimes descheduled for part of a window, which says
 * nothing about the table: so the same figures are also given over windows
 * where it ran >= 90% of the time, and per second of its CPU time.
 */
static void
summarise(struct bench_resize_result *r)
{
	static double base[MAX_WINDOWS], base_oncpu[MAX_WINDOWS], base_cpu[MAX_WINDOWS];
	uint32_t i, nb = 0, nbo = 0, nbc = 0;
	const struct window *w;

	for (i = 0; i < r->windows; i++) {
		w = &windows[i];
		if (w->ph == PH_BASELINE) {
			base[nb++] = w->mops;
			keep_min(&r->base_min_mops, w->mops);
			if (w->on_cpu >= 0.9)
				base_oncpu[nbo++] = w->mops;
			if (w->cpu_mops > 0)
				base_cpu[nbc++] = w->cpu_mops;
			continue;
		}
		if (w->ph > PH_SHRINK)
			continue;
		keep_min(&r->min_mops, w->mops);
		if (w->ph != PH_HOLD)
			keep_min(before_rehash(i, r->windows) ? &r->writer_min_mops :
				 &r->rehash_min_mops, w->mops);
		if (w->cpu_mops > 0)
			keep_min(&r->min_cpu_mops, w->cpu_mops);
		if (w->on_cpu < 0.9)
			r->preempted_windows++;
		else
			keep_min(&r->min_oncpu_mops, w->mops);
	}
	r->steady_mops = median(base, nb);
	r->steady_oncpu_mops = median(base_oncpu, nbo);
	r->steady_cpu_mops = median(base_cpu, nbc);
}

static void
write_trace(const char *path, int bulk, const struct bench_resize_result *r)
{
	FILE *f;
	uint32_t i;
	long pos;

	if (path == NULL || path[0] == '\0')
		return;
	f = fopen(path, "a");
	if (f == NULL) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		return;
	}
	fseek(f, 0, SEEK_END);
	pos = ftell(f);
	if (pos == 0)
		fprintf(f, "mode,t_ms,mops,on_cpu,cpu_mops,phase,buckets,ntables\n");
	for (i = 0; i < r->windows; i++)
		fprintf(f, "%s,%.1f,%.3f,%.2f,%.3f,%s,%u,%u\n", bulk ? "bulk32" : "single",
			windows[i].t_ms, windows[i].mops, windows[i].on_cpu, windows[i].cpu_mops,
			phase_names[windows[i].ph], windows[i].buckets, windows[i].ntables);
	fclose(f);
}

/* The sampling loop on the main lcore (an online QSBR reader). */
static void
sample(struct resize_ctx *c, int bulk, struct bench_resize_result *r)
{
	uint64_t hz = rte_get_tsc_hz(), win = hz * WINDOW_MS / 1000;
	uint64_t t0 = rte_rdtsc(), wstart = t0, ph_start = t0, now, ops = 0, acc = 0;
	double cpu_start = bench_thread_cpu_s(), cpu_now;
	struct rte_rhashtable_stats s;
	enum phase ph = PH_BASELINE, nph;
	uint32_t pos = 0;

	stats(c, &s);
	while (ph != PH_DONE && r->windows < MAX_WINDOWS) {
		lookup_step(c, bulk, &pos, &acc, &r->misses);
		ops += BENCH_BURST;
		now = rte_rdtsc();
		if (now - wstart < win)
			continue;
		cpu_now = bench_thread_cpu_s();
		windows[r->windows++] = (struct window){
			.t_ms = (now - t0) * 1000.0 / hz,
			.mops = ops / ((now - wstart) * 1e6 / hz),
			.on_cpu = (cpu_now - cpu_start) / ((now - wstart) / (double)hz),
			.cpu_mops = cpu_now - cpu_start >= 1e-3 ?
				ops / ((cpu_now - cpu_start) * 1e6) : 0,
			.ph = ph, .buckets = s.buckets, .ntables = s.ntables,
		};
		r->lookups += ops;
		stats(c, &s);
		r->buckets_peak = RTE_MAX(r->buckets_peak, s.buckets);
		nph = next_phase(c, ph, (now - ph_start) * 1000.0 / hz, &s, r);
		if (nph != ph)
			ph_start = now;
		if (ph != PH_BASELINE && ph != PH_TAIL &&
		    (now - ph_start) * 1000.0 / hz > PHASE_TIMEOUT_MS) {
			r->timed_out = 1;
			nph = PH_DONE;
		}
		ph = nph;
		ops = 0;
		/* the stats call and the phase logic stay out of the windows */
		wstart = rte_rdtsc();
		cpu_start = bench_thread_cpu_s();
	}
	r->buckets_end = s.buckets;
	r->lookups += ops;
	resize_sink += acc;
}

/*
 * A fresh context: the tables of other cases released, the stable set in a
 * table of BASE_BUCKETS, the id of its rehash service. A callback of the
 * last run may still read the context: writer_stop stays set.
 */
static int
ctx_open(struct resize_ctx *c)
{
	int rc;

	bench_release();
	*c = (struct resize_ctx){ .writer_stop = 1 };
	rc = ctx_build(c);
	if (rc == 0)
		rc = rte_rhashtable_service_id_get(c->ht, &c->rht_svc);
	return rc;
}

int
bench_resize_run(int bulk, const char *trace_path, struct bench_resize_result *r)
{
	struct resize_ctx *c = &resize_ctx;
	struct rte_rhashtable_stats s;
	int rc;

	*r = (struct bench_resize_result){ 0 };
	if (bench_service_lcore() >= RTE_MAX_LCORE)
		return -ENOTSUP;
	rc = ctx_open(c);
	if (rc == 0)
		rc = writer_register(c);
	if (rc == 0)
		rc = bench_service_start(c->rht_svc);
	if (rc == 0)
		rc = bench_service_start(c->writer_svc);
	if (rc == 0) {
		bench_reader_online();
		stats(c, &s);
		r->buckets_start = s.buckets;
		r->buckets_peak = s.buckets;
		sample(c, bulk, r);
		bench_reader_offline();
		summarise(r);
		write_trace(trace_path, bulk, r);
	}
	ctx_free(c);
	return rc;
}

/*
 * Lookups of the stable set for ms milliseconds, as an online reader; their
 * rate in Mops/s. Offline in between: the inserts and the worker that the
 * case runs on this lcore may have to wait for a grace period.
 */
static double
frozen_measure(struct resize_ctx *c, int bulk, uint32_t ms, struct bench_frozen_result *r)
{
	uint64_t hz = rte_get_tsc_hz(), t0, end, ops = 0, acc = 0, now;
	uint32_t pos = 0;

	bench_reader_online();
	t0 = rte_rdtsc();
	end = t0 + hz * ms / 1000;
	do {
		lookup_step(c, bulk, &pos, &acc, &r->misses);
		ops += BENCH_BURST;
		now = rte_rdtsc();
	} while (now < end);
	bench_reader_offline();
	resize_sink += acc;
	r->lookups += ops;
	return ops / ((now - t0) * 1e6 / hz);
}

/* Insert the extra set from the main lcore: the load passes the grow threshold. */
static int
frozen_fill(struct resize_ctx *c)
{
	uint32_t i;
	int rc;

	for (i = c->s_keys; i < c->s_keys + c->e_keys; i++) {
		rc = rte_rhashtable_insert(c->ht, &c->objs[i].head);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Service runs that may start and finish a grow of the resize case's table. */
#define FROZEN_MAX_RUNS 100000

/*
 * Run the rehash service on this lcore until pct% of the objects have moved
 * (or the grow is done); *moved_pct is how far it got. -EIO unless it
 * stopped with two bucket tables.
 */
static int
frozen_rehash(struct resize_ctx *c, uint32_t pct, double *moved_pct)
{
	struct rte_rhashtable_stats s;
	uint64_t moved0, want;
	uint32_t runs;
	int rc;

	rc = stats(c, &s);
	if (rc != 0)
		return rc;
	moved0 = s.objs_moved;
	want = s.nelems * pct / 100;
	for (runs = 0; rc == 0 && runs < FROZEN_MAX_RUNS; runs++) {
		rc = rte_service_run_iter_on_app_lcore(c->rht_svc, 1);
		if (rc == -EAGAIN)
			rc = 0;
		if (rc == 0)
			rc = stats(c, &s);
		if (rc == 0 && (s.objs_moved - moved0 >= want || (s.ntables == 1 && s.grows > 0)))
			break;
	}
	if (rc != 0)
		return rc;
	*moved_pct = s.nelems > 0 ? 100.0 * (s.objs_moved - moved0) / s.nelems : 0;
	if (s.ntables != 2) {
		fprintf(stderr, "bench: frozen: rehash not stopped midway (%u tables, %u runs)\n",
			s.ntables, runs);
		return -EIO;
	}
	return 0;
}

/* At rest, at the threshold, frozen, after: see bench_resize_frozen(). */
static int
frozen_phases(struct resize_ctx *c, int bulk, uint32_t pct, uint32_t ms,
	      struct bench_frozen_result *r)
{
	int rc;

	r->steady_mops = frozen_measure(c, bulk, ms, r);
	rc = frozen_fill(c);
	if (rc != 0)
		return rc;
	r->full_mops = frozen_measure(c, bulk, ms, r);
	rc = frozen_rehash(c, pct, &r->moved_pct);
	if (rc != 0)
		return rc;
	r->frozen_mops = frozen_measure(c, bulk, ms, r);
	rc = rte_rhashtable_rehash_run(c->ht);
	if (rc != 0)
		return rc;
	r->after_mops = frozen_measure(c, bulk, ms, r);
	return 0;
}

int
bench_resize_frozen(int bulk, uint32_t pct, uint32_t ms, struct bench_frozen_result *r)
{
	struct resize_ctx *c = &resize_ctx;
	int rc;

	*r = (struct bench_frozen_result){ 0 };
	if (pct == 0 || pct >= 100 || ms == 0)
		return -EINVAL;
	rc = ctx_open(c);
	if (rc == 0)
		rc = rte_service_runstate_set(c->rht_svc, 1);
	if (rc == 0) {
		rc = frozen_phases(c, bulk, pct, ms, r);
		rte_service_runstate_set(c->rht_svc, 0);
	}
	ctx_free(c);
	return rc;
}
