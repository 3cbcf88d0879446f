/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <rte_trace_point_register.h>

#include "rhashtable_trace.h"

RTE_TRACE_POINT_REGISTER(rte_rhashtable_trace_resize, lib.rhashtable.resize)
RTE_TRACE_POINT_REGISTER(rte_rhashtable_trace_rehash_done, lib.rhashtable.rehash_done)
RTE_TRACE_POINT_REGISTER(rte_rhashtable_trace_ebusy, lib.rhashtable.ebusy)
RTE_TRACE_POINT_REGISTER(rte_rhashtable_trace_enomem, lib.rhashtable.enomem)
