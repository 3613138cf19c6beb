//! SFEN text: `<board> <side> <hands> [<move number>]`, for both games.

use crate::{Color, Game, PieceKind, Position, Square};
#[cfg(feature = "std")]
use crate::{IllegalPosition, MiniShogi, Piece, Relax, Setup, Shogi};
use core::fmt;

/// Why a SFEN string could not be read. Ranks and files are counted as in the text: rank 1
/// is the first rank written (rank `a`), column 1 its first square.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The string is empty or only whitespace.
    Empty,
    /// A required field is missing.
    MissingField(&'static str),
    /// There is text after the move number.
    TrailingText(String),
    /// The board has a number of ranks no supported game has (9 for Shogi, 5 for Mini
    /// Shogi).
    UnsupportedBoard {
        /// Ranks found.
        ranks: usize,
    },
    /// The board has the wrong number of ranks for the game asked for.
    WrongRankCount {
        /// Ranks the game has.
        expected: usize,
        /// Ranks found.
        found: usize,
    },
    /// A rank describes the wrong number of squares.
    RankLength {
        /// The rank (1 = first written).
        rank: usize,
        /// Squares the game has per rank.
        expected: usize,
        /// Squares described.
        found: usize,
    },
    /// A character that is neither a piece letter, a digit 1-9 nor `+`.
    BadBoardChar {
        /// The rank (1 = first written).
        rank: usize,
        /// The character.
        ch: char,
    },
    /// A `+` not followed by a piece letter.
    DanglingPromotion {
        /// The rank (1 = first written).
        rank: usize,
    },
    /// A `+` before a king or gold, which have no promoted form.
    CannotPromote {
        /// The rank (1 = first written).
        rank: usize,
        /// The letter after the `+`.
        piece: char,
    },
    /// The side to move is not `b` or `w`.
    BadSide(String),
    /// A character in the hands field that is not a hand piece letter or a digit.
    BadHandChar {
        /// The character.
        ch: char,
        /// Its byte offset in the hands field.
        at: usize,
    },
    /// A count in the hands field that is zero, too large (over [`MAX_HAND_COUNT`]), or not
    /// followed by a piece letter.
    BadHandCount(String),
    /// A kind listed twice for the same side in the hands field.
    RepeatedHandPiece(char),
    /// The move number is not a non-negative integer.
    BadMoveNumber(String),
    /// Well-formed text describing no position of the game (no king, too many rooks, ...),
    /// or one breaking a rule that was not relaxed.
    Illegal(IllegalPosition),
}

/// Characters of a field of the text shown in an error before it is cut.
#[cfg(feature = "std")]
const SHOWN: usize = 40;

/// `text` quoted as `{:?}` quotes it, cut to its first [`SHOWN`] characters with an
/// ellipsis and its length in bytes when longer (`"abcd…" (1048576 bytes)`): a pasted
/// megabyte must not come back whole in the message.
#[cfg(feature = "std")]
pub(crate) fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_some() {
        format!("{:?} ({} bytes)", format!("{head}…"), text.len())
    } else {
        format!("{text:?}")
    }
}

#[cfg(feature = "std")]
impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SfenError::*;
        match self {
            Empty => write!(f, "empty SFEN"),
            MissingField(what) => write!(f, "SFEN has no {what} field"),
            TrailingText(t) => write!(f, "unexpected text after the move number: {}", quoted(t)),
            UnsupportedBoard { ranks } => write!(
                f,
                "board has {ranks} ranks: expected 9 (Shogi) or 5 (Mini Shogi)"
            ),
            WrongRankCount { expected, found } => {
                write!(f, "board has {found} ranks, this game has {expected}")
            }
            RankLength {
                rank,
                expected,
                found,
            } => write!(
                f,
                "rank {rank} describes {found} squares, this game has {expected}"
            ),
            BadBoardChar { rank, ch } => write!(f, "unexpected character {ch:?} in rank {rank}"),
            DanglingPromotion { rank } => {
                write!(f, "'+' not followed by a piece letter in rank {rank}")
            }
            CannotPromote { rank, piece } => {
                write!(
                    f,
                    "'+{piece}' in rank {rank}: kings and golds do not promote"
                )
            }
            BadSide(s) => write!(f, "side to move must be 'b' or 'w', found {}", quoted(s)),
            BadHandChar { ch, at } => {
                write!(f, "unexpected character {ch:?} at offset {at} of the hands")
            }
            BadHandCount(s) => write!(f, "bad piece count {} in the hands", quoted(s)),
            RepeatedHandPiece(c) => write!(f, "hand piece {c:?} is listed twice"),
            BadMoveNumber(s) => {
                write!(
                    f,
                    "move number must be a non-negative integer, found {}",
                    quoted(s)
                )
            }
            Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SfenError {}

/// Splits a SFEN into its fields, checking their number.
#[cfg(feature = "std")]
fn fields(sfen: &str) -> Result<(&str, &str, &str, Option<&str>), SfenError> {
    let mut it = sfen.split_ascii_whitespace();
    let board = it.next().ok_or(SfenError::Empty)?;
    let side = it.next().ok_or(SfenError::MissingField("side to move"))?;
    let hands = it.next().ok_or(SfenError::MissingField("hands"))?;
    let number = it.next();
    let rest: Vec<&str> = it.collect();
    if !rest.is_empty() {
        return Err(SfenError::TrailingText(rest.join(" ")));
    }
    Ok((board, side, hands, number))
}

/// The number of ranks the board field of a SFEN describes.
#[cfg(feature = "std")]
pub fn sfen_ranks(sfen: &str) -> Result<usize, SfenError> {
    let (board, ..) = fields(sfen)?;
    Ok(board.split('/').count())
}

/// Reads SFEN text into an unchecked position (see [`crate::Setup::from_sfen`]).
#[cfg(feature = "std")]
pub(crate) fn parse<G: Game>(sfen: &str) -> Result<Position<G>, SfenError> {
    let (board, side, hands, number) = fields(sfen)?;
    let mut pos = Position::<G>::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != G::HEIGHT as usize {
        return Err(SfenError::WrongRankCount {
            expected: G::HEIGHT as usize,
            found: ranks.len(),
        });
    }
    let w = G::WIDTH as usize;
    for (y, text) in ranks.iter().enumerate() {
        let rank = y + 1;
        let mut x = 0usize;
        let mut promoted = false;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|&d| d > 0 && !promoted) {
                x += d as usize;
                continue;
            }
            if ch == '+' {
                if promoted {
                    return Err(SfenError::DanglingPromotion { rank });
                }
                promoted = true;
                continue;
            }
            let kind = PieceKind::from_letter(ch).ok_or(if promoted {
                SfenError::DanglingPromotion { rank }
            } else {
                SfenError::BadBoardChar { rank, ch }
            })?;
            let kind = if promoted {
                kind.promoted()
                    .ok_or(SfenError::CannotPromote { rank, piece: ch })?
            } else {
                kind
            };
            promoted = false;
            if x < w {
                let color = Color::of_letter(ch);
                pos.put(Square::at::<G>(x as u8, y as u8), Piece::new(color, kind));
            }
            x += 1;
        }
        if promoted {
            return Err(SfenError::DanglingPromotion { rank });
        }
        if x != w {
            return Err(SfenError::RankLength {
                rank,
                expected: w,
                found: x,
            });
        }
    }
    match side {
        "b" => pos.set_side_to_move(Color::Black),
        "w" => pos.set_side_to_move(Color::White),
        other => return Err(SfenError::BadSide(other.to_string())),
    }
    if hands != "-" {
        parse_hands(&mut pos, hands)?;
    }
    if let Some(n) = number {
        let n: u32 = n
            .parse()
            .map_err(|_| SfenError::BadMoveNumber(n.to_string()))?;
        pos.set_move_number(n);
    }
    Ok(pos)
}

impl<G: Game> Position<G> {
    /// Reads a SFEN of this game and checks that it is a legal position (every rule of
    /// [`crate::PositionErrors`]). Any text is accepted without panicking: malformed text
    /// gives an error saying what and where, a legal-looking text that breaks a rule an
    /// error naming every broken rule.
    #[cfg(feature = "std")]
    pub fn from_sfen(sfen: &str) -> Result<Self, SfenError> {
        Self::from_sfen_with(sfen, Relax::empty())
    }

    /// [`Position::from_sfen`] with some rules relaxed (for example [`Relax::CANDIDATE`] to
    /// read any position of the estimate's candidate space).
    #[cfg(feature = "std")]
    pub fn from_sfen_with(sfen: &str, relax: Relax) -> Result<Self, SfenError> {
        Setup::from_sfen(sfen)?
            .into_position(relax)
            .map_err(SfenError::Illegal)
    }

    /// The SFEN text of the position (hands in the usual order `RBGSNLP`, Black's first).
    #[cfg(feature = "std")]
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        // Writing to a `String` cannot fail.
        let _ = self.write_sfen(&mut s);
        s
    }

    /// Writes the SFEN text of the position, as [`Position::to_sfen`] returns it, with no
    /// allocation (the `Display` of a position, also without `std`).
    pub fn write_sfen<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        for y in 0..G::HEIGHT {
            if y > 0 {
                w.write_char('/')?;
            }
            let mut empty = 0;
            for x in 0..G::WIDTH {
                match self.piece_at(Square::at::<G>(x, y)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(w, "{empty}")?;
                            empty = 0;
                        }
                        write!(w, "{p}")?;
                    }
                }
            }
            if empty > 0 {
                write!(w, "{empty}")?;
            }
        }
        w.write_str(match self.side_to_move() {
            Color::Black => " b ",
            Color::White => " w ",
        })?;
        let mut any = false;
        for c in Color::ALL {
            for kind in HAND_SFEN_ORDER {
                let n = self.hand(c).count(kind);
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    write!(w, "{n}")?;
                }
                let l = kind.letter();
                w.write_char(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                })?;
            }
        }
        if !any {
            w.write_char('-')?;
        }
        write!(w, " {}", self.move_number())
    }
}

/// The largest count of one kind a SFEN hand may give. Far above any real material (the
/// game judges that in validation), and low enough that capturing every piece on the board
/// still fits the `u8` hand counters.
pub const MAX_HAND_COUNT: u32 = 127;

/// The conventional order of hand pieces in SFEN.
const HAND_SFEN_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

#[cfg(feature = "std")]
fn parse_hands<G: Game>(pos: &mut Position<G>, hands: &str) -> Result<(), SfenError> {
    let mut seen = [[false; PieceKind::HAND_COUNT]; 2];
    let mut count: Option<u32> = None;
    let mut count_text = String::new();
    for (at, ch) in hands.char_indices() {
        if let Some(d) = ch.to_digit(10) {
            count_text.push(ch);
            let n = count.unwrap_or(0) * 10 + d;
            if n > MAX_HAND_COUNT || count_text == "0" {
                return Err(SfenError::BadHandCount(count_text));
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_letter(ch)
            .filter(|&k| k != PieceKind::King)
            .ok_or(SfenError::BadHandChar { ch, at })?;
        let color = Color::of_letter(ch);
        if std::mem::replace(&mut seen[color.index()][kind.index()], true) {
            return Err(SfenError::RepeatedHandPiece(ch));
        }
        pos.set_hand(color, kind, count.unwrap_or(1) as u8);
        count = None;
        count_text.clear();
    }
    if count.is_some() {
        return Err(SfenError::BadHandCount(count_text));
    }
    Ok(())
}

/// A position of either supported game, chosen by the number of ranks of a SFEN.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A 9x9 Shogi position.
    Shogi(Position<Shogi>),
    /// A 5x5 Mini Shogi position.
    Mini(Position<MiniShogi>),
}

#[cfg(feature = "std")]
impl AnyPosition {
    /// Reads a SFEN of either game (9 ranks: Shogi; 5 ranks: Mini Shogi) and checks that it
    /// is a legal position, as [`Position::from_sfen`].
    pub fn from_sfen(sfen: &str) -> Result<AnyPosition, SfenError> {
        Self::from_sfen_with(sfen, Relax::empty())
    }

    /// [`AnyPosition::from_sfen`] with some rules relaxed, as [`Position::from_sfen_with`].
    pub fn from_sfen_with(sfen: &str, relax: Relax) -> Result<AnyPosition, SfenError> {
        match sfen_ranks(sfen)? {
            9 => Position::from_sfen_with(sfen, relax).map(AnyPosition::Shogi),
            5 => Position::from_sfen_with(sfen, relax).map(AnyPosition::Mini),
            ranks => Err(SfenError::UnsupportedBoard { ranks }),
        }
    }

    /// The SFEN text.
    pub fn to_sfen(&self) -> String {
        match self {
            AnyPosition::Shogi(p) => p.to_sfen(),
            AnyPosition::Mini(p) => p.to_sfen(),
        }
    }
}
