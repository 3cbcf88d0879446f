#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Build the Debian binary packages out of tree: the source is copied to a
# scratch directory, so the work tree gets no debian/ build leftovers, and
# dpkg-buildpackage -b -us -uc runs there. The .deb files (and the
# .buildinfo/.changes, the build log) land in OUTDIR:
#   librte-rhashtable0      the library
#   librte-rhashtable-dev   headers, static library, pkg-config file
#   dpdk-flowpmd            the application
#   librte-net-flowgen      the net_flowgen PMD, in DPDK's PMD directory
#   dpdk-rhashtable-test    the autotest binary
#   librte-rhashtable-doc   HTML guides and API reference
# (and their -dbgsym packages). The DPDK source tree that net_flowgen needs
# comes from devtools/get-dpdk-source.sh (RHT_DPDK_SOURCE in debian/rules).
#
# Usage: devtools/build-deb.sh [--update-symbols] [OUTDIR]
#                                            (default: <source>/build-deb)
#   --update-symbols  regenerate debian/librte-rhashtable0.symbols from the
#                     library just built (dpkg-gensymbols, through
#                     dh_makeshlibs), after a change of the exported symbols
#                     or of version.map; review the diff and commit it.
#                     Without it, the build fails on any symbol change.
# Needs: dpkg-dev, debhelper and the Build-Depends of debian/control
#        (devtools/deps.sh installs them).

set -eu

src=$(realpath "$(dirname "$0")/..")
update_symbols=0
if [ "${1:-}" = --update-symbols ]; then
	update_symbols=1
	shift
fi
outdir=$(realpath -m "${1:-$src/build-deb}")
symbols=debian/librte-rhashtable0.symbols
work=$(mktemp -d /tmp/rht-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

# shellcheck source=devtools/common.sh
. "$(dirname "$0")/common.sh"

# The files of the tree: git's view (tracked and untracked, not ignored,
# still present) in a checkout, else everything but build directories.
copy_source()
{
	mkdir "$work/src"
	if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# shellcheck disable=SC2016 # the inner sh expands $f
		git -C "$src" ls-files -z --cached --others --exclude-standard |
			(cd "$src" && xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
			tar -C "$src" --null -T - -cf - | tar -C "$work/src" -xf -
	else
		tar -C "$src" --exclude='./build*' --exclude=./.git \
			-cf - . | tar -C "$work/src" -xf -
	fi
}

command -v dpkg-buildpackage >/dev/null || { log "dpkg-buildpackage missing (dpkg-dev)"; exit 1; }
command -v dh >/dev/null || { log "dh missing (debhelper)"; exit 1; }

# The symbols file of the library just built, as dpkg-gensymbols writes it
# from scratch, with the field telling the builds of dependent packages
# which -dev package versions their dependency. (dh_makeshlibs only checks
# the library against an existing file.)
update_symbols_file()
{
	deb=$(ls "$work"/librte-rhashtable0_*.deb)
	version=$(dpkg-deb -f "$deb" Version)
	dpkg -x "$deb" "$work/symroot"
	lib=$(ls "$work"/symroot/usr/lib/*/librte_rhashtable.so.*.*)
	# an empty reference (-I): the symbols of this library alone, not a
	# merge with the old file, which would keep symbols gone since
	: >"$work/no-symbols"
	dpkg-gensymbols -q -plibrte-rhashtable0 -P"$work/symroot" -v"$version" -c0 \
		-I"$work/no-symbols" -e"$lib" -O"$work/symbols"
	grep -v '^\* Build-Depends-Package:' "$work/symbols" | sed '1a\
* Build-Depends-Package: librte-rhashtable-dev' >"$src/$symbols"
	log "wrote $symbols: review it (git diff) and commit it"
}

RHT_DPDK_SOURCE=$("$src/devtools/get-dpdk-source.sh")
export RHT_DPDK_SOURCE
copy_source
if [ "$update_symbols" -eq 1 ]; then
	# let the build pass whatever the old file says (dpkg-gensymbols(1))
	DPKG_GENSYMBOLS_CHECK_LEVEL=0
	export DPKG_GENSYMBOLS_CHECK_LEVEL
fi
log "building in $work/src"
(cd "$work/src" && dpkg-checkbuilddeps && dpkg-buildpackage -b -us -uc) \
	>"$work/build.log" 2>&1 || { tail -n 60 "$work/build.log" >&2; log "failed"; exit 1; }
[ "$update_symbols" -eq 0 ] || update_symbols_file

mkdir -p "$outdir"
for f in "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes; do
	[ -e "$f" ] && cp "$f" "$outdir/"
done
cp "$work/build.log" "$outdir/build.log"
log "packages in $outdir:"
ls "$outdir"/*.deb
