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

    fn big(x: U256) -> BigUint {
        x.to_biguint()
    }

    #[test]
    fn arithmetic_matches_biguint() {
        let mut s = 0x1234_5678_9abc_def0_u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
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
            match a.checked_mul_u128(d) {
                Some(p) => assert_eq!(big(p), big(a) * d),
                None => assert!(big(a) * d >= BigUint::from(1u8) << 256),
            }
            assert_eq!(U256::from_biguint(&big(a)), Some(a));
        }
    }
}
