//! A set of squares in a `u128` (81 squares fit; Mini Shogi uses the low 25 bits).

use crate::tables::MAX_SQUARES;
use crate::Square;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is the square with index `i` (`x * H + y`).
///
/// `!b` sets bits beyond the board too; mask with the game's board mask where it matters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding just `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is non-empty.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether the set has at most `n` squares. For small `n` this clears the lowest bit
    /// `n` times instead of counting: without a hardware popcount (the portable x86-64
    /// baseline has none) a 128-bit count costs a few dozen instructions, and validating
    /// every unranked sample does this once per kind.
    #[inline(always)]
    pub const fn has_at_most(self, n: u32) -> bool {
        if n >= 8 {
            return self.0.count_ones() <= n;
        }
        let mut b = self.0;
        let mut i = 0;
        while i < n {
            b &= b.wrapping_sub(1);
            i += 1;
        }
        b == 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square, if any. Bits at and above [`MAX_SQUARES`] are no squares and
    /// are ignored (the field is public, so a caller can set them).
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        Square::from_index(self.0.trailing_zeros() as u8)
    }

    /// The set without `sq`.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// The set with `sq`.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        // A bit beyond the largest board is no square (the field is public, so a caller can
        // set one): iteration stops there. The test is one predictable branch; going
        // through `Square::from_index` measured 5% more instructions in perft.
        if i as usize >= MAX_SQUARES {
            self.0 = 0;
            return None;
        }
        Some(Square::from_index_unchecked(i as u8))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.0 & ON_BOARD).count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

/// The bits that are squares of the largest board.
const ON_BOARD: u128 = (1u128 << MAX_SQUARES) - 1;

macro_rules! bit_ops {
    ($($tr:ident $f:ident $tra:ident $fa:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
