#!/usr/bin/env python3
"""Write shogi_shortest.tsv: shortest mate lengths proved by KomoringHeights' MinLength.

KomoringHeights (GPL; https://github.com/komori-n/KomoringHeights) is run as an outside
program over USI, never linked or vendored: build it from its public source
(`cd source && make normal TARGET_CPU=AVX2 COMPILER=g++`) and pass the binary. With
`PostSearchLevel MinLength` it searches "mate within N - 2 plies" after each mate of N plies
until one fails; its last `info string` is then a disproof of length N - 1
(`# kth result: {disproof_hand=... len=N-1 ...}`), which proves N the shortest (the attacker
shortest, the defender longest over every reply). A position is written only when that
last result is there and the printed mate has N plies; the rest are counted and left out.

Positions: `shogi_mates.tsv` (mates from random games), hands as the SFEN gives them (both
hands are known), one thread, a fixed node limit per position (count-based, so the file does
not depend on the machine's speed).

    python3 testdata/mate/make_shortest_set.py --kh /path/to/KomoringHeights-by-gcc
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NODES = 5_000_000
HASH_MB = 512


def sfens(path):
    with open(path) as f:
        return [l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")]


class Engine:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.name = binary
        self.send("usi")
        for line in self.until("usiok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
        for name, value in [("Threads", 1), ("USI_Hash", HASH_MB), ("NodesLimit", NODES),
                            ("PostSearchLevel", "MinLength"),
                            ("RootIsAndNodeIfChecked", "false")]:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        list(self.until("readyok"))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"{self.name} ended")
            yield line.rstrip("\n")
            if line.startswith(prefix):
                return

    def shortest(self, sfen):
        """(plies, proved) of the mate KomoringHeights prints, or None without one."""
        self.send("usinewgame")
        self.send(f"position sfen {sfen}")
        self.send("go mate infinite")
        last = None
        answer = None
        for line in self.until("checkmate"):
            m = re.search(r"string # \S+ result: (.*)$", line)
            if m:
                last = m.group(1)
            if line.startswith("checkmate"):
                answer = line.split()[1:]
        if not answer or answer[0] in ("nomate", "timeout", "notimplemented"):
            return None
        n = len(answer)
        proved = n == 1 or (last is not None and "disproof" in last
                            and re.search(rf"\blen={n - 1}\b", last) is not None)
        return n, proved


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kh", required=True, help="the KomoringHeights binary")
    ap.add_argument("--input", default=os.path.join(HERE, "shogi_mates.tsv"))
    ap.add_argument("--out", default=os.path.join(HERE, "shogi_shortest.tsv"))
    ap.add_argument("--first", type=int, help="only the first N positions (a smoke run)")
    args = ap.parse_args()
    positions = sfens(args.input)[: args.first]
    kh = Engine(args.kh)
    rows, unproved, none = [], 0, 0
    for i, sfen in enumerate(positions):
        r = kh.shortest(sfen)
        if r is None:
            none += 1
        elif r[1]:
            rows.append((sfen, r[0]))
        else:
            unproved += 1
        if (i + 1) % 50 == 0:
            print(f"{i + 1}/{len(positions)}: {len(rows)} proved", file=sys.stderr)
    kh.send("quit")
    with open(args.out, "w") as f:
        f.write("# Shogi mates with the shortest length proved by KomoringHeights' MinLength.\n")
        f.write("# made by: python3 testdata/mate/make_shortest_set.py --kh <binary>\n")
        f.write(f"# engine: {kh.name}; Threads 1, USI_Hash {HASH_MB}, NodesLimit {NODES}, "
                f"PostSearchLevel MinLength, RootIsAndNodeIfChecked false; date {datetime.date.today()}\n")
        f.write(f"# positions: {os.path.basename(args.input)}, hands as in the SFEN; "
                f"{len(rows)} proved, {unproved} mates not proved shortest, {none} without a mate, "
                "left out\n")
        f.write("# columns: sfen, shortest mate in plies\n")
        for sfen, n in rows:
            f.write(f"{sfen}\t{n}\n")
    print(f"wrote {args.out}: {len(rows)} proved, {unproved} unproved, {none} no mate",
          file=sys.stderr)


if __name__ == "__main__":
    main()
