#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""dpdk-flowpmd's help and its option errors:

- "dpdk-flowpmd --help" prints EAL's options and then the application's
  (EAL's usage hook), "dpdk-flowpmd -- --help" the application's; both exit
  with status 0 without starting EAL: no runtime directory is created for
  their --file-prefix, and EAL's memory and device set-up lines are not
  printed;
- out-of-range values of --burst, --mbuf-size and --total-num-mbufs are
  refused with a message naming the option, and exit status 1.

Usage: test_flowpmd_help.py DPDK_FLOWPMD [--workdir DIR]
"""

import os
import shutil
import subprocess
import sys

from flowpmd_testlib import socket_path, test_args, verdict

APP_OPTIONS = ("--total-num-mbufs=N", "--mbuf-size=N", "--burst=N", "--flow-table=",
               "--pipeline=N")
EAL_OPTIONS = ("--vdev", "--file-prefix", "--lcores")


def run(app, args, prefix):
    cmd = [app, "--no-pci", "--file-prefix=" + prefix] + args
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)
    rundir = os.path.dirname(socket_path(prefix))
    started = os.path.exists(rundir)
    shutil.rmtree(rundir, ignore_errors=True)
    return proc, started


def check_help(app, args, want_eal):
    prefix = "flowpmd_help_%d" % os.getpid()
    proc, started = run(app, args, prefix)
    out = proc.stdout
    errors = []
    label = " ".join(args)
    if proc.returncode != 0:
        errors.append("%s: exit %d" % (label, proc.returncode))
    # EAL's own --help reads the CPU list first ("EAL: Detected CPU lcores"),
    # but maps no memory and creates no runtime directory
    if started or "Selected IOVA" in out or "Multi-process socket" in out:
        errors.append("%s: EAL was initialised" % label)
    errors += ["%s: no %s in the help" % (label, o) for o in APP_OPTIONS if o not in out]
    if want_eal:
        errors += ["%s: no EAL option %s" % (label, o) for o in EAL_OPTIONS if o not in out]
    return errors


BAD_VALUES = (("--burst=0", "--burst"), ("--burst=65", "--burst"),
              ("--mbuf-size=128", "--mbuf-size"), ("--mbuf-size=70000", "--mbuf-size"),
              ("--total-num-mbufs=0", "--total-num-mbufs"),
              ("--total-num-mbufs=5G", "--total-num-mbufs"))


def check_bad_values(app):
    errors = []
    for arg, name in BAD_VALUES:
        proc, _ = run(app, ["-l", "0-1", "--no-huge", "-m", "64", "--no-shconf",
                            "--vdev", "net_null0", "--", arg], "flowpmd_badopt_%d" % os.getpid())
        if proc.returncode != 1 or "invalid value for option %s" % name not in proc.stdout:
            errors.append("%s: exit %d, output %r" % (arg, proc.returncode, proc.stdout[-300:]))
    return errors


def main():
    app = test_args("flowpmd_help").app
    errors = check_help(app, ["--help"], True)
    errors += check_help(app, ["--", "--help"], False)
    errors += check_help(app, ["-l", "0-1", "--", "--burst=8", "-h"], False)
    errors += check_bad_values(app)
    return verdict(errors, "--help and -- --help without EAL; %d bad option values refused"
                   % len(BAD_VALUES))


if __name__ == "__main__":
    sys.exit(main())
