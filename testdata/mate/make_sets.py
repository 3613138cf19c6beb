#!/usr/bin/env python3
"""Generate the Shogi mate-solver test data in this directory with cshogi.

Deterministic: a fixed random seed, fixed node limits and count-based (never
time-based) stopping rules, so the same cshogi version gives the same files
(except the date in the headers).

    pip install cshogi
    python3 testdata/mate/make_sets.py            # writes into testdata/mate/
    python3 testdata/mate/make_sets.py --smoke    # tiny run into /tmp, for testing
    python3 testdata/mate/make_sets.py --depthcheck-only  # redo the depth check only

Outputs (see README.md for the formats):
    shogi_mates.tsv    sfen, plies, cshogi PV
    shogi_mates_depthcheck.tsv  same positions: cshogi at depth plies, plies-2, shortest depth
    shogi_nomates.tsv  sfen, number of legal checking moves
    shogi_threats.tsv  sfen, threat moves, number of quiet moves tested
    public.tsv         four public problems with cshogi's verdict and PV
"""

import argparse
import datetime
import os
import random
import sys
import time
from collections import Counter, defaultdict
from importlib.metadata import version

import cshogi

CSHOGI_VERSION = version("cshogi")

# ---------------------------------------------------------------- parameters
SEED = 20240917
DEPTH = 63                  # max depth (plies) of every cshogi search here
SCAN_NODES = 20_000         # node limit while scanning random-game positions
HARD_NODES = 400_000        # second try for positions the scan left unknown
WALK_NODES = 400_000        # node limit for positions along a PV
VERIFY_NODES = 2_000_000    # node limit for final mate / no-mate verification
THREAT_QUICK_NODES = 3_000  # first, cheap pass over all quiet moves
THREAT_NODES = 20_000       # node limit for a quiet move + pass
THREAT_RETRY_NODES = 400_000
MAX_GAMES = 4000            # hard cap on random games in the scan
MAX_PLIES = 180             # plies per random game
FIRST_PLY = 12              # scan positions from this ply on

# targets for shogi_mates.tsv by PV length
MATE_BUCKETS = [  # (name, lo, hi, target)
    ("1", 1, 1, 160),
    ("3", 3, 3, 160),
    ("5", 5, 5, 110),
    ("7-11", 7, 11, 110),
    ("13-29", 13, 29, 70),
    ("31+", 31, 999, 30),
]
MIN_LONG = 20               # at least this many 31+ mates
NOMATE_WITH_CHECKS = 200    # no-mate positions where a check exists
NOMATE_NO_CHECKS = 70       # no-mate positions without any check
THREAT_TARGET = 130
HARD_PER_GAME = 1000        # how many unknown scan positions per game to retry (all)

PUBLIC = [
    ("public-mate3", "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
     "mate in 3"),
    ("public-mate5", "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
     "mate in 5"),
    ("public-mate7", "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36",
     "mate in 7"),
    ("public-ghi", "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1",
     "graph-history-interaction test problem"),
]


# ---------------------------------------------------------------- helpers
def norm(sfen):
    """SFEN with move number 1."""
    parts = sfen.split()
    return " ".join(parts[:3] + ["1"])


def key(sfen):
    return " ".join(sfen.split()[:3])


def search(sfen, nodes, depth=DEPTH):
    """('mate', nodes, pv) | ('nomate', nodes, None) | ('unknown', nodes, None)."""
    b = cshogi.Board(sfen)
    df = cshogi.DfPn(depth, nodes)
    r = df.search(b)
    n = df.searched_node
    if r:
        return "mate", n, [cshogi.move_to_usi(m) for m in df.get_pv(b)]
    if n < nodes:
        return "nomate", n, None
    return "unknown", n, None


def checking_moves(board):
    out = []
    for m in board.legal_moves:
        board.push(m)
        if board.is_check():
            out.append(m)
        board.pop()
    return out


def verify_pv(sfen, pv):
    """Replay pv: all moves legal, every attacker move checks, ends in mate."""
    if not pv or len(pv) % 2 == 0:
        return False
    b = cshogi.Board(sfen)
    for i, u in enumerate(pv):
        m = b.move_from_usi(u)
        if m == 0 or m not in set(b.legal_moves):
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    if pv[-1].startswith("P*"):
        return False  # drop-pawn mate is illegal (cshogi never generates it)
    return b.is_check() and b.is_game_over() and len(list(b.legal_moves)) == 0


def bucket_of(plies):
    for i, (_, lo, hi, _) in enumerate(MATE_BUCKETS):
        if lo <= plies <= hi:
            return i
    return None


def cheb(a, b):
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


# ---------------------------------------------------------------- playouts
def play_game(rng):
    """A biased random game; yields the SFEN before every move from FIRST_PLY on."""
    p_check = rng.choice([0.0, 0.15, 0.3, 0.5])
    p_cap = rng.choice([0.2, 0.4, 0.6, 0.8])
    p_near = rng.choice([0.0, 0.2, 0.4])
    b = cshogi.Board()
    for ply in range(MAX_PLIES):
        legal = list(b.legal_moves)
        if not legal:
            break
        if ply >= FIRST_PLY:
            yield b.sfen()
        r = rng.random()
        move = None
        if r < p_check:
            cm = checking_moves(b)
            if cm:
                move = rng.choice(cm)
        elif r < p_check + p_near:
            ok = b.king_square(b.turn ^ 1)
            best = min(cheb(cshogi.move_to(m), ok) for m in legal)
            near = [m for m in legal if cheb(cshogi.move_to(m), ok) == best]
            move = rng.choice(near)
        if move is None and rng.random() < p_cap:
            caps = [m for m in legal if not cshogi.move_is_drop(m)
                    and b.piece(cshogi.move_to(m)) != 0]
            if caps:
                move = rng.choice(caps)
        if move is None:
            move = rng.choice(legal)
        b.push(move)
        if b.is_draw() in (cshogi.REPETITION_DRAW, cshogi.REPETITION_WIN,
                           cshogi.REPETITION_LOSE):
            break


# ---------------------------------------------------------------- generation
class Gen:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.mates = {}        # key -> (sfen, pv, source)
        self.nomates = {}      # key -> (sfen, nodes, source)
        self.prime = []        # keys of likely threat positions (see scan)
        self.seen = set()
        self.stats = Counter()
        self.t0 = time.perf_counter()

    def log(self, *a):
        print(f"[{time.perf_counter() - self.t0:7.1f}s]", *a, file=sys.stderr, flush=True)

    def bucket_counts(self):
        c = Counter()
        for s, pv, _ in self.mates.values():
            i = bucket_of(len(pv))
            if i is not None:
                c[i] += 1
        return c

    def mates_full(self):
        c = self.bucket_counts()
        return all(c[i] >= t for i, (_, _, _, t) in enumerate(MATE_BUCKETS))

    def add_mate(self, sfen, pv, source):
        k = key(sfen)
        if k in self.mates:
            return False
        if not verify_pv(norm(sfen), pv):
            self.stats["pv_verify_fail"] += 1
            return False
        self.mates[k] = (norm(sfen), pv, source)
        return True

    def walk_back(self, sfen, pv, source):
        """Positions after 2, 4, ... plies of pv are mates too; search each."""
        b = cshogi.Board(sfen)
        for i in range(0, len(pv) - 1, 2):
            b.push_usi(pv[i])
            b.push_usi(pv[i + 1])
            s = norm(b.sfen())
            k = key(s)
            if k in self.seen:
                continue
            self.seen.add(k)
            st, n, sub = search(s, WALK_NODES)
            self.stats["walk_" + st] += 1
            if st == "mate":
                self.add_mate(s, sub, source)
            else:
                # a PV tail that cshogi can not prove again: a caveat
                self.stats["walk_inconsistent"] += 1
                self.log("walk-back not proved:", st, n, s)

    def scan(self):
        a = self.args
        for g in range(a.max_games):
            hard = []
            line = []
            for sfen in play_game(self.rng):
                s = norm(sfen)
                k = key(s)
                line.append(k)
                if k in self.seen:
                    continue
                self.seen.add(k)
                st, n, pv = search(s, a.scan_nodes)
                self.stats["scan_" + st] += 1
                if st == "mate":
                    if self.add_mate(s, pv, f"game{g}"):
                        self.walk_back(s, pv, f"game{g}")
                elif st == "nomate":
                    self.nomates[k] = (s, n, f"game{g}")
                else:
                    hard.append(s)
            # retry a few of this game's unknowns with more nodes (long mates,
            # hard no-mates)
            for s in hard[:a.hard_per_game]:
                if key(s) in self.mates or key(s) in self.nomates:
                    continue
                st, n, pv = search(s, a.hard_nodes)
                self.stats["hard_" + st] += 1
                if st == "mate":
                    if self.add_mate(s, pv, f"game{g}"):
                        self.walk_back(s, pv, f"game{g}")
                elif st == "nomate":
                    self.nomates[key(s)] = (s, n, f"game{g}")
            # threat candidates: no mate now, but the same side has a mate
            # 2 or 4 plies later in this game
            for i, k in enumerate(line):
                if k in self.nomates and any(
                        j < len(line) and line[j] in self.mates for j in (i + 2, i + 4)):
                    self.prime.append(k)
            if g % 10 == 9:
                c = self.bucket_counts()
                self.log(f"game {g + 1}: mates {[c[i] for i in range(len(MATE_BUCKETS))]} "
                         f"nomates {len(self.nomates)} {dict(self.stats)}")
            c = self.bucket_counts()
            if self.mates_full() and len(self.nomates) >= a.nomate_pool:
                break
        self.games_played = g + 1

    # ------------------------------------------------------------ selection
    def pick(self, items, n):
        """Deterministic pick of n items spread over sources (round robin)."""
        by_src = defaultdict(list)
        for it in items:
            by_src[it[-1]].append(it)
        srcs = sorted(by_src, key=lambda s: (len(s), s))
        self.rng.shuffle(srcs)
        for s in srcs:
            self.rng.shuffle(by_src[s])
        out = []
        while len(out) < n and any(by_src[s] for s in srcs):
            for s in srcs:
                if by_src[s] and len(out) < n:
                    out.append(by_src[s].pop())
        return out

    def select_mates(self):
        per = defaultdict(list)
        for k in sorted(self.mates):
            s, pv, src = self.mates[k]
            i = bucket_of(len(pv))
            if i is not None:
                per[i].append((s, pv, src))
        chosen = []
        for i, (_, _, _, t) in enumerate(MATE_BUCKETS):
            chosen += self.pick(per[i], t)
        # final verification with the large node limit: must prove again, and
        # the PV written is the one of this final search
        final = []
        for s, pv, src in chosen:
            st, n, pv2 = search(s, VERIFY_NODES)
            if st != "mate" or not verify_pv(s, pv2):
                self.stats["final_mate_fail"] += 1
                self.log("final mate check failed:", st, s)
                continue
            if len(pv2) != len(pv):
                self.stats["final_pv_len_changed"] += 1
            final.append((s, pv2))
        final.sort(key=lambda x: (len(x[1]), x[0]))
        self.depthcheck = depthcheck(final, self.stats)
        return final

    def select_nomates(self):
        items = [(s, n, src) for k, (s, n, src) in sorted(self.nomates.items())]
        with_checks, without = [], []
        for s, n, src in items:
            b = cshogi.Board(s)
            c = len(checking_moves(b))
            (with_checks if c else without).append((s, c, n, src))
        # prefer the harder ones: half by node count, half spread over sources
        with_checks.sort(key=lambda x: -x[2])
        hardest = with_checks[:self.args.nomate_checks // 2]
        rest = [x for x in with_checks[self.args.nomate_checks // 2:]]
        chosen = hardest + self.pick(rest, self.args.nomate_checks - len(hardest))
        chosen += self.pick(without, self.args.nomate_nochecks)
        start = norm(cshogi.Board().sfen())
        if key(start) not in {key(x[0]) for x in chosen}:
            chosen.insert(0, (start, 0, 0, "start"))
        final = []
        for s, c, _, src in chosen:
            st, n, _ = search(s, VERIFY_NODES)
            if st != "nomate":
                self.stats["final_nomate_fail_" + st] += 1
                self.log("final no-mate check failed:", st, n, s)
                continue
            final.append((s, c, n))
        final.sort(key=lambda x: (x[1], x[0]))
        return final

    def threats(self, nomates_final):
        """Positions with no mate but a quiet move that threatens mate."""
        used = {key(x[0]) for x in nomates_final}
        prime = set(self.prime)
        pool = [(s, n, src) for k, (s, n, src) in sorted(self.nomates.items())]
        self.rng.shuffle(pool)
        # try likely threat positions first, then positions not already in
        # the no-mate file
        pool.sort(key=lambda x: (key(x[0]) not in prime, key(x[0]) in used))
        self.log(f"threat candidates: {len(prime)} likely, {len(pool)} in all")
        out = []
        tested = 0
        for s, _, src in pool:
            if len(out) >= self.args.threat_target:
                break
            b = cshogi.Board(s)
            if b.is_check():
                continue
            st, n, _ = search(s, VERIFY_NODES)
            if st != "nomate":
                continue
            tested += 1
            quiet = []
            for m in list(b.legal_moves):
                b.push(m)
                if not b.is_check():
                    b.push_pass()
                    quiet.append((m, b.sfen()))
                    b.pop_pass()
                b.pop()
            # stage 1: a cheap search for every quiet move; positions where
            # none proves are skipped (they may still have a threat)
            res = [search(s2, THREAT_QUICK_NODES)[0] for _, s2 in quiet]
            if "mate" not in res:
                self.stats["threat_pos_skipped_quick"] += 1
                continue
            # stage 2: settle the unknown ones with more nodes
            threat, bad = [], False
            for (m, s2), st2 in zip(quiet, res):
                for lim in (THREAT_NODES, THREAT_RETRY_NODES):
                    if st2 == "unknown":
                        st2, _, _ = search(s2, lim)
                if st2 == "unknown":
                    bad = True
                    break
                if st2 == "mate":
                    threat.append(cshogi.move_to_usi(m))
            quiet = len(quiet)
            if bad:
                self.stats["threat_pos_unknown"] += 1
                continue
            if threat:
                out.append((s, sorted(threat), quiet))
            if tested % 20 == 0:
                self.log(f"threats: tested {tested}, found {len(out)}")
        self.stats["threat_positions_tested"] = tested
        out.sort(key=lambda x: (len(x[1]), x[0]))
        return out


def shortest_depth(s, p, below):
    """Binary search (odd depths, assuming monotonicity) for the smallest depth
    at which cshogi proves mate; p = a depth known to prove. Returns an int,
    or a string "a-b" when a node-limit failure leaves a range."""
    if below != "mate":
        return p if below == "nomate" else f"{p - 2 if p > 2 else 1}-{p}"
    lo, hi = -1, p - 2          # lo: known no mate (or -1), hi: known mate
    while hi - lo > 2:
        cands = range(lo + 2, hi, 2)
        mid = cands[len(cands) // 2]
        st = search(s, WALK_NODES, depth=mid)[0]
        if st == "mate":
            hi = mid
        elif st == "nomate":
            lo = mid
        else:
            return f"{max(lo + 2, 1)}-{hi}"
    return hi


def depthcheck(final, stats):
    """Self-consistency at other depths: depth = plies must prove again; a
    proof at depth plies-2 means the PV is not a shortest mate, and then the
    shortest proving depth is searched for."""
    rows = []
    for s, pv in final:
        p = len(pv)
        at_p = search(s, WALK_NODES, depth=p)[0]
        below = search(s, WALK_NODES, depth=p - 2)[0] if p > 1 else "nomate"
        stats[f"depth_eq_plies_{at_p}"] += 1
        stats[f"depth_plies_minus2_{below}"] += 1
        rows.append((s, p, at_p, below, shortest_depth(s, p, below)))
    return rows


def write_depthcheck(path, rows, args):
    with open(path, "w") as f:
        header(f, "cshogi self-consistency for each line of shogi_mates.tsv (same order).", args, [
            "columns: sfen<TAB>plies<TAB>verdict at depth = plies<TAB>verdict at depth = plies-2"
            "<TAB>shortest depth",
            f"verdicts: mate / nomate (disproved, i.e. no mate within that depth) / unknown "
            f"(node limit {WALK_NODES} hit)",
            "depth = plies should say mate; depth = plies-2 saying mate means a shorter mate exists,",
            "so plies (cshogi's PV length) is not the shortest mate for that position.",
            "shortest depth = smallest max depth at which cshogi.DfPn proves mate (binary search over",
            "odd depths, assuming a proof at depth d implies one at d+2), i.e. cshogi's idea of the",
            "mate distance; written a-b when a node-limit failure left a range",
        ])
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


def public_rows():
    rows = []
    for name, sfen, what in PUBLIC:
        res = {}
        for d in (31, DEPTH, 127):
            st, n, pv = search(sfen, VERIFY_NODES, depth=d)
            res[d] = (st, n, pv)
        st, n, pv = res[DEPTH]
        ok = verify_pv(sfen, pv) if st == "mate" else False
        agree = len({r[0] for r in res.values()}) == 1
        note = what
        if st == "mate":
            note += f"; PV verified={ok}"
        if not agree:
            note += "; verdict differs by depth: " + ", ".join(
                f"depth {d}: {r[0]}" for d, r in res.items())
        rows.append((name, sfen, st, len(pv) if pv else 0, " ".join(pv or []), n, note))
    return rows


def header(f, what, args, extra=()):
    f.write(f"# {what}\n")
    f.write(f"# made by: python3 testdata/mate/make_sets.py {' '.join(args.argv)}".rstrip() + "\n")
    f.write(f"# cshogi {CSHOGI_VERSION}, seed {args.seed}, date {datetime.date.today()}\n")
    for e in extra:
        f.write(f"# {e}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--smoke", action="store_true", help="tiny run into /tmp/mate-smoke")
    ap.add_argument("--depthcheck-only", action="store_true",
                    help="only redo shogi_mates_depthcheck.tsv from shogi_mates.tsv")
    args = ap.parse_args()
    args.argv = sys.argv[1:]
    args.max_games = MAX_GAMES
    args.scan_nodes = SCAN_NODES
    args.hard_nodes = HARD_NODES
    args.hard_per_game = HARD_PER_GAME
    args.nomate_checks = NOMATE_WITH_CHECKS
    args.nomate_nochecks = NOMATE_NO_CHECKS
    args.nomate_pool = 3 * (NOMATE_WITH_CHECKS + NOMATE_NO_CHECKS)
    args.threat_target = THREAT_TARGET
    if args.smoke:
        global MATE_BUCKETS, VERIFY_NODES, WALK_NODES
        if args.out == os.path.dirname(os.path.abspath(__file__)):
            args.out = "/tmp/mate-smoke"
        args.max_games = 2
        args.hard_nodes = 20_000
        args.hard_per_game = 1
        args.nomate_checks, args.nomate_nochecks = 5, 3
        args.threat_target = 2
        VERIFY_NODES = WALK_NODES = 50_000
        MATE_BUCKETS = [(n, lo, hi, max(1, t // 40)) for n, lo, hi, t in MATE_BUCKETS]
    os.makedirs(args.out, exist_ok=True)
    if args.depthcheck_only:
        # recompute shogi_mates_depthcheck.tsv from an existing shogi_mates.tsv
        final = []
        with open(os.path.join(args.out, "shogi_mates.tsv")) as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    s, _, pv = line.rstrip("\n").split("\t")
                    final.append((s, pv.split()))
        stats = Counter()
        t0 = time.perf_counter()
        rows = depthcheck(final, stats)
        write_depthcheck(os.path.join(args.out, "shogi_mates_depthcheck.tsv"), rows, args)
        print(f"depthcheck {len(rows)} in {time.perf_counter() - t0:.0f}s {dict(stats)}")
        return

    g = Gen(args)
    g.log(f"cshogi {CSHOGI_VERSION} seed {args.seed}")
    g.scan()
    g.log(f"scan done: {g.games_played} games, {len(g.mates)} mates, {len(g.nomates)} nomates")
    mates = g.select_mates()
    hist = Counter(len(pv) for _, pv in mates)
    g.log("mates selected", len(mates), sorted(hist.items()))
    nomates = g.select_nomates()
    g.log("nomates selected", len(nomates))
    threats = g.threats(nomates)
    g.log("threats", len(threats))
    pub = public_rows()
    elapsed = time.perf_counter() - g.t0

    limits = (f"cshogi.DfPn depth {DEPTH}; node limits: scan {args.scan_nodes}, retry {args.hard_nodes}, "
              f"PV walk-back {WALK_NODES}, final verification {VERIFY_NODES}")
    with open(os.path.join(args.out, "shogi_mates.tsv"), "w") as f:
        header(f, "Shogi positions that cshogi proves mate (side to move = attacker).", args, [
            "columns: sfen<TAB>plies<TAB>cshogi PV (USI, space separated); plies = len(PV)",
            "PV replayed: all moves legal, every attacker move checks, final position is mate",
            limits,
            "length histogram: " + " ".join(f"{k}:{v}" for k, v in sorted(hist.items())),
        ])
        for s, pv in mates:
            f.write(f"{s}\t{len(pv)}\t{' '.join(pv)}\n")
    write_depthcheck(os.path.join(args.out, "shogi_mates_depthcheck.tsv"), g.depthcheck, args)
    with open(os.path.join(args.out, "shogi_nomates.tsv"), "w") as f:
        header(f, "Shogi positions where cshogi disproves mate for the side to move.", args, [
            "columns: sfen<TAB>checks (number of legal checking moves of the side to move)",
            f"cshogi.DfPn(depth {DEPTH}, nodes {VERIFY_NODES}).search() == False with searched_node < limit",
            "(a disproof under a depth limit means: no mate within that many plies)",
        ])
        for s, c, n in nomates:
            f.write(f"{s}\t{c}\n")
    with open(os.path.join(args.out, "shogi_threats.tsv"), "w") as f:
        header(f, "Shogi positions with no mate but a quiet move that threatens mate.", args, [
            "columns: sfen<TAB>threat moves (USI, space separated, sorted)<TAB>number of quiet legal moves tested",
            "side to move is not in check and has no mate (as in shogi_nomates.tsv);",
            "every quiet (non-checking) legal move m was tested: after m and a pass by the defender,",
            f"cshogi.DfPn(depth {DEPTH}) proves mate <=> m is listed (nodes {THREAT_QUICK_NODES}, "
            f"then {THREAT_NODES}, then {THREAT_RETRY_NODES}; positions with any unresolved move were dropped)",
        ])
        for s, t, q in threats:
            f.write(f"{s}\t{' '.join(t)}\t{q}\n")
    with open(os.path.join(args.out, "public.tsv"), "w") as f:
        header(f, "Four public problems with cshogi's verdict.", args, [
            "columns: name<TAB>sfen<TAB>verdict (mate/nomate/unknown at depth "
            f"{DEPTH}, nodes {VERIFY_NODES})<TAB>plies<TAB>PV<TAB>nodes<TAB>note",
            "the note also says whether depths 31 / 63 / 127 agree",
        ])
        for row in pub:
            f.write("\t".join(str(x) for x in row) + "\n")
    g.log(f"done in {elapsed:.0f}s; stats {dict(g.stats)}")
    print(f"elapsed {elapsed:.0f}s games {g.games_played} mates {len(mates)} "
          f"nomates {len(nomates)} threats {len(threats)}")
    print("hist", sorted(hist.items()))
    print("stats", dict(g.stats))


if __name__ == "__main__":
    main()
