#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""
gen_perft.py -- generate the perft oracle files in testdata/perft/.

This script is NOT part of the project build; it is committed only as a
record of how the data files were produced.  The Rust code never runs it.

Package versions used to produce the committed data (all from PyPI,
Python 3.11.7, x86_64 Linux):

    cshogi==1.1.0          Shogi (9x9) oracle (C++ core derived from Apery)
    pyffish==0.0.90        Fairy-Stockfish; Mini Shogi oracle (variant
                           "minishogi") and second opinion for Shogi
                           (variant "shogi")
    minishogilib==0.6.17   second Mini Shogi oracle (Rust core)

Regenerate with:

    pip install cshogi==1.1.0 pyffish==0.0.90 minishogilib==0.6.17
    python3 testdata/perft/gen_perft.py

Output (next to this script):
    shogi.perft, mini.perft   perft counts, blocks "id / sfen / perft d n"
    shogi.moves, mini.moves   "<sfen>\t<sorted USI legal moves>" per position

Everything is deterministic (fixed seed, no dependence on set order or on
timing).  Runtime is about 10 minutes on 2 cores.

How the numbers are cross-checked
---------------------------------
* Shogi:   perft from cshogi (depths 1-3; depth 3 dropped if > 20M leaves).
           Depth-1 move lists must equal Fairy-Stockfish's and those of the
           small reference generator in this file (RefGen); Fairy-Stockfish
           perft must also agree at every depth it can afford (it is slow:
           ~1.5 ms per call because pyffish re-initialises the variant on
           every call).
* Mini:    perft from minishogilib (depths 1-4; depth 4 dropped if > 20M
           leaves) AND from Fairy-Stockfish for every depth whose call count
           fits the time budget (always depths 1-2, usually 3, sometimes 4);
           both must agree.  RefGen must agree at depths 1 and 2.
* Both Mini Shogi oracles (and Fairy-Stockfish's "shogi" variant too) list
  drop-pawn-mates (uchifuzume) as legal moves.  They are filtered out here: a pawn drop after which the opponent is in
  check and has no legal move is removed (see dpm_filter()).  A pawn drop
  that leaves the opponent without a legal move but NOT in check is kept.
* RefGen is an independent, deliberately simple legal move generator
  written from the rules (all optional non-promotions included, drop-pawn-
  mate excluded).  It is used to validate oracle move lists, to detect any
  pruning of optional non-promotions, and to tag positions (checkers, pins,
  drop-pawn-mate drops).  It is never the source of a perft number.
* The generator aborts (non-zero exit) on any disagreement.
"""

import os
import re
import sys
import time
import random
import multiprocessing as mp
from collections import Counter

import cshogi
import pyffish as sf
import minishogilib as msl

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 0x5109  # fixed seed: output is fully deterministic
LEAF_CAP = 20_000_000  # drop the deepest depth if it has more leaves
FF_CALL_BUDGET = {"shogi": 800, "mini": 2000}  # pyffish node visits per position
EXPECTED_VERSIONS = {"cshogi": "1.1.0", "pyffish": "0.0.90", "minishogilib": "0.6.17"}


def die(msg):
    print("FATAL: " + msg, file=sys.stderr)
    sys.exit(1)


# ===========================================================================
# Game geometry / rules
# ===========================================================================

class Game:
    def __init__(self, name, n, zone, max_counts, hand_order, ffv, start):
        self.name = name          # "shogi" / "mini"
        self.n = n                # board is n x n
        self.zone = zone          # depth of the promotion zone in ranks
        self.max_counts = max_counts  # pieces of each kind in the whole set (both sides)
        self.hand_order = hand_order  # SFEN hand order
        self.ffv = ffv            # Fairy-Stockfish variant name
        self.start = start        # standard start SFEN

    def in_zone(self, color, r):
        # row r = 0 is rank a (White's back rank, top of the SFEN)
        return r < self.zone if color == "b" else r >= self.n - self.zone

    def dead(self, kind, color, r):
        """Would an unpromoted piece of this kind have no move at row r?"""
        d = r if color == "b" else self.n - 1 - r  # distance to last rank
        if kind in ("P", "L"):
            return d == 0
        if kind == "N":
            return d <= 1
        return False


SHOGI = Game("shogi", 9, 3, dict(R=2, B=2, G=4, S=4, N=4, L=4, P=18, K=2),
             "RBGSNLP", "shogi",
             "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
MINI = Game("mini", 5, 1, dict(R=2, B=2, G=2, S=2, P=2, K=2),
            "RBGSP", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1")

PROMOTABLE = set("PLNSBR")


def opp(c):
    return "w" if c == "b" else "b"


def pcolor(pc):
    return "b" if pc[-1].isupper() else "w"


def pkind(pc):            # 'P', '+P', 'K', ... (always upper case)
    return pc.upper()


def pbase(pc):            # unpromoted kind, what goes to the hand
    return pc[-1].upper()


def mkpiece(kind, color):
    return kind if color == "b" else kind.lower()


# Move vectors in Black's frame (row -1 = forward, toward rank a).
ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
GOLD = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)]
SILVER = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)]
KNIGHT = [(-2, -1), (-2, 1)]
STEPS = {"P": [(-1, 0)], "L": [], "N": KNIGHT, "S": SILVER, "G": GOLD,
         "B": [], "R": [], "K": ORTH + DIAG,
         "+P": GOLD, "+L": GOLD, "+N": GOLD, "+S": GOLD, "+B": ORTH, "+R": DIAG}
SLIDES = {"L": [(-1, 0)], "B": DIAG, "R": ORTH, "+B": DIAG, "+R": ORTH}


def frame(vecs, color):
    """Black-frame vectors -> board vectors for `color` (White is rotated)."""
    return vecs if color == "b" else [(-a, -b) for (a, b) in vecs]


# ===========================================================================
# Position, SFEN, USI
# ===========================================================================

class Pos:
    __slots__ = ("g", "board", "side", "hands", "num")

    def copy(self):
        q = Pos()
        q.g, q.board, q.side, q.num = self.g, self.board[:], self.side, self.num
        q.hands = {"b": Counter(self.hands["b"]), "w": Counter(self.hands["w"])}
        return q


def parse_sfen(g, sfen):
    parts = sfen.split()
    rows = parts[0].split("/")
    if len(rows) != g.n:
        raise ValueError("bad rank count: " + sfen)
    board = []
    for row in rows:
        cells, i = [], 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                cells += [None] * int(ch)
                i += 1
            elif ch == "+":
                cells.append("+" + row[i + 1])
                i += 2
            else:
                cells.append(ch)
                i += 1
        if len(cells) != g.n:
            raise ValueError("bad rank width: " + sfen)
        board += cells
    p = Pos()
    p.g, p.board, p.side = g, board, parts[1]
    p.hands = {"b": Counter(), "w": Counter()}
    if parts[2] != "-":
        for cnt, ch in re.findall(r"(\d*)([A-Za-z])", parts[2]):
            p.hands[pcolor(ch)][ch.upper()] += int(cnt) if cnt else 1
    p.num = int(parts[3]) if len(parts) > 3 else 1
    return p


def hand_str(g, hands):
    s = ""
    for c in ("b", "w"):
        for k in g.hand_order:
            x = hands[c][k]
            if x:
                s += (str(x) if x > 1 else "") + mkpiece(k, c)
    return s or "-"


def to_sfen(p, with_num=True):
    g, rows = p.g, []
    for r in range(g.n):
        s, e = "", 0
        for c in range(g.n):
            pc = p.board[r * g.n + c]
            if pc is None:
                e += 1
            else:
                if e:
                    s += str(e)
                    e = 0
                s += pc
        if e:
            s += str(e)
        rows.append(s)
    out = "/".join(rows) + " " + p.side + " " + hand_str(g, p.hands)
    return out + (" %d" % p.num if with_num else "")


def sfen_key(sfen):  # position identity, without move number
    return " ".join(sfen.split()[:3])


def usq(g, sq):  # board index -> USI square ("7g"; mini: "5e")
    r, c = divmod(sq, g.n)
    return str(g.n - c) + chr(97 + r)


def sq_of(g, s):
    return (ord(s[1]) - 97) * g.n + (g.n - int(s[0]))


def move_usi(g, mv):
    frm, to, promo, dk = mv
    if dk:
        return dk + "*" + usq(g, to)
    return usq(g, frm) + usq(g, to) + ("+" if promo else "")


def parse_usi(g, s):
    if s[1] == "*":
        return (None, sq_of(g, s[2:4]), False, s[0])
    return (sq_of(g, s[0:2]), sq_of(g, s[2:4]), s.endswith("+"), None)


# ===========================================================================
# RefGen: small independent rules implementation (validation and tagging)
# ===========================================================================

def apply(p, mv):
    frm, to, promo, dk = mv
    q = p.copy()
    s = p.side
    if dk:
        q.hands[s][dk] -= 1
        q.board[to] = mkpiece(dk, s)
    else:
        pc, cap = q.board[frm], q.board[to]
        if cap:
            q.hands[s][pbase(cap)] += 1
        k = pkind(pc)
        if promo:
            k = "+" + k
        q.board[to] = mkpiece(k, s)
        q.board[frm] = None
    q.side = opp(s)
    q.num += 1
    return q


def king_sq(p, color):
    k = mkpiece("K", color)
    for i, pc in enumerate(p.board):
        if pc == k:
            return i
    return None


def attackers(p, sq, by):
    """Squares of pieces of colour `by` attacking `sq` (reverse lookup)."""
    g, n = p.g, p.g.n
    r0, c0 = divmod(sq, n)
    res = []
    for d in ORTH + DIAG:
        r, c, k = r0 + d[0], c0 + d[1], 1
        while 0 <= r < n and 0 <= c < n:
            pc = p.board[r * n + c]
            if pc is not None:
                if pcolor(pc) == by:
                    kind = pkind(pc)
                    u = (-d[0], -d[1])               # direction piece -> sq
                    if by == "w":
                        u = (-u[0], -u[1])            # into the piece's frame
                    if (k == 1 and u in STEPS[kind]) or u in SLIDES.get(kind, ()):
                        res.append(r * n + c)
                break
            r, c, k = r + d[0], c + d[1], k + 1
    for v in frame(KNIGHT, by):                      # knights: sq = X + v
        r, c = r0 - v[0], c0 - v[1]
        if 0 <= r < n and 0 <= c < n and p.board[r * n + c] == mkpiece("N", by):
            res.append(r * n + c)
    return res


def checkers(p, color=None):
    color = color or p.side
    return attackers(p, king_sq(p, color), opp(color))


def in_check(p, color=None):
    return bool(checkers(p, color))


def pinned(p):
    """Pieces of the side to move absolutely pinned to their king."""
    g, n, s = p.g, p.g.n, p.side
    ks = king_sq(p, s)
    r0, c0 = divmod(ks, n)
    res = []
    for d in ORTH + DIAG:
        r, c, first = r0 + d[0], c0 + d[1], None
        while 0 <= r < n and 0 <= c < n:
            pc = p.board[r * n + c]
            if pc is not None:
                if first is None:
                    if pcolor(pc) != s:
                        break
                    first = r * n + c
                else:
                    if pcolor(pc) != s:
                        u = (-d[0], -d[1])
                        if s == "b":          # pinner is White: rotate
                            u = (d[0], d[1])
                        if u in SLIDES.get(pkind(pc), ()):
                            res.append(first)
                    break
            r, c = r + d[0], c + d[1]
    return res


def pseudo_moves(p):
    g, n, s = p.g, p.g.n, p.side
    out = []

    def add(frm, to, kind):
        fr, tr = frm // n, to // n
        if kind in PROMOTABLE and (g.in_zone(s, fr) or g.in_zone(s, tr)):
            out.append((frm, to, True, None))
        if not g.dead(kind, s, tr):
            out.append((frm, to, False, None))

    for sq, pc in enumerate(p.board):
        if pc is None or pcolor(pc) != s:
            continue
        kind = pkind(pc)
        r0, c0 = divmod(sq, n)
        for dr, dc in frame(STEPS[kind], s):
            r, c = r0 + dr, c0 + dc
            if 0 <= r < n and 0 <= c < n:
                t = p.board[r * n + c]
                if t is None or pcolor(t) != s:
                    add(sq, r * n + c, kind)
        for dr, dc in frame(SLIDES.get(kind, []), s):
            r, c = r0 + dr, c0 + dc
            while 0 <= r < n and 0 <= c < n:
                t = p.board[r * n + c]
                if t is not None and pcolor(t) == s:
                    break
                add(sq, r * n + c, kind)
                if t is not None:
                    break
                r, c = r + dr, c + dc
    own_pawn_files = {i % n for i, pc in enumerate(p.board) if pc == mkpiece("P", s)}
    for kind in g.hand_order:
        if p.hands[s][kind] <= 0:
            continue
        for sq in range(n * n):
            if p.board[sq] is not None or g.dead(kind, s, sq // n):
                continue
            if kind == "P" and sq % n in own_pawn_files:
                continue  # nifu
            out.append((None, sq, False, kind))
    return out


def pawn_drop_checks(p, mv):
    """Is mv a pawn drop directly in front of the enemy king?"""
    if mv[3] != "P":
        return False
    ek = king_sq(p, opp(p.side))
    step = -p.g.n if p.side == "b" else p.g.n  # Black pawn attacks row-1
    return mv[1] + step == ek


def has_legal_move(p):
    for mv in pseudo_moves(p):
        if not in_check(apply(p, mv), p.side):
            return True
    return False


def legal_moves(p, dpm_rule=True):
    res = []
    for mv in pseudo_moves(p):
        q = apply(p, mv)
        if in_check(q, p.side):
            continue
        if dpm_rule and pawn_drop_checks(p, mv) and not has_legal_move(q):
            continue  # drop-pawn-mate (uchifuzume) is illegal
        res.append(mv)
    return res


def ref_moves(g, sfen, dpm_rule=True):
    p = parse_sfen(g, sfen)
    return sorted(move_usi(g, m) for m in legal_moves(p, dpm_rule))


def ref_perft2(g, sfen):
    p = parse_sfen(g, sfen)
    ms = legal_moves(p)
    return len(ms), sum(len(legal_moves(apply(p, m))) for m in ms)


def dpm_drops(p):
    """Pawn drops that are illegal ONLY because of drop-pawn-mate.  Only the
    square in front of the enemy king can give check with a pawn drop."""
    g, n, s = p.g, p.g.n, p.side
    if p.hands[s]["P"] <= 0:
        return []
    t = king_sq(p, opp(s)) + (n if s == "b" else -n)
    if not 0 <= t < n * n or p.board[t] is not None or g.dead("P", s, t // n):
        return []
    if any(p.board[r * n + t % n] == mkpiece("P", s) for r in range(n)):
        return []  # nifu
    mv = (None, t, False, "P")
    q = apply(p, mv)
    if in_check(q, s) or has_legal_move(q):
        return []
    return [move_usi(g, mv)]


def nocheck_stalemate_drops(p):
    """Legal pawn drops after which the opponent has no move but is not in check."""
    res = []
    for mv in legal_moves(p):
        if mv[3] == "P":
            q = apply(p, mv)
            if not in_check(q) and not has_legal_move(q):
                res.append(move_usi(p.g, mv))
    return res


def position_problem(p):
    """None if the position is legal by the rules of the brief, else why."""
    g, n = p.g, p.g.n
    if p.side not in ("b", "w"):
        return "side"
    cnt = Counter()
    for c in ("b", "w"):
        if sum(1 for pc in p.board if pc == mkpiece("K", c)) != 1:
            return "king count"
        if p.hands[c]["K"]:
            return "king in hand"
        for k, x in p.hands[c].items():
            if x < 0:
                return "negative hand"
            cnt[k] += x
    for i, pc in enumerate(p.board):
        if pc is None:
            continue
        cnt[pbase(pc)] += 1
        if pc[0] != "+" and g.dead(pbase(pc), pcolor(pc), i // n):
            return "dead piece " + pc
        if pc[0] == "+" and pbase(pc) not in PROMOTABLE:
            return "bad promoted piece"
    for k, x in cnt.items():
        if x > g.max_counts[k]:
            return "too many " + k
    for c in ("b", "w"):
        files = [i % n for i, pc in enumerate(p.board) if pc == mkpiece("P", c)]
        if len(files) != len(set(files)):
            return "nifu"
    if in_check(p, opp(p.side)):
        return "side not to move in check"
    return None


# ===========================================================================
# Oracle: cshogi (Shogi)
# ===========================================================================

class CapExceeded(Exception):
    pass


def cs_moves(sfen):
    b = cshogi.Board(sfen)
    return sorted(cshogi.move_to_usi(m) for m in b.legal_moves)


def cs_perft(sfen, depth, cap=None):
    b = cshogi.Board(sfen)
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


# ===========================================================================
# Drop-pawn-mate filter shared by the pyffish and minishogilib perfts.
# Kings are tracked from the USI move strings; the only pawn drop that can
# give check is the one on the square in front of the enemy king.
# ===========================================================================

def front_sq(g, king, defender):
    """USI square where an enemy pawn would give check to `defender`'s king."""
    r = ord(king[1]) - 97
    r2 = r + 1 if defender == "w" else r - 1
    return king[0] + chr(97 + r2) if 0 <= r2 < g.n else None


def king_squares(g, sfen):
    p = parse_sfen(g, sfen)
    return {c: usq(g, king_sq(p, c)) for c in ("b", "w")}


def moved_kings(kings, stm, u):
    if u[1] != "*" and u[0:2] == kings[stm]:
        k = dict(kings)
        k[stm] = u[2:4]
        return k
    return kings


def dpm_filter(g, raw, stm, kings, no_reply_after):
    """Remove a drop-pawn-mate from the oracle's raw move list.
    no_reply_after(move) -> True if the opponent has no legal move after it.
    Returns (filtered list, number removed)."""
    fs = front_sq(g, kings[opp(stm)], opp(stm))
    if fs is None:
        return raw, 0
    cand = "P*" + fs
    if cand in raw and no_reply_after(cand):
        return [m for m in raw if m != cand], 1
    return raw, 0


# ===========================================================================
# Oracle: Fairy-Stockfish via pyffish (Mini Shogi; second opinion for Shogi)
#
# FSF FEN for shogi variants: same board string as SFEN (first row = rank a,
# first column = file n), hand in brackets "[RPPg]" (each piece repeated,
# upper case = Black/sente), side "w" = Black/sente to move (!), then
# castling/ep placeholders and counters.  Squares: file letter a.. from the
# left (a = file n), rank number from the bottom (1 = rank i / e).
# Moves: "d1c2", promotion "+" suffix, drop "P@c3" (upper case both sides).
# ===========================================================================

def ff_sq(g, s):  # USI square -> FSF square
    return chr(97 + g.n - int(s[0])) + str(g.n - (ord(s[1]) - 97))


def ff_usq(g, s):  # FSF square -> USI square
    return str(g.n - (ord(s[0]) - 97)) + chr(97 + g.n - int(s[1:]))


def usi_to_ff(g, u):
    if u[1] == "*":
        return u[0] + "@" + ff_sq(g, u[2:4])
    return ff_sq(g, u[0:2]) + ff_sq(g, u[2:4]) + ("+" if u.endswith("+") else "")


FF_MOVE = re.compile(r"^([a-z]\d+)([a-z]\d+)([+=]?)$")


def ff_to_usi(g, m):
    if "@" in m:
        pc, s = m.split("@")
        return pc.upper() + "*" + ff_usq(g, s)
    mm = FF_MOVE.match(m)
    if not mm:
        die("unexpected FSF move " + m)
    return ff_usq(g, mm.group(1)) + ff_usq(g, mm.group(2)) + ("+" if mm.group(3) == "+" else "")


def sfen_to_ff(g, sfen):
    p = parse_sfen(g, sfen)
    hand = ""
    for c in ("b", "w"):
        for k in g.hand_order:
            hand += mkpiece(k, c) * p.hands[c][k]
    return "%s[%s] %s - - 0 1" % (sfen.split()[0], hand, "w" if p.side == "b" else "b")


def ff_to_sfen(g, fen, num=1):
    board, rest = fen.split("[", 1)
    hand, rest = rest.split("]", 1)
    side = rest.split()[0]
    hands = {"b": Counter(), "w": Counter()}
    for ch in hand:
        if ch != "-":
            hands[pcolor(ch)][ch.upper()] += 1
    p = parse_sfen(g, "%s %s - %d" % (board, "b" if side == "w" else "w", num))
    p.hands = hands
    return to_sfen(p)


def ff_raw_moves(g, fen, path):
    return [ff_to_usi(g, m) for m in sf.legal_moves(g.ffv, fen, path)]


def ff_moves(g, sfen):
    """Filtered depth-1 list, and the raw number of DPMs the oracle listed."""
    fen = sfen_to_ff(g, sfen)
    raw = ff_raw_moves(g, fen, [])
    stm = sfen.split()[1]
    ms, nd = dpm_filter(g, raw, stm, king_squares(g, sfen),
                        lambda u: not sf.legal_moves(g.ffv, fen, [usi_to_ff(g, u)]))
    return sorted(ms), nd


def ff_profile(g, sfen, depth):
    """[perft(1), ..., perft(depth)] by Fairy-Stockfish, drop-pawn-mates
    filtered; also returns how many DPMs the raw oracle listed."""
    fen = sfen_to_ff(g, sfen)
    counts = [0] * (depth + 1)
    ndpm = [0]

    def rec(path, ply, stm, kings):
        raw = ff_raw_moves(g, fen, path)
        ms, nd = dpm_filter(g, raw, stm, kings,
                            lambda u: not sf.legal_moves(g.ffv, fen, path + [usi_to_ff(g, u)]))
        ndpm[0] += nd
        counts[ply + 1] += len(ms)
        if ply + 1 < depth:
            for u in ms:
                rec(path + [usi_to_ff(g, u)], ply + 1, opp(stm), moved_kings(kings, stm, u))

    rec([], 0, sfen.split()[1], king_squares(g, sfen))
    return counts[1:], ndpm[0]


# ===========================================================================
# Oracle: minishogilib (Mini Shogi)
# ===========================================================================

def msl_pos(sfen):
    p = msl.Position()
    p.set_sfen(sfen)
    return p


def msl_node(g, p, stm, kings, counter=None):
    ms = p.generate_moves()
    strs = [m.sfen() for m in ms]

    def no_reply(u):
        m = ms[strs.index(u)]
        p.do_move(m)
        chk, none = p.is_in_check(), not p.generate_moves()
        p.undo_move()
        if none and not chk:
            die("pawn drop in front of king without check?")
        return none

    filt, nd = dpm_filter(g, strs, stm, kings, no_reply)
    if counter is not None:
        counter[0] += nd
    return [(m, s) for m, s in zip(ms, strs) if s in set(filt)] if nd else list(zip(ms, strs))


def msl_moves(g, sfen):
    cnt = [0]
    ms = msl_node(g, msl_pos(sfen), sfen.split()[1], king_squares(g, sfen), cnt)
    return sorted(s for _, s in ms), cnt[0]


def msl_perft(g, sfen, depth, cap=None):
    p = msl_pos(sfen)
    tot = [0]
    nd = [0]

    def rec(d, stm, kings):
        ms = msl_node(g, p, stm, kings, nd)
        if d == 1:
            tot[0] += len(ms)
            if cap is not None and tot[0] > cap:
                raise CapExceeded
            return
        for m, s in ms:
            p.do_move(m)
            rec(d - 1, opp(stm), moved_kings(kings, stm, s))
            p.undo_move()

    rec(depth, sfen.split()[1], king_squares(g, sfen))
    return tot[0], nd[0]


# ===========================================================================
# Validation of the oracles against known facts (abort on failure)
# ===========================================================================

SHOGI_SPEC = [
    ("startpos", SHOGI.start, [30, 900, 25470, 719731]),
    ("spec-207", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
     [207, 28684, 4809015]),
    ("spec-593", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", [593, 105677]),
    ("spec-dpm", "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1", [160, 12632]),
]
MINI_SPEC = [("startpos", MINI.start, [14, 181, 2512, 35401, 533203])]
MINI_DPM_BUG = "S2k1/b+B3/2S1R/K3g/3gR b 2P 1"
MINI_LINE = ("1e1b 1a1b 5d5c 5a5c 4e5d 5c5d 5e5d 4a5b 2e5b 3a4b 5b4c 4b4c 5d4c "
             "2a3b 4c3b 1b1c 3e2d 1c2d", "5/2K2/5/3k1/5 b RBGSPrbgsp")
SHOGI_LINE = ("7g7f 8b3b 8h3c 3b3c 2h3h 3c3g 3h3g 2b9i+ 3g3a 9i8i 3a2a 8i6g 2a2c 6g7f "
              "2c1c 7f8g 1c4c 1a1g 1i1g 8g9g 4c5c 5a4b 5c6c 9g7i 6c7c 7i5g 7c7a 5g3i "
              "7a8a 3i1g 8a8c 1g2g 4i3h 2g3h 8c9c 3h2i 9c9a 2i4g 9a6a 4g6i 5i6i 4b5b "
              "6a4a 5b4a", "5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p")


def _ff_root_split(args):
    """Worker: FSF perft profile below one root move (depth-5 validation)."""
    gname, sfen, u, depth = args
    g = SHOGI if gname == "shogi" else MINI
    child = ff_to_sfen(g, sf.get_fen(g.ffv, sfen_to_ff(g, sfen), [usi_to_ff(g, u)]))
    return ff_profile(g, child, depth)[0][-1]


def validate(pool):
    t0 = time.time()
    from importlib.metadata import version
    for pkg, v in EXPECTED_VERSIONS.items():
        if version(pkg) != v:
            print("WARNING: %s %s installed, data made with %s" % (pkg, version(pkg), v))

    # -- Shogi: cshogi against the known perft numbers
    for name, sfen, exp in SHOGI_SPEC:
        got = [cs_perft(sfen, d) for d in range(1, len(exp) + 1)]
        if got != exp:
            die("cshogi perft %s: %s != %s" % (name, got, exp))
    # spec-dpm: P*5b must be the (only) drop-pawn-mate
    p = parse_sfen(SHOGI, SHOGI_SPEC[3][1])
    if dpm_drops(p) != ["P*5b"] or "P*5b" in cs_moves(SHOGI_SPEC[3][1]):
        die("spec-dpm drop-pawn-mate check failed")
    # -- Shogi: Fairy-Stockfish (second opinion) on the same positions
    for name, sfen, exp in SHOGI_SPEC:
        got, _ = ff_profile(SHOGI, sfen, 2)
        if got != exp[:2]:
            die("pyffish shogi perft %s: %s != %s" % (name, got, exp[:2]))
        if ref_moves(SHOGI, sfen) != cs_moves(sfen):
            die("RefGen disagrees with cshogi on " + name)

    # -- Mini Shogi: minishogilib and Fairy-Stockfish to depth 5
    name, sfen, exp = MINI_SPEC[0]
    got = [msl_perft(MINI, sfen, d)[0] for d in range(1, 6)]
    if got != exp:
        die("minishogilib perft startpos %s != %s" % (got, exp))
    got4, _ = ff_profile(MINI, sfen, 4)
    roots = ref_moves(MINI, sfen)
    d5 = sum(pool.map(_ff_root_split, [("mini", sfen, u, 4) for u in roots]))
    if got4 + [d5] != exp:
        die("pyffish minishogi perft startpos %s != %s" % (got4 + [d5], exp))
    if list(ref_perft2(MINI, sfen)) != exp[:2]:
        die("RefGen mini perft")

    # -- the known Fairy-Stockfish / minishogilib drop-pawn-mate bug
    fen = sfen_to_ff(MINI, MINI_DPM_BUG)
    if "P*2b" not in ff_raw_moves(MINI, fen, []):
        print("NOTE: pyffish no longer lists P*2b in the DPM bug position")
    if sf.legal_moves(MINI.ffv, fen, [usi_to_ff(MINI, "P*2b")]) != [] or \
            not sf.gives_check(MINI.ffv, fen, [usi_to_ff(MINI, "P*2b")]):
        die("P*2b should be mate in the DPM bug position")
    if "P*2b" in ff_moves(MINI, MINI_DPM_BUG)[0] or "P*2b" in msl_moves(MINI, MINI_DPM_BUG)[0] \
            or "P*2b" in ref_moves(MINI, MINI_DPM_BUG):
        die("DPM filter failed on the bug position")
    if dpm_drops(parse_sfen(MINI, MINI_DPM_BUG)) != ["P*2b"]:
        die("RefGen dpm_drops on the bug position")

    # -- FEN / move conversion round trips and replay of the known lines
    for g, line, final in ((MINI, MINI_LINE[0], MINI_LINE[1]), (SHOGI, SHOGI_LINE[0], SHOGI_LINE[1])):
        for sfen in [g.start, final + " 1", MINI_DPM_BUG] + [s for _, s, _ in SHOGI_SPEC]:
            try:
                gg = g if len(sfen.split()[0].split("/")) == g.n else None
            except Exception:
                gg = None
            if gg is None:
                continue
            fen = sfen_to_ff(g, sfen)
            if sf.validate_fen(fen, g.ffv) != sf.FEN_OK:
                die("FSF rejects converted FEN " + fen)
            if ff_to_sfen(g, fen, parse_sfen(g, sfen).num) != to_sfen(parse_sfen(g, sfen)):
                die("FEN round trip failed: " + sfen)
            # FSF's own FEN output of the same position must convert back too
            back = sf.get_fen(g.ffv, fen, [])
            if sfen_key(ff_to_sfen(g, back)) != sfen_key(to_sfen(parse_sfen(g, sfen))):
                die("FSF get_fen round trip failed: %s -> %s" % (sfen, back))
        if to_sfen(parse_sfen(g, g.start)) != g.start:
            die("SFEN round trip")
        # replay the line in FSF, checking every move is legal there
        fen = sfen_to_ff(g, g.start)
        path = []
        for u in line.split():
            if usi_to_ff(g, u) not in sf.legal_moves(g.ffv, fen, path) or \
                    ff_to_usi(g, usi_to_ff(g, u)) != u:
                die("line move %s not legal in FSF" % u)
            path.append(usi_to_ff(g, u))
        end = ff_to_sfen(g, sf.get_fen(g.ffv, fen, path))
        if sfen_key(end) != final:
            die("FSF replay of the %s line ended in %s" % (g.name, end))
        # ... in RefGen
        p = parse_sfen(g, g.start)
        for u in line.split():
            if u not in [move_usi(g, m) for m in legal_moves(p)]:
                die("line move %s not legal in RefGen" % u)
            p = apply(p, parse_usi(g, u))
        if sfen_key(to_sfen(p)) != final:
            die("RefGen replay ended in " + to_sfen(p))
        # ... and in the primary oracle of the other library
        if g is SHOGI:
            b = cshogi.Board()
            for u in line.split():
                m = b.move_from_usi(u)
                if not b.is_legal(m):
                    die("cshogi: line move illegal " + u)
                b.push(m)
            if sfen_key(b.sfen()) != final:
                die("cshogi replay ended in " + b.sfen())
        else:
            q = msl.Position()
            q.set_start_position()
            for u in line.split():
                ms = {m.sfen(): m for m in q.generate_moves()}
                if u not in ms:
                    die("minishogilib: line move illegal " + u)
                q.do_move(ms[u])
            # (minishogilib writes hands as "1G1g..."; canonicalise first)
            if sfen_key(to_sfen(parse_sfen(g, q.sfen(False)))) != final:
                die("minishogilib replay ended in " + q.sfen(False))
    print("validation OK (%.0fs)" % (time.time() - t0), flush=True)


# ===========================================================================
# Position generation
# ===========================================================================

def choose_move(rng, cats, weights):
    """Pick a move category by weight (among non-empty ones), then a move."""
    names = [c for c in weights if cats.get(c)]
    c = rng.choices(names, [weights[x] for x in names])[0]
    return rng.choice(cats[c])


def play_game(g, rng, length, weights, scan_double=False):
    """Random legal game from the start position.  Returns the list of
    positions (SFEN after each ply) and positions in double check found by
    trying every checking move at each ply (when scan_double)."""
    seq, doubles = [], []
    if g is SHOGI:
        b = cshogi.Board()
        for _ in range(length):
            ms = list(b.legal_moves)
            if not ms:
                break
            cats = {"cap": [], "promo": [], "drop": [], "check": [], "quiet": []}
            checks = set(b.check_moves)
            for m in ms:
                if cshogi.move_cap(m):
                    cats["cap"].append(m)
                if cshogi.move_is_promotion(m):
                    cats["promo"].append(m)
                if cshogi.move_is_drop(m):
                    cats["drop"].append(m)
                if m in checks:
                    cats["check"].append(m)
                if not (cshogi.move_cap(m) or cshogi.move_is_drop(m)):
                    cats["quiet"].append(m)
            if scan_double:
                for m in sorted(checks):
                    b.push(m)
                    s = b.sfen()
                    b.pop()
                    if len(checkers(parse_sfen(g, s))) >= 2:
                        doubles.append(s)
            b.push(choose_move(rng, cats, weights))
            seq.append(b.sfen())
    else:
        p = msl.Position()
        p.set_start_position()
        stm = "b"
        for _ in range(length):
            sfen = p.sfen(False)
            kings = king_squares(g, sfen)
            ms = msl_node(g, p, stm, kings)
            if not ms:
                break
            board = parse_sfen(g, sfen).board
            cats = {"cap": [], "promo": [], "drop": [], "check": [], "quiet": []}
            for m, u in ms:
                p.do_move(m)
                chk = p.is_in_check()
                if chk and scan_double:
                    s = p.sfen(False)
                    if len(checkers(parse_sfen(g, s))) >= 2:
                        doubles.append(s)
                p.undo_move()
                cap = u[1] != "*" and board[sq_of(g, u[2:4])] is not None
                if cap:
                    cats["cap"].append(m)
                if u.endswith("+"):
                    cats["promo"].append(m)
                if u[1] == "*":
                    cats["drop"].append(m)
                if chk:
                    cats["check"].append(m)
                if not cap and u[1] != "*":
                    cats["quiet"].append(m)
            p.do_move(choose_move(rng, cats, weights))
            stm = opp(stm)
            seq.append(to_sfen(parse_sfen(g, p.sfen(False))))
    # normalise (canonical hand order) and give move numbers = ply + 1
    out = []
    for i, s in enumerate(seq):
        q = parse_sfen(g, s)
        q.num = i + 2
        out.append(to_sfen(q))
    return out, [to_sfen(parse_sfen(g, s)) for s in doubles]


def piece_pool(g):
    """All non-king pieces of the set, as unpromoted kinds."""
    return [k for k in g.hand_order for _ in range(g.max_counts[k])]


def place_random(g, rng, side, on_board, hands, fixed=None, tries=50):
    """Build a position: `fixed` = {sq: piece} placed first, then the pieces in
    `on_board` (piece strings) on random empty squares respecting the dead
    piece and nifu rules; `hands` = {'b': Counter, 'w': Counter}.
    Returns a legal Pos or None."""
    n = g.n
    for _ in range(tries):
        board = [None] * (n * n)
        for sq, pc in (fixed or {}).items():
            board[sq] = pc
        ok = True
        for pc in on_board:
            c, kind = pcolor(pc), pkind(pc)
            cands = [sq for sq in range(n * n) if board[sq] is None
                     and not (kind[0] != "+" and g.dead(kind, c, sq // n))]
            if kind == "P":
                files = {i % n for i, x in enumerate(board) if x == pc}
                cands = [sq for sq in cands if sq % n not in files]
            if not cands:
                ok = False
                break
            board[rng.choice(cands)] = pc
        if not ok:
            continue
        p = Pos()
        p.g, p.board, p.side, p.num = g, board, side, 1
        p.hands = {"b": Counter(hands["b"]), "w": Counter(hands["w"])}
        if position_problem(p) is None:
            return p
    return None


def random_material(g, rng, pool, n_board, n_hand, allow_promoted=True):
    """Draw pieces from `pool`; returns (board piece strings, hands)."""
    pool = pool[:]
    rng.shuffle(pool)
    on_board, hands = [], {"b": Counter(), "w": Counter()}
    for k in pool[:n_board]:
        c = rng.choice("bw")
        if allow_promoted and k in PROMOTABLE and rng.random() < 0.3:
            k = "+" + k
        on_board.append(mkpiece(k, c))
    for k in pool[n_board:n_board + n_hand]:
        hands[rng.choice("bw")][k] += 1
    return on_board, hands


def construct_dpm(g, rng):
    """A position where the side to move has a pawn in hand and dropping it in
    front of the enemy king would be mate: enemy king near its back rank,
    boxed in by its own pieces and attacked squares."""
    n = g.n
    A = rng.choice("bw")            # attacker, to move
    D = opp(A)
    back = 0 if D == "w" else n - 1
    kr = back if rng.random() < 0.75 else back + (1 if D == "w" else -1)
    kc = rng.randrange(n)
    ksq = kr * n + kc
    fr = kr + (1 if D == "w" else -1)
    fsq = fr * n + kc               # the pawn-drop square
    fixed = {ksq: mkpiece("K", D)}
    near = [r * n + c for r in range(max(0, kr - 1), min(n, kr + 2))
            for c in range(max(0, kc - 1), min(n, kc + 2)) if r * n + c not in (ksq, fsq)]
    wide = [r * n + c for r in range(max(0, kr - 3), min(n, kr + 4))
            for c in range(max(0, kc - 3), min(n, kc + 4)) if r * n + c not in (ksq, fsq)]
    pool = piece_pool(g)
    pool.remove("P")                # the pawn in A's hand
    rng.shuffle(pool)
    used = Counter()
    for sq in rng.sample(near, min(len(near), rng.randint(1, 4))):
        k = rng.choice([x for x in g.hand_order if x != "P"] + ["P"] * (g is SHOGI))
        if used[k] >= g.max_counts[k] - (k == "P"):
            continue
        if k in PROMOTABLE and rng.random() < 0.3:
            pc = mkpiece("+" + k, D)
        else:
            pc = mkpiece(k, D)
        if pc[0] != "+" and g.dead(k, D, sq // n):
            continue
        fixed[sq] = pc
        used[k] += 1
    for sq in rng.sample(wide, min(len(wide), rng.randint(1, 3))):
        if sq in fixed:
            continue
        k = rng.choice([x for x in g.hand_order if x != "P"])
        if used[k] >= g.max_counts[k]:
            continue
        pc = mkpiece("+" + k, A) if k in PROMOTABLE and rng.random() < 0.3 else mkpiece(k, A)
        if pc[0] != "+" and g.dead(k, A, sq // n):
            continue
        fixed[sq] = pc
        used[k] += 1
    # attacker's king somewhere, plus some spare material
    rest = [k for k in pool]
    for k, x in used.items():
        for _ in range(x):
            if k in rest:
                rest.remove(k)
    rng.shuffle(rest)
    extra = rest[:rng.randint(0, 8 if g is SHOGI else 3)]
    hands = {"b": Counter(), "w": Counter()}
    hands[A]["P"] += 1
    on_board = [mkpiece("K", A)]
    for k in extra:
        if rng.random() < 0.5:
            hands[rng.choice("bw")][k] += 1
        else:
            on_board.append(mkpiece(k, rng.choice("bw")))
    p = place_random(g, rng, A, on_board, hands, fixed, tries=5)
    if p is None or fsq is None or p.board[fsq] is not None:
        return None
    return p if dpm_drops(p) else None


def construct_nocheck_stalemate(g, rng):
    """Try to build a position where a pawn drop leaves the opponent with no
    legal move WITHOUT giving check (such a drop is legal and must be kept).
    The opponent gets a lone king near an edge and an empty hand; the side to
    move gets a pawn in hand and a few pieces around that king."""
    n = g.n
    A = rng.choice("bw")
    D = opp(A)
    kr = rng.choice([0, 0, 1, n - 1, n - 2])
    kc = rng.choice([0, 1, n - 2, n - 1, rng.randrange(n)])
    ksq = kr * n + kc
    near = [r * n + c for r in range(max(0, kr - 2), min(n, kr + 3))
            for c in range(max(0, kc - 2), min(n, kc + 3)) if r * n + c != ksq]
    fixed = {ksq: mkpiece("K", D)}
    kinds = [k for k in g.hand_order if k != "P"]
    for sq in rng.sample(near, rng.randint(2, 4)):
        k = rng.choice(kinds)
        if k in PROMOTABLE and rng.random() < 0.4:
            k = "+" + k
        if k[0] != "+" and g.dead(k, A, sq // n):
            continue
        fixed[sq] = mkpiece(k, A)
    hands = {"b": Counter(), "w": Counter()}
    hands[A]["P"] = 1
    p = place_random(g, rng, A, [mkpiece("K", A)], hands, fixed, tries=3)
    if p is None:
        return None
    # cheap pre-filter: with D to move, D must already have (almost) no move
    q = p.copy()
    q.side = D
    if in_check(q, A) or len(legal_moves(q, dpm_rule=False)) > 2:
        return None
    return p if nocheck_stalemate_drops(p) else None


def gen_positions(g, rng, quotas):
    """Returns a list of (tag, sfen)."""
    t0 = time.time()
    chosen, seen = [], set()

    def add(tag, sfen):
        k = sfen_key(sfen)
        if k in seen or parse_sfen(g, sfen).side not in "bw":
            return False
        if position_problem(parse_sfen(g, sfen)) is not None:
            die("generated illegal position %s (%s)" % (sfen, position_problem(parse_sfen(g, sfen))))
        seen.add(k)
        chosen.append((tag, sfen))
        return True

    for tag, sfen, _ in (SHOGI_SPEC if g is SHOGI else MINI_SPEC):
        add(tag, sfen)

    # --- random games: "mid" positions and pools for check/double/pin/dpm
    W_PLAIN = {"cap": 4, "promo": 2, "drop": 1, "quiet": 2}
    W_CHECK = {"cap": 3, "promo": 2, "drop": 1, "check": 3, "quiet": 2}
    checks, doubles, pins, dpms, mates = [], [], [], [], []
    n_mid = 0
    attempts = 0
    while n_mid < quotas["mid"]:
        attempts += 1
        if attempts > quotas["mid"] * 40:
            die("could not produce enough midgames")
        length = rng.randint(30, 150)
        biased = attempts % 3 == 0
        # every game gets its own random weights, for variety
        w = {k: v * rng.uniform(0.5, 1.5) for k, v in (W_CHECK if biased else W_PLAIN).items()}
        seq, dbl = play_game(g, rng, length, w, scan_double=biased)
        doubles += dbl
        for s in seq[5:]:
            q = parse_sfen(g, s)
            nc = len(checkers(q))
            if nc and not legal_moves(q):
                mates.append(s)           # checkmate: perft 0
            elif nc == 1:
                checks.append(s)
            elif nc >= 2:
                doubles.append(s)
            elif pinned(q):
                pins.append(s)
            if q.hands[q.side]["P"] and dpm_drops(q):
                dpms.append(s)
        if len(seq) >= 30 and length == len(seq):
            if add("mid", seq[-1]):
                n_mid += 1
    # double checks are rare in random play: play extra check-biased games
    # (positions not used as midgames) until there are enough candidates
    extra = 0
    while len(set(doubles)) < 3 * quotas["double-check"] and extra < 3000:
        extra += 1
        w = {k: v * rng.uniform(0.5, 1.5) for k, v in W_CHECK.items()}
        doubles += play_game(g, rng, rng.randint(20, 150), w, scan_double=True)[1]
    attempts += extra
    print("  %s: %d games, pools: check %d double %d pin %d dpm %d mate %d (%.0fs)" % (
        g.name, attempts, len(checks), len(doubles), len(pins), len(dpms), len(mates),
        time.time() - t0),
        flush=True)

    def take(tag, pool, k):
        pool = sorted(set(pool))
        rng.shuffle(pool)
        got = 0
        for s in pool:
            if got >= k:
                break
            if add(tag, s):
                got += 1
        return got

    take("check", checks, quotas["check"])
    take("mate", mates, quotas["mate"])
    nd = take("double-check", doubles, quotas["double-check"])
    take("pin", pins, quotas["pin"])
    ndpm = take("dpm", dpms, quotas["dpm"] // 2)  # half natural, half constructed
    tries = 0
    while ndpm < quotas["dpm"]:
        tries += 1
        if tries > 200000:
            die("could not construct drop-pawn-mate positions")
        p = construct_dpm(g, rng)
        if p is not None and add("dpm", to_sfen(p)):
            ndpm += 1
    print("  %s: %d dpm construction tries" % (g.name, tries), flush=True)
    if nd < quotas["double-check"]:
        die("not enough double checks (%d)" % nd)

    # --- no-check "stalemate" pawn drops (legal!) -- a few if we can find them
    found, tries = 0, 0
    while found < quotas["nocheck-stalemate"] and tries < 30000:
        tries += 1
        p = construct_nocheck_stalemate(g, rng)
        if p is not None and add("nocheck-stalemate", to_sfen(p)):
            found += 1
    print("  %s: %d no-check stalemate drops (%d tries)" % (g.name, found, tries), flush=True)

    # --- full hands, few pieces on board
    k = 0
    while k < quotas["fullhand"]:
        pool = piece_pool(g)
        nb = rng.randint(0, 4 if g is SHOGI else 2)
        on_b, hands = random_material(g, rng, pool, nb, len(pool) - nb)
        p = place_random(g, rng, rng.choice("bw"),
                         [mkpiece("K", "b"), mkpiece("K", "w")] + on_b, hands)
        if p is not None and add("fullhand", to_sfen(p)):
            k += 1
    # --- reduced material: kings and a few pieces, no pawns at all
    k = 0
    while k < quotas["reduced"]:
        pool = [x for x in piece_pool(g) if x != "P"]
        on_b, hands = random_material(g, rng, pool, rng.randint(1, 4), rng.randint(0, 2))
        p = place_random(g, rng, rng.choice("bw"),
                         [mkpiece("K", "b"), mkpiece("K", "w")] + on_b, hands)
        if p is not None and add("reduced", to_sfen(p)):
            k += 1
    print("  %s: %d positions generated (%.0fs)" % (g.name, len(chosen), time.time() - t0),
          flush=True)
    return chosen


# ===========================================================================
# Perft computation (worker) and cross-checks
# ===========================================================================

def budget_depth(counts, budget):
    """Deepest depth whose internal-node count (calls) fits the budget."""
    calls, d = 1, 1
    for i, c in enumerate(counts):
        if i + 1 >= len(counts):
            break
        calls += c
        if calls > budget:
            break
        d = i + 2
    return d


def work(task):
    gname, tag, sfen = task
    g = SHOGI if gname == "shogi" else MINI
    maxd = 3 if g is SHOGI else 4
    if tag == "startpos" and g is MINI:
        maxd = 5
    if tag in ("spec-593", "spec-dpm"):
        maxd = 2
    res = {"tag": tag, "sfen": sfen, "errors": []}
    t0 = time.time()
    # primary perft (cshogi / minishogilib), deepest depth capped at LEAF_CAP
    counts, raw_dpm = [], 0
    for d in range(1, maxd + 1):
        if g is SHOGI:
            fn = lambda d, cap: (cs_perft(sfen, d, cap), 0)
        else:
            fn = lambda d, cap: msl_perft(g, sfen, d, cap)
        # skip obviously huge depths without computing them
        if counts and d == maxd and counts[-1] * counts[-1] / max(1, counts[-2] if len(counts) > 1 else 1) > 8 * LEAF_CAP:
            break
        try:
            c, nd = fn(d, LEAF_CAP)
        except CapExceeded:
            break
        counts.append(c)
        raw_dpm = max(raw_dpm, nd)
    res["counts"] = counts
    # depth-1 move lists from every implementation
    if g is SHOGI:
        prim = cs_moves(sfen)
        msl_nd = 0
    else:
        prim, msl_nd = msl_moves(g, sfen)
    ffm, ff_nd = ff_moves(g, sfen)
    ref = ref_moves(g, sfen)
    res["moves"] = prim
    if not (prim == ffm == ref):
        res["errors"].append("depth-1 lists differ: prim-ff %s ff-prim %s prim-ref %s ref-prim %s" % (
            sorted(set(prim) - set(ffm)), sorted(set(ffm) - set(prim)),
            sorted(set(prim) - set(ref)), sorted(set(ref) - set(prim))))
    if len(prim) != counts[0]:
        res["errors"].append("len(moves) != perft(1)")
    # Fairy-Stockfish perft to the depth its call budget allows
    fd = min(len(counts), budget_depth(counts, FF_CALL_BUDGET[g.name]))
    ffc, ff_nd_tree = ff_profile(g, sfen, fd)
    res["ff_depth"] = fd
    if ffc != counts[:fd]:
        res["errors"].append("pyffish perft %s != %s" % (ffc, counts[:fd]))
    if g is MINI:
        r2 = list(ref_perft2(g, sfen))
        if r2 != counts[:2]:
            res["errors"].append("RefGen perft2 %s != %s" % (r2, counts[:2]))
    # tags / features, from RefGen
    p = parse_sfen(g, sfen)
    res["checkers"] = len(checkers(p))
    res["pinned"] = len(pinned(p))
    res["dpm"] = dpm_drops(p)
    # the DPM-free list must equal "rule-less list minus dpm drops"
    noru = ref_moves(g, sfen, dpm_rule=False)
    if sorted(set(noru) - set(res["dpm"])) != ref:
        res["errors"].append("dpm bookkeeping")
    res["oracle_raw_dpm_root"] = {"ff": ff_nd, "msl": msl_nd}
    res["oracle_raw_dpm_tree"] = ff_nd_tree
    res["nostale"] = nocheck_stalemate_drops(p)
    # optional non-promotions present (shows they are not pruned)
    res["nonpromo_opt"] = sum(1 for u in prim if u[1] != "*" and not u.endswith("+")
                              and (u + "+") in prim)
    res["secs"] = time.time() - t0
    return res


# ===========================================================================
# Output
# ===========================================================================

def write_outputs(g, results, header):
    counters = Counter()
    blocks, moves = [], []
    for r in results:
        tag = r["tag"]
        if tag in ("startpos",) or tag.startswith("spec-"):
            pid = tag
        else:
            counters[tag] += 1
            pid = "%s-%03d" % (tag, counters[tag])
        r["id"] = pid
        lines = ["id " + pid, "sfen " + r["sfen"]]
        lines += ["perft %d %d" % (d + 1, c) for d, c in enumerate(r["counts"])]
        blocks.append("\n".join(lines))
        moves.append(r["sfen"] + "\t" + " ".join(r["moves"]))
    with open(os.path.join(HERE, g.name + ".perft"), "w", encoding="utf-8") as f:
        f.write("\n".join("# " + h for h in header) + "\n\n" + "\n\n".join(blocks) + "\n")
    with open(os.path.join(HERE, g.name + ".moves"), "w", encoding="utf-8") as f:
        f.write("\n".join(moves) + "\n")


QUOTAS = {
    "shogi": {"mid": 120, "check": 30, "mate": 3, "double-check": 12, "pin": 25, "dpm": 20,
              "nocheck-stalemate": 3, "fullhand": 25, "reduced": 30},
    "mini": {"mid": 120, "check": 30, "mate": 3, "double-check": 12, "pin": 25, "dpm": 20,
             "nocheck-stalemate": 3, "fullhand": 25, "reduced": 30},
}


def main():
    t0 = time.time()
    with mp.Pool(2) as pool:
        validate(pool)
        for g in (SHOGI, MINI):
            rng = random.Random("%s-%d" % (g.name, SEED))
            positions = gen_positions(g, rng, QUOTAS[g.name])
            tasks = [(g.name, tag, s) for tag, s in positions]
            results = list(pool.imap(work, tasks, chunksize=1))
            errs = [(r["sfen"], e) for r in results for e in r["errors"]]
            for s, e in errs:
                print("MISMATCH %s: %s" % (s, e))
            if errs:
                die("%d oracle disagreements in %s" % (len(errs), g.name))
            # requirements of the data set
            n_check = sum(1 for r in results if r["checkers"] >= 1)
            n_double = sum(1 for r in results if r["checkers"] >= 2)
            n_dpm = sum(1 for r in results if r["dpm"])
            n_pin = sum(1 for r in results if r["pinned"])
            n_stale = sum(1 for r in results if r["nostale"])
            for r in results:
                if r["tag"] == "double-check" and r["checkers"] < 2:
                    die("mis-tagged double check")
                if r["tag"] == "check" and r["checkers"] != 1:
                    die("mis-tagged check")
                if r["tag"] == "mate" and (r["counts"][0] != 0 or r["checkers"] == 0):
                    die("mis-tagged mate")
                if r["tag"] == "dpm" and not r["dpm"]:
                    die("mis-tagged dpm")
                if r["tag"] == "reduced" and "p" in sfen_key(r["sfen"]).lower().replace("+p", ""):
                    die("pawn in reduced position")
            if n_check < 15 or n_double < 5 or n_dpm < 10 or len(results) < 250:
                die("data set requirements not met")
            ff_depths = Counter(r["ff_depth"] for r in results)
            raw_root = sum(1 for r in results if r["oracle_raw_dpm_root"]["ff"])
            raw_root_msl = sum(1 for r in results if r["oracle_raw_dpm_root"]["msl"])
            raw_tree = sum(r["oracle_raw_dpm_tree"] for r in results)
            maxd = Counter(len(r["counts"]) for r in results)
            header = [
                "Perft oracle data for %s (%dx%d), %d positions." % (
                    "Shogi" if g is SHOGI else "Mini Shogi", g.n, g.n, len(results)),
                "Generated by testdata/perft/gen_perft.py (seed %d); see README.md." % SEED,
                ("Counts: cshogi 1.1.0; cross-checked with Fairy-Stockfish (pyffish 0.0.90)"
                 if g is SHOGI else
                 "Counts: minishogilib 0.6.17 and Fairy-Stockfish (pyffish 0.0.90), "
                 "drop-pawn-mates filtered out of both"),
                "pyffish perft agreed to depth: " + ", ".join(
                    "%d for %d positions" % (d, c) for d, c in sorted(ff_depths.items())),
                "Deepest depth listed: " + ", ".join(
                    "%d for %d positions" % (d, c) for d, c in sorted(maxd.items())) +
                " (a depth above %d leaves is omitted)" % LEAF_CAP,
                "Format: blocks of 'id <tag>-NNN', 'sfen <SFEN>', 'perft <depth> <nodes>'; "
                "blank line between blocks.",
            ]
            write_outputs(g, results, header)
            tags = Counter(r["tag"] for r in results)
            print("== %s: %d positions; tags %s" % (g.name, len(results), dict(tags)))
            print("   in check %d, double check %d, pinned %d, with DPM drop %d, "
                  "no-check stalemate drop %d" % (n_check, n_double, n_pin, n_dpm, n_stale))
            print("   positions with optional non-promotions in list: %d" %
                  sum(1 for r in results if r["nonpromo_opt"]))
            print("   raw oracle DPM listed at root: pyffish %d, minishogilib %d; "
                  "pyffish DPMs filtered inside perft trees: %d" % (raw_root, raw_root_msl, raw_tree))
            print("   pyffish depths %s, max depths %s" % (dict(ff_depths), dict(maxd)))
            print("   slowest position %.1fs; total so far %.0fs" % (
                max(r["secs"] for r in results), time.time() - t0), flush=True)
    print("done in %.0fs" % (time.time() - t0))


if __name__ == "__main__":
    main()
