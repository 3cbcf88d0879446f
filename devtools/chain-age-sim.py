#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
"""How the overflow chains of a bucket table age under churn: a model of
the line buckets' placement (seven slots a line; an object goes to a free
slot of its line, else to the head of the line's overflow chain; a removed
object frees its slot or leaves its chain, and nothing moves up into a slot
it freed), filled once, then churned: remove a present object at random,
insert a new key, the count unchanged, as the flows of a NAT or firewall
come and go between two resizes. Prints the share of the objects that sit
in a chain (a lookup reads the chain's head from the bucket word, no more
than a slot's object) and of those behind another in it (one more
dependent memory round each), fresh and after the churn; with --promote,
a removal from a slot moves the chain's head up into it.

A model of placement only, no table: the figures say how far from a fresh
fill a churned table's chains can drift, for loads (objects a line) around
the grow threshold (70% of seven slots: 4.9).

Usage: chain-age-sim.py [--lines N] [--churn X] [--promote] [--seed S] [LOAD ...]
"""

import argparse
import random

SLOTS = 7


class Lines:
    """Slot counts and overflow chains (newest first) of the lines."""

    def __init__(self, lines, promote):
        self.used = [0] * lines
        self.chain = [[] for _ in range(lines)]
        self.where = {}  # object -> (line, in a chain)
        self.promote = promote

    def insert(self, obj, line):
        if self.used[line] < SLOTS:
            self.used[line] += 1
            self.where[obj] = (line, False)
        else:
            self.chain[line].insert(0, obj)
            self.where[obj] = (line, True)

    def remove(self, obj):
        line, chained = self.where.pop(obj)
        if chained:
            self.chain[line].remove(obj)
        elif self.promote and self.chain[line]:
            self.where[self.chain[line].pop(0)] = (line, False)
        else:
            self.used[line] -= 1

    def shares(self):
        """Objects in a chain, and behind another in it, over all objects."""
        n = len(self.where)
        chained = sum(len(c) for c in self.chain)
        behind = sum(max(0, len(c) - 1) for c in self.chain)
        return chained / n, behind / n


def run(lines, load, churn, promote, rng):
    t = Lines(lines, promote)
    present = []
    for obj in range(int(lines * load)):
        t.insert(obj, rng.randrange(lines))
        present.append(obj)
    fresh = t.shares()
    new = len(present)
    for _ in range(int(churn * len(present))):
        k = rng.randrange(len(present))
        t.remove(present[k])
        t.insert(new, rng.randrange(lines))
        present[k] = new
        new += 1
    return fresh, t.shares()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("loads", metavar="LOAD", type=float, nargs="*", default=[4.0, 4.5, 4.9],
                    help="objects a line (default: 4.0 4.5 4.9)")
    ap.add_argument("--lines", type=int, default=1 << 16, help="lines (default 65536)")
    ap.add_argument("--churn", type=float, default=5.0,
                    help="objects replaced, in table populations (default 5)")
    ap.add_argument("--promote", action="store_true",
                    help="a removal from a slot moves the chain's head into it")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print("| objects a line | in a chain, fresh | after churn x%g | behind another, fresh "
          "| after churn |" % a.churn)
    print("|---|---|---|---|---|")
    for load in a.loads:
        (c0, b0), (c1, b1) = run(a.lines, load, a.churn, a.promote, rng)
        print("| %.2f | %.1f%% | %.1f%% | %.1f%% | %.1f%% |" %
              (load, 100 * c0, 100 * c1, 100 * b0, 100 * b1))


if __name__ == "__main__":
    main()
