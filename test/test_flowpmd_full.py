#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Both flow-table backends on more flows than --max-flows: 4096 generated
flows (net_flowgen) against --max-flows=1024. rte_hash is sized by it, so it
must fill up, refuse the inserts beyond (counted as refused_full, in the
JSON summary and in the text summary) and keep forwarding; rhashtable takes
--max-flows as a hint and must grow to hold all 4096 flows, refusing none.

Usage: test_flowpmd_full.py DPDK_FLOWPMD [--workdir DIR]
Exit status: 0 pass, 1 fail.
"""

import json
import os
import subprocess
import sys

from flowpmd_testlib import eal_prefix, test_args, verdict

FLOWS, MAX_FLOWS = 4096, 1024


def run(app, workdir, backend):
    summary = os.path.join(workdir, "summary_%s.json" % backend)
    cmd = [app, "--no-pci", "--no-huge", "-m", "512", "-l", "0-1",
           "--file-prefix=" + eal_prefix("flowpmd_full"), "--vdev", "net_flowgen0,flows=%d" % FLOWS, "--",
           "--flow-table=%s" % backend, "--max-flows=%d" % MAX_FLOWS,
           "--flow-timeout=1000", "--duration=0.5", "--json=%s" % summary]
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)
    if proc.returncode != 0:
        print(proc.stdout)
        return None, "%s: dpdk-flowpmd exited with %d" % (backend, proc.returncode)
    with open(summary) as f:
        s = [json.loads(x) for x in f if x.strip()]
    s = [x for x in s if x.get("type") == "summary"][-1]
    print("%s: flows %d, refused full %d other %d, rx %d tx %d" % (
        backend, s["flows"], s["refused_full"], s["refused_other"], s["rx"], s["tx"]))
    shown = "refused inserts: full %d, other %d" % (s["refused_full"], s["refused_other"])
    if shown not in proc.stdout:
        return None, "%s: the text summary has no '%s'" % (backend, shown)
    return s, None


def main():
    args = test_args("flowpmd_full")
    app, workdir = args.app, args.workdir
    errors = []
    s, err = run(app, workdir, "rte_hash")
    if err:
        errors.append(err)
    else:
        if not MAX_FLOWS // 2 <= s["flows"] <= MAX_FLOWS:
            errors.append("rte_hash: %d flows in a table of %d" % (s["flows"], MAX_FLOWS))
        if s["refused_full"] == 0 or s["refused_other"] != 0:
            errors.append("rte_hash: refused full %d other %d, expected full > 0 only" %
                          (s["refused_full"], s["refused_other"]))
        if s["tx"] != s["rx"] or s["rx"] == 0:
            errors.append("rte_hash: rx %d tx %d: refused flows must still be forwarded" %
                          (s["rx"], s["tx"]))
    s, err = run(app, workdir, "rhashtable")
    if err:
        errors.append(err)
    else:
        if s["flows"] != FLOWS:
            errors.append("rhashtable: %d flows, expected all %d" % (s["flows"], FLOWS))
        if s["refused_full"] + s["refused_other"] != 0:
            errors.append("rhashtable refused inserts")
    return verdict(errors, "rte_hash refused what did not fit, rhashtable grew")


if __name__ == "__main__":
    sys.exit(main())
