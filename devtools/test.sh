#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# The project's test command, on a fresh machine or an old one: install what
# is missing, build (docs included), run the fast test suite, run it again
# in an AddressSanitizer + UBSan build, where the concurrency suites' short
# variants check for use-after-free and data-race fallout, then fuzz for a
# bounded time. CI (.ci/run) calls exactly this.
#
# Usage: devtools/test.sh [SUITE]   (default: fast-tests; also perf-tests,
#                                    stress-tests: those skip the ASan pass)
# Env:   RHT_EAL_LOCK=FILE  run each meson test under flock FILE (a machine
#                           shared with other test runs; unset: no lock)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:-fast-tests}
passed=0
failed=0

# Run one meson test invocation, add its counts to the totals, and stop
# with the closing line at the first failure.
count_tests()
{
	log=$(mktemp)
	rc=0
	${RHT_EAL_LOCK:+flock "$RHT_EAL_LOCK"} "$@" >"$log" 2>&1 || rc=$?
	cat "$log"
	passed=$((passed + $(awk '/^Ok:/ {n = $2} END {print n + 0}' "$log")))
	failed=$((failed + $(awk '/^(Fail|Timeout):/ {n += $2} END {print n + 0}' "$log")))
	rm -f "$log"
	if [ "$rc" -ne 0 ]; then
		[ "$failed" -gt 0 ] || failed=1
		echo "tests: $passed passed, $failed failed"
		exit "$rc"
	fi
}
build=${BUILD_DIR:-$top/build}
asan_build=${ASAN_BUILD_DIR:-$top/build-asan}

# EAL runtime directories and hugepage files a run leaves behind fail it.
# The test programs put this word in their --file-prefix (the test and
# bench programs with rht_eal_tag_file_prefix() of common/, the scripts
# with eal_prefix() of test/flowpmd_testlib.py and test/eal_runtime.sh), so
# that only this run's are counted in /var/run/dpdk and the hugetlbfs
# mounts, where other runs of the suite on the machine create theirs
# meanwhile; meson test points EAL at the build directory
# (RUNTIME_DIRECTORY), where every new entry is this run's. Short (15
# characters at most), as EAL's socket paths under the prefix must fit a
# sockaddr_un.
RHT_EAL_TAG=$(printf 'r%x%x' $$ "$(date +%s)")
export RHT_EAL_TAG

# shellcheck source=test/eal_runtime.sh
. "$top/test/eal_runtime.sh"

eal_dir_entries()
{
	[ -d "$1/dpdk" ] && ls -A "$1/dpdk"
	return 0
}

# check_eal_leftovers BUILD BEFORE: BEFORE lists BUILD/dpdk before the run
check_eal_leftovers()
{
	left=$(eal_dir_entries "$1" | sort | comm -13 "$2" - | sed "s|^|$1/dpdk/|")
	for d in /var/run/dpdk /tmp/dpdk "${XDG_RUNTIME_DIR:-/tmp}/dpdk"; do
		[ -d "$d" ] || continue
		left="$left
$(find "$d" -mindepth 1 -maxdepth 1 -name "*$RHT_EAL_TAG*")"
	done
	# and the hugepage files of memory a program did not free: EAL removes
	# them only when a later run takes the same prefix, which no tagged run does
	left="$left
$(hugetlbfs_mounts | while read -r d; do
		find "$d" -mindepth 1 -maxdepth 1 -name "*${RHT_EAL_TAG}map_*"
	done)"
	left=$(echo "$left" | sed '/^$/d' | sort -u)
	rm -f "$2"
	[ -z "$left" ] && return 0
	echo "EAL runtime directories and hugepage files left behind by the tests:"
	echo "$left"
	echo "tests: $passed passed, $((failed + 1)) failed"
	exit 1
}

# run_suite BUILD MESON-TEST-ARGS...: count_tests, then the leftover check
run_suite()
{
	suite_build=$1
	shift
	before=$(mktemp)
	eal_dir_entries "$suite_build" | sort >"$before"
	count_tests meson test -C "$suite_build" "$@"
	check_eal_leftovers "$suite_build" "$before"
}

"$top/devtools/deps.sh"
# the docs too: their test (docs-warnings) fails on any Sphinx or Doxygen warning
"$top/devtools/build.sh" -Denable_docs=true
run_suite "$build" --suite "$suite" --print-errorlogs --num-processes 1

if [ "$suite" != fast-tests ]; then
	echo "tests: $passed passed, $failed failed"
	exit 0
fi
echo "==== $suite under AddressSanitizer + UndefinedBehaviorSanitizer ===="
BUILD_DIR=$asan_build "$top/devtools/build.sh" -Db_sanitize=address,undefined \
	-Db_lundef=false -Dbenchmarks=disabled
# halt on the first UBSan report too, so that a report fails the test
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_suite "$asan_build" --suite "$suite" --no-suite install \
	--print-errorlogs --num-processes 1

# bounded fuzzing of the table operations and the packet parser (clang,
# ASan + UBSan), after their seed corpora (and every crash input added to
# them since) as regression tests
echo "==== libFuzzer, ${RHT_FUZZ_SECONDS:-30} s per target ===="
fuzz_build=${FUZZ_BUILD_DIR:-$top/build-fuzz}
FUZZ_BUILD_DIR=$fuzz_build "$top/devtools/fuzz.sh" "${RHT_FUZZ_SECONDS:-30}" || {
	echo "tests: $passed passed, $((failed + 1)) failed"
	exit 1
}
run_suite "$fuzz_build" --no-rebuild fuzz_rhashtable_corpus \
	fuzz_parse_corpus --print-errorlogs
echo "tests: $passed passed, $failed failed"
