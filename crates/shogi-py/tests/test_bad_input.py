"""Bad input raises ValueError or TypeError with a message, never a panic, and the
interpreter survives everything: a child interpreter feeds mangled SFENs and hostile
arguments to every function and must exit normally."""

import subprocess
import sys
import textwrap

import pytest

import shogi_count as sc

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MINI = "rbsgk/4p/5/P4/KGSBR b - 1"

BAD_SFENS = [
    "",
    "   ",
    "x",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",  # no side to move
    START.replace(" b ", " x "),
    START + " trailing",
    "9/9/9/9/9/9/9/9/9 b - 1",  # no kings
    "k8/9/9/9/9/9/9/9/K7K b - 1",  # two Black kings
    "kr7/9/9/9/9/9/9/9/K8 b 3R - 1",  # three rooks
    "k8/9/9/9/9/9/9/9/K8 b 19P 1",  # nineteen pawns
    "4k/5/5/5/K4 b 300P 1",
    "4k/5/5/5/K4 b P99999999999999999999 1",
    "k8/9/9/9/9/9/9/9/K8 b - 99999999999999999999999",
    "k7/9/9/9/9/9/9/9/K8 b - 1",  # a short rank
    "k9/9/9/9/9/9/9/9/K8 b - 1",  # a long rank
    "k8/9/9/9/9/9/9/K8 b - 1",  # 8 ranks
    "k8/9/9/9/+/9/9/9/K8 b - 1",
    "k8/9/9/9/9/9/9/9/+K8 b - 1",  # a promoted king
    "k8/9/9/9/9/9/9/9/K8 b * 1",
    "k8/9/9/9/9/9/9/9/K8 b K 1",  # a king in hand
    "\x00" * 10,
    "ｌｎｓｇ/9/9 b - 1",
    "k8/9/9/9/9/9/9/9/K8 b -1P 1",
]


@pytest.mark.parametrize("sfen", BAD_SFENS)
def test_bad_sfens_raise_value_error(sfen):
    for f in (sc.Position, sc.rank, sc.classify, sc.reach, sc.mate, sc.pass_count):
        with pytest.raises(ValueError) as e:
            f(sfen)
        assert str(e.value), f"{f.__name__} raised an empty message"


def test_position_errors():
    pos = sc.Position(START)
    with pytest.raises(ValueError, match="ranks"):
        sc.Position(START, game="mini")
    with pytest.raises(ValueError, match="ranks"):
        sc.Position(MINI, game="shogi")
    with pytest.raises(ValueError, match="game"):
        sc.Position(START, game="chess")
    for usi in ["", "7g7g", "7g7e", "P*5e", "9a9b", "1a1a+", "7g7f++", "Z*5e", "0a0b", "７g7f", "5e5d" * 100]:
        with pytest.raises(ValueError):
            pos.play(usi)
    for depth in [-1, 21, 2**64, -(2**64), 10**100]:
        with pytest.raises(ValueError, match="depth"):
            pos.perft(depth)
    for depth in ["3", 3.0, None, [3]]:
        with pytest.raises(TypeError):
            pos.perft(depth)
    # A relaxed position has moves but no perft.
    with pytest.raises(ValueError):
        sc.Position("4k/5/5/5/K3R b BGSPrbgsp 1").perft(1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: sc.Position(5),
        lambda: sc.Position(None),
        lambda: sc.Position(b"4k/5/5/5/K4 b - 1"),
        lambda: sc.rank(1),
        lambda: sc.unrank("1"),
        lambda: sc.unrank(None),
        lambda: sc.count(1),
        lambda: sc.classify(START, max_expanded=b"10"),
        lambda: sc.classify(START, max_nodes=[1]),
        lambda: sc.mate(START, nodes=b"1e6"),
        lambda: sc.pass_count(START, max_passes=2.0),
        lambda: sc.estimate("mini", samples=b"1e6"),
        lambda: sc.estimate("mini", samples=10, progress=5),
        lambda: sc.estimate("mini", samples=10, method=None),
        lambda: sc.estimate("mini"),  # samples is required
        lambda: sc.Position(START).play(7),
    ],
)
def test_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: sc.count("chess"),
        lambda: sc.count(space="everything"),
        lambda: sc.unrank(0, "chess"),
        lambda: sc.unrank(-5, "mini"),
        lambda: sc.unrank(2**70, "mini"),
        lambda: sc.classify(START, max_expanded=-1),
        lambda: sc.classify(START, max_nodes=2**64),
        lambda: sc.reach(START, max_expanded=-(10**30)),
        lambda: sc.mate(START, nodes=-1),
        lambda: sc.mate(START, nodes=2**64),
        # Counts are read as the command line reads them: whole numbers only.
        lambda: sc.mate(START, nodes="many"),
        lambda: sc.mate(START, nodes="1.5"),
        lambda: sc.mate(START, nodes=1e30),
        lambda: sc.classify(START, max_nodes=1.5),
        lambda: sc.estimate("mini", samples="0"),
        lambda: sc.pass_count(START, defense="some"),
        lambda: sc.pass_count(START, max_passes=-1),
        lambda: sc.pass_count(START, max_passes=2**32),
        lambda: sc.estimate("mini", samples=0),
        lambda: sc.estimate("mini", samples=-1),
        lambda: sc.estimate("mini", samples=2**64),
        lambda: sc.estimate("mini", samples=10, seed=-1),
        lambda: sc.estimate("mini", samples=10, seed=2**64),
        lambda: sc.estimate("mini", samples=10, threads=0),
        lambda: sc.estimate("mini", samples=10, threads=-2),
        lambda: sc.estimate("go", samples=10),
        lambda: sc.estimate("mini", samples=10, method="slow"),
        # A legal position with no certificate: a filter rejects it.
        lambda: sc.reach("4k/5/P4/P4/K4 b RBGSrbgs 1"),
        # No mate problem: the defender (not to move) has no king.
        lambda: sc.mate("9/9/9/9/9/9/9/9/K8 b - 1"),
    ],
)
def test_bad_values_raise_value_error(call):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value)


def test_huge_ints_are_reported_briefly():
    with pytest.raises(ValueError) as e:
        sc.Position(START).perft(10**5000)
    assert len(str(e.value)) < 200


CHILD = textwrap.dedent(
    """
    import random, sys
    import shogi_count as sc

    rng = random.Random(int(sys.argv[1]))
    seeds = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "5/k4/2s1+b/K4/5 b RBG2Prgs 63",
    ]
    alphabet = "kgsnlbrpKGSNLBRP+123456789/ *-bw0\\x00é"

    pieces = "gsnlbrpGSNLBRP"

    def mangle(s):
        # Half the time, pieces change sides (still a position, mostly: the search, the
        # solver and the ranking then run on it); else any edit at all.
        s = list(s)
        if rng.random() < 0.5:
            letters = [i for i, c in enumerate(s) if c in pieces]
            for i in rng.sample(letters, 3):
                s[i] = s[i].swapcase()
            return "".join(s)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(s) + 1)
            op = rng.randrange(3)
            if op == 0 and i < len(s):
                del s[i]
            elif op == 1:
                s.insert(i, rng.choice(alphabet))
            elif i < len(s):
                s[i] = rng.choice(alphabet)
        return "".join(s)

    ok = bad = 0
    for _ in range(int(sys.argv[2])):
        sfen = mangle(rng.choice(seeds))
        for f in (
            lambda: sc.Position(sfen).legal_moves(),
            lambda: sc.Position(sfen).unmoves(),
            lambda: sc.Position(sfen).validate(),
            lambda: sc.Position(sfen).perft(2),
            lambda: sc.rank(sfen),
            lambda: sc.classify(sfen, max_expanded=200),
            lambda: sc.reach(sfen, max_expanded=200),
            lambda: sc.mate(sfen, nodes=300),
            lambda: sc.pass_count(sfen, nodes=300, max_passes=1),
        ):
            try:
                f()
                ok += 1
            except ValueError:
                bad += 1
    print(ok, bad)
    """
)


def test_mangled_sfens_never_crash_the_interpreter():
    """Whatever a mangled SFEN does, the child interpreter ends normally: a panic would
    raise PanicException (not a ValueError: the loop would stop), an abort or a stack
    overflow would kill the process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "12", "400"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    ok, bad = map(int, done.stdout.split())
    # Both kinds of input must occur, or the test proves little.
    assert ok > 300 and bad > 1000, (ok, bad)


def test_counts_are_read_as_the_command_line_reads_them():
    # Issue 35, D8: one parser for counts, `1e6` and `5_000_000` included, in every command
    # and here; and a node limit of 0 is none, as USI's NodesLimit 0 and `mate --nodes 0`.
    mate3 = "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1"
    want = sc.mate(mate3, nodes=1_000_000)
    for nodes in ["1e6", "1_000_000", 1e6, "0", 0]:
        assert sc.mate(mate3, nodes=nodes) == want, nodes
    assert sc.classify("rbsgk/4p/5/P4/KGSBR b - 1", max_expanded="1e5")["verdict"] == "reachable"
    assert sc.pass_count("2k2/5/2G2/5/4K b G 1", nodes="1e5")["verdict"] == "proved"
    timeless = lambda run: {k: v for k, v in run.items() if k not in ("elapsed_seconds", "samples_per_second")}
    assert timeless(sc.estimate("mini", samples="2e3", seed=3)) == timeless(sc.estimate("mini", samples=2000, seed=3))
