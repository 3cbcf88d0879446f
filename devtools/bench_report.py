#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors

"""Turn the JSON of dpdk-rhashtable-bench into a Markdown report and PNG plots.

    devtools/bench_report.py --json results.json [--trace resize_trace.csv]
                             [--out DIR] [--machine machine.md] [--dpdk VERSION]

Writes DIR/results.md (rates per system per case, ratios of rte_rhashtable
against rte_hash and cds_lfht computed from this run only, each rate as a
share of the memory-limit probe) and, when gnuplot is installed,
DIR/lookup_vs_size_*.png and DIR/resize_timeline.png. With --benchmark_repetitions,
the median of the repetitions is used.
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys

SYSTEMS = ["rhashtable", "rte_hash", "cds_lfht"]
STREAMS = ["hit_uniform", "hit_zipf", "miss_uniform", "miss_zipf"]
SIZINGS = ["presized", "grow", "grow_1w", "grow_service"]
# rte_rhashtable only: the same, inserting bursts of 32 in one call
BULK_SIZINGS = [z + "_bulk32" for z in SIZINGS]


def size_label(n):
    """65536 -> 64Ki, 1048576 -> 1Mi."""
    for unit, shift in (("Mi", 20), ("Ki", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def case_key(name):
    """'lookup/rte_hash/bulk32/hit_uniform/65536/min_time:0.4/real_time'
    -> ('lookup', 'rte_hash', 'bulk32', 'hit_uniform', 65536)."""
    parts = []
    for p in name.split("/"):
        if p.isdigit():
            return tuple(parts) + (int(p),)
        parts.append(p)
    return tuple(parts)


def load(path):
    """Cases keyed by case_key, each a dict of counters (median over
    repetitions) plus 'error' and 'label'."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        runs.setdefault(case_key(b["run_name"] if "run_name" in b else b["name"]),
                        []).append(b)
    cases = {}
    for key, reps in runs.items():
        merged = {"error": None, "label": reps[0].get("label", "")}
        if any(r.get("error_occurred") for r in reps):
            merged["error"] = next(r.get("error_message", "error")
                                   for r in reps if r.get("error_occurred"))
        numeric = {}
        for r in reps:
            for k, v in r.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    numeric.setdefault(k, []).append(v)
        for k, vals in numeric.items():
            # a miss in any run counts: never hide one behind a median
            merged[k] = (max(vals) if k in ("misses", "timed_out") else
                         sum(vals) if k == "lookups" else statistics.median(vals))
        merged["repetitions"] = len(reps)
        cases[key] = merged
    return data.get("context", {}), cases


class Report:
    """Lookups of cases and the Markdown helpers built on them."""

    def __init__(self, context, cases):
        self.ctx = context
        self.cases = cases
        self.sizes = sorted({k[-1] for k in cases if isinstance(k[-1], int)
                             and k[0] in ("lookup", "insert", "limit")})

    def get(self, *key, counter="Mops"):
        c = self.cases.get(tuple(key))
        if c is None or c["error"] is not None:
            return None
        return c.get(counter)

    def lookup(self, sysname, mode, stream, n):
        return self.get("lookup", sysname, mode, stream, n)

    def contend(self, sysname, mode, writer, n, counter="Mops"):
        return self.get("contend", sysname, mode, "writer" if writer else "alone", n,
                        counter=counter)

    def limit(self, kind, n):
        return self.get("limit", kind, n)


MI = 1 << 20
GOAL_SIZES = (MI, 16 * MI)


def goals():
    """The ratios issue 19 sets goals for, as (group, text, goal, numerator
    key, denominator key, counter): the one list that devtools/goal-bench.py
    measures in turns (group: the process it measures the row in) and that
    the headline of a full run's report shows. goal None: no goal of its
    own, a row that explains another; a key is a case_key() tuple;
    denominator None: the counter is the ratio."""
    out = []
    for n in GOAL_SIZES:
        g, s = "lookup_%s" % size_label(n), size_label(n)
        for stream in ("hit_uniform", "miss_uniform"):
            out.append((g, "bulk-32 lookup, %s, %s / bare rte_hash bulk"
                        % (stream.split("_")[0], s), 1.2, ("lookup", "rhashtable", "bulk32", stream, n),
                        ("lookup", "rte_hash", "bulk32_bare", stream, n), "Mops"))
        # no goal of their own: how far the memory lets a bulk lookup go, a hit
        # reading two dependent lines (bucket, object), a miss one (the bucket)
        for stream, probe, what in (("hit_uniform", "dep2", "two dependent reads"),
                                    ("miss_uniform", "batch32", "one read")):
            out.append((g, "ceiling: limit probe %s (%s a key) / bare rte_hash bulk, %s, %s"
                        % (probe, what, stream.split("_")[0], s), None, ("limit", probe, n),
                        ("lookup", "rte_hash", "bulk32_bare", stream, n), "Mops"))
        for mode, what in (("single", "inline"), ("single_call", "rte_rhashtable_lookup()")):
            out.append((g, "single lookup, hit, %s, %s / bare rte_hash_lookup_data" % (s, what),
                        1.2, ("lookup", "rhashtable", mode, "hit_uniform", n),
                        ("lookup", "rte_hash", "single_bare", "hit_uniform", n), "Mops"))
            out.append((g, "single lookup, hit, %s, %s / cds_lfht" % (s, what),
                        2.0, ("lookup", "rhashtable", mode, "hit_uniform", n),
                        ("lookup", "cds_lfht", "single", "hit_uniform", n), "Mops"))
    # inserts one at a time, then in bursts of 32 (rte_rhashtable_lookup_insert_bulk(),
    # what a flow table that learns a burst's new flows calls): rte_hash has no burst
    # add, its single one is the peer of both
    for n in GOAL_SIZES:
        for burst, how in (("", "insert"), ("_bulk32", "burst-32 insert")):
            for sizing, goal in (("grow", 0.8), ("grow_1w", 0.8), ("grow_service", 1.0)):
                out.append(("insert_%s" % size_label(n), "%s with growth from 64 buckets (%s), "
                            "%s / rte_hash pre-sized insert" % (how, sizing, size_label(n)), goal,
                            ("insert", "rhashtable", sizing + burst, n),
                            ("insert", "rte_hash", "presized", n), "Mops"))
    for n in GOAL_SIZES:
        for mode in ("bulk32", "single"):
            out.append(("contend", "%s reader beside a writer / alone, %s" % (mode, size_label(n)),
                        0.9, ("contend", "rhashtable", mode, "writer", n),
                        ("contend", "rhashtable", mode, "alone", n), "Mops"))
            out.append(("contend", "%s reader beside a writer, %s / bare rte_hash reader beside "
                        "a writer" % (mode, size_label(n)), 1.0,
                        ("contend", "rhashtable", mode, "writer", n),
                        ("contend", "rte_hash", mode + "_bare", "writer", n), "Mops"))
    for mode in ("bulk32", "single"):
        out.append(("resize", "worst 10 ms window / steady, 128Ki -> 256Ki -> 128Ki buckets, %s" % mode, 0.8,
                    ("resize", "rhashtable", mode, MI), None, "min_over_steady"))
        # no goal of their own: which part of a grow or shrink the worst window falls in
        for part, counter in (("the writer alone, before the rehash starts",
                               "writer_only_min_over_steady"),
                              ("from the rehash's start", "rehash_min_over_steady")):
            out.append(("resize", "of which: worst window / steady, %s, %s" % (part, mode), None,
                        ("resize", "rhashtable", mode, MI), None, counter))
        # no goal either: how far a window falls with no writer and no resize at
        # all, the machine's own dips, which the worst window of a resize
        # cannot be told from
        out.append(("resize", "for scale: worst window / steady before the resize (no writer, "
                    "no rehash: the machine's own dips), %s" % mode, None,
                    ("resize", "rhashtable", mode, MI), None, "baseline_min_over_steady"))
    out.append(("memory", "memory per entry, object included, 16Mi / rte_hash", 0.5,
                ("memory", "rhashtable", 16 * MI), ("memory", "rte_hash", 16 * MI),
                "bytes_per_entry"))
    return out


def fmt_rate(v, limit=None):
    if v is None:
        return "–"
    s = "%.1f" % v if v >= 10 else "%.2f" % v
    if limit:
        s += " (%d%%)" % round(100.0 * v / limit)
    return s


def fmt_ratio(a, b):
    if a is None or b is None or b == 0:
        return "–"
    return "**%.2fx**" % (a / b)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def section_headline(r):
    """The ratios the project tracks, one line each."""
    lines = []

    def add(text, a, b, extra=""):
        q = ratio(a, b)
        val = "%.2fx" % q if q is not None else "not measured"
        lines.append("| %s | %s | %s | %s |" % (text, fmt_rate(a), fmt_rate(b), val + extra))

    # the goals' rates (counted bytes and the resize windows have rows of their own)
    for _, text, goal, num, den, counter in goals():
        if counter == "Mops" and goal is not None and den is not None and num[-1] in r.sizes:
            add("%s (goal %.1fx)" % (text, goal), r.get(*num), r.get(*den))
    # no goal: bulk lookups against rte_hash's that read the flow they find too
    for n in GOAL_SIZES:
        if n not in r.sizes:
            continue
        for stream in ("hit_uniform", "miss_uniform"):
            add("bulk32 lookup %s, %s: rhashtable / rte_hash bulk" % (stream, size_label(n)),
                r.lookup("rhashtable", "bulk32", stream, n),
                r.lookup("rte_hash", "bulk32", stream, n))
    # the contention goals' ratios per second of the reader's CPU time
    for n in GOAL_SIZES:
        for mode in ("bulk32", "single"):
            if r.contend("rhashtable", mode, False, n) is None:
                continue
            add("%s reader beside a writer / reader alone, %s, per CPU second"
                % (mode, size_label(n)),
                r.contend("rhashtable", mode, True, n, "cpu_Mops"),
                r.contend("rhashtable", mode, False, n, "cpu_Mops"))
            add("%s reader beside a writer, %s, per CPU second: rhashtable / rte_hash (bare) "
                "beside a writer" % (mode, size_label(n)),
                r.contend("rhashtable", mode, True, n, "cpu_Mops"),
                r.contend("rte_hash", mode + "_bare", True, n, "cpu_Mops"))
    for mode in ("bulk32", "single"):
        c = r.cases.get(("resize", "rhashtable", mode, 1 << 20))
        if c is None or c["error"]:
            continue
        lines.append("| worst 10 ms window / steady during a 128Ki->256Ki->128Ki bucket resize (%s), "
                     "wall clock | %s | %s | %s; misses: **%d**; slowest window before "
                     "the resize: %.2fx |"
                     % (mode, fmt_rate(c.get("min_window_Mops")), fmt_rate(c.get("steady_Mops")),
                        "%.2fx" % c["min_over_steady"] if c.get("steady_Mops") else "–",
                        c.get("misses", 0), c.get("baseline_min_over_steady", 0)))
        lines.append("| same, per second of the lookup thread's CPU time (%s) | %s | %s | %s |"
                     % (mode, fmt_rate(c.get("min_cpu_window_Mops")),
                        fmt_rate(c.get("steady_cpu_Mops")),
                        "%.2fx" % c["min_cpu_over_steady"] if c.get("steady_cpu_Mops") else "–"))
    big = max(r.sizes) if r.sizes else None
    if big is not None:
        # a hit reads two dependent lines (bucket, object), a miss one
        for stream, probe in (("hit_uniform", "dep2"), ("miss_uniform", "batch32")):
            add("bulk32 lookup %s, %s: rhashtable / limit probe (%s)"
                % (stream, size_label(big), probe),
                r.lookup("rhashtable", "bulk32", stream, big), r.limit(probe, big))
    head = ["| Ratio | rhashtable Mops/s | reference Mops/s | ratio |", "|---|---|---|---|"]
    return "\n".join(head + lines)


def section_lookups(r, n):
    """One row per rhashtable mode and stream; the peers in their own
    modes of the same kind (single_call is compared with the peers' single)."""
    lim_batch = r.limit("batch32", n)
    header = ["mode", "keys", "rhashtable", "rte_hash", "rte_hash bare", "cds_lfht",
              "rht / rte_hash", "rht / rte_hash bare", "rht / cds_lfht"]
    rows = []
    for mode in ("bulk32", "single", "single_call"):
        peer_mode = "single" if mode == "single_call" else mode
        for stream in STREAMS:
            vals = [r.lookup("rhashtable", mode, stream, n),
                    r.lookup("rte_hash", peer_mode, stream, n),
                    r.lookup("rte_hash", peer_mode + "_bare", stream, n),
                    r.lookup("cds_lfht", peer_mode, stream, n)]
            if vals[0] is None:
                continue
            rows.append([mode, stream] + [fmt_rate(v, lim_batch) for v in vals] +
                        [fmt_ratio(vals[0], v) for v in vals[1:]])
    return md_table(header, rows)


def section_contend(r, counter):
    header = ["size", "reader", "rhashtable alone", "beside writer", "ratio",
              "rte_hash alone", "beside writer", "ratio", "rht / rte_hash beside writer",
              "writer Mops/s (rht, rte_hash)"]
    rows = []
    for n in r.sizes:
        for mode, peer_modes in (("bulk32", ("bulk32", "bulk32_bare")),
                                 ("single", ("single", "single_bare"))):
            ra = r.contend("rhashtable", mode, False, n, counter)
            rw = r.contend("rhashtable", mode, True, n, counter)
            if ra is None and rw is None:
                continue
            for pm in peer_modes:
                ha = r.contend("rte_hash", pm, False, n, counter)
                hw = r.contend("rte_hash", pm, True, n, counter)
                rows.append([size_label(n), "%s (rte_hash %s)" % (mode, pm), fmt_rate(ra),
                             fmt_rate(rw), fmt_ratio(rw, ra), fmt_rate(ha), fmt_rate(hw),
                             fmt_ratio(hw, ha), fmt_ratio(rw, hw),
                             "%s, %s" % (fmt_rate(r.get("contend", "rhashtable", mode, "writer", n,
                                                        counter="writer_Mops")),
                                         fmt_rate(r.get("contend", "rte_hash", pm, "writer", n,
                                                        counter="writer_Mops")))])
    return md_table(header, rows)


def section_limits(r):
    header = ["table size", "buffer (MiB)", "batch32 prefetched (Mops/s)", "ns/line",
              "dep2: two dependent reads, 32 at a time (Mops/s)",
              "one dependent read (Mops/s)", "ns/read"]
    rows = []
    for n in r.sizes:
        b = r.cases.get(("limit", "batch32", n))
        d = r.cases.get(("limit", "dep2", n))
        c = r.cases.get(("limit", "chase", n))
        if b is None or c is None or b["error"] or c["error"]:
            continue
        dep2 = fmt_rate(d["Mops"]) if d is not None and not d["error"] else "–"
        rows.append([size_label(n), "%.0f" % b.get("buffer_MiB", 0), fmt_rate(b["Mops"]),
                     "%.1f" % b["ns_per_op"], dep2, fmt_rate(c["Mops"]),
                     "%.1f" % c["ns_per_op"]])
    return md_table(header, rows)


def section_latency(r):
    """The latency of one dependent read by buffer size, every line or one
    line a 4 KiB page: where the caches end, and where address translation
    does."""
    def ns(kind, mib):
        c = r.cases.get(("latency", kind, mib))
        return "%.0f" % c["ns_per_read"] if c is not None and c["error"] is None else "–"

    sizes = sorted({k[-1] for k in r.cases if k[:2] in (("latency", "chase"),
                                                      ("latency", "pages"))})
    rows = [["%d" % mib, ns("chase", mib), ns("pages", mib)] for mib in sizes]
    rows = [row for row in rows if row[1:] != ["–", "–"]]
    if not rows:
        return "(not measured in this run)"
    return md_table(["buffer (MiB)", "ns per dependent read, every line",
                     "ns per dependent read, one line a 4 KiB page"], rows)


def section_window(r):
    """The time of a batch of prefetched random reads by its width
    (cases latency/window/w<reads>/<MiB>)."""
    keys = [k for k in r.cases if k[:2] == ("latency", "window") and len(k) == 4]
    sizes = sorted({k[3] for k in keys})
    widths = sorted({k[2] for k in keys}, key=lambda w: int(w[1:]))
    rows = []
    for w in widths:
        row = [w[1:]]
        for mib in sizes:
            c = r.cases.get(("latency", "window", w, mib))
            row.append("%.0f" % c["ns_per_batch"]
                       if c is not None and c["error"] is None else "–")
        rows.append(row)
    if not rows:
        return "(not measured in this run)"
    return md_table(["reads in flight"] + ["ns per batch, %d MiB" % m for m in sizes], rows)


def section_frozen(r):
    """The frozen-rehash cases: each state's rate over the rate at rest."""
    rows = []
    for mode in ("single", "bulk32"):
        pcts = sorted(k[-1] for k in r.cases if k[:3] == ("frozen", "rhashtable", mode))
        for pct in pcts:
            c = r.cases[("frozen", "rhashtable", mode, pct)]
            if c["error"] is not None:
                rows.append([mode, "%d%%" % pct, "error: " + c["error"], "", "", "", ""])
                continue
            rows.append([mode, "%d%% (%.0f%%)" % (pct, c.get("moved_pct", 0)),
                         fmt_rate(c.get("steady_Mops")),
                         "%.2fx" % c.get("full_over_steady", 0),
                         "%.2fx" % c.get("frozen_over_steady", 0),
                         "%.2fx" % c.get("after_over_steady", 0),
                         "%d" % c.get("misses", 0)])
    if not rows:
        return "(not measured in this run)"
    return md_table(["lookups", "stopped at (moved)", "at rest (Mops/s)",
                     "at the threshold", "rehash stopped", "after the grow", "misses"], rows)


def growth_cells(c):
    """What growth cost an rte_rhashtable insert case: objects moved per insert,
    and where the inserting thread ran the worker, its time per move and the
    share of the run it took."""
    if c is None or "moves_per_insert" not in c:
        return ["", ""]
    moves = "%.2f" % c["moves_per_insert"]
    if not c.get("ns_per_move"):
        return [moves, ""]
    return [moves, "%.0f (%.0f%%)" % (c["ns_per_move"], 100 * c.get("rehash_share", 0))]


def section_writes(r):
    header = ["operation", "size", "rhashtable", "rte_hash", "cds_lfht",
              "rht / rte_hash presized", "rht / cds_lfht same sizing",
              "rht moves / insert", "rht ns / move (share of the run)"]
    rows = []
    for n in r.sizes:
        lim = r.limit("batch32", n)
        ref_hash = r.get("insert", "rte_hash", "presized", n)
        for sizing in SIZINGS + BULK_SIZINGS:
            vals = [r.get("insert", s, sizing, n) for s in SYSTEMS]
            if all(v is None for v in vals):
                continue
            cells = []
            for s, v in zip(SYSTEMS, vals):
                c = r.cases.get(("insert", s, sizing, n))
                cell = fmt_rate(v, lim)
                if c is not None and c.get("stalled"):
                    cell += " STALLED"
                cells.append(cell)
            rows.append(["insert " + sizing, size_label(n)] + cells +
                        [fmt_ratio(vals[0], ref_hash), fmt_ratio(vals[0], vals[2])] +
                        growth_cells(r.cases.get(("insert", "rhashtable", sizing, n))))
        vals = [r.get("remove", s, n) for s in SYSTEMS]
        rows.append(["remove", size_label(n)] + [fmt_rate(v, lim) for v in vals] +
                    [fmt_ratio(vals[0], vals[1]), fmt_ratio(vals[0], vals[2]), "", ""])
    return md_table(header, rows)


def section_memory(r):
    header = ["size"] + ["%s B/entry (table + object)" % s for s in SYSTEMS] + \
        ["rht / rte_hash", "rht / cds_lfht"]
    rows = []
    for n in r.sizes:
        vals, cells = [], []
        for s in SYSTEMS:
            c = r.cases.get(("memory", s, n))
            if c is None or c["error"]:
                vals.append(None)
                cells.append("–")
                continue
            vals.append(c["bytes_per_entry"])
            cells.append("%.1f (%.1f + %d)" % (c["bytes_per_entry"],
                                               c["table_bytes_per_entry"], c["obj_bytes"]))
        rows.append([size_label(n)] + cells +
                    ["%.2fx" % ratio(vals[0], vals[1]) if ratio(vals[0], vals[1]) else "–",
                     "%.2fx" % ratio(vals[0], vals[2]) if ratio(vals[0], vals[2]) else "–"])
    methods = []
    for s in SYSTEMS:
        c = next((v for k, v in r.cases.items() if k[:2] == ("memory", s)), None)
        if c is not None and c.get("label"):
            methods.append("- %s: %s" % (s, c["label"]))
    return md_table(header, rows) + "\n\nMeasured with:\n" + "\n".join(methods)


def section_resize(r):
    header = ["lookups", "rate", "steady Mops/s", "worst window", "worst / steady"]
    rows, facts = [], []
    for mode in ("single", "bulk32"):
        c = r.cases.get(("resize", "rhashtable", mode, 1 << 20))
        if c is None:
            continue
        if c["error"]:
            rows.append([mode, "error: " + c["error"], "", "", ""])
            continue
        for what, steady, worst in (
                ("wall clock, all windows", "steady_Mops", "min_window_Mops"),
                ("wall clock, windows >= 90% on CPU", "steady_oncpu_Mops",
                 "min_oncpu_window_Mops"),
                ("per second of thread CPU time", "steady_cpu_Mops", "min_cpu_window_Mops")):
            st, wo = c.get(steady) or None, c.get(worst) or None
            rows.append([mode, what, fmt_rate(st), fmt_rate(wo),
                         "%.2f" % (wo / st) if st and wo else "–"])
        st, wo = c.get("steady_Mops") or None, c.get("baseline_min_Mops") or None
        rows.append([mode, "wall clock, before the resize (the machine's own dips)",
                     fmt_rate(st), fmt_rate(wo), "%.2f" % (wo / st) if st and wo else "–"])
        facts.append("- %s: misses **%d** in %d lookups (%d runs: medians of their "
                     "figures, misses the most of one run); grow %.0f ms, shrink %.0f ms; "
                     "buckets %d -> %d -> %d; %d of %d windows with the thread "
                     "descheduled part of the time"
                     % (mode, c["misses"], c["lookups"], c["repetitions"], c["grow_ms"],
                        c["shrink_ms"],
                        c["buckets_start"], c["buckets_peak"], c["buckets_end"],
                        c.get("preempted_windows", 0), c.get("windows", 0)))
    return md_table(header, rows) + "\n\n" + "\n".join(facts)


def errors(r):
    out = []
    for k, c in sorted(r.cases.items(), key=lambda kv: str(kv[0])):
        if c["error"]:
            out.append("- `%s`: %s" % ("/".join(str(p) for p in k), c["error"]))
        elif c.get("label", "").startswith(("STALLED", "LOOKUP MISSES", "resize did")):
            out.append("- `%s`: %s" % ("/".join(str(p) for p in k), c["label"]))
    return "\n".join(out)


def write_markdown(r, out_dir, plots, machine, dpdk):
    ctx = r.ctx
    md = ["# rte_rhashtable benchmark results", "",
          "Generated by `devtools/bench_report.py` from one run of `dpdk-rhashtable-bench` "
          "(mode: %s, %s%s). All systems ran in the same process, on the same lcore, with "
          "the same 16-byte 5-tuple keys and key sets; ratios compare figures of this "
          "run only. Rates are million operations per second (wall clock), one thread."
          % (ctx.get("rht_mode", "?"), ctx.get("date", "?"),
             ", DPDK " + dpdk if dpdk else ""), ""]
    if machine:
        md += ["Machine and command: see [%s](%s)." % (machine, machine), ""]
    md += ["Hugepages: %s. EAL arguments: `%s`." % (ctx.get("rht_hugepages", "?"),
                                                  ctx.get("rht_eal_args", "?")), ""]
    md += ["## Headline ratios", "", section_headline(r), ""]
    md += ["## Set-up of each system", ""]
    for key in ("rht_note_rhashtable", "rht_note_rte_hash", "rht_note_cds_lfht",
                "rht_note_lookup", "rht_note_limit"):
        if key in ctx:
            md.append("- " + ctx[key])
    md += ["", "## Lookups", "",
           "Mops/s; in parentheses, the share of the memory-limit probe (`batch32`: random "
           "cache-line reads, 32 prefetched at a time, over a buffer as large as "
           "rte_rhashtable's working set at that size).", ""]
    for n in r.sizes:
        md += ["### %s entries" % size_label(n), "", section_lookups(r, n), ""]
    md += ["## Readers beside a writer", "",
           "Lookups of present keys (hit_uniform) on the main lcore for 0.5 s, alone, then "
           "while the other lcore inserts and removes other keys at full speed (1024 of them "
           "present at a time; rte_rhashtable re-inserts each object as soon as its turn "
           "comes). Mops/s of the reader; every lookup must hit. Wall clock first, then "
           "per second of the reader thread's CPU time (other tenants of the machine "
           "take the reader's core now and then).", "",
           "Wall clock:", "", section_contend(r, "Mops"), "",
           "Per second of the reader thread's CPU time:", "",
           section_contend(r, "cpu_Mops"), ""]
    md += ["## What memory allows (limit probe)", "", section_limits(r), ""]
    md += ["## Where the caches end", "",
           "One dependent random read at a time over a buffer of the tables' heap "
           "(`latency/chase/<MiB>`): what a lookup pays for a line it could not "
           "prefetch, by how much memory its table spans. A bucket array of 1Mi "
           "buckets takes 8 MiB, of 2Mi 16 MiB (the resize case's two sizes). "
           "`latency/pages/<MiB>` reads one random line of each 4 KiB page only: "
           "a 64th of the data over the same pages, so where its latency still "
           "climbs with the buffer, the cost is the translation of the addresses "
           "(TLB misses), not the caches.", "",
           section_latency(r), "",
           "Batches of random reads all prefetched before any is read, the next "
           "batch depending on the data (`latency/window/w<reads>/<MiB>`): a batch "
           "costs a latency plus a little per read, so a round of a bulk lookup "
           "that has few keys left costs nearly as much as a full one.", "",
           section_window(r), ""]
    md += ["## Insert and remove", "",
           "Mops/s. `presized`: room for every entry before the first insert "
           "(rte_rhashtable: grown to n and emptied, since `nelem_hint` is 16 bits; "
           "rte_hash: entries = 1.125 n; cds_lfht: init_size = n rounded up). "
           "`grow`: the table starts at 64 buckets, the inserting thread runs the "
           "rehash worker; `grow_1w`: the same in a `single_writer` rte_rhashtable "
           "(no bucket locks, as rte_hash's single writer); `grow_service`: "
           "rte_rhashtable's rehash on a service lcore. A growing run ends when the table has settled. "
           "`_bulk32`: rte_rhashtable inserting bursts of 32 objects with "
           "`rte_rhashtable_lookup_insert_bulk()` (the other systems have no bulk insert). "
           "In parentheses: share of the batch32 memory-limit probe. The last two "
           "columns say what growth cost rte_rhashtable: the objects its rehash moved per "
           "insert (each doubling moves the 70% of the old size the table holds, about "
           "1.4 moves an entry from 64 buckets), and, where the inserting thread runs the "
           "worker, the time of a move and the share of the run spent moving.", "",
           section_writes(r), ""]
    md += ["## Memory per entry", "", section_memory(r), ""]
    md += ["## Lookups during a resize", "",
           "Lookups of present keys on the main lcore in 10 ms windows while a service "
           "lcore inserts keys until the table doubles from 128Ki to 256Ki buckets (lines "
           "of seven slots), then "
           "removes them until it halves back. Misses must be 0. The machine is shared: "
           "the rate is also given over the windows in which the lookup thread ran at "
           "least 90% of the time, and per second of its CPU time.", "",
           section_resize(r), ""]
    md += ["## A rehash held still", "",
           "The resize case's table on the main lcore alone, each state measured for "
           "a while with no other thread: at rest (128Ki buckets), with the extra keys "
           "inserted (the grow threshold passed, the rehash not started), with the "
           "rehash service run on the main lcore until a share of the objects had "
           "moved, then stopped (two bucket tables), and after the grow (256Ki buckets). "
           "Rates over the rate at rest: what the lookups' path and footprint cost "
           "in the middle of a rehash, apart from the writer's and the mover's "
           "traffic. Misses must be 0.", "",
           section_frozen(r), ""]
    err = errors(r)
    if err:
        md += ["## Errors and warnings", "", err, ""]
    if plots:
        md += ["## Plots", ""]
        md += ["![%s](%s)" % (p, p) for p in plots]
        md.append("")
    path = os.path.join(out_dir, "results.md")
    with open(path, "w") as f:
        f.write("\n".join(md))
    return path


def gnuplot(script):
    """Run a gnuplot script; False (and a warning) if gnuplot fails."""
    res = subprocess.run(["gnuplot"], input=script.encode(), capture_output=True)
    if res.returncode != 0:
        print("bench_report: gnuplot failed: %s" % res.stderr.decode().strip()[-300:],
              file=sys.stderr)
    return res.returncode == 0


def plot_lookup_vs_size(r, out_dir, stream):
    if not any(r.lookup(s, m, stream, n) for s in SYSTEMS for m in ("single", "bulk32")
               for n in r.sizes):
        return None
    series = [("rhashtable", "bulk32"), ("rte_hash", "bulk32"), ("rte_hash", "bulk32_bare"),
              ("rhashtable", "single"), ("rhashtable", "single_call"), ("rte_hash", "single"),
              ("rte_hash", "single_bare"), ("cds_lfht", "single")]
    dat = os.path.join(out_dir, ".lookup_%s.dat" % stream)
    with open(dat, "w") as f:
        for n in r.sizes:
            vals = [r.lookup(s, m, stream, n) for s, m in series]
            vals += [r.limit("batch32", n), r.limit("dep2", n), r.limit("chase", n)]
            f.write("%d %s\n" % (n, " ".join("NaN" if v is None else "%.4f" % v
                                               for v in vals)))
    titles = ["%s %s" % sm for sm in series] + ["limit: batch32 prefetched reads",
                                                 "limit: dep2, two dependent reads",
                                                 "limit: one dependent read"]
    png = "lookup_vs_size_%s.png" % stream
    xtics = ", ".join("'%s' %d" % (size_label(n), n) for n in r.sizes)
    plots = ", ".join(
        "'%s' using 1:%d with linespoints lw 2 %s title '%s'"
        % (dat, i + 2, "dt 2" if t.startswith("limit") else "", t)
        for i, t in enumerate(titles))
    ok = gnuplot("""set terminal pngcairo size 900,600 noenhanced
set output '%s'
set title 'Lookup rate vs table size (%s keys, one lcore)'
set logscale x 2
set logscale y 2
set xtics (%s)
set xrange [%g:%g]
set xlabel 'entries'
set ylabel 'Mops/s'
set key below
set grid
plot %s
""" % (os.path.join(out_dir, png), stream, xtics, min(r.sizes) / 1.5, max(r.sizes) * 1.5,
       plots))
    os.remove(dat)
    return png if ok else None


def plot_resize(trace, out_dir):
    rows = {}
    with open(trace) as f:
        for row in csv.DictReader(f):
            rows.setdefault(row["mode"], []).append(row)
    if not rows:
        return None
    dats, plots = [], []
    for i, (mode, rs) in enumerate(sorted(rows.items())):
        dat = os.path.join(out_dir, ".resize_%s.dat" % mode)
        with open(dat, "w") as f:
            for row in rs:
                f.write("%s %s %s %s %s\n" % (row["t_ms"], row["mops"], row["buckets"],
                                              row["on_cpu"], row.get("cpu_mops", "NaN")))
        dats.append(dat)
        plots.append("'%s' using 1:5 axes x1y1 with lines lw 2 title 'lookups %s, "
                     "per s of CPU time'" % (dat, mode))
        plots.append("'%s' using 1:2 axes x1y1 with lines lw 1 dt 3 title 'lookups %s, "
                     "wall clock'" % (dat, mode))
        plots.append("'%s' using 1:($3/1048576) axes x1y2 with steps dt 2 lw 1 "
                     "title 'buckets (Mi), %s run'" % (dat, mode))
    png = "resize_timeline.png"
    ok = gnuplot("""set terminal pngcairo size 900,520 noenhanced
set output '%s'
set title 'Lookups of present keys every 10 ms during 128Ki -> 256Ki -> 128Ki buckets'
set xlabel 'time (ms)'
set ylabel 'Mops/s'
set y2label 'buckets (Mi)'
set y2range [0:3]
set ytics nomirror
set y2tics
set yrange [0:*]
set key below
set grid
plot %s
""" % (os.path.join(out_dir, png), ", ".join(plots)))
    for d in dats:
        os.remove(d)
    return png if ok else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True, help="--benchmark_out JSON file")
    ap.add_argument("--trace", help="resize trace CSV (--trace_out)")
    ap.add_argument("--out", default=".", help="output directory")
    ap.add_argument("--machine", help="machine description file to link to")
    ap.add_argument("--dpdk", help="DPDK version the benchmark was built with")
    args = ap.parse_args()

    context, cases = load(args.json)
    r = Report(context, cases)
    os.makedirs(args.out, exist_ok=True)
    plots = []
    if shutil.which("gnuplot") is None:
        print("bench_report: gnuplot not found, no plots", file=sys.stderr)
    else:
        for stream in ("hit_uniform", "miss_uniform"):
            plots.append(plot_lookup_vs_size(r, args.out, stream))
        if args.trace and os.path.exists(args.trace):
            plots.append(plot_resize(args.trace, args.out))
        plots = [p for p in plots if p]
    path = write_markdown(r, args.out, plots, args.machine, args.dpdk)
    print("bench_report: wrote %s%s" % (path, "".join(", " + p for p in plots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
