# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
# shellcheck shell=sh
#
# Sourced by test_install.sh and test_debian_pkg.sh, which build the user
# program subproject/app.c against the library in a scratch root (an
# install destdir, unpacked packages) with nothing but pkg-config, and run
# it. The caller defines fail() and sets eal_args and work.
#
#   sysroot_pkg_config ROOT PC_DIR    pkg-config finds the library in ROOT
#   run_user_app PROGRAM LIBDIR       the program prints user_app_expected

user_app_expected='^rhashtable app OK: 1000 1000 [0-9][0-9.]*$'

# pkg-config prefixes the sysroot to every -I and -L, the host's libdpdk
# ones too: link the first missing component of host directory $2 into
# root $1. When the whole directory is there already (the install put a
# file below it, e.g. the shared PMD into a DPDK's lib/dpdk/pmds-XX), link
# the host directory's entries that it lacks.
overlay_host_dir()
{
	path=
	for comp in $(echo "$2" | tr '/' ' '); do
		[ "$comp" = ".." ] && return 0
		path=$path/$comp
		if [ ! -e "$1$path" ] && [ ! -L "$1$path" ]; then
			ln -s "$path" "$1$path"
			return 0
		fi
	done
	[ -d "$path" ] && [ ! -L "$1$path" ] || return 0
	for f in "$path"/*; do
		[ -e "$1$path/${f##*/}" ] || ln -s "$f" "$1$path/"
	done
}

sysroot_pkg_config()
{
	PKG_CONFIG_PATH=$2${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	PKG_CONFIG_SYSROOT_DIR=$1
	export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
	pkg-config --exists librte_rhashtable || fail "pkg-config does not find librte_rhashtable"
	for d in $(pkg-config --static --cflags-only-I --libs-only-L librte_rhashtable); do
		case $d in
		-I"$1"/* | -L"$1"/*) overlay_host_dir "$1" "${d#-?"$1"}" ;;
		esac
	done
	case $(pkg-config --cflags librte_rhashtable) in
	*"-I$1/"*) ;;
	*) fail "cflags do not point into $1: $(pkg-config --cflags librte_rhashtable)" ;;
	esac
}

# shellcheck disable=SC2154 # eal_args and work: set by the caller
run_user_app()
{
	# shellcheck disable=SC2086 # eal_args is a list of words
	out=$(LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$1" $eal_args \
		2>"$work/app.err") ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 exited with an error"; }
	echo "$out" | grep -Eq "$user_app_expected" ||
		{ cat "$work/app.err"; echo "$out"; fail "$1 printed no '$user_app_expected'"; }
	echo "$(basename "$1"): $(echo "$out" | grep -E "$user_app_expected")"
}
