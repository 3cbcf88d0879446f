#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Checks the symbols the libraries define for the programs they link into:

- every global symbol defined by the shared and the static library carries a
  DPDK prefix (rte_ or __rte_), so that it cannot collide with an
  application's names;
- the shared library exports exactly the symbols of its version map's global
  lists: nothing test-only or internal leaks out, nothing promised is missing.

--self-test builds a small archive with unprefixed symbols and fails unless
the check reports each of them.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

PREFIX = re.compile(r'^(rte_|__rte_)')
# what sanitizers and coverage add to instrumented builds (-Db_sanitize)
TOOLING = re.compile(r'^(__odr_asan_gen_|__odr_asan\.|__asan_|__sancov_|__ubsan_|__tsan_|__llvm_)')


def nm(args, path):
    out = subprocess.run(['nm'] + args + [path], capture_output=True, text=True, check=True)
    syms = set()
    for line in out.stdout.splitlines():
        f = line.split()
        # "addr type name"; version nodes (EXPERIMENTAL...) are type A
        if len(f) == 3 and f[1] != 'A':
            syms.add(f[2].split('@')[0])
    return syms


def unprefixed(kind, path, syms, report=True):
    bad = sorted(s for s in syms if not PREFIX.match(s) and not TOOLING.match(s))
    for s in bad if report else []:
        print('FAIL: %s %s: global symbol %s has no DPDK prefix (rte_, __rte_)' %
              (kind, os.path.basename(path), s))
    return bad


def version_map_globals(path):
    """Names listed in the global: part of every node of a version script."""
    names, in_global = set(), False
    with open(path) as f:
        for line in f:
            line = line.split('#')[0].strip()
            if line.startswith('global:'):
                in_global = True
            elif line.startswith('local:') or line.startswith('}'):
                in_global = False
            elif in_global and line.endswith(';'):
                names.add(line[:-1].strip())
    return names


def check(shared, static, version_map):
    ok = True
    if static:
        syms = nm(['-g', '--defined-only'], static)
        ok = not unprefixed('static', static, syms) and ok
        print('static %s: %d global symbols checked' % (os.path.basename(static), len(syms)))
    if shared:
        syms = nm(['-D', '--defined-only'], shared)
        ok = not unprefixed('shared', shared, syms) and ok
        if version_map:
            promised = version_map_globals(version_map)
            for s in sorted(syms - promised):
                print('FAIL: shared: %s is exported but not in %s' %
                      (s, os.path.basename(version_map)))
            for s in sorted(promised - syms):
                print('FAIL: shared: %s is in %s but not exported' %
                      (s, os.path.basename(version_map)))
            ok = ok and syms == promised
        print('shared %s: %d exported symbols checked' % (os.path.basename(shared), len(syms)))
    return ok


def self_test(cc):
    src = '''
int rte_ok_var;
int unprefixed_var;
int __rte_ok_internal(void) { return 0; }
int unprefixed_fn(void) { return 1; }
static int fine_static(void) { return 2; }
int rte_ok_fn(void) { return fine_static(); }
'''
    with tempfile.TemporaryDirectory() as d:
        c, o, a = (os.path.join(d, n) for n in ('t.c', 't.o', 'libt.a'))
        with open(c, 'w') as f:
            f.write(src)
        subprocess.run(cc + ['-c', c, '-o', o], check=True)
        subprocess.run(['ar', 'rcs', a, o], check=True)
        found = unprefixed('self-test', a, nm(['-g', '--defined-only'], a), report=False)
    want = ['unprefixed_fn', 'unprefixed_var']
    if found != want:
        print('FAIL: self-test: reported %s, expected %s' % (found, want))
        return False
    print('ok: self-test: the check reports both unprefixed symbols of a test archive')
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--cc', default='cc')
    ap.add_argument('--shared')
    ap.add_argument('--static')
    ap.add_argument('--version-map')
    ap.add_argument('--self-test', action='store_true')
    args = ap.parse_args()
    ok = self_test(args.cc.split())
    if not args.self_test:
        ok = check(args.shared, args.static, args.version_map) and ok
    print('symbols: %s' % ('all checks passed' if ok else 'FAILED'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
