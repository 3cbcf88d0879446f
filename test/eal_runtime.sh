# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
# shellcheck shell=sh
#
# Sourced by the test scripts that start EAL programs: an EAL --file-prefix
# unique to the run, and the removal of its runtime directory, which EAL
# 22.11 leaves behind (in /var/run/dpdk as root) when the program exits.
#
#   prefix=$(eal_prefix NAME)      NAME_<RHT_EAL_TAG, or the shell's pid>,
#                                  shortened where EAL's sockets need it
#   remove_eal_runtime_dir PREFIX  (in the script's EXIT trap), and its
#                                  hugepage files
#   hugetlbfs_mounts               the hugetlbfs mount points

# devtools/test.sh sets RHT_EAL_TAG to find what a run left behind. Where
# EAL's telemetry socket would not fit a sockaddr_un (108 bytes: then
# rte_eal_init() fails), "t" and a checksum of NAME replace NAME.
eal_prefix()
{
	tag=${RHT_EAL_TAG:-$$}
	prefix="$1_$tag"
	sock="$(eal_runtime_dir "$prefix")/dpdk_telemetry.v2"
	if [ "${#sock}" -ge 108 ]; then
		prefix="t$(printf '%s' "$1" | cksum | cut -d' ' -f1)_$tag"
	fi
	echo "$prefix"
}

# eal_create_runtime_dir(): RUNTIME_DIRECTORY (meson test sets it to the
# build directory), else /var/run as root, else XDG_RUNTIME_DIR or /tmp
eal_runtime_dir()
{
	# set but empty counts as set, as in EAL
	if [ -n "${RUNTIME_DIRECTORY+set}" ]; then
		base=$RUNTIME_DIRECTORY
	elif [ "$(id -u)" -eq 0 ]; then
		base=/var/run
	else
		base=${XDG_RUNTIME_DIR-/tmp}
	fi
	echo "$base/dpdk/$1"
}

# the mount points of hugetlbfs, one a line: where EAL maps its hugepage files
hugetlbfs_mounts()
{
	awk '$3 == "hugetlbfs" { print $2 }' /proc/mounts 2>/dev/null
}

# the runtime directory, and the hugepage files (PREFIXmap_N) of the memory
# still reserved at exit, such as the shared-data memzone ethdev never frees
remove_eal_runtime_dir()
{
	rm -rf "$(eal_runtime_dir "$1")"
	hugetlbfs_mounts | while read -r mount; do
		rm -f "$mount/$1"map_*
	done
}
