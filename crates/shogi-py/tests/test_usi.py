"""`shogi-count usi` driven the way a Shogi GUI drives it, through cshogi's USI client
(`cshogi.usi.Engine`): options, the committed mate problems (the same ones as the Rust test
crates/shogi-cli/tests/integration/usi_engine.rs) with lines that cshogi replays to
checkmate, no-mates, an endless search ended by `stop`, and garbage lines the engine must
survive. cshogi's Engine starts its command without arguments, so the binary runs under
its engine name, `shogi-count-usi` (a link in a temporary folder)."""

import contextlib
import os
import shutil
import threading

import cshogi
import pytest
from cshogi.usi import Engine

from conftest import TESTDATA, cli_path, read_tsv

# Two rooks and two bishops against a king whose side holds every other piece: millions of
# nodes without a verdict, so a search of it ends only by `stop` or its time limit.
HARD = "4k4/9/9/9/9/9/9/9/8K b 2R2B4g4s4n4l18p 1"

# cshogi's client reads until the answer it waits for and never gives up (at the end of
# the engine's output it reads empty lines forever): each exchange gets this long before
# the engine is killed and the test fails. Far above the seconds a healthy engine needs.
HANG_GUARD = 120.0


def problems(name, every):
    """Every `every`-th SFEN of a testdata/mate set, as the Rust test picks them."""
    return [row[0] for row in read_tsv(TESTDATA / "mate" / name)][::every]


@pytest.fixture
def engine(tmp_path):
    """cshogi's Engine on a `shogi-count-usi` link to $SHOGI_COUNT, quit (or killed) at the
    end."""
    binary = cli_path()
    if binary is None:
        pytest.skip("no shogi-count binary: build it or set SHOGI_COUNT")
    name = tmp_path / "shogi-count-usi"
    try:
        os.symlink(binary.resolve(), name)
    except OSError:
        shutil.copy2(binary, name)
    eng = Engine(str(name), connect=False)
    with guard(eng):
        eng.connect()
    yield eng
    if eng.proc is not None and eng.proc.poll() is None:
        with guard(eng):
            eng.quit()


@contextlib.contextmanager
def guard(eng, seconds=HANG_GUARD):
    """Fails instead of hanging when the block is still waiting for the engine after
    `seconds`: the engine is killed and its output closed, which ends cshogi's read loop."""
    fired = threading.Event()

    def kill():
        fired.set()
        if eng.proc is not None:
            eng.proc.kill()
            eng.proc.stdout.close()

    timer = threading.Timer(seconds, kill)
    timer.start()
    try:
        yield
    except Exception:
        if fired.is_set():
            pytest.fail(f"the engine did not answer within {seconds} s")
        raise
    finally:
        timer.cancel()


def send_raw(eng, data):
    """A line as bytes, for what cshogi's methods would never send."""
    eng.proc.stdin.write(data + b"\n")
    eng.proc.stdin.flush()


def replays_to_checkmate(sfen, moves):
    """Plays `moves` with cshogi from `sfen`: every move legal, every attacker move a check,
    and the last position checkmate. Returns what is wrong, or None."""
    board = cshogi.Board(sfen)
    attacker = board.turn
    for i, usi in enumerate(moves):
        move = board.move_from_usi(usi)
        if move == 0 or not board.is_legal(move):
            return f"move {i + 1} ({usi}) is not legal"
        board.push(move)
        if board.turn != attacker and not board.is_check():
            return f"move {i + 1} ({usi}) is no check"
    if not (board.is_check() and board.is_game_over()):
        return "the line does not end in checkmate"
    return None


def test_a_gui_dialogue_through_cshogi(engine):
    eng = engine
    assert eng.name.startswith("shogi-count ")
    with guard(eng):
        hello = eng.usi()
    for option in ["USI_Hash", "Threads", "NodesLimit", "DepthLimit", "DefenderHand"]:
        assert any(line.startswith(f"option name {option} type ") for line in hello), hello

    # The options a GUI sends from its engine settings, and the ones every GUI sends.
    for name, value in [
        ("USI_Hash", 16),
        ("Threads", 1),
        ("NodesLimit", 0),
        ("DepthLimit", 255),
        ("DefenderHand", "sfen"),
        ("USI_Ponder", "false"),
    ]:
        eng.setoption(name, value)
    said = []
    with guard(eng):
        eng.isready(listener=said.append)
    # Every option was understood: no complaint before `readyok`.
    assert not [line for line in said if line.startswith("info string")], said
    eng.usinewgame()

    with guard(eng):
        for sfen in problems("shogi_mates.tsv", 20):
            eng.position(sfen="sfen " + sfen)
            answer = eng.go_mate()
            moves = answer.split()
            assert moves and moves[0] not in ("nomate", "timeout"), (sfen, answer)
            wrong = replays_to_checkmate(sfen, moves)
            assert wrong is None, (sfen, answer, wrong)

        for sfen in problems("shogi_nomates.tsv", 30):
            eng.position(sfen="sfen " + sfen)
            assert eng.go_mate(byoyomi=600000) == "nomate", sfen

        # A game's position as a GUI sends it: moves from the start, no mate for Black.
        eng.position(moves=["7g7f", "3c3d", "8h2b+"])
        assert eng.go_mate(byoyomi=1000) == "nomate"


def test_stop_ends_an_endless_search(engine):
    eng = engine
    seen = []
    eng.position(sfen="sfen " + HARD)
    # The GUI's stop button, pressed once the search reports its progress.
    reported = threading.Event()

    def listen(line):
        seen.append(line)
        if line.startswith("info ") and " nodes " in line:
            reported.set()

    def press_stop():
        if reported.wait(HANG_GUARD / 2):
            eng.stop()

    stopper = threading.Thread(target=press_stop)
    stopper.start()
    with guard(eng):
        answer = eng.go_mate(listener=listen)
    stopper.join()
    assert answer == "timeout", seen
    assert seen[-1] == "checkmate timeout", seen
    # One answer: the engine answers the next command, and nothing of the search follows.
    said = []
    with guard(eng):
        eng.isready(listener=said.append)
    # (cshogi's listener hears the command too.)
    assert said == ["isready", "readyok"], said

    # A time limit ends it too.
    with guard(eng):
        assert eng.go_mate(byoyomi=300) == "timeout"


def test_the_engine_survives_garbage(engine):
    eng = engine
    garbage = [
        b"bogus command",
        b"position sfen not/a/position b - 1",
        b"position startpos moves 7g7f 7g7f",
        b"position sideways",
        b"setoption name USI_Hash value lots",
        b"setoption",
        b"go mate soon",
        b"\xff\xfe\x00 binary",
        b"x" * (3 << 20),
    ]
    said = []
    with guard(eng):
        for line in garbage:
            send_raw(eng, line)
        eng.isready(listener=said.append)
    notes = [line for line in said if line.startswith("info string")]
    assert len(notes) >= 8, said
    assert all(len(line) < 400 for line in said), "long input is quoted short"
    # `go mate soon` searched the last position read, which the illegal move left unset.
    assert "checkmate timeout" in said, said

    # Still alive and solving.
    with guard(eng):
        eng.position(sfen="sfen 4k4/9/4P4/9/9/9/9/9/8K b G 1")
        assert eng.go_mate(byoyomi=5000) == "G*5b"
        # `go` without mate: a mate engine has no move to play.
        eng.position()
        assert eng.go(btime=1000, wtime=1000, byoyomi=1000) == ("resign", None)
