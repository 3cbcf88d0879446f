/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RTE_RHASHTABLE_COMPAT_H_
#define _RTE_RHASHTABLE_COMPAT_H_

/**
 * @file
 * What the library needs from DPDK 23.11 and later, for builds against an
 * older DPDK (Debian 12's 22.11): the rte_stdatomic.h memory orders and
 * operations, and the bit counting helpers of rte_bitops.h. The sources use
 * the DPDK names, so that the same files build inside DPDK's own tree, whose
 * checks forbid the compiler builtins. rte_rhashtable_core.h includes this
 * file only when DPDK is older than 23.11; it is not part of the library
 * laid into a DPDK tree (devtools/dpdk-tree.sh).
 *
 * Internal: not part of the API.
 */

#ifndef _RTE_RHASHTABLE_CORE_H_
#error "do not include rte_rhashtable_compat.h directly, use <rte_rhashtable.h> instead"
#endif

#include <rte_version.h>

#if RTE_VERSION_NUM(23, 11, 0, 0) > RTE_VERSION

#define rte_memory_order_relaxed __ATOMIC_RELAXED
#define rte_memory_order_consume __ATOMIC_CONSUME
#define rte_memory_order_acquire __ATOMIC_ACQUIRE
#define rte_memory_order_release __ATOMIC_RELEASE
#define rte_memory_order_acq_rel __ATOMIC_ACQ_REL
#define rte_memory_order_seq_cst __ATOMIC_SEQ_CST

#define rte_atomic_load_explicit(ptr, mo) __atomic_load_n(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) __atomic_store_n(ptr, val, mo)
#define rte_atomic_exchange_explicit(ptr, val, mo) __atomic_exchange_n(ptr, val, mo)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) __atomic_fetch_add(ptr, val, mo)
#define rte_atomic_fetch_sub_explicit(ptr, val, mo) __atomic_fetch_sub(ptr, val, mo)
#define rte_atomic_fetch_or_explicit(ptr, val, mo) __atomic_fetch_or(ptr, val, mo)
#define rte_atomic_compare_exchange_strong_explicit(ptr, expected, desired, succ, fail) \
	__atomic_compare_exchange_n(ptr, expected, desired, 0, succ, fail)

#define rte_ctz32(v) ((unsigned int)__builtin_ctz(v))
#define rte_ctz64(v) ((unsigned int)__builtin_ctzll(v))
#define rte_clz32(v) ((unsigned int)__builtin_clz(v))
#define rte_popcount32(v) ((unsigned int)__builtin_popcount(v))
#define rte_popcount64(v) ((unsigned int)__builtin_popcountll(v))

#endif /* RTE_VERSION < 23.11 */

#endif /* _RTE_RHASHTABLE_COMPAT_H_ */
