#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Debian packaging test: build every package with devtools/build-deb.sh (out
# of tree), check their contents and dependencies, run lintian --pedantic on
# them, unpack them into a scratch root with dpkg -x (nothing is installed on
# the machine), build test/subproject/app.c against that root with
# pkg-config (PKG_CONFIG_SYSROOT_DIR), shared and with the static archive,
# and run it; then run the packaged dpdk-flowpmd and dpdk-rhashtable-test
# from the root, and Debian's dpdk-testpmd on the packaged net_flowgen PMD.
#
# Usage: test_debian_pkg.sh <source root> [DEB_DIR]
#   DEB_DIR: check the .deb files already there instead of building them.
# Exit 77 (skipped) when dpkg-buildpackage or debhelper is missing.

set -eu

src=$(realpath "$1")

# The first world-writable directory on the way to $1, if any: EAL refuses
# to load a plugin from below one.
world_writable_dir()
{
	d=$1
	while [ "$d" != / ]; do
		d=$(dirname "$d")
		[ -n "$(find "$d" -maxdepth 0 -perm -o+w)" ] && { echo "$d"; return 0; }
	done
	return 0
}

# Where the scratch root goes: RHT_DEBTEST_TMPDIR (meson test: the build
# directory), unless a world-writable directory lies above it (a build
# directory below /tmp): EAL loads no plugin from there. Then /run or $HOME.
scratch_base()
{
	for b in "${RHT_DEBTEST_TMPDIR:-}" /run "$HOME"; do
		if [ -n "$b" ] && [ -d "$b" ] && [ -w "$b" ] &&
			[ -z "$(world_writable_dir "$b/x")" ]; then
			echo "$b"
			return 0
		fi
	done
	echo /tmp
}
work=$(mktemp -d "$(scratch_base)/rht-debtest.XXXXXX")
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
# shellcheck source=test/sysroot_app.sh
. "$(dirname "$0")/sysroot_app.sh"
eal_pfx=$(eal_prefix rht_debpkg)
trap 'rm -rf "$work"; remove_eal_runtime_dir "$eal_pfx"' EXIT INT TERM
root=$work/root
cc=${CC:-cc}
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
has_file "$dev" "$libdir/pkgconfig/librte_rhashtable-libs.pc"
has_file "$dev" "usr/include/rte_rhashtable_core.h"
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

# the other packages: the application, the PMD, the autotests, the docs
app_deb=$debs/dpdk-flowpmd_${version}_$arch.deb
pmd_deb=$debs/librte-net-flowgen_${version}_$arch.deb
test_deb=$debs/dpdk-rhashtable-test_${version}_$arch.deb
doc_deb=$debs/librte-rhashtable-doc_${version}_all.deb
for deb in "$app_deb" "$pmd_deb" "$test_deb" "$doc_deb"; do
	[ -f "$deb" ] || fail "no $deb"
done
# where Debian's DPDK loads its PMDs from (its rte_build_config.h)
# shellcheck disable=SC2046
pmd_dir=$(printf '#include <rte_build_config.h>\nRTE_EAL_PMD_PATH\n' |
	$cc -E -P $(pkg-config --cflags libdpdk) - | tail -n 1 | tr -d '"')
[ -n "$pmd_dir" ] || fail "no RTE_EAL_PMD_PATH in rte_build_config.h"
has_file "$app_deb" usr/bin/dpdk-flowpmd
has_file "$pmd_deb" "${pmd_dir#/}/librte_net_flowgen.so"
has_file "$test_deb" usr/bin/dpdk-rhashtable-test
has_file "$doc_deb" usr/share/doc/rte_rhashtable/guides/html/index.html
has_file "$doc_deb" usr/share/doc/rte_rhashtable/api/html/index.html
# the autotests link the library's archive (its fault-injection hooks are
# not exported by the shared library): only the app needs the package
dpkg-deb -f "$app_deb" Depends | grep -q "librte-rhashtable0 (>= $version)" ||
	fail "$(basename "$app_deb") does not depend on the library: $(dpkg-deb -f "$app_deb" Depends)"
dpkg-deb -f "$pmd_deb" Depends | grep -q 'librte-ethdev23' ||
	fail "the PMD does not depend on DPDK's ethdev: $(dpkg-deb -f "$pmd_deb" Depends)"
dpkg-deb --ctrl-tarfile "$runtime" | tar -xOf - ./symbols |
	grep -q '^ rte_rhashtable_create@' || fail "no symbols file in $(basename "$runtime")"
echo "package contents OK: dpdk-flowpmd librte-net-flowgen dpdk-rhashtable-test librte-rhashtable-doc"

# lintian --pedantic: no tag beyond the overrides the packages carry (each
# one a tag that Debian's own DPDK packages show or override too)
if command -v lintian >/dev/null; then
	lintian --pedantic -I --fail-on error,warning,info,pedantic \
		"$runtime" "$dev" "$app_deb" "$pmd_deb" "$test_deb" "$doc_deb" \
		>"$work/lintian.log" 2>&1 ||
		{ cat "$work/lintian.log"; fail "lintian --pedantic"; }
	echo "lintian --pedantic: clean"
else
	echo "lintian missing (devtools/deps.sh installs it): not run"
fi

for deb in "$runtime" "$dev" "$app_deb" "$pmd_deb" "$test_deb" "$doc_deb"; do
	dpkg -x "$deb" "$root"
done
soname=$(objdump -p "$root/$libdir/librte_rhashtable.so.0" | awk '/SONAME/ {print $2}')
[ "$soname" = librte_rhashtable.so.0 ] || fail "SONAME $soname does not match the package name"

sysroot_pkg_config "$root" "$root/$libdir/pkgconfig"
app=$src/test/subproject/app.c
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-shared" "$app" \
	$(pkg-config --cflags --libs librte_rhashtable) || fail "shared build"
LD_LIBRARY_PATH="$root/$libdir" ldd "$work/app-shared" |
	grep -q "$root/$libdir/librte_rhashtable.so.0" ||
	fail "app-shared does not use the packaged librte_rhashtable.so.0"
run_user_app "$work/app-shared" "$root/$libdir"

# the packaged static archive, with the shared DPDK
# shellcheck disable=SC2046
$cc -O2 -DALLOW_EXPERIMENTAL_API -o "$work/app-static" "$app" \
	$(pkg-config --cflags librte_rhashtable) "$root/$libdir/librte_rhashtable.a" \
	$(pkg-config --libs libdpdk numa) || fail "build with librte_rhashtable.a"
! ldd "$work/app-static" | grep -q librte_rhashtable || fail "app-static links the .so"
run_user_app "$work/app-static" "$root/$libdir"

# the packaged programs, run from the scratch root
run_packaged()
{
	LD_LIBRARY_PATH="$root/$libdir" "$@" >"$work/run.out" 2>&1 ||
		{ cat "$work/run.out"; fail "$* exited with an error"; }
}

# dpdk-flowpmd with its built-in net_flowgen, 0.5 s of forwarding
run_packaged "$root/usr/bin/dpdk-flowpmd" --no-huge -m 512 --no-pci -l 0-1 \
	--file-prefix="$eal_pfx" --vdev net_flowgen0,flows=256 -- --duration=0.5
rx=$(awk '$1 == "rx" && $3 == "pkts" {print $2; exit}' "$work/run.out")
[ "${rx:-0}" -gt 0 ] || { cat "$work/run.out"; fail "packaged dpdk-flowpmd forwarded nothing"; }
LD_LIBRARY_PATH="$root/$libdir" ldd "$root/usr/bin/dpdk-flowpmd" |
	grep -q "$root/$libdir/librte_rhashtable.so.0" ||
	fail "packaged dpdk-flowpmd does not use the packaged library"
echo "packaged dpdk-flowpmd: rx $rx packets"

# one autotest of the packaged autotest binary
DPDK_TEST=rhashtable_autotest run_packaged "$root/usr/bin/dpdk-rhashtable-test" \
	--no-huge -m 256 --no-pci -l 0-1 --file-prefix="$eal_pfx"
grep -q "Test OK" "$work/run.out" || { cat "$work/run.out"; fail "packaged autotest"; }
echo "packaged dpdk-rhashtable-test: rhashtable_autotest OK"

# Debian's dpdk-testpmd on the packaged PMD, 1 s of io forwarding
unsafe_dir=$(world_writable_dir "$root$pmd_dir")
if [ -n "$unsafe_dir" ]; then
	echo "dpdk-testpmd -d <packaged PMD>: not run, EAL loads no plugin below" \
		"the world-writable $unsafe_dir (set RHT_DEBTEST_TMPDIR)"
elif [ -x /usr/bin/dpdk-testpmd ]; then
	{ sleep 3; echo start; sleep 1; echo "show port stats 0"; echo stop; echo quit; } |
		run_packaged dpdk-testpmd -d "$root$pmd_dir/librte_net_flowgen.so" \
			--no-huge -m 256 --no-pci -l 0-1 --file-prefix="$eal_pfx" \
			--vdev net_flowgen0 -- -i --total-num-mbufs=4096
	rx=$(awk '/RX-packets:/ {n = $2} END {print n + 0}' "$work/run.out")
	[ "$rx" -gt 0 ] || { cat "$work/run.out"; fail "dpdk-testpmd on the packaged PMD: no packets"; }
	echo "dpdk-testpmd -d <packaged PMD>: RX-packets $rx"
fi
echo "debian package test passed"
