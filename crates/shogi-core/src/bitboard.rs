//! A set of squares in a `u128` (81 squares fit; Mini Shogi uses the low 25 bits).

use crate::geometry::MAX_SQUARES;
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
        popcount(self.0)
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

#[cfg(test)]
mod tests {
    use super::popcount;

    /// The portable count equals the library's on every single bit, both halves full and
    /// pseudo-random words (the sum of both halves is the case that could overflow).
    #[test]
    fn popcount_equals_count_ones() {
        let mut words = vec![0u128, u128::MAX, u128::MAX >> 1, 1 << 127];
        words.extend((0..128).map(|i| 1u128 << i));
        let mut state = 0x0123_4567_89AB_CDEFu128;
        for _ in 0..10_000 {
            state = state
                .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
                .wrapping_add(0x5851_F42D_4C95_7F2D_1405_7B7E_F767_814F);
            words.push(state);
            words.push(state & (state >> 3));
        }
        for w in words {
            assert_eq!(popcount(w), w.count_ones(), "{w:#x}");
        }
    }
}

/// The number of set bits of `x`. With a hardware popcount (an opt-in target feature) that
/// instruction; without one (the portable x86-64 baseline) a bit-parallel count that adds
/// the two halves once their 4-bit partial counts fit (at most 4 + 4 per nibble) and so
/// needs one final multiply instead of two: perft counts its last ply with one count per
/// piece and per kind in hand, a quarter of its time in the portable build.
#[inline(always)]
const fn popcount(x: u128) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return x.count_ones();
    }
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const H01: u64 = 0x0101_0101_0101_0101;
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let lo = lo - ((lo >> 1) & M1);
    let hi = hi - ((hi >> 1) & M1);
    let sum = (lo & M2) + ((lo >> 2) & M2) + (hi & M2) + ((hi >> 2) & M2);
    // Each byte now holds at most 16: the sum of all bytes, in the top byte, cannot carry.
    let bytes = (sum & M4) + ((sum >> 4) & M4);
    (bytes.wrapping_mul(H01) >> 56) as u32
}

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
