"""`shogi-count usi` driven the way a Shogi GUI drives it, through cshogi's USI client
(`cshogi.usi.Engine`): options, the committed mate problems (the same ones as the Rust test
crates/shogi-cli/tests/integration/usi_engine.rs) with lines that cshogi replays to
mate, no-mates, an endless search ended by `stop`, and garbage lines the engine must
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


def replays_to_mate(sfen, moves):
    """Plays `moves` with cshogi from `sfen`: every move legal, every attacker move a check,
    and the last position checkmate or, futile interpositions not counted (the engine's
    default, docs/METHOD.md §11.5), a defender mated by that convention. Returns what is
    wrong, or None."""
    board = cshogi.Board(sfen)
    attacker = board.turn
    for i, usi in enumerate(moves):
        move = board.move_from_usi(usi)
        if move == 0 or not board.is_legal(move):
            return f"move {i + 1} ({usi}) is not legal"
        board.push(move)
        if board.turn != attacker and not board.is_check():
            return f"move {i + 1} ({usi}) is no check"
    if not (board.is_check() and mated_with_futile_drops(board, {})):
        return "the line does not end in a mate"
    return None


def mated_with_futile_drops(board, known):
    """Whether the defender to move in `board` (in check) is mated under the convention on
    futile interpositions, written here from its definition with cshogi's moves, apart from
    shogi-mate's code: every legal reply is a drop that the checker can take leaving the
    defender so mated (no reply at all: checkmate). `known` holds the answers by position."""
    key = board.sfen().rsplit(" ", 1)[0]
    if key in known:
        return known[key]
    replies = list(board.legal_moves)
    mated = all(cshogi.move_is_drop(m) for m in replies) and all(
        futile(board, drop, known) for drop in replies
    )
    known[key] = mated
    return mated


def futile(board, drop, known):
    """Whether `drop` is futile: the checker, the first piece beyond the dropped one on the
    line from the king, can take it leaving the defender mated under the convention."""
    king = board.king_square(board.turn)
    to = cshogi.move_to(drop)
    board.push(drop)
    try:
        for take in list(board.legal_moves):
            if cshogi.move_to(take) != to or cshogi.move_is_drop(take):
                continue
            if not beyond(king, to, cshogi.move_from(take)):
                continue
            board.push(take)
            mated = mated_with_futile_drops(board, known)
            board.pop()
            if mated:
                return True
        return False
    finally:
        board.pop()


def beyond(king, square, other):
    """Whether `other` lies on the line from `king` through `square`, past `square`
    (cshogi's squares: file index times 9 plus rank index)."""
    (kf, kr), (sf, sr), (of, orank) = (divmod(q, 9) for q in (king, square, other))
    dx, dy = sf - kf, sr - kr
    if dx and dy and abs(dx) != abs(dy):
        return False
    n = max(abs(dx), abs(dy))
    ex, ey = of - sf, orank - sr
    m = max(abs(ex), abs(ey))
    return m > 0 and (ex, ey) == (dx // n * m, dy // n * m)


def mated(eng, sfen):
    """The engine's answer to `go mate` on `sfen`: a line that replays to mate."""
    eng.position(sfen="sfen " + sfen)
    answer = eng.go_mate()
    moves = answer.split()
    assert moves and moves[0] not in ("nomate", "timeout"), (sfen, answer)
    wrong = replays_to_mate(sfen, moves)
    assert wrong is None, (sfen, answer, wrong)
    return moves


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

    mates = read_tsv(TESTDATA / "mate" / "shogi_mates.tsv")[::20]
    with guard(eng):
        # The default answer, the proved shortest mate under the composers' conventions, on
        # the problems cshogi mates within 21 plies: the one longer (31) costs that proof
        # minutes on a 16 MiB table, and the fast search takes it below.
        shortest = {sfen: mated(eng, sfen) for sfen, plies, _ in mates if int(plies) <= 21}
        # The fast first proof, for batch work, on every problem: never shorter.
        eng.setoption("ShortestMate", "false")
        fast = {sfen: mated(eng, sfen) for sfen, _, _ in mates}
        for sfen, line in shortest.items():
            assert len(fast[sfen]) >= len(line), (sfen, fast[sfen], line)
        assert any(len(fast[sfen]) > len(line) for sfen, line in shortest.items())
        eng.setoption("ShortestMate", "true")

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
