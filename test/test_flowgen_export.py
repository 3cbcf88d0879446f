#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""net_flowgen's em_rules and pcap devargs: the population written at port
start must be the traffic the port generates.

For IPv4 (UDP and TCP flows, two RSS queues) and IPv6 (one queue):
- dpdk-flowpmd forwards net_flowgen's traffic (a few million packets of a
  few thousand flows, so every flow is drawn) with em_rules=FILE,pcap=FILE:
  the rule file has one l3fwd EM rule ("R<dst> <src> <dport> <sport> <proto>
  <port>") per flow, no two alike, and the flows dpdk-flowpmd counted are
  exactly those rules;
- dpdk-flowpmd then reads the capture once (net_pcap): one packet per flow,
  of the generator's frame size, and the same flows again.
A path that cannot be written makes the port's start fail, with a log line.

Usage: test_flowgen_export.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail, 77 skip (no net_pcap PMD).
"""

import ipaddress
import json
import os
import shutil
import subprocess
import sys

from flowpmd_testlib import SKIP, no_net_pcap, socket_path, test_args, verdict
FLOWS = 3000
CASES = {
    "ipv4": "flows=%d,proto=mix,queues=2,pkt_size=80" % FLOWS,
    "ipv6": "flows=%d,ipv6=1,seed=7" % FLOWS,
}


def run(app, lcores, vdev, workdir, name, extra=()):
    prefix = "flowgen_export_%d" % os.getpid()
    dump = os.path.join(workdir, name + "_flows.json")
    cmd = [app, "--no-pci", "--lcores", lcores, "--file-prefix=" + prefix, "--vdev", vdev,
           "--", "--max-flows=16384", "--max-flows6=16384", "--flow-timeout=1000",
           "--stats-period=0", "--dump-flows=" + dump] + list(extra)
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120)
    shutil.rmtree(os.path.dirname(socket_path(prefix)), ignore_errors=True)
    print(proc.stdout[-2000:])
    flows = None
    if proc.returncode == 0:
        with open(dump) as f:
            flows = json.load(f)["flows"]
    return proc, flows


def tuple_of(src, dst, proto, sport, dport):
    return (str(ipaddress.ip_address(src)), str(ipaddress.ip_address(dst)), int(proto),
            int(sport), int(dport))


def read_rules(path):
    rules = []
    with open(path) as f:
        for line in f:
            dst, src, dport, sport, proto, port = line[1:].split()
            if line[0] != "R" or port != "0":
                raise ValueError("bad rule %r" % line)
            rules.append(tuple_of(src, dst, proto, sport, dport))
    return rules


def flow_set(flows):
    return {tuple_of(f["src"], f["dst"], f["proto"], f["sport"], f["dport"]) for f in flows}


def check_case(app, family, devargs, workdir):
    rules_path = os.path.join(workdir, family + ".cfg")
    pcap_path = os.path.join(workdir, family + ".pcap")
    vdev = "net_flowgen0,%s,em_rules=%s,pcap=%s" % (devargs, rules_path, pcap_path)
    lcores = "0@0,1@1,2@1" if "queues=2" in devargs else "0-1"
    proc, gen_flows = run(app, lcores, vdev, workdir, family + "_gen", ["--duration=1"])
    if gen_flows is None:
        return ["%s: flowpmd on net_flowgen exited with %d" % (family, proc.returncode)]
    errors = []
    rules = read_rules(rules_path)
    if len(rules) != FLOWS or len(set(rules)) != FLOWS:
        errors.append("%s: %d rules, %d distinct, expected %d" % (family, len(rules),
                                                                  len(set(rules)), FLOWS))
    if flow_set(gen_flows) != set(rules):
        errors.append("%s: the %d flows generated are not the %d rules" %
                      (family, len(gen_flows), len(rules)))
    if family == "ipv4" and {r[2] for r in rules} != {6, 17}:
        errors.append("ipv4: proto=mix gave the protocols %s" % {r[2] for r in rules})
    proc, pcap_flows = run(app, "0-1", "net_pcap0,rx_pcap=" + pcap_path, workdir,
                           family + "_pcap", ["--duration=1.5"])
    if pcap_flows is None:
        if no_net_pcap(proc.returncode, proc.stdout):
            return errors + ["SKIP"]
        return errors + ["%s: flowpmd on the capture exited with %d" % (family,
                                                                       proc.returncode)]
    size = 80 if family == "ipv4" else 64   # pkt_size=80; the default, 64
    bad = [f for f in pcap_flows if f["pkts"] != 1 or f["bytes"] != size]
    if bad:
        errors.append("%s: capture flows with other than one %d-byte packet: %s" %
                      (family, size, bad[:3]))
    if flow_set(pcap_flows) != set(rules):
        errors.append("%s: the %d flows of the capture are not the rules" %
                      (family, len(pcap_flows)))
    return errors


def check_bad_path(app, workdir):
    vdev = "net_flowgen0,flows=16,em_rules=%s" % os.path.join(workdir, "no", "such", "x.cfg")
    proc, _ = run(app, "0-1", vdev, workdir, "badpath", ["--duration=0.2"])
    if proc.returncode == 0 or "cannot write l3fwd EM rules" not in proc.stdout:
        return ["unwritable em_rules path: exit %d, no error line" % proc.returncode]
    return []


def main():
    args = test_args("flowgen_export")
    workdir = args.workdir
    errors = []
    for family, devargs in CASES.items():
        errors += check_case(args.app, family, devargs, workdir)
    if "SKIP" in errors:
        return SKIP
    errors += check_bad_path(args.app, workdir)
    return verdict(errors, "em_rules and pcap hold the %d flows net_flowgen generates "
                   "(IPv4 two queues, IPv6 one), one packet each in the capture" % FLOWS)


if __name__ == "__main__":
    sys.exit(main())
