//! Standard output that goes away (`shogi-count perft --divide 5 | head -1`): every command
//! stops quietly with exit code 141 (128 + SIGPIPE), never a panic (101) nor an error
//! message; and an output that fails otherwise (a full disk) is an error with exit code 1.
//!
//! Each run must hit the closed pipe, so exit code 141 is required, not merely allowed:
//! a command that wrote without the pipe-aware writer would panic instead.

use crate::common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const KK_SHOGI: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
const KK_MINI: &str = "4k/5/5/5/K4 b - 1";
const MINI_MATE1: &str = "2k2/5/2G2/5/4K b G 1";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

/// A fresh path in the temporary directory.
fn temp(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "shogi-pipes-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Starts the binary with `args`, `stdout` as its standard output, standard error to a
/// file (returned), and `stdin` written from another thread (a write error only means the
/// child stopped reading).
fn start(args: &[&str], stdout: Stdio, stdin: Option<Vec<u8>>) -> (Child, PathBuf) {
    let err = temp("err");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(stdout)
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("the binary runs");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("piped");
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    (child, err)
}

/// Waits for `child` and checks the quiet stop: exit code 141, and nothing on standard
/// error about the pipe or a panic.
fn stopped_quietly(mut child: Child, err: PathBuf, args: &[&str]) {
    let status = common::wait_or_fail(&mut child, &format!("{args:?}"));
    let stderr = std::fs::read_to_string(&err).unwrap_or_default();
    let _ = std::fs::remove_file(&err);
    assert_ne!(status.code(), Some(101), "{args:?} panicked: {stderr}");
    assert_eq!(status.code(), Some(141), "{args:?}: {status}\n{stderr}");
    for bad in ["panicked", "Broken pipe", "writing the output"] {
        assert!(!stderr.contains(bad), "{args:?}: {stderr}");
    }
}

/// Runs `args` with a standard output whose reader is gone before the command starts:
/// its first write meets the closed pipe.
fn reader_gone(args: &[&str], stdin: Option<Vec<u8>>) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let (child, err) = start(args, writer.into(), stdin);
    stopped_quietly(child, err, args);
}

/// Runs `args`, reads one byte of its output and closes the pipe: `args` must write far
/// more than a pipe holds (64 KiB), so the command is still writing when the reader goes.
fn reader_leaves(args: &[&str], stdin: Option<Vec<u8>>) {
    let (mut child, err) = start(args, Stdio::piped(), stdin);
    let mut out = child.stdout.take().expect("piped");
    let mut byte = [0u8; 1];
    assert_eq!(
        out.read(&mut byte).expect("reading"),
        1,
        "{args:?}: no output"
    );
    drop(out);
    stopped_quietly(child, err, args);
}

/// A finished estimate's state file, for `merge`.
fn state_file() -> PathBuf {
    let path = temp("state.json");
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args([
            "estimate",
            "--game",
            "mini",
            "--samples",
            "2000",
            "-q",
            "--out",
        ])
        .arg(&path)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// `n` lines of `line`, as standard input.
fn lines(line: &str, n: usize) -> Vec<u8> {
    format!("{line}\n").repeat(n).into_bytes()
}

#[test]
fn every_command_stops_quietly_when_the_reader_is_gone() {
    let state = state_file();
    let state = state.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["perft", "--divide", "3"],
        vec!["perft", "--game", "mini", "3"],
        vec!["count", "--game", "mini"],
        vec!["rank", "1R3/3g+R/k+Sg2/3B+B/K2+s+p b p 1"],
        vec!["unrank", "--game", "mini", "0"],
        vec!["unmoves", "--moves", AFTER_7G7F],
        vec!["reach", KK_MINI],
        vec!["classify", KK_SHOGI, KK_MINI],
        vec!["classify", "--json", KK_SHOGI],
        vec!["mate", "--table-mb", "1", MINI_MATE1],
        vec!["pass-count", "--json", "--table-mb", "1", MINI_MATE1],
        vec!["estimate", "--game", "mini", "--samples", "2e4", "-q"],
        vec![
            "estimate",
            "--game",
            "mini",
            "--samples",
            "2e4",
            "-q",
            "--json",
        ],
        vec!["merge", state],
        vec!["merge", "--json", state],
        vec!["sample", "--game", "mini", "--samples", "2000"],
        vec!["sample", "--game", "mini", "--samples", "2000", "--json"],
    ];
    for args in &cases {
        reader_gone(args, None);
    }
    // Positions from standard input.
    reader_gone(&["classify"], Some(lines(KK_SHOGI, 100)));
    reader_gone(&["mate", "--table-mb", "1"], Some(lines(MINI_MATE1, 100)));
    let _ = std::fs::remove_file(state);
}

#[test]
fn streaming_commands_stop_quietly_when_the_reader_leaves() {
    // 20,000 lines of about 40 bytes: far more than a pipe holds.
    reader_leaves(&["classify"], Some(lines(KK_SHOGI, 20_000)));
    reader_leaves(&["classify", "--json"], Some(lines(KK_MINI, 20_000)));
    reader_leaves(
        &["mate", "--table-mb", "1", "--threads", "2"],
        Some(lines(MINI_MATE1, 5_000)),
    );
    reader_leaves(
        &["pass-count", "--table-mb", "1"],
        Some(lines(MINI_MATE1, 5_000)),
    );
    reader_leaves(&["sample", "--game", "mini", "--samples", "1e5"], None);
}

/// A write error other than a closed pipe is an error: exit code 1 and a message.
#[test]
fn a_full_disk_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &["perft", "--divide", "2"][..],
        &["perft", "2"],
        &["count", "--game", "mini"],
        &["unrank", "0"],
        &["unmoves", AFTER_7G7F],
        &["reach", KK_MINI],
        &["classify", KK_SHOGI],
        &["mate", "--table-mb", "1", MINI_MATE1],
        &["estimate", "--game", "mini", "--samples", "1000", "-q"],
        &["sample", "--game", "mini", "--samples", "1000"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("shogi-count: writing the output: ") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// Issue 35, D1: a standard error whose reader is gone (as in
/// `shogi-count perft 5 2>&1 >out.txt | (exec 0<&-; sleep 1)`) made every note on it a
/// panic, exit code 101. A
/// closed standard error now loses only the notes: the results still reach standard
/// output, and the exit code is 141 as for a closed standard output.
#[test]
fn a_closed_standard_error_loses_only_the_notes() {
    // Each writes to standard error: a note, a count, or an invalid input's reason.
    let cases: [(&[&str], &str); 6] = [
        (&["perft", "--game", "mini", "3"], "2512"),
        (&["unmoves", AFTER_7G7F], "lnsgkgsnl"),
        (&["classify", KK_MINI], "4k/5/5/5/K4 b - 1"),
        (&["reach", KK_MINI, "--max-expanded", "1e3"], "4k/5/5/5/K4"),
        (&["classify", "not a position"], "invalid 0 not a position"),
        (
            &["mate", "--table-mb", "1", MINI_MATE1, "4k/5/5/5/K4 x - 1"],
            "mate 1 ",
        ),
    ];
    for (args, expected) in cases {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = temp("out");
        let status = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
            .args(args)
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(writer)
            .status()
            .expect("the binary runs");
        let printed = std::fs::read_to_string(&out).unwrap_or_default();
        let _ = std::fs::remove_file(&out);
        assert_ne!(status.code(), Some(101), "{args:?} panicked");
        assert!(printed.contains(expected), "{args:?}: {printed}");
        // An invalid input is still an error; otherwise the reader's leaving is reported.
        let invalid = args.contains(&"not a position") || args[0] == "mate";
        let code = if invalid { 1 } else { 141 };
        assert_eq!(status.code(), Some(code), "{args:?}: {printed}");
    }
}
