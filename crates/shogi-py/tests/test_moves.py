"""Moves, checks and unmoves: against cshogi on random Shogi games, against the independent
libraries of testdata/perft for Mini Shogi, and against each other."""

import random

import cshogi
import pytest

import shogi_count as sc
from conftest import TESTDATA, read_tsv


def cshogi_games(seed, games, max_plies):
    """The SFENs of random legal games played by cshogi from the initial position, with
    cshogi's legal moves and check flag at each: (sfen, sorted USI moves, in check)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = cshogi.Board()
        for _ in range(rng.randrange(1, max_plies + 1)):
            moves = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
            out.append((board.sfen(), moves, board.is_check()))
            if not moves:
                break
            board.push_usi(rng.choice(moves))
    return out


def test_legal_moves_agree_with_cshogi_on_random_games():
    positions = cshogi_games(seed=1, games=40, max_plies=250)
    assert len(positions) > 3000
    with_drops = 0
    for sfen, theirs, check in positions:
        pos = sc.Position(sfen)
        ours = pos.legal_moves()
        assert sorted(ours) == theirs, sfen
        assert len(set(ours)) == len(ours), f"a move listed twice in {sfen}"
        assert pos.is_check() == check, sfen
        with_drops += any("*" in m for m in ours)
    # The games must reach positions with pieces in hand, or drops go untested.
    assert with_drops > len(positions) // 4


def test_play_agrees_with_cshogi():
    rng = random.Random(2)
    board = cshogi.Board()
    pos = sc.Position.startpos()
    for ply in range(3000):
        moves = [cshogi.move_to_usi(m) for m in board.legal_moves]
        if not moves or board.is_draw() == cshogi.REPETITION_DRAW:
            board, pos = cshogi.Board(), sc.Position.startpos()
            continue
        usi = rng.choice(moves)
        board.push_usi(usi)
        pos = pos.play(usi)
        assert pos == sc.Position(board.sfen()), (ply, usi)
        assert pos.sfen().split()[:3] == board.sfen().split()[:3]


@pytest.mark.parametrize("name", ["shogi.moves", "crowded.moves", "mini.moves"])
def test_legal_moves_agree_with_the_perft_oracles(name):
    rows = read_tsv(TESTDATA / "perft" / name)
    assert len(rows) > 100
    for sfen, moves in rows:
        assert sorted(sc.Position(sfen).legal_moves()) == sorted(moves.split()), sfen


def perft_blocks(path):
    """(id, sfen, {depth: nodes}) of a testdata/perft/*.perft file."""
    blocks = []
    for block in path.read_text().split("\n\n"):
        fields = [line.split(" ", 1) for line in block.splitlines() if not line.startswith("#")]
        if not fields:
            continue
        d = dict((k, v) for k, v in fields if k != "perft")
        counts = {int(v.split()[0]): int(v.split()[1]) for k, v in fields if k == "perft"}
        blocks.append((d["id"], d["sfen"], counts))
    return blocks


def test_mini_perft_agrees_with_the_oracle():
    blocks = perft_blocks(TESTDATA / "perft" / "mini.perft")
    assert len(blocks) == 269
    checked = 0
    for name, sfen, counts in blocks:
        pos = sc.Position(sfen, game="mini")
        for depth, nodes in counts.items():
            if nodes <= 300_000:
                assert pos.perft(depth) == nodes, (name, depth)
                checked += 1
    assert checked > 500


def test_shogi_startpos_perft():
    assert [sc.Position.startpos().perft(d) for d in range(5)] == [1, 30, 900, 25470, 719731]
    assert sc.Position.startpos("mini").perft(5) == 533203


def test_unmoves_lead_back(mini_positions):
    """Every predecessor plays its move back to the position, and every position of a
    game finds the position before it among its predecessors."""
    rng = random.Random(3)
    for pos in rng.sample(mini_positions, 300):
        for text, sfen in pos.unmoves():
            assert sc.Position(sfen).play(usi_of(text)) == pos, (pos, text)
    for game in ("mini", "shogi"):
        before = sc.Position.startpos(game)
        for _ in range(200):
            moves = before.legal_moves()
            if not moves:
                before = sc.Position.startpos(game)
                continue
            after = before.play(rng.choice(moves))
            assert before in {sc.Position(s) for _, s in after.unmoves()}
            before = after


def test_unmoves_agree_with_the_cli(cli, mini_positions):
    for pos in random.Random(4).sample(mini_positions, 20):
        out = cli("unmoves", "--moves", pos.sfen())
        theirs = sorted(tuple(line.split("\t")) for line in out.splitlines())
        ours = sorted((sfen, usi_of(text)) for text, sfen in pos.unmoves())
        assert ours == theirs


def usi_of(unmove_text):
    """The forward USI move of an unmove in text form (`+B9i8ixP` -> `9i8i`)."""
    if "*" in unmove_text:
        return unmove_text
    return unmove_text.lstrip("+").lstrip("PLNSGBRK").split("x")[0]


def test_validate_names_the_broken_rules():
    assert sc.Position.startpos().validate() == []
    two_pawns = sc.Position("4k/5/P4/P4/K4 b RBGSrbgs 1")
    assert two_pawns.validate() == ["two_pawns"]
    dead = sc.Position("P3k/5/5/5/K4 b RBGSrbgsp 1")
    assert dead.validate() == ["dead_piece"]
    # White's king is attacked by Black's rook with Black to move.
    in_check = sc.Position("4k/5/5/5/K3R b BGSPrbgsp 1")
    assert in_check.validate() == ["opponent_in_check"]
    with pytest.raises(ValueError, match="legal"):
        in_check.perft(1)


def test_position_protocols():
    import copy
    import pickle

    pos = sc.Position.startpos("mini").play("1e1d")
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert copy.deepcopy(pos) == pos
    assert hash(sc.Position(pos.sfen())) == hash(pos)
    assert pos != sc.Position.startpos("mini")
    assert repr(pos) == f"Position({pos.sfen()!r})"
    assert str(pos) == pos.sfen()
    assert pos.game == "mini" and sc.Position.startpos().game == "shogi"
