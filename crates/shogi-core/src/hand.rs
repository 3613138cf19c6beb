//! Pieces in hand.

use crate::PieceKind;

/// The pieces one player holds, a count per hand kind (indexed by [`PieceKind::index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand(pub [u8; PieceKind::HAND_COUNT]);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand([0; PieceKind::HAND_COUNT]);

    /// How many pieces of `kind` (a hand kind) are held; 0 for kinds that cannot be held.
    #[inline(always)]
    pub fn count(&self, kind: PieceKind) -> u8 {
        self.0.get(kind.index()).copied().unwrap_or(0)
    }

    /// Whether no piece is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Total number of pieces held.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// The kinds held at least once, in [`PieceKind::HAND`] order.
    #[inline]
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        PieceKind::HAND
            .into_iter()
            .filter(move |k| self.0[k.index()] > 0)
    }
}
