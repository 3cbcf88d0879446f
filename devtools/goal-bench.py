#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors

"""The goal ratios of the benchmark suite, each measured round after round
with its peers in the same short process.

    devtools/goal-bench.py [--rounds N] [--group-seconds S] [--max-runs N]
                           [--build DIR | --bench PATH] [--out FILE]
                           [--groups REGEX] [--check] [-- EAL args]

A full run of dpdk-rhashtable-bench (devtools/run-bench.sh) measures
rte_hash minutes after rte_rhashtable; on a shared machine whose speed
swings from minute to minute, a ratio of two figures taken that far apart
says more about the minute than about the code. Here each group of cases
that a goal compares (say, the bulk lookups of rte_rhashtable and of bare
rte_hash at 1Mi) runs alone in one process, a few seconds from first case
to last, and the groups take turns for N rounds (default 5), so that the
drift falls on all. Within a round, a group whose process ends in less
than S seconds (default 20) runs again, up to N times (--max-runs,
default ten), until it has taken S seconds: a ratio of cases that run a
tenth of a second each (the inserts at 1Mi) swings by a factor of two
from one process to the next, and ten processes of them cost less than
one of the lookups. Each goal's
ratio is computed per process; the report gives the median, the range
and how many runs met the goal. FILE
(default doc/perf/goals.md) gets the table, the machine and the command.
--groups runs only the groups whose names (lookup_1Mi, insert_16Mi,
contend, resize, memory, ...) the regex matches, for more rounds of a few
goals than a whole run could afford; the table then goes to standard
output alone unless --out is given, so that doc/perf/goals.md keeps the
whole run's. --check runs nothing: it lists each group's cases and fails
when a case a goal needs is not among them (a renamed case would leave a
goal unmeasured).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_report import (GOAL_SIZES as SIZES, Report, case_key, goals, load,  # noqa: E402
                          size_label)

# One process per group: a --benchmark_filter over the cases the group's goals
# compare. The lookups and inserts of each size are a group of their own, so
# that a group's cases run seconds apart.
GROUPS = {}
for _n in SIZES:
    GROUPS["lookup_" + size_label(_n)] = (
        r"^(lookup/(rhashtable/(bulk32|single|single_call)|rte_hash/(bulk32_bare|single_bare)"
        r"|cds_lfht/single)/(hit|miss)_uniform|limit/(dep2|batch32))/%d/" % _n)
    GROUPS["insert_" + size_label(_n)] = (
        r"^insert/(rhashtable/(grow|grow_1w|grow_service)(_bulk32)?|rte_hash/presized)/%d/" % _n)
GROUPS.update({
    "contend": r"^contend/(rhashtable/(bulk32|single)|rte_hash/(bulk32_bare|single_bare))/"
               r"(alone|writer)/(%d|%d)/" % SIZES,
    "resize": r"^resize/rhashtable/",
    "memory": r"^memory/(rhashtable|rte_hash)/%d/" % SIZES[-1],
})


def run_group(bench, regex, eal):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    cmd = [bench, "--benchmark_filter=" + regex, "--benchmark_out=" + path,
           "--benchmark_out_format=json"] + (["--"] + eal if eal else [])
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = Report(*load(path))
    os.unlink(path)
    return report


def list_group(bench, regex, eal):
    out = subprocess.run([bench, "--benchmark_list_tests", "--benchmark_filter=" + regex]
                         + (["--"] + eal if eal else []), check=True, capture_output=True,
                         text=True).stdout
    return {case_key(line.strip()) for line in out.splitlines() if "/" in line}


def check(bench, groups, todo, eal):
    """Every case a goal compares is among its group's cases; returns the missing."""
    missing = []
    for group, regex in groups.items():
        listed = list_group(bench, regex, eal)
        for g, text, _, num, den, _ in todo:
            if g != group:
                continue
            for key in (num, den):
                if key is not None and key not in listed:
                    missing.append("%s: %s" % (text, "/".join(str(k) for k in key)))
    return missing


# Runs of one group within a round: at most MAX_RUNS (--max-runs), until it
# has taken GROUP_SECONDS (--group-seconds); the groups of ONE_RUN_GROUPS
# count bytes, the same every run, and run once in all.
MAX_RUNS = 10
GROUP_SECONDS = 20.0
ONE_RUN_GROUPS = ("memory",)


def collect(report, group, todo, ratios):
    """Append the ratios of group's goals in one run's report."""
    for g, text, _, num, den, counter in todo:
        if g != group:
            continue
        a = report.get(*num, counter=counter)
        b = 1.0 if den is None else report.get(*den, counter=counter)
        if a is not None and b:
            ratios[text].append(a / b)


def lower_is_better(counter):
    return counter == "bytes_per_entry"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--group-seconds", type=float, default=GROUP_SECONDS,
                    help="run a group again within a round until it took this long")
    ap.add_argument("--max-runs", type=int, default=MAX_RUNS,
                    help="the most runs of a group within a round")
    ap.add_argument("--build", default="build-bench")
    ap.add_argument("--bench", help="the dpdk-rhashtable-bench binary (default: in --build)")
    ap.add_argument("--out", help="report file (default doc/perf/goals.md; none with --groups)")
    ap.add_argument("--groups", help="regex: run only the groups whose names it matches")
    ap.add_argument("--check", action="store_true",
                    help="only check that every goal's cases exist")
    ap.add_argument("eal", nargs="*", help="EAL arguments, after --")
    args = ap.parse_args()

    if args.max_runs < 1:
        sys.exit("goal-bench: --max-runs must be 1 or more, not %d" % args.max_runs)
    bench = args.bench or os.path.join(args.build, "test/bench/dpdk-rhashtable-bench")
    if not os.access(bench, os.X_OK):
        sys.exit("goal-bench: %s missing: meson setup %s -Dbenchmarks=enabled && "
                 "ninja -C %s" % (bench, args.build, args.build))
    groups = GROUPS
    if args.groups:
        groups = {g: r for g, r in GROUPS.items() if re.search(args.groups, g)}
        if not groups:
            sys.exit("goal-bench: no group matches %r (groups: %s)"
                     % (args.groups, ", ".join(GROUPS)))
    out = args.out or (None if args.groups else "doc/perf/goals.md")
    todo = [g for g in goals() if g[0] in groups]
    if args.check:
        missing = check(bench, groups, todo, args.eal)
        for m in missing:
            print("goal-bench: no case for " + m, file=sys.stderr)
        print("goal-bench: %d goals of %s, %d cases missing"
              % (len(todo), ", ".join(groups), len(missing)))
        return 1 if missing else 0
    ratios = {g[1]: [] for g in todo}
    start = time.time()
    for rnd in range(args.rounds):
        for group, regex in groups.items():
            if group in ONE_RUN_GROUPS and rnd > 0:
                continue
            began = time.time()
            for _ in range(args.max_runs):
                collect(run_group(bench, regex, args.eal), group, todo, ratios)
                if group in ONE_RUN_GROUPS or time.time() - began >= args.group_seconds:
                    break
        print("goal-bench: round %d of %d done (%.0f s)" % (rnd + 1, args.rounds,
                                                            time.time() - start), file=sys.stderr)

    rows = []
    for _, text, goal, _, _, counter in todo:
        vals = ratios[text]
        if not vals:
            rows.append("| %s | %s | not measured | | |"
                        % (text, "-" if goal is None else "%.1fx" % goal))
            continue
        if goal is None:
            rows.append("| %s | - | %.2fx | %.2f-%.2fx | - |"
                        % (text, statistics.median(vals), min(vals), max(vals)))
            continue
        met = sum(1 for v in vals if (v <= goal if lower_is_better(counter) else v >= goal))
        rows.append("| %s | %s%.1fx | %.2fx | %.2f-%.2fx | %d of %d |"
                    % (text, "at most " if lower_is_better(counter) else "", goal,
                       statistics.median(vals), min(vals), max(vals), met, len(vals)))
    cpu = subprocess.run("lscpu | sed -n 's/^Model name: *//p' | head -1", shell=True,
                         capture_output=True, text=True).stdout.strip()
    dpdk = subprocess.run(["pkg-config", "--modversion", "libdpdk"], capture_output=True,
                          text=True).stdout.strip()
    tree = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                          text=True).stdout.strip()
    text = "\n".join([
        "# Goal ratios, measured in turns",
        "",
        "Generated by `devtools/goal-bench.py --rounds %d%s` (%s UTC, tree %s, DPDK %s, "
        "%s, %d CPUs, %.0f s). Each group of cases that a goal compares ran in one "
        "process of its own, the groups in turns, round after round; within a round, "
        "a group whose process took less than %.0f s ran again (up to %d times) until "
        "it had taken that long. A ratio is computed within a process, from figures "
        "taken seconds apart. Median and range over the processes; the last column "
        "counts the processes that met the goal."
        % (args.rounds, "%s%s%s" % (" --group-seconds %g" % args.group_seconds
                                    if args.group_seconds != GROUP_SECONDS else "",
                                    " --max-runs %d" % args.max_runs
                                    if args.max_runs != MAX_RUNS else "",
                                    " --groups '%s'" % args.groups if args.groups else ""),
           time.strftime("%Y-%m-%d %H:%M", time.gmtime()), tree, dpdk, cpu,
           os.cpu_count(), time.time() - start, args.group_seconds, args.max_runs),
        "",
        "| ratio | goal | median | range | runs meeting it |",
        "|---|---|---|---|---|",
    ] + rows) + "\n"
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
