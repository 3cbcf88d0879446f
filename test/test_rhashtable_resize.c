/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Bucket table sizing and resizing, one command each:
 * - rhashtable_sizing_autotest: nelem_hint, max_size, min_size, element limit;
 * - rhashtable_resize_autotest: grow by the worker, shrink, emergency growth;
 * - rhashtable_reseed_autotest: every new bucket table has a new seed;
 * - rhashtable_chain_autotest: the chain-length limit (re-seed, -EBUSY);
 * - rhashtable_nested_autotest: nested bucket tables and allocation failures.
 * No rehash service runs here: only rte_rhashtable_rehash_run() and inserts
 * themselves resize.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_util.h"

/* 7 x 4096: the loads of one-word buckets, at the same table sizes */
#define N_OBJS 28672

static struct rte_rhashtable *ht;
static struct test_obj *objs;
static struct rte_rhashtable_params params;

/* Suite setup: objects only; each case creates its table from params. */
static int
objs_setup(void)
{
	if (test_default_config() != TEST_SUCCESS)
		return TEST_SKIPPED;
	objs = test_objs_alloc(N_OBJS, 1000);
	return objs == NULL ? TEST_FAILED : TEST_SUCCESS;
}

static void
objs_teardown(void)
{
	rte_free(objs);
	objs = NULL;
}

/* Case setup: default parameters, the case adjusts them and creates. */
static int
params_setup(void)
{
	test_params_init(&params, "rht_resize");
	ht = NULL;
	return TEST_SUCCESS;
}

static void
table_teardown(void)
{
	__rte_rhashtable_fault_inject(NULL);
	rte_rhashtable_free(ht);
	ht = NULL;
}

static int
create_table(void)
{
	ht = rte_rhashtable_create(&params);
	TEST_ASSERT_NOT_NULL(ht, "create failed: %s", rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

/* Insert objs[from..to), running the rehash worker every `every` inserts. */
static int
insert_with_worker(uint32_t from, uint32_t to, uint32_t every)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[i].node), "insert %u", i);
		if ((i + 1) % every == 0)
			TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	}
	return TEST_SUCCESS;
}

/* ---- sizing ---- */

/*
 * nelem_hint asks for slots for nelem_hint * 4 / 3 objects, seven a bucket:
 * the next power of two of ceil(nelem_hint * 4 / 3 / 7) buckets, at least 4.
 */
static int
test_nelem_hint(void)
{
	static const struct { uint16_t hint; uint32_t buckets; } cases[] = {
		{ 0, 64 }, { 1, 4 }, { 2, 4 }, { 21, 4 }, { 22, 8 }, { 42, 8 }, { 43, 16 },
		{ 336, 64 }, { 337, 128 }, { 700, 256 }, { 1344, 256 }, { 1345, 512 },
		{ TEST_PAST_GROW_HINT, TEST_PAST_GROW_BUCKETS }, { 65535, 16384 },
	};
	struct rte_rhashtable_table_info info;
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		params.nelem_hint = cases[i].hint;
		TEST_ASSERT_SUCCESS(create_table(), "create");
		TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table_info");
		TEST_ASSERT_EQUAL(info.buckets, cases[i].buckets,
				  "nelem_hint %u: %u buckets, expected %u", cases[i].hint,
				  info.buckets, cases[i].buckets);
		TEST_ASSERT_EQUAL(test_stats(ht).buckets, cases[i].buckets,
				  "nelem_hint %u: stats.buckets", cases[i].hint);
		TEST_ASSERT_EQUAL(rte_rhashtable_table_info_get(ht, 1, &info), -ENOENT,
				  "a new table has a second bucket table");
		rte_rhashtable_free(ht);
		ht = NULL;
	}
	return TEST_SUCCESS;
}

static int
test_table_info_invalid(void)
{
	struct rte_rhashtable_table_info info;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_EQUAL(rte_rhashtable_table_info_get(NULL, 0, &info), -EINVAL, "NULL table");
	TEST_ASSERT_EQUAL(rte_rhashtable_table_info_get(ht, 0, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table 0");
	TEST_ASSERT_EQUAL(info.nlocks, info.buckets, "%u locks for %u buckets (one a bucket)",
			  info.nlocks, info.buckets);
	/* a bucket is a cache line: seven slots and the overflow word */
	TEST_ASSERT(info.bytes >= info.buckets * (RTE_RHASHTABLE_BUCKET_SLOTS + 1) *
		    sizeof(void *), "table_info.bytes %" PRIu64, info.bytes);
	TEST_ASSERT_NOT_NULL(info.bucket_mem, "table_info.bucket_mem");
	TEST_ASSERT(((uintptr_t)info.bucket_mem & (RTE_CACHE_LINE_SIZE - 1)) == 0,
		    "bucket_mem %p is not on a cache line", info.bucket_mem);
	TEST_ASSERT(!info.nested, "a small table is nested");
	return TEST_SUCCESS;
}

/*
 * max_size 200 is 128 buckets, so 896 objects at most (its slots). The
 * seedless hash spreads the keys evenly, 7 a bucket: with a random one,
 * some three buckets in a million at this load hold their seven slots and
 * an overflow chain of RTE_RHT_MAX_CHAIN_LEN, and the insert that finds
 * one full gets -EBUSY, which is not what this case is about.
 */
#define MAX_SIZE_OBJS TEST_SLOTS(128)

static int
test_max_size(void)
{
	struct test_obj extra = { .cookie = TEST_OBJ_COOKIE, .key = 1 };
	struct rte_rhashtable_stats s;
	int ret;

	params.max_size = 200;
	params.hashfn = test_seedless_hash;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(insert_with_worker(0, MAX_SIZE_OBJS, 16), "fill to 7 * max_size");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 128, "table grew to %u buckets, max_size 200", s.buckets);
	TEST_ASSERT_EQUAL(s.ntables, 1, "ntables %u", s.ntables);

	ret = rte_rhashtable_insert(ht, &extra.node);
	TEST_ASSERT_EQUAL(ret, -E2BIG, "insert beyond 7 * max_size returned %d", ret);
	ret = rte_rhashtable_lookup_insert(ht, &extra.node);
	TEST_ASSERT_EQUAL(ret, -E2BIG, "lookup_insert beyond 7 * max_size returned %d", ret);
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.refused_e2big, 2, "stats.refused_e2big %" PRIu64, s.refused_e2big);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), MAX_SIZE_OBJS, "count");
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, &extra.key), "refused object found");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, MAX_SIZE_OBJS, true), "lookups at the limit");

	/* room again after a remove */
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[0].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &extra.node), "insert after remove");
	return TEST_SUCCESS;
}

/*
 * A table sized for 1344 objects (256 buckets) keeps its size while it only
 * fills, however empty: shrinking waits for a removal, as in the kernel.
 * After one, a table of one object shrinks as far as min_size allows.
 */
static int
shrink_to_min(uint16_t min_size, uint32_t expected)
{
	uint32_t buckets;

	params.nelem_hint = 1344;
	params.automatic_shrinking = true;
	params.min_size = min_size;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[0].node), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &objs[1].node), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	buckets = test_stats(ht).buckets;
	TEST_ASSERT_EQUAL(buckets, 256, "min_size %u: %u buckets before any removal, "
			  "nelem_hint asked for 256", min_size, buckets);
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[1].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	buckets = test_stats(ht).buckets;
	TEST_ASSERT_EQUAL(buckets, expected, "min_size %u: shrank to %u buckets, expected %u",
			  min_size, buckets, expected);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 1, true), "lookup after the shrink");
	rte_rhashtable_free(ht);
	ht = NULL;
	return TEST_SUCCESS;
}

static int
test_min_size(void)
{
	TEST_ASSERT_SUCCESS(shrink_to_min(20, 16), "min_size rounds down");
	TEST_ASSERT_SUCCESS(shrink_to_min(32, 32), "min_size power of two");
	TEST_ASSERT_SUCCESS(shrink_to_min(2, 4), "min_size at least 4");
	TEST_ASSERT_SUCCESS(shrink_to_min(0, 4), "min_size 0");
	return TEST_SUCCESS;
}

static struct unit_test_suite sizing_suite = {
	.suite_name = "rhashtable sizing",
	.setup = objs_setup,
	.teardown = objs_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(params_setup, table_teardown, test_nelem_hint),
		TEST_CASE_ST(params_setup, table_teardown, test_table_info_invalid),
		TEST_CASE_ST(params_setup, table_teardown, test_max_size),
		TEST_CASE_ST(params_setup, table_teardown, test_min_size),
		TEST_CASES_END()
	}
};

/* ---- resize ---- */

static int
test_grow_by_worker(void)
{
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	/* 280 in the 448 slots of 64 buckets: 62%, below the grow threshold */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 280), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 64, "grew at 62%% load: %u buckets", s.buckets);
	TEST_ASSERT_EQUAL(s.grows, 0, "stats.grows %" PRIu64, s.grows);

	/* 350 of 448: 78%; the insert only schedules the grow */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 280, 350), "insert");
	s = test_stats(ht);
	TEST_ASSERT(s.buckets == 64 && s.ntables == 1,
		    "an insert below 100%% load resized the table (%u buckets, %u tables)",
		    s.buckets, s.ntables);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 128, "78%% load: %u buckets after rehash_run", s.buckets);
	TEST_ASSERT_EQUAL(s.ntables, 1, "ntables %u after rehash_run", s.ntables);
	TEST_ASSERT_EQUAL(s.grows, 1, "stats.grows %" PRIu64, s.grows);
	TEST_ASSERT_EQUAL(s.emergency_allocs, 0, "stats.emergency_allocs %" PRIu64,
			  s.emergency_allocs);
	TEST_ASSERT(s.rehashes_done >= 1, "stats.rehashes_done 0");
	TEST_ASSERT_EQUAL(s.objs_moved, 350, "stats.objs_moved %" PRIu64, s.objs_moved);
	TEST_ASSERT(s.tables_freed >= 1, "old table not freed without QSBR");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 350, "count");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 350, true), "lookups after the grow");
	TEST_ASSERT_EQUAL(rte_rhashtable_rehash_run(NULL), -EINVAL, "rehash_run(NULL)");
	return TEST_SUCCESS;
}

/*
 * During a rehash, the keys of emptied buckets are looked for in the new
 * table only, by single, inline and bulk lookups, and by the duplicate
 * check of inserts; every key of o[0, present) must still be found exactly
 * once, and none of the others of o[0, n_objs).
 */
static int
lookups_of(struct test_obj *o, uint32_t n_objs, uint32_t present)
{
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	void *got[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint32_t i, j, n, d, absent;
	void *want;

	TEST_ASSERT_SUCCESS(test_found(ht, o, 0, present, true), "rte_rhashtable_lookup");
	TEST_ASSERT_SUCCESS(test_found(ht, o, present, n_objs, false),
			    "rte_rhashtable_lookup of removed objects");
	for (i = 0; i < n_objs; i++) {
		/* a variable: DPDK's TEST_ASSERT_EQUAL() does not bracket its operands */
		want = i < present ? &o[i] : NULL;
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_fast(ht, &o[i].key, sizeof(o[i].key)),
				  want, "lookup_fast of object %u", i);
	}
	for (i = 0; i < n_objs; i += n) {
		n = RTE_MIN(n_objs - i, (uint32_t)RTE_RHASHTABLE_LOOKUP_BULK_MAX);
		for (j = 0; j < n; j++)
			keys[j] = &o[i + j].key;
		/* the prefetch stages go to the next table for emptied buckets */
		for (d = 0; d <= RTE_RHASHTABLE_PREFETCH_DEPTH_MAX; d++)
			TEST_ASSERT_SUCCESS(rte_rhashtable_prefetch_bulk(ht, keys, n, d),
					    "prefetch at depth %u", d);
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_bulk(ht, keys, n, NULL, got),
				  (int)(RTE_MIN(i + n, present) - RTE_MIN(i, present)),
				  "bulk lookup from object %u", i);
		for (j = 0; j < n; j++) {
			want = i + j < present ? &o[i + j] : NULL;
			TEST_ASSERT_EQUAL(got[j], want, "bulk object %u", i + j);
		}
	}
	for (absent = 1; absent < 1000; absent++)
		TEST_ASSERT_NULL(rte_rhashtable_lookup_fast(ht, &absent, sizeof(absent)),
				 "absent key %u found", absent);
	for (i = 0; i < present; i++)
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert(ht, &o[i].node), -EEXIST,
				  "lookup_insert of present object %u", i);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), present, "count");
	return TEST_SUCCESS;
}

/* lookups_of() the suite's objects. */
static int
lookups_mid_rehash(uint32_t present)
{
	return lookups_of(objs, N_OBJS, present);
}

/* The table filled with the N_OBJS objects, settled at 8192 buckets. */
static int
table_of_8192(void)
{
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(insert_with_worker(0, N_OBJS, 64), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 8192u, "an 8192-bucket table");
	return TEST_SUCCESS;
}

/*
 * Run the rehash service in this thread until it has moved its first batch
 * of buckets (the first step attaches the new table, the next one empties
 * a batch): half-way through the rehash of the 8192-bucket table, whose
 * present objects are objs[0, present), into a table of new_buckets that
 * shares its key seed or not. Then look them up there, and again once the
 * rehash is over.
 */
static int
lookups_half_way(uint32_t present, uint32_t new_buckets, bool shared_key_seed)
{
	struct rte_rhashtable_stats s;
	uint32_t sid, step;
	uint64_t moved;
	bool shared;

	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service id");
	moved = test_stats(ht).objs_moved;
	for (step = 0; step < 4 && test_stats(ht).objs_moved == moved; step++)
		TEST_ASSERT_SUCCESS(rte_service_run_iter_on_app_lcore(sid, 1), "service step");
	s = test_stats(ht);
	TEST_ASSERT(s.objs_moved > moved && s.objs_moved < moved + present && s.ntables == 2 &&
		    s.buckets == new_buckets,
		    "not half-way: %" PRIu64 " of %u objects moved, %u tables, %u buckets",
		    s.objs_moved - moved, present, s.ntables, s.buckets);
	shared = test_table_key_seed(ht, 0) == test_table_key_seed(ht, 1);
	TEST_ASSERT_EQUAL(shared, shared_key_seed, "key seeds %#x and %#x",
			  test_table_key_seed(ht, 0), test_table_key_seed(ht, 1));
	TEST_ASSERT_NOT_EQUAL(test_table_seed(ht, 0), test_table_seed(ht, 1),
			      "the new table kept the seed");
	TEST_ASSERT_SUCCESS(lookups_mid_rehash(present), "half-way through the rehash");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1u, "rehash finished");
	return lookups_mid_rehash(present);
}

/* Half-way through a re-seed, whose new table has a key seed of its own. */
static int
test_lookups_mid_rehash(void)
{
	TEST_ASSERT_SUCCESS(table_of_8192(), "fill");
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	/* the re-seed's table is attached by the first service step */
	TEST_ASSERT_SUCCESS(lookups_half_way(N_OBJS, 8192, false), "re-seed");
	return TEST_SUCCESS;
}

/*
 * Half-way through a shrink, whose tables share the key seed: lookups then
 * run the hash's first step once for both tables (rte_rhashtable_core.h),
 * a path of its own.
 */
static int
test_lookups_mid_shrink(void)
{
	const uint32_t present = N_OBJS / 2 - 700; /* 24% of the slots of 8192 buckets */
	uint32_t i;

	params.automatic_shrinking = true;
	TEST_ASSERT_SUCCESS(table_of_8192(), "fill");
	for (i = present; i < N_OBJS; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	TEST_ASSERT_SUCCESS(lookups_half_way(present, 4096, true), "shrink");
	return TEST_SUCCESS;
}

/* Run the rehash service callback once in this thread; its buckets and tables. */
static int
service_step(uint32_t sid, uint32_t *buckets, uint32_t *ntables)
{
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(rte_service_run_iter_on_app_lcore(sid, 1), "service step");
	s = test_stats(ht);
	*buckets = s.buckets;
	*ntables = s.ntables;
	return TEST_SUCCESS;
}

/*
 * A shrink of a 65536-bucket table (172032 objects, all but 133000 then
 * removed: 29% of its slots), looked up after every service step: with
 * the default batch of 4096 buckets, the worker's mark stops at every
 * sixteenth of the table. Within an eighth of either end, bulk lookups
 * pick a key's table with a branch, in between with masked selects
 * (rhashtable_lookup.c): both must find every present key.
 */
#define WIDE_OBJS 172032
#define WIDE_PRESENT 133000
#define WIDE_BUCKETS 65536u

static int
lookups_every_step(struct test_obj *wide)
{
	uint32_t sid, i, step, stops = 0, buckets = 0, ntables = 0;

	params.automatic_shrinking = true;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	for (i = 0; i < WIDE_OBJS; i++) {
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(ht, &wide[i].node), "insert %u", i);
		if ((i + 1) % 1024 == 0)
			TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	}
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, WIDE_BUCKETS, "a %u-bucket table",
			  WIDE_BUCKETS);
	for (i = WIDE_PRESENT; i < WIDE_OBJS; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &wide[i].node), "remove %u", i);
	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service id");
	for (step = 0; step < 4 * WIDE_BUCKETS / RTE_RHT_REHASH_BATCH + 4; step++) {
		TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step %u", step);
		if (ntables == 1 && buckets < WIDE_BUCKETS)
			break;
		if (ntables == 1)
			continue;
		TEST_ASSERT_EQUAL(buckets, WIDE_BUCKETS / 2, "shrink to %u buckets", buckets);
		TEST_ASSERT_SUCCESS(lookups_of(wide, WIDE_OBJS, WIDE_PRESENT),
				    "stopped after service step %u", step);
		stops++;
	}
	TEST_ASSERT(ntables == 1 && buckets == WIDE_BUCKETS / 2,
		    "shrink not done: %u tables, %u buckets", ntables, buckets);
	/* with batches of a sixteenth or less, a stop near each end and in the middle */
	TEST_ASSERT(stops >= WIDE_BUCKETS / RTE_RHT_REHASH_BATCH - 1 ||
		    WIDE_BUCKETS / 16 < RTE_RHT_REHASH_BATCH,
		    "the rehash stopped %u times", stops);
	return lookups_of(wide, WIDE_OBJS, WIDE_PRESENT);
}

static int
test_lookups_every_step(void)
{
	struct test_obj *wide = test_objs_alloc(WIDE_OBJS, 1000);
	int ret;

	TEST_ASSERT_NOT_NULL(wide, "no memory for %u objects", WIDE_OBJS);
	ret = lookups_every_step(wide);
	/* the table links the objects: gone first */
	rte_rhashtable_free(ht);
	ht = NULL;
	rte_free(wide);
	return ret;
}

/*
 * The service at rest acts only when a writer has asked (a threshold
 * crossed): it must not miss the request of the insert that crosses the
 * grow threshold, nor lose one that arrives while rte_rhashtable_rehash_lock()
 * keeps it out. A table of 4 buckets: there, below 32 buckets, writers count
 * in batches of one (rhashtable_count.h), so the insert that crosses the
 * threshold is the one that sees it crossed.
 */
static int
test_worker_scheduled_by_writers(void)
{
	uint32_t sid, buckets = 0, ntables = 0, step;

	params.nelem_hint = 1;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service id");
	/* 19 in the 28 slots of 4 buckets: 68%, below the grow threshold */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 19), "insert");
	TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	TEST_ASSERT(buckets == 4 && ntables == 1, "grew at 68%%: %u buckets, %u tables",
		    buckets, ntables);
	/* the 20th crosses 70% while the worker is locked out */
	rte_rhashtable_rehash_lock(ht);
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 19, 20), "insert");
	TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "locked step");
	TEST_ASSERT(buckets == 4 && ntables == 1, "the worker ran under rehash_lock");
	rte_rhashtable_rehash_unlock(ht);
	/* no further writer: the request of the 20th insert must still be there */
	TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	TEST_ASSERT_EQUAL(ntables, 2, "no grow started at 70%% load (%u tables)", ntables);
	for (step = 0; step < 8 && ntables != 1; step++)
		TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	TEST_ASSERT(buckets == 8 && ntables == 1, "%u buckets, %u tables after the grow",
		    buckets, ntables);
	/* at rest again below the threshold: nothing more to do */
	TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	TEST_ASSERT(buckets == 8 && ntables == 1, "%u buckets, %u tables at rest", buckets,
		    ntables);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 20, true), "lookups after the grow");
	return TEST_SUCCESS;
}

static int mover_ret = -1;   /* read after rte_eal_wait_lcore() */
static uint32_t mover_done;

static int
mover_main(void *arg __rte_unused)
{
	mover_ret = rte_rhashtable_rehash_run(ht);
	/* release: pairs with the test's acquire loads */
	rte_atomic_store_explicit(&mover_done, 1, rte_memory_order_release);
	return 0;
}

/*
 * The worker links a moving object into its new chain only under the new
 * bucket's lock. The object is still in its old chain then, where readers
 * may follow its next link: a worker that stored the new chain's head in it
 * before holding that bucket (a lock-free push once did) raced a writer
 * that unlinked and retired the head in between, and a reader reached
 * freed memory (rhashtable_rcu_short_autotest under ASan caught it once).
 * Here the test holds every bucket of the new table while the worker runs
 * on another lcore: the worker must wait, with no object's link changed
 * and every key found, and finish once they are released.
 */
#define HOLD_OBJS 350

static int
test_move_waits_for_new_bucket(void)
{
	struct rte_rhash_head *next[HOLD_OBJS];
	unsigned int lcore = rte_get_next_lcore(rte_lcore_id(), 1, 0);
	uint32_t sid, buckets = 0, ntables = 0, i;
	uint64_t moved;

	TEST_ASSERT(lcore < RTE_MAX_LCORE, "needs a second lcore (-l 0-1)");
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service id");
	/* 350 in the 448 slots of 64 buckets: past the grow threshold; one step
	 * attaches 128. At 5.5 objects a bucket, some buckets have overflow chains.
	 */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, HOLD_OBJS), "insert");
	moved = test_stats(ht).objs_moved;
	TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	TEST_ASSERT(buckets == 128 && ntables == 2 && test_stats(ht).objs_moved == moved,
		    "no new table waiting: %u buckets, %u tables", buckets, ntables);
	for (i = 0; i < HOLD_OBJS; i++)
		next[i] = objs[i].node.next;
	TEST_ASSERT_SUCCESS(__rte_rhashtable_newest_buckets_hold(ht, true), "hold");
	rte_atomic_store_explicit(&mover_done, 0, rte_memory_order_relaxed);
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(mover_main, NULL, lcore), "launch");
	rte_delay_ms(100);
	TEST_ASSERT(!rte_atomic_load_explicit(&mover_done, rte_memory_order_acquire),
		    "the worker finished while every new bucket was held");
	for (i = 0; i < HOLD_OBJS; i++)
		TEST_ASSERT(objs[i].node.next == next[i],
			    "object %u's link changed before its new bucket was locked", i);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, HOLD_OBJS, true), "lookups, worker waiting");
	TEST_ASSERT_SUCCESS(__rte_rhashtable_newest_buckets_hold(ht, false), "release");
	rte_eal_wait_lcore(lcore);
	TEST_ASSERT_SUCCESS(mover_ret, "rehash_run");
	TEST_ASSERT(rte_atomic_load_explicit(&mover_done, rte_memory_order_acquire),
		    "the worker did not finish");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1u, "rehash finished");
	TEST_ASSERT_EQUAL(test_stats(ht).objs_moved, moved + HOLD_OBJS, "objects moved");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, HOLD_OBJS, true), "lookups after the grow");
	TEST_ASSERT_EQUAL(__rte_rhashtable_newest_buckets_hold(NULL, true), -EINVAL, "NULL");
	return TEST_SUCCESS;
}

/*
 * Removals that leave a table far below the shrink threshold ask once; the
 * service, stepped with no writer left, must go on halving until the table
 * is within its thresholds, not stop after the first halving.
 */
static int
test_worker_shrinks_to_rest(void)
{
	uint32_t sid, buckets = 0, ntables = 0, step, i;

	params.automatic_shrinking = true;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(insert_with_worker(0, 4900, 64), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 1024u, "4900 objects in 1024 buckets");
	for (i = 140; i < 4900; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service id");
	/* four halvings, two steps each: attach, then move and drop */
	for (step = 0; step < 32; step++)
		TEST_ASSERT_SUCCESS(service_step(sid, &buckets, &ntables), "step");
	/* 140 objects: 31% of the slots of 64 buckets, 16% of 128 */
	TEST_ASSERT(buckets == 64 && ntables == 1, "the worker stopped at %u buckets, %u tables",
		    buckets, ntables);
	TEST_ASSERT_EQUAL(test_stats(ht).shrinks, 4, "stats.shrinks %" PRIu64,
			  test_stats(ht).shrinks);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 140, true), "lookups after the shrinks");
	return TEST_SUCCESS;
}

/*
 * From 700 objects in 256 buckets (39% of the 1792 slots), remove down to
 * 490 (27%) and rehash.
 */
#define SHRINK_OBJS 700
#define SHRINK_REMOVED 210

static int
shrink_case(bool automatic, uint32_t expected)
{
	/* a variable: DPDK's TEST_ASSERT_EQUAL() does not bracket its operands */
	uint64_t expected_shrinks = automatic ? 1 : 0;
	struct rte_rhashtable_stats s;
	uint32_t i;

	params.nelem_hint = 1344;
	params.automatic_shrinking = automatic;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, SHRINK_OBJS), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 256, "shrank at 39%% load");
	for (i = 0; i < SHRINK_REMOVED; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, expected, "automatic_shrinking %d: %u buckets, expected %u",
			  automatic, s.buckets, expected);
	TEST_ASSERT_EQUAL(s.shrinks, expected_shrinks, "stats.shrinks %" PRIu64, s.shrinks);
	TEST_ASSERT_EQUAL(s.ntables, 1, "ntables %u", s.ntables);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, SHRINK_REMOVED, SHRINK_OBJS, true),
			    "lookups after the shrink");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, SHRINK_REMOVED, false), "removed objects");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), SHRINK_OBJS - SHRINK_REMOVED, "count");
	return TEST_SUCCESS;
}

static int
test_shrink(void)
{
	return shrink_case(true, 128);
}

static int
test_no_shrink(void)
{
	uint32_t i;

	TEST_ASSERT_SUCCESS(shrink_case(false, 256), "490 objects");
	/* not even when almost empty */
	for (i = SHRINK_REMOVED; i < SHRINK_OBJS - 1; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 256, "shrank without automatic_shrinking");
	return TEST_SUCCESS;
}

/*
 * A single-writer table has no rehash service; its writer grows it with
 * rte_rhashtable_rehash_run(), by planned and by unplanned moves (no
 * bucket lock either way), and shrinks it; every key stays found, once.
 */
static int
test_single_writer(void)
{
	uint64_t cache_bytes = __rte_rhashtable_cache_bytes_set(0);
	struct rte_rhashtable_stats s;
	uint32_t sid = UINT32_MAX, i;
	int ret;

	params.single_writer = true;
	params.automatic_shrinking = true;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_EQUAL(rte_rhashtable_service_id_get(ht, &sid), -ENOTSUP,
			  "a single-writer table has a service");
	TEST_ASSERT_EQUAL(sid, UINT32_MAX, "service_id written on -ENOTSUP");
	TEST_ASSERT_EQUAL(__rte_rhashtable_newest_buckets_hold(ht, true), -ENOTSUP,
			  "a single-writer table's buckets have locks to hold");
	/* the first half grows with planned moves (cache size 0), the second
	 * with moves as the machine's cache size decides
	 */
	ret = insert_with_worker(0, N_OBJS / 2, 32);
	__rte_rhashtable_cache_bytes_set(cache_bytes);
	TEST_ASSERT_SUCCESS(ret, "first half");
	TEST_ASSERT_SUCCESS(insert_with_worker(N_OBJS / 2, N_OBJS, 32), "second half");
	s = test_stats(ht);
	TEST_ASSERT(s.grows >= 6 && s.ntables == 1, "%" PRIu64 " grows, %u tables",
		    s.grows, s.ntables);
	TEST_ASSERT(s.objs_moved >= N_OBJS, "%" PRIu64 " objects moved", s.objs_moved);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), N_OBJS, "count");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_OBJS, true), "lookups after growth");
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert(ht, &objs[7].node), -EEXIST,
			  "a present key inserted again");
	for (i = 0; i < N_OBJS - 100; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT(s.shrinks > 0 && s.buckets <= 256, "%" PRIu64 " shrinks, %u buckets",
		    s.shrinks, s.buckets);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, N_OBJS - 100, false), "removed keys");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, N_OBJS - 100, N_OBJS, true), "kept keys");
	return TEST_SUCCESS;
}

/* Bucket tables of the chain: growing sizes, distinct seeds, then -ENOENT. */
static int
check_table_chain(uint32_t ntables)
{
	struct rte_rhashtable_table_info info, prev;
	uint32_t i;

	for (i = 0; i < ntables; i++) {
		TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, i, &info), "table %u", i);
		if (i > 0) {
			TEST_ASSERT(info.buckets >= prev.buckets, "table %u is smaller", i);
			TEST_ASSERT_NOT_EQUAL(info.seed, prev.seed,
					      "tables %u and %u have the same seed", i - 1, i);
		}
		prev = info;
	}
	TEST_ASSERT_EQUAL(rte_rhashtable_table_info_get(ht, ntables, &info), -ENOENT,
			  "table_info beyond ntables");
	return TEST_SUCCESS;
}

static int
check_bulk_found(uint32_t from)
{
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	void *got[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint64_t mask = 0;
	uint32_t i;
	int ret;

	for (i = 0; i < RTE_RHASHTABLE_LOOKUP_BULK_MAX; i++)
		keys[i] = &objs[from + i].key;
	ret = rte_rhashtable_lookup_bulk(ht, keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, &mask, got);
	TEST_ASSERT_EQUAL(ret, RTE_RHASHTABLE_LOOKUP_BULK_MAX, "lookup_bulk found %d", ret);
	TEST_ASSERT_EQUAL(mask, UINT64_MAX, "hit_mask %#" PRIx64, mask);
	for (i = 0; i < RTE_RHASHTABLE_LOOKUP_BULK_MAX; i++)
		TEST_ASSERT_EQUAL(got[i], (void *)&objs[from + i], "bulk object %u", i);
	return TEST_SUCCESS;
}

/* With no worker, inserts past 100% load allocate the next tables themselves. */
static int
test_emergency_growth(void)
{
	struct test_obj twin = { .cookie = TEST_OBJ_COOKIE, .key = objs[1].key };
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	/* 420 in the 448 slots of 64 buckets */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 420), "insert");
	s = test_stats(ht);
	TEST_ASSERT(s.ntables == 1 && s.emergency_allocs == 0,
		    "emergency growth at 94%% load (%u tables)", s.ntables);

	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 420, 2100), "insert past 100%% load");
	s = test_stats(ht);
	TEST_ASSERT(s.emergency_allocs > 0, "no emergency allocation at 469%% load");
	TEST_ASSERT(s.ntables > 1, "only %u bucket table with no worker run", s.ntables);
	TEST_ASSERT_EQUAL(s.grows, s.emergency_allocs, "emergency tables are not grows");
	TEST_ASSERT_SUCCESS(check_table_chain(s.ntables), "bucket table chain");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 2100, true), "lookups across %u tables",
			    s.ntables);
	TEST_ASSERT_SUCCESS(check_bulk_found(0), "bulk lookups across the chain");
	TEST_ASSERT_SUCCESS(check_bulk_found(2036), "bulk lookups across the chain");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 2100, "count");

	/* objects in the oldest table are still seen by writers */
	TEST_ASSERT_EQUAL(rte_rhashtable_lookup_insert(ht, &twin.node), -EEXIST,
			  "duplicate of an object in the old table inserted");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 2100, 2101), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[2].node), "remove from old table");
	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[2099].node), "remove from new table");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 2, 3, false), "removed");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 2099, 2100, false), "removed");

	/* the worker collapses the chain into one table of the right size */
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.ntables, 1, "%u tables after rehash_run", s.ntables);
	TEST_ASSERT_EQUAL(s.buckets, 512, "2099 objects in %u buckets", s.buckets);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 3, 2099, true), "lookups after rehash_run");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 2, true), "lookups after rehash_run");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 2099, "count");
	return TEST_SUCCESS;
}

static struct unit_test_suite resize_suite = {
	.suite_name = "rhashtable resize",
	.setup = objs_setup,
	.teardown = objs_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(params_setup, table_teardown, test_grow_by_worker),
		TEST_CASE_ST(params_setup, table_teardown, test_lookups_mid_rehash),
		TEST_CASE_ST(params_setup, table_teardown, test_lookups_mid_shrink),
		TEST_CASE_ST(params_setup, table_teardown, test_lookups_every_step),
		TEST_CASE_ST(params_setup, table_teardown, test_worker_scheduled_by_writers),
		TEST_CASE_ST(params_setup, table_teardown, test_move_waits_for_new_bucket),
		TEST_CASE_ST(params_setup, table_teardown, test_worker_shrinks_to_rest),
		TEST_CASE_ST(params_setup, table_teardown, test_shrink),
		TEST_CASE_ST(params_setup, table_teardown, test_no_shrink),
		TEST_CASE_ST(params_setup, table_teardown, test_emergency_growth),
		TEST_CASE_ST(params_setup, table_teardown, test_single_writer),
		TEST_CASES_END()
	}
};

/* ---- reseed ---- */

static int
test_reseed(void)
{
	struct rte_rhashtable_stats s;
	uint32_t seed0, seed1, seed2;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	/* 280 in the 448 slots of 64 buckets: 62%, no grow */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 280), "insert");
	seed0 = test_table_seed(ht, 0);
	/* rte_rhashtable_default_hash(key, key_len, seed) is a key's hash */
	TEST_ASSERT_EQUAL(test_table_key_seed(ht, 0), seed0, "a new table's two seeds differ");

	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 280, true), "lookups with a re-seed pending");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	seed1 = test_table_seed(ht, 0);
	TEST_ASSERT_EQUAL(s.buckets, 64, "re-seed changed the size to %u", s.buckets);
	TEST_ASSERT_EQUAL(s.ntables, 1, "ntables %u", s.ntables);
	TEST_ASSERT_EQUAL(s.reseeds, 1, "stats.reseeds %" PRIu64, s.reseeds);
	TEST_ASSERT_EQUAL(s.objs_moved, 280, "re-seed moved %" PRIu64 " objects", s.objs_moved);
	TEST_ASSERT_NOT_EQUAL(seed1, seed0, "re-seed kept the seed %#x", seed0);
	TEST_ASSERT_EQUAL(test_table_key_seed(ht, 0), seed1,
			  "a re-seed drew a key seed other than its seed");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 280, true), "lookups after the re-seed");

	/* a grow gets a new seed too: 420 of 448, 94% */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 280, 420), "insert");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	seed2 = test_table_seed(ht, 0);
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 128, "no grow at 94%% load");
	TEST_ASSERT(seed2 != seed1 && seed2 != seed0, "grown table reuses a seed");
	TEST_ASSERT_EQUAL(test_table_key_seed(ht, 0), seed1, "a grow changed the key seed");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 420, true), "lookups after the grow");

	/* and another re-seed at the new size */
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 128, "re-seed changed the size");
	TEST_ASSERT_NOT_EQUAL(test_table_seed(ht, 0), seed2, "second re-seed kept the seed");
	TEST_ASSERT_NOT_EQUAL(test_table_key_seed(ht, 0), seed1,
			      "second re-seed kept the key seed");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 420, true), "lookups after the re-seed");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 420, "count");
	TEST_ASSERT_EQUAL(rte_rhashtable_reseed(NULL), -EINVAL, "reseed(NULL)");
	return TEST_SUCCESS;
}

/* Two tables with the same parameters do not share a seed either. */
static int
test_seed_per_table(void)
{
	struct rte_rhashtable *other;
	uint32_t s1, s2;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	params.name = "rht_resize2";
	other = rte_rhashtable_create(&params);
	TEST_ASSERT_NOT_NULL(other, "create");
	s1 = test_table_seed(ht, 0);
	s2 = test_table_seed(other, 0);
	rte_rhashtable_free(other);
	TEST_ASSERT_NOT_EQUAL(s1, s2, "two new tables got the seed %#x", s1);
	return TEST_SUCCESS;
}

static struct unit_test_suite reseed_suite = {
	.suite_name = "rhashtable reseed",
	.setup = objs_setup,
	.teardown = objs_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(params_setup, table_teardown, test_reseed),
		TEST_CASE_ST(params_setup, table_teardown, test_seed_per_table),
		TEST_CASES_END()
	}
};

/* ---- chain limit ---- */

/* Ignores the seed: every key lands in the same bucket of every table. */
static uint32_t
const_hash(const void *key __rte_unused, uint32_t key_len __rte_unused,
	   uint32_t seed __rte_unused)
{
	return 0x1234567;
}

/*
 * Insert into one bucket until -EBUSY; *inserted is the number that went
 * in. The bucket takes FULL_BUCKET objects, its slots then an overflow
 * chain of RTE_RHT_MAX_CHAIN_LEN; the next insert attaches a re-seeded
 * table of the same size, whose bucket takes as many before -EBUSY.
 */
#define FULL_BUCKET (RTE_RHASHTABLE_BUCKET_SLOTS + RTE_RHT_MAX_CHAIN_LEN)

static int
fill_one_chain(uint32_t *inserted)
{
	struct rte_rhashtable_stats s;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < 64; i++) {
		ret = rte_rhashtable_insert(ht, &objs[i].node);
		if (ret != 0)
			break;
		s = test_stats(ht);
		if (i + 1 <= FULL_BUCKET)
			TEST_ASSERT(s.emergency_allocs == 0 && s.ntables == 1,
				    "new table with a bucket of %u objects", i + 1);
		if (i + 1 == FULL_BUCKET + 1) {
			TEST_ASSERT_EQUAL(s.emergency_allocs, 1,
					  "no emergency table with a bucket of %u objects", i + 1);
			TEST_ASSERT_EQUAL(s.ntables, 2, "%u tables", s.ntables);
			TEST_ASSERT_EQUAL(s.reseeds, 1, "the new table is not a re-seed");
			TEST_ASSERT_EQUAL(s.buckets, 64, "the re-seeded table has %u buckets",
					  s.buckets);
		}
	}
	TEST_ASSERT_EQUAL(ret, -EBUSY, "insert %u with a resize pending returned %d", i, ret);
	TEST_ASSERT(i >= FULL_BUCKET + 1, "-EBUSY after only %u objects", i);
	printf("one bucket: -EBUSY at insert %u\n", i + 1);
	*inserted = i;
	return TEST_SUCCESS;
}

static int
test_chain_limit(void)
{
	struct rte_rhashtable_stats s;
	uint32_t n = 0, i;

	params.hashfn = const_hash;
	TEST_ASSERT_SUCCESS(create_table(), "create");
	TEST_ASSERT_SUCCESS(fill_one_chain(&n), "fill one bucket");

	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.refused_ebusy, 1, "stats.refused_ebusy %" PRIu64, s.refused_ebusy);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), n, "count after -EBUSY");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, n, true), "lookups after -EBUSY");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, n, n + 1, false), "the refused object");
	TEST_ASSERT_SUCCESS(check_table_chain(s.ntables), "bucket table chain");

	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");
	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.ntables, 1, "%u tables after rehash_run", s.ntables);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, n, true), "lookups after rehash_run");
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[i].node), "remove %u", i);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 0, "count after removing all");
	return TEST_SUCCESS;
}

static struct unit_test_suite chain_suite = {
	.suite_name = "rhashtable chain limit",
	.setup = objs_setup,
	.teardown = objs_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(params_setup, table_teardown, test_chain_limit),
		TEST_CASES_END()
	}
};

/* ---- nested tables and allocation failures ---- */

static int
walk_count_once(uint32_t n)
{
	struct rte_rhashtable_iter it;
	struct test_obj *o;
	void *obj;
	uint32_t seen = 0;
	int ret;

	test_objs_clear_seen(objs, N_OBJS);
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &obj)) == 0) {
		o = obj;
		o->seen++;
		seen++;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_EQUAL(ret, -ENOENT, "walk ended with %d", ret);
	TEST_ASSERT_EQUAL(seen, n, "walk saw %u objects of %u", seen, n);
	return TEST_SUCCESS;
}

static int
test_nested_table(void)
{
	/* every allocation above one page fails: only page-sized pieces work */
	struct rhashtable_fault big = { .fail_after = 0, .one_in = 0, .min_bytes = 4097 };
	struct rte_rhashtable_table_info info;
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	__rte_rhashtable_fault_inject(&big);
	TEST_ASSERT_SUCCESS(insert_with_worker(0, 14000, 100), "insert 14000");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run");

	s = test_stats(ht);
	TEST_ASSERT_EQUAL(s.buckets, 4096, "14000 objects in %u buckets", s.buckets);
	TEST_ASSERT(s.nested_tables > 0, "no nested table with large allocations failing");
	TEST_ASSERT(__rte_rhashtable_fault_count() > 0, "no allocation was refused");
	TEST_ASSERT_SUCCESS(rte_rhashtable_table_info_get(ht, 0, &info), "table_info");
	TEST_ASSERT(info.nested, "the 4096-bucket table is not nested");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 14000, true), "lookups in the nested table");
	TEST_ASSERT_SUCCESS(check_bulk_found(1000), "bulk lookups in the nested table");
	TEST_ASSERT_SUCCESS(walk_count_once(14000), "walk of the nested table");

	TEST_ASSERT_SUCCESS(rte_rhashtable_remove(ht, &objs[5].node), "remove");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 5, 6, false), "removed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_reseed(ht), "reseed");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "re-seed into a nested table");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 6, 14000, true), "lookups after the re-seed");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 13999, "count");
	return TEST_SUCCESS;
}

static int
test_alloc_fail_keeps_table(void)
{
	struct rhashtable_fault all = { .fail_after = 0, .one_in = 0, .min_bytes = 0 };
	struct rte_rhashtable_stats s;
	int ret;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	/* 350 in the 448 slots of 64 buckets: 78%, the worker must grow it */
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 0, 350), "insert");
	__rte_rhashtable_fault_inject(&all);
	ret = rte_rhashtable_rehash_run(ht);
	TEST_ASSERT_EQUAL(ret, -ENOMEM, "rehash_run without memory returned %d", ret);
	s = test_stats(ht);
	TEST_ASSERT(s.alloc_failures > 0, "stats.alloc_failures 0");
	TEST_ASSERT(s.ntables == 1 && s.buckets == 64, "table changed (%u tables, %u buckets)",
		    s.ntables, s.buckets);
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 350, true), "lookups in the old table");
	TEST_ASSERT_SUCCESS(test_insert_range(ht, objs, 350, 420), "insert below 100%% load");

	/* restore memory: the grow goes through */
	__rte_rhashtable_fault_inject(NULL);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run with memory");
	TEST_ASSERT_EQUAL(test_stats(ht).buckets, 128, "no grow after memory came back");
	TEST_ASSERT_SUCCESS(test_found(ht, objs, 0, 420, true), "lookups after the grow");
	return TEST_SUCCESS;
}

/*
 * Inserts that need a new table and get none fail cleanly with -ENOMEM:
 * 2800 objects, six times the 448 slots of 64 buckets.
 */
#define ENOMEM_OBJS 2800

static int
test_alloc_fail_emergency(void)
{
	struct rhashtable_fault all = { .fail_after = 0, .one_in = 0, .min_bytes = 0 };
	uint32_t i, ok = 0, enomem = 0;
	int ret;

	TEST_ASSERT_SUCCESS(create_table(), "create");
	__rte_rhashtable_fault_inject(&all);
	for (i = 0; i < ENOMEM_OBJS; i++) {
		ret = rte_rhashtable_insert(ht, &objs[i].node);
		objs[i].seen = ret == 0;
		if (ret == 0)
			ok++;
		else if (ret == -ENOMEM)
			enomem++;
		else
			TEST_ASSERT(0, "insert without memory returned %d", ret);
	}
	__rte_rhashtable_fault_inject(NULL);
	TEST_ASSERT(enomem > 0, "%u inserts past 100%% load, none refused", ok);
	TEST_ASSERT_EQUAL(test_stats(ht).refused_enomem, enomem, "stats.refused_enomem");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), ok, "count %u, %u inserts succeeded",
			  rte_rhashtable_count(ht), ok);
	for (i = 0; i < ENOMEM_OBJS; i++)
		TEST_ASSERT_EQUAL(rte_rhashtable_lookup(ht, &objs[i].key),
				  (objs[i].seen ? (void *)&objs[i] : NULL),
				  "object %u (inserted: %u)", i, objs[i].seen);
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run with memory");
	TEST_ASSERT_EQUAL(test_stats(ht).ntables, 1, "ntables");
	return TEST_SUCCESS;
}

static struct unit_test_suite nested_suite = {
	.suite_name = "rhashtable nested tables and allocation failures",
	.setup = objs_setup,
	.teardown = objs_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(params_setup, table_teardown, test_nested_table),
		TEST_CASE_ST(params_setup, table_teardown, test_alloc_fail_keeps_table),
		TEST_CASE_ST(params_setup, table_teardown, test_alloc_fail_emergency),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_sizing(void)
{
	return unit_test_suite_runner(&sizing_suite);
}

static int
test_rhashtable_resize(void)
{
	return unit_test_suite_runner(&resize_suite);
}

static int
test_rhashtable_reseed(void)
{
	return unit_test_suite_runner(&reseed_suite);
}

static int
test_rhashtable_chain(void)
{
	return unit_test_suite_runner(&chain_suite);
}

static int
test_rhashtable_nested(void)
{
	return unit_test_suite_runner(&nested_suite);
}

REGISTER_FAST_TEST(rhashtable_sizing_autotest, true, true, test_rhashtable_sizing);
REGISTER_FAST_TEST(rhashtable_resize_autotest, true, true, test_rhashtable_resize);
REGISTER_FAST_TEST(rhashtable_reseed_autotest, true, true, test_rhashtable_reseed);
REGISTER_FAST_TEST(rhashtable_chain_autotest, true, true, test_rhashtable_chain);
REGISTER_FAST_TEST(rhashtable_nested_autotest, true, true, test_rhashtable_nested);
