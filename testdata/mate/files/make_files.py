#!/usr/bin/env python3
"""Write mate problems of testdata/mate as KIF and CSA files with cshogi's exporters.

    pip install cshogi          # 1.1.0
    python3 testdata/mate/files/make_files.py

Deterministic (fixed picks, fixed dates). For each picked problem:

- `<name>.kif`: cshogi.KIF.Exporter (Shift_JIS, as cshogi writes `.kif`): the board
  diagram of the problem (`header(..., handicap=Board)`), then for a mate cshogi's PV as
  the moves (`Exporter.move`);
- `<name>.csa`: cshogi.CSA.Exporter: `info(init_board=Board)`, then the PV likewise.

In every other problem (the odd indices) the defender's hand is then rewritten to the
mate-problem convention, `後手の持駒：残り全部` (`先手の持駒` when Black defends) in the
KIF and one `P-00AL` (`P+00AL`) line for the defender's `P-00..` lines in the CSA: these
positions come from games, so every piece is on the board or in a hand, and the rest is
exactly the hand cshogi wrote. cshogi's exporters cannot write the convention themselves.

`index.tsv` lists `file<TAB>sfen<TAB>verdict<TAB>plies`: the SFEN the file was made from,
cshogi's verdict (mate / nomate) from the sets, and the PV length of a mate.
"""

import datetime
import os
import re

import cshogi
import cshogi.CSA
import cshogi.KIF

HERE = os.path.dirname(os.path.abspath(__file__))
MATE = os.path.dirname(HERE)
START = datetime.datetime(2026, 11, 25, 12, 0, 0)


def rows(name):
    with open(os.path.join(MATE, name), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


def picks():
    mates = rows("shogi_mates.tsv")
    nomates = rows("shogi_nomates.tsv")
    out = []
    # Mates of every length bucket: every 40th line (16 problems, 1 to 39 plies).
    for i, (sfen, plies, pv) in enumerate(mates):
        if i % 40 == 0:
            out.append((f"mate{i:03d}", sfen, "mate", int(plies), pv.split()))
    for name, sfen, verdict, plies, pv, *_ in rows("public.tsv"):
        out.append((name, sfen, "mate", int(plies), pv.split()))
    # No-mates: every 30th line (10 problems).
    for i, (sfen, _checks) in enumerate(nomates):
        if i % 30 == 0:
            out.append((f"nomate{i:03d}", sfen, "nomate", 0, []))
    return out


def rest_kif(text, defender):
    key = "後手の持駒：" if defender == cshogi.WHITE else "先手の持駒："
    return re.sub("^" + key + ".*$", key + "残り全部", text, count=1, flags=re.M)


def rest_csa(text, defender):
    sign = "-" if defender == cshogi.WHITE else "+"
    lines = text.split("\n")
    kept = [l for l in lines if not l.startswith("P" + sign + "00")]
    at = next(i for i, l in enumerate(kept) if l in ("+", "-"))
    kept.insert(at, "P" + sign + "00AL")
    return "\n".join(kept)


def main():
    index = []
    for n, (name, sfen, verdict, plies, pv) in enumerate(picks()):
        board = cshogi.Board(sfen)
        defender = cshogi.BLACK if board.turn == cshogi.WHITE else cshogi.WHITE
        kif = os.path.join(HERE, name + ".kif")
        e = cshogi.KIF.Exporter(kif)
        e.header(["attacker", "defender"], starttime=START, handicap=board)
        for usi in pv:
            e.move(board.move_from_usi(usi))
            board.push_usi(usi)
        e.close()
        board = cshogi.Board(sfen)
        csa = os.path.join(HERE, name + ".csa")
        e = cshogi.CSA.Exporter(csa)
        e.info(init_board=board, names=["attacker", "defender"], version="V2.2")
        for usi in pv:
            e.move(board.move_from_usi(usi))
            board.push_usi(usi)
        e.close()
        if n % 2 == 1:
            with open(kif, encoding="cp932") as f:
                text = rest_kif(f.read(), defender)
            with open(kif, "w", encoding="cp932") as f:
                f.write(text)
            with open(csa, encoding="utf-8") as f:
                text = rest_csa(f.read(), defender)
            with open(csa, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        for path in (kif, csa):
            index.append((os.path.basename(path), sfen, verdict, str(plies) if verdict == "mate" else "-"))
    with open(os.path.join(HERE, "index.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# KIF and CSA files made by cshogi {cshogi.__version__ if hasattr(cshogi, '__version__') else '1.1.0'} (make_files.py)\n")
        f.write("# columns: file<TAB>sfen it was made from<TAB>cshogi verdict<TAB>cshogi PV plies\n")
        for row in index:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
