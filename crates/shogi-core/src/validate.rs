//! Validation: which rules of docs/METHOD.md §2/§5 a position breaks.

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
    /// The piece-placement filter of docs/METHOD.md §5: two pawns or a dead piece.
    pub const PLACEMENT: PositionErrors =
        PositionErrors::TWO_PAWNS.union(PositionErrors::DEAD_PIECE);

    /// The rules no [`Position`] breaks, whatever was relaxed (see [`crate::Relax`]):
    /// everything else in the crate relies on them.
    pub const ESSENTIAL: PositionErrors = PositionErrors::MISSING_KING
        .union(PositionErrors::TOO_MANY_KINGS)
        .union(PositionErrors::TOO_MUCH_MATERIAL);
}

impl core::fmt::Display for PositionErrors {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Written name by name, so that the text needs no allocation.
        let mut names = self.iter().map(|e| match e {
            PositionErrors::MISSING_KING => "a side has no king",
            PositionErrors::TOO_MANY_KINGS => "a side has more than one king",
            PositionErrors::TOO_MUCH_MATERIAL => "more pieces of a kind than the game has",
            PositionErrors::TWO_PAWNS => "two unpromoted pawns of one side on a file",
            PositionErrors::DEAD_PIECE => "a piece that can never move",
            _ => "the side not to move is in check",
        });
        let Some(first) = names.next() else {
            return f.write_str("legal");
        };
        f.write_str(first)?;
        for name in names {
            f.write_str("; ")?;
            f.write_str(name)?;
        }
        Ok(())
    }
}

impl<G: Game> Position<G> {
    /// Every rule the position breaks. A [`Position`] never breaks the
    /// [`PositionErrors::ESSENTIAL`] rules; it can break those its [`crate::Setup`] was
    /// allowed to (two pawns, dead pieces, the side not to move in check).
    pub fn validate(&self) -> PositionErrors {
        let mut e = self.placement_errors() | self.essential_errors();
        if self.in_check(!self.side_to_move()) {
            e |= PositionErrors::OPPONENT_IN_CHECK;
        }
        e
    }

    /// The [`PositionErrors::ESSENTIAL`] rules: one king each, and no kind with more pieces
    /// than the game has. Cheap enough for every unranked sample: no full count of any
    /// bitboard unless a kind may hold eight or more pieces on the board (pawns).
    #[inline]
    pub(crate) fn essential_errors(&self) -> PositionErrors {
        let mut e = PositionErrors::empty();
        for c in Color::ALL {
            let kings = self.pieces(c, PieceKind::King);
            if kings.is_empty() {
                e |= PositionErrors::MISSING_KING;
            } else if kings.more_than_one() {
                e |= PositionErrors::TOO_MANY_KINGS;
            }
        }
        let king_max = G::MATERIAL.get(PieceKind::King) as u32;
        let mut too_much = !self.by_kind(PieceKind::King).has_at_most(king_max);
        for kind in PieceKind::HAND {
            let max = G::MATERIAL.get(kind) as u32;
            let (on_board, held) = self.kind_material(kind);
            too_much |= held > max || !on_board.has_at_most(max - held.min(max));
        }
        if too_much {
            e |= PositionErrors::TOO_MUCH_MATERIAL;
        }
        e
    }

    /// The squares holding `kind` (a hand kind) in either form, and how many of it both
    /// hands hold: what the material rule counts.
    #[inline(always)]
    fn kind_material(&self, kind: PieceKind) -> (crate::Bitboard, u32) {
        let on_board = match kind.promoted() {
            Some(p) => self.by_kind(kind) | self.by_kind(p),
            None => self.by_kind(kind),
        };
        let held =
            self.hand(Color::Black).count(kind) as u32 + self.hand(Color::White).count(kind) as u32;
        (on_board, held)
    }

    /// Whether [`Position::validate`] finds nothing wrong.
    pub fn is_valid(&self) -> bool {
        self.validate().is_empty()
    }

    /// The piece-placement rules only (docs/METHOD.md §5, filter 2): two pawns and dead pieces.
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

/// The sentence naming each problem behind `errors` in `pos`: which side lacks a king or has
/// several, which kinds exceed the game's material and by how much, where the two pawns
/// and the dead pieces are. Only called on the error path.
#[cfg(feature = "std")]
pub(crate) fn describe<G: Game>(pos: &Position<G>, errors: PositionErrors) -> String {
    let t = G::tables();
    let mut parts: Vec<String> = Vec::new();
    for c in Color::ALL {
        let kings = pos.pieces(c, PieceKind::King).count();
        if errors.contains(PositionErrors::MISSING_KING) && kings == 0 {
            parts.push(format!("{c:?} has no king"));
        }
        if errors.contains(PositionErrors::TOO_MANY_KINGS) && kings > 1 {
            parts.push(format!("{c:?} has {kings} kings"));
        }
    }
    if errors.contains(PositionErrors::TOO_MUCH_MATERIAL) {
        for kind in PieceKind::HAND {
            // Counted here in u32: `material()` saturates at 255, and a setup can hold more.
            let (on_board, held) = pos.kind_material(kind);
            let (n, max) = (on_board.count() + held, G::MATERIAL.get(kind) as u32);
            if n > max {
                parts.push(format!(
                    "{n} {}s on the board and in hand, this game has {max}",
                    kind_name(kind)
                ));
            }
        }
    }
    if errors.contains(PositionErrors::TWO_PAWNS) {
        for c in Color::ALL {
            let pawns = pos.pieces(c, PieceKind::Pawn);
            for x in 0..G::WIDTH {
                if (pawns & t.files[x as usize]).more_than_one() {
                    parts.push(format!(
                        "{c:?} has two unpromoted pawns on file {}",
                        G::WIDTH - x
                    ));
                }
            }
        }
    }
    if errors.contains(PositionErrors::DEAD_PIECE) {
        for c in Color::ALL {
            for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
                for sq in pos.pieces(c, kind) & t.dead[c.index()][kind.index()] {
                    parts.push(format!(
                        "{c:?}'s {} on {} can never move",
                        kind_name(kind),
                        sq.usi::<G>()
                    ));
                }
            }
        }
    }
    if errors.contains(PositionErrors::OPPONENT_IN_CHECK) {
        parts.push(format!(
            "{:?}, not to move, is in check",
            !pos.side_to_move()
        ));
    }
    parts.join("; ")
}

#[cfg(feature = "std")]
fn kind_name(kind: PieceKind) -> &'static str {
    match kind.unpromoted() {
        PieceKind::Pawn => "pawn",
        PieceKind::Lance => "lance",
        PieceKind::Knight => "knight",
        PieceKind::Silver => "silver",
        PieceKind::Gold => "gold",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        _ => "king",
    }
}
