#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Run examples/flow_table for about 3 seconds and check that it exits 0 and
reports flows. Traffic: net_flowgen when the driver is built, else net_pcap
replaying (infinite_rx) a pcap of known flows written by flowpmd_pcap_gen.py.
(net_null is no use here: its frames are all zero, so no IPv4 flow.)

Usage: test_flow_table_example.py DPDK_FLOW_TABLE flowgen|pcap [WORKDIR]
"""

import os
import re
import subprocess
import sys
import tempfile

from flowpmd_testlib import eal_prefix

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    app, traffic = sys.argv[1], sys.argv[2]
    workdir = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="flow_table_")
    os.makedirs(workdir, exist_ok=True)
    if traffic == "flowgen":
        vdev = "net_flowgen0,flows=10000"
    else:
        pcap = os.path.join(workdir, "flows.pcap")
        subprocess.run([sys.executable, os.path.join(HERE, "flowpmd_pcap_gen.py"), pcap,
                        os.path.join(workdir, "expected.json")], check=True)
        vdev = "net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap
    cmd = [app, "--no-pci", "-l", "0-1", "--file-prefix=" + eal_prefix("flow_table_example"), "--vdev", vdev,
           "--", "--duration", "3"]
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)
    print(proc.stdout)
    counts = [int(n) for n in re.findall(r"^flows: (\d+)", proc.stdout, re.M)]
    if proc.returncode != 0:
        print("FAIL: exit status %d" % proc.returncode)
        return 1
    if not counts or max(counts) == 0:
        print("FAIL: no flow reported")
        return 1
    print("PASS: exit 0, up to %d flows" % max(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
