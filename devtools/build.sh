#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Configure (once) and build the tree in BUILD_DIR (default: build), with the
# DPDK source tree that devtools/get-dpdk-source.sh fetched, so the net_flowgen
# driver is built too. Extra arguments go to `meson setup`.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
dpdk_src=$("$top/devtools/get-dpdk-source.sh")

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" -Dwerror=true -Ddpdk_source="$dpdk_src" "$@" >&2
else
	meson configure "$build" -Ddpdk_source="$dpdk_src" "$@" >&2
fi
ninja -C "$build" >&2
