//! The stage verdict of SPEC §5/§7 for one position: the first filter it fails, or the
//! search's verdict.

use crate::search::{SearchOutcome, Searcher, Verdict};
use core::cmp::Ordering;
use shogi_core::{Color, Game, Position, PositionErrors};
use shogi_rank::filters::compare_boards;

/// Where a position stops in the pipeline of SPEC §5 and §7.
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

/// The structural errors that put a position outside every candidate space: a missing or
/// extra king. (Reduced material is fine: the candidate space is the position's own.)
pub fn structural_errors<G: Game>(pos: &Position<G>) -> PositionErrors {
    pos.validate() & (PositionErrors::MISSING_KING | PositionErrors::TOO_MANY_KINGS)
}

/// Runs the filters of SPEC §5 in order (canonical, placement, check), then the search.
/// A position without exactly one king per side is an error, named by the returned flags.
pub fn classify<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
) -> Result<Classification<G>, PositionErrors> {
    let errors = structural_errors(pos);
    if !errors.is_empty() {
        return Err(errors);
    }
    let stage = if pos.side_to_move() == Color::White
        || compare_boards(&pos.hflip(), pos) == Ordering::Less
    {
        Some(Stage::NonCanonical)
    } else if !pos.placement_errors().is_empty() {
        Some(Stage::IllegalPlacement)
    } else if pos.in_check(!pos.side_to_move()) {
        Some(Stage::OpponentInCheck)
    } else {
        None
    };
    Ok(match stage {
        Some(stage) => Classification {
            stage,
            search: None,
        },
        None => {
            let outcome = searcher.search(pos);
            Classification {
                stage: outcome.verdict.into(),
                search: Some(outcome),
            }
        }
    })
}
