/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHT_EAL_RUNTIME_H_
#define _RHT_EAL_RUNTIME_H_

/**
 * @file
 * EAL's runtime directory (<runtime dir>/dpdk/<file prefix>: config,
 * fbarray_*, hugepage_info, the telemetry and multi-process sockets) is left
 * in place by rte_eal_cleanup() in DPDK 22.11, so every test run added one
 * directory per prefix to /var/run/dpdk. The project's test programs end
 * with rht_eal_cleanup_runtime() instead.
 */

/**
 * rte_eal_cleanup(), then, in a primary process, remove the files of EAL's
 * runtime directory and the directory itself. A secondary process leaves
 * them to its primary, which still uses them. Call it once, after the last
 * DPDK call, with no secondary process running.
 *
 * @return
 *   0, or -1 when rte_eal_cleanup() failed or an entry could not be removed
 *   (logged to stderr).
 */
int rht_eal_cleanup_runtime(void);

/**
 * Remove the files of EAL's runtime directory and the directory itself,
 * without rte_eal_cleanup(): for a program that cannot clean EAL up before
 * it exits (a libFuzzer target, from an atexit() handler). Primary process
 * only, as rht_eal_cleanup_runtime().
 *
 * @return
 *   0, or -1 when an entry could not be removed (logged to stderr).
 */
int rht_eal_remove_runtime_dir(void);

#endif /* _RHT_EAL_RUNTIME_H_ */
