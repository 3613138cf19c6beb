#!/usr/bin/env python3
"""
gen_bench.py -- count the benchmark suite (testdata/perft/bench.perft) with
independent libraries.

The suite is the set of positions that crates/shogi-bench times and that
`cargo xtask perft` runs at full depth: a few positions per kind (start,
"matsuri", the maximum-moves position, drop- and promotion-heavy middlegames
and endgames, single and double check, Mini Shogi), each at the depths the
bench and the command line use. The positions come from shogi.perft,
mini.perft and crowded.perft (see README.md for how those were chosen); this
script only counts them deeper.

Counts:
* Shogi: cshogi (its C++ legal move generator, pawn-drop mate excluded),
  walked from Python with push/pop; the last ply is the length of the legal
  move list (bulk counting), so the Python loop visits the nodes of depth
  d-1 only.
* Mini Shogi: minishogilib, which lists pawn-drop mates as legal: the drop
  in front of the enemy king is removed at every node when the opponent is
  then in check and has no reply (the same filter as gen_perft.py).

Every count that shogi.perft, mini.perft or crowded.perft already holds is
compared with what this script gets, and the script stops on a difference;
the deeper counts are new. The Rust side (shogi-core's test of this file and
shogi-bench, which checks every library's count before timing it) is the
second, independent implementation.

Usage:
    python3 -m venv venv && venv/bin/pip install cshogi==1.1.0 minishogilib==0.6.17
    venv/bin/python testdata/perft/gen_bench.py > testdata/perft/bench.perft
"""

import os
import sys
import time
from importlib.metadata import version

import cshogi
import minishogilib as msl

HERE = os.path.dirname(os.path.abspath(__file__))

# (id, sfen, depths). The ids say what each position is for; the bench times
# one depth of each (crates/shogi-bench/benches/compare.rs).
SUITE = [
    ("startpos", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", [4, 5, 6]),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", [2, 3, 4]),
    ("max-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", [1, 2, 3]),
    # mid-044 of shogi.perft: 358 moves, 323 of them drops.
    ("middle-drops", "4G2+N1/5k2l/4p1b1p/5p1p1/P2ps4/7PP/2K5L/3G1S1N1/8R b R2G2SN2L6Pbn4p 93", [2, 3]),
    # mid-032 of shogi.perft: a rook in the zone, 13 promotions at the root.
    ("middle-promotions", "ln2s1s2/2k6/p1p3Rpl/1p6p/P8/S4g3/5G1PP/3P1K2R/7NL b 2BGN3Pgsnl6p 81", [2, 3]),
    # hand-014 of crowded.perft: kings, a pawn and a lance; everything else in Black's hand.
    ("endgame-drops", "9/6k2/9/2K6/9/9/1p7/8L/9 b 2R2B4G4S4N3L17P 1", [2, 3]),
    # reduced-003 of shogi.perft: two rooks, a bishop and a lance, all in the promotion zones.
    ("endgame-promotions", "R8/9/9/9/6+b2/+l8/2+R6/K6k1/9 b - 1", [3, 4]),
    # check-014 of shogi.perft.
    ("check", "1s6+S/4k1g2/2n1pG3/2p4+B1/6P1G/8P/3+pP2P1/5L1S1/1+l1K4+p w RB2NL4Prgsnl6p 130", [3, 4]),
    # double-check-010 of shogi.perft.
    ("double-check", "l2+N1ks1+L/5r3/1+R7/p3p3p/1P1P2g2/PsP1PK3/2N6/9/L3+s1N2 b BGSNL6Pb2g4p 119", [3, 4]),
    ("mini-startpos", "rbsgk/4p/5/P4/KGSBR b - 1", [5, 6]),
    # mid-001 of mini.perft: both sides with pieces in hand.
    ("mini-middle", "5/k4/2s1+b/K4/5 b RBG2Prgs 63", [3, 4]),
]


def cs_perft(sfen, depth):
    board = cshogi.Board(sfen)

    def rec(d):
        moves = list(board.legal_moves)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            board.push(m)
            total += rec(d - 1)
            board.pop()
        return total

    return rec(depth) if depth > 0 else 1


def front_square(king, defender):
    """USI square where a pawn of the defender's opponent gives check (Mini: ranks a..e)."""
    r = ord(king[1]) - 97 + (1 if defender == "w" else -1)
    return king[0] + chr(97 + r) if 0 <= r < 5 else None


def msl_perft(sfen, depth):
    p = msl.Position()
    p.set_sfen(sfen)
    side = sfen.split()[1]
    kings = {}
    rows = sfen.split()[0].split("/")
    for r, row in enumerate(rows):
        f = 5
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                f -= int(c)
            elif c == "+":
                i += 1
                f -= 1
            else:
                if c in "Kk":
                    kings["b" if c == "K" else "w"] = str(f) + chr(97 + r)
                f -= 1
            i += 1

    def legal(stm, kings):
        moves = [(m, m.sfen()) for m in p.generate_moves()]
        other = "w" if stm == "b" else "b"
        fs = front_square(kings[other], other)
        if fs is None:
            return moves
        cand = "P*" + fs
        out = []
        for m, s in moves:
            if s == cand:
                p.do_move(m)
                mated = p.is_in_check() and not legal(other, kings)
                p.undo_move()
                if mated:
                    continue
            out.append((m, s))
        return out

    def rec(d, stm, kings):
        moves = legal(stm, kings)
        if d == 1:
            return len(moves)
        other = "w" if stm == "b" else "b"
        total = 0
        for m, s in moves:
            k = kings
            if s[1] != "*" and s[0:2] == kings[stm]:
                k = dict(kings)
                k[stm] = s[2:4]
            p.do_move(m)
            total += rec(d - 1, other, k)
            p.undo_move()
        return total

    return rec(depth, side, kings) if depth > 0 else 1


def known_counts():
    """The counts the older files already hold, by SFEN without the move number."""
    known = {}
    for name in ("shogi.perft", "mini.perft", "crowded.perft"):
        sfen = None
        for line in open(os.path.join(HERE, name)):
            if line.startswith("sfen "):
                sfen = " ".join(line.split()[1:4])
            elif line.startswith("perft "):
                _, d, n = line.split()
                known.setdefault(sfen, {})[int(d)] = int(n)
    return known


def main():
    known = known_counts()
    print("# The benchmark suite: positions with known perft counts, timed by crates/shogi-bench")
    print("# (one criterion group each) and run at full depth by `cargo xtask perft`.")
    print("# Generated by testdata/perft/gen_bench.py; see README.md, \"The benchmark suite\".")
    print(f"# Counts: cshogi {version('cshogi')} (Shogi), minishogilib {version('minishogilib')} "
          "with pawn-drop mates removed (Mini Shogi).")
    print("# Format: as shogi.perft.")
    for ident, sfen, depths in SUITE:
        mini = len(sfen.split()[0].split("/")) == 5
        print()
        print(f"id {ident}")
        print(f"sfen {sfen}")
        for d in depths:
            t = time.time()
            n = msl_perft(sfen, d) if mini else cs_perft(sfen, d)
            old = known.get(" ".join(sfen.split()[0:3]), {}).get(d)
            if old is not None and old != n:
                sys.exit(f"{ident} perft {d}: {n}, but the older files say {old}")
            print(f"perft {d} {n}", flush=True)
            print(f"{ident} perft {d} = {n} in {time.time() - t:.1f} s"
                  + (" (as the older files)" if old is not None else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
