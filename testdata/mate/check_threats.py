#!/usr/bin/env python3
"""Check claimed mate-threat moves with cshogi.

Reads lines `sfen<TAB>usi-move` from stdin (several moves separated by
spaces are also accepted; blank lines and `#` lines are skipped). For each
move checks that
  - it is a legal move of the side to move,
  - the side to move is not in check and the move does not give check,
  - after the move and a pass by the opponent, cshogi's DfPn proves mate for
    the side that moved.
Prints `OK` or `FAIL <reason>` per line (with the sfen and move) and exits 1
if any line fails.

    some-solver ... | python3 testdata/mate/check_threats.py [--depth 63] [--nodes 2000000]
"""

import argparse
import sys

import cshogi


def check(sfen, usi, depth, nodes):
    try:
        b = cshogi.Board(sfen)
    except Exception as e:  # noqa: BLE001
        return f"bad sfen ({e})"
    if b.is_check():
        return "side to move is in check"
    m = b.move_from_usi(usi)
    if m == 0 or m not in set(b.legal_moves):
        return "illegal move"
    b.push(m)
    if b.is_check():
        return "move gives check"
    b.push_pass()
    after = b.sfen()
    df = cshogi.DfPn(depth, nodes)
    if df.search(cshogi.Board(after)):
        return None
    if df.searched_node >= nodes:
        return f"cshogi unknown after pass (node limit {nodes})"
    return f"no mate after pass (cshogi disproved at depth {depth})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--depth", type=int, default=63)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    a = ap.parse_args()
    fails = total = 0
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 2 or not cols[1].strip():
            print(f"FAIL malformed line\t{line}")
            fails += 1
            total += 1
            continue
        sfen = cols[0].strip()
        for usi in cols[1].split():
            total += 1
            why = check(sfen, usi, a.depth, a.nodes)
            if why is None:
                print(f"OK\t{sfen}\t{usi}")
            else:
                fails += 1
                print(f"FAIL {why}\t{sfen}\t{usi}")
    print(f"# {total - fails}/{total} OK", file=sys.stderr)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
