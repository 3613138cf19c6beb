//! Positions near the material limit against cshogi: full hands, crowded boards with both
//! kings, high-mobility positions, drop-pawn-mates with full hands and the 593-legal-move
//! position
//! (`testdata/perft/crowded.*`, made by `testdata/perft/gen_crowded.py`; see the README
//! there). Every position holds all 40 pieces. The move lists are compared move by move,
//! and perft at every listed depth: the generator lists a depth only up to 5,000,000
//! leaves, so the whole file runs in under a second in the test profile.

use shogi_core::{Position, Shogi};
use shogi_verify::perft_file::{assert_counts, read_suite, read_testdata, PerftCase};
use std::collections::BTreeMap;

fn read(name: &str) -> String {
    read_testdata(name).unwrap_or_else(|e| panic!("{e}"))
}

fn cases() -> Vec<PerftCase> {
    let cases = read_suite("crowded.perft").unwrap_or_else(|e| panic!("{e}"));
    assert!(cases.len() >= 60, "crowded.perft has {} cases", cases.len());
    cases
}

fn parse(case: &PerftCase) -> Position<Shogi> {
    Position::<Shogi>::from_sfen(&case.sfen)
        .unwrap_or_else(|e| panic!("{} rejected: {e}: {}", case.id, case.sfen))
}

/// `crowded.moves`: `<sfen>\t<sorted USI moves>` per line, `#` comment lines.
fn oracle_moves() -> BTreeMap<String, Vec<String>> {
    read("crowded.moves")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (sfen, moves) = line.split_once('\t').unwrap_or((line, ""));
            let mut moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
            moves.sort_unstable();
            (sfen.to_string(), moves)
        })
        .collect()
}

#[test]
fn every_position_holds_the_full_set_and_is_accepted() {
    for case in cases() {
        // board + hands = 2 R, 2 B, 4 G, 4 S, 4 N, 4 L, 18 P and the two kings
        let mut fields = case.sfen.split(' ');
        let (board, _side, hands) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let mut count: BTreeMap<char, u32> = BTreeMap::new();
        for ch in board.chars().filter(|c| c.is_ascii_alphabetic()) {
            *count.entry(ch.to_ascii_uppercase()).or_default() += 1;
        }
        let mut n = 0;
        for ch in hands.chars().filter(|&c| c != '-') {
            match ch.to_digit(10) {
                Some(d) => n = n * 10 + d,
                None => {
                    *count.entry(ch.to_ascii_uppercase()).or_default() += n.max(1);
                    n = 0;
                }
            }
        }
        let full: BTreeMap<char, u32> = [
            ('B', 2),
            ('G', 4),
            ('K', 2),
            ('L', 4),
            ('N', 4),
            ('P', 18),
            ('R', 2),
            ('S', 4),
        ]
        .into();
        assert_eq!(count, full, "{}: {}", case.id, case.sfen);
        parse(&case);
    }
}

#[test]
fn move_lists_equal_cshogi() {
    let oracle = oracle_moves();
    let cases = cases();
    assert_eq!(
        oracle.len(),
        cases.len(),
        "crowded.moves and crowded.perft differ in size"
    );
    let mut max = 0;
    for case in &cases {
        let expected = oracle
            .get(&case.sfen)
            .unwrap_or_else(|| panic!("{} is not in crowded.moves", case.id));
        let pos = parse(case);
        let mut ours: Vec<String> = pos.moves().iter().map(|m| m.to_usi::<Shogi>()).collect();
        ours.sort_unstable();
        if ours != *expected {
            let missing: Vec<_> = expected.iter().filter(|m| !ours.contains(m)).collect();
            let extra: Vec<_> = ours.iter().filter(|m| !expected.contains(m)).collect();
            panic!(
                "{}: {}\n  cshogi only: {missing:?}\n  ours only: {extra:?}",
                case.id, case.sfen
            );
        }
        max = max.max(ours.len());
    }
    assert_eq!(max, 593, "the suite should reach the known maximum");
}

#[test]
fn perft_equals_cshogi() {
    let cases = cases();
    for case in &cases {
        assert!(
            case.counts.len() >= 2,
            "{} lists fewer than 2 depths",
            case.id
        );
        assert_counts(case, &parse(case), u64::MAX);
    }
}
