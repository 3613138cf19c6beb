//! Setups: positions as written, before the rules are checked, and the one way from a setup
//! to a [`Position`].
//!
//! A [`Position`] is valid by construction: each side has exactly one king (a mate
//! problem's attacker may have none, on request) and no kind has more pieces (board and
//! hands together) than the game has. Move generation, unmoves, ranking and the search
//! rely on that; the move list's capacity ([`crate::MAX_MOVES`]) is proved from it.
//! Anything else (SFEN text, a board filled square by square, an unranked number) is a
//! [`Setup`] first, and [`Setup::into_position`] checks it, reporting every broken rule at
//! once. Three rules may be relaxed on request ([`Relax`]): the candidate space of the
//! estimate contains positions that break them, and the filters count them. A fourth,
//! [`Relax::ATTACKER_WITHOUT_KING`], is for mate problems only.

#[cfg(feature = "std")]
use crate::validate::describe;
use crate::{Color, Game, Hand, Material, Piece, PieceKind, Position, PositionErrors, Square};
use bitflags::bitflags;

bitflags! {
    /// Rules that [`Setup::into_position`] may be asked not to enforce, in the spirit of
    /// shakmaty's `ignore_*` options. The material and the defender's king can never be
    /// relaxed, nor a second king of a side.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Relax: u8 {
        /// Allow two unpromoted pawns of one side on a file.
        const TWO_PAWNS = 1 << 0;
        /// Allow a piece that can never move (a pawn or lance on its last rank, a knight
        /// on its last two ranks).
        const DEAD_PIECES = 1 << 1;
        /// Allow the side not to move to be in check.
        const OPPONENT_IN_CHECK = 1 << 2;
        /// The two piece-placement rules (the estimate's placement filter).
        const PLACEMENT = Self::TWO_PAWNS.bits() | Self::DEAD_PIECES.bits();
        /// Everything that may be relaxed: what remains are the rules of the candidate space
        /// (one king each, no more material than the game has; docs/METHOD.md §4).
        const CANDIDATE = Self::PLACEMENT.bits() | Self::OPPONENT_IN_CHECK.bits();
        /// Allow the side to move to have no king, as mate problems leave out the
        /// attacker's (the side not to move must still have one). Such a position lies
        /// outside every candidate space: the counting crates refuse it. Its side without
        /// a king is never in check and has no pins, and keeps no king after any move.
        const ATTACKER_WITHOUT_KING = 1 << 3;
    }
}

impl Relax {
    /// The [`PositionErrors`] these relaxations let through.
    pub const fn errors(self) -> PositionErrors {
        let mut e = PositionErrors::empty();
        if self.contains(Relax::TWO_PAWNS) {
            e = e.union(PositionErrors::TWO_PAWNS);
        }
        if self.contains(Relax::DEAD_PIECES) {
            e = e.union(PositionErrors::DEAD_PIECE);
        }
        if self.contains(Relax::OPPONENT_IN_CHECK) {
            e = e.union(PositionErrors::OPPONENT_IN_CHECK);
        }
        e
    }
}

/// Why a setup is not a position: every rule it breaks (beyond the relaxed ones), and a
/// sentence naming each problem, such as "Black has no king; 10 rooks, this game has 2".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalPosition {
    errors: PositionErrors,
    #[cfg(feature = "std")]
    reason: String,
}

impl IllegalPosition {
    /// The broken rules.
    pub fn errors(&self) -> PositionErrors {
        self.errors
    }

    /// The sentence naming each problem (the `Display` text).
    #[cfg(feature = "std")]
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl core::fmt::Display for IllegalPosition {
    /// The sentence naming each problem; without `std`, which has the counts and colours,
    /// the broken rules' names.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        #[cfg(feature = "std")]
        return f.write_str(&self.reason);
        #[cfg(not(feature = "std"))]
        return core::fmt::Display::fmt(&self.errors, f);
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IllegalPosition {}

/// A board, two hands, a side to move and a move number, with no rule checked: what SFEN
/// text or a square-by-square construction describes. [`Setup::into_position`] turns it into
/// a [`Position`].
#[derive(Clone, PartialEq, Eq)]
pub struct Setup<G: Game>(
    // A position whose invariants are not yet checked: it shares the representation, so
    // a checked setup becomes a position without copying.
    Position<G>,
);

impl<G: Game> core::fmt::Debug for Setup<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Setup(")?;
        self.0.write_sfen(f)?;
        f.write_str(")")
    }
}

impl<G: Game> Default for Setup<G> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<G: Game> From<Position<G>> for Setup<G> {
    fn from(pos: Position<G>) -> Self {
        Setup(pos)
    }
}

impl<G: Game> Setup<G> {
    /// An empty board, empty hands, Black to move, move number 1.
    pub fn empty() -> Self {
        Setup(Position::empty())
    }

    /// A setup built in one go from a whole board (`board[i]` is the piece on the square of
    /// index `i`, so `board.len()` must be `G::SQUARES`, otherwise `None`), both hands and
    /// the side to move. Faster than square by square when the whole board is at hand.
    pub fn from_board(board: &[Option<Piece>], hands: [Hand; 2], side: Color) -> Option<Self> {
        Position::from_board_unchecked(board, hands, side).map(Setup)
    }

    /// Reads SFEN text of this game. Any text is accepted without panicking; malformed text
    /// gives an error saying what and where. No rule of the game is checked.
    #[cfg(feature = "std")]
    pub fn from_sfen(sfen: &str) -> Result<Self, crate::SfenError> {
        crate::sfen::parse::<G>(sfen).map(Setup)
    }

    /// The SFEN text.
    #[cfg(feature = "std")]
    pub fn to_sfen(&self) -> String {
        self.0.to_sfen()
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.0.piece_at(sq)
    }

    /// The hand of `color`.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> &Hand {
        self.0.hand(color)
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }

    /// The pieces of both sides per basic kind, board and hands together.
    pub fn material(&self) -> Material {
        self.0.material()
    }

    /// Puts `piece` on `sq`, returning what stood there before.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        self.0.put(sq, piece)
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline(always)]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        self.0.take(sq)
    }

    /// Sets the number of `kind` in `color`'s hand (promoted kinds count as their basic
    /// kind; kings cannot be held and are ignored).
    #[inline(always)]
    pub fn set_hand(&mut self, color: Color, kind: PieceKind, count: u8) {
        self.0.set_hand(color, kind, count)
    }

    /// Sets the side to move.
    #[inline(always)]
    pub fn set_side_to_move(&mut self, color: Color) {
        self.0.set_side_to_move(color)
    }

    /// Sets the SFEN move number.
    #[inline(always)]
    pub fn set_move_number(&mut self, n: u32) {
        self.0.set_move_number(n)
    }

    /// Every rule the setup breaks, all at once (empty for a legal position).
    pub fn validate(&self) -> PositionErrors {
        self.0.validate()
    }

    /// The position, if the setup keeps every rule except the relaxed ones. The kings and
    /// the material are always checked; the error names every problem found.
    #[inline(always)]
    pub fn into_position(self, relax: Relax) -> Result<Position<G>, IllegalPosition> {
        let mut errors = self.0.essential_errors();
        if relax.contains(Relax::ATTACKER_WITHOUT_KING)
            && self
                .0
                .pieces(self.0.side_to_move(), PieceKind::King)
                .is_empty()
            && self
                .0
                .pieces(!self.0.side_to_move(), PieceKind::King)
                .count()
                == 1
        {
            errors.remove(PositionErrors::MISSING_KING);
        }
        let strict = !relax.errors();
        if strict.intersects(PositionErrors::PLACEMENT) {
            errors |= self.0.placement_errors();
        }
        if strict.contains(PositionErrors::OPPONENT_IN_CHECK)
            && self.0.in_check(!self.0.side_to_move())
        {
            errors |= PositionErrors::OPPONENT_IN_CHECK;
        }
        errors &= strict;
        if errors.is_empty() {
            Ok(self.0)
        } else {
            Err(IllegalPosition {
                #[cfg(feature = "std")]
                reason: describe(&self.0, errors),
                errors,
            })
        }
    }
}
