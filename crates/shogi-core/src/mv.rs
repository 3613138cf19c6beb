//! Moves and their USI text.

use crate::{Game, PieceKind, Square};

/// A move: a piece moving on the board (optionally promoting), or a drop from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A board move from `from` to `to`, capturing whatever stands on `to`.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes on this move.
        promote: bool,
    },
    /// A drop of a piece of `kind` from the mover's hand onto the empty square `to`.
    Drop {
        /// The dropped kind (unpromoted, never a king).
        kind: PieceKind,
        /// Destination square.
        to: Square,
    },
}

/// A move in USI notation, held on the stack: see [`Move::usi`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveUsi {
    /// ASCII only: a file digit, a rank letter, a piece letter, `*` or `+`.
    bytes: [u8; 5],
    len: u8,
}

impl MoveUsi {
    /// The text, such as `7g7f`.
    pub fn as_str(&self) -> &str {
        // Never empty in fact: only ASCII is written, which is UTF-8.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl core::fmt::Display for MoveUsi {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A USI move that could not be read, or that is not legal in the position it was read for.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiError {
    /// The text is not of the form `7g7f`, `7g7f+` or `P*5d`.
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A well-formed move that is not legal in the position.
    Illegal(String),
}

#[cfg(feature = "std")]
impl core::fmt::Display for UsiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UsiError::Syntax { text, reason } => {
                let text = crate::sfen::quoted(text);
                write!(f, "malformed USI move {text}: {reason}")
            }
            UsiError::Illegal(m) => write!(f, "illegal move {m} in this position"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UsiError {}

/// A move that is not legal in the position it was played in.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub String);

#[cfg(feature = "std")]
impl core::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "illegal move {}", self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IllegalMove {}

impl Move {
    /// The destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The move in USI notation (`7g7f`, `2b9i+`, `P*5d`), on the stack: listing many moves
    /// as text (the Python module's `legal_moves`) then allocates nothing per move.
    ///
    /// ```
    /// use shogi_core::{Move, PieceKind, Shogi, Square};
    /// let drop = Move::Drop { kind: PieceKind::Pawn, to: Square::from_usi::<Shogi>("5d").unwrap() };
    /// assert_eq!(drop.usi::<Shogi>().as_str(), "P*5d");
    /// ```
    pub fn usi<G: Game>(self) -> MoveUsi {
        let square = |s: Square| [b'0' + s.file::<G>(), s.rank_char::<G>() as u8];
        let mut bytes = [0u8; 5];
        let len = match self {
            Move::Normal { from, to, promote } => {
                bytes[..2].copy_from_slice(&square(from));
                bytes[2..4].copy_from_slice(&square(to));
                bytes[4] = b'+';
                if promote {
                    5
                } else {
                    4
                }
            }
            Move::Drop { kind, to } => {
                bytes[0] = kind.letter() as u8;
                bytes[1] = b'*';
                bytes[2..4].copy_from_slice(&square(to));
                4
            }
        };
        MoveUsi { bytes, len }
    }

    /// The move in USI notation (`7g7f`, `2b9i+`, `P*5d`) as a `String`.
    #[cfg(feature = "std")]
    pub fn to_usi<G: Game>(self) -> String {
        self.usi::<G>().as_str().to_owned()
    }

    /// Reads a move in USI notation for game `G` (syntax only; legality needs a position,
    /// see [`Position::play_usi`](crate::Position::play_usi)).
    #[cfg(feature = "std")]
    pub fn from_usi<G: Game>(text: &str) -> Result<Move, UsiError> {
        let err = |reason| UsiError::Syntax {
            text: text.to_string(),
            reason,
        };
        if !text.is_ascii() {
            return Err(err("non-ASCII character"));
        }
        let sq = |s: &str| Square::from_usi::<G>(s);
        match text.len() {
            4 if text.as_bytes()[1] == b'*' => {
                let c = text.as_bytes()[0] as char;
                let kind = PieceKind::from_letter(c)
                    .filter(|k| *k != PieceKind::King && c.is_ascii_uppercase())
                    .ok_or(err("a drop names one of P L N S G B R (upper case)"))?;
                let to = sq(&text[2..4]).ok_or(err("drop square off the board"))?;
                Ok(Move::Drop { kind, to })
            }
            4 | 5 => {
                let from = sq(&text[0..2]).ok_or(err("origin square off the board"))?;
                let to = sq(&text[2..4]).ok_or(err("destination square off the board"))?;
                let promote = match text.as_bytes().get(4) {
                    None => false,
                    Some(b'+') => true,
                    Some(_) => return Err(err("only '+' may follow the squares")),
                };
                if from == to {
                    return Err(err("origin and destination are the same square"));
                }
                Ok(Move::Normal { from, to, promote })
            }
            _ => Err(err("expected 4 or 5 characters")),
        }
    }
}
