#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""What the benchmark leaves behind: every case at 64Ki entries (the
limit probes' buffers, the peers' tables, the resize and contention cases)
runs in one process, which must free all its memory before it exits. EAL
removes a hugepage file (<prefix>map_<n>) only when the memory in it is
freed or a later run takes the same prefix, so a buffer kept to the end
stays reserved on the machine for good. The bench tags its --file-prefix
with RHT_EAL_TAG (rht_eal_tag_file_prefix()): the check finds its files
while other runs come and go; where no tagged prefix fits, the bench
refuses to start, with a message.

Usage: test_bench_leftovers.py DPDK_RHASHTABLE_BENCH [-- EAL args without --file-prefix]
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import flowpmd_testlib as lib  # noqa: E402

CASES = "/65536/"


def leftovers(prefix):
    """The runtime directory and hugepage files of prefix that still exist."""
    runtime = lib.runtime_dir(prefix)
    return ([runtime] if os.path.exists(runtime) else []) + lib.hugepage_files(prefix)


def refused_prefix(bench, eal, name):
    """Where even the shortened tagged prefix cannot fit EAL's socket paths
    (a runtime directory of 100 characters), the bench says so and exits
    with an error before EAL starts. The errors, if not."""
    env = dict(os.environ, RUNTIME_DIRECTORY="/tmp/" + "d" * 95)
    proc = subprocess.run([bench, "--short", "--benchmark_filter=" + CASES, "--"] + eal +
                          ["--file-prefix=" + name], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=60, env=env)
    if proc.returncode == 0:
        return ["a runtime directory too long for any prefix: the bench exited with 0"]
    if "too long for its sockets" not in proc.stdout:
        return ["a runtime directory too long for any prefix: no message saying so:\n" +
                proc.stdout[-500:]]
    if "EAL:" in proc.stdout:
        return ["a runtime directory too long for any prefix: EAL was started"]
    return []


def main():
    bench = sys.argv[1]
    eal = sys.argv[3:] if sys.argv[2:3] == ["--"] else []
    tag = os.environ.setdefault("RHT_EAL_TAG", "t%d" % os.getpid())
    name = "bench_leftovers_%d" % os.getpid()
    cmd = [bench, "--short", "--benchmark_filter=" + CASES, "--"] + eal + \
        ["--file-prefix=" + name]
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=240)
    print(proc.stdout)
    errors = []
    if proc.returncode != 0:
        errors.append("the bench exited with %d" % proc.returncode)
    used = re.search(r"^rht_eal_args: .*--file-prefix=(\S+)", proc.stdout, re.M)
    huge = re.search(r"^rht_hugepages: (\S+)", proc.stdout, re.M)
    if used is None or huge is None:
        errors.append("no rht_eal_args or rht_hugepages line in the output")
        return lib.verdict(errors, "")
    prefix = used.group(1)
    if not prefix.endswith("_" + tag):
        errors.append("prefix %s does not end with the run's tag %s" % (prefix, tag))
    errors += ["left behind: %s" % path for path in leftovers(prefix)]
    lib.remove_runtime_dir(prefix)
    errors += refused_prefix(bench, eal, name)
    if not errors and huge.group(1) != "yes":
        print("SKIP: the bench ran without hugepages: no hugepage file to leave")
        return lib.SKIP
    cases = len(re.findall(r"^\S+/65536/\S*\s+[0-9.]+ ", proc.stdout, re.M))
    return lib.verdict(errors, "%d cases, nothing left by prefix %s in %s" %
                       (cases, prefix, ", ".join(lib.hugetlbfs_mounts())))


if __name__ == "__main__":
    sys.exit(main())
