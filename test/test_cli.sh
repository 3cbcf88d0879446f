#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# dpdk-rhashtable-test is run the ways dpdk-test is: test names after "--"
# run in order (a failure or an unknown name fails the run), and at the
# RTE>> prompt "help" lists the test names.
#
# Usage: test_cli.sh DPDK_RHASHTABLE_TEST WORKDIR
set -eu
exe=$1
work=$2
mkdir -p "$work"
eal="--no-pci -l 0 --file-prefix=rht_cli"
fails=0
check() { # <what> <condition result>
	if [ "$2" -eq 0 ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1"
		fails=$((fails + 1))
	fi
}

rc=0
# shellcheck disable=SC2086
"$exe" $eal -- rhashtable_errors_autotest rhltable_autotest > "$work/names.log" 2>&1 || rc=$?
check "two names after -- exit 0 (exit $rc)" $rc
n=$(grep -cE '^(rhashtable_errors|rhltable)_autotest: Test OK' "$work/names.log" || true)
check "both tests ran and passed ($n of 2)" "$([ "$n" -eq 2 ]; echo $?)"

rc=0
# shellcheck disable=SC2086
"$exe" $eal -- rhltable_autotest no_such_autotest > "$work/unknown.log" 2>&1 || rc=$?
check "an unknown name fails the run (exit $rc)" "$([ $rc -eq 1 ]; echo $?)"
check "the known test still ran" "$(grep -q '^rhltable_autotest: Test OK' "$work/unknown.log"; echo $?)"

rc=0
# shellcheck disable=SC2086
printf 'help\nquit\n' | "$exe" $eal > "$work/help.log" 2>&1 || rc=$?
check "the prompt exits 0 after help and quit (exit $rc)" $rc
for t in rhashtable_autotest rhltable_autotest rhashtable_perf_autotest; do
	check "help lists $t" "$(grep -qx "$t" "$work/help.log"; echo $?)"
done

[ $fails -eq 0 ]
