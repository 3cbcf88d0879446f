#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Build and test the project against DPDK releases built from their release
# tarballs, the way a user who builds DPDK from source would:
#  1. check each tarball against the SHA256SUMS file beside it;
#  2. build DPDK once (meson + ninja install, driver SDK headers included,
#     only the drivers the project uses) into a cache outside the clone,
#     keyed by version and checksum, and reuse it on later runs;
#  3. configure this project against it through PKG_CONFIG_PATH, with
#     -Dwerror=true, build it and run its fast suite.
# One line per version with its pass/fail counts, then the closing line
# "tests: N passed, N failed" over all versions.
#
# Usage: devtools/test-dpdk-versions.sh [--dpdk-only] TARBALL...
#   --dpdk-only   build (or find) the DPDK caches and stop
# Env:
#   RHT_DPDK_CACHE      DPDK cache root (default /var/cache/rhashtable/dpdk);
#                       each release in <version>-<first 16 hex of sha256>/
#                       with src/, build/, prefix/ and a .complete stamp
#   RHT_DPDK_PLATFORM   DPDK's -Dplatform (default generic, as distributions
#                       build it, so the cache runs on any x86-64 and the
#                       figures compare with Debian's 22.11)
#   RHT_BUILD_ROOT      where the project build dirs go (default: the
#                       clone's top; build-dpdk-<version>/ is gitignored)
#   RHT_SUITE           meson test suite to run (default fast-tests)
#   RHT_EAL_LOCK        run each meson test under flock on this file (a
#                       machine shared with other test runs; unset: no lock)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache_root=${RHT_DPDK_CACHE:-/var/cache/rhashtable/dpdk}
platform=${RHT_DPDK_PLATFORM:-generic}
build_root=${RHT_BUILD_ROOT:-$top}
suite=${RHT_SUITE:-fast-tests}

# What the project's programs and tests use: the vdev bus and net_flowgen's
# base, the default (ring) mempool, and the PMDs the tests and flowpmd's
# documented port setups start (test/*.py, devtools/run.sh).
dpdk_drivers=bus/vdev,mempool/ring,net/null,net/ring,net/pcap,net/tap,net/af_packet
# Of the optional libraries, only what those drivers need (net/tap: gso); the
# mandatory ones (eal, ethdev, hash, rcu, telemetry, cmdline...) are always
# built and are all the project uses. This halves DPDK's build time.
dpdk_libs=gso

# shellcheck source=devtools/common.sh
. "$(dirname "$0")/common.sh"

usage()
{
	echo "usage: $0 [--dpdk-only] TARBALL..." >&2
	exit 2
}

# Print the tarball's sha256 once it matches its SHA256SUMS entry.
verify_tarball()
{
	tarball=$1
	sums=$(dirname "$tarball")/SHA256SUMS
	name=$(basename "$tarball")
	[ -f "$sums" ] || die "$sums not found: cannot check $name"
	want=$(awk -v f="$name" '$2 == f || $2 == "*" f {print $1}' "$sums")
	[ -n "$want" ] || die "$name has no entry in $sums"
	have=$(sha256sum "$tarball" | cut -d' ' -f1)
	[ "$have" = "$want" ] ||
		die "$name: sha256 $have does not match $sums ($want)"
	echo "$have"
}

# dpdk-25.11.2.tar.xz -> 25.11.2
tarball_version()
{
	v=$(basename "$1")
	v=${v#dpdk-}
	v=${v%.tar.*}
	case $v in
	[0-9]*.[0-9]*) echo "$v" ;;
	*) die "cannot tell the DPDK version of $1 (want dpdk-X.Y[.Z].tar.*)" ;;
	esac
}

# DPDK's build needs pyelftools (devtools/deps.sh installs Debian's
# python3-pyelftools); when the python3 first in PATH (pyenv, a venv) lacks
# it, put the system's first, through a link in $1 (a subshell's PATH).
use_python_with_elftools()
{
	python3 -c 'import elftools' 2>/dev/null && return 0
	/usr/bin/python3 -c 'import elftools' 2>/dev/null ||
		die "DPDK needs python3 with pyelftools (python3-pyelftools)"
	mkdir -p "$1/python"
	ln -sf /usr/bin/python3 "$1/python/python3"
	PATH=$1/python:$PATH
	log "python3 in PATH lacks pyelftools: using /usr/bin/python3"
}

# Unpack, configure, build and install one DPDK into $1 (its cache dir).
build_dpdk()
{
	dir=$1
	tarball=$2
	version=$3
	rm -rf "$dir/src" "$dir/build" "$dir/prefix" "$dir/python" "$dir/.complete"
	mkdir -p "$dir/src" || die "cannot create $dir/src"
	tar -xf "$tarball" -C "$dir/src" --strip-components=1 ||
		die "cannot unpack $tarball"
	[ "$(cat "$dir/src/VERSION")" = "$version" ] ||
		die "$tarball unpacks DPDK $(cat "$dir/src/VERSION"), not $version"
	use_python_with_elftools "$dir"
	start=$(date +%s)
	log "building DPDK $version in $dir (log: $dir/build.log)"
	if ! {
		meson setup "$dir/build" "$dir/src" --prefix="$dir/prefix" \
			--libdir=lib --buildtype=release \
			-Dplatform="$platform" -Denable_driver_sdk=true \
			-Denable_libs="$dpdk_libs" \
			-Denable_drivers="$dpdk_drivers" -Ddisable_apps='*' \
			-Dtests=false -Dexamples= -Denable_docs=false &&
		ninja -C "$dir/build" install
	} >"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		die "DPDK $version build failed, see $dir/build.log"
	fi
	secs=$(($(date +%s) - start))
	printf 'version=%s\nplatform=%s\nseconds=%s\n' \
		"$version" "$platform" "$secs" >"$dir/.complete"
	log "DPDK $version built in ${secs} s"
}

# Print the install prefix of the DPDK in $1, building it on a cache miss.
# A cache dir without the stamp is a build that did not finish: redone.
# The per-release lock keeps two runs from building the same one at once.
dpdk_prefix()
{
	tarball=$1
	version=$(tarball_version "$tarball")
	sha=$(verify_tarball "$tarball")
	dir=$cache_root/$version-$(echo "$sha" | cut -c1-16)
	mkdir -p "$cache_root" || die "cannot create $cache_root"
	(
		flock 9
		if [ -f "$dir/.complete" ] &&
		   [ -f "$dir/prefix/lib/pkgconfig/libdpdk.pc" ]; then
			log "DPDK $version: cached in $dir"
		else
			build_dpdk "$dir" "$tarball" "$version"
		fi
	) 9>"$dir.lock" >&2 || return 1
	echo "$dir/prefix"
}

# meson test's summary counts, from its log in $1
count()
{
	awk -v re="$2" '$0 ~ re {n += $2} END {print n + 0}' "$1"
}

passed=0
failed=0
results=

# Add one version's counts to the totals and its line to the summary.
record()
{
	passed=$((passed + $2))
	failed=$((failed + $3))
	results="${results}DPDK $1: $2 passed, $3 failed${4:+ ($4)}
"
}

# Configure, build and test the project against the DPDK in prefix $2.
test_version()
{
	version=$1
	bdir=$build_root/build-dpdk-$version
	blog=$bdir/test-dpdk-versions.build.log
	tlog=$bdir/test-dpdk-versions.test.log
	pc_path=$2/lib/pkgconfig
	ld_path=$2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	# a build dir configured with another build of this version starts over
	if [ "$(cat "$bdir/.dpdk-prefix" 2>/dev/null)" != "$2" ]; then
		rm -rf "$bdir"
	fi
	mkdir -p "$bdir"
	echo "$2" >"$bdir/.dpdk-prefix"
	: >"$blog"
	if [ ! -f "$bdir/build.ninja" ] && ! PKG_CONFIG_PATH=$pc_path \
		meson setup "$bdir" "$top" -Dwerror=true >>"$blog" 2>&1; then
		tail -n 60 "$blog"
		record "$version" 0 1 "configure failed, see $blog"
		return
	fi
	if ! PKG_CONFIG_PATH=$pc_path ninja -C "$bdir" >>"$blog" 2>&1; then
		grep -E -B2 -A8 'error:|FAILED' "$blog" | head -n 80
		record "$version" 0 1 "build failed, see $blog"
		return
	fi
	rc=0
	# the install tests build programs against the DPDK in use, with pkg-config
	PKG_CONFIG_PATH=$pc_path LD_LIBRARY_PATH=$ld_path \
		${RHT_EAL_LOCK:+flock "$RHT_EAL_LOCK"} meson test -C "$bdir" \
		--no-rebuild --suite "$suite" --num-processes 1 \
		--print-errorlogs >"$tlog" 2>&1 || rc=$?
	cat "$tlog"
	ok=$(count "$tlog" '^Ok:')
	bad=$(count "$tlog" '^(Fail|Timeout|Unexpected Pass):')
	[ "$rc" -eq 0 ] || [ "$bad" -gt 0 ] || bad=1
	record "$version" "$ok" "$bad"
}

dpdk_only=false
if [ "${1:-}" = --dpdk-only ]; then
	dpdk_only=true
	shift
fi
[ $# -gt 0 ] || usage

for tarball in "$@"; do
	[ -f "$tarball" ] || die "$tarball: no such file"
	tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
	version=$(tarball_version "$tarball")
	if ! prefix=$(dpdk_prefix "$tarball"); then
		record "$version" 0 1 "DPDK not built, see above"
		continue
	fi
	$dpdk_only && continue
	echo "==== DPDK $version ($prefix) ===="
	test_version "$version" "$prefix"
done

printf '%s' "$results"
$dpdk_only && [ "$failed" -eq 0 ] && exit 0
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
