#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Install test: install the build into a temporary destdir, then build the
# out-of-tree program subproject/app.c against it with nothing but
# pkg-config (shared, then static with pkg-config --static) and run it.
#
# Usage: test_install.sh <builddir> <user program app.c>
#
# The destdir is used as PKG_CONFIG_SYSROOT_DIR. pkg-config prefixes the
# sysroot to the paths of every package, the host's libdpdk included, so the
# host directories that libdpdk and libnuma name (/usr/include/dpdk, ...) are
# linked into the destdir: it then looks like a sysroot holding the host's
# DPDK plus this project's install.

set -eu

builddir=$(realpath "$1")
app=$(realpath "$2")
cc=${CC:-cc}
work=$(mktemp -d /tmp/rht-install.XXXXXX)
dest=$work/dest
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
# shellcheck source=test/sysroot_app.sh
. "$(dirname "$0")/sysroot_app.sh"
eal_pfx=$(eal_prefix rht_install)
trap 'rm -rf "$work"; remove_eal_runtime_dir "$eal_pfx"' EXIT INT TERM
eal_args="--no-huge -m 64 --no-pci --no-shconf --file-prefix=$eal_pfx -l 0"

fail() {
	echo "FAIL: $*"
	exit 1
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

sysroot_pkg_config "$dest" "$(dirname "$pc")"

# shared
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-shared" "$app" \
	$(pkg-config --cflags --libs librte_rhashtable) || fail "shared build"
LD_LIBRARY_PATH="$libdir" ldd "$work/app-shared" | grep -q "$libdir/librte_rhashtable.so" ||
	fail "app-shared does not use the installed librte_rhashtable.so"
run_user_app "$work/app-shared" "$libdir"

# static: pkg-config --static names librte_rhashtable.a (whole) and DPDK's
# own archives ahead of the shared libraries, which --as-needed then leaves
# out: no shared DPDK library may end up in the program
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-static" "$app" \
	$(pkg-config --static --cflags --libs librte_rhashtable) ||
	fail "static build (Debian's static libdpdk.pc needs libsystemd-dev: devtools/deps.sh)"
! ldd "$work/app-static" | grep 'librte_' ||
	fail "app-static links a shared DPDK library (above)"
run_user_app "$work/app-static" "$libdir"
echo "install test passed"
