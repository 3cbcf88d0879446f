#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Build (if needed) and run dpdk-rhashtable-bench, then turn its JSON into
# the report:
#
#   devtools/run-bench.sh [--short|--long] [--out DIR] [-- EAL args]
#
# Normal and --long runs write doc/perf/: results.md, *.png, machine.md, plus
# the raw results.json and resize_trace.csv the report was made from.
# --short (about 30 s, a smoke test) writes to <build>/perf-short unless --out
# is given, so that it never overwrites the committed results.
# --long adds 64Mi-entry tables and longer measurements (needs ~12 GiB).
# Environment: RHT_BENCH_BUILD (build directory, default build-bench),
# RHT_BENCH_ARGS (extra benchmark flags, e.g. --benchmark_repetitions=3).
#
# Run it on an otherwise idle machine: every figure is compared with others
# of the same run, but a busy core makes the whole run noisy.

set -e

root=$(cd "$(dirname "$0")/.." && pwd)
build=${RHT_BENCH_BUILD:-$root/build-bench}
mode=normal
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--short) mode=short ;;
	--long) mode=long ;;
	--out) out=$2; shift ;;
	--out=*) out=${1#--out=} ;;
	--) shift; break ;;
	-h|--help) sed -n '5,21p' "$0"; exit 0 ;;
	*) echo "run-bench.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$out" ]; then
	if [ $mode = short ]; then out=$build/perf-short; else out=$root/doc/perf; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbenchmarks=enabled
fi
ninja -C "$build" -j2 test/bench/dpdk-rhashtable-bench
bench=$build/test/bench/dpdk-rhashtable-bench

json=$out/results.json
trace=$out/resize_trace.csv
rm -f "$json" "$trace"
modeflag=
[ $mode = normal ] || modeflag=--$mode
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# "$@" holds the EAL arguments, if any
set -- "$bench" $modeflag --trace_out="$trace" --benchmark_out="$json" \
	--benchmark_out_format=json $RHT_BENCH_ARGS ${1+--} "$@"
echo "run-bench.sh: $*"
start=$(date +%s)
"$@"
elapsed=$(( $(date +%s) - start ))
cmdline="$*"

python3 "$root/devtools/bench_report.py" --json "$json" --trace "$trace" \
	--out "$out" --machine machine.md --dpdk "$(pkg-config --modversion libdpdk)"

# The machine the figures come from
hp=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"].get("rht_hugepages","?"))' "$json")
eal=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"].get("rht_eal_args","?"))' "$json")
# lscpu names KVM or Xen; a PVM guest (shadow page tables, whose TLB
# reach the latency/pages cases show) is named by the kernel's log only.
hypervisor() {
	local h

	h=$(lscpu | sed -n 's/^Hypervisor vendor: *//p' | head -1)
	[ -n "$h" ] || h=$(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: *//p' | head -1)
	echo "${h:-none found}"
}

# lscpu reads the caches from sysfs, which a PVM guest leaves empty; the
# C library's sysconf() then still has what CPUID tells the guest (the L3
# figure may be the host's, not this guest's share).
caches() {
	local c

	c=$(lscpu | sed -n 's/^\(L[123][a-z]*\) cache: *\(.*\)/\1 \2/p' | paste -sd ';' - |
		sed 's/;/; /g')
	[ -n "$c" ] || c=$(getconf -a | awk '
		$1 == "LEVEL1_DCACHE_SIZE" && $2 > 0 { l = l "L1d " $2 / 1024 " KiB; " }
		$1 == "LEVEL2_CACHE_SIZE" && $2 > 0 { l = l "L2 " $2 / 1024 " KiB; " }
		$1 == "LEVEL3_CACHE_SIZE" && $2 > 0 { l = l "L3 " $2 / 1048576 " MiB; " }
		END { if (l != "") print l "from CPUID (sysconf): what the guest is told" }')
	echo "${c:-none found}"
}

{
	echo "# Machine and command of the benchmark run"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo "| CPU | $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs |"
	echo "| caches | $(caches) |"
	echo "| hypervisor | $(hypervisor) |"
	echo "| kernel | $(uname -srm) |"
	echo "| OS | $(. /etc/os-release && echo "$PRETTY_NAME") |"
	echo "| DPDK | $(pkg-config --modversion libdpdk) |"
	echo "| liburcu | $(pkg-config --modversion liburcu-qsbr 2>/dev/null || echo '?') |"
	echo "| Google Benchmark | $(pkg-config --modversion benchmark 2>/dev/null || echo '?') |"
	echo "| compiler | $(cc --version | head -1) |"
	echo "| hugepages | $hp; $(grep -E '^HugePages_(Total|Free)|^Hugepagesize' /proc/meminfo | tr -s ' ' | paste -sd ',' - | sed 's/,/, /g') |"
	echo "| transparent hugepages | $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?') |"
	echo "| EAL arguments | \`$eal\` |"
	echo "| load average before the run | $load_before |"
	echo "| tree | $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'no commit yet') |"
	echo "| mode / duration | $mode / ${elapsed} s |"
	echo
	echo "Command (from the build directory \`$build\`):"
	echo
	echo '```'
	echo "$cmdline" | sed "s|$root/||g"
	echo '```'
	echo
	echo "Report: \`devtools/bench_report.py --json results.json --trace resize_trace.csv --out .\`"
} > "$out/machine.md"
echo "run-bench.sh: results in $out"
