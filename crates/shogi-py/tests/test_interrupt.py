"""Ctrl-C stops the long calls: `perft` at any depth raises KeyboardInterrupt soon, and
the interpreter goes on (the estimate's own test is in test_estimate.py)."""

import subprocess
import sys
import textwrap

import shogi_count as sc


def run_interrupted(call):
    """Runs `call` (Python source using `sc`) in a child interpreter that sends itself
    SIGINT after a second; returns the words the child printed."""
    child = textwrap.dedent(
        f"""
        import os, signal, threading, time
        import shogi_count as sc
        # A process started in the background by a non-interactive shell inherits SIGINT
        # ignored, and Python then keeps it ignored: restore the usual Ctrl-C handler so
        # that the test does not depend on how the test run was started.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1))
        # The module still works after the interruption.
        print(sc.Position.startpos().perft(3))
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_ctrl_c_stops_a_deep_perft():
    for call in ['sc.Position.startpos().perft(20)', 'sc.Position.startpos("mini").perft(20)']:
        words = run_interrupted(call)
        assert words[:2] == ["interrupted", "after"], (call, words)
        # A bound against hanging, far above the tenth of a second it takes.
        assert float(words[2]) < 30, (call, words)
        assert words[3] == "25470", (call, words)


def test_perft_counts_through_the_interruptible_path():
    # Depths above 2 run on the worker thread, in chunks: the counts are unchanged (README.md
    # and testdata/perft/mini.perft).
    assert [sc.Position.startpos().perft(d) for d in range(3, 6)] == [25470, 719731, 19861490]
    assert sc.Position.startpos("mini").perft(5) == 533203


# Two rooks and two bishops against a king whose side holds every other piece: millions of
# nodes without a verdict (crates/shogi-cli/tests/integration/usi_engine.rs).
HARD = "4k4/9/9/9/9/9/9/9/8K b 2R2B4g4s4n4l18p 1"


def test_ctrl_c_stops_the_mate_searches():
    # Issue 35: `mate` and `pass_count` ignored Ctrl-C until the search ended (10 s in a
    # trial; with no node limit, never).
    for call in [f'sc.mate("{HARD}", nodes=10**12)', f'sc.pass_count("{HARD}", nodes=10**12)']:
        words = run_interrupted(call)
        assert words[:2] == ["interrupted", "after"], (call, words)
        assert float(words[2]) < 30, (call, words)
        assert words[3] == "25470", (call, words)
