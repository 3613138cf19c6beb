//! Exhaustive cross-check of the backward search against a forward breadth-first search, on
//! reduced material (docs/METHOD.md §9, last bullet).
//!
//! For a small material (the two kings and a few other pieces) the set of reachable
//! positions can be computed outright: start from every KK position of that material (both
//! kings on the board, not adjacent, every other piece in either hand in every split, either
//! side to move) and play every legal move until nothing new appears. Moves never change the
//! material (a capture only moves a piece to a hand), so the closure stays inside it.
//!
//! [`cross_check`] then walks the whole candidate space `P_K` of the material rank by rank
//! and demands that the backward search ([`classify`](shogi_reach::classify), or [`Searcher::search`](shogi_reach::Searcher::search) for the
//! positions the mirror filter drops) calls a position reachable exactly when the forward
//! closure holds it, that every certificate replays, and, the other way round, that every
//! K-canonical Black-to-move position of the closure has a rank. Everything runs on one
//! thread in a fixed order, so two runs print the same report (timings aside).
//!
//! Positions are stored as exact keys, not hashes: each non-king piece has a *state* (in
//! Black's or White's hand, or on a square with an owner and a promotion flag), the states of
//! the pieces of one kind are sorted (pieces of a kind are interchangeable), and the key
//! concatenates the side to move, the two king squares and these sorted states. That is an
//! injection from the positions of one material into `u128`; for up to seven non-king pieces
//! in Mini Shogi (five in Shogi) it fits in a `u64`, which the set then uses. The closure of
//! all KK positions is symmetric under the mirror and the colour flip, so it keeps one key
//! per orbit: about a quarter of the positions, and a quarter of the moves to generate.

mod check;
mod codec;
mod forward;
mod keys;
mod kk;
mod report;

pub use check::cross_check;
pub use forward::{
    forward_reachable, forward_reachable_with, kk_positions, ForwardOptions, ReachableSet,
};
pub use kk::{kk_connectivity, KkConnectivity};
pub use report::{CrossCheckOptions, CrossCheckReport, Mismatch, MismatchKind};

use shogi_rank::MaterialError;

/// Why an exhaustive run could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExhaustiveError {
    /// The material is not one of the game (wrong number of kings, too many of a kind).
    Material(MaterialError),
    /// The exact key of a position of this material needs more than 128 bits.
    KeyTooWide {
        /// The bits it would need.
        bits: u32,
    },
    /// `|P_K|` does not fit in a `u64`: far too large to sweep anyway.
    TooManyCandidates,
    /// The forward closure grew past the limit given in [`CrossCheckOptions::max_forward`].
    ForwardLimit {
        /// The limit.
        limit: usize,
    },
}

impl core::fmt::Display for ExhaustiveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ExhaustiveError::Material(e) => write!(f, "{e}"),
            ExhaustiveError::KeyTooWide { bits } => write!(
                f,
                "a position of this material needs a {bits}-bit key; at most 128 are supported"
            ),
            ExhaustiveError::TooManyCandidates => {
                f.write_str("|P_K| of this material does not fit in 64 bits")
            }
            ExhaustiveError::ForwardLimit { limit } => {
                write!(f, "the forward closure has more than {limit} positions")
            }
        }
    }
}

impl std::error::Error for ExhaustiveError {}

impl From<MaterialError> for ExhaustiveError {
    fn from(e: MaterialError) -> Self {
        ExhaustiveError::Material(e)
    }
}
