#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# examples/flow_table built the way a user builds it outside the project:
# a copy of the directory, its own Makefile and pkg-config (here the build
# tree's uninstalled librte_rhashtable.pc), shared then static, each run
# for ~3 s on net_pcap
# replaying a pcap of known flows (test_flow_table_example.py): it must
# exit 0 and report flows.
#
# Usage: test_example_make.sh <builddir> <srcdir>

set -eu

builddir=$(realpath "$1")
srcdir=$(realpath "$2")
work=$(mktemp -d /tmp/rht-example-make.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

command -v make > /dev/null || { echo "FAIL: no make"; exit 1; }
cp -r "$srcdir/examples/flow_table" "$work/"
run()
{
	LD_LIBRARY_PATH=$builddir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		python3 "$srcdir/test/test_flow_table_example.py" "$1" pcap "$work/run-$2"
}
# the --no-huge fallback for machines without hugepages (see the Makefile)
for variant in shared static; do
	PKG_CONFIG_PATH=$builddir/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
		make -C "$work/flow_table" COMMON_DIR="$srcdir/common" "$variant"
	app=$work/flow_table/build/dpdk-flow_table-$variant
	[ -x "$app" ] || { echo "FAIL: make $variant built no $app"; exit 1; }
	[ "$(readlink "$work/flow_table/build/dpdk-flow_table")" = "dpdk-flow_table-$variant" ] ||
		{ echo "FAIL: build/dpdk-flow_table does not point to the $variant build"; exit 1; }
	if [ "$variant" = static ] && ldd "$app" | grep 'librte_'; then
		echo "FAIL: the static build links shared DPDK libraries (above)"
		exit 1
	fi
	run "$app" "$variant"
done
