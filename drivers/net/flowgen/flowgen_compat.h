/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWGEN_COMPAT_H_
#define _FLOWGEN_COMPAT_H_

/*
 * Differences between the DPDK releases net_flowgen builds against (22.11
 * and later). The driver implements the newest ethdev callbacks; this
 * header adapts them to the older releases' signatures, so that no other
 * file needs a version test. The ops table names the adapted callbacks
 * (flowgen_ops_*), which are the driver's own ones on a current DPDK.
 * The atomics of 22.11 are in flowgen_pvt.h, which every file includes.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_version.h>
#include <ethdev_driver.h>

#if RTE_VERSION < RTE_VERSION_NUM(25, 11, 0, 0)
/*
 * Before 25.11 the per-queue counters were fields of struct rte_eth_stats,
 * with the names struct eth_queue_stats gave them since; ethdev passed no
 * separate queue counters, so the driver fills the main struct's.
 */
#define eth_queue_stats rte_eth_stats
#endif

static int flowgen_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
			     struct eth_queue_stats *qst);
static const uint32_t *flowgen_ptypes_get(struct rte_eth_dev *dev, size_t *nb_ptypes);

#if RTE_VERSION < RTE_VERSION_NUM(25, 11, 0, 0)
static int
flowgen_ops_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	return flowgen_stats_get(dev, st, st);
}
#else
#define flowgen_ops_stats_get flowgen_stats_get
#endif

#if RTE_VERSION < RTE_VERSION_NUM(24, 3, 0, 0)
/* Before 24.03 ethdev read the list up to its RTE_PTYPE_UNKNOWN terminator. */
static const uint32_t *
flowgen_ops_ptypes_get(struct rte_eth_dev *dev)
{
	size_t nb_ptypes;

	return flowgen_ptypes_get(dev, &nb_ptypes);
}
#else
#define flowgen_ops_ptypes_get flowgen_ptypes_get
#endif

#endif /* _FLOWGEN_COMPAT_H_ */
