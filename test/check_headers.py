#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Checks every installed header as a user's compiler sees it, as DPDK's
buildtools/chkincs does, plus the names the headers give the user:

- each header meant to be included directly compiles on its own as C and as
  C++ (-Wall -Wextra -Werror), with and without ALLOW_EXPERIMENTAL_API, and
  with -Wpedantic under the oldest standards DPDK's headers take (C11,
  C++11): many C++ projects build that way, and DPDK's own headers, whose
  warnings are not ours to fix, are then seen as system headers; with
  every compiler pair given (--also: clang beside GCC);
- each indirect header refuses to be included on its own and is reached
  through a direct header;
- every name the headers define (macros, struct/union/enum tags,
  enumerators, typedefs, functions, variables) carries a DPDK prefix
  (rte_, RTE_, or __rte_ / _RTE_ / __RTE_ for internals).

--self-test runs the name check on a header holding one unprefixed name of
each kind and fails unless it finds every one.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

PREFIX = re.compile(r'^(rte_|RTE_|__rte_|_RTE_|__RTE_)')

C_KEYWORDS = set('''
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Alignas _Alignof
_Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert
_Thread_local __inline __inline__ __restrict __restrict__ __volatile__
__extension__ __const __signed__ __typeof__ typeof __int128 __uint128_t
__int128_t __builtin_va_list
'''.split())

# GCC syntax that carries no name of its own: dropped with its parentheses
SKIPPED_CALLS = {'__attribute__', '__attribute', '__asm__', 'asm', '__asm',
                 '__declspec', '__typeof__', 'typeof', '_Alignas'}

TOKEN = re.compile(r'''
    (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d[\w.]*)
  | (?P<punct>->|\+\+|--|<<|>>|[<>=!]=|&&|\|\||\.\.\.|.)
''', re.VERBOSE | re.DOTALL)


def tokenize(text):
    """C tokens of preprocessed text, strings and numbers reduced to a tag."""
    out = []
    for m in TOKEN.finditer(text):
        if m.group('id'):
            out.append(m.group('id'))
        elif m.group('str'):
            out.append('"str"')
        elif m.group('num'):
            out.append('0')
        elif not m.group('punct').isspace():
            out.append(m.group('punct'))
    return out


def closing(toks, i):
    """Index of the bracket closing the one at toks[i]."""
    pairs = {'(': ')', '[': ']', '{': '}'}
    opener, closer, depth = toks[i], pairs[toks[i]], 0
    for j in range(i, len(toks)):
        if toks[j] == opener:
            depth += 1
        elif toks[j] == closer:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError('unbalanced ' + opener)


def drop_skipped(toks):
    """Remove __attribute__((...)), asm(...) and the like."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] in SKIPPED_CALLS and i + 1 < len(toks) and toks[i + 1] == '(':
            i = closing(toks, i + 1) + 1
            continue
        out.append(toks[i])
        i += 1
    return out


def idents(toks):
    return [t for t in toks if re.match(r'[A-Za-z_]', t) and t not in C_KEYWORDS]


def tags_and_enumerators(toks):
    """Tags anywhere (C gives nested tags file scope) and enumerators."""
    names = []
    for i, t in enumerate(toks[:-1]):
        if t not in ('struct', 'union', 'enum'):
            continue
        j = i + 1
        if toks[j] not in ('{',) and toks[j] not in C_KEYWORDS:
            names.append(('tag', toks[j]))
            j += 1
        if t == 'enum' and j < len(toks) and toks[j] == '{':
            body = toks[j + 1:closing(toks, j)]
            expect = True
            depth = 0
            for b in body:
                if b in '([{':
                    depth += 1
                elif b in ')]}':
                    depth -= 1
                elif b == ',' and depth == 0:
                    expect = True
                    continue
                if expect and depth == 0 and re.match(r'[A-Za-z_]', b):
                    names.append(('enumerator', b))
                    expect = False
    return names


def declarator_name(stmt):
    """The name a file-scope declaration or function definition declares."""
    if not stmt or stmt[0] in ('_Static_assert', 'static_assert'):
        return None
    cut = min([stmt.index(s) for s in ('=', '[') if s in stmt] + [len(stmt)])
    head = stmt[:cut]
    if '(' in head:
        i = head.index('(')
        if head[i + 1:i + 2] == ['*']:  # pointer to function: (*name)(...)
            return head[i + 2] if i + 2 < len(head) else None
        return head[i - 1] if i > 0 and head[i - 1] not in C_KEYWORDS else None
    # "struct tag;" and "struct tag {...};" declare no other name
    if head[-1] == '{}' or (len(head) >= 2 and head[-2] in ('struct', 'union', 'enum')):
        return None
    names = idents(head)
    return names[-1] if names else None


def file_scope_names(toks):
    """(kind, name) of everything declared at file scope in toks."""
    names = tags_and_enumerators(toks)
    toks = drop_skipped(toks)
    stmt, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t == '{':
            end = closing(toks, i)
            if stmt and stmt[-1] == ')':  # a function body
                name = declarator_name(stmt)
                if name:
                    names.append(('function', name))
                stmt = []
            elif stmt[-2:] == ['extern', '"str"'] or stmt == ['extern', '"str"']:
                stmt = []  # extern "C" { ... }: its contents are file scope
                i += 1
                continue
            else:
                stmt.append('{}')
            i = end + 1
            continue
        if t == '}':  # end of an extern "C" block
            i += 1
            continue
        if t == ';':
            name = declarator_name(stmt)
            if name:
                kind = 'typedef' if stmt[0] == 'typedef' else \
                    ('function' if '(' in stmt else 'variable')
                names.append((kind, name))
            stmt = []
        else:
            stmt.append(t)
        i += 1
    return names


LINEMARK = re.compile(r'^# (\d+) "([^"]*)"')
DEFINE = re.compile(r'^#define ([A-Za-z_]\w*)')


def names_in(cc, cflags, headers, own):
    """Names the files in own define, seen through a file including headers."""
    src = ''.join('#include <%s>\n' % os.path.basename(h) for h in headers)
    out = subprocess.run(cc + cflags + ['-E', '-dD', '-x', 'c', '-'], input=src,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('preprocessing failed:\n' + out.stderr)
    own = {os.path.realpath(f) for f in own}
    current, code, names = None, [], []
    for line in out.stdout.splitlines():
        m = LINEMARK.match(line)
        if m:
            path = m.group(2)
            current = path if os.path.isfile(path) and os.path.realpath(path) in own else None
            continue
        if current is None:
            continue
        m = DEFINE.match(line)
        if m:
            names.append(('macro', m.group(1), current))
        elif not line.startswith('#'):
            code.append((current, line))
    by_file = {}
    for f, line in code:
        by_file.setdefault(f, []).append(line)
    for f, lines in by_file.items():
        for kind, name in file_scope_names(tokenize('\n'.join(lines))):
            names.append((kind, name, f))
    return names


def check_names(cc, cflags, headers, own):
    bad = sorted({(k, n, os.path.basename(f)) for k, n, f in names_in(cc, cflags, headers, own)
                  if not PREFIX.match(n)})
    for kind, name, f in bad:
        print('FAIL: %s: %s %s has no DPDK prefix (rte_, RTE_, __rte_)' % (f, kind, name))
    return len(bad) == 0


def compile_header(compiler, lang, cflags, header, extra):
    # a declaration of our own: a header of macros alone would leave ISO C's
    # forbidden empty translation unit
    src = '#include <%s>\ntypedef int rte_check_headers_unit;\n' % os.path.basename(header)
    cmd = compiler + ['-x', lang, '-Wall', '-Wextra', '-Werror'] + extra + cflags + \
        ['-fsyntax-only', '-']
    out = subprocess.run(cmd, input=src, capture_output=True, text=True)
    return out.returncode == 0, out.stderr


PEDANTIC = {'c': ['-std=c11', '-Wpedantic'], 'c++': ['-std=c++11', '-Wpedantic']}


def as_system(cflags):
    """cflags with every -I turned into -isystem: no warnings from those headers."""
    out = []
    for f in cflags:
        out += ['-isystem', f[2:]] if f.startswith('-I') and len(f) > 2 else [f]
    return out


def check_compile(ccs, own_cflags, dpdk_cflags, headers, indirect):
    cflags = own_cflags + dpdk_cflags
    ok = True
    for h in headers:
        for name, compiler, lang in ccs:
            modes = [([], cflags), (['-DALLOW_EXPERIMENTAL_API'], cflags),
                     (['-DALLOW_EXPERIMENTAL_API'] + PEDANTIC[lang],
                      own_cflags + as_system(dpdk_cflags))]
            for extra, flags in modes:
                good, err = compile_header(compiler, lang, flags, h, extra)
                mode = '%s %s' % (name, ' '.join(extra) or '(stable API only)')
                print('%s: %s: %s' % ('ok' if good else 'FAIL', os.path.basename(h), mode))
                if not good:
                    print(err)
                    ok = False
    for h in indirect:
        good, _ = compile_header(ccs[0][1], 'c', cflags, h, [])
        print('%s: %s: refuses to be included on its own' %
              ('FAIL' if good else 'ok', os.path.basename(h)))
        ok = ok and not good
        src = ''.join('#include <%s>\n' % os.path.basename(d) for d in headers)
        deps = subprocess.run(ccs[0][1] + cflags + ['-M', '-x', 'c', '-'], input=src,
                              capture_output=True, text=True).stdout
        reached = os.path.basename(h) in deps
        print('%s: %s: reached through the direct headers' %
              ('ok' if reached else 'FAIL', os.path.basename(h)))
        ok = ok and reached
    return ok


BAD_HEADER = '''
#ifndef BAD_H
#define BAD_H
#define rte_ok_macro 1
#define RTE_OK 1
#define bad_macro 1
struct rte_ok { int member_is_fine; };
struct bad_tag { int x; };
enum rte_ok_enum { RTE_OK_VALUE, bad_enumerator = 2 };
typedef int bad_typedef_t;
typedef int (*bad_fn_t)(void *unprefixed_param);
typedef struct { int y; } bad_anon_t;
extern int bad_variable;
int rte_ok_function(int a);
int bad_function(int a);
static inline int __attribute__((always_inline))
bad_inline(const void *p) { int local = 0; (void)p; return local; }
static inline struct rte_ok *
rte_ok_inline(void) { return (struct rte_ok *)0; }
#endif
'''
BAD_NAMES = {'BAD_H', 'bad_macro', 'bad_tag', 'bad_enumerator', 'bad_typedef_t', 'bad_fn_t',
             'bad_anon_t', 'bad_variable', 'bad_function', 'bad_inline'}


def self_test(cc):
    with tempfile.TemporaryDirectory() as d:
        h = os.path.join(d, 'bad.h')
        with open(h, 'w') as f:
            f.write(BAD_HEADER)
        found = {n for _, n, _ in names_in(cc, ['-I' + d], [h], [h]) if not PREFIX.match(n)}
    if found != BAD_NAMES:
        print('FAIL: self-test: missed %s, wrongly reported %s' %
              (sorted(BAD_NAMES - found), sorted(found - BAD_NAMES)))
        return False
    print('ok: self-test: the name check reports all %d unprefixed names' % len(found))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--cc', required=True, help='C compiler command')
    ap.add_argument('--cxx', help='C++ compiler command (skipped when absent)')
    ap.add_argument('--also', action='append', default=[], metavar='CC,CXX',
                    help='another C and C++ compiler pair to compile with (repeatable): '
                         'GCC and clang do not warn alike under -Wpedantic')
    ap.add_argument('--cflags', action='append', default=[],
                    help='include flags for the headers (repeatable)')
    ap.add_argument('--pkg', default='libdpdk', help='pkg-config packages for DPDK cflags')
    ap.add_argument('--indirect', action='append', default=[], help='indirect header')
    ap.add_argument('--self-test', action='store_true')
    ap.add_argument('headers', nargs='*')
    args = ap.parse_args()
    cc = shlex.split(args.cc)
    ok = self_test(cc)
    if args.self_test:
        return 0 if ok else 1
    own_cflags = [f for c in args.cflags for f in shlex.split(c)]
    dpdk_cflags = []
    if args.pkg:
        dpdk_cflags = shlex.split(subprocess.run(['pkg-config', '--cflags'] + args.pkg.split(),
                                                 capture_output=True, text=True,
                                                 check=True).stdout)
    cflags = own_cflags + dpdk_cflags
    ccs = [('C', cc, 'c')]
    if args.cxx:
        ccs.append(('C++', shlex.split(args.cxx), 'c++'))
    else:
        print('NOTE: no C++ compiler: C++ checks not run')
    for pair in args.also:
        c, cxx = pair.split(',')
        ccs += [('C (%s)' % c, shlex.split(c), 'c'), ('C++ (%s)' % cxx, shlex.split(cxx), 'c++')]
    ok = check_compile(ccs, own_cflags, dpdk_cflags, args.headers, args.indirect) and ok
    ok = check_names(cc, cflags, args.headers, args.headers + args.indirect) and ok
    print('headers: %s' % ('all checks passed' if ok else 'FAILED'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
