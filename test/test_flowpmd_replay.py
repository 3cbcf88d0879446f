#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd replaying a capture of FLOWS distinct flows (default 1Mi),
one 64-byte packet each, with net_pcap's infinite_rx=1, as DPDK users
benchmark on a capture without a NIC:

1. with the default mbuf pool the port's setup must fail with exit status 1
   (no crash on the way out), and the error must
   name --total-num-mbufs and a count large enough;
2. with that count (and --mbuf-size=192, so the pool stays small, and the
   largest --burst, 64) the replay runs: every flow of the file is in the table, and, the file being
   replayed in order, flow i has received R // FLOWS packets, one more when
   i < R % FLOWS (R the packets received), which the --dump-flows file must
   show for every flow.

Usage: test_flowpmd_replay.py DPDK_FLOWPMD [--workdir DIR] [--flows N]
Exit status: 0 pass, 1 fail, 77 skip (no net_pcap PMD).
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys

from flowpmd_testlib import SKIP, no_net_pcap, socket_path, test_args, verdict
SRC_BASE = 0x0B000000      # flow i: source 11.0.0.0 + i
DST = 0x0C000001           # 12.0.0.1
SPORT, DPORT = 4000, 5000
FRAME_LEN = 64


def write_capture(path, flows):
    """One 64-byte UDP frame per flow, flow i at position i of the file."""
    eth = bytes.fromhex("020000000002020000000001") + struct.pack("!H", 0x0800)
    ip_len = FRAME_LEN - len(eth)
    frame = bytearray(eth + struct.pack("!BBHHHBBHII", 0x45, 0, ip_len, 0, 0, 64, 17, 0,
                                        SRC_BASE, DST) +
                      struct.pack("!HHHH", SPORT, DPORT, ip_len - 20, 0))
    frame += bytes(FRAME_LEN - len(frame))
    rec = bytearray(struct.pack("<IIII", 1700000000, 0, FRAME_LEN, FRAME_LEN)) + frame
    src_off = 16 + len(eth) + 12
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(flows):
            struct.pack_into("!I", rec, src_off, SRC_BASE + i)
            f.write(rec)


def run_app(args, pcap, workdir, extra, name):
    summary = os.path.join(workdir, name + ".json")
    dump = os.path.join(workdir, name + "_flows.json")
    prefix = "flowpmd_replay_%d" % os.getpid()
    cmd = [args.app, "--no-pci", "-l", "0-1", "--file-prefix=" + prefix,
           "--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap, "--",
           "--max-flows=%d" % (args.flows * 5 // 4), "--max-flows6=4096",
           "--flow-timeout=1000", "--duration=%s" % args.duration, "--stats-period=0",
           "--mbuf-size=192", "--json=%s" % summary, "--dump-flows=%s" % dump] + extra
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    # EAL leaves its runtime directory behind
    shutil.rmtree(os.path.dirname(socket_path(prefix)), ignore_errors=True)
    print(proc.stdout[-3000:])
    return proc, summary, dump


def suggested_mbufs(output):
    m = re.search(r"raise --total-num-mbufs from \d+ to at least (\d+)", output)
    return int(m.group(1)) if m else None


def check_counts(flows, summary, dumped):
    errors = []
    rx = summary["rx"]
    base, extra = divmod(rx, flows)
    if base < 1:
        errors.append("received %d packets, fewer than the %d flows of the file" % (rx, flows))
    if summary["flows"] != flows or summary["inserts"] != flows:
        errors.append("summary flows %d, created %d, expected %d" % (summary["flows"],
                                                                    summary["inserts"], flows))
    seen = bytearray(flows)
    for f in dumped["flows"]:
        i = struct.unpack("!I", bytes(int(x) for x in f["src"].split(".")))[0] - SRC_BASE
        if not 0 <= i < flows or seen[i] or (f["dst"], f["sport"], f["dport"], f["proto"]) != \
                ("12.0.0.1", SPORT, DPORT, 17):
            errors.append("unexpected or repeated flow %s" % f)
            break
        seen[i] = 1
        want = base + (1 if i < extra else 0)
        if f["pkts"] != want or f["bytes"] != want * FRAME_LEN:
            errors.append("flow %d (%s): %d packets %d bytes, expected %d packets" %
                          (i, f["src"], f["pkts"], f["bytes"], want))
            break
    if sum(seen) != flows:
        errors.append("%d flows of the file missing from the dump" % (flows - sum(seen)))
    return errors


def main():
    args = test_args("flowpmd_replay", ("--flows", {"type": int, "default": 1 << 20}),
                     ("--duration", {"default": "3"}))
    workdir = args.workdir
    pcap = os.path.join(workdir, "replay.pcap")
    write_capture(pcap, args.flows)

    proc, _, _ = run_app(args, pcap, workdir, [], "default_pool")
    if no_net_pcap(proc.returncode, proc.stdout):
        return SKIP
    need = suggested_mbufs(proc.stdout)
    # exit status 1: a clean failure, not a crash on the way out (net_pcap
    # freed its ring twice when the app closed the port)
    if proc.returncode != 1 or need is None or need < args.flows:
        return verdict(["with the default pool: exit %d, advice %s (want exit 1 and advice "
                        "naming --total-num-mbufs and at least %d)" % (proc.returncode, need,
                                                                       args.flows)], "")
    proc, summary_path, dump_path = run_app(args, pcap, workdir,
                                            ["--total-num-mbufs=%d" % need, "--burst=64"], "replay")
    if proc.returncode != 0:
        return verdict(["with --total-num-mbufs=%d: exit %d" % (need, proc.returncode)], "")
    with open(summary_path) as f:
        summary = [json.loads(x) for x in f if x.strip()][-1]
    with open(dump_path) as f:
        dumped = json.load(f)
    errors = check_counts(args.flows, summary, dumped)
    return verdict(errors, "default pool refused with --total-num-mbufs=%d advised; replay of "
                   "%d flows: %d packets, every flow counted R // N or R // N + 1 in file "
                   "order" % (need, args.flows, summary["rx"]))


if __name__ == "__main__":
    sys.exit(main())
