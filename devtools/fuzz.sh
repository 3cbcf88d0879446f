#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Build the libFuzzer targets with clang, AddressSanitizer and UBSan, and
# fuzz each one for a bounded time:
#   devtools/fuzz.sh [SECONDS] [TARGET...]     (default: 60 s, every target)
# Targets: rhashtable (table operations against a model), parse
# (dpdk-flowpmd's frame parser). Each target runs for SECONDS.
# The build directory is FUZZ_BUILD_DIR (default: build-fuzz). The whole
# tree is built with -fsanitize=fuzzer-no-link so that the library, not just
# the harness, guides the fuzzer. Inputs found go to a scratch corpus
# (FUZZ_WORK, default: $build/fuzz-work/<target>); the repository corpus in
# test/fuzz/corpus/<target>/ seeds it and is never written. A crash leaves
# crash-* files in the work directory: copy the input into the repository
# corpus, it becomes a regression input of the fast-tests suite.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$top/build-fuzz}
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-rhashtable parse}

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$top" -Db_sanitize=address,undefined \
		-Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link \
		-Dexamples=false -Dbenchmarks=disabled >&2
fi
for t in $targets; do
	ninja -C "$build" -j2 "test/fuzz/fuzz_$t" >&2
done

status=0
for t in $targets; do
	work=${FUZZ_WORK:-$build/fuzz-work}/$t
	mkdir -p "$work/corpus"
	echo "fuzz_$t: ${seconds} s, corpus $work/corpus" >&2
	# the EAL memory lives outside libc malloc: only libc leaks are checked
	(cd "$work" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$build/test/fuzz/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 \
		-timeout=20 -rss_limit_mb=4096 \
		corpus "$top/test/fuzz/corpus/$t") || status=$?
done
exit $status
