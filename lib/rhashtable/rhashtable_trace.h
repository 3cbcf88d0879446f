/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RHASHTABLE_TRACE_H_
#define _RHASHTABLE_TRACE_H_

/*
 * Trace points of the slow paths, so that resizes show on a timeline
 * (EAL --trace=lib.rhashtable.*, then babeltrace or Trace Compass).
 */

#include <rte_trace_point.h>

RTE_TRACE_POINT(
	rte_rhashtable_trace_resize,
	RTE_TRACE_POINT_ARGS(const char *name, uint32_t old_size, uint32_t new_size,
			     uint8_t emergency),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_u32(old_size);
	rte_trace_point_emit_u32(new_size);
	rte_trace_point_emit_u8(emergency);
)

RTE_TRACE_POINT(
	rte_rhashtable_trace_rehash_done,
	RTE_TRACE_POINT_ARGS(const char *name, uint32_t old_size, uint32_t new_size),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_u32(old_size);
	rte_trace_point_emit_u32(new_size);
)

RTE_TRACE_POINT(
	rte_rhashtable_trace_ebusy,
	RTE_TRACE_POINT_ARGS(const char *name, uint32_t size),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_u32(size);
)

RTE_TRACE_POINT(
	rte_rhashtable_trace_enomem,
	RTE_TRACE_POINT_ARGS(const char *name, uint32_t size),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_u32(size);
)

#endif /* _RHASHTABLE_TRACE_H_ */
