#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Fetch Debian's source package of the installed DPDK (libdpdk-dev) and print
# the path of the unpacked tree. Debian's libdpdk-dev does not ship the driver
# SDK headers (ethdev_driver.h, bus_vdev_driver.h, ...) that drivers/ needs;
# the source package of exactly the installed version does. Only Debian's
# archive is used. Idempotent: a tree already unpacked is reused.
#
# Usage: devtools/get-dpdk-source.sh [CACHE_DIR]
#   CACHE_DIR defaults to /var/cache/rhashtable/dpdk-src.
# Then: meson setup build -Ddpdk_source="$(devtools/get-dpdk-source.sh)"
#
# Everything but the final path goes to stderr, so the output can be captured.

set -eu

cache_dir=${1:-/var/cache/rhashtable/dpdk-src}
src_list=/etc/apt/sources.list.d/debian-src.sources

# shellcheck source=devtools/common.sh
. "$(dirname "$0")/common.sh"

version=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed"
[ -n "$version" ] || die "libdpdk-dev is not installed"
# upstream part: drop an epoch ("1:") and the Debian revision ("-0+deb12u1")
upstream=${version#*:}
upstream=${upstream%-*}
version_dir=$cache_dir/$version

# The unpacked tree of this version, if any: the one directory holding
# ethdev_driver.h whose VERSION file names the installed upstream version.
find_tree()
{
	[ -d "$version_dir" ] || return 1
	for d in "$version_dir"/*/; do
		d=${d%/}
		[ -f "$d/lib/ethdev/ethdev_driver.h" ] || continue
		[ "$(cat "$d/VERSION" 2>/dev/null)" = "$upstream" ] || continue
		echo "$d"
		return 0
	done
	return 1
}

if tree=$(find_tree); then
	log "DPDK $version source already in $tree"
	echo "$tree"
	exit 0
fi

# True when apt already knows a deb-src entry (one-line or deb822 format).
have_deb_src()
{
	grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources
}

# Mirror every "deb" stanza of Debian's deb822 sources (bookworm,
# bookworm-updates, bookworm-security, snapshot URIs included) as deb-src.
add_deb_src()
{
	main_list=/etc/apt/sources.list.d/debian.sources
	tmp=$(mktemp)
	if [ -f "$main_list" ]; then
		sed -e 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' \
			"$main_list" > "$tmp"
	else
		cat > "$tmp" <<-EOF
		Types: deb-src
		URIs: http://deb.debian.org/debian
		Suites: bookworm bookworm-updates
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

		Types: deb-src
		URIs: http://deb.debian.org/debian-security
		Suites: bookworm-security
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
	fi
	as_root install -m 0644 "$tmp" "$src_list"
	rm -f "$tmp"
	log "added $src_list"
}

if ! have_deb_src; then
	add_deb_src
	as_root apt-get update >&2
elif ! apt-cache showsrc "dpdk=$version" 2>/dev/null | grep -q '^Package:'; then
	as_root apt-get update >&2
fi

command -v dpkg-source >/dev/null 2>&1 ||
	as_root apt-get install -y --no-install-recommends dpkg-dev >&2

mkdir -p "$version_dir" 2>/dev/null || as_root mkdir -p "$version_dir"
[ -w "$version_dir" ] || as_root chown "$(id -u):$(id -g)" "$version_dir"
log "fetching source package dpdk=$version into $version_dir"
(cd "$version_dir" && apt-get source "dpdk=$version") >&2 ||
	die "apt-get source dpdk=$version failed"

tree=$(find_tree) || die "no DPDK $upstream tree found under $version_dir"
echo "$tree"
