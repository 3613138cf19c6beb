//! Squares, in the file-major order of docs/METHOD.md §3/§4.1.
//!
//! A square is `(x, y)` as Black sees the board: `x = 0` is the leftmost file (file 9 in
//! Shogi, file 5 in Mini Shogi) and `y = 0` the top rank (rank `a`, White's back rank). Its
//! index is `x * H + y`, so one file occupies consecutive bits of a bitboard and the index
//! order is the square order of the paper and of the authors' ranking code.

use crate::geometry::MAX_SQUARES;
use crate::Game;

/// A square index `x * H + y`. The coordinates depend on the game's board height, so the
/// conversions take the game as a type parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this raw index, if it is below [`MAX_SQUARES`] (the largest board).
    /// Whether it lies on a smaller game's board is [`Square::from_index_in`]'s question.
    #[inline(always)]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < MAX_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of a raw index the caller has checked to be below [`MAX_SQUARES`].
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < MAX_SQUARES);
        Square(index)
    }

    /// The square with this raw index, if it lies on the board of game `G`.
    #[inline(always)]
    pub const fn from_index_in<G: Game>(index: u8) -> Option<Square> {
        if (index as usize) < G::SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at column `x` (0 = leftmost file) and row `y` (0 = top rank), if it lies
    /// on the board of game `G`.
    #[inline(always)]
    pub fn new<G: Game>(x: u8, y: u8) -> Option<Square> {
        if x < G::WIDTH && y < G::HEIGHT {
            Some(Square(x * G::HEIGHT + y))
        } else {
            None
        }
    }

    /// [`Square::new`] for coordinates the caller has already checked.
    #[inline(always)]
    pub(crate) fn at<G: Game>(x: u8, y: u8) -> Square {
        debug_assert!(x < G::WIDTH && y < G::HEIGHT);
        Square(x * G::HEIGHT + y)
    }

    /// The raw index, `x * H + y`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 = leftmost file as Black sees the board.
    #[inline(always)]
    pub fn x<G: Game>(self) -> u8 {
        self.0 / G::HEIGHT
    }

    /// Row, 0 = top rank (rank `a`).
    #[inline(always)]
    pub fn y<G: Game>(self) -> u8 {
        self.0 % G::HEIGHT
    }

    /// The file number used in USI and Japanese notation (`W - x`).
    #[inline(always)]
    pub fn file<G: Game>(self) -> u8 {
        // Saturating: a square off this game's board must not panic (it gives file 0).
        G::WIDTH.saturating_sub(self.x::<G>())
    }

    /// The rank letter used in USI (`'a' + y`).
    #[inline(always)]
    pub fn rank_char<G: Game>(self) -> char {
        (b'a' + self.y::<G>()) as char
    }

    /// The square mirrored left-right (`x -> W-1-x`).
    #[inline(always)]
    pub fn hflip<G: Game>(self) -> Square {
        // Saturating so that a square off this game's board stays a valid square.
        Square::at::<G>((G::WIDTH - 1).saturating_sub(self.x::<G>()), self.y::<G>())
    }

    /// The square rotated by 180 degrees (the same square seen by the other player).
    #[inline(always)]
    pub fn rotate<G: Game>(self) -> Square {
        Square((G::SQUARES - 1).saturating_sub(self.index()) as u8)
    }

    /// Parses a USI square such as `7g` (file digit, rank letter).
    pub fn from_usi<G: Game>(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].checked_sub(b'0')?;
        let y = b[1].checked_sub(b'a')?;
        if file == 0 || file > G::WIDTH || y >= G::HEIGHT {
            return None;
        }
        Square::new::<G>(G::WIDTH - file, y)
    }

    /// Formats the square as USI text, e.g. `7g`.
    pub fn usi<G: Game>(self) -> SquareUsi {
        SquareUsi(self.file::<G>(), self.rank_char::<G>())
    }
}

/// A square printed in USI notation; see [`Square::usi`].
#[derive(Clone, Copy, Debug)]
pub struct SquareUsi(u8, char);

impl core::fmt::Display for SquareUsi {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}
