//! The [`Unmove`] type: one move taken back, its text form, and undo/redo on a position.

use shogi_core::{Game, IllegalMove, Move, PieceKind, Position, Square};

/// A move taken back: everything needed to turn a position into one of its predecessors.
///
/// The side that made the move is the side *not* to move in the position the unmove is
/// applied to; the captured piece, if any, belongs to the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unmove {
    /// A board move taken back: the piece goes from `to` back to `from`.
    Normal {
        /// The square the piece came from (empty before the unmove).
        from: Square,
        /// The square the piece stands on now.
        to: Square,
        /// The kind of the piece before the move (unpromoted if `promote`).
        piece: PieceKind,
        /// Whether the move promoted the piece.
        promote: bool,
        /// The piece the move captured, as it stood on `to` (promoted or not; never a
        /// king), or `None` when `to` was empty. It goes back from the mover's hand.
        captured: Option<PieceKind>,
    },
    /// A drop taken back: the piece on `to` goes back to the mover's hand.
    Drop {
        /// The dropped kind (unpromoted, never a king).
        kind: PieceKind,
        /// The square it was dropped on.
        to: Square,
    },
}

/// Why an unmove text could not be read (see [`Unmove::from_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnmoveParseError {
    /// The text is empty.
    Empty,
    /// The text contains a non-ASCII character.
    NotAscii,
    /// The moving or dropped piece is not a piece letter (`P L N S G B R K`, upper case,
    /// optionally after `+`), or `+` stands before a kind that cannot promote, or a drop
    /// names a king or a promoted piece.
    BadPiece(String),
    /// A square is missing or off the board.
    BadSquare(String),
    /// Origin and destination are the same square.
    SameSquare,
    /// A promotion of a piece that cannot promote (a promoted piece, gold or king).
    CannotPromote,
    /// The captured piece after `x` is not a piece letter, or is a king.
    BadCapture(String),
    /// Text left over after the unmove.
    Trailing(String),
}

impl core::fmt::Display for UnmoveParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use UnmoveParseError::*;
        match self {
            Empty => write!(f, "empty unmove text"),
            NotAscii => write!(f, "non-ASCII character in unmove text"),
            BadPiece(s) => write!(f, "bad piece {s:?} in unmove text"),
            BadSquare(s) => write!(f, "bad square in unmove text at {s:?}"),
            SameSquare => write!(f, "origin and destination are the same square"),
            CannotPromote => write!(f, "this piece cannot promote"),
            BadCapture(s) => write!(f, "bad captured piece {s:?} (a piece letter, not a king)"),
            Trailing(s) => write!(f, "unexpected text {s:?} after the unmove"),
        }
    }
}

impl std::error::Error for UnmoveParseError {}

/// Writes a kind as upper-case SFEN text (`+B`, `P`).
fn kind_text(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.letter())
    } else {
        kind.letter().to_string()
    }
}

/// Reads an upper-case kind (`P`, `+R`) at the start of `s`; returns it and the rest.
fn read_kind(s: &str) -> Option<(PieceKind, &str)> {
    let (promoted, rest) = match s.strip_prefix('+') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let c = rest.chars().next()?;
    if !c.is_ascii_uppercase() {
        return None;
    }
    let base = PieceKind::from_letter(c)?;
    let kind = if promoted { base.promoted()? } else { base };
    Some((kind, &rest[1..]))
}

impl Unmove {
    /// The forward move: playing it in the predecessor gives the position back.
    #[inline]
    pub fn forward(self) -> Move {
        match self {
            Unmove::Normal {
                from, to, promote, ..
            } => Move::Normal { from, to, promote },
            Unmove::Drop { kind, to } => Move::Drop { kind, to },
        }
    }

    /// The square the moved or dropped piece stands on after the move.
    #[inline]
    pub fn to(self) -> Square {
        match self {
            Unmove::Normal { to, .. } | Unmove::Drop { to, .. } => to,
        }
    }

    /// The unmove of `mv` played in `before`: `Next(before, mv)` undone by it is `before`.
    /// `None` if no piece stands on the origin of a board move; legality is not checked.
    pub fn of_move<G: Game>(before: &Position<G>, mv: Move) -> Option<Unmove> {
        Some(match mv {
            Move::Normal { from, to, promote } => Unmove::Normal {
                from,
                to,
                piece: before.piece_at(from)?.kind,
                promote,
                captured: before.piece_at(to).map(|p| p.kind),
            },
            Move::Drop { kind, to } => Unmove::Drop { kind, to },
        })
    }

    /// The text form: for a board move, the kind before the move (upper case, `+` for a
    /// promoted kind), the forward USI move, and `x` with the captured piece (upper case,
    /// `+` if it was promoted) when there was a capture: `P7g7f`, `B2b9i+`, `+B9i8ixP`,
    /// `R2h2c+x+S`. For a drop, the USI drop: `P*5d`. Colours are implied: the mover is
    /// the side not to move in the position the unmove applies to, the captured piece is
    /// the other side's.
    pub fn to_text<G: Game>(self) -> String {
        match self {
            Unmove::Normal {
                piece, captured, ..
            } => {
                let mut s = kind_text(piece);
                s.push_str(&self.forward().to_usi::<G>());
                if let Some(c) = captured {
                    s.push('x');
                    s.push_str(&kind_text(c));
                }
                s
            }
            Unmove::Drop { .. } => self.forward().to_usi::<G>(),
        }
    }

    /// Reads the text form of [`Unmove::to_text`] for game `G` (syntax only).
    pub fn from_text<G: Game>(text: &str) -> Result<Unmove, UnmoveParseError> {
        use UnmoveParseError as E;
        if text.is_empty() {
            return Err(E::Empty);
        }
        if !text.is_ascii() {
            return Err(E::NotAscii);
        }
        let sq = |s: &str| -> Result<Square, UnmoveParseError> {
            s.get(0..2)
                .and_then(Square::from_usi::<G>)
                .ok_or_else(|| E::BadSquare(s.to_string()))
        };
        if text.as_bytes().get(1) == Some(&b'*') {
            let kind = PieceKind::from_letter(text.as_bytes()[0] as char)
                .filter(|k| *k != PieceKind::King && text.as_bytes()[0].is_ascii_uppercase())
                .ok_or_else(|| E::BadPiece(text[0..1].to_string()))?;
            let to = sq(&text[2..])?;
            if text.len() > 4 {
                return Err(E::Trailing(text[4..].to_string()));
            }
            return Ok(Unmove::Drop { kind, to });
        }
        let (piece, rest) =
            read_kind(text).ok_or_else(|| E::BadPiece(text.chars().take(2).collect()))?;
        let from = sq(rest)?;
        let to = sq(&rest[2..])?;
        if from == to {
            return Err(E::SameSquare);
        }
        let mut rest = &rest[4..];
        let promote = match rest.strip_prefix('+') {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        if promote && !piece.can_promote() {
            return Err(E::CannotPromote);
        }
        let captured = match rest.strip_prefix('x') {
            Some(r) => {
                let (c, r) = read_kind(r)
                    .filter(|(k, _)| *k != PieceKind::King)
                    .ok_or_else(|| E::BadCapture(r.to_string()))?;
                rest = r;
                Some(c)
            }
            None => None,
        };
        if !rest.is_empty() {
            return Err(E::Trailing(rest.to_string()));
        }
        Ok(Unmove::Normal {
            from,
            to,
            piece,
            promote,
            captured,
        })
    }
}

/// Takes `um` back in `pos`: afterwards `pos` is the predecessor, with the other side to
/// move. The Zobrist key stays incremental (equal to `compute_key()`); the move number
/// goes down by one (not below 1).
///
/// `um` must fit the position, as every unmove from [`unmoves`](crate::unmoves) does: the
/// piece of the side not to move stands on its `to` square (promoted if the move promoted),
/// `from` is empty, and a captured piece is in the mover's hand. One that does not fit is
/// an error and leaves `pos` unchanged ([`Position::unplay`] checks it, so a predecessor is
/// always a position).
pub fn undo<G: Game>(pos: &mut Position<G>, um: Unmove) -> Result<(), IllegalMove> {
    // The unmove names the piece as it was before the move; `unplay` reads the board, so
    // check that the two agree.
    if let Unmove::Normal {
        to, piece, promote, ..
    } = um
    {
        let moved = if promote {
            piece.promoted()
        } else {
            Some(piece)
        };
        if moved.is_none() || pos.piece_at(to).map(|p| p.kind) != moved {
            return Err(IllegalMove(um.forward().to_usi::<G>()));
        }
    }
    let captured = match um {
        Unmove::Normal { captured, .. } => captured,
        Unmove::Drop { .. } => None,
    };
    pos.unplay(um.forward(), captured)
}

/// Plays `um` forwards again in the predecessor `pos` (the inverse of [`undo`]): the same
/// as `pos.play_unchecked(um.forward())`.
#[inline]
pub fn redo<G: Game>(pos: &mut Position<G>, um: Unmove) {
    pos.play_unchecked(um.forward());
}

/// The predecessor reached by taking `um` back in `pos` (a copy; `pos` is unchanged), or an
/// error if `um` does not fit `pos` (see [`undo`]).
pub fn predecessor<G: Game>(pos: &Position<G>, um: Unmove) -> Result<Position<G>, IllegalMove> {
    let mut p = pos.clone();
    undo(&mut p, um)?;
    Ok(p)
}
