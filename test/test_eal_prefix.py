#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""The EAL --file-prefix rule of the test scripts (flowpmd_testlib.eal_prefix()
and eal_prefix of test/eal_runtime.sh): a prefix whose telemetry socket path
would not fit a sockaddr_un (rte_eal_init() fails then) is shortened, the
run's tag kept; one that fits stays NAME_TAG."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import flowpmd_testlib as lib  # noqa: E402

TAG = "r1234abcd5678ef"            # as long as devtools/test.sh's tag gets
NAME = "flowpmd_vdevs_net_pcap_infinite"
SHORT_BASE = "/tmp/b"
LONG_BASE = "/tmp/" + "d" * 51     # 56 characters: meson's largest


def shell(function, arg):
    """What a function of test/eal_runtime.sh prints for arg."""
    out = subprocess.run(["sh", "-c", '. "$1"; "$2" "$3"', "sh",
                          os.path.join(HERE, "eal_runtime.sh"), function, arg],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def shell_prefix(name):
    return shell("eal_prefix", name)


def check(helper, base):
    os.environ["RUNTIME_DIRECTORY"] = base
    prefix = helper(NAME)
    sock = os.path.join(base, "dpdk", prefix, "dpdk_telemetry.v2")
    errors = []
    if len(sock.encode()) >= lib.SUN_PATH_SIZE:
        errors.append("socket path of %d bytes: %s" % (len(sock), sock))
    if not prefix.endswith("_" + TAG):
        errors.append("prefix %s lost the run's tag" % prefix)
    fits = len(os.path.join(base, "dpdk", NAME + "_" + TAG, "dpdk_telemetry.v2")) < 108
    if fits and prefix != NAME + "_" + TAG:
        errors.append("prefix %s shortened though %s_%s fits" % (prefix, NAME, TAG))
    if not fits and prefix.startswith(NAME):
        errors.append("prefix %s not shortened" % prefix)
    return ["%s, base %s: %s" % (helper.__name__, base, e) for e in errors]


def shell_runtime_dir(prefix):
    return shell("eal_runtime_dir", prefix)


def check_empty_runtime_directory():
    """EAL takes a set but empty RUNTIME_DIRECTORY as is: /dpdk/<prefix>."""
    os.environ["RUNTIME_DIRECTORY"] = ""
    errors = []
    for helper in (lib.runtime_dir, shell_runtime_dir):
        got = helper("p")
        if got != "/dpdk/p":
            errors.append("%s, empty RUNTIME_DIRECTORY: %s, EAL uses /dpdk/p"
                          % (helper.__name__, got))
    return errors


def main():
    os.environ["RHT_EAL_TAG"] = TAG
    errors = []
    for base in (SHORT_BASE, LONG_BASE):
        errors += check(lib.eal_prefix, base)
        errors += check(shell_prefix, base)
    errors += check_empty_runtime_directory()
    for e in errors:
        print("FAIL:", e)
    print("eal_prefix: %d checks failed" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
