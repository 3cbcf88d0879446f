#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""Write the PMD info C source of a driver from its compiled objects.

DPDK's dpdk-pmdinfo.py lists the drivers of a binary by the strings in its
.rodata that start with "PMD_INFO_STRING=", each followed by a JSON object
(name, params, ...). A driver does not write that string itself: its
RTE_PMD_REGISTER_* macros leave marker arrays in the object,
    this_pmd_name<N>                     = "<driver name>"
    (this_pmd_name<driver name> since DPDK 25.11)
    __<driver name>_param_string_export  = "<devargs>"
    __<driver name>_kmod_dep_export      = "<kernel modules>"
and a build step turns them into the string. Only virtual-device drivers
are handled: "pci_ids" (which dpdk-pmdinfo.py requires) is always empty. This is that step, for the
project's drivers, with the Python standard library only (Debian's
libdpdk-dev does not install DPDK's pmdinfogen).

Usage: gen_pmdinfo.py OUTPUT.c OBJECT_OR_ARCHIVE...
Reads ELF64 relocatable objects, plain or thin ar archives of them.
"""

import json
import os
import re
import struct
import sys

NAME_PREFIX = "this_pmd_name"
# marker suffix -> info key, as in the JSON dpdk-pmdinfo.py reads
EXPORTS = {"_param_string_export": "params", "_kmod_dep_export": "kmod"}


class ElfObject:
    """The defined symbols of one ELF64 little-endian relocatable object."""

    def __init__(self, data, origin):
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise ValueError(f"{origin}: not an ELF64 little-endian object")
        self.data = data
        self.origin = origin
        (shoff,) = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
        self.sections = [
            struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)
        ]

    def section_bytes(self, index):
        sec = self.sections[index]
        return self.data[sec[4] : sec[4] + sec[5]]

    def symbols(self):
        """Yield (name, section index, value, size) of every defined symbol."""
        symtab_type = 2
        for sec in self.sections:
            if sec[1] != symtab_type:
                continue
            strtab = self.section_bytes(sec[6])
            table = self.data[sec[4] : sec[4] + sec[5]]
            for off in range(0, len(table), 24):
                name, _, _, shndx, value, size = struct.unpack_from(
                    "<IBBHQQ", table, off
                )
                if shndx == 0 or shndx >= len(self.sections):
                    continue  # undefined, or absolute/common
                end = strtab.index(b"\0", name)
                yield strtab[name:end].decode(), shndx, value, size

    def string_at(self, shndx, value, size):
        """The NUL-terminated string a char array symbol holds."""
        raw = self.section_bytes(shndx)[value : value + size]
        return raw.split(b"\0", 1)[0].decode()


def archive_members(data, path):
    """Yield (member data, name) of a plain or thin ar archive."""
    thin = data.startswith(b"!<thin>\n")
    pos = 8
    long_names = b""
    while pos + 60 <= len(data):
        header = data[pos : pos + 60]
        name = header[:16].decode().strip()
        size = int(header[48:58].decode().strip())
        body_pos = pos + 60
        body = data[body_pos : body_pos + size]
        if name == "//":
            long_names = body
        elif re.match(r"/\d", name):
            # "/<offset in the long names>", which GNU ar may follow with
            # more in the field (seen: "/170           /")
            start = int(re.match(r"/(\d+)", name).group(1))
            member = long_names[start : long_names.index(b"/\n", start)].decode()
            yield read_member(thin, body, member, path)
        elif name not in ("/", "/SYM64/"):
            yield read_member(thin, body, name.rstrip("/"), path)
        # a thin archive stores no member data, only the header
        pos = body_pos + (0 if thin and name not in ("/", "//", "/SYM64/") else size)
        pos += pos % 2


def read_member(thin, body, name, archive_path):
    if not thin:
        return body, f"{archive_path}({name})"
    member_path = os.path.join(os.path.dirname(archive_path), name)
    with open(member_path, "rb") as f:
        return f.read(), member_path


def objects(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith((b"!<arch>\n", b"!<thin>\n")):
        for member, origin in archive_members(data, path):
            yield ElfObject(member, origin)
    else:
        yield ElfObject(data, path)


def driver_infos(paths):
    """The info dict of every driver the objects register, in name order."""
    names = []
    exports = {}
    for path in paths:
        for obj in objects(path):
            for sym, shndx, value, size in obj.symbols():
                if sym.startswith(NAME_PREFIX) and len(sym) > len(NAME_PREFIX):
                    # this_pmd_name<N> before DPDK 25.11, this_pmd_name<name> since
                    name = obj.string_at(shndx, value, size)
                    tag = sym[len(NAME_PREFIX) :]
                    if tag.isdigit() or tag == name:
                        names.append(name)
                        continue
                for suffix, key in EXPORTS.items():
                    if sym.startswith("__") and sym.endswith(suffix):
                        drv = sym[2 : -len(suffix)]
                        exports[drv, key] = obj.string_at(shndx, value, size)
    infos = []
    for name in sorted(set(names)):
        info = {"name": name, "pci_ids": []}
        for key in EXPORTS.values():
            if (name, key) in exports:
                info[key] = exports[name, key]
        infos.append(info)
    return infos


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    infos = driver_infos(sys.argv[2:])
    if not infos:
        sys.exit(f"gen_pmdinfo: no {NAME_PREFIX}<N or name> symbol in {' '.join(sys.argv[2:])}")
    lines = ["/* generated by drivers/gen_pmdinfo.py: do not edit */"]
    for info in infos:
        text = "PMD_INFO_STRING= " + json.dumps(info, sort_keys=True)
        # 'used': nothing refers to the string; dpdk-pmdinfo.py reads .rodata
        lines.append(
            f"static const char pmdinfo_{info['name']}[] __attribute__((used)) =\n"
            f"\t{c_string(text)};"
        )
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
