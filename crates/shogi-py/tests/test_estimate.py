"""estimate: progress reports, stopping on an exception or Ctrl-C, the GIL released while
sampling, and the determinism the command line promises."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import shogi_count as sc


def test_progress_reaches_the_total():
    calls = []
    r = sc.estimate("mini", samples=70000, seed=3, threads=2, progress=lambda d, t: calls.append((d, t)))
    assert calls, "progress was never called"
    assert all(t == 70000 for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == 70000
    assert r["samples"] == 70000


def test_threads_do_not_change_the_counters():
    a = sc.estimate("mini", samples=30000, seed=9, threads=1)
    b = sc.estimate("mini", samples=30000, seed=9, threads=2)
    timing = {"elapsed_seconds", "samples_per_second", "threads"}
    assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}
    c = sc.estimate("mini", samples=30000, seed=10, threads=2)
    assert c["reachable"] != a["reachable"] or c["passed_check"] != a["passed_check"]


def test_an_exception_in_progress_stops_the_run():
    class Stop(Exception):
        pass

    seen = []

    def progress(done, total):
        seen.append(done)
        if len(seen) == 2:
            raise Stop("enough")

    start = time.monotonic()
    with pytest.raises(Stop, match="enough"):
        sc.estimate("shogi", samples=10**9, threads=2, progress=progress)
    assert len(seen) == 2
    assert time.monotonic() - start < 60


def test_the_gil_is_released_while_sampling():
    """Another Python thread runs while an estimate samples: with the GIL held, it would
    stall until the end."""
    ticks = 0
    thread = threading.Thread(target=lambda: sc.estimate("mini", samples=400000, threads=1))
    thread.start()
    while thread.is_alive():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    assert ticks > 100


def test_ctrl_c_stops_the_run():
    """SIGINT during a long estimate raises KeyboardInterrupt soon, and the interpreter
    goes on."""
    child = textwrap.dedent(
        """
        import os, signal, threading, time
        import shogi_count as sc
        # A process started in the background by a non-interactive shell inherits SIGINT
        # ignored, and Python then keeps it ignored: restore the usual Ctrl-C handler so
        # that the test does not depend on how the test run was started.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            sc.estimate("shogi", samples=10**12, threads=2)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1))
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[:2] == ["interrupted", "after"], done.stdout
    assert float(words[2]) < 30
