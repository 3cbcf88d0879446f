#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd's telemetry commands, queried over the telemetry socket
while the application forwards a pcap of known flows (net_pcap, read once):
/flowpmd/stats must report consistent counters, /flowpmd/flow the exact
packet and byte counts of flows of the traffic (IPv4 and IPv6), and an
error (null) for an unknown or malformed tuple. The application must then
exit with status 0.

Usage: test_flowpmd_telemetry.py DPDK_FLOWPMD [--workdir DIR] [--no-huge]
(--no-huge runs it as on a machine without hugepages, where the application
falls back to --no-huge by itself.)
Exit status: 0 pass, 1 fail, 77 skip (no net_pcap PMD).
"""

import json
import os
import subprocess
import sys
import time

from flowpmd_testlib import (SKIP, connect, eal_prefix, make_trace, no_net_pcap, socket_path,
                             test_args, verdict, wait_exit, wait_stats)
DURATION_S = 4
STATS_FIELDS = ("backend", "fwd_mode", "rx", "tx", "lookups", "hits", "hit_pct", "flows",
                "flows_created", "flows_aged", "flows_flushed", "refused_full",
                "refused_other", "buckets", "tables", "rehashes", "reclaim_pending",
                "period_s", "rx_mpps", "tx_mpps")


def check_stats(stats, expected):
    if stats is None:
        return ["/flowpmd/stats returned null"]
    errors = ["/flowpmd/stats: no field %s" % f for f in STATS_FIELDS if f not in stats]
    if errors:
        return errors
    nflows = len(expected["flows"])
    checks = (
        (stats["rx"] == expected["packets"], "rx %d, expected %d" % (stats["rx"],
                                                                   expected["packets"])),
        (stats["flows"] == nflows, "flows %d, expected %d" % (stats["flows"], nflows)),
        (stats["flows_created"] == nflows, "flows_created %d, expected %d" %
         (stats["flows_created"], nflows)),
        (stats["rx"] >= stats["lookups"] >= stats["hits"],
         "not rx >= lookups >= hits: %d %d %d" % (stats["rx"], stats["lookups"], stats["hits"])),
        (stats["lookups"] == expected["ipv4"] + expected["ipv6"],
         "lookups %d, expected %d" % (stats["lookups"], expected["ipv4"] + expected["ipv6"])),
        (stats["flows_aged"] == 0 and stats["flows_flushed"] == 0, "flows aged or flushed"),
        (stats["buckets"] > 0 and stats["tables"] >= 1, "no bucket table"),
        (stats["backend"] == "rhashtable", "backend %s" % stats["backend"]),
        (stats["fwd_mode"] == "io", "fwd_mode %s" % stats["fwd_mode"]),
        (0 <= float(stats["hit_pct"]) <= 100, "hit_pct %s" % stats["hit_pct"]),
    )
    return ["/flowpmd/stats: " + msg for ok, msg in checks if not ok]


def flow_cmd(src, dst, proto, sport, dport):
    return "/flowpmd/flow,%s,%s,%s,%s,%s" % (src, dst, proto, sport, dport)


def check_flows(tel, expected):
    errors = []
    for family in ("ipv4", "ipv6"):
        flows = [f for f in expected["flows"] if f["family"] == family]
        if not flows:
            continue
        f = max(flows, key=lambda x: x["pkts"])
        cmd = flow_cmd(f["src"], f["dst"], f["proto"], f["sport"], f["dport"])
        got = tel.query(cmd)
        print(cmd, "->", got)
        if got is None or got.get("packets") != f["pkts"] or got.get("bytes") != f["bytes"]:
            errors.append("%s: %s, expected %d packets %d bytes" % (cmd, got, f["pkts"],
                                                                   f["bytes"]))
    bogus = [flow_cmd("192.0.2.1", "192.0.2.2", 6, 1, 2),       # not in the traffic
             flow_cmd("2001:db8::1", "2001:db8::2", 17, 1, 2),  # not in the traffic
             flow_cmd("10.0.0.1", "2001:db8::2", 6, 1, 2),      # mixed families
             flow_cmd("10.0.0.1", "10.0.0.2", 6, 1234, 65536),  # port out of range
             flow_cmd("10.0.0.1", "10.0.0.2", "tcp", 1234, 80),
             "/flowpmd/flow,10.0.0.1,10.0.0.2,6,1234",
             "/flowpmd/flow,10.0.0.1,10.0.0.2,6,1234,80,1",
             "/flowpmd/flow"]
    for cmd in bogus:
        got = tel.query(cmd)
        if got is not None:
            errors.append("%s: %s, expected null" % (cmd, got))
    return errors


def run(args, workdir, expected, pcap):
    prefix = eal_prefix("flowpmd_tel")
    cmd = [args.app, "--no-pci", "-l", "0-1", "--file-prefix=%s" % prefix]
    if args.no_huge:
        cmd += ["--no-huge", "-m", "512", "--no-shconf"]
    cmd += ["--vdev", "net_pcap0,rx_pcap=%s" % pcap, "--",
            "--max-flows=4096", "--max-flows6=4096", "--flow-timeout=1000",
            "--duration=%d" % DURATION_S, "--stats-period=0.5", "--fwd=io"]
    print("running:", " ".join(cmd), flush=True)
    log = open(os.path.join(workdir, "flowpmd.log"), "w+")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True)
    errors = []
    start = time.monotonic()
    tel = connect(proc, socket_path(prefix), start + 10)
    if tel is None:
        errors.append("no telemetry socket at %s" % socket_path(prefix))
    else:
        # once the whole pcap went through and a period was published
        stats = wait_stats(tel, lambda s: s["rx"] >= expected["packets"] and
                           float(s["period_s"]) > 0, start + 10)
        print("/flowpmd/stats ->", json.dumps(stats))
        errors += check_stats(stats, expected)
        errors += check_flows(tel, expected)
        tel.close()
    rc, output = wait_exit(proc, log)
    print(output)
    return rc, output, errors, time.monotonic() - start


def main():
    args = test_args("flowpmd_telemetry", ("--no-huge", {"action": "store_true"}))
    workdir = args.workdir
    pcap, expected = make_trace(workdir)

    rc, output, errors, secs = run(args, workdir, expected, pcap)
    if no_net_pcap(rc, output):
        return SKIP
    if rc != 0:
        errors.append("dpdk-flowpmd exited with %d" % rc)
    return verdict(errors, "/flowpmd/stats and /flowpmd/flow while forwarding %d packets "
                   "of %d flows, exit 0 (%.1f s)" % (expected["packets"],
                                                     len(expected["flows"]), secs))


if __name__ == "__main__":
    sys.exit(main())
