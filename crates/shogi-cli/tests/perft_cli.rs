//! The `shogi-count perft` contract: the count is the last line of standard output; bad
//! input is a one-line error on standard error and exit status 1, never a panic.

mod common;
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
    let out = shogi_count(&[
        "perft",
        "--sfen",
        "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1",
        "2",
    ]);
    assert_eq!(last_line(&out), "12632");
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
    let usual = shogi_count(&["perft", "--sfen", sfen, "1"]);
    let paper = shogi_count(&["perft", "--sfen", sfen, "--pawn-drop", "no-reply", "1"]);
    let (u, p): (u64, u64) = (
        last_line(&usual).parse().unwrap(),
        last_line(&paper).parse().unwrap(),
    );
    assert_eq!(u - p, 68);
}

#[test]
fn malformed_sfen_is_a_clear_error() {
    let out = shogi_count(&["perft", "--sfen", "rbsgk/4p/6/P4/KGSBR b - 1", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rank 3") && !err.contains("panicked"), "{err}");
    let out = shogi_count(&["perft", "--sfen", "9/9/9 b - 1", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 ranks"));
}
