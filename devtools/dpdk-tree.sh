#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# The library as a library of DPDK itself, from this repository:
#
#   devtools/dpdk-tree.sh DPDK_TARBALL_OR_SOURCE_DIR [PATCH_OUT_DIR]
#
# 1. makes a patch series against that DPDK release in a scratch git clone of
#    it (lib/rhashtable, the autotests in app/test, the guide), written with
#    git format-patch to PATCH_OUT_DIR (default: <cache>/patches);
# 2. builds that DPDK with the series applied and runs the library's fast
#    autotests in dpdk-test, as DPDK's CI does (DPDK_TEST=<name> dpdk-test),
#    then DPDK's `meson test --suite fast-tests` filtered to them;
# 3. runs the checks of DPDK maintainers that work offline: chkincs on the
#    library's headers (-Dcheck_includes=true), check-symbol-maps.sh (DPDKs
#    with version.map files), check-doc-vs-code.sh, checkpatches.sh (the
#    kernel's checkpatch.pl, from Debian's linux-source-6.1) and
#    check-git-log.sh on the series.
#
# It prints every failure and ends with the line `tests: N passed, N failed` of
# the dpdk-test part; the exit status is non-zero if a test or a check failed.
# The series is signed off by RHT_DPDK_AUTHOR_NAME <RHT_DPDK_AUTHOR_EMAIL>
# (default: Rhashtable Authors <maintainers@rhashtable.example>), who also
# goes into MAINTAINERS and .mailmap: set them to whoever submits it.
#
# The DPDK build is kept in a cache keyed by version and tarball checksum,
#   ${RHT_DPDK_TREE_CACHE:-/var/cache/rhashtable/dpdk-tree}/<version>-<sha16>/
# (src/ the tree that is built, build/ the meson build, git/ the pristine
# release as a git repository, series/ its scratch clone): later runs lay the
# library again, copying only the files that changed, and ninja rebuilds what
# depends on them. Set RHT_DPDK_TREE_CACHE to move it.
set -eu
export LC_ALL=C.UTF-8

top=$(cd "$(dirname "$0")/.." && pwd)
lay="$top/devtools/dpdk-tree-lay.py"
# DPDK's build needs python3 with elftools: Debian's, not a pyenv one first in PATH
export PATH=/usr/bin:/bin:$PATH

usage() {
	echo "usage: $0 DPDK_TARBALL_OR_SOURCE_DIR [PATCH_OUT_DIR]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
input=$1
[ -e "$input" ] || { echo "dpdk-tree: $input: no such file or directory" >&2; exit 2; }

# the Debian packages this script needs (listed in devtools/deps.sh as well)
"$top/devtools/deps.sh" >&2

step() { printf '\n=== %s\n' "$*"; }
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# ---- the cache entry of this DPDK release

if [ -d "$input" ]; then
	version=$(cat "$input/VERSION")
	# a directory is keyed by the checksum of its files
	sum=$(cd "$input" && find . -type f ! -path './.git/*' -print0 | sort -z |
		xargs -0 sha256sum | sha256sum | cut -c1-16)
else
	sum=$(sha256sum "$input" | cut -c1-16)
	version=$(tar -xOf "$input" --wildcards '*/VERSION' | head -1)
fi
cache=${RHT_DPDK_TREE_CACHE:-/var/cache/rhashtable/dpdk-tree}/$version-$sum
out=$(mkdir -p "${2:-$cache/patches}" && cd "${2:-$cache/patches}" && pwd)
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9  # one run per cache entry at a time

# author of the series (and its MAINTAINERS and .mailmap entries)
export RHT_DPDK_AUTHOR_NAME=${RHT_DPDK_AUTHOR_NAME:-Rhashtable Authors}
export RHT_DPDK_AUTHOR_EMAIL=${RHT_DPDK_AUTHOR_EMAIL:-maintainers@rhashtable.example}
git_q() { git -c user.name="$RHT_DPDK_AUTHOR_NAME" -c user.email="$RHT_DPDK_AUTHOR_EMAIL" "$@"; }

# (.rht-done2: the release's files all committed, those its .gitignore names too)
if [ ! -f "$cache/git/.rht-done2" ]; then
	step "unpacking DPDK $version into $cache/git"
	rm -rf "$cache/git" "$cache/series"
	mkdir -p "$cache/git"
	if [ -d "$input" ]; then
		(cd "$input" && tar --exclude=./.git -cf - .) | tar -xf - -C "$cache/git"
	else
		tar -xf "$input" -C "$cache/git" --strip-components=1
	fi
	(cd "$cache/git" && git init -q && git_q add -A -f &&
		GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git_q commit -q -m "DPDK $version" && git tag base)
	touch "$cache/git/.rht-done2"
fi

# ---- the patch series, in a scratch clone

step "patch series against DPDK $version"
if [ ! -d "$cache/series/.git" ]; then
	git clone -q "$cache/git" "$cache/series"
fi
series=$cache/series
git -C "$series" fetch -q origin tag base
git -C "$series" checkout -q -f -B rhashtable base
git -C "$series" clean -q -fdx

commit() { # <subject> <body>
	git -C "$series" add -A
	git_q -C "$series" commit -q -s -m "$1" -m "$2"
}
python3 "$lay" lib "$top" "$series"
commit "rhashtable: add resizable hash table library" \
"Add a hash table that grows and shrinks online, after the Linux kernel's
rhashtable: lookups take no lock and never miss a present key while a
DPDK service moves objects to a bucket array of twice or half the size,
one chain at a time. Objects embed their link (intrusive table), removed
objects and old bucket arrays are reclaimed through RCU QSBR, bulk
lookups are pipelined over the burst, and telemetry reports every table.

The API is experimental."
python3 "$lay" test "$top" "$series"
commit "test/rhashtable: add autotests" \
"Add unit tests of the resizable hash table: lookups, inserts and
removals against a model, resizes and reseeds, walks across rehashes,
RCU reclamation, duplicate keys (rhltable), bad input, allocation
failures, hash flooding and concurrent stress. Most are fast tests; the
long stress runs are in the stress suite, the comparisons with rte_hash
in the perf suite."
python3 "$lay" doc "$top" "$series"
commit "doc: add resizable hash table guide" \
"Describe the design of the resizable hash table (chained bucket arrays,
bucket words, the rehash worker), its concurrency rules and how to use
it with RCU QSBR, with a service lcore and from several processes."

rm -f "$out"/*.patch
git -C "$series" format-patch -q -o "$out" base..rhashtable
echo "$(ls "$out"/*.patch | wc -l) patches in $out"

# ---- the tree that is built: the series' files copied when they changed

step "laying the library into $cache/src"
if [ ! -d "$cache/src" ]; then
	cp -a "$cache/git" "$cache/src"
	rm -rf "$cache/src/.git" "$cache/src/.rht-done2"
fi
laid=$(git -C "$series" diff --name-only base rhashtable)
# files a previous run laid and this one does not: back to the release's
if [ -f "$cache/laid.list" ]; then
	for f in $(cat "$cache/laid.list"); do
		echo "$laid" | grep -qx "$f" && continue
		if git -C "$series" cat-file -e "base:$f" 2>/dev/null; then
			git -C "$series" show "base:$f" > "$cache/src/$f"
		else
			rm -f "$cache/src/$f"
		fi
	done
fi
copied=0
for f in $laid; do
	if ! cmp -s "$series/$f" "$cache/src/$f"; then
		mkdir -p "$(dirname "$cache/src/$f")"
		cp "$series/$f" "$cache/src/$f"
		copied=$((copied + 1))
	fi
done
echo "$laid" > "$cache/laid.list"
echo "$copied files changed since the last build"

# ---- build: dpdk-test and the library's header checks

step "building DPDK $version with the library (cache $cache/build)"
# Only what dpdk-test needs for the library's tests: the mandatory libraries
# (enable_libs lists the optional ones), the vdev bus and ring mempool.
build=$cache/build
options="-Dwerror=true -Dcheck_includes=true -Denable_apps=test -Denable_libs=rhashtable
	-Denable_drivers=bus/vdev,mempool/ring -Dtests=true"
# shellcheck disable=SC2086
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$cache/src" $options > "$cache/setup.log" 2>&1 ||
		{ tail -30 "$cache/setup.log"; exit 1; }
elif [ "$(cat "$cache/options" 2>/dev/null)" != "$options" ]; then
	meson configure "$build" $options > "$cache/setup.log" 2>&1 ||
		{ tail -30 "$cache/setup.log"; exit 1; }
fi
echo "$options" > "$cache/options"
start=$(date +%s)
if ! ninja -C "$build" app/dpdk-test > "$cache/ninja.log" 2>&1; then
	grep -B5 -A20 "FAILED\|error:" "$cache/ninja.log" | head -80
	echo "dpdk-test did not build (log: $cache/ninja.log)"
	echo "tests: 0 passed, 1 failed"
	exit 1
fi
echo "dpdk-test built in $(($(date +%s) - start)) s"

# ---- the library's fast autotests, one dpdk-test run each

step "fast autotests in dpdk-test"
# Six lcores floating on CPUs 0 and 1: the concurrent tests pick their
# roles from the lcore count and want at least three; the others use one.
# The EAL lock of this machine's CI (/tmp/rht-eal.lock) is held once for all
# the DPDK programs of this part (a minute or two), not taken per test.
tests=$(python3 "$lay" fast-tests "$top")
passed=0
failed=0
skipped=0
exec 8>/tmp/rht-eal.lock
# run as `flock /tmp/rht-eal.lock devtools/dpdk-tree.sh ...`, a caller holds it already
eal_lock_held_above() {
	ino=$(stat -c %i /tmp/rht-eal.lock)
	holders=$(awk -v ino="$ino" '$2 == "FLOCK" && $6 ~ (":" ino "$") { print $5 }' /proc/locks)
	p=$PPID
	while [ "${p:-1}" -gt 1 ]; do
		case " $(echo $holders) " in *" $p "*) return 0 ;; esac
		p=$(ps -o ppid= -p "$p" | tr -d ' ')
	done
	return 1
}
flock -n 8 || eal_lock_held_above || flock 8
# EAL leaves a runtime directory per file prefix behind (rte_eal_cleanup()
# keeps it), in /var/run/dpdk unless RUNTIME_DIRECTORY says where: the
# part's own, removed once the part is done, so that no run adds 60 of them
# to the machine's
RUNTIME_DIRECTORY=$(mktemp -d /tmp/rht-tree-eal.XXXXXX)
export RUNTIME_DIRECTORY
for t in $tests; do
	log=$cache/dpdk-test-$t.log
	rc=0
	env DPDK_TEST=$t timeout 300 "$build/app/dpdk-test" \
		--no-huge -m 2048 --lcores='(0-5)@(0,1)' --file-prefix=rht_tree_$t \
		> "$log" 2>&1 < /dev/null || rc=$?
	case $rc in
	0)
		echo "ok    $t"
		passed=$((passed + 1)) ;;
	77)
		echo "SKIP  $t (log: $log)"
		skipped=$((skipped + 1)) ;;
	*)
		echo "FAIL  $t, exit $rc (log: $log)"
		tail -15 "$log"
		failed=$((failed + 1)) ;;
	esac
done

# DPDK's CI runs the fast suite with a timeout multiplier of 3 (10 s each)
step "meson test --suite fast-tests -t 3, the library's tests"
# shellcheck disable=SC2086
if meson test -C "$build" --no-rebuild --suite fast-tests \
	--num-processes 1 -t 3 $tests > "$cache/meson-test.log" 2>&1; then
	grep -E "^ *[0-9]+/[0-9]+ " "$cache/meson-test.log" || true
	grep -E "^(Ok|Fail|Timeout):" "$cache/meson-test.log"
else
	grep -E "^ *[0-9]+/[0-9]+ " "$cache/meson-test.log" || true
	fail "meson test (log: $cache/meson-test.log)"
fi
rm -rf "$RUNTIME_DIRECTORY"
unset RUNTIME_DIRECTORY

flock -u 8

# ---- DPDK's checks

step "chkincs: the library's headers alone, in C and C++"
targets=$(ninja -C "$build" -t targets all 2>/dev/null |
	grep -oE '^buildtools/chkincs/[^:]*rte_rhashtable[^:]*\.o' || true)
[ -n "$targets" ] || fail "chkincs: no target for the library's headers"
: > "$cache/chkincs.log"
for target in $targets; do
	# chkincs (C), -exp (experimental API), -all (internal too), -cpp-*: C++
	variant=$(echo "$target" | cut -d/ -f3 | sed 's/\.p$//')
	if ninja -C "$build" "$target" >> "$cache/chkincs.log" 2>&1; then
		echo "ok    $variant"
	else
		echo "FAIL  $variant"
		fail "$variant on the library's headers (log: $cache/chkincs.log)"
	fi
done
grep -m 3 -A6 "error:" "$cache/chkincs.log" || true

if [ -x "$series/devtools/check-symbol-maps.sh" ]; then
	step "check-symbol-maps.sh"
	(cd "$series" && devtools/check-symbol-maps.sh) || fail "check-symbol-maps.sh"
else
	step "check-symbol-maps.sh: not in DPDK $version (maps generated from the sources)"
fi

step "check-doc-vs-code.sh"
(cd "$series" && devtools/check-doc-vs-code.sh base) || fail "check-doc-vs-code.sh"

step "checkpatches.sh on the series"
checkpatch=$("$top/devtools/get-checkpatch.sh")
# codespell's dictionaries as DPDK's devtools/build-dict.sh combines them
# (without the two-letter entries that flag DPDK's names, "te" and so on)
dict=$(dirname "$checkpatch")/dpdk-dictionary.txt
codespell_py=$(python3 -c 'import codespell_lib, os; print(os.path.dirname(os.path.dirname(codespell_lib.__file__)))')
"$series/devtools/build-dict.sh" "$codespell_py" > "$dict"
if ! (cd "$series" && DPDK_CHECKPATCH_PATH=$checkpatch DPDK_CHECKPATCH_CODESPELL=$dict \
	devtools/checkpatches.sh "$out"/*.patch); then
	fail "checkpatches.sh"
fi

step "check-git-log.sh on the series"
(cd "$series" && devtools/check-git-log.sh -r base..rhashtable) || fail "check-git-log.sh"

step "summary"
[ $failures -eq 0 ] && echo "checks: all clean" || echo "checks: $failures failed"
echo "dpdk-test: $skipped skipped"
echo "tests: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $failures -eq 0 ]
