#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd's interactive commands, typed on its standard input while it
forwards a pcap of known flows (net_pcap, read once, and a second port of
the same file so that `show port stats` has two lines): each command's
answer must agree with the counts flowpmd_pcap_gen.py computed for the file.

  start, show port stats      both ports received the file
  show flow-table             every flow in the table, none refused
  show flow <5-tuple>         a known flow's packets and bytes; "no such
                              flow" for an unknown one; the family check
  show top-flows N            the N largest flows, largest first
  set fwd drop                the mode changes
  flush, show flow            the table empties
  quit                        exit status 0

Usage: test_flowpmd_cmdline.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail.
"""

import os
import re
import subprocess
import sys
import time

from flowpmd_testlib import (connect, eal_prefix, make_trace, socket_path, test_args, type_line,
                             verdict, wait_exit, wait_rx)
FLOW = ("10.0.0.1", "10.0.0.2", 6, 1234, 80)  # 7 packets in the file


def run(app, workdir, pcap, packets):
    prefix = eal_prefix("flowpmd_cmdline")
    cmd = [app, "--no-pci", "--no-huge", "-m", "512", "-l", "0-1",
           "--file-prefix=%s" % prefix,
           "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (pcap, os.path.join(workdir, "o0.pcap")),
           "--vdev", "net_pcap1,rx_pcap=%s,tx_pcap=%s" % (pcap, os.path.join(workdir, "o1.pcap")),
           "--", "-i", "--max-flows=8192", "--flow-timeout=1000"]
    print("running:", " ".join(cmd), flush=True)
    log = open(os.path.join(workdir, "flowpmd.log"), "w+")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                            text=True)
    errors = []
    tel = connect(proc, socket_path(prefix), time.monotonic() + 20)
    if tel is None:
        errors.append("no telemetry socket at %s" % socket_path(prefix))
    type_line(proc, "start")
    # the answers below are about the whole file: wait until both ports read it
    if tel is not None and not wait_rx(tel, 2 * packets, time.monotonic() + 30):
        errors.append("the two ports did not receive the file twice")
    for line in ["show port stats", "show flow-table", "show flow %s %s %d %d %d" % FLOW,
                 "show flow 10.0.0.9 10.0.0.2 6 1234 80",
                 "show flow 10.0.0.1 2001:db8::2 6 1234 80", "show top-flows 3",
                 "set fwd drop", "flush", "show flow-table",
                 "show flow %s %s %d %d %d" % FLOW, "quit"]:
        type_line(proc, line)
    if tel is not None:
        tel.close()
    rc, out = wait_exit(proc, log)
    print(out)
    return rc, out, errors


def check(out, expected):
    errors = []
    flows = {(f["src"], f["dst"], f["proto"], f["sport"], f["dport"]): f
             for f in expected["flows"]}
    n, nflows = expected["packets"], len(expected["flows"])
    ports = re.findall(r"^port (\d+): rx (\d+) pkts", out, re.M)
    if sorted(ports) != [("0", str(n)), ("1", str(n))]:
        errors.append("show port stats: %s, expected rx %d on ports 0 and 1" % (ports, n))
    tables = re.findall(r"^  flows (\d+), buckets", out, re.M)
    if tables[:1] != [str(nflows)]:
        errors.append("show flow-table: flows %s, expected %d" % (tables[:1], nflows))
    if len(tables) < 2 or tables[1] != "0":
        errors.append("show flow-table after flush: flows %s, expected 0" % tables[1:])
    f = flows[FLOW]
    want = ": %d pkts %d bytes" % (2 * f["pkts"], 2 * f["bytes"])
    if want not in out:
        errors.append("show flow: no line with '%s'" % want)
    if out.count("no such flow") != 2:
        errors.append("'no such flow' %d times, expected 2 (unknown flow, after flush)" %
                      out.count("no such flow"))
    if "source and destination must be of the same family" not in out:
        errors.append("no family error for a mixed tuple")
    top = [int(p) for p in re.findall(r"^ +\d+ \S+ \S+ proto \d+ sport \d+ dport \d+: (\d+) pkts",
                                      out, re.M)]
    largest = sorted((2 * x["pkts"] for x in expected["flows"]), reverse=True)[:3]
    if top != largest:
        errors.append("show top-flows 3: %s, expected %s" % (top, largest))
    if "flushed %d flows" % nflows not in out:
        errors.append("flush: not 'flushed %d flows'" % nflows)
    if "fwd mode: drop" not in out:
        errors.append("set fwd drop: no 'fwd mode: drop'")
    if not re.search(r"flows now 0, aged 0, flushed %d" % nflows, out):
        errors.append("summary: not 'flows now 0, aged 0, flushed %d'" % nflows)
    return errors


def main():
    args = test_args("flowpmd_cmdline")
    app, workdir = args.app, args.workdir
    pcap, expected = make_trace(workdir)
    rc, out, errors = run(app, workdir, pcap, expected["packets"])
    errors += check(out, expected)
    if rc != 0:
        errors.append("dpdk-flowpmd exited with %d" % rc)
    return verdict(errors, "every interactive command answered as the trace says")


if __name__ == "__main__":
    sys.exit(main())
