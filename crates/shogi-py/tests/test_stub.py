"""The typing stub and the docstrings: the stub shipped with the module (shogi_count.pyi)
must describe the runtime module exactly, and every public name must say what it does."""

import subprocess
import sys
from pathlib import Path

import pytest

import shogi_count as sc

ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def test_everything_public_has_a_docstring():
    names = [n for n in sc.__all__ if n != "__version__"]
    assert set(names) == {"Position", "count", "rank", "unrank", "classify", "reach", "estimate", "sample", "mate", "pass_count"}
    for name in names:
        assert len(getattr(sc, name).__doc__ or "") > 40, name
    for name in ["startpos", "sfen", "legal_moves", "play", "perft", "unmoves", "is_check", "validate", "game"]:
        assert len(getattr(sc.Position, name).__doc__ or "") > 20, name


def test_the_stub_matches_the_module(tmp_path):
    """mypy's stubtest compares the installed stub with the runtime: every name, every
    signature, every default."""
    pytest.importorskip("mypy.stubtest", reason="stubtest needs mypy (.ci/run installs it)")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "shogi_count", "--allowlist", str(ALLOWLIST)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,  # for mypy's cache
    )
    assert done.returncode == 0, done.stdout + done.stderr
