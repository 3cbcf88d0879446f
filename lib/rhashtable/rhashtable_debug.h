/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_DEBUG_H_
#define _RHASHTABLE_DEBUG_H_

/**
 * @file
 * Test-only hooks of librte_rhashtable (internal API, not installed).
 * The shared library does not export them (version.map): callers link
 * librte_rhashtable.a and build with -DALLOW_INTERNAL_API.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

/** Fault injection for bucket-table allocations (all tables of the process). */
struct rhashtable_fault {
	uint32_t fail_after; /**< Allocations that succeed before faults start. */
	uint32_t one_in;     /**< Then fail one in one_in at random (0 or 1: every one). */
	size_t min_bytes;    /**< Only allocations of at least this size fail (0: all). */
};

/**
 * Set (f non-NULL) or clear (f NULL) allocation fault injection. Affects the
 * bucket arrays, the nested-table pieces and the lock arrays of every table.
 * Not thread safe against itself; allocations read it atomically.
 */
__rte_internal
void
__rte_rhashtable_fault_inject(const struct rhashtable_fault *f);

/** Allocations that failed because of fault injection since the last set. */
__rte_internal
uint64_t
__rte_rhashtable_fault_count(void);

#endif /* _RHASHTABLE_DEBUG_H_ */
