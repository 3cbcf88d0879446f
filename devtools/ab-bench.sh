#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Before and after, in turns: run dpdk-rhashtable-bench of an earlier
# commit and of this tree one after the other, round after round, on the
# same cases, and print each case's figures side by side. On a shared
# machine whose speed drifts from minute to minute, alternating the two
# builds is what makes their figures comparable (the commit messages' "same
# process, alternating libraries" figures come from it).
#
#   devtools/ab-bench.sh [--rounds N] [--counter NAME] BASE_REV FILTER
#
# FILTER is a --benchmark_filter regex, e.g.
# 'lookup/rhashtable/single/hit_uniform/(1048576|16777216)' or
# 'resize/rhashtable'. NAME is a counter of the cases; by default each
# case's own figure: items_per_second (printed in millions), or for the
# resize and frozen cases, which have none, min_over_steady and
# frozen_over_steady.
# BASE_REV is built once, from `git archive`, in
# ${RHT_CACHE:-/var/cache/rhashtable}/ab/<commit>; this tree in
# ${RHT_BENCH_BUILD:-build-bench}. Benchmarks need the packages that
# devtools/deps.sh installs (-Dbenchmarks=enabled).

set -e
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=3
counter=auto
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--counter) counter=$2; shift 2 ;;
	-h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
if [ $# -ne 2 ]; then
	echo "usage: $0 [--rounds N] [--counter NAME] BASE_REV FILTER" >&2
	exit 2
fi
rev=$(git -C "$root" rev-parse --verify "$1^{commit}")
filter=$2

build_of() { # $1: source dir, $2: build dir; quiet unless it fails
	local log

	if [ ! -f "$2/build.ninja" ] &&
	   ! log=$(meson setup "$2" "$1" -Dbenchmarks=enabled 2>&1); then
		echo "$log" >&2
		echo "ab-bench: meson setup of $1 failed" >&2
		exit 1
	fi
	if ! log=$(ninja -C "$2" -j2 test/bench/dpdk-rhashtable-bench 2>&1); then
		echo "$log" >&2
		echo "ab-bench: build of $1 failed" >&2
		exit 1
	fi
}

base_dir=${RHT_CACHE:-/var/cache/rhashtable}/ab/$rev
if [ ! -d "$base_dir/src" ]; then
	mkdir -p "$base_dir/src"
	git -C "$root" archive "$rev" | tar -x -C "$base_dir/src"
fi
build_of "$base_dir/src" "$base_dir/build"
head_build=${RHT_BENCH_BUILD:-$root/build-bench}
build_of "$root" "$head_build"

# one line per build and round: case, then its repetitions' values
report() { # $1: JSON output of the bench
	python3 - "$counter" "$1" <<'EOF'
import json, sys
counter, path = sys.argv[1], sys.argv[2]
cases = {}
# JSON, not CSV: Google Benchmark's CSV reporter aborts when the cases of
# one run have different counters (a frozen case beside a lookup case)
for run in json.load(open(path))['benchmarks']:
    if run.get('run_type') == 'aggregate':
        continue
    parts = [p for p in run['name'].split('/')
             if ':' not in p and p not in ('real_time', 'manual_time')]
    name = counter
    if counter == 'auto':
        name = next((c for c in ('items_per_second', 'min_over_steady', 'frozen_over_steady')
                     if c in run), 'items_per_second')
    value = float(run.get(name, 'nan'))
    if name == 'items_per_second':
        value /= 1e6
    cases.setdefault('/'.join(parts[1:]), []).append('%.3g' % value)
print(' | '.join('%s %s' % (k, ' '.join(v)) for k, v in cases.items()))
EOF
}

echo "ab-bench: $counter, base $(git -C "$root" rev-parse --short "$rev"), head $(git -C "$root" describe --always --dirty)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
	for side in base head; do
		if [ $side = base ]; then b=$base_dir/build; else b=$head_build; fi
		"$b/test/bench/dpdk-rhashtable-bench" --benchmark_filter="$filter" \
			--benchmark_out="$out" --benchmark_out_format=json >/dev/null 2>&1
		echo "round $r $side: $(report "$out")"
	done
done
