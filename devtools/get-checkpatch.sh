#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# Extract the Linux kernel's checkpatch.pl, which DPDK's
# devtools/checkpatches.sh runs, from Debian's linux-source-6.1 package
# (/usr/src/linux-source-6.1.tar.xz) and print its path. checkpatch.pl reads
# spelling.txt and const_structs.checkpatch next to itself: they come too.
# Idempotent: an extracted copy is reused.
#
# Usage: devtools/get-checkpatch.sh [CACHE_DIR]
#   CACHE_DIR defaults to /var/cache/rhashtable/checkpatch.

set -eu

dir=${1:-/var/cache/rhashtable/checkpatch}
tarball=/usr/src/linux-source-6.1.tar.xz

if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	if [ ! -f "$tarball" ]; then
		echo "get-checkpatch: $tarball missing (apt-get install linux-source-6.1)" >&2
		exit 1
	fi
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	chmod +x "$dir/scripts/checkpatch.pl"
fi
echo "$dir/scripts/checkpatch.pl"
