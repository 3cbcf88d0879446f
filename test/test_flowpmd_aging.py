#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd, interactive, on net_flowgen: `start` fills the table with
the generator's flows (it grows), `stop` ends the traffic, and aging on the
main lcore must then remove every flow and the table must shrink back
(watched over telemetry: flows 0, fewer buckets than at the peak, shrinks
counted), with no insert refused. `quit` must exit with status 0.

Usage: test_flowpmd_aging.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail.
"""

import os
import subprocess
import sys
import time

from flowpmd_testlib import (connect, eal_prefix, socket_path, test_args, type_line, verdict,
                             wait_exit, wait_stats)

FLOWS = 50000
TIMEOUT_S = 1


def check(tel, proc):
    errors = []
    type_line(proc, "start")
    full = wait_stats(tel, lambda s: s["flows"] >= FLOWS, time.monotonic() + 30)
    print("traffic:", full, flush=True)
    if full is None or full["flows"] < FLOWS:
        return ["the table never held the %d flows: %s" % (FLOWS, full)]
    type_line(proc, "stop")
    peak = tel.query("/flowpmd/stats")
    empty = wait_stats(tel, lambda s: s["flows"] == 0 and s["shrinks"] > peak["shrinks"] and
                     s["tables"] == 1 and s["buckets"] * 8 <= peak["buckets"],
                     time.monotonic() + 60)
    print("stopped:", peak, "\nafter aging:", empty, flush=True)
    if empty["flows"] != 0:
        errors.append("%d flows left after the traffic ended" % empty["flows"])
    if empty["buckets"] * 8 > peak["buckets"]:
        errors.append("buckets %d, at the peak %d: the table did not shrink" %
                      (empty["buckets"], peak["buckets"]))
    if empty["shrinks"] <= peak["shrinks"]:
        errors.append("no shrink counted")
    if empty["flows_aged"] != empty["flows_created"]:
        errors.append("aged %d of %d flows created" % (empty["flows_aged"],
                                                       empty["flows_created"]))
    if empty["refused_full"] + empty["refused_other"] != 0:
        errors.append("inserts refused")
    if empty["rx"] != empty["tx"]:
        errors.append("rx %d, tx %d" % (empty["rx"], empty["tx"]))
    return errors


def main():
    args = test_args("flowpmd_aging")
    app, workdir = args.app, args.workdir
    prefix = eal_prefix("flowpmd_aging")
    cmd = [app, "--no-pci", "--no-huge", "-m", "512", "-l", "0-1",
           "--file-prefix=%s" % prefix, "--vdev", "net_flowgen0,flows=%d" % FLOWS, "--",
           "-i", "--max-flows=%d" % (2 * FLOWS), "--flow-timeout=%d" % TIMEOUT_S]
    print("running:", " ".join(cmd), flush=True)
    log = open(os.path.join(workdir, "flowpmd.log"), "w+")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                            text=True)
    tel = connect(proc, socket_path(prefix), time.monotonic() + 20)
    if tel is None:
        errors = ["no telemetry socket at %s" % socket_path(prefix)]
    else:
        errors = check(tel, proc)
        tel.close()
    try:
        type_line(proc, "quit")
    except BrokenPipeError:
        pass
    rc, output = wait_exit(proc, log)
    print(output)
    if rc != 0:
        errors.append("dpdk-flowpmd exited with %d" % rc)
    return verdict(errors, "the flows aged out and the table shrank after the traffic ended")


if __name__ == "__main__":
    sys.exit(main())
