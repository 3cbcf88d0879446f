#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""How many processes devtools/goal-bench.py runs of a group: with a
--group-seconds no run reaches, a group runs --max-runs times a round, and
a group of ONE_RUN_GROUPS (memory) once in all the rounds. The report's
last column counts the processes behind each ratio ("met of runs").

Usage: test_goal_bench_runs.py GOAL_BENCH DPDK_RHASHTABLE_BENCH [-- EAL args]
"""

import re
import subprocess
import sys

ROUNDS = 2
MAX_RUNS = 2
# a repeated group (the shortest of them) and the once-only one
GROUPS = "^(insert_1Mi|memory)$"


def main():
    goal_bench, bench = sys.argv[1], sys.argv[2]
    eal = sys.argv[4:] if sys.argv[3:4] == ["--"] else []
    cmd = [sys.executable, goal_bench, "--groups", GROUPS, "--rounds", str(ROUNDS),
           "--group-seconds", "1e9", "--max-runs", str(MAX_RUNS), "--bench", bench, "--"] + eal
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=240)
    print(proc.stdout)
    if proc.returncode != 0:
        print("FAIL: goal-bench exited with %d" % proc.returncode)
        return 1
    # | ratio | goal | median | range | met of runs |
    rows = re.findall(r"^\| (.+?) \| [^|]+ \| [^|]+ \| [^|]+ \| (?:\d+ of (\d+)|-) \|$",
                      proc.stdout, re.M)
    errors = []
    counted = [(text, int(runs)) for text, runs in rows if runs]
    if not any("memory" in text for text, _ in counted):
        errors.append("no memory row")
    if not any("insert" in text for text, _ in counted):
        errors.append("no insert row")
    for text, runs in counted:
        want = 1 if "memory" in text else ROUNDS * MAX_RUNS
        if runs != want:
            errors.append("%s: %d runs, expected %d" % (text, runs, want))
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("PASS: %d rows, each with the runs expected" % len(counted))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
