//! `shogi-count classify | reach` end to end: every verdict, the JSON fields, standard input,
//! errors naming the line, and certificates replayed with `shogi-core`.

use crate::common;
use common::{run, run_with_stdin};
use shogi_core::{AnyPosition, Game, MiniShogi, Shogi};

/// The mirror image of the Shogi initial position: the canonical one of the pair (the
/// initial position itself is the larger of the two in the authors' order).
const SHOGI_START_MIRROR: &str = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1";
/// White to move: non-canonical, but reachable.
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
const TWO_PAWNS: &str = "4k4/9/9/9/9/9/P8/P8/4K4 b - 1";
const IN_CHECK: &str = "4k4/4G4/9/9/9/9/9/9/4K4 b - 1";
/// White's king is walled in by Black pieces that do not attack it, and White has nothing
/// else: White had no last move.
const SHOGI_UNREACHABLE: &str = "kB7/BR7/9/9/9/9/9/9/4K4 b - 1";
const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
/// Sampled with `unrank --game mini`: the search proves these unreachable / reachable.
const MINI_UNREACHABLE: &str = "3s+p/+r+p1+B+R/KB1g1/1g3/2k1S b - 1";
const MINI_REACHABLE: &str = "g1r1k/5/+P1s+R+b/1+s1G1/1K2+B b P 1";

/// The docs/METHOD.md §9 line of `G` in USI (its text is checked against docs/METHOD.md in shogi-reach's
/// tests/integration/construct.rs).
fn line<G: Game>() -> Vec<String> {
    shogi_reach::opening_line::<G>()
        .expect("the game has a docs/METHOD.md §9 line")
        .iter()
        .map(|m| m.to_usi::<G>())
        .collect()
}

/// Plays the USI `moves` from `start`, each checked for legality.
fn replay<S: AsRef<str>>(start: &str, moves: &[S]) -> AnyPosition {
    let mut pos = AnyPosition::from_sfen(start).expect("a SFEN");
    for m in moves {
        let m = m.as_ref();
        let played = match &mut pos {
            AnyPosition::Shogi(p) => p.play_usi(m).map(|_| ()),
            AnyPosition::Mini(p) => p.play_usi(m).map(|_| ()),
        };
        played.unwrap_or_else(|e| panic!("{m} from {start}: {e:?}"));
    }
    pos
}

fn sfen_of(pos: &AnyPosition) -> String {
    pos.to_sfen()
}

fn parse(sfen: &str) -> AnyPosition {
    AnyPosition::from_sfen(sfen).expect("a SFEN")
}

/// Whether only the two kings stand on the board.
fn is_kk(sfen: &str) -> bool {
    let board = sfen.split(' ').next().unwrap();
    board.chars().filter(|c| c.is_ascii_alphabetic()).count() == 2
        && board.contains('K')
        && board.contains('k')
}

/// Splits a plain `classify` line into (verdict, expanded, sfen).
fn plain_line(line: &str) -> (&str, u64, &str) {
    let (verdict, rest) = line.split_once(' ').expect("a verdict");
    let (n, sfen) = rest.split_once(' ').expect("a node count");
    (verdict, n.parse().expect("a number"), sfen)
}

#[test]
fn classify_gives_each_verdict() {
    let cases = [
        (AFTER_7G7F, "non-canonical"),
        (TWO_PAWNS, "illegal-placement"),
        (IN_CHECK, "opponent-in-check"),
        (SHOGI_START_MIRROR, "reachable"),
        (MINI_START, "reachable"),
        (MINI_REACHABLE, "reachable"),
        (SHOGI_UNREACHABLE, "unreachable"),
        (MINI_UNREACHABLE, "unreachable"),
    ];
    let mut args = vec!["classify"];
    args.extend(cases.iter().map(|c| c.0));
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{out}");
    for (line, (sfen, verdict)) in lines.iter().zip(cases) {
        let (v, n, s) = plain_line(line);
        assert_eq!((v, s), (verdict, sfen), "{line}");
        // Only the search expands nodes; the root always is.
        let searched = matches!(verdict, "reachable" | "unreachable");
        assert_eq!(n > 0, searched, "{line}");
    }
    assert!(err.contains("classified 8 positions"), "{err}");
    assert!(err.contains("3 reachable"), "{err}");

    // The initial position is the larger of its mirror pair.
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert!(run(&["classify", start]).1.starts_with("non-canonical 0 "));
}

#[test]
fn classify_limits_give_unknown() {
    // The search needs several dozen expansions here.
    let (ok, out, _) = run(&["classify", "--max-expanded", "1", SHOGI_START_MIRROR]);
    assert!(ok);
    let (v, n, _) = plain_line(&out);
    assert_eq!((v, n), ("unknown", 1));
    let (ok, out, _) = run(&["classify", "--max-nodes", "10", SHOGI_START_MIRROR]);
    assert!(ok && out.starts_with("unknown "), "{out}");
    // Other options are accepted and keep the verdicts.
    let (ok, out, _) = run(&[
        "classify",
        "--weights",
        "1,1,1",
        "--pawn-drop",
        "no-reply",
        MINI_START,
    ]);
    assert!(ok && out.starts_with("reachable "), "{out}");
    assert!(!run(&["classify", "--weights", "1,2", MINI_START]).0);
}

#[test]
fn classify_json_fields_and_certificates() {
    let inputs = [
        SHOGI_START_MIRROR,
        MINI_START,
        MINI_REACHABLE,
        MINI_UNREACHABLE,
        TWO_PAWNS,
    ];
    let mut args = vec!["classify", "--json"];
    args.extend(inputs);
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), inputs.len());
    for (line, sfen) in lines.iter().zip(inputs) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object");
        assert_eq!(v["sfen"], sfen);
        for key in [
            "nodes",
            "generated",
            "predecessors",
            "capture_expansions",
            "peak_open",
            "peak_closed",
            "max_depth",
        ] {
            assert!(v[key].is_u64(), "{key} in {line}");
        }
        let verdict = v["verdict"].as_str().expect("a verdict");
        if verdict == "reachable" {
            let kk = v["kk"].as_str().expect("kk");
            assert!(is_kk(kk), "{kk}");
            let moves: Vec<&str> = v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("a USI move"))
                .collect();
            assert_eq!(replay(kk, &moves), parse(sfen), "{line}");
            assert!(v["nodes"].as_u64() > Some(0));
        } else {
            assert!(v.get("kk").is_none() && v.get("moves").is_none(), "{line}");
        }
    }
    let verdicts: Vec<String> = lines
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["verdict"].to_string())
        .collect();
    assert_eq!(
        verdicts,
        [
            "\"reachable\"",
            "\"reachable\"",
            "\"reachable\"",
            "\"unreachable\"",
            "\"illegal-placement\""
        ]
    );
    let two_pawns: serde_json::Value = serde_json::from_str(lines[4]).unwrap();
    assert_eq!(two_pawns["nodes"], 0);
    assert_eq!(two_pawns["game"], "shogi");
}

#[test]
fn classify_reads_standard_input_and_names_bad_lines() {
    let input = format!(
        "{MINI_START}\n\n   \nnot a sfen\n{AFTER_7G7F}\n4k/5/5/5/5 b - 1\r\n{MINI_UNREACHABLE}\n"
    );
    let (ok, out, err) = run_with_stdin(&["classify"], &input);
    // The bad lines are `invalid` in the stream, which goes on, and fail the run at the end.
    assert!(!ok);
    let verdicts: Vec<&str> = out.lines().map(|l| plain_line(l).0).collect();
    assert_eq!(
        verdicts,
        [
            "reachable",
            "invalid",
            "non-canonical",
            "invalid",
            "unreachable"
        ]
    );
    assert_eq!(out.lines().nth(3), Some("invalid 0 4k/5/5/5/5 b - 1"));
    assert!(err.contains("shogi-count: line 4: "), "{err}");
    assert!(
        err.contains("shogi-count: line 6: illegal position: Black has no king"),
        "{err}"
    );
    assert!(err.contains("shogi-count: 2 invalid input(s)"), "{err}");
    assert!(!err.contains("line 2") && !err.contains("line 3"), "{err}");
    assert!(!err.contains("panicked"));

    let (ok, out, _) = run_with_stdin(&["classify", "--json"], &format!("{MINI_START}\n"));
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "reachable");
    assert_eq!(v["game"], "mini");

    let (ok, out, _) = run_with_stdin(&["classify"], "");
    assert!(ok && out.is_empty());

    // SFENs given as arguments are named by their position.
    let out = common::shogi_count(&["classify", MINI_START, "rbsgk/4p/5/P4/KGSBX b - 1"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 2);
    assert_eq!(
        stdout.lines().nth(1),
        Some("invalid 0 rbsgk/4p/5/P4/KGSBX b - 1")
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("shogi-count: argument 2: "));
}

#[test]
fn reach_prints_a_certificate_from_the_kk_position() {
    for target in [SHOGI_START_MIRROR, MINI_REACHABLE, AFTER_7G7F] {
        let (ok, out, err) = run(&["reach", target]);
        assert!(ok, "{target}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(is_kk(lines[0]), "{}", lines[0]);
        let moves: Vec<&str> = lines[1].split(' ').collect();
        assert_eq!(replay(lines[0], &moves), parse(target));
    }
    // A KK position needs no move: the second line is empty.
    let kk = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    let out = common::shogi_count(&["reach", kk]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{kk}\n\n"));
}

#[test]
fn reach_from_start_replays_from_the_initial_position() {
    let mut targets = Vec::new();
    let shogi_start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let (shogi_line, mini_line) = (line::<Shogi>(), line::<MiniShogi>());
    for plies in [2, 10, 20, 44] {
        targets.push((
            shogi_start,
            sfen_of(&replay(shogi_start, &shogi_line[..plies])),
        ));
    }
    for plies in [4, 8, 18] {
        targets.push((
            MINI_START,
            sfen_of(&replay(MINI_START, &mini_line[..plies])),
        ));
    }
    targets.push((shogi_start, SHOGI_START_MIRROR.to_string()));
    targets.push((MINI_START, MINI_REACHABLE.to_string()));
    for (start, target) in &targets {
        let (ok, out, err) = run(&["reach", "--from-start", target]);
        assert!(ok, "{target}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(parse(lines[0]), parse(start));
        let moves: Vec<&str> = lines[1].split(' ').collect();
        assert_eq!(replay(lines[0], &moves), parse(target), "{target}");
    }
}

#[test]
fn reach_fails_on_positions_it_cannot_certify() {
    for (args, message) in [
        (&["reach", SHOGI_UNREACHABLE][..], "unreachable"),
        (&["reach", MINI_UNREACHABLE], "unreachable"),
        (&["reach", TWO_PAWNS], "illegal-placement"),
        (&["reach", IN_CHECK], "opponent-in-check"),
        // White to move with Black in check: the later filters apply to non-canonical
        // positions too.
        (
            &["reach", "4k4/9/9/9/9/9/9/4g4/4K4 w - 1"],
            "opponent-in-check",
        ),
        (
            &["reach", "--max-expanded", "1", SHOGI_START_MIRROR],
            "--max-expanded",
        ),
        (&["reach", "not a sfen"], ""),
        (&["reach", "4k4/9/9/9/9/9/9/9/9 b - 1"], "no king"),
        // Reduced material has no game from the initial position.
        (
            &["reach", "--from-start", "4k4/9/9/9/9/9/9/9/4K4 b - 1"],
            "wrong material",
        ),
    ] {
        let out = common::shogi_count(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("shogi-count: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    let err = run(&["reach", "--max-expanded", "1", SHOGI_START_MIRROR]).2;
    assert!(err.starts_with("shogi-count: unknown"), "{err}");
}
