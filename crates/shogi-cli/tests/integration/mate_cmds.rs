//! `shogi-count mate | pass-count` end to end: the text and JSON contracts, standard
//! input, invalid lines, thread-count independence, and lines replayed with `shogi-core`.

use crate::common;
use common::{run, run_with_stdin};
use serde_json::Value;
use shogi_core::{Position, Relax, Shogi};

const MATE3: &str =
    "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
const MATE7: &str =
    "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36";
/// Black has no king: mate problems may leave the attacker's out.
const NO_ATTACKER_KING: &str = "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1";
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MINI_MATE1: &str = "2k2/5/2G2/5/4K b G 1";
/// A quiet threat (testdata/mate/shogi_threats.tsv): no mate, but 2g2f threatens one.
const THREAT: &str =
    "1+P1k2snl/4g2l1/3pppp1b/ppS4p1/8p/2P2P1rL/2N1P1PPP/1B1K2gG1/1PSR2SNL b Gn2p 1";

/// Replays a mating line: every move legal, every attacker move a check, mate at the end.
fn replays_to_mate(sfen: &str, moves: &[&str]) {
    let mut pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
        .expect("a legal problem");
    // The default hand convention gives the defender everything else.
    pos = shogi_mate::with_defender_hand(&pos, shogi_mate::DefenderHand::Rest);
    let attacker = pos.side_to_move();
    for m in moves {
        let mover = pos.side_to_move();
        pos.play_usi(m)
            .unwrap_or_else(|e| panic!("{sfen}: {m}: {e}"));
        if mover == attacker {
            assert!(pos.in_check(!attacker), "{sfen}: {m} gives no check");
        }
    }
    assert!(pos.is_checkmate(), "{sfen}: the line ends without mate");
}

#[test]
fn mate_text_lines_follow_the_contract() {
    let (ok, out, _) = run(&["mate", MATE3, START, NO_ATTACKER_KING]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    for (line, sfen) in lines.iter().zip([MATE3, START, NO_ATTACKER_KING]) {
        // <verdict> <plies> <nodes> <sfen> <moves...>; the SFEN has four fields.
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[3..7].join(" "), sfen, "{line}");
        let nodes: u64 = f[2].parse().expect("a node count");
        assert!(nodes > 0);
        match f[0] {
            "mate" => {
                let plies: usize = f[1].parse().expect("plies");
                assert_eq!(plies, f.len() - 7, "{line}");
                assert_eq!(plies % 2, 1);
                replays_to_mate(sfen, &f[7..]);
            }
            "no-mate" => {
                assert_eq!(sfen, START);
                assert_eq!(f[1], "-");
                assert_eq!(f.len(), 7);
            }
            other => panic!("unexpected verdict {other}: {line}"),
        }
    }
}

#[test]
fn mate_json_has_the_contract_fields() {
    let (ok, out, _) = run(&["mate", "--json", MATE3, START, MINI_MATE1]);
    assert!(ok);
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(v[0]["sfen"], MATE3);
    assert_eq!(v[0]["verdict"], "mate");
    let moves: Vec<&str> = v[0]["moves"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|m| m.as_str().expect("USI"))
        .collect();
    assert_eq!(v[0]["plies"].as_u64(), Some(moves.len() as u64));
    replays_to_mate(MATE3, &moves);
    assert!(v[0]["nodes"].as_u64().expect("nodes") > 0);
    assert_eq!(
        v[0]["line_minimax"], true,
        "a small proof is planned by minimax"
    );
    assert_eq!(v[1]["verdict"], "no-mate");
    assert!(v[1]["plies"].is_null());
    assert!(v[1]["line_minimax"].is_null());
    assert_eq!(v[1]["moves"].as_array().map(Vec::len), Some(0));
    assert_eq!(v[2]["game"], "mini");
    assert_eq!(v[2]["verdict"], "mate");
    assert_eq!(v[2]["plies"], 1);
    for r in &v {
        for field in ["exact_hits", "superior_hits", "replaced", "collections"] {
            assert!(r[field].as_u64().is_some(), "{field} in {r}");
        }
        assert!(r["table_fill"].as_f64().is_some());
    }
    // A table of 1 MiB (32,768 entries) fills on a no-mate of 170,000 nodes from
    // testdata/mate/shogi_nomates.tsv: it is collected, never full, and the verdict stands.
    let nomate = "3g1gs1l/lr2k4/npppB2+Pp/5p3/p8/2P6/PP1PPPP1L/3G1K3/LNS2GSN1 b RBS2Pn2p 1";
    let (ok, out, _) = run(&[
        "mate",
        "--json",
        "--table-mb",
        "1",
        "--nodes",
        "300000",
        nomate,
    ]);
    assert!(ok);
    let r: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert!(r["collections"].as_u64() > Some(0), "{r}");
    assert!(r["replaced"].as_u64() > Some(0), "{r}");
    assert!(r["table_fill"].as_f64() <= Some(0.75), "{r}");
    assert_eq!(r["verdict"], "no-mate");
}

#[test]
fn stdin_blank_and_invalid_lines() {
    let input = format!("{MATE3}\n\n   \nnot a sfen\n9/9/9/9/9/9/9/9/9 b - 1\n{START}\n");
    let (ok, out, err) = run_with_stdin(&["mate", "--json"], &input);
    assert!(!ok, "invalid lines make the exit code 1");
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let verdicts: Vec<&str> = v.iter().map(|x| x["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["mate", "invalid", "invalid", "no-mate"]);
    assert!(v[1]["plies"].is_null() && v[1]["moves"].as_array().map(Vec::len) == Some(0));
    assert!(v[2]["error"].as_str().unwrap().contains("no king"));
    assert!(err.contains("line 4") && err.contains("line 5"), "{err}");
    let (ok, out, _) = run_with_stdin(&["mate"], "garbage\n");
    assert!(!ok);
    assert_eq!(out, "invalid - 0 garbage");
}

/// The answer for a position does not depend on the thread count or on its neighbours.
/// `--threads 2` on one position searches it with two threads (docs/METHOD.md §11.8): the
/// same verdicts and shortest lengths as one thread, and lines that mate.
#[test]
fn two_threads_on_one_position_answer_as_one() {
    for sfen in [MATE3, MATE7, NO_ATTACKER_KING, START] {
        let json = |threads: &str| -> Value {
            let (ok, out, err) = run(&["mate", "--json", "--shortest", "--threads", threads, sfen]);
            assert!(ok, "{err}");
            serde_json::from_str(out.trim()).expect("one JSON line")
        };
        let (one, two) = (json("1"), json("2"));
        assert_eq!(one["verdict"], two["verdict"], "{sfen}");
        assert_eq!(one["shortest"], two["shortest"], "{sfen}");
        if two["verdict"] == "mate" {
            let moves: Vec<&str> = two["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("a move"))
                .collect();
            replays_to_mate(sfen, &moves);
        }
    }
}

#[test]
fn threads_change_nothing() {
    let sfens = [MATE3, START, MATE7, NO_ATTACKER_KING, MINI_MATE1, THREAT];
    let mut args = vec!["mate", "--threads", "1"];
    args.extend(sfens);
    let (_, one, _) = run(&args);
    args[2] = "3";
    let (_, three, _) = run(&args);
    assert_eq!(one, three);
    let (_, alone, _) = run(&["mate", MATE7]);
    assert_eq!(one.lines().nth(2), Some(alone.as_str()));
    let mut pc = vec![
        "pass-count",
        "--json",
        "--threads",
        "1",
        "--max-passes",
        "1",
    ];
    pc.extend([MATE3, THREAT, START]);
    let (_, one, _) = run(&pc);
    pc[3] = "2";
    let (_, two, _) = run(&pc);
    assert_eq!(one, two);
}

#[test]
fn pass_count_json_has_the_contract_fields() {
    let (ok, out, _) = run(&[
        "pass-count",
        "--json",
        "--max-passes",
        "1",
        MATE3,
        THREAT,
        START,
        "garbage",
    ]);
    assert!(!ok, "the invalid input makes the exit code 1");
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    for x in &v {
        for key in ["sfen", "defense", "verdict", "passes", "move", "nodes"] {
            assert!(x.get(key).is_some(), "{key} missing in {x}");
        }
        assert_eq!(x["defense"], "none");
    }
    assert_eq!(
        (v[0]["verdict"].as_str(), v[0]["passes"].as_u64()),
        (Some("proved"), Some(0))
    );
    assert_eq!(
        (v[1]["verdict"].as_str(), v[1]["passes"].as_u64()),
        (Some("proved"), Some(1))
    );
    assert_eq!(v[1]["move"], "2g2f", "the one threat cshogi found");
    assert_eq!(v[2]["verdict"], "pass-limit");
    assert!(v[2]["passes"].is_null() && v[2]["move"].is_null());
    assert_eq!(v[3]["verdict"], "invalid");
    // Text: <verdict> <passes> <nodes> <sfen> <move>.
    let (_, text, _) = run(&["pass-count", "--max-passes", "1", THREAT, START]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("proved 1 ") && lines[0].ends_with(" 2g2f"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("pass-limit - ") && lines[1].ends_with(" -"),
        "{}",
        lines[1]
    );
}

/// `pass-count --max-passes 0` is the mate search itself (docs/METHOD.md §13): the same
/// verdicts and the same nodes as `mate`'s first proof with every reply counted, and a
/// proved count's move the line's first.
#[test]
fn a_pass_count_of_zero_searches_as_mate_does() {
    let positions = [MATE3, MATE7, NO_ATTACKER_KING, THREAT, START];
    let mut mate = vec![
        "mate",
        "--json",
        "--first",
        "--all-interpositions",
        "--threads",
        "1",
    ];
    mate.extend(positions);
    let mut pc = vec![
        "pass-count",
        "--json",
        "--threads",
        "1",
        "--max-passes",
        "0",
    ];
    pc.extend(positions);
    let parse = |out: String| -> Vec<Value> {
        out.lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    };
    let (m, p) = (parse(run(&mate).1), parse(run(&pc).1));
    assert_eq!(m.len(), positions.len());
    for (m, p) in m.iter().zip(&p) {
        let expected = match m["verdict"].as_str() {
            Some("mate") => "proved",
            Some("no-mate") => "pass-limit",
            _ => "unknown",
        };
        assert_eq!(p["verdict"], expected, "{m} {p}");
        assert_eq!(p["nodes"], m["nodes"], "{m} {p}");
        assert_eq!(p["move"], m["moves"].get(0).cloned().unwrap_or(Value::Null));
    }
}

/// Mates have pass count 0 under every defence set, and the counts grow with the set.
#[test]
fn defence_sets_are_monotone() {
    let mut counts = Vec::new();
    for defense in ["none", "takeback", "all"] {
        let (_, out, _) = run(&[
            "pass-count",
            "--json",
            "--defense",
            defense,
            "--max-passes",
            "1",
            MATE3,
            THREAT,
        ]);
        let v: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(v[0]["passes"], 0, "{defense}");
        assert_eq!(v[0]["defense"], defense);
        counts.push(v[1]["passes"].as_u64().unwrap_or(u64::MAX));
    }
    assert!(
        counts[0] <= counts[1] && counts[1] <= counts[2],
        "{counts:?}"
    );
}

/// Runs `shogi-count` with `args` under an address-space limit of `kib` KiB (`ulimit -v`).
fn run_limited(kib: u64, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .output()
        .expect("sh runs")
}

/// Threads are capped by the cores and the positions, and their tables are checked against
/// the memory the process can get before any is allocated: a run that cannot fit is refused
/// with a message, never aborted (exit 134) by a failed allocation.
#[test]
fn threads_and_tables_fit_in_the_memory_the_process_can_get() {
    let sfens = [MINI_MATE1, MATE3, MINI_MATE1, MATE3, MINI_MATE1, MATE3];
    let mut args = vec!["mate", "--threads", "1000"];
    args.extend(sfens);
    let out = run_limited(4_000_000, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("allocat"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    let verdicts: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(verdicts, ["mate"; 6]);

    // Two threads of 4 GiB tables under a 2 GB limit: refused before allocating.
    let out = run_limited(
        2_000_000,
        &["mate", "--table-mb", "4096", "--threads", "2", MATE3, START],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.starts_with("shogi-count: ") && err.contains("ulimit -v") && err.contains("--table-mb"),
        "{err}"
    );
    for cmd in ["mate", "pass-count"] {
        let out = run_limited(2_000_000, &[cmd, "--table-mb", "4096", MINI_MATE1]);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
    }

    // Without --threads, fewer threads run when the tables of all do not fit.
    let out = run_limited(
        2_000_000,
        &["mate", "--table-mb", "1024", MATE3, MATE3, MATE3],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores == 1 {
        return; // one thread is all there is: nothing to lower
    }
    assert!(err.contains("running 1 thread(s)"), "{err}");
    // With --threads, that many or none.
    let out = run_limited(
        2_000_000,
        &["mate", "--table-mb", "1024", "--threads", "2", MATE3, MATE3],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--threads 1"), "{err}");
}

#[test]
fn futile_interpositions_end_the_line_where_the_convention_says() {
    // The discovered bishop check of docs/METHOD.md §11.5: seven futile drops.
    let sfen = "8k/8p/6P2/9/9/9/9/9/B8 b - 1";
    for (flag, plies) in [(None, 1), (Some("--all-interpositions"), 15)] {
        let mut args = vec!["mate", "--json", sfen];
        args.extend(flag);
        let (ok, out, _) = run(&args);
        assert!(ok);
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["verdict"], "mate", "{out}");
        assert_eq!(v["shortest"], plies, "{flag:?}: {out}");
        assert_eq!(v["plies"], plies, "{flag:?}: {out}");
        assert_eq!(v["moves"][0], "3c3b+", "{out}");
    }
}

/// Issue 35, D8: counts were read by each command its own way (`estimate --max-expanded
/// 1e6` accepted, `mate --nodes 1e6` and `classify --max-expanded 1e6` refused), and
/// `mate --nodes 0` stopped at once where USI's `NodesLimit 0` means no limit. Every count
/// is now read as `estimate` reads it, and a node limit of 0 is none everywhere.
#[test]
fn counts_are_read_alike_and_a_node_limit_of_0_is_none() {
    for nodes in ["1e6", "1_000_000", "1000000", "2.5e6", "0"] {
        let (ok, out, err) = crate::common::run(&[
            "mate",
            "--table-mb",
            "1",
            "--nodes",
            nodes,
            NO_ATTACKER_KING,
        ]);
        assert!(ok, "--nodes {nodes}: {err}");
        assert!(out.starts_with("mate 3 "), "--nodes {nodes}: {out}");
    }
    let (ok, out, err) = crate::common::run(&[
        "pass-count",
        "--table-mb",
        "1",
        "--nodes",
        "1e5",
        "2k2/5/2G2/5/4K b G 1",
    ]);
    assert!(ok && out.starts_with("proved 0 "), "{out} {err}");
    for limit in ["--max-expanded", "--max-nodes"] {
        let (ok, out, err) =
            crate::common::run(&["classify", limit, "1e6", "rbsgk/4p/5/P4/KGSBR b - 1"]);
        assert!(ok && out.starts_with("reachable "), "{limit}: {out} {err}");
    }
    // Refused alike, as usage errors that name the option.
    for (args, option) in [
        (&["mate", "--nodes", "1.5", NO_ATTACKER_KING][..], "--nodes"),
        (
            &["classify", "--max-expanded", "1e-3", NO_ATTACKER_KING],
            "--max-expanded",
        ),
        (
            &["pass-count", "--nodes", "-5", NO_ATTACKER_KING],
            "--nodes",
        ),
    ] {
        let out = crate::common::shogi_count(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("invalid value for {option}")),
            "{args:?}: {err}"
        );
    }
}

/// `--shortest` under a node limit that ends a search for a shorter mate: the mate found is
/// printed with `cut` set and no proved length; without the limit, the length is proved
/// and `cut` is false.
#[test]
fn a_shortest_mate_cut_by_the_node_limit_says_so() {
    const SFEN: &str =
        "3k2pp1/Bpsgb1sl1/l1n1pP3/PPp2rl2/3p5/N1+s1+r1PSP/+n4G3/3GP4/3+lG1KN+p w 3P2p 1";
    let json = |args: &[&str]| -> serde_json::Value {
        let (ok, out, err) = run(args);
        assert!(ok, "{err}");
        serde_json::from_str(out.trim()).unwrap()
    };
    let v = json(&["mate", "--json", "--shortest", "--nodes", "3000", SFEN]);
    assert_eq!(
        (&v["verdict"], &v["cut"]),
        (&"mate".into(), &true.into()),
        "{v}"
    );
    assert!(v["shortest"].is_null(), "{v}");
    let v = json(&["mate", "--json", "--shortest", SFEN]);
    assert_eq!(
        (&v["shortest"], &v["cut"]),
        (&17.into(), &false.into()),
        "{v}"
    );
    let v = json(&["mate", "--json", "--nodes", "10", SFEN]);
    assert_eq!(
        (&v["verdict"], &v["cut"]),
        (&"unknown".into(), &true.into()),
        "{v}"
    );
}
