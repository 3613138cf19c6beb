#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""
gen_crowded.py -- generate crowded.perft and crowded.moves in testdata/perft/.

This script is NOT part of the project build; it is committed only as a
record of how the data files were produced.  The Rust code never runs it.

Package versions used for the committed data (PyPI, Python 3.11.7,
x86_64 Linux):

    cshogi==1.1.0          the Shogi oracle (C++ core derived from Apery);
                           it applies the drop-pawn-mate rule itself

Regenerate with:

    python3 -m venv /tmp/venv-cs && /tmp/venv-cs/bin/pip install cshogi==1.1.0
    /tmp/venv-cs/bin/python testdata/perft/gen_crowded.py

What it makes: LEGAL Shogi positions near the material limit.  Every
position has both kings and the whole set of 40 pieces (board + both hands
= 2 R, 2 B, 4 G, 4 S, 4 N, 4 L, 18 P, 2 K).  Families (the id prefix):

    spec-593       R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1,
                   the known maximum of 593 legal moves
    spec-593-flip  the same position turned 180 degrees with the colours
                   swapped (White to move, also 593)
    hand-NNN       huge hands: kings and 0-4 other pieces on the board, all
                   other material in hand (all in Black's, all in White's,
                   all in the mover's, or split at random); either side to
                   move
    crowd-NNN      crowded boards: 36-40 pieces on the board at random,
                   the rest (0-4 pieces) in hand
    mob-NNN        high mobility: the mover's rooks and bishops (each
                   promoted half of the time; one of each pair may be in
                   hand instead) on a nearly empty board, and 3-5 of the
                   kinds G S N L P in the mover's hand; kept only with
                   >= 300 legal moves
    dpm-NNN        the opponent's king on its back rank with a few of the
                   mover's pieces around it and most material (always the
                   pawns) in the mover's hand; kept only if a pawn drop in
                   front of the king is excluded by the drop-pawn-mate rule
                   alone (cshogi leaves it out; see dpm_drops())

Every third hand and crowd position has the side to move in check (every
sixth in double check); the others are required not to be in check.

Legality (checked by this script's own code, and again with cshogi):
exactly one king per side; the full piece set; no two unpromoted pawns of a
side on one file; no unpromoted pawn/lance on its last rank, no unpromoted
knight on its last two ranks; the side NOT to move is not in check.  Also
rejected: positions with more than two checkers (no move can give a triple
check, so they cannot be reached).  The script's own attack code and
cshogi's is_check() must agree on who is in check, and cshogi's SFEN of the
parsed position must equal ours; otherwise the script stops.

Counts: perft 1 and 2 for every position, and perft 3 and then 4 as long as
the count is at most 5,000,000 leaves (cshogi's push/pop/legal_moves; the last ply is counted as
len(list(board.legal_moves))).  Depth-1 move lists are written in USI
(cshogi.move_to_usi), sorted in ASCII order.

Deterministic: fixed seed, no dependence on set order or timing.  Runtime is
about 30 seconds on 2 cores.
"""

import os
import sys
import time
import random
import statistics
import multiprocessing as mp

import cshogi
from importlib.metadata import version

CSHOGI_VERSION = version("cshogi")

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 0xC40D  # fixed seed: output is fully deterministic
LEAF_CAP = 5_000_000  # perft 3 and 4 only when they have at most this many leaves
MAX_DEPTH = 4
EXPECTED_CSHOGI = "1.1.0"
QUOTAS = {"hand": 40, "crowd": 50, "mob": 30, "dpm": 8}

SPEC_593 = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"

FULL_SET = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
HAND_ORDER = "RBGSNLP"
PROMOTABLE = set("PLNSBR")


class Fatal(Exception):
    pass


def die(msg):
    # an exception, not sys.exit(): it must also travel back from a pool worker
    raise Fatal(msg)


# ---------------------------------------------------------------------------
# Board model: sq = r * 9 + c, r = 0..8 is rank a..i (a = White's side),
# c = 0..8 is file 9..1 (left to right, as SFEN writes it).
# A piece is (kind, colour, promoted), kind in "KRBGSNLP", colour "b"/"w".
# ---------------------------------------------------------------------------

def other(col):
    return "w" if col == "b" else "b"


def dead(kind, col, r):
    """An unpromoted piece of this kind has no move on rank r."""
    last = 0 if col == "b" else 8
    if kind in "PL":
        return r == last
    if kind == "N":
        return r in ((0, 1) if col == "b" else (7, 8))
    return False


def usi_sq(sq):
    r, c = divmod(sq, 9)
    return "%d%s" % (9 - c, "abcdefghi"[r])


def to_sfen(board, hands, side, num=1):
    rows = []
    for r in range(9):
        s, empty = "", 0
        for c in range(9):
            pc = board.get(r * 9 + c)
            if pc is None:
                empty += 1
                continue
            if empty:
                s += str(empty)
                empty = 0
            kind, col, prom = pc
            ch = kind if col == "b" else kind.lower()
            s += ("+" if prom else "") + ch
        if empty:
            s += str(empty)
        rows.append(s)
    h = ""
    for col in ("b", "w"):
        for k in HAND_ORDER:
            n = hands[col].get(k, 0)
            if n:
                ch = k if col == "b" else k.lower()
                h += (str(n) if n > 1 else "") + ch
    return "%s %s %s %d" % ("/".join(rows), side, h or "-", num)


def parse_sfen(sfen):
    bd, side, hd = sfen.split()[:3]
    board = {}
    for r, row in enumerate(bd.split("/")):
        c, prom = 0, False
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            elif ch == "+":
                prom = True
            else:
                board[r * 9 + c] = (ch.upper(), "b" if ch.isupper() else "w", prom)
                c, prom = c + 1, False
    hands = {"b": {}, "w": {}}
    n = ""
    if hd != "-":
        for ch in hd:
            if ch.isdigit():
                n += ch
            else:
                col = "b" if ch.isupper() else "w"
                hands[col][ch.upper()] = hands[col].get(ch.upper(), 0) + int(n or 1)
                n = ""
    return board, hands, side


# Attack rules, written from the game's rules, for the side's own forward
# direction dr = -1 (Black) / +1 (White).
GOLD = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)]
SILVER = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)]
KING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def piece_rays(kind, prom):
    """(steps, slides) as (forward-relative) direction lists."""
    if prom and kind in "PLNS":
        return GOLD, []
    if kind == "P":
        return [(-1, 0)], []
    if kind == "L":
        return [], [(-1, 0)]
    if kind == "N":
        return [(-2, -1), (-2, 1)], []
    if kind == "S":
        return SILVER, []
    if kind == "G":
        return GOLD, []
    if kind == "K":
        return KING, []
    if kind == "B":
        return (ORTH if prom else []), DIAG
    if kind == "R":
        return (DIAG if prom else []), ORTH
    raise ValueError(kind)


def attacks(board, sq):
    """Squares attacked by the piece on sq."""
    kind, col, prom = board[sq]
    r0, c0 = divmod(sq, 9)
    f = 1 if col == "b" else -1  # the rays are written for Black (forward = rank a)
    steps, slides = piece_rays(kind, prom)
    out = []
    for dr, dc in steps:
        r, c = r0 + dr * f, c0 + dc
        if 0 <= r < 9 and 0 <= c < 9:
            out.append(r * 9 + c)
    for dr, dc in slides:
        r, c = r0 + dr * f, c0 + dc
        while 0 <= r < 9 and 0 <= c < 9:
            out.append(r * 9 + c)
            if (r * 9 + c) in board:
                break
            r, c = r + dr * f, c + dc
    return out


def checkers(board, col):
    """Squares of the pieces giving check to the king of colour col."""
    ksq = [s for s, p in board.items() if p[0] == "K" and p[1] == col][0]
    return [s for s, p in board.items() if p[1] != col and ksq in attacks(board, s)]


def problem(board, hands, side):
    """None if the position is legal by the brief's rules, else why."""
    count = {k: 0 for k in FULL_SET}
    kings = {"b": 0, "w": 0}
    for sq, (kind, col, prom) in board.items():
        if kind == "K":
            if prom:
                return "promoted king"
            kings[col] += 1
            continue
        if prom and kind not in PROMOTABLE:
            return "promoted " + kind
        if not prom and dead(kind, col, sq // 9):
            return "dead piece %s at %s" % (kind, usi_sq(sq))
        count[kind] += 1
    if kings != {"b": 1, "w": 1}:
        return "king count %s" % kings
    for col in ("b", "w"):
        for k, n in hands[col].items():
            if k not in FULL_SET or n < 0:
                return "bad hand"
            count[k] += n
    if count != FULL_SET:
        return "not the full set: %s" % count
    for col in ("b", "w"):
        files = [sq % 9 for sq, p in board.items() if p == ("P", col, False)]
        if len(files) != len(set(files)):
            return "two pawns on a file"
    if checkers(board, other(side)):
        return "side not to move in check"
    if len(checkers(board, side)) > 2:
        return "triple check"
    return None


# ---------------------------------------------------------------------------
# Random positions
# ---------------------------------------------------------------------------

def material():
    """The 38 non-king pieces, in a fixed order."""
    return [k for k in HAND_ORDER for _ in range(FULL_SET[k])]


def place(rng, pieces):
    """Put pieces (kind, col, prom) on random legal squares; None if stuck.
    Pawns go first (file constraint), kings last."""
    order = sorted(pieces, key=lambda p: (p[0] != "P", p[0] == "K"))
    board = {}
    for kind, col, prom in order:
        cands = []
        for sq in range(81):
            if sq in board:
                continue
            if not prom and dead(kind, col, sq // 9):
                continue
            if kind == "P" and not prom and any(
                    board.get(r * 9 + sq % 9) == ("P", col, False) for r in range(9)):
                continue
            cands.append(sq)
        if not cands:
            return None
        board[rng.choice(cands)] = (kind, col, prom)
    return board


def limit_pawns(rng, pieces):
    """At most 9 unpromoted pawns per side: promote the extra ones."""
    out = list(pieces)
    for col in ("b", "w"):
        idx = [i for i, p in enumerate(out) if p == ("P", col, False)]
        rng.shuffle(idx)
        for i in idx[9:]:
            out[i] = ("P", col, True)
    return out


def make_hand(rng, kinds, mode, side):
    hands = {"b": {}, "w": {}}
    for k in kinds:
        if mode == "split":
            col = rng.choice("bw")
        elif mode == "mover":
            col = side
        else:
            col = mode
        hands[col][k] = hands[col].get(k, 0) + 1
    return hands


def gen_hand(rng):
    side = rng.choice("bw")
    mat = material()
    rng.shuffle(mat)
    nb = rng.choice([0, 0, 1, 2, 3, 4])
    on_board = [(k, rng.choice("bw"), k in PROMOTABLE and rng.random() < 0.3) for k in mat[:nb]]
    on_board += [("K", "b", False), ("K", "w", False)]
    mode = rng.choice(["b", "w", "mover", "split", "split"])
    return place(rng, on_board), make_hand(rng, mat[nb:], mode, side), side


def gen_crowd(rng):
    side = rng.choice("bw")
    mat = material()
    rng.shuffle(mat)
    nb = rng.randint(36, 40) - 2
    on_board = [(k, rng.choice("bw"), k in PROMOTABLE and rng.random() < 0.15) for k in mat[:nb]]
    on_board = limit_pawns(rng, on_board) + [("K", "b", False), ("K", "w", False)]
    return place(rng, on_board), make_hand(rng, mat[nb:], "split", side), side


def gen_mob(rng):
    side = rng.choice("bw")
    opp = other(side)
    # each of the mover's R and B pairs: both on the board, or one on the
    # board and one in hand
    on_board, hand_rb = [], []
    for k in "RB":
        n = rng.choice([1, 2])
        on_board += [(k, side, rng.random() < 0.5) for _ in range(n)]
        hand_rb += [k] * (2 - n)
    rest = [k for k in material() if k not in "RB"]  # G S N L P
    rng.shuffle(rest)
    # a few other pieces on the board, mostly the opponent's
    nb = rng.randint(0, 4)
    on_board += [(k, opp if rng.random() < 0.7 else side, False) for k in rest[:nb]]
    on_board += [("K", "b", False), ("K", "w", False)]
    hand_kinds = rng.sample("GSNLP", rng.randint(3, 5))
    hands = {"b": {}, "w": {}}
    for k in hand_rb + rest[nb:]:
        col = side if k in hand_kinds or k in "RB" else opp
        hands[col][k] = hands[col].get(k, 0) + 1
    return place(rng, on_board), hands, side


def gen_dpm(rng):
    """The opponent's king on its own back rank, a few of the mover's pieces
    near it, most material in the mover's hand (pawns always): a candidate
    for a drop-pawn-mate (kept only if dpm_drops() finds one)."""
    side = rng.choice("bw")
    opp = other(side)
    back = 0 if side == "b" else 8
    kc = rng.randrange(9)
    near = [r * 9 + c for r in range(9) for c in range(9)
            if abs(r - back) <= 2 and abs(c - kc) <= 2 and (r, c) != (back, kc)]
    mat = [k for k in material() if k != "P"]
    rng.shuffle(mat)
    nb = rng.randint(2, 5)
    board = {back * 9 + kc: ("K", opp, False)}
    for k in mat[:nb]:
        sq = rng.choice(near)
        prom = k in PROMOTABLE and rng.random() < 0.3
        if sq in board or (not prom and dead(k, side, sq // 9)):
            return None, None, side
        board[sq] = (k, side, prom)
    free = [sq for sq in range(81) if sq not in board and abs(sq // 9 - back) > 3]
    board[rng.choice(free)] = ("K", side, False)
    hands = make_hand(rng, mat[nb:] + ["P"] * 18, rng.choice(["mover", "split"]), side)
    if not hands[side].get("P"):
        hands[opp].pop("P", None)
        hands[side]["P"] = 18
    return board, hands, side


def dpm_drops(board, hands, side, legal):
    """Pawn drops that only the drop-pawn-mate rule forbids: the mover is
    not in check, has a pawn, the square in front of the enemy king is empty,
    not the last rank and the file has no unpromoted pawn of the mover, yet
    the drop is not in the legal list."""
    if not hands[side].get("P") or checkers(board, side):
        return []
    ek = [sq for sq, p in board.items() if p == ("K", other(side), False)][0]
    r = ek // 9 + (1 if side == "b" else -1)
    if not 0 <= r < 9:
        return []
    sq = r * 9 + ek % 9
    if sq in board or dead("P", side, r):
        return []
    if any(board.get(rr * 9 + sq % 9) == ("P", side, False) for rr in range(9)):
        return []
    u = "P*" + usi_sq(sq)
    if u in legal:
        return []
    # cshogi left the drop out: it must be a mate (check, and no reply)
    after = dict(board)
    after[sq] = ("P", side, False)
    h = {c: dict(hands[c]) for c in "bw"}
    h[side]["P"] -= 1
    b = cs_board(to_sfen(after, h, other(side)))
    if not b.is_check() or any(True for _ in b.legal_moves):
        die("cshogi leaves out %s, which is not a drop-pawn-mate, in %s" % (
            u, to_sfen(board, hands, side)))
    return [u]


GENERATORS = {"hand": gen_hand, "crowd": gen_crowd, "mob": gen_mob, "dpm": gen_dpm}


# ---------------------------------------------------------------------------
# cshogi
# ---------------------------------------------------------------------------

def cs_board(sfen):
    b = cshogi.Board(sfen)
    if b.sfen().split()[:3] != sfen.split()[:3]:
        die("cshogi reads %s as %s" % (sfen, b.sfen()))
    return b


def cs_moves(sfen):
    return sorted(cshogi.move_to_usi(m) for m in cs_board(sfen).legal_moves)


class CapExceeded(Exception):
    pass


def cs_perft(sfen, depth, cap=None):
    b = cs_board(sfen)
    tot = [0]

    def rec(d):
        ms = list(b.legal_moves)
        if d == 1:
            tot[0] += len(ms)
            if cap is not None and tot[0] > cap:
                raise CapExceeded
            return
        for m in ms:
            b.push(m)
            rec(d - 1)
            b.pop()

    rec(depth)
    return tot[0]


def swapped(sfen):
    f = sfen.split()
    f[1] = other(f[1])
    return " ".join(f)


def legal_or_die(sfen):
    """Our rules plus cshogi's opinion; returns the number of checkers."""
    board, hands, side = parse_sfen(sfen)
    why = problem(board, hands, side)
    if why:
        die("%s: %s" % (sfen, why))
    n_chk = len(checkers(board, side))
    if cs_board(sfen).is_check() != (n_chk > 0):
        die("cshogi and our attack code disagree on check in " + sfen)
    if cs_board(swapped(sfen)).is_check():
        die("cshogi: side not to move in check in " + sfen)
    return n_chk


def flip(sfen):
    """Turn the board 180 degrees and swap the colours."""
    board, hands, side = parse_sfen(sfen)
    nb = {80 - sq: (k, other(c), p) for sq, (k, c, p) in board.items()}
    return to_sfen(nb, {"b": hands["w"], "w": hands["b"]}, other(side))


def work(task):
    pid, sfen = task
    t = time.time()
    counts = [cs_perft(sfen, 1), cs_perft(sfen, 2)]
    try:
        while len(counts) < MAX_DEPTH:
            counts.append(cs_perft(sfen, len(counts) + 1, cap=LEAF_CAP))
    except CapExceeded:
        pass
    moves = cs_moves(sfen)
    board, hands, side = parse_sfen(sfen)
    return {"id": pid, "sfen": sfen, "moves": moves, "counts": counts,
            "checkers": legal_or_die(sfen), "dpm": dpm_drops(board, hands, side, set(moves)),
            "secs": time.time() - t}


def validate():
    known = {
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1": [30, 900, 25470],
        SPEC_593: [593, 105677],
    }
    for sfen, exp in known.items():
        got = [cs_perft(sfen, d) for d in range(1, len(exp) + 1)]
        if got != exp:
            die("cshogi perft %s: %s != %s" % (sfen, got, exp))
    if flip(flip(SPEC_593)) != SPEC_593:
        die("flip is not an involution")


def gen_positions(rng):
    out = [("spec-593", SPEC_593), ("spec-593-flip", flip(SPEC_593))]
    seen = {SPEC_593.rsplit(" ", 1)[0]}
    for fam, quota in QUOTAS.items():
        made = 0
        tries = 0
        while made < quota:
            tries += 1
            if tries > 200000:
                die("could not fill family " + fam)
            # hand/crowd: every third position in check, every sixth in
            # double check; the rest not in check
            want_checkers = 0 if fam in ("mob", "dpm") or made % 3 else (2 if made % 6 == 0 else 1)
            board, hands, side = GENERATORS[fam](rng)
            if board is None or problem(board, hands, side):
                continue
            if len(checkers(board, side)) != want_checkers:
                continue
            sfen = to_sfen(board, hands, side)
            key = sfen.rsplit(" ", 1)[0]
            if key in seen:
                continue
            if fam == "mob" and len(list(cs_board(sfen).legal_moves)) < 300:
                continue
            if fam == "dpm" and not dpm_drops(board, hands, side, set(cs_moves(sfen))):
                continue
            seen.add(key)
            made += 1
            out.append(("%s-%03d" % (fam, made), sfen))
    return out


def main():
    if CSHOGI_VERSION != EXPECTED_CSHOGI:
        print("WARNING: cshogi %s, the data was made with %s" % (CSHOGI_VERSION, EXPECTED_CSHOGI))
    t0 = time.time()
    validate()
    rng = random.Random("crowded-%d" % SEED)
    positions = gen_positions(rng)
    with mp.Pool(2) as pool:
        results = list(pool.imap(work, positions, chunksize=1))
    for r in results:
        if r["counts"][0] != len(r["moves"]) or len(set(r["moves"])) != len(r["moves"]):
            die("move list and perft 1 differ for " + r["sfen"])
        if r["counts"][0] > 593:
            die("more than 593 legal moves in " + r["sfen"])
    if results[0]["counts"][:2] != [593, 105677] or results[1]["counts"][:2] != [593, 105677]:
        die("spec-593 and its flip must have 593 / 105677")

    n1 = [r["counts"][0] for r in results]
    fams = {}
    for r in results:
        fams.setdefault(r["id"].rsplit("-", 1)[0] if r["id"][0] != "s" else "spec", []).append(r)
    n_check = sum(1 for r in results if r["checkers"] >= 1)
    n_double = sum(1 for r in results if r["checkers"] >= 2)
    n_mate = sum(1 for r in results if r["counts"][0] == 0)
    n_dpm = sum(1 for r in results if r["dpm"])
    for r in results:
        if r["id"].startswith("dpm-") and not r["dpm"]:
            die("mis-tagged " + r["id"])
    deep = [sum(1 for r in results if len(r["counts"]) >= d) for d in (3, 4)]
    header = [
        "Crowded boards and full hands: %d Shogi positions, each with both kings and all 40 pieces." % len(results),
        "Generated by testdata/perft/gen_crowded.py (seed %d); see README.md." % SEED,
        "Counts and moves: cshogi %s (push/pop/legal_moves perft)." % CSHOGI_VERSION,
        "Families: " + ", ".join("%s %d" % (f, len(v)) for f, v in fams.items()) +
        "; side to move in check: %d (double check %d), checkmated: %d;"
        " with a pawn drop that only drop-pawn-mate forbids: %d." % (n_check, n_double, n_mate, n_dpm),
        "Legal moves at the root: min %d, median %g, max %d." % (
            min(n1), statistics.median(n1), max(n1)),
        "Perft 3 listed for %d positions and perft 4 for %d (only counts of at most %d leaves)." % (
            deep[0], deep[1], LEAF_CAP),
    ]
    blocks, lines = [], []
    for r in results:
        b = ["id " + r["id"], "sfen " + r["sfen"]]
        b += ["perft %d %d" % (d + 1, c) for d, c in enumerate(r["counts"])]
        blocks.append("\n".join(b))
        lines.append(r["sfen"] + "\t" + " ".join(r["moves"]))
    with open(os.path.join(HERE, "crowded.perft"), "w", encoding="utf-8") as f:
        f.write("\n".join("# " + h for h in header) + "\n"
                "# Format: blocks of 'id <family>-NNN', 'sfen <SFEN>', 'perft <depth> <nodes>'; "
                "blank line between blocks.\n\n" + "\n\n".join(blocks) + "\n")
    with open(os.path.join(HERE, "crowded.moves"), "w", encoding="utf-8") as f:
        f.write("\n".join("# " + h for h in header) + "\n"
                "# Format: '<sfen>\\t<depth-1 legal moves in USI, sorted in ASCII order>'.\n" +
                "\n".join(lines) + "\n")
    for h in header:
        print(h)
    for f, v in fams.items():
        c = [r["counts"][0] for r in v]
        print("  %-6s %3d positions, legal moves %d..%d" % (f, len(v), min(c), max(c)))
    print("slowest position %.1fs; done in %.0fs" % (max(r["secs"] for r in results), time.time() - t0))


if __name__ == "__main__":
    try:
        main()
    except Fatal as e:
        print("ERROR: %s" % e, file=sys.stderr, flush=True)
        sys.exit(1)
