/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_flood_autotest: hash flooding.
 *
 * CRC32C is affine over GF(2): crc(k ^ d) = crc(k) ^ crc(d) ^ crc(0) for a
 * fixed seed, and the seed only adds a constant, so keys that collide under
 * one seed collide under every seed. We build 100k distinct 16-byte keys
 * with rte_hash_crc(key, 16, seed) equal to one constant: the last 4 bytes
 * of each key are solved for with the inverse of the 32x32 bit matrix that
 * maps them to the CRC. Then:
 * - the library's default hash (seeded, not linear) spreads them: the
 *   longest overflow chain is short and no insert returns -EBUSY;
 * - CRC32C as the table's hash, even seeded by the table, puts them all in
 *   one bucket: inserts are refused with -EBUSY;
 * - a constant hash that ignores the seed gets -EBUSY exactly at the 24th
 *   object of a bucket (its 7 slots full, the 17th of its overflow chain)
 *   when a re-seed is already pending, as documented, and the table stays
 *   correct.
 *
 * rhashtable_hash_perf_autotest: cost of the default hash per 16-byte key,
 * against rte_hash_crc and rte_jhash.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_jhash.h>
#include <rte_memory.h>
#include <rte_random.h>

#include <rte_rhashtable.h>

#include "test.h"

#define FLOOD_N_KEYS 100000
#define FLOOD_KEY_LEN 16
#define FLOOD_SEED 0x5eed1234U
#define FLOOD_TARGET 0xc011151eU
#define FLOOD_CHAIN_LIMIT 16 /* RTE_RHT_MAX_CHAIN_LEN, the documented value */
/* objects a bucket takes: its slots, then an overflow chain up to the limit */
#define FLOOD_BUCKET_LIMIT (RTE_RHASHTABLE_BUCKET_SLOTS + FLOOD_CHAIN_LIMIT)

struct flood_obj {
	uint8_t key[FLOOD_KEY_LEN];
	struct rte_rhash_head node;
};

static struct flood_obj *fobjs;

/* ---- building the colliding keys ---- */

static uint32_t
crc_of(const uint8_t *key)
{
	return rte_hash_crc(key, FLOOD_KEY_LEN, FLOOD_SEED);
}

/*
 * Invert the linear map from the 32 bits of key bytes 12..15 to the CRC:
 * inv[b] is the value of those bytes that flips CRC bit b alone.
 * Returns -1 if the map is singular.
 */
static int
crc_tail_inverse(uint32_t inv[32])
{
	uint8_t zero[FLOOD_KEY_LEN] = { 0 }, k[FLOOD_KEY_LEN];
	uint32_t val[32], sel[32], c0 = crc_of(zero), tmp;
	int b, j, r;

	for (j = 0; j < 32; j++) {
		uint32_t x = UINT32_C(1) << j;

		memset(k, 0, sizeof(k));
		memcpy(k + 12, &x, sizeof(x));
		val[j] = crc_of(k) ^ c0; /* column j of the matrix */
		sel[j] = x;
	}
	/* Gauss-Jordan: after it, val[b] == 1 << b for every b */
	for (b = 0; b < 32; b++) {
		for (r = b; r < 32 && !(val[r] >> b & 1); r++)
			;
		if (r == 32)
			return -1;
		tmp = val[r], val[r] = val[b], val[b] = tmp;
		tmp = sel[r], sel[r] = sel[b], sel[b] = tmp;
		for (r = 0; r < 32; r++) {
			if (r != b && (val[r] >> b & 1)) {
				val[r] ^= val[b];
				sel[r] ^= sel[b];
			}
		}
	}
	memcpy(inv, sel, sizeof(sel));
	return 0;
}

/* Key i: i in bytes 0..7, a constant in 8..11, 12..15 solved for the target. */
static void
colliding_key(uint8_t *key, uint64_t i, const uint32_t inv[32])
{
	uint32_t want, tail = 0, fill = 0xa5a5a5a5U;
	int b;

	memset(key, 0, FLOOD_KEY_LEN);
	memcpy(key, &i, sizeof(i));
	memcpy(key + 8, &fill, sizeof(fill));
	want = crc_of(key) ^ FLOOD_TARGET;
	for (b = 0; b < 32; b++)
		if (want >> b & 1)
			tail ^= inv[b];
	memcpy(key + 12, &tail, sizeof(tail));
}

static int
flood_setup(void)
{
	uint32_t inv[32], i;

	fobjs = calloc(FLOOD_N_KEYS, sizeof(*fobjs));
	if (fobjs == NULL || crc_tail_inverse(inv) != 0) {
		printf("no memory, or the CRC tail map is singular\n");
		return TEST_FAILED;
	}
	for (i = 0; i < FLOOD_N_KEYS; i++)
		colliding_key(fobjs[i].key, i, inv);
	return TEST_SUCCESS;
}

static void
flood_teardown(void)
{
	free(fobjs);
	fobjs = NULL;
}

/* Every key has the target CRC, under the fixed seed and under another one. */
static int
test_keys_collide(void)
{
	uint32_t other = rte_hash_crc(fobjs[0].key, FLOOD_KEY_LEN, FLOOD_SEED ^ 0xffff);
	uint32_t i;

	for (i = 0; i < FLOOD_N_KEYS; i++) {
		TEST_ASSERT_EQUAL(crc_of(fobjs[i].key), FLOOD_TARGET,
				  "key %u: crc %08x", i, crc_of(fobjs[i].key));
		TEST_ASSERT_EQUAL(rte_hash_crc(fobjs[i].key, FLOOD_KEY_LEN, FLOOD_SEED ^ 0xffff),
				  other, "key %u does not collide under another seed", i);
		TEST_ASSERT(i == 0 || memcmp(fobjs[i].key, fobjs[i - 1].key, 8) != 0,
			    "keys %u and %u are equal", i - 1, i);
	}
	printf("%u distinct 16-byte keys, rte_hash_crc(key, 16, 0x%08x) = 0x%08x for all, "
	       "and equal to each other under seed 0x%08x too\n", FLOOD_N_KEYS, FLOOD_SEED,
	       FLOOD_TARGET, FLOOD_SEED ^ 0xffff);
	return TEST_SUCCESS;
}

/* ---- tables under the flood ---- */

static uint32_t
crc32c_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	return rte_hash_crc(key, key_len, seed);
}

static uint32_t
const_hash(const void *key __rte_unused, uint32_t key_len __rte_unused,
	   uint32_t seed __rte_unused)
{
	return 0x1234;
}

static struct rte_rhashtable *
flood_table(const char *name, rte_rhashtable_hashfn_t fn, uint16_t hint)
{
	struct rte_rhashtable_params p = {
		.name = name,
		.socket_id = SOCKET_ID_ANY,
		.nelem_hint = hint,
		.key_len = FLOOD_KEY_LEN,
		.key_offset = offsetof(struct flood_obj, key),
		.head_offset = offsetof(struct flood_obj, node),
		.hashfn = fn,
	};

	return rte_rhashtable_create(&p);
}

/*
 * Fullest bucket, and longest overflow chain (in *overflow): a walk with
 * rehashing locked returns the objects bucket by bucket, the slots' and then
 * the overflow chain's; the iterator's slot and pos (private members, read
 * here for the test only) tell where a bucket ends and whether an object
 * came from the chain (pos past the slots).
 */
static uint32_t
longest_bucket(struct rte_rhashtable *ht, uint32_t *overflow)
{
	struct rte_rhashtable_iter it;
	uint32_t len = 0, chain = 0, longest = 0, slot = UINT32_MAX;
	void *tbl = NULL, *o;
	int ret;

	*overflow = 0;
	rte_rhashtable_rehash_lock(ht);
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &o)) != -ENOENT) {
		if (ret != 0)
			continue;
		if (it.slot != slot || it.tbl != tbl) {
			len = 0;
			chain = 0;
		}
		slot = it.slot;
		tbl = it.tbl;
		longest = RTE_MAX(longest, ++len);
		if (it.pos > RTE_RHASHTABLE_BUCKET_SLOTS)
			*overflow = RTE_MAX(*overflow, ++chain);
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	rte_rhashtable_rehash_unlock(ht);
	return longest;
}

struct flood_result {
	uint32_t inserted;
	uint32_t ebusy;
	uint32_t longest;  /* objects of the fullest bucket */
	uint32_t overflow; /* longest overflow chain */
	struct rte_rhashtable_stats st;
};

/* Insert every key, running the worker every 4096 inserts. */
static int
flood_insert(struct rte_rhashtable *ht, struct flood_result *r, bool ebusy_ok)
{
	uint32_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < FLOOD_N_KEYS; i++) {
		ret = rte_rhashtable_lookup_insert(ht, &fobjs[i].node);
		if (ret == 0)
			r->inserted++;
		else if (ret == -EBUSY && ebusy_ok)
			r->ebusy++;
		else {
			printf("insert %u returned %d\n", i, ret);
			return -1;
		}
		if ((i & 4095) == 4095 && rte_rhashtable_rehash_run(ht) != 0)
			return -1;
	}
	if (rte_rhashtable_rehash_run(ht) != 0)
		return -1;
	r->longest = longest_bucket(ht, &r->overflow);
	rte_rhashtable_stats_get(ht, &r->st);
	return 0;
}

/* Exactly the objects accepted are found. */
static int
flood_check(struct rte_rhashtable *ht, uint32_t inserted)
{
	uint32_t i, found = 0;

	for (i = 0; i < FLOOD_N_KEYS; i++) {
		void *o = rte_rhashtable_lookup(ht, fobjs[i].key);

		if (o != NULL && o != &fobjs[i])
			return -1;
		found += o != NULL;
	}
	return found == inserted && rte_rhashtable_count(ht) == inserted ? 0 : -1;
}

/* Flood a new table hashing with fn (NULL: the default); its figures in *r. */
static int
flood_run(const char *name, rte_rhashtable_hashfn_t fn, bool ebusy_ok, struct flood_result *r)
{
	struct rte_rhashtable *ht = flood_table(name, fn, 0);
	int ret;

	TEST_ASSERT_NOT_NULL(ht, "create: %s", rte_strerror(rte_errno));
	ret = flood_insert(ht, r, ebusy_ok);
	if (ret == 0)
		ret = flood_check(ht, r->inserted);
	rte_rhashtable_free(ht);
	return ret;
}

static int
test_flood_default_hash(void)
{
	struct flood_result r;

	TEST_ASSERT_SUCCESS(flood_run("rht_flood_def", NULL, false, &r),
			    "default hash under the CRC32C flood");
	printf("default hash: %u of %u colliding keys inserted, %u -EBUSY, fullest bucket %u, "
	       "longest overflow chain %u (%u buckets, %" PRIu64 " re-seeds, %" PRIu64
	       " emergency tables)\n", r.inserted, FLOOD_N_KEYS, r.ebusy, r.longest, r.overflow,
	       r.st.buckets, r.st.reseeds, r.st.emergency_allocs);
	/* 100k keys in 2^15 buckets of 7 slots: an overflow chain of 13 (a bucket
	 * of 20 objects) has a probability below 1e-5
	 */
	TEST_ASSERT(r.overflow <= FLOOD_CHAIN_LIMIT * 3 / 4, "longest overflow chain %u",
		    r.overflow);
	TEST_ASSERT_EQUAL(r.st.refused_ebusy, 0, "-EBUSY with the default hash");
	return TEST_SUCCESS;
}

static int
test_flood_crc32c(void)
{
	struct flood_result r;

	TEST_ASSERT_SUCCESS(flood_run("rht_flood_crc", crc32c_hash, true, &r),
			    "seeded CRC32C under the flood: table inconsistent");
	printf("CRC32C (seeded by the table): %u of %u colliding keys inserted, %u -EBUSY, "
	       "fullest bucket %u (%" PRIu64 " re-seeds did not help)\n", r.inserted,
	       FLOOD_N_KEYS, r.ebusy, r.longest, r.st.reseeds);
	TEST_ASSERT(r.ebusy > 0, "the flood did not hit the chain limit");
	TEST_ASSERT_EQUAL(r.longest, r.inserted, "all accepted keys are not in one bucket");
	TEST_ASSERT_EQUAL(r.overflow, r.inserted - RTE_RHASHTABLE_BUCKET_SLOTS,
			  "the keys past the slots are not all in its overflow chain");
	return TEST_SUCCESS;
}

/*
 * Constant hash, 256 buckets (load stays under 70%): each cycle a bucket of
 * 23 (7 slots and an overflow chain of 16) makes the 24th insert attach a
 * re-seeded table; 23 more go there; the next one finds a full bucket while
 * the re-seed is pending: -EBUSY.
 */
static int
ebusy_cycle(struct rte_rhashtable *ht, uint32_t *next, uint32_t *accepted, int cycle)
{
	uint32_t want = cycle == 0 ? 2 * FLOOD_BUCKET_LIMIT : FLOOD_BUCKET_LIMIT, n = 0;
	int ret;

	while ((ret = rte_rhashtable_lookup_insert(ht, &fobjs[*next].node)) == 0) {
		(*next)++;
		n++;
		if (n > want)
			break;
	}
	*accepted += n;
	if (ret != -EBUSY || n != want) {
		printf("cycle %d: %u inserts accepted, then %d; expected %u, then -EBUSY\n",
		       cycle, n, ret, want);
		return -1;
	}
	/* a present key is still recognised in every table of the chain */
	if (rte_rhashtable_lookup_insert(ht, &fobjs[0].node) != -EEXIST)
		return -1;
	return rte_rhashtable_rehash_run(ht);
}

static int
test_ebusy_constant_hash(void)
{
	struct rte_rhashtable *ht = flood_table("rht_flood_const", const_hash, 768);
	struct rte_rhashtable_stats st;
	uint32_t next = 0, accepted = 0;
	int cycle, ret = 0;

	TEST_ASSERT_NOT_NULL(ht, "create: %s", rte_strerror(rte_errno));
	for (cycle = 0; cycle < 8 && ret == 0; cycle++)
		ret = ebusy_cycle(ht, &next, &accepted, cycle);
	if (ret == 0)
		ret = flood_check(ht, accepted);
	rte_rhashtable_stats_get(ht, &st);
	rte_rhashtable_free(ht);
	TEST_ASSERT_SUCCESS(ret, "constant hash: -EBUSY not as documented, or table wrong");
	TEST_ASSERT_EQUAL(st.refused_ebusy, 8, "refused_ebusy %" PRIu64, st.refused_ebusy);
	printf("constant hash: -EBUSY at the 24th object of the pending table, 8 cycles, "
	       "%u objects in one bucket, all found\n", accepted);
	return TEST_SUCCESS;
}

static struct unit_test_suite flood_suite = {
	.suite_name = "rhashtable hash flooding",
	.setup = flood_setup,
	.teardown = flood_teardown,
	.unit_test_cases = {
		TEST_CASE(test_keys_collide),
		TEST_CASE(test_flood_default_hash),
		TEST_CASE(test_flood_crc32c),
		TEST_CASE(test_ebusy_constant_hash),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_flood(void)
{
	return unit_test_suite_runner(&flood_suite);
}

REGISTER_FAST_TEST(rhashtable_flood_autotest, true, true, test_rhashtable_flood);

/* ---- hash cost ---- */

#define PERF_KEYS 4096
#define PERF_ROUNDS 2000

static uint32_t
jhash_fn(const void *key, uint32_t key_len, uint32_t seed)
{
	return rte_jhash(key, key_len, seed);
}

/* ns per call of fn over 16-byte keys. */
static double
hash_ns(rte_rhashtable_hashfn_t fn, const uint8_t *keys, uint32_t *sink)
{
	uint64_t start, cycles;
	uint32_t acc = 0, r, i;

	start = rte_rdtsc_precise();
	for (r = 0; r < PERF_ROUNDS; r++)
		for (i = 0; i < PERF_KEYS; i++)
			acc += fn(keys + (size_t)i * FLOOD_KEY_LEN, FLOOD_KEY_LEN, r);
	cycles = rte_rdtsc_precise() - start;
	*sink += acc;
	return (double)cycles * 1e9 / rte_get_tsc_hz() / ((double)PERF_ROUNDS * PERF_KEYS);
}

static int
test_hash_perf(void)
{
	const struct {
		const char *name;
		rte_rhashtable_hashfn_t fn;
	} fns[] = {
		{ "rte_rhashtable_default_hash", rte_rhashtable_default_hash },
		{ "rte_hash_crc (CRC32C)", crc32c_hash },
		{ "rte_jhash", jhash_fn },
	};
	uint8_t *keys = malloc(PERF_KEYS * FLOOD_KEY_LEN);
	uint32_t sink = 0, i;
	unsigned int f;

	TEST_ASSERT_NOT_NULL(keys, "no memory");
	for (i = 0; i < PERF_KEYS * FLOOD_KEY_LEN; i++)
		keys[i] = (uint8_t)rte_rand();
	(void)hash_ns(fns[0].fn, keys, &sink); /* warm up */
	for (f = 0; f < RTE_DIM(fns); f++)
		printf("%-28s %6.2f ns per 16-byte key\n", fns[f].name,
		       hash_ns(fns[f].fn, keys, &sink));
	printf("(checksum %08x)\n", sink);
	free(keys);
	return TEST_SUCCESS;
}

REGISTER_PERF_TEST(rhashtable_hash_perf_autotest, test_hash_perf);
