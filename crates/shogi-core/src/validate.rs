//! Validation: which rules of SPEC §2/§5 a position breaks.

use crate::{Color, Game, PieceKind, Position};
use bitflags::bitflags;

bitflags! {
    /// The rules a position breaks; empty for a legal position. Several can hold at once,
    /// and a caller may ignore some (the pipeline counts them stage by stage).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct PositionErrors: u16 {
        /// A side has no king.
        const MISSING_KING = 1 << 0;
        /// A side has more than one king.
        const TOO_MANY_KINGS = 1 << 1;
        /// More pieces of some kind than the game has (board and hands together).
        const TOO_MUCH_MATERIAL = 1 << 2;
        /// A side has two unpromoted pawns on one file (nifu).
        const TWO_PAWNS = 1 << 3;
        /// An unpromoted pawn or lance on its last rank, or knight on its last two ranks.
        const DEAD_PIECE = 1 << 4;
        /// The side not to move is in check (it could be captured: the last move was
        /// illegal).
        const OPPONENT_IN_CHECK = 1 << 5;
    }
}

impl PositionErrors {
    /// The piece-placement filter of SPEC §5: two pawns or a dead piece.
    pub const PLACEMENT: PositionErrors =
        PositionErrors::TWO_PAWNS.union(PositionErrors::DEAD_PIECE);
}

impl core::fmt::Display for PositionErrors {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let names: Vec<&str> = self
            .iter()
            .map(|e| match e {
                PositionErrors::MISSING_KING => "a side has no king",
                PositionErrors::TOO_MANY_KINGS => "a side has more than one king",
                PositionErrors::TOO_MUCH_MATERIAL => "more pieces of a kind than the game has",
                PositionErrors::TWO_PAWNS => "two unpromoted pawns of one side on a file",
                PositionErrors::DEAD_PIECE => "a piece that can never move",
                _ => "the side not to move is in check",
            })
            .collect();
        if names.is_empty() {
            f.write_str("legal")
        } else {
            f.write_str(&names.join("; "))
        }
    }
}

impl<G: Game> Position<G> {
    /// Every rule the position breaks, against the game's full material.
    pub fn validate(&self) -> PositionErrors {
        let mut e = self.placement_errors();
        for c in Color::ALL {
            match self.pieces(c, PieceKind::King).count() {
                0 => e |= PositionErrors::MISSING_KING,
                1 => {}
                _ => e |= PositionErrors::TOO_MANY_KINGS,
            }
        }
        if !self.material().fits_in(&G::MATERIAL) {
            e |= PositionErrors::TOO_MUCH_MATERIAL;
        }
        if self.in_check(!self.side_to_move()) {
            e |= PositionErrors::OPPONENT_IN_CHECK;
        }
        e
    }

    /// Whether [`Position::validate`] finds nothing wrong.
    pub fn is_valid(&self) -> bool {
        self.validate().is_empty()
    }

    /// The piece-placement rules only (SPEC §5, filter 2): two pawns and dead pieces.
    pub fn placement_errors(&self) -> PositionErrors {
        let t = G::tables();
        let mut e = PositionErrors::empty();
        for c in Color::ALL {
            let pawns = self.pieces(c, PieceKind::Pawn);
            if (0..G::WIDTH as usize).any(|x| (pawns & t.files[x]).more_than_one()) {
                e |= PositionErrors::TWO_PAWNS;
            }
            for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
                if (self.pieces(c, kind) & t.dead[c.index()][kind.index()]).is_nonempty() {
                    e |= PositionErrors::DEAD_PIECE;
                }
            }
        }
        e
    }
}
