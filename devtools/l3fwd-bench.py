#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd next to DPDK's l3fwd in exact-match mode (-E, rte_hash), one
forwarding lcore, 64-byte frames, on the same flows:

- on net_flowgen (uniform traffic) at 1Ki, 64Ki and 1Mi flows: the
  generator writes its population as l3fwd EM rules (devarg em_rules) and as
  a capture (devarg pcap) during dpdk-flowpmd's first run of each size;
- on that capture replayed by net_pcap (infinite_rx=1) at 64Ki and 1Mi
  flows, each flow once per turn of the file.

Programs: dpdk-flowpmd --flow-table=rhashtable and --flow-table=rte_hash
(both create their flows from the traffic and keep per-flow counters), and
l3fwd -E, built from Debian's dpdk-doc sources (DPDK 22.11) in a scratch
directory with devtools/l3fwd-vdev.patch (the RX checksum offload the vdevs
lack, the mbuf pool of a replay) and net_flowgen linked in. l3fwd loads
every flow as a rule before it starts: all its lookups hit. Both programs
parse the frames in software (l3fwd --parse-ptype: net_flowgen and net_pcap
report no RTE_PTYPE_L3_IPV4_EXT).

The rate of each run is read from the port (telemetry /ethdev/stats,0, once
a second): the median of the per-second receive rates after WARMUP seconds.
Prints Mpps and ratios of the same run.

Usage: devtools/l3fwd-bench.py [--build BUILD_DIR] [--duration S] [--warmup S]
           [--flows 1024,65536,1048576] [--pcap-flows 65536,1048576] [--out DIR]
Run it under flock /tmp/rht-eal.lock on a shared machine. The exit status is
non-zero when a program forwarded nothing in a case.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "test"))
import flowpmd_testlib as tl  # noqa: E402  (telemetry client, EAL runtime paths)

EXAMPLES = "/usr/share/dpdk/examples"
# the main lcore and the rehash service share CPU 0, forwarding on CPU 1
FLOWPMD_LCORES = "0@0,1@1,2@0"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def build_l3fwd(build, out):
    """examples/l3fwd of dpdk-doc, patched, net_flowgen linked in whole."""
    src = os.path.join(EXAMPLES, "l3fwd")
    if not os.path.isdir(src):
        sys.exit("no %s: apt-get install dpdk-doc" % src)
    scratch = os.path.join(out, "l3fwd-src")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "examples"))
    for d in ("l3fwd", "common"):
        shutil.copytree(os.path.join(EXAMPLES, d), os.path.join(scratch, "examples", d))
    subprocess.run(["patch", "-p1", "-d", scratch, "-i",
                    os.path.join(TOP, "devtools", "l3fwd-vdev.patch")], check=True,
                   stdout=subprocess.DEVNULL)
    pmd = os.path.join(build, "drivers", "net", "flowgen", "librte_net_flowgen.a")
    ldflags = "-Wl,--whole-archive %s -Wl,--no-whole-archive -lrte_bus_vdev -lm" % pmd
    subprocess.run(["make", "-C", os.path.join(scratch, "examples", "l3fwd"),
                    "LDFLAGS=" + ldflags], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return os.path.join(scratch, "examples", "l3fwd", "build", "l3fwd")


def measure(cmd, prefix, logpath, args, env=None):
    """Start cmd, sample its port 0 once a second, stop it: per-second Mpps."""
    log("  " + " ".join(cmd))
    with open(logpath, "w") as logf:
        proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT,
                                env=dict(os.environ, **(env or {})))
    rates = []
    try:
        tel = tl.connect(proc, tl.socket_path(prefix), time.monotonic() + 600)
        if tel is None:
            raise RuntimeError("no telemetry socket")
        # forwarding has started once packets come in (l3fwd loads its rules first)
        end = time.monotonic() + 900
        while time.monotonic() < end and proc.poll() is None:
            st = tel.query("/ethdev/stats,0")
            if st and st.get("ipackets", 0) > 0:
                break
            time.sleep(0.2)
        prev, t_prev = st["ipackets"], time.monotonic()
        for _ in range(args.warmup + args.duration):
            time.sleep(1)
            st = tel.query("/ethdev/stats,0")
            now = time.monotonic()
            rates.append((st["ipackets"] - prev) / (now - t_prev) / 1e6)
            prev, t_prev = st["ipackets"], now
        tel.sock.close()
    except (RuntimeError, OSError, TypeError, KeyError) as e:
        log("  failed: %s (see %s)" % (e, logpath))
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        tl.remove_runtime_dir(prefix)
    steady = rates[args.warmup:]
    return steady


def flowpmd_cmd(args, name, vdev, backend, flows, extra=()):
    return [os.path.join(args.build, "app", "flowpmd", "dpdk-flowpmd"), "--no-pci",
            "--lcores", FLOWPMD_LCORES, "--file-prefix=l3b_" + name, "--vdev", vdev, "--",
            "--flow-table=" + backend, "--max-flows=%d" % (flows * 5 // 4),
            "--max-flows6=4096", "--fwd=io", "--service-lcores=2", "--flow-timeout=600",
            "--stats-period=1", "--json=%s" % os.path.join(args.out, name + ".json")] + \
        list(extra)


def l3fwd_cmd(args, l3fwd, name, vdev, rules):
    return [l3fwd, "-l", "1", "--no-pci", "--file-prefix=l3b_" + name, "--vdev", vdev, "--",
            "-p", "0x1", "--config=(0,0,1)", "-E", "--parse-ptype", "--rule_ipv4=" + rules,
            "--rule_ipv6=" + os.path.join(EXAMPLES, "l3fwd", "em_default_v6.cfg")]


def run_case(args, l3fwd, source, flows, results):
    """The three programs on one traffic source ("flowgen" or "pcap")."""
    rules = os.path.join(args.out, "rules_%d.cfg" % flows)
    pcap = os.path.join(args.out, "flows_%d.pcap" % flows)
    if source == "flowgen":
        gen = "net_flowgen0,flows=%d,dist=uniform,pkt_size=64" % flows
        first = gen + ",em_rules=%s" % rules
        if flows in args.pcap_flows:
            first += ",pcap=%s" % pcap
        vdevs = {"rhashtable": first, "rte_hash": gen, "l3fwd": gen}
        pmd_extra, env = [], {}
    else:
        vdevs = dict.fromkeys(("rhashtable", "rte_hash", "l3fwd"),
                              "net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap)
        mbufs = flows + 16384
        pmd_extra = ["--total-num-mbufs=%d" % mbufs, "--mbuf-size=192"]
        env = {"L3FWD_NB_MBUF": str(mbufs), "L3FWD_MBUF_SIZE": "192"}
    for prog in ("rhashtable", "rte_hash", "l3fwd"):
        name = "%s_%s_%d" % (source, prog.replace("_", ""), flows)
        logpath = os.path.join(args.out, name + ".log")
        log("== %s, %d flows, %s" % (source, flows, prog))
        if prog == "l3fwd":
            cmd = l3fwd_cmd(args, l3fwd, name, vdevs[prog], rules)
        else:
            cmd = flowpmd_cmd(args, name, vdevs[prog], prog, flows, pmd_extra)
        rates = measure(cmd, "l3b_" + name, logpath, args, env if prog == "l3fwd" else None)
        results[(source, flows, prog)] = statistics.median(rates) if rates else None
        log("  %s Mpps (per second: %s)" % (
            "%.2f" % results[(source, flows, prog)] if rates else "-",
            " ".join("%.1f" % r for r in rates)))


def report(args, results):
    def fmt(v):
        return "%.2f" % v if v else "-"

    def ratio(a, b):
        return "%.2fx" % (a / b) if a and b else "-"

    print("\n| traffic | flows | flowpmd rhashtable | flowpmd rte_hash | l3fwd -E | "
          "rhashtable / l3fwd | rte_hash / l3fwd | rhashtable / rte_hash |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for source, sizes in (("flowgen", args.flows), ("pcap", args.pcap_flows)):
        for n in sizes:
            r = [results.get((source, n, p)) for p in ("rhashtable", "rte_hash", "l3fwd")]
            label = "%dKi" % (n >> 10) if n < (1 << 20) else "%dMi" % (n >> 20)
            print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                "net_flowgen" if source == "flowgen" else "net_pcap replay", label,
                fmt(r[0]), fmt(r[1]), fmt(r[2]), ratio(r[0], r[2]), ratio(r[1], r[2]),
                ratio(r[0], r[1])))
    print("\n(Mpps: median of the per-second receive rates after %d s of warm-up, over %d s; "
          "logs and JSON in %s)" % (args.warmup, args.duration, args.out))


def counts(s):
    return [int(x) for x in s.split(",") if x]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--duration", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=4)
    ap.add_argument("--flows", type=counts, default=[1 << 10, 1 << 16, 1 << 20])
    ap.add_argument("--pcap-flows", type=counts, default=[1 << 16, 1 << 20])
    ap.add_argument("--out")
    args = ap.parse_args()
    args.out = args.out or tempfile.mkdtemp(prefix="l3fwd-bench.")
    os.makedirs(args.out, exist_ok=True)
    missing = [n for n in args.pcap_flows if n not in args.flows]
    if missing:
        sys.exit("--pcap-flows %s: the captures are written by the net_flowgen runs of "
                 "--flows" % missing)
    log("building l3fwd in %s" % args.out)
    l3fwd = build_l3fwd(args.build, args.out)
    results = {}
    for n in args.flows:
        run_case(args, l3fwd, "flowgen", n, results)
    for n in args.pcap_flows:
        run_case(args, l3fwd, "pcap", n, results)
    report(args, results)
    failed = [k for k, v in results.items() if not v]
    for source, n, prog in failed:
        log("no rate for %s on %s with %d flows: see its log in %s" % (prog, source, n, args.out))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
