/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * A design probe, not a table: what lookups would cost if a bucket were
 * one cache line of seven tagged object pointers (16 bits of the hash
 * above a 48-bit address) and an overflow word (the head of a chain, with
 * a 16-bit summary of its keys above it), in as many bytes as
 * rte_rhashtable's bucket words for the same n (a table grown to n at its
 * 70% threshold: four keys a line), or with RHT_LINEPROBE_KEYS_PER_LINE=x
 * as many lines as hold n at x keys each (the lines indexed by a
 * multiply-shift of the hash, so any count goes). Filled once, read by one
 * thread: no locks, no RCU, no resize, no remove.
 *
 * A burst hashes its keys with the library's hash and prefetches their
 * lines; checks each line's seven tags at once (AVX-512 where the CPU has
 * it, else a loop) and prefetches the first match, or the overflow's head
 * when no tag matches and the summary may hold the key; then compares the
 * keys. A key past that first candidate is looked for after the burst.
 * Single lookups take the same steps a key at a time. Run with --probes
 * (doc/perf/history.md, "A bucket of one cache line").
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>
#include <rte_random.h>
#include <rte_rhashtable.h>

#ifdef RTE_ARCH_X86_64
#include <immintrin.h>
#endif

#include "bench_peer.h"

struct line_flow {
	struct bench_key key;
	struct line_flow *next;
	uint64_t hits;
};

#define SLOTS 7
#define PTR_MASK UINT64_C(0x0000ffffffffffff)
#define TAG_MASK (~PTR_MASK)

struct line {
	uint64_t w[8];
} __rte_aligned(64);

static struct line *lines;
static uint64_t nlines;
static struct line_flow *objs;
static uint32_t objs_n;
static struct __rte_rht_mix_seeds ms;
static uint64_t tbl_bytes;
static bool simd;

static int
line_init(void)
{
	uint32_t seed = (uint32_t)rte_rand();

	ms = __rte_rht_mix_seeds(seed, seed, sizeof(struct bench_key));
#ifdef RTE_ARCH_X86_64
	simd = rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512F) > 0;
#endif
	return 0;
}

static void
line_fini(void)
{
}

static void
line_objs_free(void)
{
	bench_objs_release(objs, &objs_n);
	objs = NULL;
}

static int
line_objs_prepare(uint32_t n)
{
	objs = bench_objs_keyed(objs, &objs_n, n, sizeof(*objs), offsetof(struct line_flow, key));
	return objs == NULL ? -ENOMEM : 0;
}

static inline uint64_t
line_hash(const struct bench_key *k)
{
	return __rte_rht_hash_final(__rte_rht_key_mix(k, sizeof(*k), &ms), &ms);
}

/* The tag of hash h in bits 48-63, never 0: an empty slot (0) matches no key. */
static inline uint64_t
line_tag(uint64_t h)
{
	return (h & TAG_MASK) | (UINT64_C(1) << 48);
}

/* The line of hash h: a multiply-shift of its low half, for any count. */
static inline struct line *
line_of(uint64_t h)
{
	return &lines[((h & 0xffffffff) * nlines) >> 32];
}

/* The object of a slot or of the overflow word: the address below the tag or summary. */
static inline const struct line_flow *
line_obj(uint64_t w)
{
	return (const struct line_flow *)(uintptr_t)(w & PTR_MASK);
}

/* The overflow word's summary: one of 16 bits above its head's address. */
static inline uint64_t
line_ovf_bit(uint64_t h)
{
	return UINT64_C(1) << (48 + ((h >> 44) & 15));
}

static int
line_create(uint32_t n, enum bench_sizing z)
{
	uint64_t buckets = 64, nl;
	const char *env = getenv("RHT_LINEPROBE_KEYS_PER_LINE");
	double kpl = env != NULL ? strtod(env, NULL) : 0;

	if (z != BENCH_PRESIZED)
		return -ENOTSUP;
	/* rte_rhashtable grown to n: the power of two whose 70% holds n */
	while (buckets * 70 / 100 < n)
		buckets *= 2;
	nl = buckets / 8;
	/* or as many lines as hold n at the keys a line asked for */
	if (kpl >= 1.0)
		nl = RTE_MAX((uint64_t)(n / kpl), UINT64_C(1));
	nlines = nl;
	tbl_bytes = nl * sizeof(struct line);
	lines = rte_zmalloc("line_proto", tbl_bytes, 64);
	if (lines == NULL)
		return -ENOMEM;
	return 0;
}

static int
line_insert(uint32_t lo, uint32_t hi)
{
	uint32_t i, s;

	for (i = lo; i < hi; i++) {
		uint64_t h = line_hash(&objs[i].key);
		struct line *l = line_of(h);

		for (s = 0; s < SLOTS; s++)
			if (l->w[s] == 0)
				break;
		if (s < SLOTS) {
			l->w[s] = line_tag(h) | (uintptr_t)&objs[i];
		} else {
			objs[i].next = (struct line_flow *)(uintptr_t)line_obj(l->w[7]);
			l->w[7] = (l->w[7] & TAG_MASK) | line_ovf_bit(h) | (uintptr_t)&objs[i];
		}
	}
	return 0;
}

static int
line_settle(void)
{
	return 0;
}

static int
line_remove(uint32_t lo, uint32_t hi)
{
	RTE_SET_USED(lo);
	RTE_SET_USED(hi);
	return -ENOTSUP;
}

/* Which of the seven slots of l hold tag: a loop, or one AVX-512 compare. */
static inline uint32_t
line_match_loop(const struct line *l, uint64_t tag)
{
	uint32_t m = 0, s;

	for (s = 0; s < SLOTS; s++)
		m |= (uint32_t)((l->w[s] & TAG_MASK) == tag) << s;
	return m;
}

#ifdef RTE_ARCH_X86_64
__attribute__((target("avx512f")))
static inline uint32_t
line_match_simd(const struct line *l, uint64_t tag)
{
	__m512i v = _mm512_load_si512((const void *)l);

	return _mm512_mask_cmpeq_epi64_mask(0x7f,
		_mm512_and_si512(v, _mm512_set1_epi64((long long)TAG_MASK)),
		_mm512_set1_epi64((long long)tag));
}
#define LINE_TARGET __attribute__((target("avx512f")))
#else
#define line_match_simd line_match_loop
#define LINE_TARGET
#endif

/* A key not at its first candidate: the other candidates, then the overflow. */
static const struct line_flow *
line_slow(const struct line *l, uint32_t m, const struct bench_key *k)
{
	const struct line_flow *o;

	for (; m != 0; m &= m - 1) {
		o = line_obj(l->w[__builtin_ctz(m)]);
		if (bench_key_eq(&o->key, k))
			return o;
	}
	for (o = line_obj(l->w[7]); o != NULL; o = o->next)
		if (bench_key_eq(&o->key, k))
			return o;
	return NULL;
}

static __rte_always_inline uint32_t
line_lookup_k(const struct bench_key *keys, uint64_t *acc, bool bare, bool vec)
{
	const struct line *ls[BENCH_BURST];
	const struct line_flow *cand[BENCH_BURST];
	uint64_t tags[BENCH_BURST], hs[BENCH_BURST];
	uint32_t rest[BENCH_BURST];
	uint32_t i, m, hits = 0;
	uint64_t h, slow = 0;
	const struct line_flow *o;

	for (i = 0; i < BENCH_BURST; i++) {
		h = line_hash(&keys[i]);
		ls[i] = line_of(h);
		tags[i] = line_tag(h);
		hs[i] = h;
		rte_prefetch0(ls[i]);
	}
	for (i = 0; i < BENCH_BURST; i++) {
		m = vec ? line_match_simd(ls[i], tags[i]) : line_match_loop(ls[i], tags[i]);
		rest[i] = m & (m - 1);
		if (m != 0) {
			cand[i] = line_obj(ls[i]->w[__builtin_ctz(m)]);
			rte_prefetch0(cand[i]);
		} else {
			/* no tag: the overflow's head, if its summary may hold the
			 * key, in the same round
			 */
			uint64_t ow = ls[i]->w[7];

			cand[i] = NULL;
			if (ow & line_ovf_bit(hs[i])) {
				cand[i] = line_obj(ow);
				rte_prefetch0(cand[i]);
			}
		}
	}
	for (i = 0; i < BENCH_BURST; i++) {
		o = cand[i];
		if (o == NULL)
			continue;
		if (bench_key_eq(&o->key, &keys[i])) {
			hits++;
			if (!bare)
				*acc += o->hits;
		} else {
			slow |= UINT64_C(1) << i;
		}
	}
	for (; slow != 0; slow &= slow - 1) {
		i = __builtin_ctzll(slow);
		o = line_slow(ls[i], rest[i], &keys[i]);
		if (o != NULL) {
			hits++;
			if (!bare)
				*acc += o->hits;
		}
	}
	return hits;
}

static __rte_always_inline uint32_t
line_single_k(const struct bench_key *keys, uint64_t *acc, bool vec)
{
	const struct line_flow *o;
	const struct line *l;
	uint32_t i, m, hits = 0;
	uint64_t h, tag;

	for (i = 0; i < BENCH_BURST; i++) {
		h = line_hash(&keys[i]);
		l = line_of(h);
		tag = line_tag(h);
		m = vec ? line_match_simd(l, tag) : line_match_loop(l, tag);
		o = NULL;
		if (m != 0) {
			o = line_obj(l->w[__builtin_ctz(m)]);
			if (!bench_key_eq(&o->key, &keys[i]))
				o = line_slow(l, m & (m - 1), &keys[i]);
		} else if (l->w[7] & line_ovf_bit(h)) {
			o = line_slow(l, 0, &keys[i]);
		}
		if (o != NULL) {
			hits++;
			*acc += o->hits;
		}
	}
	return hits;
}

LINE_TARGET static uint32_t
line_single_simd(const struct bench_key *keys, uint64_t *acc)
{
	return line_single_k(keys, acc, true);
}

static uint32_t
line_single(const struct bench_key *keys, uint64_t *acc)
{
	if (simd)
		return line_single_simd(keys, acc);
	return line_single_k(keys, acc, false);
}

LINE_TARGET static uint32_t
line_lookup_simd(const struct bench_key *keys, uint64_t *acc, bool bare)
{
	return line_lookup_k(keys, acc, bare, true);
}

static uint32_t
line_lookup(const struct bench_key *keys, uint64_t *acc)
{
	if (simd)
		return line_lookup_simd(keys, acc, false);
	return line_lookup_k(keys, acc, false, false);
}

static uint32_t
line_lookup_bare(const struct bench_key *keys, uint64_t *acc)
{
	if (simd)
		return line_lookup_simd(keys, acc, true);
	return line_lookup_k(keys, acc, true, false);
}

static void
line_quiescent(void)
{
}

static int
line_table_bytes(uint64_t *bytes, const char **method)
{
	*bytes = tbl_bytes;
	*method = "lines allocated";
	return 0;
}

static void
line_destroy(void)
{
	rte_free(lines);
	lines = NULL;
}

const struct bench_peer bench_peer_line = {
	.name = "lineprobe",
	.note = "design probe (--probes): buckets of one cache line, seven pointers tagged with "
		"16 hash bits and an overflow head, as many bytes as rte_rhashtable's words; "
		"filled once, one thread, no RCU; tags checked with AVX-512 where the CPU has it",
	.probe = 1,
	.obj_size = sizeof(struct line_flow),
	.key_offset = offsetof(struct line_flow, key),
	.init = line_init,
	.fini = line_fini,
	.objs_prepare = line_objs_prepare,
	.objs_free = line_objs_free,
	.create = line_create,
	.insert = line_insert,
	.settle = line_settle,
	.remove = line_remove,
	.lookup = {
		[BENCH_SINGLE] = line_single,
		[BENCH_BULK] = line_lookup,
		[BENCH_BULK_BARE] = line_lookup_bare,
	},
	.quiescent = line_quiescent,
	.table_bytes = line_table_bytes,
	.destroy = line_destroy,
	.lookup_sizing = BENCH_PRESIZED,
};
