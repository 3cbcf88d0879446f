/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_scale_autotest (stress): 2^26 objects (2^24 when memory is
 * short) go into a table that starts at 64 buckets with automatic
 * shrinking, then all come out again, while a reader lcore looks up present
 * keys. The rehash service runs on the main lcore between inserts, as an
 * application's service loop would. At the end the table is back at its
 * minimum size, the rte_malloc heap at its baseline, and no lookup missed.
 * Peak table memory per entry is printed next to rte_hash's footprint for
 * the same number of keys.
 *
 * rhashtable_scale_short_autotest: the same with 2^20 objects.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include <rte_rhashtable.h>

#include "rht_eal_mem.h"
#include "test.h"
#include "test_rhashtable_stress.h"

#define SCALE_MIN_BUCKETS 64
#define SCALE_SERVICE_EVERY 1024

struct sobj {
	uint64_t key;
	struct rte_rhash_head node;
};

struct scale_figures {
	struct test_heap base;
	uint64_t peak_bytes;     /* most memory the table held (stats bytes) */
	uint64_t rest_bytes;     /* table memory with every object in, at rest */
	double insert_s;
	double remove_s;
	uint64_t lookups;
	uint64_t misses;
	struct rte_rhashtable_stats st;
};

static struct rel_readers rd;

static double
now_s(void)
{
	return (double)rte_get_timer_cycles() / rte_get_timer_hz();
}

/* Memory the table holds (table, bucket tables, locks), peak so far. */
static void
sample_peak(struct rte_rhashtable *ht, struct scale_figures *f)
{
	struct rte_rhashtable_stats st;

	if (rte_rhashtable_stats_get(ht, &st) == 0)
		f->peak_bytes = RTE_MAX(f->peak_bytes, st.bytes);
}

/* One batch of the rehash service, as a service lcore would run it. */
static void
service_iter(struct rte_rhashtable *ht, struct scale_figures *f)
{
	uint32_t sid;

	if (rte_rhashtable_service_id_get(ht, &sid) == 0)
		rte_service_run_iter_on_app_lcore(sid, 1);
	sample_peak(ht, f);
}

static int
scale_insert(struct rte_rhashtable *ht, struct sobj *o, uint32_t n, struct scale_figures *f)
{
	double t0 = now_s();
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rte_rhashtable_insert(ht, &o[i].node);
		if (ret != 0) {
			printf("insert %u of %u returned %d\n", i, n, ret);
			return -1;
		}
		/* release: the reader may look object i up from now on */
		rte_atomic_store_explicit(&rd.hi, i + 1, rte_memory_order_release);
		if (i % SCALE_SERVICE_EVERY == 0)
			service_iter(ht, f);
	}
	f->insert_s = now_s() - t0;
	return 0;
}

static int
scale_remove(struct rte_rhashtable *ht, struct sobj *o, uint32_t n, struct scale_figures *f)
{
	double t0 = now_s();
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		/* release: announce before removing, so that a reader that misses
		 * object i afterwards knows it may be gone
		 */
		rte_atomic_store_explicit(&rd.lo, i + 1, rte_memory_order_release);
		ret = rte_rhashtable_remove(ht, &o[i].node);
		if (ret != 0) {
			printf("remove %u of %u returned %d\n", i, n, ret);
			return -1;
		}
		if (i % SCALE_SERVICE_EVERY == 0)
			service_iter(ht, f);
	}
	f->remove_s = now_s() - t0;
	return 0;
}

/* Run the worker until the table rests: one bucket table, no resize due. */
static void
settle(struct rte_rhashtable *ht, struct scale_figures *f)
{
	struct rte_rhashtable_stats st;
	unsigned int i;

	for (i = 0; i < 1000000; i++) {
		service_iter(ht, f);
		rte_rhashtable_stats_get(ht, &st);
		if (st.ntables == 1 && rte_rhashtable_rehash_run(ht) == 0 &&
		    rte_rhashtable_stats_get(ht, &st) == 0 && st.ntables == 1)
			return;
	}
}

static struct rte_rhashtable *
scale_table(void)
{
	struct rte_rhashtable_params p = {
		.name = "rht_scale",
		.socket_id = SOCKET_ID_ANY,
		.nelem_hint = 336,  /* 64 buckets: 448 slots */
		.key_len = sizeof(uint64_t),
		.key_offset = offsetof(struct sobj, key),
		.head_offset = offsetof(struct sobj, node),
		.min_size = SCALE_MIN_BUCKETS,
		.automatic_shrinking = true,
	};

	return rte_rhashtable_create(&p);
}

static int
scale_body(struct rte_rhashtable *ht, struct sobj *o, uint32_t n, struct scale_figures *f)
{
	struct rte_rhashtable_stats st;

	TEST_ASSERT_SUCCESS(scale_insert(ht, o, n, f), "inserts");
	settle(ht, f);
	rte_rhashtable_stats_get(ht, &st);
	f->rest_bytes = st.bytes;
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), n, "count %u after inserts",
			  rte_rhashtable_count(ht));
	TEST_ASSERT(st.nelems * 100 <= (uint64_t)TEST_SLOTS(st.buckets) * 70,
		    "%u buckets (%u slots) for %u objects", st.buckets, TEST_SLOTS(st.buckets), n);
	TEST_ASSERT_SUCCESS(scale_remove(ht, o, n, f), "removes");
	settle(ht, f);
	rte_rhashtable_stats_get(ht, &f->st);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), 0, "count after removes");
	TEST_ASSERT_EQUAL(f->st.ntables, 1, "%u bucket tables at the end", f->st.ntables);
	TEST_ASSERT_EQUAL(f->st.buckets, SCALE_MIN_BUCKETS, "%u buckets at the end, not %u",
			  f->st.buckets, SCALE_MIN_BUCKETS);
	return TEST_SUCCESS;
}

/* Heap bytes an rte_hash sized for n 8-byte keys holds (it preallocates). */
static int64_t
rte_hash_footprint(uint32_t n)
{
	struct rte_hash_parameters p = {
		.name = "rht_scale_peer",
		.entries = n,
		.key_len = sizeof(uint64_t),
		.socket_id = SOCKET_ID_ANY,
	};
	struct test_heap before = test_heap_usage(), after;
	struct rte_hash *h;

	h = rte_hash_create(&p);
	if (h == NULL)
		return -1;
	after = test_heap_usage();
	rte_hash_free(h);
	return (int64_t)(after.bytes - before.bytes);
}

static void
print_figures(uint32_t n, const struct scale_figures *f)
{
	int64_t peer = rte_hash_footprint(n);
	uint32_t peer_n = n;

	/* rte_hash preallocates; when n does not fit, measure n/4 and scale */
	if (peer < 0) {
		peer_n = n / 4;
		peer = rte_hash_footprint(peer_n);
	}
	printf("scale: %u objects in %.2f s, out in %.2f s (%.0f / %.0f ns per op); reader "
	       "%" PRIu64 " lookups, %" PRIu64 " misses\n", n, f->insert_s, f->remove_s,
	       f->insert_s * 1e9 / n, f->remove_s * 1e9 / n, f->lookups, f->misses);
	printf("scale: %" PRIu64 " grows, %" PRIu64 " shrinks, %" PRIu64 " emergency tables, "
	       "%" PRIu64 " objects moved\n", f->st.grows, f->st.shrinks,
	       f->st.emergency_allocs, f->st.objs_moved);
	printf("scale: memory per entry: rhashtable peak %.2f B (%" PRIu64 " B during a "
	       "resize), at rest %.2f B, + 8 B head in the object; ", (double)f->peak_bytes / n,
	       f->peak_bytes, (double)f->rest_bytes / n);
	if (peer < 0)
		printf("rte_hash: could not be created\n");
	else
		printf("rte_hash (entries=%u, 8-byte key + data pointer): %.2f B\n", peer_n,
		       (double)peer / peer_n);
}

static int
scale_run(uint32_t n)
{
	struct scale_figures f;
	struct rte_rhashtable *ht;
	struct sobj *o;
	struct test_heap heap;
	uint32_t i;
	int ret;

	memset(&f, 0, sizeof(f));
	o = malloc(sizeof(*o) * (size_t)n);
	TEST_ASSERT_NOT_NULL(o, "no memory for %u objects", n);
	for (i = 0; i < n; i++)
		o[i].key = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
	memset(&rd, 0, sizeof(rd));
	rd.objs = (const char *)o;
	rd.obj_size = sizeof(*o);
	rd.key_offset = offsetof(struct sobj, key);
	rd.v = test_qsbr_create();
	f.base = test_heap_usage();
	ht = scale_table();
	rd.ht = ht;
	if (ht == NULL || rd.v == NULL || rel_readers_start(&rd) != 0) {
		rte_eal_mp_wait_lcore();
		rte_rhashtable_free(ht);
		rte_free(rd.v);
		free(o);
		TEST_ASSERT(false, "setup failed");
	}
	ret = scale_body(ht, o, n, &f);
	f.misses = rel_readers_stop(&rd, &f.lookups);
	rte_rhashtable_free(ht);
	heap = test_heap_usage();
	rte_free(rd.v);
	free(o);
	print_figures(n, &f);
	TEST_ASSERT_SUCCESS(ret, "scale run of %u objects", n);
	TEST_ASSERT_EQUAL(f.misses, 0, "the reader missed %" PRIu64 " present keys", f.misses);
	TEST_ASSERT(rd.nb_lcores == 0 || f.lookups > 0, "the reader did not run");
	TEST_ASSERT(test_heap_same(&heap, &f.base),
		    "heap: %+" PRId64 " bytes, %+" PRId64 " blocks after free",
		    (int64_t)(heap.bytes - f.base.bytes), (int64_t)(heap.blocks - f.base.blocks));
	return TEST_SUCCESS;
}

/* 2^26 when hugepages and RAM allow it (tables 1.5 GiB at peak, rte_hash ~2 GiB). */
static uint32_t
scale_size(void)
{
	unsigned long free_mb = rht_hugepage_free_mb();
	uint64_t ram_mb = (uint64_t)sysconf(_SC_AVPHYS_PAGES) * sysconf(_SC_PAGESIZE) >> 20;

	if (rte_eal_has_hugepages() && free_mb >= 2600 && ram_mb >= 4096)
		return 1U << 26;
	printf("NOTE: %lu MiB of free hugepages%s, %" PRIu64 " MiB of free RAM: "
	       "2^24 objects instead of 2^26\n", free_mb,
	       rte_eal_has_hugepages() ? "" : " (EAL runs without hugepages)", ram_mb);
	return 1U << 24;
}

static int
test_rhashtable_scale(void)
{
	return scale_run(scale_size());
}

static int
test_rhashtable_scale_short(void)
{
	return scale_run(1U << 20);
}

REGISTER_STRESS_TEST(rhashtable_scale_autotest, test_rhashtable_scale);
REGISTER_FAST_TEST(rhashtable_scale_short_autotest, true, true, test_rhashtable_scale_short);
