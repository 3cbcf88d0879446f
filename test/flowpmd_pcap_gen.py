#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Write a pcap file of known flows for the dpdk-flowpmd test, and the
per-flow packet and byte counts that dpdk-flowpmd must find in it.

The counts come from the generation plan itself, not from parsing the
frames, so they are independent of the application's parser. The traffic
mixes IPv4 TCP and UDP, IPv6 TCP and UDP, ICMP (no ports), IPv4 fragments
(only the first carries ports), frames with one VLAN tag and with two
(QinQ), IPv6 packets with extension headers, and non-IP frames (ARP,
LLDP) that the application must count as "other" and not track. Flow keys
are directional 5-tuples; VLAN tags are not part of the key, so a tagged
and an untagged packet of one 5-tuple belong to the same flow.

IPv6 extension headers (hop-by-hop, routing, destination options,
fragment, AH) are skipped; the key's protocol is the header that ends the
chain. Each such packet below states its expected protocol and ports:
the upper-layer protocol and its ports; ESP (50) or no next header (59)
without ports; a fragment other than the first keeps the protocol it
carries, without ports; the walk follows at most 8 extension headers, and
a longer chain, or a header cut short, gives that header's type as the
protocol, without ports.

Usage: flowpmd_pcap_gen.py PCAP EXPECTED_JSON [--seed N]
"""

import argparse
import ipaddress
import json
import random
import struct
import sys

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86DD
ETH_VLAN = 0x8100
ETH_QINQ = 0x88A8
ETH_ARP = 0x0806
ETH_LLDP = 0x88CC
TCP, UDP, ICMP, SCTP = 6, 17, 1, 132
HOPOPTS, ROUTING, FRAGMENT, ESP, AH, NONXT, DSTOPTS = 0, 43, 44, 50, 51, 59, 60


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def eth(ethertype, vlans=()):
    hdr = bytes.fromhex("020000000002") + bytes.fromhex("020000000001")
    tpids = [ETH_QINQ, ETH_VLAN] if len(vlans) == 2 else [ETH_VLAN]
    for tpid, vid in zip(tpids, vlans):
        hdr += struct.pack("!HH", tpid, vid & 0xFFF)
    return hdr + struct.pack("!H", ethertype)


def l4(proto, sport, dport, payload):
    if proto == TCP:
        return struct.pack("!HHIIBBHHH", sport, dport, 1, 0, 5 << 4, 0x18, 8192, 0, 0) + payload
    if proto == UDP:
        return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    # ICMP echo request: no ports
    return struct.pack("!BBHHH", 8, 0, 0, 1, 1) + payload


def ipv4(src, dst, proto, body, frag_off=0, more=False):
    flags = (0x2000 if more else 0) | (frag_off // 8)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 1, flags, 64, proto, 0,
                      ipaddress.IPv4Address(src).packed, ipaddress.IPv4Address(dst).packed)
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return hdr + body


def ipv6(src, dst, proto, body):
    return struct.pack("!IHBB16s16s", 6 << 28, len(body), proto, 64,
                       ipaddress.IPv6Address(src).packed,
                       ipaddress.IPv6Address(dst).packed) + body


def ext_hdr(kind, nxt, size=8, frag_off=0, more=False):
    """An IPv6 extension header of type kind, size bytes, followed by nxt."""
    if kind == FRAGMENT:
        # the offset field counts 8-byte units in its upper 13 bits
        return struct.pack("!BBHI", nxt, 0, frag_off | (1 if more else 0), 0x1234)
    if kind == AH:
        # AH: length in 4-byte words minus 2; SPI, sequence number, ICV
        return struct.pack("!BBHII", nxt, size // 4 - 2, 0, 0x100, 1) + bytes(size - 12)
    # hop-by-hop, routing, destination options: 8-byte words minus 1 (Pad1 options)
    return struct.pack("!BB", nxt, size // 8 - 1) + bytes(size - 2)


def ext_chain(headers, last):
    """headers: [(kind, {args})], in order; last: the header after them."""
    out = b""
    for i, (kind, args) in enumerate(headers):
        nxt = headers[i + 1][0] if i + 1 < len(headers) else last
        out += ext_hdr(kind, nxt, **args)
    return out


class Plan:
    """Frames in generation order and the expected per-flow counts."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.frames = []
        self.flows = {}
        self.counts = {"ipv4": 0, "ipv6": 0, "vlan": 0, "other": 0}

    def account(self, family, src, dst, proto, sport, dport, frame):
        key = (family, str(ipaddress.ip_address(src)), str(ipaddress.ip_address(dst)),
               proto, sport, dport)
        pkts, nbytes = self.flows.get(key, (0, 0))
        self.flows[key] = (pkts + 1, nbytes + len(frame))

    def packet(self, family, src, dst, proto, sport, dport, vlans=(), size=None):
        payload = bytes(self.rng.randrange(0, 200) if size is None else size)
        body = l4(proto, sport, dport, payload)
        if family == "ipv4":
            frame = eth(ETH_IPV4, vlans) + ipv4(src, dst, proto, body)
        else:
            frame = eth(ETH_IPV6, vlans) + ipv6(src, dst, proto, body)
        has_ports = proto in (TCP, UDP)
        self.frames.append(frame)
        self.counts[family] += 1
        self.counts["vlan"] += 1 if vlans else 0
        self.account(family, src, dst, proto, sport if has_ports else 0,
                     dport if has_ports else 0, frame)

    def fragments(self, src, dst, sport, dport):
        """A UDP datagram in two IPv4 fragments: the second has no ports."""
        body = l4(UDP, sport, dport, bytes(48))
        first = eth(ETH_IPV4) + ipv4(src, dst, UDP, body[:32], 0, True)
        second = eth(ETH_IPV4) + ipv4(src, dst, UDP, body[32:], 32, False)
        for frame, ports in ((first, (sport, dport)), (second, (0, 0))):
            self.frames.append(frame)
            self.counts["ipv4"] += 1
            self.account("ipv4", src, dst, UDP, ports[0], ports[1], frame)

    def ipv6_ext(self, src, dst, headers, last, body, expect, cut=0):
        """IPv6 with extension headers; expect: the key's (proto, sport, dport).
        cut: bytes removed from the end of the chain (a truncated header)."""
        chain = ext_chain(headers, last)
        frame = eth(ETH_IPV6) + ipv6(src, dst, headers[0][0], chain[:len(chain) - cut] + body)
        self.frames.append(frame)
        self.counts["ipv6"] += 1
        self.account("ipv6", src, dst, expect[0], expect[1], expect[2], frame)

    def non_ip(self, ethertype):
        frame = eth(ethertype) + bytes(46)
        self.frames.append(frame)
        self.counts["other"] += 1


# IPv6 packets with extension headers: (headers, last, body, expected
# (proto, sport, dport)[, cut]); the expectation is written down, not computed
EXT_CASES = [
    ([(HOPOPTS, {})], TCP, l4(TCP, 41000, 443, bytes(10)), (TCP, 41000, 443)),
    ([(HOPOPTS, {}), (ROUTING, {"size": 24}), (DSTOPTS, {"size": 16})], UDP,
     l4(UDP, 5353, 53, bytes(20)), (UDP, 5353, 53)),
    ([(FRAGMENT, {"more": True})], UDP, l4(UDP, 6000, 6001, bytes(24)), (UDP, 6000, 6001)),
    ([(FRAGMENT, {"frag_off": 32})], UDP, bytes(24), (UDP, 0, 0)),
    ([(DSTOPTS, {}), (FRAGMENT, {"frag_off": 1480})], TCP, bytes(40), (TCP, 0, 0)),
    ([(AH, {"size": 24})], TCP, l4(TCP, 42000, 22, bytes(0)), (TCP, 42000, 22)),
    ([(HOPOPTS, {})], ESP, struct.pack("!II", 0x200, 1) + bytes(32), (ESP, 0, 0)),
    ([(DSTOPTS, {})], NONXT, b"", (NONXT, 0, 0)),
    ([(DSTOPTS, {})] * 9, UDP, l4(UDP, 7000, 7001, b""), (DSTOPTS, 0, 0)),
    ([(DSTOPTS, {})] * 8, UDP, l4(UDP, 7002, 7003, b""), (UDP, 7002, 7003)),
    ([(HOPOPTS, {}), (ROUTING, {"size": 64})], UDP, b"", (ROUTING, 0, 0), 40),
    ([(HOPOPTS, {})], SCTP, struct.pack("!HHI", 9000, 9001, 0) + bytes(4), (SCTP, 9000, 9001)),
]


def build(seed):
    plan = Plan(seed)
    rng = plan.rng
    events = []
    # the flow "show flow 10.0.0.1 10.0.0.2 6 1234 80" finds: 7 packets
    events += [("ipv4", "10.0.0.1", "10.0.0.2", TCP, 1234, 80, ())] * 7
    # its reverse direction is another flow
    events += [("ipv4", "10.0.0.2", "10.0.0.1", TCP, 80, 1234, ())] * 5
    # the same UDP 5-tuple untagged, with one tag and with two
    events += [("ipv4", "192.168.1.1", "192.168.1.2", UDP, 5000, 53, ())] * 3
    events += [("ipv4", "192.168.1.1", "192.168.1.2", UDP, 5000, 53, (100,))] * 4
    events += [("ipv4", "192.168.1.1", "192.168.1.2", UDP, 5000, 53, (200, 300))] * 2
    events += [("ipv4", "10.1.0.1", "10.1.0.2", ICMP, 0, 0, ())] * 3
    events += [("ipv6", "2001:db8::1", "2001:db8::2", TCP, 40000, 443, ())] * 6
    events += [("ipv6", "2001:db8::1", "2001:db8::2", UDP, 40000, 443, (7,))] * 4
    events += [("ipv6", "fe80::1", "ff02::1", UDP, 546, 547, (8, 9))] * 2
    # many small flows, so that the table grows past its first size
    for i in range(300):
        family = "ipv4" if i % 4 else "ipv6"
        proto = UDP if i % 3 else TCP
        src = "10.2.%d.%d" % (i // 250, i % 250 + 1) if family == "ipv4" else "2001:db8:1::%x" % (i + 1)
        dst = "10.3.0.1" if family == "ipv4" else "2001:db8:2::1"
        events += [(family, src, dst, proto, 10000 + i, 8080, ())] * (1 + i % 5)
    events += [("frag",)] * 2
    events += [("ext", i) for i in range(len(EXT_CASES)) for _ in range(2)]
    events += [("arp",)] * 5 + [("lldp",)] * 3
    rng.shuffle(events)
    for ev in events:
        if ev[0] == "frag":
            plan.fragments("10.4.0.1", "10.4.0.2", 7000, 7001)
        elif ev[0] == "ext":
            plan.ipv6_ext("2001:db8:e::%x" % (ev[1] + 1), "2001:db8:f::1", *EXT_CASES[ev[1]])
        elif ev[0] == "arp":
            plan.non_ip(ETH_ARP)
        elif ev[0] == "lldp":
            plan.non_ip(ETH_LLDP)
        else:
            plan.packet(*ev)
    return plan


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, frame in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i // 1000, (i % 1000) * 1000,
                                len(frame), len(frame)))
            f.write(frame)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pcap")
    ap.add_argument("expected")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    plan = build(args.seed)
    write_pcap(args.pcap, plan.frames)
    flows = [{"family": k[0], "src": k[1], "dst": k[2], "proto": k[3], "sport": k[4],
              "dport": k[5], "pkts": v[0], "bytes": v[1]} for k, v in sorted(plan.flows.items())]
    expected = dict(plan.counts, packets=len(plan.frames), flows=flows)
    with open(args.expected, "w") as f:
        json.dump(expected, f, indent=1)
    print("%s: %d frames, %d flows" % (args.pcap, len(plan.frames), len(flows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
