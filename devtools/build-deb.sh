#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Build the Debian binary packages (librte-rhashtable0, librte-rhashtable-dev)
# out of tree: the source is copied to a scratch directory, so the work tree
# gets no debian/ build leftovers, and dpkg-buildpackage -b -us -uc runs there.
# The .deb files (and the .buildinfo/.changes) land in OUTDIR.
#
# Usage: devtools/build-deb.sh [OUTDIR]     (default: <source>/build-deb)
# Needs: dpkg-dev, debhelper and the Build-Depends of debian/control
#        (devtools/deps.sh installs them).

set -eu

src=$(realpath "$(dirname "$0")/..")
outdir=$(realpath -m "${1:-$src/build-deb}")
work=$(mktemp -d /tmp/rht-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

log()
{
	echo "build-deb: $*" >&2
}

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

copy_source
log "building in $work/src"
(cd "$work/src" && dpkg-checkbuilddeps && dpkg-buildpackage -b -us -uc) \
	>"$work/build.log" 2>&1 || { tail -n 60 "$work/build.log" >&2; log "failed"; exit 1; }

mkdir -p "$outdir"
for f in "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes; do
	[ -e "$f" ] && cp "$f" "$outdir/"
done
cp "$work/build.log" "$outdir/build.log"
log "packages in $outdir:"
ls "$outdir"/*.deb
