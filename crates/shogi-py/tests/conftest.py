"""Shared fixtures of the shogi_count tests: the repository's test data, the shogi-count
binary to compare with, and random positions from random games."""

import os
import random
import subprocess
from pathlib import Path

import pytest

import shogi_count as sc

REPO = Path(__file__).resolve().parents[3]
TESTDATA = REPO / "testdata"


def cli_path():
    """The shogi-count binary: $SHOGI_COUNT (which must exist: .ci/run sets it to the one
    `cargo test` built), else one built in target/ already, else None."""
    given = os.environ.get("SHOGI_COUNT")
    if given:
        path = Path(given)
        if not path.is_file():
            raise FileNotFoundError(f"SHOGI_COUNT={given} is no file")
        return path
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "shogi-count"
        if path.is_file():
            return path
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs shogi-count with arguments and standard input; returns its standard output.
    Skips the test when no binary is there (outside .ci/run, which always has one)."""
    path = cli_path()
    if path is None:
        pytest.skip("no shogi-count binary: build it or set SHOGI_COUNT")

    def run(*args, stdin=""):
        done = subprocess.run(
            [str(path), *args], input=stdin, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"shogi-count {args}: {done.stderr}"
        return done.stdout

    return run


def random_game_positions(game, rng, games, max_plies):
    """The positions of `games` random legal games of `game`, played with our module:
    each game stops at checkmate or after a random number of plies up to `max_plies`."""
    out = []
    for _ in range(games):
        pos = sc.Position.startpos(game)
        for _ in range(rng.randrange(1, max_plies + 1)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
            out.append(pos)
    return out


@pytest.fixture(scope="session")
def mini_positions():
    """About 2,000 Mini Shogi positions from random games (seeded)."""
    return random_game_positions("mini", random.Random(11), 60, 70)


def read_tsv(path):
    """The rows of a tab-separated test data file, comments left out."""
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
