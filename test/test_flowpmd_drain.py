#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd on net_flowgen, stopped while traffic still flows: with
--pipeline=N, up to N received bursts are in flight when forwarding stops,
and the forwarding lcore must finish them. So every packet received must be
sent (io mode; net_flowgen's TX takes every packet) and counted in a flow.

Usage: test_flowpmd_drain.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail.
"""

import json
import os
import subprocess
import sys

from flowpmd_testlib import eal_prefix, test_args


def run(app, workdir, pipeline):
    summary = os.path.join(workdir, "summary_%d.json" % pipeline)
    dump = os.path.join(workdir, "flows_%d.json" % pipeline)
    cmd = [app, "--no-pci", "--no-huge", "-m", "512", "-l", "0-1",
           "--file-prefix=" + eal_prefix("flowpmd_drain"), "--vdev", "net_flowgen0,flows=4096", "--",
           "--max-flows=8192", "--flow-timeout=1000", "--duration=0.5", "--fwd=io",
           "--pipeline=%d" % pipeline, "--json=%s" % summary, "--dump-flows=%s" % dump]
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120)
    if proc.returncode != 0:
        print(proc.stdout)
        return ["dpdk-flowpmd exited with %d" % proc.returncode]
    with open(summary) as f:
        s = [json.loads(x) for x in f if x.strip()]
    s = [x for x in s if x.get("type") == "summary"][-1]
    with open(dump) as f:
        counted = sum(fl["pkts"] for fl in json.load(f)["flows"])
    errors = []
    if s["rx"] == 0:
        errors.append("pipeline %d: no packet received" % pipeline)
    if s["tx"] != s["rx"]:
        errors.append("pipeline %d: rx %d, tx %d" % (pipeline, s["rx"], s["tx"]))
    if counted != s["rx"]:
        errors.append("pipeline %d: rx %d, counted in flows %d" % (pipeline, s["rx"], counted))
    print("pipeline %d: rx %d tx %d counted %d" % (pipeline, s["rx"], s["tx"], counted))
    return errors


def main():
    args = test_args("flowpmd_drain")
    app, workdir = args.app, args.workdir
    errors = []
    for pipeline in (0, 1, 3):
        errors += run(app, workdir, pipeline)
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
