//! What the tests of the check share: problems from text, options with a small table, and
//! the report in a form to compare with.

use super::report::{CheckOptions, FlawKind, Problem, Report};
use shogi_core::{Move, Position, Relax, Shogi};

/// The problem `sfen` (the attacker may have no king), with the length declared and the
/// recorded solution in USI, empty for none.
pub(super) fn problem(sfen: &str, declared: Option<u32>, solution: &str) -> Problem<Shogi> {
    let position = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
    let moves: Vec<Move> = solution
        .split_whitespace()
        .map(|m| Move::from_usi::<Shogi>(m).unwrap())
        .collect();
    Problem {
        position,
        declared,
        solution: (!moves.is_empty()).then_some(moves),
    }
}

/// The default options with a table of 16,384 entries: enough for these small problems,
/// and quick to allocate for each test.
pub(super) fn opts() -> CheckOptions {
    let mut o = CheckOptions::default();
    o.mate.table_entries = 1 << 14;
    o
}

/// `moves` in USI.
pub(super) fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_usi::<Shogi>()).collect()
}

/// The report's findings as kind and ply.
pub(super) fn kinds(r: &Report) -> Vec<(FlawKind, u32)> {
    r.flaws.iter().map(|f| (f.kind, f.ply)).collect()
}
