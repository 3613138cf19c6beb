//! The two players.

use core::ops::Not;

/// A player. Black (sente) moves first and sits at the bottom of the board (large `y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// Sente, the first player; upper-case letters in SFEN.
    Black = 0,
    /// Gote, the second player; lower-case letters in SFEN.
    White = 1,
}

impl Color {
    /// The colour a SFEN piece letter stands for: upper case Black, lower case White.
    #[inline]
    pub(crate) fn of_letter(ch: char) -> Color {
        if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White: the index used in every per-colour table.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with the given index: 0 is Black, 1 is White, anything else is none.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Color> {
        match i {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}
