/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rte_rhashtable as a benchmark peer: intrusive flows {key, rte_rhash_head,
 * payload}, the library's default seeded hash, QSBR in defer-queue mode.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>
#include <rte_rhashtable_config.h>

#include "bench_peer.h"

struct rht_flow {
	struct bench_key key;
	struct rte_rhash_head head;
	uint64_t hits;
};

static struct rte_rhashtable *tbl;
static struct rht_flow *objs;
static uint32_t objs_n;
static enum bench_sizing sizing;
static uint32_t svc_id;
static int svc_on;
static uint64_t ebusy_retries;
static int insert_bulk;
/* growth in the timed run: TSC cycles in rte_rhashtable_rehash_run(), and
 * the moves counter when the run began
 */
static uint64_t rehash_cycles;
static uint64_t moved_before;

void
bench_rht_insert_bulk(int on)
{
	insert_bulk = on;
}

static int
rht_init(void)
{
	return 0;
}

static void
rht_fini(void)
{
}

static void
rht_objs_free(void)
{
	bench_objs_release(objs, &objs_n);
	objs = NULL;
}

static int
rht_objs_prepare(uint32_t n)
{
	objs = bench_objs_keyed(objs, &objs_n, n, sizeof(*objs), offsetof(struct rht_flow, key));
	return objs == NULL ? -ENOMEM : 0;
}

/* The worker run by the inserting thread, timed: growth's share of an insert. */
static int
rht_rehash_run(void)
{
	uint64_t t0 = rte_rdtsc();
	int rc = rte_rhashtable_rehash_run(tbl);

	rehash_cycles += rte_rdtsc() - t0;
	return rc;
}

struct rte_rhashtable *
bench_rht_new(const char *prefix, size_t key_offset, size_t head_offset, bool shrink,
	      bool single_writer)
{
	struct rte_rhashtable_params p = {
		.socket_id = (int)rte_socket_id(),
		.key_len = sizeof(struct bench_key),
		.key_offset = key_offset,
		.head_offset = head_offset,
		.automatic_shrinking = shrink,
		.single_writer = single_writer,
	};
	struct rte_rhashtable_rcu_config rcu = {
		.v = bench_qsbr,
		.mode = RTE_RHASHTABLE_QSBR_MODE_DQ,
	};
	char name[RTE_RHASHTABLE_NAMESIZE];
	struct rte_rhashtable *ht;

	bench_unique_name(name, sizeof(name), prefix);
	p.name = name;
	ht = rte_rhashtable_create(&p);
	if (ht == NULL)
		return NULL;
	if (rte_rhashtable_rcu_qsbr_add(ht, &rcu) != 0) {
		rte_rhashtable_free(ht);
		return NULL;
	}
	return ht;
}

static int
rht_insert_one(uint32_t i)
{
	int rc;

	for (;;) {
		rc = rte_rhashtable_lookup_insert(tbl, &objs[i].head);
		if (rc != -EBUSY)
			break;
		/* chain full while a resize is pending: let the resize happen */
		ebusy_retries++;
		if (sizing == BENCH_GROW_SERVICE)
			rte_pause();
		else
			rht_rehash_run();
	}
	return rc;
}

/* The n objects from i, one call each. */
static int
rht_insert_each(uint32_t i, uint32_t n)
{
	uint32_t k;
	int rc = 0;

	for (k = 0; k < n && rc == 0; k++)
		rc = rht_insert_one(i + k);
	return rc;
}

/* The n objects from i in one call. */
static int
rht_insert_burst(uint32_t i, uint32_t n)
{
	struct rte_rhash_head *heads[BENCH_BURST];
	int rets[BENCH_BURST];
	uint32_t k;
	int rc;

	for (k = 0; k < n; k++)
		heads[k] = &objs[i + k].head;
	rc = rte_rhashtable_lookup_insert_bulk(tbl, heads, n, rets, NULL);
	if (rc < 0)
		return rc;
	for (k = 0; k < n; k++) {
		if (rets[k] == -EBUSY)
			rets[k] = rht_insert_one(i + k);
		if (rets[k] != 0)
			return rets[k];
	}
	return 0;
}

/* Inline growth: the inserting thread runs the worker after every burst of
 * BENCH_BURST inserts, as an application's main loop would between bursts:
 * the table grows when it passes the grow threshold, as with a service
 * lcore. (Running it only when the count doubled let the table fill to
 * 100% and moved every object once more: 2n moves instead of 1.4n.)
 */
static int
rht_burst_done(void)
{
	if (sizing == BENCH_PRESIZED || sizing == BENCH_GROW_SERVICE)
		return 0;
	return rht_rehash_run();
}

/*
 * With the rehash service running on another lcore, the inserting thread is
 * an online QSBR reader: a writer holds a bucket-table pointer between
 * loading it and taking the bucket lock, and only registered readers delay
 * the freeing of a retired bucket table (test/bench/README.md, "Writers").
 */
static int
rht_insert(uint32_t lo, uint32_t hi)
{
	bool guard = sizing == BENCH_GROW_SERVICE;
	uint32_t i, n;
	int rc = 0;

	if (guard)
		bench_reader_online();
	for (i = lo; i < hi && rc == 0; i += n) {
		n = RTE_MIN(hi - i, (uint32_t)BENCH_BURST);
		rc = insert_bulk ? rht_insert_burst(i, n) : rht_insert_each(i, n);
		if (rc == 0)
			rc = rht_burst_done();
		if (guard)
			rte_rcu_qsbr_quiescent(bench_qsbr, bench_qsbr_tid);
	}
	if (guard)
		bench_reader_offline();
	return rc;
}

static int
rht_remove(uint32_t lo, uint32_t hi)
{
	uint32_t i;
	int rc;

	for (i = lo; i < hi; i++) {
		rc = rte_rhashtable_remove(tbl, &objs[i].head);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Grown and emptied again: the bucket table keeps its size because the
 * table does not shrink (nelem_hint, a uint16_t, cannot ask for more).
 */
static int
rht_presize(uint32_t n)
{
	int rc;

	sizing = BENCH_GROW_INLINE;
	rc = rht_insert(0, n);
	if (rc == 0)
		rc = rte_rhashtable_rehash_run(tbl);
	if (rc == 0)
		rc = rht_remove(0, n);
	if (rc == 0)
		rc = rte_rhashtable_rehash_run(tbl);
	sizing = BENCH_PRESIZED;
	return rc;
}

static void
rht_destroy(void)
{
	if (svc_on)
		bench_service_stop(svc_id);
	svc_on = 0;
	rte_rhashtable_free(tbl);
	tbl = NULL;
}

static int
rht_stats(struct rte_rhashtable_stats *s)
{
	int rc;

	/* bucket-table fields are safe to read only as a registered reader */
	bench_reader_online();
	rc = rte_rhashtable_stats_get(tbl, s);
	bench_reader_offline();
	return rc;
}

/* Where the timed run's growth starts from: after the presizing moves. */
static int
rht_growth_reset(void)
{
	struct rte_rhashtable_stats s;
	int rc = rht_stats(&s);

	rehash_cycles = 0;
	moved_before = s.objs_moved;
	return rc;
}

int
bench_rht_growth(uint64_t *moved, double *rehash_s)
{
	struct rte_rhashtable_stats s;
	int rc;

	if (tbl == NULL)
		return -ENOENT;
	rc = rht_stats(&s);
	if (rc != 0)
		return rc;
	*moved = s.objs_moved - moved_before;
	*rehash_s = (double)rehash_cycles / (double)rte_get_tsc_hz();
	return 0;
}

static int
rht_create(uint32_t n, enum bench_sizing z)
{
	int rc = 0;

	tbl = bench_rht_new("bench_rht", offsetof(struct rht_flow, key),
			    offsetof(struct rht_flow, head), false, z == BENCH_GROW_SOLO);
	if (tbl == NULL)
		return -rte_errno;
	sizing = z;
	if (z == BENCH_PRESIZED)
		rc = rht_presize(n);
	if (rc == 0)
		rc = rht_growth_reset();
	if (rc == 0 && z == BENCH_GROW_SERVICE) {
		rc = rte_rhashtable_service_id_get(tbl, &svc_id);
		if (rc == 0)
			rc = bench_service_start(svc_id);
		svc_on = rc == 0;
	}
	if (rc != 0)
		rht_destroy();
	return rc;
}

/* With a service lcore: wait until it has moved everything and the load is
 * below the grow threshold, then free the service lcore.
 */
static int
rht_wait_service(void)
{
	struct rte_rhashtable_stats s;
	double deadline = bench_now() + 120.0;

	for (;;) {
		if (rht_stats(&s) != 0)
			return -EIO;
		if (s.ntables == 1 && s.nelems * 100 <=
		    (uint64_t)s.buckets * RTE_RHASHTABLE_BUCKET_SLOTS * RTE_RHT_GROW_PCT)
			break;
		if (bench_now() > deadline)
			return -ETIMEDOUT;
		/* poll gently: the service lcore does the work */
		rte_delay_us_sleep(200);
	}
	bench_service_stop(svc_id);
	svc_on = 0;
	return 0;
}

static int
rht_settle(void)
{
	int rc;

	if (sizing == BENCH_GROW_SERVICE)
		rc = rht_wait_service();
	else
		rc = rht_rehash_run();
	if (ebusy_retries != 0)
		fprintf(stderr, "bench: rhashtable: %" PRIu64 " inserts retried after -EBUSY\n",
			ebusy_retries);
	ebusy_retries = 0;
	return rc;
}

static uint32_t
rht_lookup(const struct bench_key *keys, uint64_t *acc)
{
	const struct rht_flow *f;
	uint32_t i, hits = 0;

	for (i = 0; i < BENCH_BURST; i++) {
		f = rte_rhashtable_lookup_fast(tbl, &keys[i], sizeof(keys[i]));
		if (f != NULL) {
			hits++;
			*acc += f->hits;
		}
	}
	return hits;
}

static uint32_t
rht_lookup_bulk(const struct bench_key *keys, uint64_t *acc)
{
	const void *kp[BENCH_BURST];
	void *found[BENCH_BURST];
	uint32_t i;
	int hits;

	for (i = 0; i < BENCH_BURST; i++)
		kp[i] = &keys[i];
	hits = rte_rhashtable_lookup_bulk(tbl, kp, BENCH_BURST, NULL, found);
	for (i = 0; i < BENCH_BURST; i++)
		if (found[i] != NULL)
			*acc += ((const struct rht_flow *)found[i])->hits;
	return hits > 0 ? (uint32_t)hits : 0;
}

/* The exported, out-of-line lookup: what a caller that does not include
 * the inline fast path, or whose key length is not a constant, runs.
 */
static uint32_t
rht_lookup_call(const struct bench_key *keys, uint64_t *acc)
{
	const struct rht_flow *f;
	uint32_t i, hits = 0;

	for (i = 0; i < BENCH_BURST; i++) {
		f = rte_rhashtable_lookup(tbl, &keys[i]);
		if (f != NULL) {
			hits++;
			*acc += f->hits;
		}
	}
	return hits;
}

static int
rht_churn_op(void *obj, int insert)
{
	struct rht_flow *f = obj;

	if (insert)
		return rte_rhashtable_insert(tbl, &f->head);
	return rte_rhashtable_remove(tbl, &f->head);
}

static void
rht_quiescent(void)
{
	rte_rcu_qsbr_quiescent(bench_qsbr, bench_qsbr_tid);
}

static int
rht_table_bytes(uint64_t *bytes, const char **method)
{
	struct rte_rhashtable_stats s;
	int rc = rht_stats(&s);

	*bytes = s.bytes;
	*method = "rte_rhashtable_stats_get().bytes";
	return rc;
}

const struct bench_peer bench_peer_rht = {
	.name = "rhashtable",
	.note = "rte_rhashtable: intrusive flow {16 B key, rte_rhash_head, 8 B payload} = 32 B; "
		"the library's default seeded multiply-mix hash; QSBR defer queue; lookup_insert (checks duplicates); "
		"a lookup returns the flow itself; single = rte_rhashtable_lookup_fast() "
		"(inlined, key length 16 known at compile time), single_call = the out-of-line "
		"rte_rhashtable_lookup(); tables start at 64 buckets, growth by "
		"rte_rhashtable_rehash_run() in the inserting thread after every "
		"burst of 32 inserts (grow; grow_1w in a single_writer table, which takes no lock, "
		"as rte_hash's single writer) or by the rehash service on a service lcore (grow_service)",
	.obj_size = sizeof(struct rht_flow),
	.key_offset = offsetof(struct rht_flow, key),
	.init = rht_init,
	.fini = rht_fini,
	.objs_prepare = rht_objs_prepare,
	.objs_free = rht_objs_free,
	.create = rht_create,
	.insert = rht_insert,
	.settle = rht_settle,
	.remove = rht_remove,
	.lookup = {
		[BENCH_SINGLE] = rht_lookup,
		[BENCH_BULK] = rht_lookup_bulk,
		[BENCH_SINGLE_CALL] = rht_lookup_call,
	},
	.churn_op = rht_churn_op,
	.quiescent = rht_quiescent,
	.table_bytes = rht_table_bytes,
	.destroy = rht_destroy,
	.lookup_sizing = BENCH_GROW_INLINE,
};
