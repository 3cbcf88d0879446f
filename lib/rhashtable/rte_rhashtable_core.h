/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RTE_RHASHTABLE_CORE_H_
#define _RTE_RHASHTABLE_CORE_H_

/**
 * @file
 * The layout that rte_rhashtable_lookup_fast() reads inline: bucket tables,
 * bucket words, the default hash. Included by rte_rhashtable.h.
 *
 * Internal: the names here (__rte_rht_ and __RTE_RHT_ prefixes) are not
 * part of the API, and the layout may change with any release, as DPDK's
 * rte_ring_core.h. Use the functions of rte_rhashtable.h.
 */

#ifndef _RTE_RHASHTABLE_H_
#error "do not include rte_rhashtable_core.h directly, use <rte_rhashtable.h> instead"
#endif

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_bitops.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_version.h>
#if RTE_VERSION_NUM(23, 11, 0, 0) > RTE_VERSION
#include <rte_rhashtable_compat.h>
#else
#include <rte_stdatomic.h>
#endif
#ifdef RTE_ARCH_X86_64
#include <immintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct rte_rhash_head;
struct rte_rhashtable_iter;

/*
 * A bucket is one cache line of eight words: seven slots and an overflow
 * word (see __rte_rht_bucket()).
 */
#define __RTE_RHT_LINE_WORDS 8
#define __RTE_RHT_SLOTS RTE_RHASHTABLE_BUCKET_SLOTS

/* Buckets in one piece of a nested bucket table: one 4 KiB page of lines. */
#define __RTE_RHT_PIECE_SHIFT 6
#define __RTE_RHT_PIECE_BUCKETS (1U << __RTE_RHT_PIECE_SHIFT)

/* Seeds of the default hash's steps for one key length (__rte_rht_mix_seeds()). */
struct __rte_rht_mix_seeds {
	uint64_t a;     /* first step, first word of the last 16 key bytes */
	uint64_t b;     /* first step, second word of the last 16 key bytes */
	uint64_t last;  /* last step */
};

/*
 * One bucket table. Buckets hold the head of a chain of objects; a chain
 * ends with a "nulls" marker made from the address of its bucket (odd, so
 * it can never be an object address). No two live bucket tables share a
 * bucket address, so a reader that reaches a marker other than its own
 * bucket's, even one of the same index in another table, was carried into
 * another chain by a concurrent move or re-insert and restarts (see
 * rhashtable_lookup.c).
 */
struct __rte_rht_table {
	uint32_t size;           /* buckets, a power of two */
	uint32_t mask;           /* size - 1 */
	uint32_t seed;           /* random hash seed of this table */
	/* seed of the default hash's first step (__rte_rht_key_mix()): kept
	 * by the tables of a grow or shrink, new in a re-seeded table (see
	 * __rte_rht_table_hash())
	 */
	uint32_t key_seed;
	/* the seeds as the default hash's steps take them for the table's
	 * key length (__rte_rht_mix_seeds()), computed once here rather than
	 * in every lookup
	 */
	struct __rte_rht_mix_seeds mix_seeds;
	/* next table of the chain, published with a release store */
	struct __rte_rht_table *future_tbl;
	struct rte_rhash_head ***pieces; /* nested tables only */
	bool nested;             /* buckets live in pieces[] */
	bool retired;            /* left the chain; under ht->walk_lock */
	int32_t numa_node;       /* node of the buckets' first page; -1: unknown */
	/* walkers paused on this table; under ht->walk_lock */
	struct rte_rhashtable_iter *walkers;
	uint64_t bytes;          /* memory of this table */
	/* The worker's progress: buckets below this one are empty, their
	 * objects moved to a later table. Written for each bucket, read by the
	 * worker only: on a line of its own, away from the fields above that
	 * every lookup reads.
	 */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t rehash;
	/* What lookups may know of that progress: a lower bound, published
	 * (release) every RHT_EMPTIED_STEP buckets, so that the line rarely
	 * changes under the readers that check it.
	 */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t emptied;
	/* A flat table's buckets follow on the next line
	 * (__rte_rht_flat_buckets()): not a flexible array member, which ISO
	 * C++ lacks, so that C++ applications built with -Wpedantic -Werror
	 * compile this header with GCC and clang alike.
	 */
};

/* The words of a flat table's buckets (not nested), right after the
 * struct: its size is a whole number of cache lines (the alignas above).
 */
static inline struct rte_rhash_head **
__rte_rht_flat_buckets(const struct __rte_rht_table *tbl)
{
	return (struct rte_rhash_head **)(uintptr_t)(tbl + 1);
}

/*
 * Buckets. A bucket is one cache line: seven slots, each an object of the
 * bucket or 0 (empty), then an overflow word, the head of a chain of the
 * objects past seven. A slot holds the object's head address in bits 0-47
 * and a 16-bit tag of its hash (__rte_rht_tag()) in bits 48-63, so that a
 * lookup compares its key's tag with the seven at once and reads only the
 * objects whose tag is its own: nearly always one for a hit, none for a
 * miss. Objects are stored with a release store and read with an acquire
 * load of their slot, a word that is stored whole. At the load where the
 * table grows (70% of the slots, 4.9 objects a line) some 12% of the lines
 * have an object in their overflow chain, one object in some 21 (a
 * uniform hash: Poisson).
 *
 * The overflow word is the word a bucket was before lines: the chain's
 * head, with the bucket's lock (bit 48), a summary of the chain's hashes
 * and its length (see below); the lock is the whole bucket's. Where the
 * code says "bkt" it means the address of that word, which
 * __rte_rht_bucket() returns: the chain code reads it as a bucket word,
 * and the line's slots are the seven words before it.
 */
static inline struct rte_rhash_head **
__rte_rht_slots(struct rte_rhash_head **bkt)
{
	return bkt - __RTE_RHT_SLOTS;
}

/* The tag of a hash in a slot: bits 48-63, bit 48 set, so that no tag is 0. */
#define __RTE_RHT_TAG_SHIFT 48
#define __RTE_RHT_SLOT_PTR_MASK ((UINT64_C(1) << __RTE_RHT_TAG_SHIFT) - 1)

static __rte_always_inline uint16_t
__rte_rht_tag(uint64_t hash)
{
	return (uint16_t)((hash >> __RTE_RHT_TAG_SHIFT) | 1);
}

/* The slot word of object he with this hash. */
static __rte_always_inline struct rte_rhash_head *
__rte_rht_slot_word(const struct rte_rhash_head *he, uint64_t hash)
{
	return (struct rte_rhash_head *)((uintptr_t)he |
		((uintptr_t)__rte_rht_tag(hash) << __RTE_RHT_TAG_SHIFT));
}

/* The object of a slot word: NULL for an empty slot. */
static __rte_always_inline struct rte_rhash_head *
__rte_rht_slot_obj(const struct rte_rhash_head *word)
{
	return (struct rte_rhash_head *)((uintptr_t)word & __RTE_RHT_SLOT_PTR_MASK);
}

static __rte_always_inline uint16_t
__rte_rht_slot_tag(const struct rte_rhash_head *word)
{
	return (uint16_t)((uintptr_t)word >> __RTE_RHT_TAG_SHIFT);
}

/*
 * The slots of a line whose tag is tag, as a mask: bit 2s + 1 for slot s
 * (__rte_rht_match_slot() gives s back), the form that SSE2 computes in
 * the fewest instructions. A hint: the slots are read with vector loads
 * where the target has them (not as atomic words), so a caller reads a
 * matching slot again with an acquire load before it uses the object. The
 * portable loop reads each slot once, with acquire: a lookup that finds no
 * slot of its tag relies on it, as the chain walk relies on its acquire
 * loads, to see a later table that a moved object went to.
 */
#define __RTE_RHT_MATCH_SLOTS 0x2aaaU  /* the mask's bits of slots 0-6 */

static __rte_always_inline uint32_t
__rte_rht_match_slot(uint32_t m)
{
	return rte_ctz32(m) >> 1;
}

static __rte_always_inline uint32_t
__rte_rht_line_match(struct rte_rhash_head *const *slots, uint16_t tag)
{
#if defined(RTE_ARCH_X86_64)
	/* A slot's tag is its top 16-bit lane. The lane compares, packed
	 * twice with signed saturation, leave in each byte the sign of a
	 * 32-bit half of a slot: the upper half's is the tag's match.
	 */
	const __m128i t = _mm_set1_epi16((short)tag);
	const __m128i *l = (const __m128i *)(const void *)slots;
	__m128i c01 = _mm_packs_epi32(_mm_cmpeq_epi16(_mm_load_si128(l), t),
				      _mm_cmpeq_epi16(_mm_load_si128(l + 1), t));
	__m128i c23 = _mm_packs_epi32(_mm_cmpeq_epi16(_mm_load_si128(l + 2), t),
				      _mm_cmpeq_epi16(_mm_load_si128(l + 3), t));

	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(c01, c23)) & __RTE_RHT_MATCH_SLOTS;
#else
	uint32_t m = 0, s;

	/* acquire: a slot that the worker emptied after moving its object
	 * must show the later table to the future_tbl load that follows (on
	 * x86, loads are not reordered with loads)
	 */
	for (s = 0; s < __RTE_RHT_SLOTS; s++)
		m |= (uint32_t)(__rte_rht_slot_tag(rte_atomic_load_explicit(&slots[s],
					rte_memory_order_acquire)) == tag) << (2 * s + 1);
	return m;
#endif
}

/*
 * Overflow chains. A bucket's overflow word (the head of its chain, which
 * the code calls the bucket word) points to the first object and carries,
 * in the 16 address bits that x86-64 and AArch64 user space leave at zero,
 * the bucket's lock (bit 48, which readers ignore: writers take it, see
 * rhashtable_pvt.h) and a 15-bit summary of the hashes of the chain's
 * objects (bits 49-63), so that a lookup can tell that its key is not in
 * the chain without touching any object: a key that no slot's tag matches
 * nearly always ends there. (Before buckets were lines, every object was
 * in a chain; the figures below are of that time, chains of 0.35 to 0.7
 * objects on average.) The summary is a Bloom summary:
 * three of its 15 bits per object, picked by the object's hash bits 56-63
 * (its 8-bit fingerprint). It turns away 255 absent keys of 256 at a lone
 * object, some 97% at a chain of two, 90% at three. Bits 1-2, free in
 * 8-byte aligned addresses, hold the chain length up to 3 ("3 or more"),
 * so that an insert checks the chain limit without walking the chain.
 * A lone object's summary used to be its top 15 hash bits (one absent key in
 * 32768 let through), which took every lookup a test of the length and
 * two checks to pick from; with the one Bloom test, inline single lookups
 * at 1Mi entries run 12-21% (hits) and 25-34% (misses) faster, bulk hits
 * 2-7%, for 0.12% more misses let through to an object (0.54% in all at
 * load 0.5, see __rte_rht_bloom_of). The length and summary may describe
 * objects that the rehash worker moved away (it unlinks the last object of
 * an old chain without rewriting the bucket word; a removal recomputes
 * both from the objects that remain): they may overstate the chain, never
 * understate it.
 * Links inside objects (next) carry neither. A link with bit 0 set is the
 * nulls marker that ends a chain: the address of the chain's bucket, bit 0
 * set; a bucket word that is a marker reads as length 0.
 */
#define __RTE_RHT_SUMMARY_SHIFT 49
#define __RTE_RHT_LEN_SHIFT 1
#define __RTE_RHT_LEN_MAX 3
#define __RTE_RHT_LEN_MASK ((uint64_t)__RTE_RHT_LEN_MAX << __RTE_RHT_LEN_SHIFT)
#define __RTE_RHT_LOCK_BIT (UINT64_C(1) << 48)
#define __RTE_RHT_PTR_MASK ((__RTE_RHT_LOCK_BIT - 1) & ~__RTE_RHT_LEN_MASK)

/* The marker that ends the chain of bucket bkt. */
static inline struct rte_rhash_head *
__rte_rht_nulls(struct rte_rhash_head *const *bkt)
{
	return (struct rte_rhash_head *)((uintptr_t)bkt | 1);
}

static inline bool
__rte_rht_is_nulls(const struct rte_rhash_head *link)
{
	return ((uintptr_t)link & 1) != 0;
}

/* The object a link points to (or the nulls marker itself). */
static inline struct rte_rhash_head *
__rte_rht_ptr(const struct rte_rhash_head *link)
{
	return (struct rte_rhash_head *)((uintptr_t)link & __RTE_RHT_PTR_MASK);
}

/* The fingerprint of a hash: bits that do not pick the bucket. */
static inline uint8_t
__rte_rht_fp8(uint64_t hash)
{
	return (uint8_t)(hash >> 56);
}

/*
 * The three Bloom bits of each 8-bit fingerprint f, among the summary's
 * 15: the (93 * f mod 455)-th of the 455 sets of three of the 15 bits, in
 * lexicographic order (test_bucket_summary() checks them). Three bits, 256
 * sets all different and spread over the 455, let fewer absent keys
 * through chains of two and three than two bits an object: 3.4% and 9.9%
 * of them instead of 6.5% and 12.6%; a lone object lets through the keys
 * of its own fingerprint, one in 256. Over a table's chains at load 0.5
 * that is 0.54% of misses, and each one that passes costs a bulk lookup a
 * memory round trip that its whole burst waits for. A load in
 * every lookup rather than shifts by a variable count, which cost a lookup
 * several instructions to set up and so some of the lookups the core
 * overlaps.
 */
static const uint16_t __rte_rht_bloom_of[256] __rte_unused = {
	0x0007, 0x0026, 0x0814, 0x4208, 0x02c0, 0x1003, 0x001a, 0x1024,
	0x6008, 0x2140, 0x0405, 0x400a, 0x4044, 0x00d0, 0x4440, 0x0209,
	0x4012, 0x0904, 0x0490, 0x1180, 0x0211, 0x00c2, 0x1404, 0x4110,
	0x2480, 0x0421, 0x0482, 0x0058, 0x1810, 0x1300, 0x1041, 0x4102,
	0x00a8, 0x0860, 0x3100, 0x0301, 0x1802, 0x0248, 0x40a0, 0x3200,
	0x4201, 0x010c, 0x1088, 0x2220, 0x5800, 0x6001, 0x0114, 0x0a08,
	0x5020, 0x0203, 0x1006, 0x0224, 0x4808, 0x0540, 0x0085, 0x080a,
	0x0844, 0x1030, 0x0c40, 0x0049, 0x0812, 0x4084, 0x4050, 0x0380,
	0x0051, 0x1022, 0x2204, 0x0910, 0x4280, 0x00a1, 0x4042, 0x5004,
	0x1410, 0x6080, 0x0241, 0x0902, 0x2018, 0x0160, 0x1900, 0x1081,
	0x1402, 0x4028, 0x08a0, 0x1a00, 0x0a01, 0x002c, 0x0288, 0x0620,
	0x5400, 0x4801, 0x0034, 0x2108, 0x2820, 0x0043, 0x0206, 0x0064,
	0x4408, 0x20c0, 0x0015, 0x010a, 0x0144, 0x0230, 0x1240, 0x4005,
	0x0112, 0x0884, 0x0850, 0x3040, 0x2009, 0x0222, 0x0604, 0x4090,
	0x0a80, 0x2011, 0x0842, 0x2804, 0x2210, 0x4880, 0x4021, 0x4082,
	0x0418, 0x5010, 0x1500, 0x0281, 0x2202, 0x0828, 0x01a0, 0x1600,
	0x2101, 0x5002, 0x2048, 0x1120, 0x2c00, 0x4401, 0x100c, 0x0508,
	0x2420, 0x000b, 0x0046, 0x1014, 0x0c08, 0x04c0, 0x2003, 0x002a,
	0x2024, 0x0070, 0x4140, 0x0805, 0x0032, 0x0184, 0x0150, 0x1840,
	0x0409, 0x0062, 0x1104, 0x0890, 0x2180, 0x0411, 0x0142, 0x2404,
	0x0610, 0x4480, 0x0821, 0x0882, 0x0098, 0x2810, 0x2300, 0x2041,
	0x0602, 0x0128, 0x1060, 0x5100, 0x0501, 0x2802, 0x0448, 0x0320,
	0x5200, 0x0c01, 0x020c, 0x2088, 0x4220, 0x6800, 0x000e, 0x0214,
	0x1208, 0x6020, 0x0403, 0x2006, 0x0424, 0x3008, 0x0940, 0x0105,
	0x100a, 0x1044, 0x2030, 0x1440, 0x0089, 0x1012, 0x0304, 0x0190,
	0x0580, 0x0091, 0x2022, 0x4204, 0x1110, 0x0c80, 0x0121, 0x0182,
	0x6004, 0x2410, 0x0700, 0x0441, 0x1102, 0x4018, 0x0260, 0x2900,
	0x2081, 0x2402, 0x00c8, 0x10a0, 0x2a00, 0x1201, 0x004c, 0x0488,
	0x0a20, 0x6400, 0x3001, 0x0054, 0x4108, 0x4820, 0x0083, 0x0406,
	0x00a4, 0x1808, 0x40c0, 0x0025, 0x020a, 0x0244, 0x0430, 0x2240,
	0x0019, 0x0212, 0x1084, 0x1050, 0x5040, 0x4009, 0x0422, 0x0a04,
	0x0310, 0x1280, 0x4011, 0x1042, 0x4804, 0x4210, 0x3080, 0x00c1,
};

static inline uint16_t
__rte_rht_fp8_bloom(uint8_t fp8)
{
	return __rte_rht_bloom_of[fp8];
}

/* The summary of a bucket word: 15 bits, without the lock bit below them. */
static inline uint16_t
__rte_rht_bucket_summary(const struct rte_rhash_head *word)
{
	return (uint16_t)((uintptr_t)word >> __RTE_RHT_SUMMARY_SHIFT);
}

/* Chain length from a bucket word: exact below __RTE_RHT_LEN_MAX. */
static inline uint32_t
__rte_rht_bucket_len(const struct rte_rhash_head *word)
{
	return ((uintptr_t)word & __RTE_RHT_LEN_MASK) >> __RTE_RHT_LEN_SHIFT;
}

/*
 * The summary of a chain whose summary was summary, once an object with
 * this hash joins it: the object's Bloom bits added, whatever the chain's
 * length.
 */
static inline uint16_t
__rte_rht_summary_add(uint16_t summary, uint64_t hash)
{
	return (uint16_t)(summary | __rte_rht_fp8_bloom(__rte_rht_fp8(hash)));
}

static inline struct rte_rhash_head *
__rte_rht_bucket_word(const struct rte_rhash_head *head, uint16_t summary, uint32_t len)
{
	if (__rte_rht_is_nulls(head))
		return __rte_rht_ptr(head);
	return (struct rte_rhash_head *)((uintptr_t)__rte_rht_ptr(head) |
		((uintptr_t)summary << __RTE_RHT_SUMMARY_SHIFT) |
		((uintptr_t)RTE_MIN(len, (uint32_t)__RTE_RHT_LEN_MAX) << __RTE_RHT_LEN_SHIFT));
}

/*
 * May the chain headed by word hold an object with this hash? Its summary
 * must have the key's three Bloom bits set. An empty bucket (a nulls
 * marker, whose summary bits are zero) holds no key: every key has three
 * bits. The lock bit, below the summary's 15, is shifted out.
 */
static inline bool
__rte_rht_summary_may_hold(const struct rte_rhash_head *word, uint64_t hash)
{
	return (__rte_rht_fp8_bloom(__rte_rht_fp8(hash)) &
		~__rte_rht_bucket_summary(word)) == 0;
}

/* Bucket idx of tbl: the address of its line's overflow word. */
static inline struct rte_rhash_head **
__rte_rht_bucket(const struct __rte_rht_table *tbl, uint32_t idx)
{
	if (likely(!tbl->nested))
		return &__rte_rht_flat_buckets(tbl)[(size_t)idx * __RTE_RHT_LINE_WORDS +
						    __RTE_RHT_SLOTS];
	return &tbl->pieces[idx >> __RTE_RHT_PIECE_SHIFT][(idx & (__RTE_RHT_PIECE_BUCKETS - 1)) *
		__RTE_RHT_LINE_WORDS + __RTE_RHT_SLOTS];
}

/*
 * The default hash: a seeded multiply-mix of the key, 8 bytes at a time.
 * 64x64->128 bit products folded by xor make it non-linear (CRC32C is
 * linear, so colliding keys can be computed for any seed). It runs in two
 * steps: __rte_rht_key_mix() reduces the key to 64 bits under a key seed,
 * __rte_rht_hash_final() mixes those with a bucket table's own seed. The
 * constants are digits of pi: nothing up the sleeve.
 */
#define __RTE_RHT_PI0 UINT64_C(0x243f6a8885a308d3)
#define __RTE_RHT_PI1 UINT64_C(0x13198a2e03707344)
#define __RTE_RHT_PI2 UINT64_C(0xa4093822299f31d0)
#define __RTE_RHT_PI3 UINT64_C(0x082efa98ec4e6c89)

static __rte_always_inline uint64_t
__rte_rht_mix(uint64_t a, uint64_t b)
{
#ifdef RTE_ARCH_X86_64
	/* One mulq, its halves in rax and rdx. Written as a 128-bit product,
	 * GCC 12 round-trips both halves through the stack in the bulk
	 * lookup's hashing loop: two store-to-load forwards on every hash's
	 * critical path, which delays the bucket prefetches.
	 */
	uint64_t lo, hi;

	__asm__("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b) : "cc");
	return lo ^ hi;
#else
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
#endif
}

static __rte_always_inline uint64_t
__rte_rht_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static __rte_always_inline uint64_t
__rte_rht_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The seeds of the steps for keys of len bytes: the first step's from
 * key_seed, the last step's from seed. Constants of the hash folded in,
 * so that a table computes them once.
 */
static __rte_always_inline struct __rte_rht_mix_seeds
__rte_rht_mix_seeds(uint32_t key_seed, uint32_t seed, uint32_t len)
{
	uint64_t k = (((uint64_t)key_seed << 32) | key_seed) ^ __RTE_RHT_PI0;
	uint64_t f = (((uint64_t)seed << 32) | seed) ^ __RTE_RHT_PI0;
	struct __rte_rht_mix_seeds ms;

	ms.a = k ^ ((uint64_t)len * __RTE_RHT_PI1) ^ __RTE_RHT_PI3;
	ms.b = k ^ __RTE_RHT_PI2;
	ms.last = f ^ __RTE_RHT_PI3;
	return ms;
}

/* First step of the default hash: the key reduced to 64 bits under ms's key seed. */
static __rte_always_inline uint64_t
__rte_rht_key_mix(const void *key, uint32_t len, const struct __rte_rht_mix_seeds *ms)
{
	const uint8_t *p = (const uint8_t *)key;
	uint64_t h = ms->a;
	uint64_t a = 0, b = 0;

	for (; len > 16; len -= 16, p += 16)
		h = __rte_rht_mix(__rte_rht_load64(p) ^ h ^ __RTE_RHT_PI3,
				  __rte_rht_load64(p + 8) ^ ms->b) ^ __RTE_RHT_PI3;
	/* the last 1 to 16 bytes, as two words that may overlap */
	if (len >= 8) {
		a = __rte_rht_load64(p);
		b = __rte_rht_load64(p + len - 8);
	} else if (len >= 4) {
		a = __rte_rht_load32(p);
		b = __rte_rht_load32(p + len - 4);
	} else if (len > 0) {
		a = ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) | p[len - 1];
	}
	return __rte_rht_mix(a ^ h, b ^ ms->b);
}

/* Last step: the key's 64 bits mixed with ms's table seed. */
static __rte_always_inline uint64_t
__rte_rht_hash_final(uint64_t key_mix, const struct __rte_rht_mix_seeds *ms)
{
	return __rte_rht_mix(key_mix ^ __RTE_RHT_PI1, ms->last);
}

/* The default hash with one seed for both steps (rte_rhashtable_default_hash()). */
static __rte_always_inline uint64_t
__rte_rht_default_hash64(const void *key, uint32_t len, uint32_t seed)
{
	struct __rte_rht_mix_seeds ms = __rte_rht_mix_seeds(seed, seed, len);

	return __rte_rht_hash_final(__rte_rht_key_mix(key, len, &ms), &ms);
}

/*
 * The default hash of a key in bucket table tbl. Every bucket table has a
 * new random seed, which enters the last step: keys that share a bucket in
 * one table (a few bits of the hash alike) are spread anew in the next,
 * unless their whole 64-bit first step is alike. The tables of a grow or
 * shrink keep the first step's seed, so that a lookup during the rehash
 * runs that step once for both tables; a re-seed (rte_rhashtable_reseed(),
 * or an insert's emergency table: a chain at the limit) draws both seeds,
 * so that keys whose first step collides, which one who learned that seed
 * could compute, are spread too.
 */
static __rte_always_inline uint64_t
__rte_rht_table_hash(const struct __rte_rht_table *tbl, const void *key, uint32_t len)
{
	return __rte_rht_hash_final(__rte_rht_key_mix(key, len, &tbl->mix_seeds),
				    &tbl->mix_seeds);
}

/*
 * The fields of a table that every lookup reads, written only at create.
 * They are the first member of struct rte_rhashtable (rhashtable_pvt.h),
 * so that rte_rhashtable_lookup_fast() reaches them through the opaque
 * table pointer, and the library's own code through ht->core.
 */
struct __rte_rht_core {
	struct __rte_rht_table *tbl;     /* first bucket table (release/acquire) */
	uint32_t key_len;
	uint32_t key_offset;
	uint32_t head_offset;
	/* key_len when lookups can use a version specialised for it (the
	 * default hash and compare, a length of rht_key_len_fast()); else 0
	 */
	uint32_t fast_key_len;
};

/* Non-zero when the key_len bytes at a and b differ. */
static __rte_always_inline uint64_t
__rte_rht_keys_differ(const uint8_t *a, const uint8_t *b, uint32_t len)
{
	uint64_t diff = 0;
	uint32_t i = 0;

	for (; i + 8 <= len; i += 8)
		diff |= __rte_rht_load64(a + i) ^ __rte_rht_load64(b + i);
	if (len - i >= 4) {
		diff |= __rte_rht_load32(a + i) ^ __rte_rht_load32(b + i);
		i += 4;
	}
	for (; i < len; i++)
		diff |= a[i] ^ b[i];
	return diff;
}

/*
 * The table where a key of the first table tbl is, while a grow or shrink
 * moves tbl's objects to the next table: that one once the worker has
 * emptied the key's bucket of tbl. *hash and *idx, the key's hash and
 * bucket in tbl, become those in the table returned; mix is the hash's
 * first step, which the tables of a grow or shrink share. next is tbl's
 * future_tbl, from a relaxed load. NULL when the next table has another key
 * seed (a re-seed): the whole algorithm then answers.
 */
static __rte_always_inline const struct __rte_rht_table *
__rte_rht_moving_table(const struct __rte_rht_table *tbl, const struct __rte_rht_table *next,
		       uint64_t mix, uint64_t *hash, uint32_t *idx)
{
	/* the relaxed load of next and this fence make an acquire load, which
	 * pairs with the release that attached next: its fields are set. Not
	 * a second load: a single lookup keeps as many misses in flight as
	 * the reorder buffer holds lookups, so every instruction counts here
	 * (frozen/rhashtable/single at 50 and 99% moved, 1.05x without it)
	 */
	rte_atomic_thread_fence(rte_memory_order_acquire);
	if (next->key_seed != tbl->key_seed)
		return NULL;
	/* acquire: pairs with the worker's release once buckets are empty:
	 * the objects it moved out of them are linked in next
	 */
	if (*idx >= rte_atomic_load_explicit(&tbl->emptied, rte_memory_order_acquire))
		return tbl;
	*hash = __rte_rht_hash_final(mix, &next->mix_seeds);
	*idx = (uint32_t)*hash & next->mask;
	return next;
}

/*
 * The object of the key among the slots of bucket bkt (the key's hash
 * hash), or NULL. Only the slots whose tag is the key's are read again
 * (acquire: pairs with the release store of an object into its slot) and
 * their objects compared.
 */
static __rte_always_inline struct rte_rhash_head *
__rte_rht_slots_find(const struct __rte_rht_core *c, struct rte_rhash_head **bkt,
		     const void *key, uint32_t key_len, uint64_t hash)
{
	struct rte_rhash_head **slots = __rte_rht_slots(bkt);
	const uint16_t tag = __rte_rht_tag(hash);
	struct rte_rhash_head *w;
	uint32_t m;

	for (m = __rte_rht_line_match(slots, tag); m != 0; m &= m - 1) {
		w = rte_atomic_load_explicit(&slots[__rte_rht_match_slot(m)],
					     rte_memory_order_acquire);
		/* an empty slot's tag, 0, is no key's */
		if (likely(__rte_rht_slot_tag(w) == tag) &&
		    __rte_rht_keys_differ((const uint8_t *)key, (const uint8_t *)
				__rte_rht_slot_obj(w) - c->head_offset + c->key_offset,
				key_len) == 0)
			return __rte_rht_slot_obj(w);
	}
	return NULL;
}

/*
 * The common case of a lookup with the default hash and compare on a
 * constant key_len: one bucket table, or two while a grow or shrink moves
 * objects from the first to the second, and no concurrent move in the
 * chain. Returns the head of the object found, or NULL. Sets *slow when
 * the answer needs the whole algorithm instead: a key not found while a
 * rehash is under way, a re-seed, or a walk that a concurrent move carried
 * into another chain.
 *
 * A resize is in this common case, not in the whole algorithm, because of
 * the instructions a lookup takes: out of line, with the checks of every
 * level, a single lookup took three times as many, and a core can only keep
 * the memory accesses of as many lookups in flight as its reorder buffer
 * holds the instructions of. Lookups frozen halfway through a rehash ran at
 * two thirds of their rate before it (resize/rhashtable/single with the
 * worker stopped at half of the table).
 */
static __rte_always_inline struct rte_rhash_head *
__rte_rht_lookup_common(const struct __rte_rht_core *c, const void *key, uint32_t key_len,
			bool *slow)
{
	/* acquire: pairs with the release that publishes a new first table */
	const struct __rte_rht_table *tbl = rte_atomic_load_explicit(&c->tbl,
			rte_memory_order_acquire);
	const struct __rte_rht_table *t = tbl;
	uint64_t mix = __rte_rht_key_mix(key, key_len, &tbl->mix_seeds);
	uint64_t hash = __rte_rht_hash_final(mix, &tbl->mix_seeds);
	uint32_t idx = (uint32_t)hash & tbl->mask;
	/* relaxed: __rte_rht_moving_table() orders what it reads of next */
	const struct __rte_rht_table *next = rte_atomic_load_explicit(&tbl->future_tbl,
			rte_memory_order_relaxed);
	struct rte_rhash_head **bkt, *word, *he;

	if (unlikely(next != NULL)) {
		t = __rte_rht_moving_table(tbl, next, mix, &hash, &idx);
		if (t == NULL)
			goto slow_path;
	}
	bkt = __rte_rht_bucket(t, idx);
	he = __rte_rht_slots_find(c, bkt, key, key_len, hash);
	if (he != NULL)
		return he;
	/* acquire: pairs with the release stores that link objects */
	word = rte_atomic_load_explicit(bkt, rte_memory_order_acquire);
	if (unlikely(__rte_rht_summary_may_hold(word, hash))) {
		for (he = __rte_rht_ptr(word); !__rte_rht_is_nulls(he);
		     he = rte_atomic_load_explicit(&he->next, rte_memory_order_acquire))
			if (__rte_rht_keys_differ((const uint8_t *)key, (const uint8_t *)he -
					    c->head_offset + c->key_offset, key_len) == 0)
				return he;
		/* a concurrent move or re-insert carried the walk into
		 * another chain
		 */
		if (unlikely(he != __rte_rht_nulls(bkt)))
			goto slow_path;
	}
	/* absent, unless the worker moved it on: a rehash under way, or
	 * started during the walk (tbl is the first table, whichever t was)
	 */
	if (likely(rte_atomic_load_explicit(&tbl->future_tbl, rte_memory_order_relaxed) == NULL))
		return NULL;
slow_path:
	*slow = true;
	return NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_RHASHTABLE_CORE_H_ */
