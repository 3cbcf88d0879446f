/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Asymmetric fences for the writers' entry protocol (rht_writer_enter() and
 * rht_writers_drain()): a writer marks itself busy, then reads the first
 * bucket table; the worker replaces the first table, then reads the marks.
 * Each side needs a full fence between its store and its load, or both
 * could miss the other's store. A writer pays that fence at every insert
 * and removal (a tenth of an insert); the worker replaces a table twice per
 * resize. So the writers' fence becomes a compiler barrier and the worker's
 * a membarrier(2) system call, which makes every thread of the process
 * that runs at that moment execute a full fence (a thread that does not
 * run passes through the scheduler's own): as liburcu's memb flavour pairs
 * its readers' barriers with the writer's membarrier(). Where membarrier()
 * with private expedited commands is missing (another OS, an old kernel, a
 * seccomp filter), both sides use the full fence.
 */

#include <errno.h>
#include <stdbool.h>

#include <rte_common.h>
#include <rte_pause.h>

#ifdef RTE_EXEC_ENV_LINUX
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "rhashtable_debug.h"
#include "rhashtable_pvt.h"

bool __rte_rht_fence_asymmetric;

#ifdef RTE_EXEC_ENV_LINUX
static int
membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/* Register the process for private expedited membarrier(): false if it cannot. */
static bool
membarrier_register(void)
{
	int cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
	    !(cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		return false;
	return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}
#else
static int
membarrier(int cmd)
{
	RTE_SET_USED(cmd);
	return -1;
}

static bool
membarrier_register(void)
{
	return false;
}
#endif

/* Before main(): no table, so no writer and no worker, exists yet. */
RTE_INIT(rht_fence_init)
{
	__rte_rht_fence_asymmetric = membarrier_register();
}

void
__rte_rht_heavy_fence(void)
{
	if (!__rte_rht_fence_asymmetric) {
		rte_atomic_thread_fence(rte_memory_order_seq_cst);
		return;
	}
	/* once registered, the command has no failure mode (membarrier(2));
	 * a full fence here would not do, as the writers rely on this call
	 */
	while (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
		rte_pause();
}

static void
count_table(const struct rte_rhashtable *ht, void *arg)
{
	RTE_SET_USED(ht);
	(*(uint32_t *)arg)++;
}

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_fence_symmetric)
int
__rte_rhashtable_fence_symmetric(bool symmetric)
{
	uint32_t tables = 0;

	__rte_rht_foreach_table(count_table, &tables);
	if (tables != 0) {
		RHT_LOG(ERR, "tables exist: the fence kind is fixed while they do");
		return -EBUSY;
	}
	__rte_rht_fence_asymmetric = symmetric ? false : membarrier_register();
	return __rte_rht_fence_asymmetric ? 0 : symmetric ? 0 : -ENOTSUP;
}

RTE_EXPORT_INTERNAL_SYMBOL(__rte_rhashtable_fence_is_asymmetric)
bool
__rte_rhashtable_fence_is_asymmetric(void)
{
	return __rte_rht_fence_asymmetric;
}
