#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# The main job, on a fresh machine or an old one: install what is missing,
# build, then run the flow-table app (dpdk-flowpmd) on the net_flowgen
# traffic generator for a few seconds and print its Mpps summary.
#
# Usage: devtools/run.sh [FLOWS [SECONDS]]    (default 1000000 flows, 8 s)
# Lcores: 0 prints stats (main), 1 forwards, 2 runs the rehash service on
# CPU 0 next to the mostly idle main lcore, so 2 CPUs are enough.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
flows=${1:-1000000}
seconds=${2:-8}

"$top/devtools/deps.sh"
"$top/devtools/build.sh"
exec "$build/app/flowpmd/dpdk-flowpmd" --no-pci --lcores '0@0,1@1,2@0' \
	--file-prefix=flowpmd-run --log-level=lib.eal:warning \
	--vdev "net_flowgen0,flows=$flows" -- \
	--service-lcores=2 --max-flows=$((flows * 2)) --duration="$seconds"
