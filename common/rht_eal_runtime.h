/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHT_EAL_RUNTIME_H_
#define _RHT_EAL_RUNTIME_H_

#include <stddef.h>

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

/**
 * Write to BUF an EAL --file-prefix made of PREFIX and, when TAG is
 * neither NULL, empty nor already in PREFIX, "_" and TAG, that EAL can
 * use. EAL binds its telemetry socket at
 * <runtime dir>/dpdk/<file prefix>/dpdk_telemetry.v2 and rte_eal_init()
 * fails, with rte_errno unset, when that path does not fit a sockaddr_un:
 * a test's long name, a run's tag and a deep build directory together can
 * reach that limit. Then the prefix is "t" and a hash of PREFIX instead,
 * followed by "_" and the tag (also when PREFIX held it: the tag is how a
 * run finds the runtime directories it left behind).
 *
 * @return
 *   0, or -1 when even the short form does not fit (or BUF is too small).
 */
int rht_eal_file_prefix(char *buf, size_t size, const char *prefix, const char *tag);

/**
 * Replace the last --file-prefix of an EAL command line (ARGV up to "--")
 * by rht_eal_file_prefix() of it and the environment's RHT_EAL_TAG.
 * devtools/test.sh sets RHT_EAL_TAG to a word unique to its run and, once
 * the run is over, looks for the runtime directories and hugepage files
 * whose names hold it: whatever a test program left behind is found even
 * while other runs of the suite (other work trees, the same prefixes)
 * come and go on the machine. The new argument is in static storage, as
 * EAL keeps pointers into argv: call it once a process.
 *
 * @return
 *   0, also when there is no --file-prefix (nothing to tag), or -1 when
 *   no tagged prefix fits (logged; ARGV is left as it was).
 */
int rht_eal_tag_file_prefix(int argc, char **argv);

#endif /* _RHT_EAL_RUNTIME_H_ */
