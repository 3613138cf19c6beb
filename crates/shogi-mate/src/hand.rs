//! Hands packed into one `u32`, so that superiority ("this hand contains that one") is a
//! subtraction and a mask test.

use shogi_core::{Hand, PieceKind};

/// Bit offset of each hand kind's field, in [`PieceKind::HAND`] order (P L N S G B R).
const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 22, 25];
/// Width of each field without its guard bit: room for 18 pawns, 4 lances, knights,
/// silvers and golds, 2 bishops and rooks (and anything a smaller game has).
const WIDTH: [u32; 7] = [5, 3, 3, 3, 3, 2, 2];
/// The guard bit above every field. Fields never use it, so a subtraction that borrows
/// shows in it and in no other field.
const GUARD: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 27);

/// The most pieces of one kind a field holds.
const fn max_count(i: usize) -> u32 {
    (1 << WIDTH[i]) - 1
}

/// A hand as seven bit fields with a zero guard bit above each.
///
/// Hands are multisets; `a.contains(b)` (every count of `a` at least that of `b`) is the
/// partial order of superiority between positions (docs/METHOD.md §12): computed as
/// `((a | GUARD) - b) & GUARD == GUARD`, since each field of `a` with its guard set is at
/// least any field of `b`, no borrow leaves a field, and the guard stays set exactly where
/// `a`'s count is at least `b`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedHand(u32);

impl PackedHand {
    /// The empty hand.
    pub const EMPTY: PackedHand = PackedHand(0);

    /// Packs a hand. Counts above a field's room (more than any game has) are clipped;
    /// positions never hold them.
    #[inline]
    pub fn new(hand: &Hand) -> PackedHand {
        let mut bits = 0;
        for (i, &n) in hand.0.iter().enumerate() {
            bits |= (n as u32).min(max_count(i)) << SHIFT[i];
        }
        PackedHand(bits)
    }

    /// The hand whose raw bits are `bits` (as [`PackedHand::bits`] gave them).
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u32) -> PackedHand {
        PackedHand(bits)
    }

    /// The raw bits (the fields, guard bits clear).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The count of a hand kind (0 for kinds that are never held).
    #[inline(always)]
    pub fn count(self, kind: PieceKind) -> u32 {
        let i = kind.index();
        if i >= SHIFT.len() {
            return 0;
        }
        (self.0 >> SHIFT[i]) & max_count(i)
    }

    /// The hand with the count of `kind` set to `n` (clipped to the field).
    #[inline]
    pub fn with(self, kind: PieceKind, n: u32) -> PackedHand {
        let i = kind.index();
        if i >= SHIFT.len() {
            return self;
        }
        let mask = max_count(i) << SHIFT[i];
        PackedHand((self.0 & !mask) | (n.min(max_count(i)) << SHIFT[i]))
    }

    /// One more piece of `kind`.
    #[inline]
    pub fn plus_one(self, kind: PieceKind) -> PackedHand {
        self.with(kind, self.count(kind) + 1)
    }

    /// One piece of `kind` fewer, or the same hand if it holds none.
    #[inline]
    pub fn minus_one(self, kind: PieceKind) -> PackedHand {
        self.with(kind, self.count(kind).saturating_sub(1))
    }

    /// Whether every count of `self` is at least that of `other` (`self ⊇ other`).
    #[inline(always)]
    pub const fn contains(self, other: PackedHand) -> bool {
        ((self.0 | GUARD).wrapping_sub(other.0)) & GUARD == GUARD
    }

    /// The kind-by-kind maximum.
    #[inline]
    pub fn union(self, other: PackedHand) -> PackedHand {
        let mut r = PackedHand::EMPTY;
        for kind in PieceKind::HAND {
            r = r.with(kind, self.count(kind).max(other.count(kind)));
        }
        r
    }

    /// The kind-by-kind minimum.
    #[inline]
    pub fn intersection(self, other: PackedHand) -> PackedHand {
        let mut r = PackedHand::EMPTY;
        for kind in PieceKind::HAND {
            r = r.with(kind, self.count(kind).min(other.count(kind)));
        }
        r
    }

    /// The number of pieces.
    #[inline]
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// Back to a [`Hand`].
    pub fn to_hand(self) -> Hand {
        let mut h = Hand::EMPTY;
        for kind in PieceKind::HAND {
            h.0[kind.index()] = self.count(kind) as u8;
        }
        h
    }
}

impl core::fmt::Display for PackedHand {
    /// SFEN-style upper-case letters with counts (`G`, `R2P`), `-` when empty.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for kind in PieceKind::HAND.iter().rev() {
            match self.count(*kind) {
                0 => {}
                1 => write!(f, "{}", kind.letter())?,
                n => write!(f, "{n}{}", kind.letter())?,
            }
        }
        Ok(())
    }
}

/// A packed hand of counts in [`PieceKind::HAND`] order, for the unit tests.
#[cfg(test)]
pub(crate) fn packed(counts: [u8; 7]) -> PackedHand {
    PackedHand::new(&Hand(counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::packed as hand;

    #[test]
    fn fields_round_trip_at_their_limits() {
        let full = Hand([18, 4, 4, 4, 4, 2, 2]);
        assert_eq!(PackedHand::new(&full).to_hand(), full);
        assert_eq!(PackedHand::new(&full).total(), 38);
        assert_eq!(PackedHand::new(&full).bits() & GUARD, 0);
        for kind in PieceKind::HAND {
            let one = PackedHand::EMPTY.plus_one(kind);
            assert_eq!(one.count(kind), 1);
            assert_eq!(one.total(), 1);
            assert_eq!(one.minus_one(kind), PackedHand::EMPTY);
        }
        assert_eq!(
            PackedHand::EMPTY.minus_one(PieceKind::Rook),
            PackedHand::EMPTY
        );
    }

    /// `contains` agrees with the kind-by-kind comparison on every pair of small hands
    /// that differ in two kinds, at every field's top count (where a borrow would show).
    #[test]
    fn contains_is_the_kindwise_order() {
        let tops = [18u8, 4, 4, 4, 4, 2, 2];
        for i in 0..7 {
            for j in 0..7 {
                for a in [0, 1, tops[i]] {
                    for b in [0, 1, tops[i]] {
                        for c in [0, tops[j]] {
                            let mut x = [0u8; 7];
                            let mut y = [0u8; 7];
                            x[i] = a;
                            y[i] = b;
                            y[j] = y[j].max(c);
                            let naive = (0..7).all(|k| x[k] >= y[k]);
                            assert_eq!(hand(x).contains(hand(y)), naive, "{x:?} ⊇ {y:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn union_and_intersection_are_kindwise() {
        let a = hand([3, 0, 1, 0, 2, 1, 0]);
        let b = hand([1, 2, 1, 0, 0, 2, 1]);
        assert_eq!(a.union(b), hand([3, 2, 1, 0, 2, 2, 1]));
        assert_eq!(a.intersection(b), hand([1, 0, 1, 0, 0, 1, 0]));
        assert!(a.union(b).contains(a) && a.contains(a.intersection(b)));
        assert_eq!(format!("{}", hand([2, 0, 0, 0, 1, 0, 1])), "RG2P");
    }
}
