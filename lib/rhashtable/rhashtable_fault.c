/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Every allocation of bucket-table memory goes through __rte_rht_malloc(), so that
 * tests can make the N-th one fail and check that nothing is lost.
 */

#include <rte_malloc.h>
#include <rte_random.h>

#include "rhashtable_debug.h"
#include "rhashtable_pvt.h"

static struct rhashtable_fault fault;
static uint64_t fault_seed;
static uint32_t fault_enabled;
static uint64_t fault_attempts;
static uint64_t fault_failed;

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_fault_inject)
void
__rte_rhashtable_fault_inject(const struct rhashtable_fault *f)
{
	rte_atomic_store_explicit(&fault_enabled, 0, rte_memory_order_release);
	if (f == NULL)
		return;
	fault = *f;
	fault_seed = f->seed != 0 ? f->seed : rte_rand();
	rte_atomic_store_explicit(&fault_attempts, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&fault_failed, 0, rte_memory_order_relaxed);
	/* release: pairs with the acquire in fault_hit(), which then reads fault */
	rte_atomic_store_explicit(&fault_enabled, 1, rte_memory_order_release);
}

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_fault_count)
uint64_t
__rte_rhashtable_fault_count(void)
{
	return rte_atomic_load_explicit(&fault_failed, rte_memory_order_relaxed);
}

/*
 * Whether attempt n is one of the one in fault.one_in that fail: a mix of
 * the seed and n (splitmix64's finaliser). Not rte_rand(): a test that
 * asks for one in three must see some fail, and with the nine tables of a
 * growth from 64 buckets, a random draw saw none in about one run in forty.
 */
static bool
fault_attempt_fails(uint64_t n)
{
	uint64_t x = fault_seed + (n + 1) * UINT64_C(0x9e3779b97f4a7c15);

	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x % fault.one_in == 0;
}

static bool
fault_hit(size_t size)
{
	uint64_t n;

	if (likely(rte_atomic_load_explicit(&fault_enabled, rte_memory_order_acquire) == 0))
		return false;
	if (size < fault.min_bytes)
		return false;
	n = rte_atomic_fetch_add_explicit(&fault_attempts, 1, rte_memory_order_relaxed);
	if (n < fault.fail_after)
		return false;
	if (fault.one_in > 1 && !fault_attempt_fails(n))
		return false;
	rte_atomic_fetch_add_explicit(&fault_failed, 1, rte_memory_order_relaxed);
	return true;
}

void *
__rte_rht_malloc(struct rte_rhashtable *ht, const char *what, size_t size)
{
	void *p;

	if (fault_hit(size))
		return NULL;
	p = rte_malloc_socket(what, size, RTE_CACHE_LINE_SIZE, ht->socket_id);
	if (p == NULL && ht->socket_id != SOCKET_ID_ANY)
		RHT_LOG(DEBUG, "%s: %zu bytes on socket %d failed", ht->name, size,
			ht->socket_id);
	return p;
}
