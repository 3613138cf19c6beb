//! One convention for exit codes across the commands (README.md, `shogi-count --help`):
//! a value the command line cannot take is a usage error, exit code 2, refused before
//! anything runs; what is found wrong later (a bad position, an unreadable or corrupt
//! file, a rank past the last) is an error, exit code 1. Either way the message is on
//! standard error and nothing is on standard output.

use crate::common;
use common::shogi_count;

const KK_SHOGI: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";

/// Runs `args` and checks the exit code, an empty standard output, and standard error
/// holding every needle; returns standard error.
fn exits(code: i32, args: &[&str], needles: &[&str]) -> String {
    let out = shogi_count(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed something");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: no `{n}` in {err}");
    }
    err
}

#[test]
fn invalid_values_on_the_command_line_are_usage_errors() {
    let mini = ["estimate", "--game", "mini", "-q"];
    let est = |extra: &[&str], needles: &[&str]| {
        exits(2, &[&mini[..], extra].concat(), needles);
    };
    // Thread counts: 0 is refused by the value parser, as a sample count of 0 is.
    est(
        &["--threads", "0"],
        &["--threads", "a thread count is 1 or more"],
    );
    est(&["--threads", "-2"], &["--threads", "1 or more"]);
    est(&["--threads", "two"], &["--threads", "not a whole number"]);
    exits(2, &["mate", "--threads", "0", KK_SHOGI], &["--threads"]);
    exits(
        2,
        &["pass-count", "--threads", "-1", KK_SHOGI],
        &["--threads"],
    );
    // Counts: each message says what is accepted.
    est(&["--samples", "0"], &["--samples", "at least 1"]);
    let err = exits(2, &[&mini[..], &["--samples", "-5"]].concat(), &[]);
    assert!(err.contains("a sample count is 1 or more"), "{err}");
    assert!(!err.contains("0 or more"), "{err}");
    est(
        &["--max-expanded", "-1"],
        &["--max-expanded", "a count is 0 or more"],
    );
    est(
        &["--max-nodes", "1.5"],
        &["--max-nodes", "not a whole number"],
    );
    exits(2, &["mate", "--nodes", "-1", KK_SHOGI], &["-1"]);
    exits(2, &["mate", "--nodes", "ten", KK_SHOGI], &["--nodes"]);
    exits(
        2,
        &["classify", "--max-expanded", "x", KK_SHOGI],
        &["--max-expanded"],
    );
    // Shards, rates, precision targets, depths, tables, weights, ranks.
    est(&["--shard", "4/4"], &["0 to 3"]);
    est(&["--shard", "1"], &["K/N"]);
    est(&["--phase2-rate", "0"], &["--phase2-rate"]);
    est(&["--phase2-rate", "1.5"], &["--phase2-rate"]);
    est(&["--target-half-width", "2"], &["(0, 1)"]);
    est(&["--target-digits", "0"], &["--target-digits"]);
    exits(2, &["perft", "21"], &["0..=20"]);
    exits(2, &["perft", "--game", "mini", "-1"], &[]);
    exits(2, &["mate", "--table-mb", "0", KK_SHOGI], &["--table-mb"]);
    exits(2, &["reach", "--weights", "1,2", KK_SHOGI], &["A,B,C"]);
    exits(
        2,
        &["unrank", "abc"],
        &["not a non-negative decimal integer"],
    );
    exits(
        2,
        &["unrank", "-5"],
        &["not a non-negative decimal integer"],
    );
    exits(2, &["count", "--space", "everything"], &["--space"]);
    // Options that do not exist, or a missing argument.
    exits(2, &["perft"], &["<DEPTH>"]);
    exits(2, &["classify", "--bogus"], &["--bogus"]);
    exits(2, &["estimate", "--resume"], &["--out"]);
}

#[test]
fn errors_found_later_exit_1() {
    exits(1, &["perft", "1", "not a sfen"], &["shogi-count: "]);
    exits(1, &["perft", "--game", "mini", "1", KK_SHOGI], &["9 ranks"]);
    exits(1, &["rank", "4k/5/5/5/K4 b 4G 1"], &["4 golds"]);
    exits(1, &["unmoves", "9/9/9 b - 1"], &["ranks"]);
    exits(1, &["reach", "9/9/9 b - 1"], &["ranks"]);
    // A whole number, but past the last rank of Mini Shogi's candidate space.
    exits(
        1,
        &["unrank", "--game", "mini", "16014219505238849250"],
        &["rank"],
    );
    let missing = std::env::temp_dir().join("shogi-exit-codes-no-such-file.json");
    exits(1, &["merge", missing.to_str().unwrap()], &["no-such-file"]);
}
