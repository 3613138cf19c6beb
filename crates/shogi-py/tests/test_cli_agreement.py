"""The dictionaries of classify, reach, mate, pass_count and estimate against the JSON
lines of the shogi-count binary on the same inputs: the same fields, the same values."""

import json
import random

import pytest

import shogi_count as sc
from conftest import TESTDATA, read_tsv


def json_lines(text):
    return [json.loads(line) for line in text.splitlines()]


def sampled_candidates(rng, game, n):
    """n uniform samples of the candidate space, as the estimate draws them."""
    total = sc.count(game)
    return [sc.unrank(rng.randrange(total), game) for _ in range(n)]


def test_classify_agrees_with_the_cli(cli, mini_positions):
    rng = random.Random(7)
    sfens = sampled_candidates(rng, "mini", 150) + sampled_candidates(rng, "shogi", 40)
    # Positions of real games too: these are mostly reachable, with long certificates.
    sfens += [p.sfen() for p in rng.sample(mini_positions, 60)]
    limit = 20000
    theirs = json_lines(cli("classify", "--json", "--max-expanded", str(limit), stdin="\n".join(sfens)))
    assert len(theirs) == len(sfens)
    verdicts = set()
    for sfen, line in zip(sfens, theirs):
        ours = sc.classify(sfen, max_expanded=limit)
        assert ours == line
        assert list(ours) == list(line), "the fields come in the CLI's order"
        verdicts.add(ours["verdict"])
    # The sample must exercise the filters and the search alike.
    assert {"non-canonical", "illegal-placement", "reachable", "unreachable"} <= verdicts


def test_classify_limits_agree_with_the_cli(cli):
    # The initial position with rooks and bishops swapped: canonical, and a long search.
    sfen = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1"
    for flags, kwargs in [(["--max-expanded", "3"], {"max_expanded": 3}), (["--max-nodes", "50"], {"max_nodes": 50})]:
        (line,) = json_lines(cli("classify", "--json", *flags, sfen))
        assert sc.classify(sfen, **kwargs) == line
        assert line["verdict"] == "unknown"


def test_reach_agrees_with_the_cli(cli, mini_positions):
    for pos in random.Random(8).sample(mini_positions, 10):
        for from_start in (False, True):
            flags = ["--from-start"] if from_start else []
            start, moves = cli("reach", *flags, pos.sfen()).split("\n")[:2]
            ours = sc.reach(pos.sfen(), from_start=from_start)
            assert ours == {"start": start, "moves": moves.split()}
            # The certificate replays to the position.
            at = sc.Position(ours["start"])
            for m in ours["moves"]:
                at = at.play(m)
            assert at == pos


def mate_inputs():
    rows = read_tsv(TESTDATA / "mate" / "shogi_mates.tsv")
    rng = random.Random(9)
    sfens = [r[0] for r in rng.sample(rows, 40)]
    sfens += [r[0] for r in rng.sample(read_tsv(TESTDATA / "mate" / "shogi_nomates.tsv"), 15)]
    return sfens


def test_mate_agrees_with_the_cli(cli):
    sfens = mate_inputs()
    theirs = json_lines(cli("mate", "--json", "--table-mb", "32", "--threads", "1", stdin="\n".join(sfens)))
    verdicts = set()
    for sfen, line in zip(sfens, theirs, strict=True):
        ours = sc.mate(sfen)
        assert ours == line
        assert list(ours) == list(line)
        verdicts.add(ours["verdict"])
    assert {"mate", "no-mate"} <= verdicts
    # The fast first proof, identically, and longer than the proved shortest on some input.
    longer = 0
    for sfen in sfens[:12]:
        (line,) = json_lines(cli("mate", "--json", "--table-mb", "32", "--first", sfen))
        assert sc.mate(sfen, first=True) == line
        assert sc.mate(sfen, shortest=False) == line
        shortest = sc.mate(sfen)
        if line["verdict"] == "mate":
            assert line["shortest"] is None and shortest["shortest"] == shortest["plies"]
            assert line["plies"] >= shortest["plies"]
            longer += line["plies"] > shortest["plies"]
    assert longer > 0
    # Every reply counted, identically: the convention on futile interpositions makes this
    # a mate in 1, and counting the futile drops a longer one.
    futile = "8k/8p/6P2/9/9/9/9/9/B8 b - 1"
    assert sc.mate(futile)["shortest"] == 1
    (line,) = json_lines(cli("mate", "--json", "--table-mb", "32", "--all-interpositions", futile))
    assert sc.mate(futile, all_interpositions=True) == line
    assert sc.mate(futile, futile=False) == line
    assert line["shortest"] > 1
    # The earlier names of the defaults still give them.
    assert sc.mate(futile, shortest=True, futile=True) == sc.mate(futile)
    with pytest.raises(ValueError, match="first=True and shortest=True"):
        sc.mate(futile, first=True, shortest=True)
    # A node limit makes unknowns, identically.
    (line,) = json_lines(cli("mate", "--json", "--table-mb", "32", "--nodes", "5", sfens[-1]))
    assert sc.mate(sfens[-1], nodes=5) == line


def test_pass_count_agrees_with_the_cli(cli):
    sfens = [r[0] for r in read_tsv(TESTDATA / "mate" / "shogi_threats.tsv")[:8]]
    sfens += mate_inputs()[:4]
    for defense, max_passes in [("none", 1), ("takeback", 2)]:
        theirs = json_lines(
            cli(
                "pass-count", "--json", "--table-mb", "32", "--threads", "1",
                "--defense", defense, "--max-passes", str(max_passes), "--nodes", "50000",
                stdin="\n".join(sfens),
            )
        )
        verdicts = set()
        for sfen, line in zip(sfens, theirs, strict=True):
            verdicts.add(line["verdict"])
            assert sc.pass_count(sfen, defense=defense, max_passes=max_passes, nodes=50000) == line
        assert "proved" in verdicts


# Fields of the estimate that depend on the machine, not on the samples.
TIMING = {"elapsed_seconds", "samples_per_second", "threads"}


def test_estimate_agrees_with_the_cli(cli):
    runs = [
        ("mini", 40000, None),
        ("shogi", 20000, None),
        ("mini", 40000, "fast"),
        ("mini", 40000, "paper"),
        ("shogi", 20000, "paper"),
    ]
    for game, samples, method in runs:
        flags = ["--method", method] if method else []
        line = json.loads(
            cli("estimate", "--game", game, "--samples", str(samples), "--seed", "5", *flags, "--json", "--quiet")
        )
        kwargs = {"method": method} if method else {}
        ours = sc.estimate(game, samples=samples, seed=5, threads=1, **kwargs)
        assert {k: v for k, v in ours.items() if k not in TIMING} == {k: v for k, v in line.items() if k not in TIMING}
        assert ours.keys() == line.keys()
        assert ours["threads"] == 1
        space = "candidate" if method == "paper" else "placement-legal"
        assert int(ours["space"]) == sc.count(game, space)


def test_estimate_options_agree_with_the_cli(cli, tmp_path):
    """Every option of the command line, the same counters and report."""
    for extra, kwargs in [
        (["--space", "candidate", "--phase2-rate", "0.5"], {"space": "candidate", "phase2_rate": 0.5}),
        (["--method", "fast", "--phase2-rate", "none"], {"method": "fast", "phase2_rate": "none"}),
        (["--estimator", "indicator"], {"estimator": "indicator"}),
        (["--method", "fast", "--estimator", "conditional"], {"method": "fast", "estimator": "conditional"}),
        (["--target-half-width", "0.02"], {"target_half_width": 0.02}),
        (["--shard", "1/3"], {"shard": "1/3"}),
    ]:
        samples = 10**9 if "target_half_width" in kwargs else 30000
        line = json.loads(
            cli("estimate", "--game", "mini", "--samples", str(samples), "--seed", "4", *extra, "--json", "--quiet")
        )
        ours = sc.estimate("mini", samples=samples, seed=4, threads=1, **kwargs)
        assert {k: v for k, v in ours.items() if k not in TIMING} == {k: v for k, v in line.items() if k not in TIMING}
    # out and resume: a finished run's file, read back, gives the same report.
    out = tmp_path / "run.json"
    first = sc.estimate("mini", samples=20000, seed=2, threads=1, out=str(out))
    again = sc.estimate("mini", samples=20000, seed=2, threads=1, out=str(out), resume=True)
    assert {k: v for k, v in first.items() if k not in TIMING} == {k: v for k, v in again.items() if k not in TIMING}
    line = json.loads(cli("merge", "--json", str(out)))
    assert line["reachable"] == first["reachable"]
    with pytest.raises(ValueError, match="exists"):
        sc.estimate("mini", samples=20000, seed=2, out=str(out))
    with pytest.raises(ValueError, match="seed"):
        sc.estimate("mini", samples=20000, seed=3, out=str(out), resume=True)
    with pytest.raises(ValueError, match="target"):
        sc.estimate("mini", samples=20000, target_digits=3, target_half_width=0.1)
    # The conditional estimator needs two-phase sampling, on both sides.
    with pytest.raises(ValueError, match="two-phase"):
        sc.estimate("mini", samples=20000, phase2_rate="none")
    with pytest.raises(AssertionError, match="two-phase"):
        cli("estimate", "--game", "mini", "--samples", "100", "--phase2-rate", "none")


def test_sample_agrees_with_the_cli(cli):
    for game, method in [("mini", "fast"), ("shogi", "paper"), ("mini", "conditional")]:
        lines = cli("sample", "--game", game, "--samples", "300", "--seed", "6", "--first", "10", "--method", method, "--json")
        ours = sc.sample(game, samples=300, seed=6, first=10, method=method)
        assert ours == json_lines(lines)
        assert [r["index"] for r in ours] == list(range(10, 310))
        if method == "conditional":
            assert all(0 <= r["safe_squares"] <= r["king_squares"] for r in ours)
            assert all(("chosen" in r) == (r["verdict"] != "no-safe-square") for r in ours)
