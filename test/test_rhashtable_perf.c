/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_perf_autotest: cycles per operation (rte_rdtsc) of add, lookup,
 * lookup_bulk and delete at a few table sizes, for rte_rhashtable and, in the
 * same run and with the same keys, rte_hash. Single thread, 16-byte keys,
 * keys looked up in random order from a sequential key array, both tables
 * each with its default hash (rte_hash_crc, the library's own). The full
 * comparison (RCU, Zipf, growth, resize, memory) is the Google Benchmark
 * suite in test/bench/.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include <rte_rhashtable.h>

#include "test.h"

#define PERF_KEY_LEN 16
#define PERF_BURST 32
/* Lookups per measurement, so that small tables are timed long enough. */
#define PERF_MIN_LOOKUPS (1u << 20)

struct perf_flow {
	uint8_t key[PERF_KEY_LEN];
	struct rte_rhash_head head;
	uint64_t data;
};

enum perf_op { PERF_ADD, PERF_LOOKUP, PERF_LOOKUP_BULK, PERF_DELETE, PERF_OP_MAX };
enum perf_sys { PERF_RHT, PERF_HASH, PERF_SYS_MAX };

static const char *const op_names[PERF_OP_MAX] = {
	"add", "lookup", "lookup_bulk", "delete",
};

static const uint32_t perf_sizes[] = { 1u << 10, 1u << 16, 1u << 20 };

/* The run's data: flows (key + link) and the lookup keys, copied in random
 * order into one sequential array so that reading a key is not a miss.
 */
struct perf_data {
	uint32_t n;
	uint32_t nlookups;
	struct perf_flow *flows;
	uint8_t (*lookup_keys)[PERF_KEY_LEN];
	double cycles[PERF_SYS_MAX][PERF_OP_MAX];
};

static volatile uint64_t perf_sink;

static int
perf_data_init(struct perf_data *d, uint32_t n)
{
	uint32_t i, idx;

	d->n = n;
	d->nlookups = RTE_MAX(n, PERF_MIN_LOOKUPS);
	d->flows = rte_zmalloc("perf_flows", sizeof(*d->flows) * n, RTE_CACHE_LINE_SIZE);
	d->lookup_keys = malloc(PERF_KEY_LEN * (size_t)d->nlookups);
	if (d->flows == NULL || d->lookup_keys == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t r = rte_rand();

		/* the index makes keys unique, the rest looks like a 5-tuple */
		memcpy(d->flows[i].key, &i, sizeof(i));
		memcpy(d->flows[i].key + 4, &r, sizeof(r));
		r = rte_rand();
		memcpy(d->flows[i].key + 12, &r, 4);
	}
	for (i = 0; i < d->nlookups; i++) {
		idx = (uint32_t)rte_rand_max(n);
		memcpy(d->lookup_keys[i], d->flows[idx].key, PERF_KEY_LEN);
	}
	return 0;
}

static void
perf_data_free(struct perf_data *d)
{
	rte_free(d->flows);
	free(d->lookup_keys);
	d->flows = NULL;
	d->lookup_keys = NULL;
}

static uint64_t
perf_expected_hits(const struct perf_data *d)
{
	return d->nlookups + d->nlookups / PERF_BURST * PERF_BURST;
}

static struct rte_rhashtable *
perf_rht_create(void)
{
	struct rte_rhashtable_params p = {
		.name = "perf_rht",
		.socket_id = (int)rte_socket_id(),
		.key_len = PERF_KEY_LEN,
		.key_offset = offsetof(struct perf_flow, key),
		.head_offset = offsetof(struct perf_flow, head),
	};

	return rte_rhashtable_create(&p);
}

/* Grow the table to its size for n and empty it: adds then measure
 * insertion into a table of the right size, as rte_hash's do.
 */
static int
perf_rht_presize(struct rte_rhashtable *ht, struct perf_data *d)
{
	uint32_t i;

	for (i = 0; i < d->n; i++) {
		if (rte_rhashtable_insert(ht, &d->flows[i].head) != 0)
			return -1;
		if (rte_is_power_of_2(i + 1))
			rte_rhashtable_rehash_run(ht);
	}
	rte_rhashtable_rehash_run(ht);
	for (i = 0; i < d->n; i++)
		if (rte_rhashtable_remove(ht, &d->flows[i].head) != 0)
			return -1;
	return 0;
}

static int
perf_rht_ops(struct rte_rhashtable *ht, struct perf_data *d)
{
	double *cyc = d->cycles[PERF_RHT];
	const void *kp[PERF_BURST];
	void *objs[PERF_BURST];
	uint64_t start, found = 0, i, j;

	start = rte_rdtsc();
	for (i = 0; i < d->n; i++)
		if (rte_rhashtable_lookup_insert(ht, &d->flows[i].head) != 0)
			return -1;
	cyc[PERF_ADD] = (double)(rte_rdtsc() - start) / d->n;

	start = rte_rdtsc();
	for (i = 0; i < d->nlookups; i++)
		found += rte_rhashtable_lookup(ht, d->lookup_keys[i]) != NULL;
	cyc[PERF_LOOKUP] = (double)(rte_rdtsc() - start) / d->nlookups;

	start = rte_rdtsc();
	for (i = 0; i + PERF_BURST <= d->nlookups; i += PERF_BURST) {
		for (j = 0; j < PERF_BURST; j++)
			kp[j] = d->lookup_keys[i + j];
		found += rte_rhashtable_lookup_bulk(ht, kp, PERF_BURST, NULL, objs);
	}
	cyc[PERF_LOOKUP_BULK] = (double)(rte_rdtsc() - start) / i;

	start = rte_rdtsc();
	for (i = 0; i < d->n; i++)
		if (rte_rhashtable_remove(ht, &d->flows[i].head) != 0)
			return -1;
	cyc[PERF_DELETE] = (double)(rte_rdtsc() - start) / d->n;
	perf_sink += found;
	/* every key is present: each single and each bulk lookup must hit */
	return found == perf_expected_hits(d) ? 0 : -1;
}

static int
perf_rht(struct perf_data *d)
{
	struct rte_rhashtable *ht = perf_rht_create();
	int rc;

	if (ht == NULL)
		return -1;
	rc = perf_rht_presize(ht, d);
	if (rc == 0)
		rc = perf_rht_ops(ht, d);
	rte_rhashtable_free(ht);
	return rc;
}

static int
perf_hash_ops(struct rte_hash *h, struct perf_data *d)
{
	double *cyc = d->cycles[PERF_HASH];
	const void *kp[PERF_BURST];
	void *data[PERF_BURST];
	uint64_t start, found = 0, mask, i, j;

	start = rte_rdtsc();
	for (i = 0; i < d->n; i++)
		if (rte_hash_add_key_data(h, d->flows[i].key, &d->flows[i]) != 0)
			return -1;
	cyc[PERF_ADD] = (double)(rte_rdtsc() - start) / d->n;

	start = rte_rdtsc();
	for (i = 0; i < d->nlookups; i++)
		found += rte_hash_lookup_data(h, d->lookup_keys[i], &data[0]) >= 0;
	cyc[PERF_LOOKUP] = (double)(rte_rdtsc() - start) / d->nlookups;

	start = rte_rdtsc();
	for (i = 0; i + PERF_BURST <= d->nlookups; i += PERF_BURST) {
		for (j = 0; j < PERF_BURST; j++)
			kp[j] = d->lookup_keys[i + j];
		found += rte_hash_lookup_bulk_data(h, kp, PERF_BURST, &mask, data);
	}
	cyc[PERF_LOOKUP_BULK] = (double)(rte_rdtsc() - start) / i;

	start = rte_rdtsc();
	for (i = 0; i < d->n; i++)
		if (rte_hash_del_key(h, d->flows[i].key) < 0)
			return -1;
	cyc[PERF_DELETE] = (double)(rte_rdtsc() - start) / d->n;
	perf_sink += found;
	/* every key is present: each single and each bulk lookup must hit */
	return found == perf_expected_hits(d) ? 0 : -1;
}

static int
perf_hash(struct perf_data *d)
{
	struct rte_hash_parameters p = {
		.name = "perf_hash",
		.entries = d->n + d->n / 8,
		.key_len = PERF_KEY_LEN,
		.hash_func = rte_hash_crc,
		.socket_id = (int)rte_socket_id(),
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_hash *h = rte_hash_create(&p);
	int rc;

	if (h == NULL)
		return -1;
	rc = perf_hash_ops(h, d);
	rte_hash_free(h);
	return rc;
}

static void
perf_print(const struct perf_data *d)
{
	unsigned int op;

	for (op = 0; op < PERF_OP_MAX; op++)
		printf("%9u  %-12s %12.1f %12.1f %8.2f\n", d->n, op_names[op],
		       d->cycles[PERF_RHT][op], d->cycles[PERF_HASH][op],
		       d->cycles[PERF_RHT][op] / d->cycles[PERF_HASH][op]);
}

static int
perf_one_size(uint32_t n)
{
	struct perf_data d = { 0 };
	int rc = perf_data_init(&d, n);

	if (rc == 0)
		rc = perf_rht(&d);
	if (rc == 0)
		rc = perf_hash(&d);
	if (rc == 0)
		perf_print(&d);
	else
		printf("rhashtable_perf: run at %u entries failed\n", n);
	perf_data_free(&d);
	return rc;
}

static int
test_rhashtable_perf(void)
{
	unsigned int i;

	printf("\nrhashtable_perf: cycles per operation (rte_rdtsc, %" PRIu64 " Hz), "
	       "%d-byte keys, random lookup order, one thread\n"
	       "rte_hash: RW_CONCURRENCY_LF, entries = 1.125 n, rte_hash_crc; rte_rhashtable: "
	       "pre-grown to n, its default hash; ratio = rhashtable / rte_hash cycles\n"
	       "%9s  %-12s %12s %12s %8s\n", rte_get_tsc_hz(), PERF_KEY_LEN,
	       "entries", "operation", "rhashtable", "rte_hash", "ratio");
	for (i = 0; i < RTE_DIM(perf_sizes); i++)
		TEST_ASSERT_SUCCESS(perf_one_size(perf_sizes[i]),
				    "perf run at %u entries failed", perf_sizes[i]);
	return TEST_SUCCESS;
}

REGISTER_PERF_TEST(rhashtable_perf_autotest, test_rhashtable_perf);
