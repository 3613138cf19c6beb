//! The stage verdict of docs/METHOD.md §5/§7 for one position: the first filter it fails, or the
//! search's verdict.

use crate::search::{SearchOutcome, Searcher, Verdict};
use shogi_core::{Game, Position};
use shogi_rank::filters::{self, FilterOutcome};

/// Where a position stops in the pipeline of docs/METHOD.md §5 and §7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Not canonical: White to move, or the mirror image of the board is smaller
    /// (the mirror filter).
    NonCanonical,
    /// Two unpromoted pawns of a side on a file, or a piece that can never move.
    IllegalPlacement,
    /// The side not to move is in check.
    OpponentInCheck,
    /// The search reached a KK position.
    Reachable,
    /// The search proved that no KK position is reachable backwards.
    Unreachable,
    /// A search limit was hit.
    Unknown,
}

impl Stage {
    /// The name printed by `shogi-count classify`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::NonCanonical => "non-canonical",
            Stage::IllegalPlacement => "illegal-placement",
            Stage::OpponentInCheck => "opponent-in-check",
            Stage::Reachable => "reachable",
            Stage::Unreachable => "unreachable",
            Stage::Unknown => "unknown",
        }
    }

    /// All stages, in pipeline order.
    pub const ALL: [Stage; 6] = [
        Stage::NonCanonical,
        Stage::IllegalPlacement,
        Stage::OpponentInCheck,
        Stage::Reachable,
        Stage::Unreachable,
        Stage::Unknown,
    ];
}

impl From<Verdict> for Stage {
    fn from(v: Verdict) -> Stage {
        match v {
            Verdict::Reachable => Stage::Reachable,
            Verdict::Unreachable => Stage::Unreachable,
            Verdict::Unknown => Stage::Unknown,
        }
    }
}

impl core::fmt::Display for Stage {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position's stage, with the search outcome when it got that far.
#[derive(Clone, Debug)]
pub struct Classification<G: Game> {
    /// Where the position stopped.
    pub stage: Stage,
    /// The search, run exactly when every filter passed.
    pub search: Option<SearchOutcome<G>>,
}

/// Runs the filters of docs/METHOD.md §5 in order (canonical, placement, check: shogi-rank's
/// [`filters::classify`]), then the search if every filter passed.
pub fn classify<G: Game>(searcher: &mut Searcher<G>, pos: &Position<G>) -> Classification<G> {
    finish(searcher, pos, filters::classify(pos))
}

/// [`classify`] without the mirror filter ([`filters::classify_legal`]): for asking whether
/// one particular position is reachable, where canonicity (which of a mirror pair is
/// counted) does not matter. Never [`Stage::NonCanonical`].
pub fn classify_legal<G: Game>(searcher: &mut Searcher<G>, pos: &Position<G>) -> Classification<G> {
    finish(searcher, pos, filters::classify_legal(pos))
}

/// The stage of a filter outcome, with the search run when the filters passed.
fn finish<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
    filtered: FilterOutcome,
) -> Classification<G> {
    let stage = match filtered {
        FilterOutcome::Mirror => Stage::NonCanonical,
        FilterOutcome::Placement => Stage::IllegalPlacement,
        FilterOutcome::Check => Stage::OpponentInCheck,
        FilterOutcome::Pass => {
            let outcome = searcher.search(pos);
            return Classification {
                stage: outcome.verdict.into(),
                search: Some(outcome),
            };
        }
    };
    Classification {
        stage,
        search: None,
    }
}
