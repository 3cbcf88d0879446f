#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd's per-lcore counters, with two forwarding lcores (lcores 1
and 2 sharing one CPU: --lcores 0@0,1@1,2@1) polling one RX queue each of a
two-queue net_flowgen port (RSS):

- /flowpmd/lcores (telemetry) lists lcores 1 and 2, each having received
  packets, and their receive counts add up to between the totals that
  /flowpmd/stats reported just before and just after;
- the JSON summary's "lcores" add up to its totals, field by field, and each
  received packets; every JSON stats line has both lcores' rates, adding up
  to the line's rate;
- the text summary has one line per lcore with the JSON's counts, and the
  periodic text line ends with each lcore's rate.

Usage: test_flowpmd_lcores.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

from flowpmd_testlib import connect, socket_path, test_args, verdict, wait_exit, wait_rx

LCORES = ("1", "2")
FIELDS = ("rx", "rx_bytes", "tx", "tx_drop", "lookups", "hits", "inserts", "insert_exist",
          "refused_full", "refused_other", "alloc_fail", "ipv4", "ipv6", "vlan", "other")
TEL_FIELDS = ("rx", "tx", "tx_drop", "lookups", "hits", "hit_pct", "flows_created",
              "refused_full", "refused_other", "alloc_fail", "rx_mpps")


def check_telemetry(tel):
    errors = []
    before = tel.query("/flowpmd/stats")
    lcores = tel.query("/flowpmd/lcores")
    after = tel.query("/flowpmd/stats")
    print("/flowpmd/lcores ->", json.dumps(lcores))
    if lcores is None or sorted(lcores) != list(LCORES):
        return ["/flowpmd/lcores: %s, expected lcores %s" % (lcores, LCORES)]
    for lc, s in lcores.items():
        errors += ["/flowpmd/lcores: lcore %s has no %s" % (lc, f) for f in TEL_FIELDS
                   if f not in s]
        if s.get("rx", 0) == 0:
            errors.append("/flowpmd/lcores: lcore %s received nothing" % lc)
    rx = sum(s.get("rx", 0) for s in lcores.values())
    if not before["rx"] <= rx <= after["rx"]:
        errors.append("/flowpmd/lcores: rx %d not between /flowpmd/stats %d and %d" %
                      (rx, before["rx"], after["rx"]))
    if before.get("fwd_lcores") != len(LCORES):
        errors.append("/flowpmd/stats fwd_lcores %s" % before.get("fwd_lcores"))
    return errors


def check_json(path):
    with open(path) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    summary = [x for x in lines if x["type"] == "summary"][-1]
    stats = [x for x in lines if x["type"] == "stats"]
    lcores = summary.get("lcores", [])
    errors = []
    if sorted(str(x["lcore"]) for x in lcores) != list(LCORES):
        return ["summary lcores %s" % lcores]
    for f in FIELDS:
        total = sum(x[f] for x in lcores)
        if total != summary[f]:
            errors.append("summary %s %d, lcores add up to %d" % (f, summary[f], total))
    errors += ["summary: lcore %d received nothing" % x["lcore"] for x in lcores if x["rx"] == 0]
    if not stats:
        errors.append("no JSON stats line")
    for st in stats:
        rates = st.get("lcore_rx_mpps", {})
        if sorted(rates) != list(LCORES) or abs(sum(rates.values()) - st["rx_mpps"]) > 0.01:
            errors.append("stats line %s: lcore rates %s" % (st["t"], rates))
    return errors, lcores


def check_text(output, lcores):
    errors = []
    for x in lcores:
        m = re.search(r"^  lcore %d: rx (\d+) pkts" % x["lcore"], output, re.M)
        if m is None or int(m.group(1)) != x["rx"]:
            errors.append("text summary of lcore %d: %s, JSON rx %d" %
                          (x["lcore"], m.group(0) if m else None, x["rx"]))
    if not re.search(r"\| lcore Mpps 1:[0-9.]+ 2:[0-9.]+$", output, re.M):
        errors.append("no per-lcore rates on the periodic text line")
    return errors


def main():
    args = test_args("flowpmd_lcores")
    workdir = args.workdir
    summary = os.path.join(workdir, "run.json")
    prefix = "flowpmd_lcores_%d" % os.getpid()
    cmd = [args.app, "--no-pci", "--lcores", "0@0,1@1,2@1", "--file-prefix=" + prefix,
           "--vdev", "net_flowgen0,flows=4096,queues=2", "--",
           "--max-flows=16384", "--duration=4", "--stats-period=0.5",
           "--json=%s" % summary]
    print("running:", " ".join(cmd), flush=True)
    log = open(os.path.join(workdir, "flowpmd.log"), "w+")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True)
    errors = []
    tel = connect(proc, socket_path(prefix), time.monotonic() + 20)
    if tel is None:
        errors.append("no telemetry socket")
    else:
        if wait_rx(tel, 100000, time.monotonic() + 10):
            errors += check_telemetry(tel)
        else:
            errors.append("fewer than 100000 packets received")
        tel.close()
    rc, output = wait_exit(proc, log)
    shutil.rmtree(os.path.dirname(socket_path(prefix)), ignore_errors=True)
    print(output[-4000:])
    if rc != 0:
        errors.append("dpdk-flowpmd exited with %d" % rc)
        return verdict(errors, "")
    json_errors, lcores = check_json(summary)
    errors += json_errors
    errors += check_text(output, lcores)
    return verdict(errors, "per-lcore counters of lcores 1 and 2 in telemetry, JSON "
                   "(summary and stats lines) and text add up to the totals")


if __name__ == "__main__":
    sys.exit(main())
