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
static uint32_t fault_enabled;
static uint64_t fault_attempts;
static uint64_t fault_failed;

void
__rte_rhashtable_fault_inject(const struct rhashtable_fault *f)
{
	__atomic_store_n(&fault_enabled, 0, __ATOMIC_RELEASE);
	if (f == NULL)
		return;
	fault = *f;
	__atomic_store_n(&fault_attempts, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fault_failed, 0, __ATOMIC_RELAXED);
	/* release: pairs with the acquire in fault_hit(), which then reads fault */
	__atomic_store_n(&fault_enabled, 1, __ATOMIC_RELEASE);
}

uint64_t
__rte_rhashtable_fault_count(void)
{
	return __atomic_load_n(&fault_failed, __ATOMIC_RELAXED);
}

static bool
fault_hit(size_t size)
{
	uint64_t n;

	if (likely(__atomic_load_n(&fault_enabled, __ATOMIC_ACQUIRE) == 0))
		return false;
	if (size < fault.min_bytes)
		return false;
	n = __atomic_fetch_add(&fault_attempts, 1, __ATOMIC_RELAXED);
	if (n < fault.fail_after)
		return false;
	if (fault.one_in > 1 && rte_rand_max(fault.one_in) != 0)
		return false;
	__atomic_fetch_add(&fault_failed, 1, __ATOMIC_RELAXED);
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
