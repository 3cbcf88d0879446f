#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd on a pcap of known flows (net_pcap, read once, no
infinite_rx): the flows it dumps at exit, with their packet and byte
counts, and its summary counters must match what flowpmd_pcap_gen.py
computed while writing the file.

Usage: test_flowpmd_pcap.py DPDK_FLOWPMD [--backend rhashtable|rte_hash]
                            [--pipeline N] [--workdir DIR]
(--pipeline: bursts in flight before a lookup; every packet of the file must
still be counted, those in flight when the input ends included.)
Exit status: 0 pass, 1 fail, 77 skip (no net_pcap PMD).
"""

import json
import os
import subprocess
import sys

from flowpmd_testlib import SKIP, eal_prefix, flow_key, make_trace, no_net_pcap, test_args, verdict


def run_app(app, backend, pipeline, pcap, workdir):
    summary = os.path.join(workdir, "summary.json")
    dump = os.path.join(workdir, "flows.json")
    cmd = [app, "--no-pci", "-l", "0-1", "--file-prefix=" + eal_prefix("flowpmd_pcap_%s" % backend),
           "--vdev", "net_pcap0,rx_pcap=%s" % pcap, "--",
           "--flow-table=%s" % backend, "--max-flows=4096", "--max-flows6=4096",
           "--flow-timeout=1000", "--duration=1.5", "--fwd=io",
           "--json=%s" % summary, "--dump-flows=%s" % dump]
    if pipeline is not None:
        cmd.append("--pipeline=%d" % pipeline)
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    print(proc.stdout)
    return proc, summary, dump


def load_summary(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return [x for x in lines if x.get("type") == "summary"][-1]


def compare(expected, summary, dumped):
    errors = []
    for field, name in (("packets", "rx"), ("ipv4", "ipv4"), ("ipv6", "ipv6"),
                        ("vlan", "vlan"), ("other", "other")):
        if summary[name] != expected[field]:
            errors.append("summary %s: %d, expected %d" % (name, summary[name], expected[field]))
    if summary["flows"] != len(expected["flows"]):
        errors.append("summary flows: %d, expected %d" % (summary["flows"], len(expected["flows"])))
    if summary["inserts"] != len(expected["flows"]):
        errors.append("flows created: %d, expected %d" % (summary["inserts"],
                                                          len(expected["flows"])))
    want = {flow_key(f): (f["pkts"], f["bytes"]) for f in expected["flows"]}
    got = {flow_key(f): (f["pkts"], f["bytes"]) for f in dumped["flows"]}
    if len(got) != len(dumped["flows"]):
        errors.append("the dump lists a flow twice")
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            errors.append("flow %s: dumped (pkts, bytes) %s, expected %s" % (k, got.get(k),
                                                                            want.get(k)))
    return errors


def main():
    args = test_args("flowpmd_pcap", ("--backend", {"default": "rhashtable"}),
                     ("--pipeline", {"type": int}))
    workdir = args.workdir
    pcap, expected = make_trace(workdir)

    proc, summary_path, dump_path = run_app(args.app, args.backend, args.pipeline, pcap,
                                                 workdir)
    if no_net_pcap(proc.returncode, proc.stdout):
        return SKIP
    if proc.returncode != 0:
        print("FAIL: dpdk-flowpmd exited with %d" % proc.returncode)
        return 1
    with open(dump_path) as f:
        dumped = json.load(f)
    errors = compare(expected, load_summary(summary_path), dumped)
    return verdict(errors, "%d packets, %d flows, per-flow packet and byte counts match "
                   "(%s, pipeline %s)" % (expected["packets"], len(expected["flows"]),
                                          args.backend, "default" if args.pipeline is None
                                          else args.pipeline))


if __name__ == "__main__":
    sys.exit(main())
