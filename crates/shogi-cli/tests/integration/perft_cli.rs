//! The `shogi-count perft` contract: the count is the last line of standard output; bad
//! input is a one-line error on standard error and exit status 1, never a panic.

use crate::common;
use common::shogi_count;
use std::process::Output;

fn last_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn perft_prints_the_count_last() {
    let out = shogi_count(&["perft", "--game", "shogi", "3"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "25470");
    let out = shogi_count(&["perft", "--game", "mini", "4"]);
    assert_eq!(last_line(&out), "35401");
    let out = shogi_count(&["perft", "2", "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1"]);
    assert_eq!(last_line(&out), "12632");
    let out = shogi_count(&["perft", "--game", "mini", "2", "rbsgk/4p/5/P4/KGSBR b - 1"]);
    assert_eq!(last_line(&out), "181");
}

/// `--sfen` before the depth, as scripts wrote it before the SFEN was an argument, gives
/// the same output; both at once are a usage error.
#[test]
fn the_sfen_option_is_the_sfen_argument() {
    let sfen = "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1";
    let option = shogi_count(&["perft", "--divide", "--sfen", sfen, "2"]);
    let argument = shogi_count(&["perft", "--divide", "2", sfen]);
    assert!(option.status.success() && argument.status.success());
    assert_eq!(option.stdout, argument.stdout);
    assert_eq!(last_line(&argument), "12632");
    let both = shogi_count(&["perft", "--sfen", sfen, "2", sfen]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
    assert!(both.stdout.is_empty());
}

#[test]
fn divide_lists_each_move_then_the_total() {
    let out = shogi_count(&["perft", "--game", "mini", "--divide", "2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 15, "14 moves and the total");
    let sum: u64 = lines[..14]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 181);
    assert_eq!(*lines.last().unwrap(), "181");
}

#[test]
fn pawn_drop_rule_option_changes_the_count() {
    // Every pawn drop but the mating one stalemates White: legal only under the usual rule.
    let sfen = "8k/9/6NG1/9/9/9/9/9/K8 b P 1";
    let usual = shogi_count(&["perft", "1", sfen]);
    let paper = shogi_count(&["perft", "--pawn-drop", "no-reply", "1", sfen]);
    let (u, p): (u64, u64) = (
        last_line(&usual).parse().unwrap(),
        last_line(&paper).parse().unwrap(),
    );
    assert_eq!(u - p, 68);
}

#[test]
fn malformed_sfen_is_a_clear_error() {
    let out = shogi_count(&["perft", "1", "rbsgk/4p/6/P4/KGSBR b - 1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rank 3") && !err.contains("panicked"), "{err}");
    let out = shogi_count(&["perft", "1", "9/9/9 b - 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 ranks"));
}
