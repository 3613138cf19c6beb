"""count, rank and unrank: the sizes documented in README.md, round trips over random
ranks of either game, and the edges of the rank range."""

import random

import pytest

import shogi_count as sc

# README.md: `shogi-count count` and `shogi-count count --game mini`.
SHOGI_COUNT = 80880932079767835177773204009328769812438521503800714936366945233084532
MINI_COUNT = 16014219505238849250


def test_counts_are_the_documented_ones():
    assert sc.count() == SHOGI_COUNT
    assert sc.count("shogi", space="candidate") == SHOGI_COUNT
    assert sc.count("mini") == MINI_COUNT
    assert type(sc.count()) is int


def test_counts_agree_with_the_cli(cli):
    for game in ("shogi", "mini"):
        for space in ("candidate", "placement-legal"):
            assert sc.count(game, space) == int(cli("count", "--game", game, "--space", space))
    # The placement-legal positions are a small part of P_K (docs/METHOD.md §10.2: about 3.8%
    # of Shogi's).
    share = sc.count("shogi", "placement-legal") / sc.count("shogi")
    assert 0.03 < share < 0.045


@pytest.mark.parametrize("game", ["shogi", "mini"])
def test_rank_unrank_round_trip(game):
    rng = random.Random(5)
    n = sc.count(game)
    ranks = [0, 1, n - 2, n - 1] + [rng.randrange(n) for _ in range(2000)]
    for r in ranks:
        sfen = sc.unrank(r, game)
        assert sc.rank(sfen) == r
        assert sc.Position(sfen).game == game
        # And from a position back to the same SFEN.
        assert sc.unrank(sc.rank(sc.Position(sfen).sfen()), game) == sfen


def test_ranks_agree_with_the_cli(cli):
    rng = random.Random(6)
    for game in ("shogi", "mini"):
        for _ in range(5):
            r = rng.randrange(sc.count(game))
            sfen = cli("unrank", "--game", game, str(r)).strip()
            assert sc.unrank(r, game) == sfen
            assert int(cli("rank", sfen)) == sc.rank(sfen) == r


def test_documented_rank():
    assert sc.rank("4+p/K4/g1+Rks/1+b+s2/1G+BrP b - 1") == 9191698481829492401
    assert sc.unrank(9191698481829492401, "mini") == "4+p/K4/g1+Rks/1+b+s2/1G+BrP b - 1"


def test_rank_edges():
    with pytest.raises(ValueError, match="rank"):
        sc.unrank(sc.count("mini"), "mini")
    with pytest.raises(ValueError, match="non-negative"):
        sc.unrank(-1)
    with pytest.raises(ValueError):
        sc.unrank(10**1000)
    with pytest.raises(TypeError):
        sc.unrank(1.0)
    with pytest.raises(TypeError):
        sc.unrank("12")
    # A position outside the ranked space: White to move.
    with pytest.raises(ValueError):
        sc.rank("4k/5/5/5/K4 w RBGSPrbgsp 1")
