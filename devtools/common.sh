# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
# shellcheck shell=sh
#
# Sourced by the devtools scripts: progress and errors on stderr after the
# script's name, and commands that need root.

log()
{
	echo "$(basename "$0" .sh): $*" >&2
}

die()
{
	log "error: $*"
	exit 1
}

# as root directly, else through sudo when it is there
as_root()
{
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root for: $*"
	fi
}
