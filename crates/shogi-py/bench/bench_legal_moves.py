"""Parsing SFENs and listing their legal moves as USI strings: shogi_count against cshogi,
side by side in one process.

    pip install ./crates/shogi-py cshogi
    python crates/shogi-py/bench/bench_legal_moves.py [--positions 100000] [--repeats 7]

The positions come from random legal games played by cshogi from the initial position
(seeded, so every run times the same SFENs), a few from each game at random plies, so that
openings, middle games with pieces in hand and crowded endgames all occur. Both libraries
first list the moves of every position once and must agree; then each repeat times both,
in alternating order, on the whole list:

- shogi_count: `Position(sfen).legal_moves()`;
- cshogi: `Board(sfen)`, then `move_to_usi(m)` for each `m` in `board.legal_moves`.

It prints the median, minimum and maximum of each, and the ratio of the medians.
"""

import argparse
import os
import platform
import random
import statistics
import time
from importlib.metadata import version

import cshogi

import shogi_count as sc


def make_sfens(n, seed):
    """n SFENs from random cshogi games: each game runs to a random length (at most 300
    plies, ending early at a mate or a repetition) and gives up to 8 of its positions."""
    rng = random.Random(seed)
    sfens = []
    while len(sfens) < n:
        board = cshogi.Board()
        length = rng.randrange(1, 301)
        picks = set(rng.sample(range(length), min(8, length)))
        for ply in range(length):
            if ply in picks:
                sfens.append(board.sfen())
            moves = list(board.legal_moves)
            if not moves or board.is_draw() == cshogi.REPETITION_DRAW:
                break
            board.push(rng.choice(moves))
    return sfens[:n]


def ours(sfens):
    Position = sc.Position
    return [Position(s).legal_moves() for s in sfens]


def theirs(sfens):
    Board, move_to_usi = cshogi.Board, cshogi.move_to_usi
    out = []
    for s in sfens:
        board = Board(s)
        out.append([move_to_usi(m) for m in board.legal_moves])
    return out


def timed(f, sfens):
    start = time.perf_counter()
    f(sfens)
    return time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    sfens = make_sfens(a.positions, a.seed)
    a_moves, b_moves = ours(sfens), theirs(sfens)
    for s, x, y in zip(sfens, a_moves, b_moves):
        if sorted(x) != sorted(y):
            raise SystemExit(f"the libraries disagree on {s}")
    total = sum(map(len, a_moves))
    print(f"{len(sfens)} positions, {total} legal moves ({total / len(sfens):.1f} a position), "
          f"{sum(any('*' in m for m in x) for x in a_moves)} positions with drops")

    times = {"shogi_count": [], "cshogi": []}
    runs = [("shogi_count", ours), ("cshogi", theirs)]
    for r in range(a.repeats):
        for name, f in runs if r % 2 == 0 else runs[::-1]:
            times[name].append(timed(f, sfens))

    for name, t in times.items():
        print(f"{name:12} median {statistics.median(t):.3f} s  (min {min(t):.3f}, max {max(t):.3f}; "
              f"{a.repeats} runs)  {len(sfens) / statistics.median(t):,.0f} positions/s")
    ratio = statistics.median(times["shogi_count"]) / statistics.median(times["cshogi"])
    print(f"shogi_count / cshogi = {ratio:.3f}")
    print(f"python {platform.python_version()}, cshogi {version('cshogi')}, "
          f"shogi_count {sc.__version__}, {platform.machine()}, {os.cpu_count()} cpus, "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
