#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors

"""Run Doxygen and Sphinx for the build, failing on any warning.

  doc_tool.py doxygen --doxygen BIN --doxyfile CONF --output DIR [--depfile F]
  doc_tool.py sphinx --sphinx BIN --source DIR --output DIR --version V [--depfile F]
  doc_tool.py check --doxygen BIN --doxyfile CONF --sphinx BIN --guides DIR --version V

The first two build the API reference and the guides for meson (and write a
depfile so that editing any page or header rebuilds them). `check` rebuilds
both from scratch in a temporary directory and fails if either tool printed
a single warning: it is the `docs-warnings` meson test.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile


def doxyfile_inputs(doxyfile):
    """Files Doxygen reads, from the INPUT and FILE_PATTERNS of CONF."""
    values = {}
    key = None
    with open(doxyfile, encoding='utf-8') as conf:
        for line in conf:
            line = line.split('#', 1)[0].rstrip()
            if not line:
                continue
            if '=' in line and not line.startswith(' '):
                key, line = (s.strip() for s in line.split('=', 1))
                values[key] = []
            if key is None:
                continue
            values[key] += line.rstrip('\\').split()
    patterns = values.get('FILE_PATTERNS', ['*'])
    files = [doxyfile]
    for path in values.get('INPUT', []):
        if os.path.isdir(path):
            for pattern in patterns:
                files += sorted(glob.glob(os.path.join(path, pattern)))
        else:
            files.append(path)
    return files


def tree_files(top):
    """Every file under TOP (the Sphinx sources), for the depfile."""
    files = []
    for root, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith('.') and d != '__pycache__']
        files += [os.path.join(root, n) for n in sorted(names)
                  if not n.endswith('.pyc')]
    return files


def write_depfile(depfile, target, deps):
    """Make-style depfile; spaces in names are escaped."""
    if not depfile:
        return
    with open(depfile, 'w', encoding='utf-8') as out:
        out.write(target.replace(' ', '\\ ') + ':')
        for dep in deps:
            out.write(' \\\n ' + dep.replace(' ', '\\ '))
        out.write('\n')


def run_doxygen(doxygen, doxyfile, outdir, warn_log):
    """Run Doxygen with CONF, HTML into OUTDIR/html; return the warnings."""
    with open(doxyfile, encoding='utf-8') as conf:
        text = conf.read()
    # Later assignments win: redirect the output and the warning log.
    text += '\nOUTPUT_DIRECTORY = "%s"\nWARN_LOGFILE = "%s"\n' % (outdir, warn_log)
    if os.path.exists(warn_log):
        os.remove(warn_log)
    proc = subprocess.run([doxygen, '-'], input=text, text=True,
                          capture_output=True, check=False)
    warnings = []
    if os.path.exists(warn_log):
        with open(warn_log, encoding='utf-8') as log:
            warnings = [l for l in log.read().splitlines() if l.strip()]
    warnings += [l for l in proc.stderr.splitlines() if l.strip()]
    if proc.returncode != 0 and not warnings:
        warnings.append('doxygen exited with status %d' % proc.returncode)
    return warnings


def run_sphinx(sphinx, source, outdir, doctrees, version, fresh):
    """Run Sphinx (html, -W); return the warnings and errors it printed."""
    cmd = [sphinx, '-W', '--keep-going', '-q', '-b', 'html',
           '-d', doctrees, '-D', 'version=' + version,
           '-D', 'release=' + version]
    if fresh:
        cmd.append('-E')
    cmd += [source, outdir]
    proc = subprocess.run(cmd, text=True, capture_output=True, check=False)
    warnings = [l for l in proc.stderr.splitlines() if l.strip()]
    if proc.returncode != 0 and not warnings:
        warnings.append('sphinx-build exited with status %d' % proc.returncode)
    return warnings


def report(tool, warnings):
    """Print the warnings of TOOL; return 1 if there are any."""
    for line in warnings:
        print('%s: %s' % (tool, line), file=sys.stderr)
    return 1 if warnings else 0


def cmd_doxygen(args):
    outdir = os.path.dirname(os.path.abspath(args.output))
    warn_log = os.path.join(outdir, 'doxygen-warnings.log')
    warnings = run_doxygen(args.doxygen, args.doxyfile, outdir, warn_log)
    write_depfile(args.depfile, args.output, doxyfile_inputs(args.doxyfile))
    os.utime(args.output)
    return report('doxygen', warnings)


def cmd_sphinx(args):
    doctrees = os.path.join(os.path.dirname(os.path.abspath(args.output)), '.doctrees')
    warnings = run_sphinx(args.sphinx, args.source, args.output, doctrees,
                          args.version, False)
    write_depfile(args.depfile, args.output, tree_files(args.source))
    if os.path.isdir(args.output):
        os.utime(args.output)
    return report('sphinx', warnings)


def cmd_check(args):
    with tempfile.TemporaryDirectory(prefix='rht-docs-') as tmp:
        dox = run_doxygen(args.doxygen, args.doxyfile, tmp,
                          os.path.join(tmp, 'doxygen-warnings.log'))
        sph = run_sphinx(args.sphinx, args.guides, os.path.join(tmp, 'guides'),
                         os.path.join(tmp, 'doctrees'), args.version, True)
    failed = report('doxygen', dox) | report('sphinx', sph)
    print('docs-warnings: doxygen %d, sphinx %d warning(s)' % (len(dox), len(sph)))
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)
    # command: its handler, its required options, its optional ones
    commands = {
        'doxygen': (cmd_doxygen, ['doxygen', 'doxyfile', 'output'], ['depfile']),
        'sphinx': (cmd_sphinx, ['sphinx', 'source', 'output', 'version'], ['depfile']),
        'check': (cmd_check, ['doxygen', 'doxyfile', 'sphinx', 'guides', 'version'], []),
    }
    for name, (handler, required, optional) in commands.items():
        cmd = sub.add_parser(name)
        cmd.set_defaults(handler=handler)
        for opt in required + optional:
            cmd.add_argument('--' + opt, required=opt in required)
    args = parser.parse_args()
    return args.handler(args)


if __name__ == '__main__':
    sys.exit(main())
