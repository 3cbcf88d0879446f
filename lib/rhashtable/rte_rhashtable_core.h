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

#include <rte_bitops.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_version.h>
#if RTE_VERSION_NUM(23, 11, 0, 0) > RTE_VERSION
#include <rte_rhashtable_compat.h>
#else
#include <rte_stdatomic.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct rte_rhash_head;
struct rte_rhashtable_iter;

/* Buckets in one piece of a nested bucket table: one 4 KiB page of pointers. */
#define __RTE_RHT_PIECE_SHIFT 9
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

/* The buckets of a flat table (not nested), right after the struct: its
 * size is a whole number of cache lines (the alignas above).
 */
static inline struct rte_rhash_head **
__rte_rht_flat_buckets(const struct __rte_rht_table *tbl)
{
	return (struct rte_rhash_head **)(uintptr_t)(tbl + 1);
}

/*
 * Chain links. A bucket word (the head of a chain) points to the first
 * object and carries, in the 16 address bits that x86-64 and AArch64 user
 * space leave at zero, the bucket's lock (bit 48, which readers ignore:
 * writers take it, see rhashtable_pvt.h) and a 15-bit summary of the
 * hashes of the chain's objects (bits 49-63), so that a lookup can tell
 * that its key is not in the chain without touching any object: most
 * misses read the bucket word alone. Bits 1-2, free in 8-byte aligned
 * addresses, hold the chain length up to 3 ("3 or more"), so that an
 * insert checks the chain limit without walking the chain, and tell how
 * the summary reads:
 * - length 1: the object's 15-bit fingerprint (hash bits 49-63);
 * - 2 or more: a Bloom summary, two of its 15 bits per object, picked by
 *   its hash bits 56-63 (the high 8 bits of its fingerprint).
 * A table grown to size has most of its full chains one object long: a
 * fingerprint there turns away all but one key in 32768, where two Bloom
 * bits turned away some 98%, and a miss that passes costs a memory round
 * trip to the object. The length and summary may describe objects that the
 * rehash worker moved away (it unlinks the last object of an old chain
 * without rewriting the bucket word; a removal recomputes both from the
 * objects that remain): they may overstate the chain, never understate it.
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

/* Fingerprints of a hash: from bits that do not pick the bucket. */
static inline uint16_t
__rte_rht_fp15(uint64_t hash)
{
	return (uint16_t)(hash >> __RTE_RHT_SUMMARY_SHIFT);
}

static inline uint8_t
__rte_rht_fp8(uint64_t hash)
{
	return (uint8_t)(hash >> 56);
}

/*
 * The two Bloom bits of each 8-bit fingerprint f, among the summary's 15:
 * 1 << (f & 15) % 15 | 1 << (f >> 4) % 15 (test_bucket_summary() checks
 * them): a load in every lookup rather than two shifts by a variable
 * count, which cost a lookup several instructions to set up and so some of
 * the lookups the core overlaps.
 */
static const uint16_t __rte_rht_bloom_of[256] __rte_unused = {
	0x0001, 0x0003, 0x0005, 0x0009, 0x0011, 0x0021, 0x0041, 0x0081,
	0x0101, 0x0201, 0x0401, 0x0801, 0x1001, 0x2001, 0x4001, 0x0001,
	0x0003, 0x0002, 0x0006, 0x000a, 0x0012, 0x0022, 0x0042, 0x0082,
	0x0102, 0x0202, 0x0402, 0x0802, 0x1002, 0x2002, 0x4002, 0x0003,
	0x0005, 0x0006, 0x0004, 0x000c, 0x0014, 0x0024, 0x0044, 0x0084,
	0x0104, 0x0204, 0x0404, 0x0804, 0x1004, 0x2004, 0x4004, 0x0005,
	0x0009, 0x000a, 0x000c, 0x0008, 0x0018, 0x0028, 0x0048, 0x0088,
	0x0108, 0x0208, 0x0408, 0x0808, 0x1008, 0x2008, 0x4008, 0x0009,
	0x0011, 0x0012, 0x0014, 0x0018, 0x0010, 0x0030, 0x0050, 0x0090,
	0x0110, 0x0210, 0x0410, 0x0810, 0x1010, 0x2010, 0x4010, 0x0011,
	0x0021, 0x0022, 0x0024, 0x0028, 0x0030, 0x0020, 0x0060, 0x00a0,
	0x0120, 0x0220, 0x0420, 0x0820, 0x1020, 0x2020, 0x4020, 0x0021,
	0x0041, 0x0042, 0x0044, 0x0048, 0x0050, 0x0060, 0x0040, 0x00c0,
	0x0140, 0x0240, 0x0440, 0x0840, 0x1040, 0x2040, 0x4040, 0x0041,
	0x0081, 0x0082, 0x0084, 0x0088, 0x0090, 0x00a0, 0x00c0, 0x0080,
	0x0180, 0x0280, 0x0480, 0x0880, 0x1080, 0x2080, 0x4080, 0x0081,
	0x0101, 0x0102, 0x0104, 0x0108, 0x0110, 0x0120, 0x0140, 0x0180,
	0x0100, 0x0300, 0x0500, 0x0900, 0x1100, 0x2100, 0x4100, 0x0101,
	0x0201, 0x0202, 0x0204, 0x0208, 0x0210, 0x0220, 0x0240, 0x0280,
	0x0300, 0x0200, 0x0600, 0x0a00, 0x1200, 0x2200, 0x4200, 0x0201,
	0x0401, 0x0402, 0x0404, 0x0408, 0x0410, 0x0420, 0x0440, 0x0480,
	0x0500, 0x0600, 0x0400, 0x0c00, 0x1400, 0x2400, 0x4400, 0x0401,
	0x0801, 0x0802, 0x0804, 0x0808, 0x0810, 0x0820, 0x0840, 0x0880,
	0x0900, 0x0a00, 0x0c00, 0x0800, 0x1800, 0x2800, 0x4800, 0x0801,
	0x1001, 0x1002, 0x1004, 0x1008, 0x1010, 0x1020, 0x1040, 0x1080,
	0x1100, 0x1200, 0x1400, 0x1800, 0x1000, 0x3000, 0x5000, 0x1001,
	0x2001, 0x2002, 0x2004, 0x2008, 0x2010, 0x2020, 0x2040, 0x2080,
	0x2100, 0x2200, 0x2400, 0x2800, 0x3000, 0x2000, 0x6000, 0x2001,
	0x4001, 0x4002, 0x4004, 0x4008, 0x4010, 0x4020, 0x4040, 0x4080,
	0x4100, 0x4200, 0x4400, 0x4800, 0x5000, 0x6000, 0x4000, 0x4001,
	0x0001, 0x0003, 0x0005, 0x0009, 0x0011, 0x0021, 0x0041, 0x0081,
	0x0101, 0x0201, 0x0401, 0x0801, 0x1001, 0x2001, 0x4001, 0x0001,
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
 * The summary of a chain of len objects (from __rte_rht_bucket_len())
 * whose summary was summary, once an object with this hash joins it.
 */
static inline uint16_t
__rte_rht_summary_add(uint16_t summary, uint32_t len, uint64_t hash)
{
	uint16_t bits;

	if (len == 0)
		return __rte_rht_fp15(hash);
	bits = __rte_rht_fp8_bloom(__rte_rht_fp8(hash));
	if (len == 1)
		/* the first object's Bloom bits, from its fingerprint's high 8 */
		return (uint16_t)(__rte_rht_fp8_bloom((uint8_t)(summary >> 7)) | bits);
	return (uint16_t)(summary | bits);
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
 * May the chain headed by word hold an object with this hash? One masked
 * compare, its operands picked without a branch (the lengths of the chains
 * that lookups meet are a coin toss): a single object's fingerprint must
 * equal the key's; a Bloom summary must have the key's two bits set, that
 * is its complement none of them. An empty bucket reads as a Bloom summary
 * with no bit set. Bit 15 of the operands, above the summary's 15, compares
 * zero with zero (fingerprint) or is masked off (Bloom).
 */
static inline bool
__rte_rht_summary_may_hold(const struct rte_rhash_head *word, uint64_t hash)
{
	/* all ones for a single object, else zero */
	uint16_t single = (uint16_t)-(uint16_t)(__rte_rht_bucket_len(word) == 1);
	uint16_t want = (uint16_t)(__rte_rht_fp15(hash) | ~single);
	uint16_t mask = (uint16_t)(__rte_rht_fp8_bloom(__rte_rht_fp8(hash)) | single);

	return ((__rte_rht_bucket_summary(word) ^ want) & mask) == 0;
}

static inline struct rte_rhash_head **
__rte_rht_bucket(const struct __rte_rht_table *tbl, uint32_t idx)
{
	if (likely(!tbl->nested))
		return &__rte_rht_flat_buckets(tbl)[idx];
	return &tbl->pieces[idx >> __RTE_RHT_PIECE_SHIFT][idx & (__RTE_RHT_PIECE_BUCKETS - 1)];
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
 * first step, which the tables of a grow or shrink share. NULL when the
 * next table has another key seed (a re-seed): the whole algorithm then
 * answers.
 */
static __rte_always_inline const struct __rte_rht_table *
__rte_rht_moving_table(const struct __rte_rht_table *tbl, uint64_t mix, uint64_t *hash,
		       uint32_t *idx)
{
	/* acquire: pairs with the release that attaches the next table */
	const struct __rte_rht_table *next = rte_atomic_load_explicit(&tbl->future_tbl,
			rte_memory_order_acquire);

	if (next == NULL || next->key_seed != tbl->key_seed)
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
	struct rte_rhash_head **bkt, *word, *he;

	/* relaxed: only picks the path; __rte_rht_moving_table() reloads with acquire */
	if (unlikely(rte_atomic_load_explicit(&tbl->future_tbl,
					      rte_memory_order_relaxed) != NULL)) {
		t = __rte_rht_moving_table(tbl, mix, &hash, &idx);
		if (t == NULL)
			goto slow_path;
	}
	bkt = __rte_rht_bucket(t, idx);
	/* acquire: pairs with the release stores that link objects */
	word = rte_atomic_load_explicit(bkt, rte_memory_order_acquire);
	if (__rte_rht_summary_may_hold(word, hash)) {
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
