# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""What the dpdk-flowpmd test scripts share: their command line, the trace
of known flows, the telemetry client, typing commands at the prompt,
waiting for the application to exit, and the verdict."""

import argparse
import atexit
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77   # meson's exit status of a skipped test


def test_args(name, *options):
    """The command line of a test script: DPDK_FLOWPMD [--workdir DIR] and
    the script's own options, (flag, add_argument keywords) pairs. The work
    directory (a new temporary one when not given) exists on return."""
    ap = argparse.ArgumentParser()
    ap.add_argument("app")
    ap.add_argument("--workdir")
    for flag, kwargs in options:
        ap.add_argument(flag, **kwargs)
    args = ap.parse_args()
    args.workdir = args.workdir or tempfile.mkdtemp(prefix=name + "_")
    os.makedirs(args.workdir, exist_ok=True)
    return args


def no_net_pcap(rc, output):
    """Whether a failed run failed because DPDK has no net_pcap PMD; says so."""
    # EAL's and the vdev bus's words for a vdev without its driver; any
    # other failure (a crash, a sanitizer report) is the test's to judge
    missing = rc != 0 and re.search(r"Unable to parse device 'net_pcap|"
                                    r"no driver found for net_pcap", output) is not None
    if missing:
        print("SKIP: net_pcap PMD not available")
    return missing


def make_trace(workdir):
    """Write flowpmd_pcap_gen.py's pcap into workdir; its path and the expected counts."""
    pcap = os.path.join(workdir, "flows.pcap")
    expected_path = os.path.join(workdir, "expected.json")
    subprocess.run([sys.executable, os.path.join(HERE, "flowpmd_pcap_gen.py"), pcap,
                    expected_path], check=True)
    with open(expected_path) as f:
        return pcap, json.load(f)


def flow_key(f):
    """A flow of the expected counts or of a --dump-flows file, as a tuple."""
    return (f["family"], f["src"], f["dst"], f["proto"], f["sport"], f["dport"])


def eal_prefix(name):
    """An EAL --file-prefix for name, unique to this test run: name plus
    RHT_EAL_TAG (devtools/test.sh sets it, to find what a run left behind)
    or else this script's pid; "t" and a hash of name instead of name where
    EAL's telemetry socket would not fit a sockaddr_un (rte_eal_init()
    fails then). Its runtime directory is removed when the script exits
    (EAL 22.11 leaves it behind)."""
    tag = os.environ.get("RHT_EAL_TAG") or str(os.getpid())
    prefix = "%s_%s" % (name, tag)
    if len(socket_path(prefix).encode()) >= SUN_PATH_SIZE:
        prefix = "t%08x_%s" % (zlib.crc32(name.encode()), tag)
    atexit.register(remove_runtime_dir, prefix)
    return prefix


# sizeof(((struct sockaddr_un *)0)->sun_path) on Linux
SUN_PATH_SIZE = 108


def runtime_dir(prefix):
    """EAL's runtime directory of a file prefix (eal_create_runtime_dir():
    RUNTIME_DIRECTORY, which meson test sets to the build directory, else
    /var/run as root, else XDG_RUNTIME_DIR or /tmp; then dpdk/<prefix>)."""
    base = os.environ.get("RUNTIME_DIRECTORY")
    # set but empty counts as set, as in EAL: the path is then /dpdk/<prefix>
    if base is None:
        base = "/var/run" if os.geteuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return "%s/dpdk/%s" % (base, prefix)


def hugetlbfs_mounts():
    """The mount points of hugetlbfs, where EAL maps its hugepage files."""
    try:
        with open("/proc/mounts") as f:
            return [line.split()[1] for line in f if line.split()[2:3] == ["hugetlbfs"]]
    except OSError:
        return []


def hugepage_files(prefix):
    """The hugepage files of a file prefix (<prefix>map_<n>) in every hugetlbfs
    mount: the memory its processes still hold, or held when they ended."""
    return [path for mount in hugetlbfs_mounts()
            for path in glob.glob(os.path.join(mount, glob.escape(prefix) + "map_*"))]


def remove_runtime_dir(prefix):
    """Remove what EAL leaves behind once the process exited: its runtime
    directory (the directory, the telemetry and multi-process sockets, the
    config), and the hugepage files (<prefix>map_<n>) of the memory still
    reserved at exit, such as the shared-data memzone ethdev never frees."""
    shutil.rmtree(runtime_dir(prefix), ignore_errors=True)
    for path in hugepage_files(prefix):
        try:
            os.unlink(path)
        except OSError:
            pass


def socket_path(prefix):
    """Where EAL puts the telemetry socket: its runtime directory (see eal_filesystem.h)."""
    return os.path.join(runtime_dir(prefix), "dpdk_telemetry.v2")


class Telemetry:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(5)
        self.sock.connect(path)
        info = json.loads(self.sock.recv(16384).decode())
        self.max_len = info.get("max_output_len", 16384)

    def query(self, cmd):
        self.sock.send(cmd.encode())
        reply = json.loads(self.sock.recv(self.max_len).decode())
        # the reply is {"<command without its parameters>": value}
        return reply.get(cmd.split(",")[0])

    def close(self):
        self.sock.close()


def connect(proc, path, deadline):
    """A telemetry client of proc, once its socket exists; None if it dies first."""
    while time.monotonic() < deadline and proc.poll() is None:
        if os.path.exists(path):
            try:
                return Telemetry(path)
            except (ConnectionRefusedError, FileNotFoundError):
                pass
        time.sleep(0.1)
    return None


def wait_stats(tel, pred, deadline, period=0.05):
    """Poll /flowpmd/stats until pred holds or the deadline passes; the last
    stats either way (None if the application never answered)."""
    stats = tel.query("/flowpmd/stats")
    while time.monotonic() < deadline and not (stats is not None and pred(stats)):
        time.sleep(period)
        stats = tel.query("/flowpmd/stats")
    return stats


def wait_rx(tel, rx, deadline):
    """Whether the application received at least rx packets before the deadline."""
    stats = wait_stats(tel, lambda s: s["rx"] >= rx, deadline)
    return stats is not None and stats["rx"] >= rx


def type_line(proc, line):
    """Type a command at the interactive prompt (stdin a pipe)."""
    print(">", line, flush=True)
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait_exit(proc, log, timeout=30):
    """Exit status of proc (killed after timeout) and what it wrote to log."""
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    log.seek(0)
    output = log.read()
    log.close()
    return rc, output


def verdict(errors, success):
    """Print the errors, or success; the exit status."""
    for e in errors:
        print("FAIL:", e)
    if errors:
        return 1
    print("PASS:", success)
    return 0


def world_writable_ancestor(path):
    """The first world-writable directory above path, or None: EAL loads
    no plugin (-d) from below one, such as /tmp."""
    d = os.path.abspath(path)
    while d != "/":
        d = os.path.dirname(d)
        if os.stat(d).st_mode & 0o002:
            return d
    return None


def plugin_dir(preferred):
    """A new private directory, under preferred when no world-writable
    directory lies above it, else under /run or $HOME (a build directory
    below /tmp, as in a CI clone there). The caller removes it."""
    for base in (preferred, "/run", os.path.expanduser("~")):
        if base and os.path.isdir(base) and os.access(base, os.W_OK) and \
                world_writable_ancestor(os.path.join(base, "x")) is None:
            return tempfile.mkdtemp(prefix="rht-plugin.", dir=base)
    raise RuntimeError("no directory EAL would load a plugin from")
