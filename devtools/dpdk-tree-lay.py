#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Lay one part of rte_rhashtable into an unpacked DPDK source tree.

Called by devtools/dpdk-tree.sh once per patch of the series:
  lib   lib/rhashtable/ (this repository's sources, a DPDK-style meson.build),
        lib/meson.build, MAINTAINERS, API index, release notes
  test  the library's autotests into app/test/, registered in its meson.build
  doc   the programmer's guide into doc/guides/prog_guide/

Source files are copied unchanged: only the files that must differ between
this repository's build and DPDK's (meson.build, version.map of a DPDK
without export annotations, index and list entries) are generated here.
"""

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

# The library's autotests that build inside dpdk-test. The others need this
# repository's harness (test_rhashtable_mp.c starts its own binary,
# test_rhashtable_scale.c sizes EAL memory itself, test_rhashtable_service.c
# links libnuma) and stay in dpdk-rhashtable-test only.
TEST_FILES = {
    # file: DPDK libraries it needs besides rhashtable
    "test_rhashtable.c": [],
    "test_rhashtable_anon_writers.c": [],
    "test_rhashtable_audit_stress.c": [],
    "test_rhashtable_count.c": [],
    "test_rhashtable_errors.c": [],
    "test_rhashtable_faults.c": [],
    "test_rhashtable_fence.c": [],
    "test_rhashtable_flood.c": ["hash"],
    "test_rhashtable_perf.c": ["hash"],
    "test_rhashtable_rcu.c": [],
    "test_rhashtable_rcu_stress.c": [],
    "test_rhashtable_reinsert.c": [],
    "test_rhashtable_resize.c": [],
    "test_rhashtable_stress.c": [],
    "test_rhashtable_telemetry.c": [],
    "test_rhashtable_walk.c": [],
    "test_rhashtable_walk_stress.c": [],
    "test_rhashtable_writers_perf.c": ["hash"],
    "test_rhltable.c": [],
}
TEST_HEADERS = ["test_rhashtable_stress.h", "test_rhashtable_util.h"]

# Installed headers: the API and the layout its inline lookup reads.
HEADERS = ["rte_rhashtable.h"]
INDIRECT_HEADERS = ["rte_rhashtable_core.h"]
# Needed only by builds against a DPDK older than 23.11: never laid.
NOT_LAID = {"rte_rhashtable_compat.h", "version.map", "meson.build"}

COPYRIGHT = "Copyright(c) 2026 The rte_rhashtable authors"
DEFAULT_AUTHOR = ("Rhashtable Authors", "maintainers@rhashtable.example")


def author():
    """Author of the series, as devtools/dpdk-tree.sh commits it."""
    return "{} <{}>".format(os.environ.get("RHT_DPDK_AUTHOR_NAME", DEFAULT_AUTHOR[0]),
                            os.environ.get("RHT_DPDK_AUTHOR_EMAIL", DEFAULT_AUTHOR[1]))


def read(path):
    return Path(path).read_text(encoding="utf-8")


def write(path, text):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def insert_after(text, anchor, addition, what):
    if anchor not in text:
        sys.exit(f"dpdk-tree-lay: cannot find {what} ({anchor.strip()!r})")
    return text.replace(anchor, anchor + addition, 1)


def insert_before(text, anchor, addition, what):
    if anchor not in text:
        sys.exit(f"dpdk-tree-lay: cannot find {what} ({anchor.strip()!r})")
    return text.replace(anchor, addition + anchor, 1)


def repo_sources(repo):
    """The .c files of lib/rhashtable/meson.build, in its order."""
    m = re.search(r"sources = files\((.*?)\)", read(repo / "lib/rhashtable/meson.build"), re.S)
    if not m:
        sys.exit("dpdk-tree-lay: no sources = files(...) in lib/rhashtable/meson.build")
    return re.findall(r"'([^']+\.c)'", m.group(1))


def config_defaults(repo):
    """Default of every tunable the generated rte_rhashtable_config.h carries."""
    opts = read(repo / "meson_options.txt")
    conf = read(repo / "config/meson.build")
    pairs = re.findall(r"rht_conf\.set\('(\w+)', get_option\('(\w+)'\)\)", conf)
    values = []
    for macro, opt in pairs:
        m = re.search(r"option\('" + opt + r"'[^)]*?value: (\d+)", opts, re.S)
        if not m:
            sys.exit(f"dpdk-tree-lay: no integer default for option {opt}")
        values.append((macro, int(m.group(1))))
    return values


def export_annotated(tree):
    return (tree / "lib/eal/common/eal_export.h").exists()


def version_map(repo):
    """A version.map for a DPDK that has no export annotations (24.11)."""
    exp, internal = {}, []
    for src in repo_sources(repo):
        for line in read(repo / "lib/rhashtable" / src).splitlines():
            m = re.match(r"RTE_EXPORT_EXPERIMENTAL_SYMBOL\((\w+), ([0-9.]+)\)", line)
            if m:
                exp.setdefault(m.group(2), []).append(m.group(1))
            m = re.match(r"RTE_EXPORT_INTERNAL_SYMBOL\((\w+)\)", line)
            if m:
                internal.append(m.group(1))
    # the layout devtools/check-symbol-maps.sh accepts
    text = "EXPERIMENTAL {\n\tglobal:\n"
    for version in sorted(exp):
        text += f"\n\t# added in {version}\n"
        text += "".join(f"\t{s};\n" for s in sorted(exp[version]))
    text += "\n\tlocal: *;\n};\n"
    if internal:
        text += "\nINTERNAL {\n\tglobal:\n\n"
        text += "".join(f"\t{s};\n" for s in sorted(internal))
        text += "};\n"
    return text


def lib_meson(repo):
    q = lambda names: "".join(f"        '{n}',\n" for n in names)
    text = "# SPDX-License-Identifier: BSD-3-Clause\n# " + COPYRIGHT + "\n\n"
    text += "sources = files(\n" + q(repo_sources(repo)) + ")\n"
    text += "headers = files(\n" + q(HEADERS) + ")\n"
    text += "indirect_headers += files(\n" + q(INDIRECT_HEADERS) + ")\n"
    text += "\n# build-time tunables, the defaults of the standalone build's options\n"
    text += "rhashtable_conf = configuration_data()\n"
    for macro, value in config_defaults(repo):
        text += f"rhashtable_conf.set('{macro}', {value})\n"
    text += "rhashtable_conf.set_quoted('RTE_RHT_VERSION', meson.project_version())\n"
    text += "configure_file(output: 'rte_rhashtable_config.h',\n"
    text += "        configuration: rhashtable_conf)\n"
    text += "\ndeps += ['rcu', 'telemetry']\n"
    return text


def lay_lib(repo, tree):
    src = repo / "lib/rhashtable"
    dst = tree / "lib/rhashtable"
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.iterdir()):
        if f.name not in NOT_LAID and f.suffix in (".c", ".h"):
            shutil.copyfile(f, dst / f.name)
    write(dst / "meson.build", lib_meson(repo))
    if not export_annotated(tree):
        write(dst / "version.map", version_map(repo))

    libs = read(tree / "lib/meson.build")
    write(tree / "lib/meson.build",
          insert_before(libs, "        'rib',\n", "        'rhashtable',\n", "'rib' in lib/meson.build"))

    maint = read(tree / "MAINTAINERS")
    entry = ("\nResizable hash table - EXPERIMENTAL\n"
             f"M: {author()}\n"
             "F: lib/rhashtable/\n")
    write(tree / "MAINTAINERS",
          insert_after(maint, "F: app/test/test_*hash*\nF: app/test/test_func_reentrancy.c\n", entry,
                       "the Hashes entry of MAINTAINERS"))

    # a new contributor is added to .mailmap, in its sorted place
    mailmap = read(tree / ".mailmap").splitlines(keepends=True)
    if author() + "\n" not in mailmap:
        pos = next((i for i, line in enumerate(mailmap) if line.lower() > author().lower()),
                   len(mailmap))
        mailmap.insert(pos, author() + "\n")
        write(tree / ".mailmap", "".join(mailmap))

    index = read(tree / "doc/api/doxy-api-index.md")
    write(tree / "doc/api/doxy-api-index.md",
          insert_after(index, "  [hash](@ref rte_hash.h),\n",
                       "  [rhashtable](@ref rte_rhashtable.h),\n", "the hashes of the API index"))
    conf = read(tree / "doc/api/doxy-api.conf.in")
    write(tree / "doc/api/doxy-api.conf.in",
          insert_before(conf, "                          @TOPDIR@/lib/rib \\\n",
                        "                          @TOPDIR@/lib/rhashtable \\\n",
                        "lib/rib in doxy-api.conf.in"))

    version = read(tree / "VERSION").strip().split(".")
    notes_path = tree / f"doc/guides/rel_notes/release_{version[0]}_{version[1]}.rst"
    notes = read(notes_path)
    feature = (
        "* **Added resizable RCU hash table library.**\n\n"
        "  Added the ``rte_rhashtable`` library, a hash table that grows and shrinks\n"
        "  online: a DPDK service moves its objects to a bucket array of twice or half\n"
        "  the size while lookups, which take no lock, carry on.\n"
        "  It is intrusive (objects embed their link), reclaims memory through RCU QSBR,\n"
        "  and reports on telemetry.\n"
        "  See the :doc:`../prog_guide/rhashtable_lib` programmer's guide.\n\n")
    write(notes_path, insert_before(notes, "\nRemoved Items\n-------------\n", feature,
                                    "the Removed Items section of the release notes"))


def lay_test(repo, tree):
    for name in list(TEST_FILES) + TEST_HEADERS:
        shutil.copyfile(repo / "test" / name, tree / "app/test" / name)
    meson_path = tree / "app/test/meson.build"
    text = read(meson_path)
    for name, deps in sorted(TEST_FILES.items()):
        line = "    '{}': [{}],\n".format(name, ", ".join(f"'{d}'" for d in ["rhashtable"] + deps))
        # before the first entry that sorts after this one
        for m in re.finditer(r"^    '(test_[^']+\.c)': ", text, re.M):
            if m.group(1) > name:
                text = text[:m.start()] + line + text[m.start():]
                break
        else:
            sys.exit(f"dpdk-tree-lay: no place for {name} in app/test/meson.build")
    write(meson_path, text)

    maint = read(tree / "MAINTAINERS")
    write(tree / "MAINTAINERS",
          insert_after(maint, "F: lib/rhashtable/\n",
                       "F: app/test/test_rhashtable*\nF: app/test/test_rhltable.c\n",
                       "the rhashtable entry of MAINTAINERS"))


def lay_doc(repo, tree):
    src = repo / "doc/guides/prog_guide"
    dst = tree / "doc/guides/prog_guide"
    for f in sorted(src.iterdir()):
        if f.name.startswith("rhashtable") and f.suffix in (".rst", ".inc"):
            shutil.copyfile(f, dst / f.name)
    for f in sorted((src / "img").iterdir()):
        if f.name.startswith("rhashtable"):
            shutil.copyfile(f, dst / "img" / f.name)
    # The last section shows this repository's benchmark report (read at
    # build time by a Sphinx extension of its own): not part of DPDK's guide.
    guide = read(dst / "rhashtable_lib.rst")
    perf = "\n\nPerformance\n-----------\n\n.. include:: perf_results.rst.inc\n"
    if perf not in guide:
        sys.exit("dpdk-tree-lay: no Performance section at the end of rhashtable_lib.rst")
    write(dst / "rhashtable_lib.rst", guide.replace(perf, "\n").rstrip("\n") + "\n")

    index = read(dst / "index.rst")
    write(dst / "index.rst", insert_after(index, "    hash_lib\n", "    rhashtable_lib\n",
                                          "hash_lib in the programmer's guide index"))
    maint = read(tree / "MAINTAINERS")
    write(tree / "MAINTAINERS",
          insert_after(maint, "F: lib/rhashtable/\n", "F: doc/guides/prog_guide/rhashtable*\n",
                       "the rhashtable entry of MAINTAINERS"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["lib", "test", "doc", "fast-tests"])
    ap.add_argument("repo", type=Path, help="this repository")
    ap.add_argument("tree", type=Path, nargs="?", help="the DPDK source tree")
    args = ap.parse_args()
    if args.part == "fast-tests":
        # the fast autotests laid into app/test, one a line
        for name in TEST_FILES:
            text = read(args.repo / "test" / name)
            for m in re.finditer(r"^REGISTER_FAST_TEST\((\w+),", text, re.M):
                print(m.group(1))
        return
    {"lib": lay_lib, "test": lay_test, "doc": lay_doc}[args.part](args.repo, args.tree)


if __name__ == "__main__":
    main()
