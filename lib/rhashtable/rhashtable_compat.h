/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_COMPAT_H_
#define _RHASHTABLE_COMPAT_H_

/*
 * Differences between the DPDK releases the library builds against (22.11
 * and later). The library's code uses the newest API; this header maps it
 * down to the older releases, so that no other file needs a version test.
 */

#include <rte_version.h>
#include <rte_telemetry.h>

#if RTE_VERSION_NUM(23, 3, 0, 0) > RTE_VERSION
/* 23.03 renamed the u64 telemetry adders (24.11 removed the old names). */
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#define rte_tel_data_add_array_uint rte_tel_data_add_array_u64
#endif

#endif /* _RHASHTABLE_COMPAT_H_ */
