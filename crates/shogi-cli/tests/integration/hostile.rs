//! Hostile input for every command but `estimate` and `merge` (those are in
//! `estimate_hostile.rs`): invalid UTF-8 in arguments and on standard input, 100 kB
//! arguments and lines, huge and negative numbers, empty strings, a SFEN of the other game,
//! positions with too much material or the wrong kings. Each must end (a hang guard kills
//! it), never panic (exit 101) nor crash on a signal, and a refused input must exit non-zero
//! with a message on standard error naming the problem. `classify` reports a bad line as
//! `invalid`, goes on with the others and exits 1 at the end: it must never call a position
//! with too much material `reachable`. Positions at the material limit must still work.

use crate::common;

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a run gave: the exit code (`None` if a signal ended it), stdout and stderr.
struct Outcome {
    code: Option<i32>,
    out: String,
    err: String,
}

/// A short, printable form of the arguments for failure messages.
fn short(args: &[OsString]) -> Vec<String> {
    args.iter()
        .map(|a| a.to_string_lossy().chars().take(60).collect::<String>())
        .collect()
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Runs `shogi-count` with `args` and `stdin` (or no input at all), killing it past
/// [`common::HANG_GUARD`] and failing. Output goes to files, so nothing needs draining while waiting;
/// the input is written from another thread, so a large one cannot block the wait.
fn spawn(args: &[OsString], stdin: Option<&[u8]>) -> Outcome {
    static N: AtomicUsize = AtomicUsize::new(0);
    let tag = format!(
        "{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let dir = std::env::temp_dir();
    let (o, e) = (
        dir.join(format!("shogi-hostile-{tag}.out")),
        dir.join(format!("shogi-hostile-{tag}.err")),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(std::fs::File::create(&o).unwrap())
        .stderr(std::fs::File::create(&e).unwrap())
        .spawn()
        .expect("the binary runs");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("piped");
        let bytes = bytes.to_vec();
        // A write error only means the child stopped reading, which its status shows.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let status = common::wait_or_fail(&mut child, &format!("{:?}", short(args)));
    if let Some(w) = writer {
        w.join().expect("the writer thread");
    }
    let out = String::from_utf8_lossy(&std::fs::read(&o).unwrap()).into_owned();
    let err = String::from_utf8_lossy(&std::fs::read(&e).unwrap()).into_owned();
    let _ = (std::fs::remove_file(&o), std::fs::remove_file(&e));
    let outcome = Outcome {
        code: status.code(),
        out,
        err,
    };
    sane(args, &outcome);
    outcome
}

/// What every run must satisfy, whatever the input: it exited by itself (no signal: a
/// stack overflow aborts), not with a panic.
fn sane(args: &[OsString], o: &Outcome) {
    assert!(
        o.code.is_some(),
        "{:?}: killed by a signal\n{}",
        short(args),
        o.err
    );
    assert_ne!(o.code, Some(101), "{:?}: panicked\n{}", short(args), o.err);
    for bad in ["panicked", "overflowed its stack", "RUST_BACKTRACE"] {
        assert!(!o.err.contains(bad), "{:?}: {}", short(args), o.err);
    }
}

fn run(args: &[&str]) -> Outcome {
    spawn(&os(args), None)
}

/// `args` is refused: exit 1 (our error) or 2 (clap's), nothing on stdout, and an error on
/// stderr containing every needle.
fn refused_os(args: &[OsString], needles: &[&str]) -> String {
    let o = spawn(args, None);
    assert!(
        matches!(o.code, Some(1 | 2)),
        "{:?}: exit {:?}\n{}",
        short(args),
        o.code,
        o.err
    );
    assert!(o.out.is_empty(), "{:?} printed {}", short(args), o.out);
    assert!(
        o.err.starts_with("shogi-count: ") || o.err.starts_with("error: "),
        "{:?}: {}",
        short(args),
        o.err
    );
    for n in needles {
        assert!(
            o.err.contains(n),
            "{:?}: no `{n}` in {}",
            short(args),
            o.err
        );
    }
    o.err
}

fn refused(args: &[&str], needles: &[&str]) -> String {
    refused_os(&os(args), needles)
}

/// `args` succeeds: exit 0 and the standard output.
fn accepted(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.code, Some(0), "{:?}: {}", short(&os(args)), o.err);
    o.out
}

/// The last line of `out`.
fn last(out: &str) -> &str {
    out.lines().last().unwrap_or("")
}

/// `classify` over `args` (or `stdin`): the verdicts, one per input, in order. The run
/// must exit 1 if any verdict is `invalid` (0 otherwise), and each invalid input must be
/// named on stderr. With `json`, every line must be a JSON object with a verdict, and an
/// invalid one an error.
fn classify(args: &[OsString], stdin: Option<&[u8]>, json: bool) -> Vec<String> {
    let mut full = vec![OsString::from("classify")];
    if json {
        full.push("--json".into());
    }
    full.extend(args.iter().cloned());
    let o = spawn(&full, stdin);
    let verdicts: Vec<String> = o
        .out
        .lines()
        .map(|line| {
            if json {
                let v: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{:?}: not JSON ({e}): {line}", short(&full)));
                if v["verdict"] == "invalid" {
                    let error = v["error"].as_str().unwrap_or("");
                    assert!(!error.is_empty(), "no error in {line}");
                }
                v["verdict"].as_str().expect("a verdict").to_string()
            } else {
                line.split(' ').next().unwrap_or("").to_string()
            }
        })
        .collect();
    let invalid = verdicts.iter().filter(|v| *v == "invalid").count();
    let expected_code = if invalid > 0 { 1 } else { 0 };
    assert_eq!(
        o.code,
        Some(expected_code),
        "{:?}: {invalid} invalid\n{}",
        short(&full),
        o.err
    );
    let named = o.err.matches("shogi-count: line ").count()
        + o.err.matches("shogi-count: argument ").count();
    assert_eq!(named, invalid, "{:?}: {}", short(&full), o.err);
    if invalid > 0 {
        assert!(
            o.err.contains(&format!("{invalid} invalid input")),
            "{}",
            o.err
        );
    }
    verdicts
}

/// Both output forms of `classify` over SFEN arguments, which must agree.
fn classify_args(sfens: &[&str]) -> Vec<String> {
    let plain = classify(&os(sfens), None, false);
    let json = classify(&os(sfens), None, true);
    assert_eq!(plain, json, "{sfens:?}");
    plain
}

/// Bytes that are not UTF-8: invalid lead bytes, a lone continuation byte, a truncated
/// sequence, an overlong encoding, a surrogate (an argument cannot hold a NUL; standard
/// input gets those).
fn garbage() -> OsString {
    OsStr::from_bytes(b"\xff\xfe\x80garbage\xc3(\xc0\xaf\xed\xa0\x80").to_os_string()
}

/// 100 kB SFEN-shaped arguments, each breaking the parser somewhere else.
fn hundred_kb() -> Vec<String> {
    const N: usize = 100_000;
    let kk = "4k4/9/9/9/9/9/9/9/4K4";
    vec![
        "9/".repeat(N / 2),
        "x".repeat(N),
        format!("{kk} b {} 1", "P".repeat(N)),
        format!("{kk} b {}P 1", "9".repeat(N)),
        format!("{kk} b - {}", "9".repeat(N)),
        format!("{kk} b - 1 {}", "x ".repeat(N / 2)),
        format!("{}/9/9/9/9/9/9/9/9 b - 1", "1".repeat(N)),
        format!("{}/9/9/9/9/9/9/9/9 b - 1", "+".repeat(N)),
        format!("{kk} {} - 1", "b".repeat(N)),
    ]
}

/// Positions with too much material, each with the words naming the excess.
const OVER_MATERIAL: [(&str, &[&str]); 8] = [
    ("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", &["3 rooks", "has 2"]),
    ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", &["19 pawns", "has 18"]),
    ("4k4/9/9/9/9/9/9/9/4K4 b 5G 1", &["5 golds", "has 4"]),
    ("4k/5/5/5/K4 b 99P 1", &["99 pawns", "has 2"]),
    // Promoted pieces count as their basic kind, White's hand as much as Black's.
    ("4k4/9/9/9/9/9/9/+R+R7/4K4 b r 1", &["3 rooks", "has 2"]),
    ("4k/5/5/5/K4 w 3g 1", &["3 golds", "has 2"]),
    // The full material and one extra bishop on the board.
    (
        "lnsgkgsnl/1r5b1/ppppppppp/9/4B4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        &["3 bishops", "has 2"],
    ),
    // The most a hand field may hold of every kind, for both sides.
    (
        "4k4/9/9/9/9/9/9/9/4K4 b 127R127B127G127S127N127L127P127r127b127g127s127n127l127p 1",
        &["rooks", "pawns", "lances"],
    ),
];

/// Positions whose kings are wrong (and some material too).
const BAD_KINGS: [(&str, &[&str]); 5] = [
    (
        "9/9/RRRRRRRRR/9/9/9/9/9/9 b RBGSNLP 1",
        &["no king", "10 rooks"],
    ),
    (
        "9/9/9/9/9/9/9/9/9 b - 1",
        &["Black has no king", "White has no king"],
    ),
    ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", &["Black has 2 kings"]),
    (
        "4K/5/5/5/K4 w - 1",
        &["White has no king", "Black has 2 kings"],
    ),
    ("kkk2/5/5/5/K4 b - 1", &["White has 3 kings"]),
];

/// A legal Shogi position and a legal Mini Shogi one, both with only the kings.
const KK_SHOGI: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
const KK_MINI: &str = "4k/5/5/5/K4 b - 1";

#[test]
fn invalid_utf8_arguments_are_refused_by_every_command() {
    let g = garbage();
    let cases: Vec<Vec<OsString>> = vec![
        vec!["perft".into(), g.clone()],
        vec!["perft".into(), "--sfen".into(), g.clone(), "1".into()],
        vec!["perft".into(), "--game".into(), g.clone(), "1".into()],
        vec!["perft".into(), "--pawn-drop".into(), g.clone(), "1".into()],
        vec!["count".into(), "--game".into(), g.clone()],
        vec!["count".into(), g.clone()],
        vec!["rank".into(), g.clone()],
        vec!["unrank".into(), g.clone()],
        vec!["unrank".into(), "--game".into(), g.clone(), "0".into()],
        vec!["unmoves".into(), g.clone()],
        vec!["unmoves".into(), "--moves".into(), g.clone()],
        vec!["classify".into(), g.clone()],
        vec!["classify".into(), "--json".into(), g.clone()],
        vec!["classify".into(), KK_SHOGI.into(), g.clone()],
        vec!["classify".into(), "--max-expanded".into(), g.clone()],
        vec!["mate".into(), "--nodes".into(), g.clone()],
        vec!["mate".into(), "--defender-hand".into(), g.clone()],
        vec!["pass-count".into(), "--defense".into(), g.clone()],
        vec!["pass-count".into(), "--max-passes".into(), g.clone()],
        vec!["reach".into(), g.clone()],
        vec!["reach".into(), "--from-start".into(), g.clone()],
        vec![
            "reach".into(),
            "--weights".into(),
            g.clone(),
            KK_SHOGI.into(),
        ],
        vec![g.clone()],
    ];
    for args in cases {
        let err = refused_os(&args, &[]);
        assert!(
            err.contains("UTF-8")
                || err.contains("invalid value")
                || err.contains("unexpected argument")
                || err.contains("unrecognized"),
            "{:?}: {err}",
            short(&args)
        );
    }
}

#[test]
fn garbage_on_classify_stdin_is_invalid_lines_and_the_stream_goes_on() {
    let mut input: Vec<u8> = Vec::new();
    let mut expected: Vec<&str> = Vec::new();
    let mut line = |bytes: &[u8], verdict: Option<&'static str>| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
        expected.extend(verdict);
    };
    line(b"\xff\xfe\x80\x00garbage", Some("invalid"));
    line(KK_SHOGI.as_bytes(), Some("reachable"));
    line(b"", None);
    line(b"   \t ", None);
    line(&[0u8; 1000], Some("invalid"));
    line(b"4k4/9/9/9/9/9/9/9/4K4 b - 1\xff", Some("invalid"));
    line(b"\xef\xbb\xbf4k/5/5/5/K4 b - 1", Some("invalid")); // a byte-order mark
    line(KK_MINI.as_bytes(), Some("reachable"));
    for big in hundred_kb() {
        line(big.as_bytes(), Some("invalid"));
    }
    for (sfen, _) in OVER_MATERIAL.iter().chain(BAD_KINGS.iter()) {
        line(sfen.as_bytes(), Some("invalid"));
    }
    line(b"4k/5/5/5/K4 b - 1\r", Some("reachable")); // CRLF line ends
                                                     // A last line without a newline is still read.
    input.extend_from_slice(KK_SHOGI.as_bytes());
    expected.push("reachable");
    for json in [false, true] {
        let verdicts = classify(&[], Some(&input), json);
        assert_eq!(verdicts, expected, "json: {json}");
    }
}

#[test]
fn random_bytes_on_classify_stdin_are_all_invalid() {
    // 100 kB from a fixed xorshift: every non-blank line is invalid, none is classified.
    let mut s = 0x2545_f491_4f6c_dd1d_u64;
    let bytes: Vec<u8> = (0..100_000)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect();
    for json in [false, true] {
        let verdicts = classify(&[], Some(&bytes), json);
        assert!(!verdicts.is_empty());
        assert!(verdicts.iter().all(|v| v == "invalid"), "{verdicts:?}");
    }
    // One line of 100 kB with no newline at all.
    let line = vec![b'9'; 100_000];
    assert_eq!(classify(&[], Some(&line), false), ["invalid"]);
}

#[test]
fn hundred_kilobyte_arguments_are_refused_by_every_command() {
    let big = hundred_kb();
    for b in &big {
        let b = b.as_str();
        refused(&["perft", "--sfen", b, "1"], &[]);
        refused(&["perft", "--game", "mini", "--sfen", b, "1"], &[]);
        refused(&["rank", b], &[]);
        refused(&["unmoves", b], &[]);
        refused(&["unmoves", "--moves", b], &[]);
        refused(&["reach", b], &[]);
        refused(&["reach", "--from-start", b], &[]);
        assert_eq!(classify_args(&[b]), ["invalid"]);
        // The other inputs of the same run are still classified.
        assert_eq!(
            classify_args(&[KK_MINI, b, KK_SHOGI]),
            ["reachable", "invalid", "reachable"]
        );
    }
    let digits = "7".repeat(100_000);
    refused(&["perft", &digits], &["DEPTH"]);
    refused(&["unrank", &digits], &["not a rank"]);
    refused(
        &["unrank", &big[0]],
        &["not a non-negative decimal integer"],
    );
    refused(&["count", "--game", &big[1]], &["invalid value"]);
    refused(&["classify", "--max-expanded", &digits, KK_SHOGI], &[]);
    refused(&["mate", "--nodes", &digits, KK_SHOGI], &[]);
    refused(&["mate", "--table-mb", &digits, KK_SHOGI], &[]);
    // A table larger than any machine here is refused, not allocated.
    refused(&["mate", "--table-mb", "65536", KK_SHOGI], &["4096"]);
    refused(&["pass-count", "--table-mb", "0", KK_SHOGI], &[]);
    refused(&["pass-count", "--max-passes", &digits, KK_SHOGI], &[]);
    refused(&["reach", "--max-nodes", &digits, KK_SHOGI], &[]);
    refused(&["reach", "--weights", &digits, KK_SHOGI], &["A,B,C"]);
}

#[test]
fn huge_and_negative_numbers_are_refused() {
    refused(&["perft", "4294967296"], &["4294967296"]);
    refused(&["perft", "99999999999999999999"], &["DEPTH"]);
    refused(&["perft", "-1"], &[]);
    refused(&["perft", "--", "-1"], &["-1"]);
    refused(&["perft", "--game", "mini", "1e3"], &["1e3"]);
    let googol = format!("1{}", "0".repeat(100));
    refused(&["unrank", &googol], &["not a rank"]);
    refused(&["unrank", "--game", "mini", &googol], &["not a rank"]);
    refused(&["unrank", "-5"], &["not a non-negative decimal integer"]);
    refused(
        &["unrank", "--", "-5"],
        &["not a non-negative decimal integer"],
    );
    refused(&["unrank", "--game", "mini", "-0"], &["not a non-negative"]);
    refused(&["unrank", "+5x"], &["not a non-negative decimal integer"]);
    refused(&["unrank", "1.5"], &["not a non-negative decimal integer"]);
    // |P_K| itself is one past the last rank; |P_K| - 1 is the last one.
    for game in ["shogi", "mini"] {
        let count = accepted(&["count", "--game", game]);
        let count = count.trim();
        refused(&["unrank", "--game", game, count], &["not a rank"]);
        let last_rank = decrement(count);
        let sfen = accepted(&["unrank", "--game", game, &last_rank]);
        assert_eq!(accepted(&["rank", sfen.trim()]).trim(), last_rank);
    }
    for opt in ["--max-expanded", "--max-nodes"] {
        refused(&["classify", opt, "-1", KK_SHOGI], &[]);
        refused(&["classify", opt, "99999999999999999999999", KK_SHOGI], &[]);
        refused(&["reach", opt, "-1", KK_SHOGI], &[]);
    }
    refused(&["reach", "--weights", "1001,0,0", KK_SHOGI], &["1000"]);
    refused(&["classify", "--weights", "-1,1,1", KK_SHOGI], &[]);
}

/// `n - 1` for a positive decimal string.
fn decrement(n: &str) -> String {
    let mut digits: Vec<u8> = n.bytes().collect();
    let mut i = digits.len();
    loop {
        i -= 1;
        if digits[i] == b'0' {
            digits[i] = b'9';
        } else {
            digits[i] -= 1;
            break;
        }
    }
    let s = String::from_utf8(digits).unwrap();
    let t = s.trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.into()
    }
}

/// A depth as large as `u32::MAX` used to be accepted: the recursion dived until the stack
/// overflowed and the process aborted (SIGABRT, exit 134), and a depth like 30 ran for
/// ever. Depths past 20 are now refused up front.
#[test]
fn perft_refuses_depths_beyond_twenty() {
    for d in ["4294967295", "3000", "100", "21"] {
        refused(&["perft", d], &[d, "0..=20"]);
        refused(&["perft", "--game", "mini", "--divide", d], &[d]);
        refused(&["perft", "--sfen", KK_MINI, d], &[d]);
    }
    // The largest depth is accepted, and quick where the tree is small: a checkmate (from
    // testdata/perft/crowded.perft) has no moves at all.
    let mated =
        "n2p3+pp/S+s2p+P1n1/kLP1P2g+p/4NPLnG/1l1P4+p/1+BS4rP/1gK2g3/1P+b3rs1/6P+P1 b L2Pp 1";
    assert_eq!(last(&accepted(&["perft", "--sfen", mated, "20"])), "0");
    assert_eq!(last(&accepted(&["perft", "--sfen", mated, "1"])), "0");
    assert_eq!(last(&accepted(&["perft", "--sfen", mated, "0"])), "1");
}

#[test]
fn empty_strings_are_refused() {
    for blank in ["", "   ", "\t"] {
        refused(&["perft", blank], &["DEPTH"]);
        refused(&["perft", "--sfen", blank, "1"], &["empty SFEN"]);
        refused(
            &["perft", "--game", "mini", "--sfen", blank, "1"],
            &["empty SFEN"],
        );
        refused(&["perft", "--game", blank, "1"], &[]);
        refused(&["count", "--game", blank], &[]);
        refused(&["rank", blank], &["empty SFEN"]);
        refused(&["unrank", blank], &["not a non-negative decimal integer"]);
        refused(&["unmoves", blank], &["empty SFEN"]);
        refused(&["reach", blank], &["empty SFEN"]);
        refused(&["reach", "--from-start", blank], &["empty SFEN"]);
    }
    refused(&["unrank", "--game", "mini", ""], &["not a non-negative"]);
    // The commands of many positions refuse an empty argument before any search, naming
    // it: an empty SFEN is a mistake, never a position to skip or to answer.
    for cmd in [
        &["classify"][..],
        &["classify", "--json"],
        &["mate"],
        &["pass-count"],
    ] {
        for blank in ["", "   ", "\t"] {
            refused(&[cmd, &[blank]].concat(), &["argument 1 is empty"]);
            refused(
                &[cmd, &[KK_SHOGI, blank]].concat(),
                &["argument 2 is empty"],
            );
            refused(
                &[cmd, &[blank, KK_SHOGI, ""]].concat(),
                &["argument 1 is empty"],
            );
        }
    }
    // On standard input, blank lines are skipped; with no position at all, nothing is
    // printed, the exit code is 0, and standard error says so.
    assert!(classify(&[], Some(b""), false).is_empty());
    assert!(classify(&[], Some(b"\n\n  \n"), true).is_empty());
    for cmd in ["classify", "mate", "pass-count"] {
        for input in [&b""[..], b"\n \t\n\n"] {
            let o = spawn(&os(&[cmd]), Some(input));
            assert_eq!(o.code, Some(0), "{cmd}: {}", o.err);
            assert!(o.out.is_empty(), "{cmd}: {}", o.out);
            assert!(o.err.contains("no positions read"), "{cmd}: {}", o.err);
        }
    }
}

#[test]
fn a_sfen_of_the_other_game_is_refused() {
    let shogi = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let mini = "rbsgk/4p/5/P4/KGSBR b - 1";
    refused(
        &["perft", "--game", "mini", "--sfen", shogi, "1"],
        &["9 ranks", "has 5"],
    );
    refused(
        &["perft", "--game", "shogi", "--sfen", mini, "1"],
        &["5 ranks", "has 9"],
    );
    refused(
        &[
            "perft",
            "--game",
            "mini",
            "--sfen",
            "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
            "1",
        ],
        &["9 ranks"],
    );
    // Ranks of the other game's width.
    refused(
        &[
            "perft",
            "--game",
            "mini",
            "--sfen",
            "4k4/9/9/9/4K4 b - 1",
            "1",
        ],
        &["rank 1", "9 squares", "has 5"],
    );
    refused(
        &["perft", "--sfen", "4k/5/5/5/5/5/5/5/K4 b - 1", "1"],
        &["rank 1", "5 squares", "has 9"],
    );
    // A number of ranks no game has.
    for sfen in ["4k/5/5/K4 b - 1", "9/9/9/9/9/9/9/9/9/9 b - 1", "/ b - 1"] {
        refused(&["perft", "--sfen", sfen, "1"], &["ranks"]);
        refused(&["rank", sfen], &["ranks"]);
        refused(&["unmoves", sfen], &["ranks"]);
        refused(&["reach", sfen], &["ranks"]);
        assert_eq!(classify_args(&[sfen]), ["invalid"]);
    }
    // A Mini Shogi piece count that is legal in Shogi.
    refused(
        &["perft", "--sfen", "4k/5/5/5/K4 b 4G 1", "1"],
        &["4 golds", "has 2"],
    );
}

#[test]
fn positions_with_wrong_kings_or_too_much_material_are_refused_by_every_command() {
    for (sfen, needles) in OVER_MATERIAL.iter().chain(BAD_KINGS.iter()) {
        let needles: Vec<&str> = needles.to_vec();
        let mut with_illegal = needles.clone();
        with_illegal.push("illegal position");
        refused(&["perft", "--sfen", sfen, "1"], &with_illegal);
        refused(&["perft", "--divide", "--sfen", sfen, "2"], &with_illegal);
        refused(&["perft", "--sfen", sfen, "0"], &with_illegal);
        refused(&["rank", sfen], &with_illegal);
        refused(&["unmoves", sfen], &with_illegal);
        refused(&["unmoves", "--moves", sfen], &with_illegal);
        refused(&["reach", sfen], &with_illegal);
        refused(&["reach", "--from-start", sfen], &with_illegal);
        // `mate` and `pass-count`: an `invalid` line naming the problem, exit code 1.
        for cmd in ["mate", "pass-count"] {
            let o = spawn(&os(&[cmd, "--json", sfen]), None);
            assert_eq!(o.code, Some(1), "{cmd} {sfen}");
            let v: Value = serde_json::from_str(o.out.trim()).expect("one JSON line");
            assert_eq!(v["verdict"], "invalid", "{cmd} {sfen}");
            for n in &needles {
                assert!(o.err.contains(n), "{cmd} {sfen}: no `{n}` in {}", o.err);
            }
        }
        // `classify`: `invalid`, never `reachable`, whether alone, among valid positions,
        // as arguments or on standard input; the reason is in the JSON and on stderr.
        assert_eq!(classify_args(&[sfen]), ["invalid"], "{sfen}");
        assert_eq!(
            classify_args(&[KK_SHOGI, sfen, KK_MINI]),
            ["reachable", "invalid", "reachable"],
            "{sfen}"
        );
        let stdin = format!("{sfen}\n{KK_MINI}\n");
        for json in [false, true] {
            assert_eq!(
                classify(&[], Some(stdin.as_bytes()), json),
                ["invalid", "reachable"]
            );
        }
        let o = spawn(&os(&["classify", "--json", sfen]), None);
        let v: Value = serde_json::from_str(o.out.trim()).expect("one JSON line");
        assert_eq!(v["sfen"], *sfen);
        assert_eq!(v["verdict"], "invalid");
        let error = v["error"].as_str().expect("an error");
        for n in &needles {
            assert!(error.contains(n), "{sfen}: no `{n}` in {error}");
            assert!(o.err.contains(n), "{sfen}: no `{n}` in {}", o.err);
        }
        assert!(o.err.contains("argument 1"), "{}", o.err);
    }
}

/// Legal moves of a position with Black's king on `bk` (0-based `(x, y)`, on the last rank
/// y = size - 1), White's king far from it on the first rank (y = 0), and the game's whole material in the hand of
/// the side to move (Black; the colour-flipped twin has the same count), counted by hand:
/// king steps, then drops on every empty square except a knight's last two ranks and a
/// lance's or pawn's last rank. No pawn is on the board (no two-pawn restriction), and a
/// pawn drop checking a king with an empty neighbourhood is never mate.
fn full_hand_kk_moves(size: u8, bk: (u8, u8), material: [u32; 7]) -> u64 {
    let [pawns, lances, knights, silvers, golds, bishops, rooks] = material;
    let squares = (size as u64) * (size as u64);
    let king_steps = (-1i32..=1)
        .flat_map(|dx| (-1i32..=1).map(move |dy| (dx, dy)))
        .filter(|&(dx, dy)| (dx, dy) != (0, 0))
        .filter(|&(dx, dy)| {
            let (x, y) = (bk.0 as i32 + dx, bk.1 as i32 + dy);
            (0..size as i32).contains(&x) && (0..size as i32).contains(&y)
        })
        .count() as u64;
    let empty = squares - 2;
    // The empty squares off Black's last `n` ranks (rank y = 0 is Black's last); White's
    // king stands on y = 0 in the positions below, Black's below rank n.
    let off_last = |n: u64| empty - (n * size as u64 - 1);
    let has = |n: u32| u64::from(n > 0);
    king_steps
        + (has(rooks) + has(bishops) + has(golds) + has(silvers)) * empty
        + has(knights) * off_last(2)
        + has(lances) * off_last(1)
        + has(pawns) * off_last(1)
}

#[test]
fn positions_at_the_material_limit_are_accepted() {
    // The most legal moves known in a Shogi position.
    let crowded = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
    let out = accepted(&["perft", "--sfen", crowded, "1"]);
    assert_eq!(last(&out), "593");
    let divided = accepted(&["perft", "--divide", "--sfen", crowded, "1"]);
    assert_eq!(divided.lines().count(), 594);
    assert_eq!(last(&divided), "593");
    accepted(&["unmoves", "--moves", crowded]);

    // Every piece in the hand of the side to move.
    let shogi = full_hand_kk_moves(9, (4, 8), [18, 4, 4, 4, 4, 2, 2]);
    let mini = full_hand_kk_moves(5, (0, 4), [2, 0, 0, 2, 2, 2, 2]);
    assert_eq!((shogi, mini), (525, 114));
    for (sfen, n) in [
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1", shogi),
        ("4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1", shogi),
        ("4k/5/5/5/K4 b 2R2B2G2S2P 1", mini),
        ("k4/5/5/5/4K w 2r2b2g2s2p 1", mini),
    ] {
        assert_eq!(
            last(&accepted(&["perft", "--sfen", sfen, "1"])),
            n.to_string()
        );
        accepted(&["unmoves", sfen]);
        accepted(&["reach", sfen]);
        // White to move is `non-canonical`; either way a position, not `invalid`.
        let verdict = &classify_args(&[sfen])[0];
        let expected = if sfen.contains(" b ") {
            "reachable"
        } else {
            "non-canonical"
        };
        assert_eq!(verdict, expected, "{sfen}");
    }
    accepted(&["rank", "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"]);
    accepted(&["rank", "4k/5/5/5/K4 b 2R2B2G2S2P 1"]);
    accepted(&[
        "perft",
        "--game",
        "mini",
        "--sfen",
        "4k/5/5/5/K4 b 2R2B2G2S2P 1",
        "2",
    ]);
}

#[test]
fn every_crowded_position_of_the_suite_gives_its_perft_one() {
    // testdata/perft/crowded.perft: full-material positions (crowded boards, full hands)
    // with counts from cshogi.
    let path = format!(
        "{}/../../testdata/perft/crowded.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sfen = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("sfen ") {
            sfen = Some(s.to_string());
        } else if let Some(n) = line.strip_prefix("perft 1 ") {
            let s = sfen.take().expect("a sfen before its counts");
            assert_eq!(last(&accepted(&["perft", "--sfen", &s, "1"])), n, "{s}");
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} positions");
}

/// The longest single argument Linux passes to a program (`MAX_ARG_STRLEN`, 32 pages):
/// arguments cannot be a megabyte, standard input can.
const LONGEST_ARGUMENT: usize = 128 * 1024 - 1;

/// Standard error that stays short however long the bad input: messages quote at most
/// the first 40 characters of a field, with its length.
fn short_error(o: &Outcome, what: &str) {
    assert!(
        o.err.len() < 2000,
        "{what}: {} bytes of error: {:.300}",
        o.err.len(),
        o.err
    );
    assert!(!o.err.contains(&"x".repeat(100)), "{what}: {:.300}", o.err);
}

#[test]
fn long_bad_input_is_not_echoed_back() {
    let n = LONGEST_ARGUMENT;
    let kk = "4k4/9/9/9/9/9/9/9/4K4";
    let sfens = [
        format!("{kk} b - 1 {}", "x".repeat(n - 30)),
        format!("{kk} {} - 1", "x".repeat(n - 30)),
        format!("{kk} b - {}", "9".repeat(n - 30)),
        "x".repeat(n),
    ];
    let digits = "9".repeat(n);
    let letters = "x".repeat(n);
    let path = format!("/tmp/{}", "x".repeat(n - 5));
    let shard = format!("1/{}", "9".repeat(n - 2));
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["perft", &digits],
        vec!["perft", "--game", &letters, "1"],
        vec!["unrank", &digits],
        vec!["unrank", &letters],
        vec!["count", "--space", &letters],
        vec!["reach", "--weights", &letters, KK_SHOGI],
        vec!["mate", "--nodes", &digits, KK_SHOGI],
        vec!["mate", "--threads", &letters, KK_SHOGI],
        vec!["estimate", "--samples", &digits],
        vec!["estimate", "--samples", &letters],
        vec!["estimate", "--shard", &letters],
        vec!["estimate", "--shard", &shard],
        vec!["estimate", "--phase2-rate", &letters],
        vec!["estimate", "--target-half-width", &letters],
        vec!["estimate", "--method", &letters],
        vec!["estimate", "--threads", &digits],
        vec!["estimate", "--samples", "10", "--out", &path, "--resume"],
        vec!["merge", &path],
    ];
    for s in &sfens {
        cases.push(vec!["perft", "1", s]);
        cases.push(vec!["perft", "--sfen", s, "1"]);
        cases.push(vec!["rank", s]);
        cases.push(vec!["unmoves", s]);
        cases.push(vec!["reach", s]);
        cases.push(vec!["classify", s]);
        cases.push(vec!["mate", s]);
        cases.push(vec!["pass-count", "--json", s]);
    }
    for args in &cases {
        let o = run(args);
        assert!(
            matches!(o.code, Some(1 | 2)),
            "{:?}: {:?}",
            short(&os(args)),
            o.code
        );
        short_error(&o, &format!("{:?}", short(&os(args))));
    }
    // A megabyte on one line of standard input.
    for sfen in [
        format!("{kk} b - 1 {}", "x".repeat(1 << 20)),
        "x".repeat(1 << 20),
    ] {
        for cmd in [
            &["classify"][..],
            &["classify", "--json"],
            &["mate"],
            &["pass-count"],
        ] {
            let o = spawn(&os(cmd), Some(sfen.as_bytes()));
            assert_eq!(o.code, Some(1), "{cmd:?}");
            short_error(&o, &format!("{cmd:?} < 1 MB"));
        }
    }
}
