#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Install what the project needs on a fresh Debian 12 machine, idempotently:
# Debian packages, DPDK's source package (for the driver SDK headers) and,
# where the machine allows it, 2 MiB hugepages. Prints nothing but progress.
#
# Usage: devtools/deps.sh            (as root, or with sudo available)
# Env:   RHT_HUGEPAGES=N  hugepages to reserve (default 2048, 0 for none)

set -eu

packages="build-essential pkg-config meson ninja-build python3 python3-pyelftools
	libdpdk-dev dpdk-dev dpdk libnuma-dev liburcu-dev libbenchmark-dev
	libpcap-dev libsystemd-dev clang libclang-rt-dev dpkg-dev debhelper fakeroot
	lintian git xz-utils linux-source-6.1 codespell gawk
	python3-sphinx python3-sphinx-rtd-theme doxygen graphviz gnuplot-nox iproute2
	dpdk-doc patch"

# shellcheck source=devtools/common.sh
. "$(dirname "$0")/common.sh"

missing_packages()
{
	for p in $packages; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

install_packages()
{
	missing=$(missing_packages | tr '\n' ' ')
	if [ -z "$missing" ]; then
		log "packages: all present"
		return
	fi
	log "installing: $missing"
	as_root apt-get update -qq
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
}

# Reserve hugepages when the kernel lets us; programs fall back to --no-huge
# (common/rht_eal_mem.c) when it does not, so failure here is not fatal.
setup_hugepages()
{
	want=${RHT_HUGEPAGES:-2048}
	nr=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	[ "$want" -gt 0 ] || return 0
	if [ ! -w "$nr" ] && [ "$(id -u)" -ne 0 ]; then
		log "hugepages: not root, programs will use --no-huge"
		return 0
	fi
	if [ "$(cat $nr 2>/dev/null || echo 0)" -lt "$want" ]; then
		echo "$want" | as_root tee "$nr" >/dev/null 2>&1 || true
	fi
	if ! grep -q ' hugetlbfs ' /proc/mounts; then
		as_root mkdir -p /mnt/huge
		as_root mount -t hugetlbfs nodev /mnt/huge 2>/dev/null || true
	fi
	free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
	if grep -q ' hugetlbfs ' /proc/mounts && [ "${free:-0}" -gt 0 ]; then
		log "hugepages: $free free 2 MiB pages"
	else
		log "hugepages: unavailable here, programs will use --no-huge"
	fi
}

install_packages
setup_hugepages
"$(dirname "$0")/get-dpdk-source.sh" >/dev/null
