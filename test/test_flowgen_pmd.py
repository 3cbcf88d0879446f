#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""The shared net_flowgen PMD (librte_net_flowgen.so) as DPDK's own tools use it.

  testpmd: Debian's dpdk-testpmd loads it with -d, forwards from a
           net_flowgen0 vdev for 2 s (io mode, the port to itself), and
           `show port stats 0` must count received and sent packets; without
           -d the same testpmd must not know net_flowgen (so that the packets
           are the plugin's).
  pmdinfo: dpdk-pmdinfo.py on the .so and on a program linking the static
           driver must list net_flowgen with every devarg the driver parses
           (its FLOWGEN_ARG_* keys, read from the source).

Usage: test_flowgen_pmd.py testpmd DPDK_TESTPMD PMD_SO WORKDIR PMD_DIR
       test_flowgen_pmd.py pmdinfo DPDK_PMDINFO PMD_SO DRIVER_SOURCE PROGRAM
Exit status: 0 pass, 1 fail, 77 skipped (the DPDK tool is not installed).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

from flowpmd_testlib import (eal_prefix, plugin_dir, remove_runtime_dir, type_line, verdict,
                             wait_exit)

SKIP = 77
FORWARD_SECONDS = 2


def testpmd_cmd(testpmd, prefix, extra):
    return [testpmd] + extra + ["--no-pci", "--no-huge", "-m", "256", "-l", "0-1",
                                "--file-prefix=" + prefix,
                                "--vdev", "net_flowgen0,flows=256,seed=7",
                                "--", "-i", "--total-num-mbufs=4096"]


def port_stats(output):
    """RX-packets and TX-packets of the last `show port stats` in output."""
    rx = re.findall(r"RX-packets:\s+(\d+)", output)
    tx = re.findall(r"TX-packets:\s+(\d+)", output)
    if not rx or not tx:
        return None
    return int(rx[-1]), int(tx[-1])


def forward(testpmd, so, log_path):
    """Run testpmd on the plugin; its exit status and output."""
    prefix = eal_prefix("flowgen_testpmd")
    cmd = testpmd_cmd(testpmd, prefix, ["-d", so])
    print("running:", " ".join(cmd), flush=True)
    log = open(log_path, "w+")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log,
                            stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(3)  # EAL start; commands typed early wait in the pipe
        type_line(proc, "start")
        time.sleep(FORWARD_SECONDS)
        type_line(proc, "show port stats 0")
        type_line(proc, "stop")
        type_line(proc, "quit")
        return wait_exit(proc, log)
    finally:
        remove_runtime_dir(prefix)


def unknown_without_plugin(testpmd, so, pmd_dir):
    """Whether testpmd without -d fails to probe net_flowgen0 (None: the
    PMD is installed in DPDK's PMD directory, from where EAL loads it anyway)."""
    if os.path.exists(os.path.join(pmd_dir, os.path.basename(so))):
        return None
    prefix = eal_prefix("flowgen_testpmd_nod")
    try:
        proc = subprocess.run(testpmd_cmd(testpmd, prefix, []), input="quit\n",
                              capture_output=True, text=True, timeout=60)
    finally:
        remove_runtime_dir(prefix)
    return proc.returncode != 0


def test_testpmd(testpmd, so, workdir, pmd_dir):
    errors = []
    # a copy where EAL accepts to load it from (not below /tmp)
    private = plugin_dir(workdir)
    try:
        so = shutil.copy(so, private)
        rc, output = forward(testpmd, so, os.path.join(workdir, "testpmd.log"))
    finally:
        shutil.rmtree(private, ignore_errors=True)
    print(output)
    stats = port_stats(output)
    if rc != 0:
        errors.append("dpdk-testpmd -d %s exited with %d" % (so, rc))
    if stats is None:
        errors.append("no port statistics in testpmd's output")
    elif stats[0] == 0 or stats[1] == 0:
        errors.append("no packets flowed: RX %d TX %d" % stats)
    refused = unknown_without_plugin(testpmd, so, pmd_dir)
    if refused is False:
        errors.append("testpmd without -d accepted net_flowgen0: not the plugin's packets")
    if errors:
        return verdict(errors, "")
    return verdict([], "testpmd -d librte_net_flowgen.so: RX %d TX %d packets in %d s"
                   % (stats[0], stats[1], FORWARD_SECONDS))


def driver_devargs(source):
    with open(source) as f:
        return re.findall(r'#define\s+FLOWGEN_ARG_\w+\s+"(\w+)"', f.read())


def pmdinfo_errors(pmdinfo, binary, devargs):
    proc = subprocess.run([pmdinfo, binary], capture_output=True, text=True)
    what = os.path.basename(binary)
    if proc.returncode != 0:
        return ["dpdk-pmdinfo.py %s: exit %d: %s" % (what, proc.returncode, proc.stderr)]
    print("%s: %s" % (what, proc.stdout), flush=True)
    drivers = [d for d in json.loads(proc.stdout) if d.get("name") == "net_flowgen"]
    if len(drivers) != 1:
        return ["%s: %d net_flowgen entries in %s" % (what, len(drivers), proc.stdout)]
    params = drivers[0].get("params", "")
    keys = re.findall(r"(\w+)=", params)
    missing = [a for a in devargs if a not in keys]
    extra = [k for k in keys if k not in devargs]
    if missing or extra:
        return ["%s: params '%s': missing %s, unknown %s" % (what, params, missing, extra)]
    return []


def test_pmdinfo(pmdinfo, so, source, program):
    devargs = driver_devargs(source)
    if len(devargs) < 2:
        return verdict(["found no FLOWGEN_ARG_* devargs in %s" % source], "")
    errors = pmdinfo_errors(pmdinfo, so, devargs) + pmdinfo_errors(pmdinfo, program, devargs)
    return verdict(errors, "dpdk-pmdinfo.py lists net_flowgen with %s" % ", ".join(devargs))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ("testpmd", "pmdinfo") or len(sys.argv) != 6:
        sys.exit(__doc__)
    tool = sys.argv[2]
    if not os.path.exists(tool):
        print("%s is not installed (devtools/deps.sh installs it): skipped" % tool)
        return SKIP
    if mode == "testpmd":
        workdir = sys.argv[4]
        os.makedirs(workdir, exist_ok=True)
        return test_testpmd(tool, sys.argv[3], workdir, sys.argv[5])
    return test_pmdinfo(tool, sys.argv[3], sys.argv[4], sys.argv[5])


if __name__ == "__main__":
    sys.exit(main())
