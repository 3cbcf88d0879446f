/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_faults_autotest: bucket-table allocations fail (the N-th and
 * every one after, one in K at random, only those above one page) while
 * reader lcores look up present keys. Inserts may return -ENOMEM, nothing
 * else; every object inserted stays found; once allocations succeed again
 * the worker (rehash_run or the rehash service) grows the table back to a
 * single bucket table within its load threshold.
 *
 * rhashtable_oom_autotest: create tables and fill them until the rte_malloc
 * heap is exhausted, free them all: the heap returns to its baseline, twice.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_stress.h"

#define FAULT_N_OBJS 140000
#define FAULT_WORKER_EVERY 128

struct fobj {
	uint32_t key;
	uint32_t pad;
	struct rte_rhash_head node;
};

/* One scenario of allocation faults. */
struct fault_run {
	const char *name;
	struct rhashtable_fault fault;
	uint16_t nelem_hint;
	bool use_service;   /* drive the worker through its service callback */
	int expect_enomem;  /* 1: inserts must be refused; 0: none may be; -1: either */
	bool expect_nested; /* the fallback must have built a nested table */
};

/* Figures of one scenario, printed at its end. */
struct fault_result {
	uint32_t inserted;
	uint32_t inserted_under_faults;
	uint32_t enomem;
	uint64_t faults;
	uint32_t worker_enomem;
	struct rte_rhashtable_stats during;
	struct rte_rhashtable_stats after;
	uint64_t lookups;
	uint64_t misses;
	uint32_t lost;
};

static struct rel_readers rd;
static struct fobj *fobjs;
static uint8_t *present;
static uint64_t total_faults;
static uint64_t total_lost;

static int
worker_step(struct rte_rhashtable *ht, bool use_service)
{
	uint32_t sid;

	if (!use_service)
		return rte_rhashtable_rehash_run(ht);
	if (rte_rhashtable_service_id_get(ht, &sid) != 0)
		return -EINVAL;
	/* the callback does one batch of buckets or starts one resize */
	return rte_service_run_iter_on_app_lcore(sid, 1) == 0 ? 0 : -EINVAL;
}

/* Objects that returned 0 are all found; the others are not; count agrees. */
static uint32_t
count_lost(struct rte_rhashtable *ht, uint32_t n)
{
	uint32_t i, lost = 0, present_n = 0;

	for (i = 0; i < n; i++) {
		void *o = rte_rhashtable_lookup(ht, &fobjs[i].key);

		if (present[i]) {
			present_n++;
			lost += o != &fobjs[i];
		} else if (o != NULL) {
			printf("refused object %u is found\n", i);
			lost++;
		}
	}
	if (rte_rhashtable_count(ht) != present_n) {
		printf("count %u, %u objects inserted\n", rte_rhashtable_count(ht), present_n);
		lost++;
	}
	return lost;
}

/* A walk (rehash locked: each object once) sees exactly the inserted objects. */
static uint32_t
walk_lost(struct rte_rhashtable *ht, uint32_t n)
{
	struct rte_rhashtable_iter it;
	uint32_t seen = 0, bad = 0, i, expect = 0;
	uint8_t *mark = calloc(n, 1);
	void *o;
	int ret;

	if (mark == NULL)
		return 1;
	rte_rhashtable_rehash_lock(ht);
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &o)) != -ENOENT) {
		struct fobj *f = o;

		if (ret != 0)
			continue;
		if (f < fobjs || f >= fobjs + n || mark[f - fobjs]++ != 0)
			bad++;
		seen++;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	rte_rhashtable_rehash_unlock(ht);
	for (i = 0; i < n; i++) {
		expect += present[i];
		bad += present[i] != mark[i];
	}
	free(mark);
	if (bad != 0)
		printf("walk: %u objects seen, %u expected, %u wrong\n", seen, expect, bad);
	return bad;
}

/* Insert every object not yet present, running the worker now and then. */
static int
insert_all(struct rte_rhashtable *ht, const struct fault_run *fr, struct fault_result *res,
	   bool faults_on)
{
	uint32_t i;
	int ret;

	for (i = 0; i < FAULT_N_OBJS; i++) {
		if (present[i])
			continue;
		ret = rte_rhashtable_lookup_insert(ht, &fobjs[i].node);
		if (ret == 0) {
			/* release: readers that see the flag look the object up */
			rte_atomic_store_explicit(&present[i], 1, rte_memory_order_release);
			res->inserted++;
		} else if (ret == -ENOMEM && faults_on) {
			res->enomem++;
		} else {
			printf("%s: insert %u returned %d\n", fr->name, i, ret);
			return -1;
		}
		rte_atomic_store_explicit(&rd.hi, i + 1, rte_memory_order_release);
		if (i % FAULT_WORKER_EVERY != 0)
			continue;
		ret = worker_step(ht, fr->use_service);
		if (ret == -ENOMEM && faults_on)
			res->worker_enomem++;
		else if (ret != 0)
			return -1;
	}
	return 0;
}

/* Run the worker until the table rests in one bucket table within 70% of its slots. */
static int
recover(struct rte_rhashtable *ht, bool use_service)
{
	struct rte_rhashtable_stats st;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		if (worker_step(ht, use_service) != 0)
			return -1;
		rte_rhashtable_stats_get(ht, &st);
		if (st.ntables == 1 && st.nelems * 100 <= TEST_SLOTS((uint64_t)st.buckets) * 70)
			return 0;
	}
	printf("no recovery: %u tables, %u buckets, %" PRIu64 " objects\n", st.ntables,
	       st.buckets, st.nelems);
	return -1;
}

static struct rte_rhashtable *
fault_table_create(const struct fault_run *fr)
{
	struct rte_rhashtable_params p = {
		.name = "rht_faults",
		.socket_id = SOCKET_ID_ANY,
		.nelem_hint = fr->nelem_hint,
		.key_len = sizeof(uint32_t),
		.key_offset = offsetof(struct fobj, key),
		.head_offset = offsetof(struct fobj, node),
	};

	return rte_rhashtable_create(&p);
}

static void
fault_print(const struct fault_run *fr, const struct fault_result *r)
{
	printf("%s: %u of %u inserted under faults, %u -ENOMEM, %u worker -ENOMEM, "
	       "%" PRIu64 " allocations failed (%" PRIu64 " counted by the table, "
	       "%" PRIu64 " nested), %u buckets x %u tables during; after: %u buckets, "
	       "%" PRIu64 " grows; readers: %" PRIu64 " lookups, %" PRIu64 " misses; "
	       "objects lost: %u\n",
	       fr->name, r->inserted_under_faults, FAULT_N_OBJS, r->enomem, r->worker_enomem,
	       r->faults,
	       r->during.alloc_failures, r->during.nested_tables, r->during.buckets,
	       r->during.ntables, r->after.buckets, r->after.grows, r->lookups, r->misses,
	       r->lost);
}

/* Under faults: nothing lost, only -ENOMEM, the expected fallbacks seen. */
static int
fault_phase(struct rte_rhashtable *ht, const struct fault_run *fr, struct fault_result *res)
{
	struct rte_rhashtable_table_info info;
	int logtype = rte_log_register("lib.rhashtable");
	int level = rte_log_get_level(logtype);
	bool nested_seen = false;
	uint32_t t;
	int ret;

	/* every refused allocation logs a warning: keep the test log readable */
	rte_log_set_level(logtype, RTE_LOG_ERR);
	__rte_rhashtable_fault_inject(&fr->fault);
	ret = insert_all(ht, fr, res, true);
	res->inserted_under_faults = res->inserted;
	for (t = 0; rte_rhashtable_table_info_get(ht, t, &info) == 0; t++)
		nested_seen |= info.nested;
	rte_rhashtable_stats_get(ht, &res->during);
	res->faults = __rte_rhashtable_fault_count();
	__rte_rhashtable_fault_inject(NULL);
	rte_log_set_level(logtype, level);
	total_faults += res->faults;
	TEST_ASSERT_SUCCESS(ret, "%s: inserts under faults", fr->name);
	res->lost = count_lost(ht, FAULT_N_OBJS) + walk_lost(ht, FAULT_N_OBJS);
	TEST_ASSERT_EQUAL(res->lost, 0, "%s: objects lost under faults", fr->name);
	TEST_ASSERT(res->faults > 0, "%s: no allocation failed", fr->name);
	TEST_ASSERT(fr->expect_enomem != 1 || res->enomem > 0, "%s: no insert refused",
		    fr->name);
	TEST_ASSERT(fr->expect_enomem != 0 || res->enomem == 0, "%s: %u inserts refused",
		    fr->name, res->enomem);
	TEST_ASSERT(!fr->expect_nested || (nested_seen && res->during.nested_tables > 0),
		    "%s: no nested table", fr->name);
	TEST_ASSERT_EQUAL(res->during.refused_enomem, res->enomem,
			  "%s: refused_enomem %" PRIu64 " vs %u", fr->name,
			  res->during.refused_enomem, res->enomem);
	return TEST_SUCCESS;
}

/* Faults off: the worker recovers, refused objects go in, nothing lost. */
static int
recovery_phase(struct rte_rhashtable *ht, const struct fault_run *fr, struct fault_result *res)
{
	struct rte_rhashtable_table_info info;

	TEST_ASSERT_SUCCESS(recover(ht, fr->use_service), "%s: recovery", fr->name);
	TEST_ASSERT_SUCCESS(insert_all(ht, fr, res, false), "%s: inserts after", fr->name);
	TEST_ASSERT_SUCCESS(recover(ht, fr->use_service), "%s: recovery", fr->name);
	if (fr->expect_nested) {
		/* a re-seed with memory back gives a flat table again */
		rte_rhashtable_reseed(ht);
		TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "%s: reseed", fr->name);
		TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "info");
		TEST_ASSERT(!info.nested, "%s: still nested after a re-seed", fr->name);
	}
	rte_rhashtable_stats_get(ht, &res->after);
	res->lost = count_lost(ht, FAULT_N_OBJS) + walk_lost(ht, FAULT_N_OBJS);
	TEST_ASSERT_EQUAL(res->lost, 0, "%s: objects lost after recovery", fr->name);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), FAULT_N_OBJS, "%s: count", fr->name);
	TEST_ASSERT_EQUAL(res->after.ntables, 1, "%s: %u tables", fr->name,
			  res->after.ntables);
	TEST_ASSERT(res->after.buckets > res->during.buckets || fr->expect_enomem != 1,
		    "%s: the table did not grow back", fr->name);
	return TEST_SUCCESS;
}

/* One case: data is its struct fault_run. */
static int
fault_scenario(const void *data)
{
	const struct fault_run *fr = data;
	struct fault_result res;
	struct test_heap heap0, heap1;
	struct rte_rhashtable *ht;
	int ret, ret2;

	memset(&res, 0, sizeof(res));
	memset(present, 0, FAULT_N_OBJS);
	heap0 = test_heap_usage();
	ht = fault_table_create(fr);
	TEST_ASSERT_NOT_NULL(ht, "create: %s", rte_strerror(rte_errno));
	rd.ht = ht;
	rd.lo = 0;
	rd.hi = 0;
	rd.v = test_qsbr_create();
	if (rd.v == NULL || rel_readers_start(&rd) != 0) {
		rte_eal_mp_wait_lcore();
		rte_rhashtable_free(ht);
		rte_free(rd.v);
		TEST_ASSERT(false, "%s: cannot start readers", fr->name);
	}
	ret = fault_phase(ht, fr, &res);
	if (ret == TEST_SUCCESS)
		ret = recovery_phase(ht, fr, &res);
	res.misses = rel_readers_stop(&rd, &res.lookups);
	rte_rhashtable_free(ht);
	rte_free(rd.v);
	heap1 = test_heap_usage();
	fault_print(fr, &res);
	total_lost += res.lost + res.misses;
	ret2 = res.misses == 0 && test_heap_same(&heap0, &heap1) ? 0 : -1;
	if (ret2 != 0)
		printf("%s: %" PRIu64 " reader misses; heap %" PRIu64 " -> %" PRIu64 " bytes, "
		       "%" PRIu64 " -> %" PRIu64 " blocks\n", fr->name, res.misses, heap0.bytes,
		       heap1.bytes, heap0.blocks, heap1.blocks);
	return ret == TEST_SUCCESS && ret2 == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
faults_setup(void)
{
	uint32_t i;

	fobjs = calloc(FAULT_N_OBJS, sizeof(*fobjs));
	present = calloc(FAULT_N_OBJS, 1);
	if (fobjs == NULL || present == NULL)
		return TEST_FAILED;
	for (i = 0; i < FAULT_N_OBJS; i++)
		fobjs[i].key = i * 2654435761U;
	memset(&rd, 0, sizeof(rd));
	rd.objs = (const char *)fobjs;
	rd.obj_size = sizeof(*fobjs);
	rd.key_offset = offsetof(struct fobj, key);
	rd.present = present;
	if (rte_lcore_count() < 2)
		printf("one lcore only: no concurrent readers (run with -l 0-2)\n");
	return TEST_SUCCESS;
}

static void
faults_teardown(void)
{
	free(fobjs);
	free(present);
	fobjs = NULL;
	present = NULL;
	printf("faults: %" PRIu64 " allocations failed in all, objects lost or missed: %"
	       PRIu64 "\n", total_faults, total_lost);
}

/* one allocation per bucket table: the 5th table and on fail */
static const struct fault_run fail_from_nth = {
	.name = "fail from the 5th allocation on",
	.fault = { .fail_after = 4 },
	.expect_enomem = 1,
};

static const struct fault_run fail_from_nth_service = {
	.name = "fail from the 7th allocation on, service worker",
	.fault = { .fail_after = 6 },
	.use_service = true,
	.expect_enomem = 1,
};

/*
 * A refused insert is likely but not certain. A fixed seed: the growth from
 * 64 to 32768 buckets asks for nine tables, and with a seed of each run's
 * own, about one run in forty ((2/3)^9) saw none of them fail (the other
 * cases of the suite fail a fixed set of allocations).
 */
static const struct fault_run fail_one_in_k = {
	.name = "fail one in 3 at random",
	.fault = { .fail_after = 0, .one_in = 3, .seed = 0x243f6a8885a308d3 },
	.expect_enomem = -1,
};

/* 1024 buckets to start with: every larger flat table exceeds a page */
static const struct fault_run fail_above_one_page = {
	.name = "fail above one page (nested)",
	.fault = { .fail_after = 0, .min_bytes = 4097 },
	.nelem_hint = 5376,
	.expect_nested = true,
};

/*
 * from 4 buckets: flat tables up to 32 buckets (2 KiB + header), then 64
 * buckets (4 KiB + header) must fall back too
 */
static const struct fault_run fail_above_one_page_small = {
	.name = "fail above one page from 4 buckets",
	.fault = { .fail_after = 0, .min_bytes = 4097 },
	.nelem_hint = 1,
	.expect_nested = true,
};

/* A create whose bucket table cannot be had fails cleanly. */
static int
test_create_under_faults(void)
{
	const struct fault_run fr = { .nelem_hint = 0 };
	struct rhashtable_fault f = { 0 };
	struct test_heap heap0 = test_heap_usage(), heap1;
	struct rte_rhashtable *ht;
	uint32_t n;

	/* allocation 0 is the bucket array (its locks are bits of its words) */
	for (n = 0; n < 2; n++) {
		f.fail_after = n;
		__rte_rhashtable_fault_inject(&f);
		rte_errno = 0;
		ht = fault_table_create(&fr);
		__rte_rhashtable_fault_inject(NULL);
		total_faults += n < 1;
		if (n < 1) {
			TEST_ASSERT_NULL(ht, "create succeeded with allocation %u failing", n);
			TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "rte_errno %d", rte_errno);
		} else {
			TEST_ASSERT_NOT_NULL(ht, "create failed: %s", rte_strerror(rte_errno));
			rte_rhashtable_free(ht);
		}
		heap1 = test_heap_usage();
		TEST_ASSERT(test_heap_same(&heap0, &heap1),
			    "create with allocation %u failing leaked %" PRId64 " bytes", n,
			    (int64_t)(heap1.bytes - heap0.bytes));
	}
	return TEST_SUCCESS;
}

#define FAULT_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_" #c, NULL, NULL, fault_scenario, &c)

static struct unit_test_suite faults_suite = {
	.suite_name = "rhashtable allocation faults",
	.setup = faults_setup,
	.teardown = faults_teardown,
	.unit_test_cases = {
		TEST_CASE(test_create_under_faults),
		FAULT_CASE(fail_from_nth),
		FAULT_CASE(fail_from_nth_service),
		FAULT_CASE(fail_one_in_k),
		FAULT_CASE(fail_above_one_page),
		FAULT_CASE(fail_above_one_page_small),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_faults(void)
{
	return unit_test_suite_runner(&faults_suite);
}

REGISTER_FAST_TEST(rhashtable_faults_autotest, true, true, test_rhashtable_faults);

/* ---- out of memory ---- */

#define OOM_HEAP_LEFT (16U << 20)  /* heap left to the tables */
#define OOM_CHUNK (1U << 20)
#define OOM_MAX_CHUNKS 4096
#define OOM_MAX_TABLES 48          /* below RTE_SERVICE_NUM_MAX (64) */
#define OOM_MAX_OBJS (4U << 20)

static void *oom_chunks[OOM_MAX_CHUNKS];
static unsigned int oom_nchunks;

/* Allocate ballast until about OOM_HEAP_LEFT of the heap is left. */
static void
oom_ballast(void)
{
	while (oom_nchunks < OOM_MAX_CHUNKS &&
	       test_heap_usage().free_bytes > OOM_HEAP_LEFT + OOM_CHUNK) {
		oom_chunks[oom_nchunks] = rte_malloc("rht_oom_ballast", OOM_CHUNK, 0);
		if (oom_chunks[oom_nchunks] == NULL)
			break;
		oom_nchunks++;
	}
}

static void
oom_ballast_free(void)
{
	while (oom_nchunks > 0)
		rte_free(oom_chunks[--oom_nchunks]);
}

/* Fill ht until an insert needs memory that is not there; objects inserted. */
static int64_t
oom_fill(struct rte_rhashtable *ht, struct fobj *o, uint32_t room)
{
	uint32_t i;
	int ret;

	for (i = 0; i < room; i++) {
		o[i].key = i;
		ret = rte_rhashtable_insert(ht, &o[i].node);
		if (ret == -ENOMEM)
			return i;
		if (ret != 0) {
			printf("insert %u returned %d\n", i, ret);
			return -1;
		}
	}
	printf("%u objects did not exhaust the heap\n", room);
	return -1;
}

/* Every object of every table is found and counted. */
static int
oom_check(struct rte_rhashtable **t, const uint32_t *n, unsigned int nt, struct fobj *o)
{
	unsigned int k;
	uint32_t i;

	for (k = 0; k < nt; k++) {
		if (rte_rhashtable_count(t[k]) != n[k])
			return -1;
		for (i = 0; i < n[k]; i++)
			if (rte_rhashtable_lookup(t[k], &o[i].key) != &o[i])
				return -1;
		o += n[k];
	}
	return 0;
}

/* Create and fill tables until memory runs out; free them; tables made. */
static int
oom_round(struct fobj *objs, unsigned int *ntables, uint64_t *nobjs)
{
	struct rte_rhashtable *t[OOM_MAX_TABLES];
	uint32_t n[OOM_MAX_TABLES];
	struct rte_rhashtable_params p = {
		.socket_id = SOCKET_ID_ANY,
		.key_len = sizeof(uint32_t),
		.key_offset = offsetof(struct fobj, key),
		.head_offset = offsetof(struct fobj, node),
	};
	char name[RTE_RHASHTABLE_NAMESIZE];
	unsigned int k;
	int64_t got;
	int ret = 0;

	*nobjs = 0;
	for (k = 0; k < OOM_MAX_TABLES; k++) {
		snprintf(name, sizeof(name), "rht_oom_%u", k);
		p.name = name;
		t[k] = rte_rhashtable_create(&p);
		if (t[k] == NULL)
			break;
		got = oom_fill(t[k], objs + *nobjs, OOM_MAX_OBJS - *nobjs);
		if (got < 0) {
			k++;
			ret = -1;
			break;
		}
		n[k] = (uint32_t)got;
		*nobjs += got;
	}
	*ntables = k;
	if (ret == 0 && (k == OOM_MAX_TABLES || rte_errno != ENOMEM)) {
		printf("create stopped at table %u with rte_errno %d, not ENOMEM\n", k, rte_errno);
		ret = -1;
	}
	if (ret == 0 && oom_check(t, n, k, objs) != 0) {
		printf("an object went missing when memory ran out\n");
		ret = -1;
	}
	while (k > 0)
		rte_rhashtable_free(t[--k]);
	return ret;
}

static int
test_rhashtable_oom(void)
{
	struct test_heap heap0, heap1, heap2;
	uint64_t nobjs[2];
	unsigned int ntables[2], round;
	struct fobj *objs;
	int ret;

	if (rte_eal_has_hugepages()) {
		printf("needs a fixed heap: run with --no-huge -m 256\n");
		return TEST_SKIPPED;
	}
	objs = calloc(OOM_MAX_OBJS, sizeof(*objs));
	TEST_ASSERT_NOT_NULL(objs, "no memory for objects");
	heap0 = test_heap_usage();
	oom_ballast();
	heap1 = test_heap_usage();
	printf("heap: %" PRIu64 " bytes in use, %u MiB of ballast, %" PRIu64
	       " bytes left to the tables\n", heap0.bytes, oom_nchunks, heap1.free_bytes);
	for (round = 0; round < 2; round++) {
		ret = oom_round(objs, &ntables[round], &nobjs[round]);
		heap2 = test_heap_usage();
		printf("round %u: %u tables created, %" PRIu64 " objects inserted before "
		       "memory ran out; heap after free: %+" PRId64 " bytes, %+" PRId64
		       " blocks\n", round, ntables[round], nobjs[round],
		       (int64_t)(heap2.bytes - heap1.bytes),
		       (int64_t)(heap2.blocks - heap1.blocks));
		if (ret != 0 || !test_heap_same(&heap2, &heap1))
			break;
	}
	oom_ballast_free();
	free(objs);
	TEST_ASSERT_SUCCESS(ret, "round %u", round);
	TEST_ASSERT(test_heap_same(&heap2, &heap1), "tables leaked heap memory");
	TEST_ASSERT(ntables[1] + 1 >= ntables[0] && ntables[1] <= ntables[0] + 1,
		    "the second round made %u tables, the first %u", ntables[1], ntables[0]);
	heap2 = test_heap_usage();
	TEST_ASSERT(test_heap_same(&heap2, &heap0), "heap not back to its baseline");
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(rhashtable_oom_autotest, true, true, test_rhashtable_oom);
