#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd on DPDK's own virtual PMDs, with the flows of
flowpmd_pcap_gen.py (each frame's flow and the counts it must reach are
known in advance):

  null       net_null: all-zero frames, every one counted as "other" and
             forwarded, no flow created.
  ring       net_pcap reading the file once, paired with net_ring: what
             the pcap port receives goes out of the ring port, whose RX
             ring is its TX ring, so it comes back in and goes out of the
             pcap port into a capture file. Every flow is counted twice
             per frame, and the output capture holds every frame.
  tap        net_tap: the frames are sent into the kernel side of the tap
             interface through an AF_PACKET socket, so the PMD receives
             them; every flow of the file must be counted exactly. The
             frames go a batch at a time, the next once the application
             (over telemetry) has received the previous ones, so that a
             busy machine delays them instead of overflowing a queue.
  af_packet  net_af_packet on one end of a veth pair, the frames sent into
             the other end. Before DPDK 25.11 the PMD's socket asks the
             kernel to reassemble IPv4 fragments (PACKET_FANOUT_FLAG_DEFRAG),
             so a fragmented datagram arrives whole, as one packet of its
             first fragment's flow; since 25.11 it does so only with two
             queues or more, and the fragments arrive as sent.

tap and af_packet need root (they create interfaces); without it they are
reported as not run and the others still decide the result.

Usage: test_flowpmd_vdevs.py DPDK_FLOWPMD [--workdir DIR]
Env:   RHT_DPDK_VERSION  the DPDK release in use (test/meson.build sets it)
Exit status: 0 pass, 1 fail.
"""

import json
import os
import socket
import struct
import subprocess
import sys
import time

from flowpmd_testlib import (connect, eal_prefix, flow_key, make_trace, socket_path, test_args,
                             type_line, verdict, wait_exit, wait_rx, wait_stats)

TAP_IFACE = "rhtflowtap0"
VETH = ("rhtflowveth0", "rhtflowveth1")
INJECT_BATCH = 32


def run_app(app, workdir, name, vdevs, duration=None, feed=None):
    """Run flowpmd in batch mode for duration, or interactive with
    feed(proc, file_prefix) typing its commands. Errors, summary and dump."""
    summary = os.path.join(workdir, name + "_summary.json")
    dump = os.path.join(workdir, name + "_flows.json")
    prefix = eal_prefix("flowpmd_vdevs_%s" % name)
    cmd = [app, "--no-pci", "--no-huge", "-m", "512", "-l", "0-1",
           "--file-prefix=%s" % prefix]
    for v in vdevs:
        cmd += ["--vdev", v]
    cmd += ["--", "--max-flows=8192", "--flow-timeout=1000",
            "--json=%s" % summary, "--dump-flows=%s" % dump]
    cmd += ["-i"] if feed else ["--duration=%s" % duration]
    print("running:", " ".join(cmd), flush=True)
    log = open(os.path.join(workdir, name + ".log"), "w+")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if feed else None, stdout=log,
                            stderr=subprocess.STDOUT, text=True)
    errors = feed(proc, prefix) if feed else []
    rc, out = wait_exit(proc, log, 60)
    if rc != 0:
        print(out)
        return errors + ["%s: dpdk-flowpmd exited with %d" % (name, rc)], None, None
    with open(summary) as f:
        s = [json.loads(x) for x in f if x.strip()]
    with open(dump) as f:
        d = json.load(f)
    return errors, [x for x in s if x.get("type") == "summary"][-1], d


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    frames, off = [], 24
    while off < len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return frames


ETH_HLEN, IP4_HLEN = 14, 20


def ipv4_fragment(frame):
    """(key, more fragments, offset) of an IPv4 fragment without VLAN tag, else None."""
    if len(frame) < ETH_HLEN + IP4_HLEN or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[ETH_HLEN:]
    frag = struct.unpack_from("!H", ip, 6)[0]
    more, off = bool(frag & 0x2000), frag & 0x1fff
    if not more and off == 0:
        return None
    ports = struct.unpack_from("!HH", ip, IP4_HLEN) if off == 0 else (0, 0)
    key = ("ipv4", socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20]), ip[9]) + ports
    return key, more, off


def defragmented(expected, frames):
    """The expected flows once the kernel has reassembled the IPv4 fragments:
    each datagram is one packet of its first fragment's flow, of the first
    fragment's length plus the other fragments' payloads."""
    flows = {flow_key(f): [f["pkts"], f["bytes"]] for f in expected["flows"]}
    datagram = None
    for fr in frames:
        frag = ipv4_fragment(fr)
        if frag is None:
            continue
        key, more, off = frag
        flows[key][0] -= 1
        flows[key][1] -= len(fr)
        if off == 0:
            datagram = [key, len(fr)]
        else:
            datagram[1] += len(fr) - ETH_HLEN - IP4_HLEN
        if not more:
            flows[datagram[0]][0] += 1
            flows[datagram[0]][1] += datagram[1]
    return {"flows": [dict(zip(("family", "src", "dst", "proto", "sport", "dport"), k),
                           pkts=v[0], bytes=v[1]) for k, v in flows.items() if v[0] > 0]}


def compare_flows(name, expected, dumped, times, exact):
    """Every expected flow with times its packets and bytes; exact: nothing else."""
    errors = []
    want = {flow_key(f): (f["pkts"] * times, f["bytes"] * times) for f in expected["flows"]}
    got = {flow_key(f): (f["pkts"], f["bytes"]) for f in dumped["flows"]}
    for k in sorted(want):
        if want[k] != got.get(k):
            errors.append("%s: flow %s: dumped (pkts, bytes) %s, expected %s" %
                          (name, k, got.get(k), want[k]))
    extra = set(got) - set(want)
    if exact and extra:
        errors.append("%s: %d flows not in the traffic" % (name, len(extra)))
    print("%s: %d of %d flows as expected, %d others (kernel traffic)" %
          (name, len(want) - len(errors), len(want), len(extra)))
    return errors


def case_null(app, workdir, expected, pcap):
    errors, s, d = run_app(app, workdir, "null", ["net_null0"], 0.5)
    if s is None:
        return errors
    if s["rx"] == 0 or s["other"] != s["rx"] or s["tx"] != s["rx"]:
        errors.append("null: rx %d other %d tx %d" % (s["rx"], s["other"], s["tx"]))
    if s["flows"] != 0 or s["lookups"] != 0 or d["count"] != 0:
        errors.append("null: flows %d lookups %d" % (s["flows"], s["lookups"]))
    print("null: %d frames forwarded, all other" % s["rx"])
    return errors


def case_ring(app, workdir, expected, pcap):
    out = os.path.join(workdir, "ring_out.pcap")
    errors, s, d = run_app(app, workdir, "ring", [
        "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (pcap, out), "net_ring0"], 1.5)
    if s is None:
        return errors
    n = expected["packets"]
    if s["rx"] != 2 * n or s["tx"] != 2 * n:
        errors.append("ring: rx %d tx %d, expected %d each" % (s["rx"], s["tx"], 2 * n))
    if s["flows"] != len(expected["flows"]):
        errors.append("ring: %d flows, expected %d" % (s["flows"], len(expected["flows"])))
    if len(read_pcap(out)) != n:
        errors.append("ring: %d frames captured out of the pcap port, expected %d" %
                      (len(read_pcap(out)), n))
    return errors + compare_flows("ring", expected, d, 2, True)


def iface_up(name):
    try:
        with open("/sys/class/net/%s/flags" % name) as f:
            return int(f.read(), 16) & 1 == 1
    except OSError:
        return False


def rx_count(tel, deadline):
    """Packets flowpmd received, once its telemetry answers; None if it never does."""
    stats = wait_stats(tel, lambda s: True, deadline)
    return None if stats is None else stats["rx"]


def delivered(frame, defrag):
    """Packets a frame makes at the PMD: with defrag a datagram's fragments
    make one, when its last fragment (no more-fragments flag) arrives."""
    frag = ipv4_fragment(frame) if defrag else None
    return 0 if frag is not None and frag[1] else 1


def inject(proc, tel, iface, frames, defrag):
    """Send the frames into iface a batch at a time, each batch once flowpmd
    has received the previous ones: a batch fits the PMD's receive ring even
    when the forwarding lcore is not scheduled for a while (the machine may
    be busy), so a loss is a failure, not a race."""
    deadline = time.monotonic() + 20
    while not iface_up(iface):
        if time.monotonic() > deadline:
            return ["%s never came up" % iface]
        time.sleep(0.05)
    base = rx_count(tel, deadline)
    if base is None:
        return ["/flowpmd/stats never answered"]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    want = 0
    try:
        for i in range(0, len(frames), INJECT_BATCH):
            for fr in frames[i:i + INJECT_BATCH]:
                s.send(fr)
                want += delivered(fr, defrag)
            if not wait_rx(tel, base + want, time.monotonic() + 10):
                return ["%s: fewer than the %d packets sent received" % (iface, want)]
        # the kernel's own packets count too: wait until nothing more comes
        last, now = None, rx_count(tel, deadline + 10)
        while now != last:
            time.sleep(0.3)
            last, now = now, rx_count(tel, deadline + 10)
    finally:
        s.close()
    return []


def feed_frames(iface, frames, defrag=False):
    """An interactive session: start, the frames, quit."""
    def feed(proc, prefix):
        tel = connect(proc, socket_path(prefix), time.monotonic() + 20)
        if tel is None:
            errors = ["no telemetry socket at %s" % socket_path(prefix)]
        else:
            type_line(proc, "start")
            errors = inject(proc, tel, iface, frames, defrag)
            tel.close()
        type_line(proc, "quit")
        return errors
    return feed


def can_create_ifaces():
    return os.geteuid() == 0 and os.path.exists("/dev/net/tun")


def case_tap(app, workdir, expected, pcap):
    frames = read_pcap(pcap)
    errors, s, d = run_app(app, workdir, "tap", ["net_tap0,iface=%s" % TAP_IFACE],
                           feed=feed_frames(TAP_IFACE, frames))
    if s is None:
        return errors
    return errors + compare_flows("tap", expected, d, 1, False)


def af_packet_defrags():
    """Whether net_af_packet with one queue pair has the kernel reassemble
    IPv4 fragments: it joins a PACKET_FANOUT group, whose flag does it, for
    any queue count before DPDK 25.11 and only for two or more since."""
    version = os.environ.get("RHT_DPDK_VERSION")
    if version is None:
        sys.exit("RHT_DPDK_VERSION is not set (test/meson.build sets it)")
    return tuple(int(v) for v in version.split(".")[:2]) < (25, 11)


def case_af_packet(app, workdir, expected, pcap):
    frames = read_pcap(pcap)
    defrag = af_packet_defrags()
    subprocess.run(["ip", "link", "del", VETH[0]], stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "link", "add", VETH[0], "type", "veth", "peer", "name", VETH[1]],
                   check=True)
    try:
        for v in VETH:
            subprocess.run(["ip", "link", "set", v, "up"], check=True)
        errors, s, d = run_app(app, workdir, "af_packet",
                               ["net_af_packet0,iface=%s" % VETH[0]],
                               feed=feed_frames(VETH[1], frames, defrag=defrag))
    finally:
        subprocess.run(["ip", "link", "del", VETH[0]])
    if s is None:
        return errors
    if defrag:
        expected = defragmented(expected, frames)
    return errors + compare_flows("af_packet", expected, d, 1, False)


def main():
    args = test_args("flowpmd_vdevs")
    app, workdir = args.app, args.workdir
    pcap, expected = make_trace(workdir)
    cases = [case_null, case_ring]
    if can_create_ifaces():
        cases += [case_tap, case_af_packet]
    else:
        print("tap and af_packet not run: they need root and /dev/net/tun")
    errors = []
    for case in cases:
        errors += case(app, workdir, expected, pcap)
    return verdict(errors, ", ".join(c.__name__[5:] for c in cases))


if __name__ == "__main__":
    sys.exit(main())
