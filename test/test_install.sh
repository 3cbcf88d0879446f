#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Install test: install the build into a temporary destdir, then build the
# out-of-tree program install_app/app.c against it with nothing but
# pkg-config (shared, then static with pkg-config --static) and run it.
#
# Usage: test_install.sh <builddir> <install_app dir>
#
# The destdir is used as PKG_CONFIG_SYSROOT_DIR. pkg-config prefixes the
# sysroot to the paths of every package, the host's libdpdk included, so the
# host directories that libdpdk and libnuma name (/usr/include/dpdk, ...) are
# linked into the destdir: it then looks like a sysroot holding the host's
# DPDK plus this project's install.

set -eu

builddir=$(realpath "$1")
appdir=$(realpath "$2")
cc=${CC:-cc}
work=$(mktemp -d /tmp/rht-install.XXXXXX)
dest=$work/dest
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
eal_pfx=$(eal_prefix rht_install)
trap 'rm -rf "$work"; remove_eal_runtime_dir "$eal_pfx"' EXIT INT TERM
expected='rhashtable install OK: 1 42'
eal_args="--no-huge -m 64 --no-pci --no-shconf --file-prefix=$eal_pfx -l 0"

fail() {
	echo "FAIL: $*"
	exit 1
}

# Link the first missing component of host directory $1 into the destdir.
# When the whole directory is there already (the install put a file below
# it, e.g. the shared PMD into a DPDK's lib/dpdk/pmds-XX), link the host
# directory's entries that it lacks.
overlay_host_dir() {
	path=
	for comp in $(echo "$1" | tr '/' ' '); do
		[ "$comp" = ".." ] && return 0
		path=$path/$comp
		if [ ! -e "$dest$path" ] && [ ! -L "$dest$path" ]; then
			ln -s "$path" "$dest$path"
			return 0
		fi
	done
	[ -d "$path" ] && [ ! -L "$dest$path" ] || return 0
	for f in "$path"/*; do
		[ -e "$dest$path/${f##*/}" ] || ln -s "$f" "$dest$path/"
	done
}

meson install -C "$builddir" --no-rebuild --destdir "$dest" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "meson install"; }

pc=$(find "$dest" -name librte_rhashtable.pc | head -n 1)
[ -n "$pc" ] || fail "librte_rhashtable.pc not installed"
hdr=$(find "$dest" -name rte_rhashtable.h | head -n 1)
[ -n "$hdr" ] || fail "rte_rhashtable.h not installed"
[ -z "$(find "$dest" -name rhashtable_debug.h)" ] || fail "internal header installed"
libdir=$(dirname "$(find "$dest" -name 'librte_rhashtable.so*' | head -n 1)")
echo "installed: $pc"

PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

pkg-config --exists librte_rhashtable || fail "pkg-config does not find librte_rhashtable"
for d in $(pkg-config --static --cflags-only-I --libs-only-L librte_rhashtable); do
	case $d in
	-I"$dest"/* | -L"$dest"/*) overlay_host_dir "${d#-?"$dest"}" ;;
	esac
done
cflags=$(pkg-config --cflags librte_rhashtable)
case $cflags in
*"$dest"*) ;;
*) fail "cflags do not point into the destdir: $cflags" ;;
esac

run_app() {
	# shellcheck disable=SC2086
	out=$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$1" $eal_args 2>"$work/app.err") ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 exited with an error"; }
	echo "$out" | grep -qx "$expected" ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 did not print '$expected'"; }
	echo "$(basename "$1"): $expected"
}

# shared
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-shared" "$appdir/app.c" \
	$(pkg-config --cflags --libs librte_rhashtable) || fail "shared build"
LD_LIBRARY_PATH="$libdir" ldd "$work/app-shared" | grep -q "$libdir/librte_rhashtable.so" ||
	fail "app-shared does not use the installed librte_rhashtable.so"
run_app "$work/app-shared"

# static: pkg-config --static names librte_rhashtable.a (whole) and DPDK's
# own archives ahead of the shared libraries, which --as-needed then leaves
# out: no shared DPDK library may end up in the program
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-static" "$appdir/app.c" \
	$(pkg-config --static --cflags --libs librte_rhashtable) ||
	fail "static build (Debian's static libdpdk.pc needs libsystemd-dev: devtools/deps.sh)"
! ldd "$work/app-static" | grep 'librte_' ||
	fail "app-static links a shared DPDK library (above)"
run_app "$work/app-static"
echo "install test passed"
