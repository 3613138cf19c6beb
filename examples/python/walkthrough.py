"""A walk through shogi_count, one cell at a time (`# %%` cells run in Jupyter, VS Code or
Spyder; `python examples/python/walkthrough.py` runs them all in a few seconds).

    pip install ./crates/shogi-py
"""

# %% Positions and moves: SFEN in, USI out.
import random

import shogi_count as sc

pos = sc.Position.startpos()
print(pos.sfen())
print(len(pos.legal_moves()), "legal moves:", " ".join(pos.legal_moves()[:8]), "...")
pos = pos.play("7g7f").play("3c3d").play("8h2b+")  # Black's bishop takes and promotes
print(pos, "| White in check:", pos.is_check())

# %% Unmoves: every legal predecessor, with the move that leads back. The first item names
# the piece that moved and, after `x`, the piece it captured.
for unmove, before in pos.unmoves()[:5]:
    print(f"{unmove:10} from {before}")

# %% Perft: the leaves of the legal move tree, Mini Shogi from its initial position.
mini = sc.Position.startpos("mini")
print([mini.perft(d) for d in range(5)])  # 1, 14, 181, 2512, 35401

# %% The candidate space P_K (docs/METHOD.md §4): its exact size, and positions by rank.
rng = random.Random(2024)
n = sc.count("mini")
r = rng.randrange(n)
sfen = sc.unrank(r, "mini")
print(f"|P_K| of Mini Shogi = {n}; rank {r} is {sfen}")
assert sc.rank(sfen) == r

# %% Classify a sample of P_K as the estimate does: the first filter it fails, or the
# verdict of the backward search to a position with only the two kings.
for _ in range(5):
    record = sc.classify(sc.unrank(rng.randrange(n), "mini"), max_expanded=100_000)
    print(f"{record['verdict']:18} expanded {record['nodes']:6}  {record['sfen']}")

# %% A certificate of reachability: a legal game from the initial position, replayed here.
game = sc.Position.startpos("mini")
for _ in range(12):
    game = game.play(rng.choice(game.legal_moves()))
cert = sc.reach(game.sfen(), from_start=True)
replay = sc.Position(cert["start"])
for move in cert["moves"]:
    replay = replay.play(move)
print(f"{len(cert['moves'])} moves from the initial position reach {game}: {replay == game}")

# %% A small estimate of the number of reachable Mini Shogi positions, with progress: by
# default the fast method of docs/METHOD.md §10 (samples of the placement-legal space S,
# two-phase sampling); method="paper" is the paper's. The GIL is released while it samples;
# Ctrl-C stops it.
def progress(done: int, total: int) -> None:
    print(f"\r{done:>9,} / {total:,} samples", end="", flush=True)


result = sc.estimate("mini", samples=200_000, seed=7, progress=progress)
st = result["statement"]  # the estimate as its interval states it (docs/METHOD.md §8.6)
print(f"\nreachable share of S {result['p_hat']}: {st['value']} ± {st['half_width']} positions "
      f"(3σ), [{st['lo']}, {st['hi']}]; {st['digits']} significant digit(s) determined: "
      f"{st['determined']} (the paper: 2.38e18)")

# %% A mate problem (df-pn): White to move mates; the line, the proved shortest mate as the
# command line answers it by default (first=True for the fast search), is replayed before it
# is returned.
m = sc.mate("ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42")
print(m["verdict"], m["plies"], "plies:", " ".join(m["moves"]))

# %% The possible pass count: no mate now, but a quiet move threatens one (a threatmate).
t = sc.pass_count("1+P1k2snl/4g2l1/3pppp1b/ppS4p1/8p/2P2P1rL/2N1P1PPP/1B1K2gG1/1PSR2SNL b Gn2p 1",
                  max_passes=1)
print(t["verdict"], "pass count", t["passes"], "threat", t["move"])
