#!/usr/bin/env python3
"""Write the blind mate-bench sets: positions from sources unlike the committed sets' ones.

The committed sets (shogi_mates.tsv, shogi_nomates.tsv, shogi_random.tsv) all come from
make_sets.py's biased random games, played with cshogi, and the solver's defaults were
chosen on them. The sets written here come from elsewhere, so that a default can be judged
on positions it was not tuned on (docs/BENCHMARKS.md, "Blind sets"):

- blind_greedy.tsv: games played with python-shogi (another library, its own move
  generator) by a material-greedy policy: take the most valuable piece en prise with a
  per-game probability, else give a check with another, else a uniformly random legal
  move. Such games trade and drop far more than make_sets.py's, and end in the open,
  piece-rich middle games where mates from the hand arise. One position per game, drawn
  uniformly among those from ply 16 on where the side to move has a checking move.
- blind_classics.tsv: positions on the solution lines of the 200 classical problems of
  testdata/mate/classics (将棋図巧 and 将棋無双, composed problems: long, sacrificial,
  nothing like random games), replayed with python-shogi: two per problem, drawn among the
  attacker-to-move positions after 2, 4, ... plies of the record's solution.

Each position gets cshogi's DfPn verdict at 200,000 nodes beside it, as information; the
sets are not picked by it. Every row carries its half (`tune` or `test`) by a hash of the
SFEN: defaults may be chosen on `tune` rows only and are judged on `test` rows.

Deterministic: fixed seeds, count-based stopping (python-shogi 1.1.1, cshogi 1.1.0).

    pip install cshogi==1.1.0 python-shogi==1.1.1
    python3 testdata/mate/make_blind_sets.py                 # both files, about 10 minutes of CPU
    python3 testdata/mate/make_blind_sets.py --count 20 --out-dir /tmp   # a smoke run
"""

import argparse
import datetime
import os
import random
import sys
from importlib.metadata import version

import shogi

from make_sets import norm, search

SEED = 20261128
GREEDY_COUNT = 600
PER_PROBLEM = 2
NODES = 200_000
DEPTH = 255
FIRST_PLY = 16
MAX_PLIES = 200
HERE = os.path.dirname(os.path.abspath(__file__))

# Material values for the greedy policy (promoted pieces by their promoted worth).
VALUE = {
    shogi.PAWN: 1, shogi.LANCE: 3, shogi.KNIGHT: 4, shogi.SILVER: 5, shogi.GOLD: 6,
    shogi.BISHOP: 8, shogi.ROOK: 10, shogi.KING: 100,
    shogi.PROM_PAWN: 6, shogi.PROM_LANCE: 6, shogi.PROM_KNIGHT: 6, shogi.PROM_SILVER: 6,
    shogi.PROM_BISHOP: 11, shogi.PROM_ROOK: 13,
}


def half(sfen):
    """`tune` or `test`: the top bit of the 64-bit FNV-1a hash of the board, side and hands
    (as xtask/src/mate_bench/blind.rs computes it for every set, these included)."""
    h = 0xCBF29CE484222325
    for b in " ".join(sfen.split()[:3]).encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "tune" if h >> 63 == 0 else "test"


def gives_check(board, move):
    board.push(move)
    check = board.is_check()
    board.pop()
    return check


def has_check(board):
    return any(gives_check(board, m) for m in board.legal_moves)


def greedy_move(board, rng, p_capture, p_check):
    moves = list(board.legal_moves)
    if not moves:
        return None
    captures = []
    for m in moves:
        if m.drop_piece_type is None:
            victim = board.piece_at(m.to_square)
            if victim is not None:
                captures.append((VALUE[victim.piece_type], m))
    if captures and rng.random() < p_capture:
        best = max(v for v, _ in captures)
        return rng.choice([m for v, m in captures if v == best])
    if rng.random() < p_check:
        checks = [m for m in moves if gives_check(board, m)]
        if checks:
            return rng.choice(checks)
    return rng.choice(moves)


def greedy_game(rng):
    """The SFENs of one game (move numbers dropped), from ply FIRST_PLY on."""
    board = shogi.Board()
    p_capture = rng.uniform(0.5, 0.95)
    p_check = rng.uniform(0.05, 0.4)
    out = []
    for ply in range(MAX_PLIES):
        if ply >= FIRST_PLY:
            out.append(board.sfen())
        m = greedy_move(board, rng, p_capture, p_check)
        if m is None:
            break
        board.push(m)
    return out


def greedy_rows(count, rng):
    seen, rows, games = set(), [], 0
    while len(rows) < count:
        games += 1
        positions = [norm(s) for s in greedy_game(rng)]
        order = list(range(len(positions)))
        rng.shuffle(order)
        # The first in a random order that qualifies: uniform among those that do.
        for i in order:
            s = positions[i]
            if s in seen or not has_check(shogi.Board(s)):
                continue
            seen.add(s)
            rows.append((s, f"game {games} ply {FIRST_PLY + i}"))
            break
        if len(rows) % 100 == 0 and rows and rows[-1][1].startswith(f"game {games} "):
            print(f"greedy: {len(rows)} positions from {games} games", file=sys.stderr)
    return rows, f"games {games}"


def classics_rows(rng):
    path = os.path.join(HERE, "classics", "classics.tsv")
    rows, seen = [], set()
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            board = shogi.Board(r["sfen"])
            after = []
            for k, usi in enumerate(r["solution"].split()):
                move = shogi.Move.from_usi(usi)
                if move not in board.legal_moves:
                    break
                board.push(move)
                if k % 2 == 1 and not board.is_game_over():
                    after.append((k + 1, norm(board.sfen())))
            after = [(p, s) for p, s in after if s not in seen]
            for p, s in rng.sample(after, min(PER_PROBLEM, len(after))):
                seen.add(s)
                rows.append((s, f"{r['id']} after {p} plies"))
    return rows, f"problems from {os.path.relpath(path, HERE)}"


def write(path, what, made_by, rows):
    with open(path, "w") as f:
        f.write(f"# {what}\n")
        f.write(f"# made by: python3 testdata/mate/make_blind_sets.py ({made_by})\n")
        f.write(f"# cshogi {version('cshogi')}, python-shogi {version('python-shogi')}, "
                f"seed {SEED}, date {datetime.date.today()}\n")
        f.write(f"# columns: sfen, half (tune / test), source, cshogi DfPn({DEPTH}, {NODES}) "
                "verdict (mate / nomate / unknown), its nodes, its PV length (0 unless mate)\n")
        counts = {}
        for s, source in rows:
            v, n, pv = search(s, NODES, DEPTH)
            plies = len(pv) if pv else 0
            counts[v] = counts.get(v, 0) + 1
            f.write(f"{s}\t{half(s)}\t{source}\t{v}\t{n}\t{plies}\n")
    print(f"wrote {path}: {len(rows)} positions, {counts}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=GREEDY_COUNT)
    ap.add_argument("--out-dir", default=HERE)
    args = ap.parse_args()
    rows, made = greedy_rows(args.count, random.Random(SEED))
    write(os.path.join(args.out_dir, "blind_greedy.tsv"),
          "Shogi positions from material-greedy games played with python-shogi, one per game, "
          "each with a check for the side to move.", made, rows)
    rows, made = classics_rows(random.Random(SEED + 1))
    if args.count < GREEDY_COUNT:
        rows = rows[: args.count]
    write(os.path.join(args.out_dir, "blind_classics.tsv"),
          "Positions on the solution lines of the 200 classical problems, attacker to move, "
          f"{PER_PROBLEM} a problem.", made, rows)


if __name__ == "__main__":
    main()
