//! Perft against an independent library on hundreds of varied positions per game
//! (`testdata/perft/`, made with cshogi and Fairy-Stockfish: see the README there).
//! The test runs every depth whose count is small enough for the normal suite;
//! `cargo xtask perft` runs them all.

use shogi_core::AnyPosition;
use shogi_verify::perft_file::{assert_counts, read_suite};

/// Largest leaf count run in the normal test suite.
const TEST_BUDGET: u64 = 2_000_000;

fn check(name: &str, ranks: usize, min_cases: usize) {
    let cases = read_suite(name).unwrap_or_else(|e| panic!("{e}"));
    assert!(cases.len() >= min_cases, "{name} has {} cases", cases.len());
    let mut ran = 0;
    for case in &cases {
        let pos = AnyPosition::from_sfen(&case.sfen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        ran += match &pos {
            AnyPosition::Shogi(p) if ranks == 9 => assert_counts(case, p, TEST_BUDGET),
            AnyPosition::Mini(p) if ranks == 5 => assert_counts(case, p, TEST_BUDGET),
            _ => panic!("{} is not a {ranks}-rank position", case.id),
        };
    }
    assert!(
        ran >= 2 * cases.len(),
        "only {ran} counts were small enough to run"
    );
}

#[test]
fn shogi_perft_equals_cshogi() {
    check("shogi.perft", 9, 200);
}

#[test]
fn mini_perft_equals_fairy_stockfish_with_drop_pawn_mates_removed() {
    check("mini.perft", 5, 200);
}

/// The benchmark suite (`bench.perft`, counted deeper by cshogi and minishogilib): every
/// count within the budget here, all of them in `cargo xtask perft`. Both games are in it.
#[test]
fn bench_suite_perft_equals_the_oracles() {
    let cases = read_suite("bench.perft").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cases.len(), 11, "bench.perft lost or gained a position");
    let mut ran = 0;
    for case in &cases {
        let pos = AnyPosition::from_sfen(&case.sfen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        ran += match &pos {
            AnyPosition::Shogi(p) => assert_counts(case, p, TEST_BUDGET),
            AnyPosition::Mini(p) => assert_counts(case, p, TEST_BUDGET),
        };
    }
    assert!(
        ran >= cases.len(),
        "only {ran} counts were small enough to run"
    );
}

/// The depth-1 move lists themselves, move by move (`*.moves`: SFEN, a tab, the sorted USI
/// moves), so that a mismatch names the move.
fn same_moves(name: &str) {
    let path = format!("{}/../../testdata/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (sfen, moves) = line.split_once('\t').unwrap_or((line, ""));
        let mut expected: Vec<&str> = moves.split_whitespace().collect();
        expected.sort_unstable();
        let mut ours: Vec<String> = match AnyPosition::from_sfen(sfen).unwrap() {
            AnyPosition::Shogi(p) => p
                .moves()
                .iter()
                .map(|m| m.to_usi::<shogi_core::Shogi>())
                .collect(),
            AnyPosition::Mini(p) => p
                .moves()
                .iter()
                .map(|m| m.to_usi::<shogi_core::MiniShogi>())
                .collect(),
        };
        ours.sort_unstable();
        assert_eq!(ours, expected, "moves of {sfen}");
        checked += 1;
    }
    assert!(checked >= 200, "{name}: only {checked} positions");
}

#[test]
fn move_lists_equal_the_oracles() {
    same_moves("shogi.moves");
    same_moves("mini.moves");
}
