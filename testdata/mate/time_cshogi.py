#!/usr/bin/env python3
"""Time cshogi's df-pn mate search over a TSV file of positions.

    python3 testdata/mate/time_cshogi.py testdata/mate/shogi_mates.tsv --depth 63 --nodes 2000000

The first column of every non-`#`, non-blank line is an SFEN (lines of
public.tsv, whose first column is a name, are handled by taking the first
column that parses as an SFEN). Each position gets a fresh cshogi.DfPn
(one thread). Prints one JSON object: wall time of the search() calls only
(time.perf_counter), total searched_node, and counts of mate / nomate
(disproved within the node limit) / unknown (node limit hit).

With --serve it reads one SFEN a line from stdin instead and answers each at once with one
JSON line (verdict, nodes, seconds of the search() call, the PV in USI when a mate), so that
a caller can interleave cshogi with another solver position by position (`cargo xtask
mate-bench --blind`).
"""

import argparse
import json
import time
from importlib.metadata import version

import cshogi


def sfen_of(cols):
    for c in cols:
        parts = c.split()
        if len(parts) >= 3 and parts[1] in ("b", "w") and parts[0].count("/") == 8:
            return c
    raise ValueError(f"no sfen in line: {cols[:2]}")


def search(sfen, depth, nodes):
    """cshogi's answer on one position, a fresh DfPn: (verdict, nodes, seconds of search()
    alone, PV in USI when a mate)."""
    b = cshogi.Board(sfen)
    df = cshogi.DfPn(depth, nodes)
    t = time.perf_counter()
    r = df.search(b)
    s = time.perf_counter() - t
    n = df.searched_node
    verdict = "mate" if r else ("nomate" if n < nodes else "unknown")
    pv = [cshogi.move_to_usi(m) for m in df.get_pv(b)] if r else []
    return verdict, n, s, pv


def serve(depth, nodes):
    import sys
    print(json.dumps({"cshogi": version("cshogi")}), flush=True)
    for line in sys.stdin:
        sfen = line.strip()
        if not sfen:
            continue
        verdict, n, s, pv = search(sfen, depth, nodes)
        print(json.dumps({"verdict": verdict, "nodes": n, "s": s, "pv": pv}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--depth", type=int, default=63)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--serve", action="store_true")
    a = ap.parse_args()
    if a.serve:
        return serve(a.depth, a.nodes)
    if a.file is None:
        ap.error("a FILE, or --serve")
    wall = 0.0
    nodes = 0
    cnt = {"mate": 0, "nomate": 0, "unknown": 0}
    with open(a.file) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            sfen = sfen_of(line.rstrip("\n").split("\t"))
            verdict, n, s, _ = search(sfen, a.depth, a.nodes)
            wall += s
            nodes += n
            cnt[verdict] += 1
    print(json.dumps({
        "file": a.file, "cshogi": version("cshogi"), "depth": a.depth, "node_limit": a.nodes,
        "positions": sum(cnt.values()), "wall_s": round(wall, 6), "nodes": nodes, **cnt,
    }))


if __name__ == "__main__":
    main()
