#!/usr/bin/env python3
"""Write shogi_random.tsv: 1,500 positions from random games, one per game, for mate-bench.

Unlike shogi_mates.tsv and shogi_nomates.tsv, which are picked by cshogi's verdict, this set
is picked blind: the games are make_sets.py's biased random games (own seed), and from each
game one position is drawn uniformly among those where the side to move has at least one
checking move (without one, "no mate" is immediate for every solver and says nothing).
cshogi's verdict at 200,000 nodes is written beside each position as information, not as the
truth the set is judged by: mate-bench replays every mate line and compares solvers'
decisions under one time cap.

Deterministic: fixed seed and node limit, count-based stopping.

    pip install cshogi==1.1.0
    python3 testdata/mate/make_random_set.py            # writes testdata/mate/shogi_random.tsv
    python3 testdata/mate/make_random_set.py --count 20 --out /tmp/r.tsv   # a smoke run
"""

import argparse
import datetime
import os
import random
import sys

import make_sets
from make_sets import CSHOGI_VERSION, checking_moves, norm, play_game, search, verify_pv

import cshogi

SEED = 20261127
COUNT = 1500
NODES = 200_000
DEPTH = 255


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=COUNT)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "shogi_random.tsv"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seen = set()
    rows = []
    games = 0
    while len(rows) < args.count:
        games += 1
        candidates = []
        for sfen in play_game(rng):
            b = cshogi.Board(sfen)
            if checking_moves(b):
                candidates.append(norm(sfen))
        candidates = [s for s in candidates if " ".join(s.split()[:3]) not in seen]
        if not candidates:
            continue
        sfen = rng.choice(candidates)
        seen.add(" ".join(sfen.split()[:3]))
        verdict, nodes, pv = search(sfen, NODES, DEPTH)
        if verdict == "mate" and not verify_pv(sfen, pv):
            sys.exit(f"cshogi's PV does not replay: {sfen} {' '.join(pv)}")
        rows.append((sfen, verdict, nodes, len(pv) if pv else 0))
        if len(rows) % 100 == 0:
            print(f"{len(rows)} positions from {games} games", file=sys.stderr)
    with open(args.out, "w") as f:
        f.write("# Shogi positions from random games, one per game, each with a check for the side to move.\n")
        f.write("# made by: python3 testdata/mate/make_random_set.py\n")
        f.write(f"# cshogi {CSHOGI_VERSION}, seed {args.seed}, date {datetime.date.today()}, "
                f"games {games}, make_sets.py's play_game (MAX_PLIES {make_sets.MAX_PLIES}, "
                f"FIRST_PLY {make_sets.FIRST_PLY})\n")
        f.write(f"# columns: sfen, cshogi DfPn({DEPTH}, {NODES}) verdict (mate / nomate / unknown), "
                "its nodes, its PV length (0 unless mate)\n")
        for sfen, verdict, nodes, plies in rows:
            f.write(f"{sfen}\t{verdict}\t{nodes}\t{plies}\n")
    counts = {v: sum(1 for r in rows if r[1] == v) for v in ("mate", "nomate", "unknown")}
    print(f"wrote {args.out}: {len(rows)} positions from {games} games, {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
