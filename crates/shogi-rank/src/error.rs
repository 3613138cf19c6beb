//! Error types.

use shogi_core::{Material, PieceKind};

/// A material that does not describe a candidate space of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaterialError {
    /// The material must have exactly two kings; it has this many.
    Kings(u8),
    /// More pieces of a kind than the game has.
    TooMany {
        /// The kind.
        kind: PieceKind,
        /// The count asked for.
        count: u8,
        /// The game's count.
        max: u8,
    },
}

impl core::fmt::Display for MaterialError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MaterialError::Kings(n) => {
                write!(f, "a material needs exactly 2 kings, this one has {n}")
            }
            MaterialError::TooMany { kind, count, max } => write!(
                f,
                "{count} pieces of kind {} but the game has only {max}",
                kind.letter()
            ),
        }
    }
}

impl std::error::Error for MaterialError {}

/// Why a position has no rank, or a number is not a rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankError {
    /// Only Black-to-move positions are in `P_K`.
    WhiteToMove,
    /// The king placement is not K-canonical: `κ(p) > κ(Hflip(p))` (docs/METHOD.md §3). The mirror
    /// image of the position has a rank.
    NotKCanonical,
    /// The position's material (board and both hands) differs from the table's.
    WrongMaterial {
        /// The material of the rank table.
        expected: Material,
        /// The material of the position.
        found: Material,
    },
    /// The number is not below `|P_K|`.
    OutOfRange {
        /// The number, in decimal.
        rank: String,
        /// `|P_K|`, in decimal.
        count: String,
    },
    /// Unranking built something that is no position. Never returned by a table from
    /// [`crate::RankTable::new`]; it exists so that a bug shows as an error, not as a corrupt
    /// position.
    Illegal(shogi_core::IllegalPosition),
}

/// A number for an error message: whole when short, else its first digits and its length,
/// so that a mistaken number of a million digits does not come back whole.
fn shown(decimal: &str) -> String {
    const SHOWN: usize = 40;
    match decimal.get(..SHOWN) {
        Some(head) if decimal.len() > SHOWN => format!("{head}… ({} digits)", decimal.len()),
        _ => decimal.to_string(),
    }
}

impl core::fmt::Display for RankError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RankError::WhiteToMove => f.write_str(
                "White is to move: only Black-to-move positions have a rank (flip the colours)",
            ),
            RankError::NotKCanonical => f.write_str(
                "the king placement is not K-canonical (docs/METHOD.md §3): rank the left-right mirror image",
            ),
            RankError::WrongMaterial { expected, found } => write!(
                f,
                "the position's material ({found}) differs from the table's ({expected})"
            ),
            RankError::Illegal(e) => write!(f, "unranking gave no position ({e}): a bug"),
            RankError::OutOfRange { rank, count } => {
                write!(
                    f,
                    "{} is not a rank: ranks run from 0 to |P_K| - 1 = {count} - 1",
                    shown(rank)
                )
            }
        }
    }
}

impl std::error::Error for RankError {}
