#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Debian packaging test: build librte-rhashtable0 and librte-rhashtable-dev
# with devtools/build-deb.sh (out of tree), check their contents, unpack both
# into a scratch root with dpkg -x (nothing is installed on the machine) and
# build test/install_app/app.c against that root with pkg-config
# (PKG_CONFIG_SYSROOT_DIR), shared and with the static archive, then run it.
#
# Usage: test_debian_pkg.sh <source root> [DEB_DIR]
#   DEB_DIR: check the .deb files already there instead of building them.
# Exit 77 (skipped) when dpkg-buildpackage or debhelper is missing.

set -eu

src=$(realpath "$1")
work=$(mktemp -d /tmp/rht-debtest.XXXXXX)
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
eal_pfx=$(eal_prefix rht_debpkg)
trap 'rm -rf "$work"; remove_eal_runtime_dir "$eal_pfx"' EXIT INT TERM
root=$work/root
cc=${CC:-cc}
expected='rhashtable install OK: 1 42'
eal_args="--no-huge -m 64 --no-pci --no-shconf --file-prefix=$eal_pfx -l 0"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
libdir=usr/lib/$multiarch

fail()
{
	echo "FAIL: $*"
	exit 1
}

if [ $# -ge 2 ]; then
	debs=$(realpath "$2")
else
	if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
		echo "dpkg-buildpackage or debhelper missing (devtools/deps.sh installs them): skipped"
		exit 77
	fi
	debs=$work/debs
	"$src/devtools/build-deb.sh" "$debs" || fail "devtools/build-deb.sh"
fi

version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
runtime=$debs/librte-rhashtable0_${version}_$arch.deb
dev=$debs/librte-rhashtable-dev_${version}_$arch.deb
[ -f "$runtime" ] || fail "no $runtime"
[ -f "$dev" ] || fail "no $dev"

# has_file DEB PATH: the package holds ./PATH (file or symlink)
has_file()
{
	dpkg-deb -c "$1" | awk '{print $6}' | grep -qx "./$2" ||
		fail "$(basename "$1") lacks /$2"
}

has_file "$runtime" "$libdir/librte_rhashtable.so.0"
has_file "$runtime" "usr/share/doc/librte-rhashtable0/copyright"
has_file "$dev" "$libdir/librte_rhashtable.so"
has_file "$dev" "$libdir/librte_rhashtable.a"
has_file "$dev" "$libdir/pkgconfig/librte_rhashtable.pc"
has_file "$dev" "usr/include/rte_rhashtable.h"
has_file "$dev" "usr/include/rte_rhashtable_config.h"
! dpkg-deb -c "$runtime" | grep -q '\.h$' || fail "headers in the runtime package"
! dpkg-deb -c "$dev" | grep -q 'rhashtable_pvt\.h\|rhashtable_debug\.h' ||
	fail "internal headers in the -dev package"
dpkg-deb -f "$runtime" Depends | grep -q 'librte-eal23' ||
	fail "runtime Depends lacks DPDK's EAL: $(dpkg-deb -f "$runtime" Depends)"
dpkg-deb -f "$dev" Depends | grep -q "librte-rhashtable0 (= $version)" ||
	fail "-dev does not depend on the exact runtime version"
echo "package contents OK: $(basename "$runtime") $(basename "$dev")"

dpkg -x "$runtime" "$root"
dpkg -x "$dev" "$root"
soname=$(objdump -p "$root/$libdir/librte_rhashtable.so.0" | awk '/SONAME/ {print $2}')
[ "$soname" = librte_rhashtable.so.0 ] || fail "SONAME $soname does not match the package name"

# pkg-config prefixes the sysroot to every -I/-L, the host's libdpdk ones
# too: link the host directories it names into the scratch root.
overlay_host_dir()
{
	path=
	for comp in $(echo "$1" | tr '/' ' '); do
		[ "$comp" = ".." ] && return 0
		path=$path/$comp
		if [ ! -e "$root$path" ] && [ ! -L "$root$path" ]; then
			ln -s "$path" "$root$path"
			return 0
		fi
	done
}

PKG_CONFIG_PATH=$root/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
pkg-config --exists librte_rhashtable || fail "pkg-config does not find librte_rhashtable"
for d in $(pkg-config --static --cflags-only-I --libs-only-L librte_rhashtable); do
	case $d in
	-I"$root"/* | -L"$root"/*) overlay_host_dir "${d#-?"$root"}" ;;
	esac
done
case $(pkg-config --cflags librte_rhashtable) in
*"$root/usr/include"*) ;;
*) fail "cflags do not point into the scratch root" ;;
esac

run_app()
{
	# shellcheck disable=SC2086 # eal_args is a list of words
	out=$(LD_LIBRARY_PATH="$root/$libdir" "$1" $eal_args 2>"$work/app.err") ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 exited with an error"; }
	echo "$out" | grep -qx "$expected" ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 did not print '$expected'"; }
	echo "$(basename "$1"): $expected"
}

app=$src/test/install_app/app.c
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-shared" "$app" \
	$(pkg-config --cflags --libs librte_rhashtable) || fail "shared build"
LD_LIBRARY_PATH="$root/$libdir" ldd "$work/app-shared" |
	grep -q "$root/$libdir/librte_rhashtable.so.0" ||
	fail "app-shared does not use the packaged librte_rhashtable.so.0"
run_app "$work/app-shared"

# the packaged static archive, with the shared DPDK
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-static" "$app" \
	$(pkg-config --cflags librte_rhashtable) "$root/$libdir/librte_rhashtable.a" \
	$(pkg-config --libs libdpdk numa) || fail "build with librte_rhashtable.a"
! ldd "$work/app-static" | grep -q librte_rhashtable || fail "app-static links the .so"
run_app "$work/app-static"
echo "debian package test passed"
