//! A fixed-width 256-bit unsigned integer: enough for every rank of every material that
//! fits in 9x9 Shogi (`|P_K| < 2^237`), with no allocation on the hot path.

use core::cmp::Ordering;
use num_bigint::BigUint;

/// An unsigned 256-bit integer, `hi * 2^128 + lo`.
///
/// Only the few operations the ranking needs: comparison, addition, subtraction,
/// multiplication and division by a `u128`, and conversions to and from [`BigUint`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U256 {
    hi: u128,
    lo: u128,
}

impl Ord for U256 {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (self.hi, self.lo).cmp(&(other.hi, other.lo))
    }
}

impl PartialOrd for U256 {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<u128> for U256 {
    #[inline]
    fn from(v: u128) -> U256 {
        U256 { hi: 0, lo: v }
    }
}

impl From<u64> for U256 {
    #[inline]
    fn from(v: u64) -> U256 {
        U256 {
            hi: 0,
            lo: v as u128,
        }
    }
}

/// The full 256-bit product of two `u128`s, as `(hi, lo)`.
#[inline]
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    const M: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & M);
    let (b1, b0) = (b >> 64, b & M);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    // middle = p01 + p10 + (p00 >> 64), may carry into bit 128
    let (mid, c1) = p01.overflowing_add(p10);
    let (mid, c2) = mid.overflowing_add(p00 >> 64);
    let carry = (c1 as u128 + c2 as u128) << 64;
    let lo = (mid << 64) | (p00 & M);
    let hi = p11 + (mid >> 64) + carry;
    (hi, lo)
}

/// Divides the 256-bit number `u1 * 2^128 + u0` by `v`, which must be greater than `u1`:
/// returns the 128-bit quotient and the remainder (Hacker's Delight, `divlu`, with
/// 64-bit half-words).
#[inline]
fn div_256_by_128(u1: u128, u0: u128, v: u128) -> (u128, u128) {
    debug_assert!(u1 < v);
    const B: u128 = 1 << 64;
    const M: u128 = u64::MAX as u128;
    let s = v.leading_zeros();
    let v = v << s;
    let (vn1, vn0) = (v >> 64, v & M);
    let un32 = if s == 0 {
        u1
    } else {
        (u1 << s) | (u0 >> (128 - s))
    };
    let un10 = u0 << s;
    let (un1, un0) = (un10 >> 64, un10 & M);

    let mut q1 = un32 / vn1;
    let mut rhat = un32 - q1 * vn1;
    while q1 >= B || q1 * vn0 > B * rhat + un1 {
        q1 -= 1;
        rhat += vn1;
        if rhat >= B {
            break;
        }
    }
    let un21 = un32
        .wrapping_mul(B)
        .wrapping_add(un1)
        .wrapping_sub(q1.wrapping_mul(v));

    let mut q0 = un21 / vn1;
    let mut rhat = un21 - q0 * vn1;
    while q0 >= B || q0 * vn0 > B * rhat + un0 {
        q0 -= 1;
        rhat += vn1;
        if rhat >= B {
            break;
        }
    }
    let r = un21
        .wrapping_mul(B)
        .wrapping_add(un0)
        .wrapping_sub(q0.wrapping_mul(v))
        >> s;
    ((q1 << 64) | q0, r)
}

/// A divisor `1 <= d < 2^64` prepared for fast division: the hardware divides 128 by 64
/// bits only through a library call (tens of cycles each, one per limb), so the digits of a
/// rank are divided out with two multiplications per limb instead (Möller and Granlund,
/// "Improved division by invariant integers", IEEE Trans. Computers 60(2), 2011,
/// algorithm 4). Built once per radix, when the rank table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Divisor64 {
    /// `d << shift`, whose top bit is set.
    norm: u64,
    /// `floor((2^128 - 1) / norm) - 2^64`.
    recip: u64,
    shift: u32,
}

impl Divisor64 {
    /// The prepared divisor `d`, which must be at least 1.
    pub(crate) const fn new(d: u64) -> Divisor64 {
        assert!(d != 0, "division by zero");
        let shift = d.leading_zeros();
        let norm = d << shift;
        // norm >= 2^63, so the quotient lies in [2^64, 2^65): the subtraction keeps 64 bits.
        let recip = (u128::MAX / norm as u128 - (1u128 << 64)) as u64;
        Divisor64 { norm, recip, shift }
    }

    /// The divisor.
    #[inline(always)]
    pub(crate) const fn get(self) -> u64 {
        self.norm >> self.shift
    }

    /// Divides `u1 * 2^64 + u0` by `norm`, for `u1 < norm`: the quotient (one limb) and the
    /// remainder. The first correction is unpredictable and is done with masks; the second
    /// is rare.
    #[inline(always)]
    fn div_2by1(self, u1: u64, u0: u64) -> (u64, u64) {
        let d = self.norm;
        let q = (self.recip as u128 * u1 as u128).wrapping_add((u1 as u128) << 64 | u0 as u128);
        let q0 = q as u64;
        let mut q1 = ((q >> 64) as u64).wrapping_add(1);
        let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
        let over = ((r > q0) as u64).wrapping_neg();
        q1 = q1.wrapping_add(over);
        r = r.wrapping_add(d & over);
        if r >= d {
            q1 += 1;
            r -= d;
        }
        (q1, r)
    }

    /// Quotient and remainder of a number given as four limbs, least significant first.
    #[inline(always)]
    fn div_rem_limbs(self, l: [u64; 4]) -> ([u64; 4], u64) {
        let s = self.shift;
        // Only the limbs up to the highest non-zero one take part.
        let mut top = 3;
        while top > 0 && l[top] == 0 {
            top -= 1;
        }
        // The dividend shifted left by `s`, limb by limb; `(x >> 1) >> (63 - s)` is
        // `x >> (64 - s)` without the undefined shift by 64 when `s = 0`.
        let mut r = (l[top] >> 1) >> (63 - s);
        let mut q = [0u64; 4];
        let mut j = top + 1;
        while j > 0 {
            j -= 1;
            let below = if j > 0 {
                (l[j - 1] >> 1) >> (63 - s)
            } else {
                0
            };
            (q[j], r) = self.div_2by1(r, (l[j] << s) | below);
        }
        (q, r >> s)
    }
}

impl U256 {
    /// Zero.
    pub const ZERO: U256 = U256 { hi: 0, lo: 0 };
    /// One.
    pub const ONE: U256 = U256 { hi: 0, lo: 1 };

    /// The number from four 64-bit limbs, least significant first.
    #[inline]
    pub const fn from_limbs(l: [u64; 4]) -> U256 {
        U256 {
            lo: l[0] as u128 | (l[1] as u128) << 64,
            hi: l[2] as u128 | (l[3] as u128) << 64,
        }
    }

    /// The four 64-bit limbs, least significant first.
    #[inline]
    pub const fn to_limbs(self) -> [u64; 4] {
        [
            self.lo as u64,
            (self.lo >> 64) as u64,
            self.hi as u64,
            (self.hi >> 64) as u64,
        ]
    }

    /// The value if it fits in a `u128`.
    #[inline]
    pub const fn to_u128(self) -> Option<u128> {
        if self.hi == 0 {
            Some(self.lo)
        } else {
            None
        }
    }

    /// Number of significant bits (0 for zero).
    #[inline]
    pub const fn bits(self) -> u32 {
        if self.hi != 0 {
            256 - self.hi.leading_zeros()
        } else {
            128 - self.lo.leading_zeros()
        }
    }

    /// `self << s` for `s < 256`, the bits shifted out dropped.
    #[inline]
    pub(crate) const fn shl(self, s: u32) -> U256 {
        if s >= 128 {
            U256 {
                hi: self.lo << (s - 128),
                lo: 0,
            }
        } else if s == 0 {
            self
        } else {
            U256 {
                hi: (self.hi << s) | (self.lo >> (128 - s)),
                lo: self.lo << s,
            }
        }
    }

    /// The low 64 bits of `self >> s`, for `s < 256`.
    #[inline]
    pub(crate) const fn shr_low_u64(self, s: u32) -> u64 {
        if s >= 128 {
            (self.hi >> (s - 128)) as u64
        } else if s == 0 {
            self.lo as u64
        } else {
            ((self.lo >> s) | (self.hi << (128 - s))) as u64
        }
    }

    /// Whether the value is zero.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.hi == 0 && self.lo == 0
    }

    /// `self + rhs`, or `None` on overflow.
    #[inline]
    pub fn checked_add(self, rhs: U256) -> Option<U256> {
        let (lo, c) = self.lo.overflowing_add(rhs.lo);
        let hi = self.hi.checked_add(rhs.hi)?.checked_add(c as u128)?;
        Some(U256 { hi, lo })
    }

    /// `self - rhs`, or `None` if `rhs > self`.
    #[inline]
    pub fn checked_sub(self, rhs: U256) -> Option<U256> {
        let (lo, b) = self.lo.overflowing_sub(rhs.lo);
        let hi = self.hi.checked_sub(rhs.hi)?.checked_sub(b as u128)?;
        Some(U256 { hi, lo })
    }

    /// `self * m`, or `None` on overflow.
    #[inline]
    pub fn checked_mul_u128(self, m: u128) -> Option<U256> {
        let (c, lo) = mul_wide(self.lo, m);
        let (h1, h0) = mul_wide(self.hi, m);
        if h1 != 0 {
            return None;
        }
        let hi = h0.checked_add(c)?;
        Some(U256 { hi, lo })
    }

    /// `self * m + a`, or `None` on overflow.
    #[inline]
    pub fn checked_mul_add(self, m: u128, a: u128) -> Option<U256> {
        self.checked_mul_u128(m)?.checked_add(U256::from(a))
    }

    /// Quotient and remainder of the division by `d` (which must not be zero).
    #[inline]
    pub fn div_rem_u128(self, d: u128) -> (U256, u128) {
        if self.hi == 0 {
            return (
                U256 {
                    hi: 0,
                    lo: self.lo / d,
                },
                self.lo % d,
            );
        }
        let qh = self.hi / d;
        let r = self.hi % d;
        let (ql, r) = div_256_by_128(r, self.lo, d);
        (U256 { hi: qh, lo: ql }, r)
    }

    /// Quotient and remainder of the division by a prepared divisor below `2^64`.
    #[inline(always)]
    pub(crate) fn div_rem_u64(self, d: Divisor64) -> (U256, u64) {
        let (q, r) = d.div_rem_limbs(self.to_limbs());
        (U256::from_limbs(q), r)
    }

    /// The value as a [`BigUint`].
    pub fn to_biguint(self) -> BigUint {
        let l = self.to_limbs();
        let mut digits = Vec::with_capacity(8);
        for limb in l {
            digits.push(limb as u32);
            digits.push((limb >> 32) as u32);
        }
        BigUint::new(digits)
    }

    /// The value of a [`BigUint`], if it is below `2^256`.
    pub fn from_biguint(v: &BigUint) -> Option<U256> {
        let digits = v.to_u64_digits();
        if digits.len() > 4 {
            return None;
        }
        let mut l = [0u64; 4];
        l[..digits.len()].copy_from_slice(&digits);
        Some(U256::from_limbs(l))
    }
}

impl core::fmt::Display for U256 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.to_u128() {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "{}", self.to_biguint()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // The tests' one generator (see shogi-verify's rng module; a unit test cannot use that
    // crate, which depends on this one).
    use chacha20::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    fn big(x: U256) -> BigUint {
        x.to_biguint()
    }

    #[test]
    fn prepared_divisors_at_the_edges() {
        let xs = [
            U256::ZERO,
            U256::ONE,
            U256::from_limbs([u64::MAX; 4]),
            U256::from_limbs([0, 0, 0, 1]),
            U256::from_limbs([u64::MAX, 0, u64::MAX, 0]),
            U256::from_limbs([1, 2, 3, 4]),
        ];
        for d in [
            1,
            2,
            3,
            7,
            3276,
            1 << 32,
            (1 << 63) - 1,
            1 << 63,
            (1 << 63) + 1,
            u64::MAX,
        ] {
            let prepared = Divisor64::new(d);
            for a in xs {
                let (q, r) = a.div_rem_u64(prepared);
                assert_eq!(big(q), big(a) / d, "{a} / {d}");
                assert_eq!(BigUint::from(r), big(a) % d);
            }
        }
    }

    #[test]
    fn arithmetic_matches_biguint() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut next = || rng.next_u64();
        for i in 0..20000 {
            let shift = i % 5;
            let mut l = [next(), next(), next(), next()];
            for limb in l.iter_mut().skip(4 - shift) {
                *limb = 0;
            }
            let a = U256::from_limbs(l);
            let d: u128 = match i % 4 {
                0 => (next() as u128) | 1,
                1 => ((next() as u128) << 64 | next() as u128) | 1,
                2 => (next() % 1000 + 1) as u128,
                _ => ((next() >> (i % 60)) as u128) << 64 | next() as u128 | 1,
            };
            let (q, r) = a.div_rem_u128(d);
            assert_eq!(big(q), big(a) / d, "{a} / {d}");
            assert_eq!(BigUint::from(r), big(a) % d);
            let d64 = match i % 3 {
                0 => (d as u64).max(1),
                1 => (d >> (i % 64)) as u64 | 1,
                _ => u64::MAX - (i as u64 % 3),
            };
            let prepared = Divisor64::new(d64);
            assert_eq!(prepared.get(), d64);
            let (q, r) = a.div_rem_u64(prepared);
            assert_eq!(big(q), big(a) / d64, "{a} / {d64}");
            assert_eq!(BigUint::from(r), big(a) % d64);
            match a.checked_mul_u128(d) {
                Some(p) => assert_eq!(big(p), big(a) * d),
                None => assert!(big(a) * d >= BigUint::from(1u8) << 256),
            }
            assert_eq!(U256::from_biguint(&big(a)), Some(a));
            let s = (next() % 256) as u32;
            let mask = (BigUint::from(1u8) << 256) - 1u8;
            assert_eq!(big(a.shl(s)), (big(a) << s) & mask);
            assert_eq!(
                BigUint::from(a.shr_low_u64(s)),
                (big(a) >> s) % (BigUint::from(1u8) << 64)
            );
        }
    }
}
