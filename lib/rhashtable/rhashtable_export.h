/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_EXPORT_H_
#define _RHASHTABLE_EXPORT_H_

/*
 * Symbol export annotations. Inside DPDK's tree (25.07 and later) the build
 * generates the library's version map from the RTE_EXPORT_*_SYMBOL lines of
 * the .c files, and EAL's private eal_export.h defines them as empty. Built
 * out of tree, or inside an older DPDK, the map is lib/rhashtable/version.map
 * and the annotations only document it: the same empty definitions here.
 */

#if defined(__has_include)
#if __has_include("eal_export.h")
#include <eal_export.h>
#endif
#endif

#ifndef RTE_EXPORT_SYMBOL
#define RTE_EXPORT_SYMBOL(symbol)
#endif
#ifndef RTE_EXPORT_EXPERIMENTAL_SYMBOL
#define RTE_EXPORT_EXPERIMENTAL_SYMBOL(symbol, ver)
#endif
#ifndef RTE_EXPORT_INTERNAL_SYMBOL
#define RTE_EXPORT_INTERNAL_SYMBOL(symbol)
#endif

#endif /* _RHASHTABLE_EXPORT_H_ */
