/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHT_EAL_MEM_H_
#define _RHT_EAL_MEM_H_

/**
 * @file
 * EAL memory arguments shared by the project's programs (tests, app,
 * benchmarks): use hugepages when the machine has enough free ones, else
 * fall back to "--no-huge -m <mb> --no-shconf" so that everything also runs
 * where hugepages cannot be had.
 */

/**
 * Return an argv for rte_eal_init(): argv unchanged when it already names a
 * memory mode (--no-huge, --in-memory, -m, --socket-mem) or when at least
 * mem_mb MiB of free hugepages are mounted; otherwise argv plus the
 * --no-huge fallback (logged to stderr once). The returned array stays valid
 * for the life of the process.
 *
 * @param argc
 *   In: argument count; out: the count of the returned array.
 * @param argv
 *   The program's arguments (EAL ones first, as rte_eal_init() takes them).
 * @param mem_mb
 *   Memory the program needs, in MiB.
 * @return
 *   The argument array to pass to rte_eal_init().
 */
char **rht_eal_args_with_memory(int *argc, char **argv, unsigned int mem_mb);

/**
 * Free MiB in mounted 2 MiB/1 GiB hugepages, 0 when there is no hugetlbfs mount.
 */
unsigned long rht_hugepage_free_mb(void);

/**
 * MiB of all reserved 2 MiB/1 GiB hugepages, free or not; 0 when there is
 * no hugetlbfs mount.
 */
unsigned long rht_hugepage_total_mb(void);

#endif /* _RHT_EAL_MEM_H_ */
