#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Meson subproject test: copy the tiny application project beside this
# script to a scratch directory, link the rte_rhashtable source tree in as
# subprojects/rte_rhashtable (no network, no wrap download), configure it
# with the subproject's tests, apps, examples, benchmarks and docs off,
# build it and run the application.
#
# Usage: test_subproject.sh <rte_rhashtable source root>

set -eu

src=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d /tmp/rht-subproject.XXXXXX)
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/../eal_runtime.sh"
eal_pfx=$(eal_prefix rht_subproject)
trap 'rm -rf "$work"; remove_eal_runtime_dir "$eal_pfx"' EXIT INT TERM
eal_args="--no-huge -m 64 --no-pci --no-shconf --file-prefix=$eal_pfx -l 0"
expected='^rhashtable app OK: 1000 1000 [0-9][0-9.]*$'

fail()
{
	echo "FAIL: $*"
	exit 1
}

# run "what" cmd...: quiet on success, the log on failure
run()
{
	what=$1
	shift
	"$@" >"$work/$what.log" 2>&1 || { tail -n 40 "$work/$what.log"; fail "$what"; }
}

mkdir "$work/app" "$work/app/subprojects"
cp "$here/meson.build" "$here/app.c" "$work/app/"
ln -s "$src" "$work/app/subprojects/rte_rhashtable"

run setup meson setup "$work/build" "$work/app" \
	--force-fallback-for=librte_rhashtable \
	-Drte_rhashtable:tests=false -Drte_rhashtable:apps=false \
	-Drte_rhashtable:examples=false -Drte_rhashtable:benchmarks=disabled \
	-Drte_rhashtable:enable_docs=false
grep -q "Subproject rte_rhashtable finished" "$work/setup.log" ||
	fail "rte_rhashtable was not configured as a subproject"
run build ninja -C "$work/build" -j2
echo "built $work/build/rht-subproject-app with subproject rte_rhashtable"

# shellcheck disable=SC2086
out=$("$work/build/rht-subproject-app" $eal_args 2>"$work/app.err") ||
	{ cat "$work/app.err"; echo "$out"; fail "the application exited with an error"; }
echo "$out" | grep -Eq "$expected" ||
	{ cat "$work/app.err"; echo "$out"; fail "no line matching '$expected'"; }
echo "$out" | grep -E "$expected"
ldd "$work/build/rht-subproject-app" | grep -q "$work/build/subprojects/rte_rhashtable/" ||
	fail "the application does not use the subproject's librte_rhashtable"
echo "subproject test passed"
