//! Binomial coefficients and the lexicographic ranking of sets of squares.
//!
//! A group of `n` pieces stands on `n` of the `m` squares that are still empty. Its
//! sub-digit is the lexicographic rank of the chosen squares among the empty ones, taken in
//! ascending square order (rank 0 = the first `n` empty squares), as in the authors' code.
//! With `c_1 < ... < c_n` the positions of the chosen squares among the empty ones and
//! `d_i = m - 1 - c_i`, that rank is `C(m, n) - 1 - Σ_i C(d_i, n + 1 - i)` (the complement of
//! the colexicographic rank of the mirrored set), which both directions use.

/// Largest board (9x9) plus one.
pub(crate) const MAXN: usize = 82;
/// Largest group: 18 pawns.
pub(crate) const MAXK: usize = 19;

/// `C(n, k)` for `n < 82`, `k < 19` as `u64` (the largest, `C(81, 18)`, is below `2^60`).
pub(crate) static BINOM: [[u64; MAXK]; MAXN] = binom_table();

const fn binom_table() -> [[u64; MAXK]; MAXN] {
    let mut t = [[0u64; MAXK]; MAXN];
    let mut n = 0;
    while n < MAXN {
        t[n][0] = 1;
        let mut k = 1;
        while k < MAXK {
            if n > 0 {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
            k += 1;
        }
        n += 1;
    }
    t
}

/// `ceil(2^128 / d)` for `d >= 2` (0 for `d < 2`): with it, `floor(x / d)` for any 64-bit
/// `x` is the high part of `c · x` (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: exact when the fraction has at least 64 + 64 bits). A multiplication
/// instead of a `div` instruction on the critical path.
const fn reciprocal(d: u64) -> u128 {
    if d < 2 {
        0
    } else {
        u128::MAX / d as u128 + 1
    }
}

/// `floor(x / d)` and `x mod d` for `d >= 1`, given `c = reciprocal(d)`.
#[inline(always)]
pub(crate) fn div_rem_recip(x: u64, d: u64, c: u128) -> (u64, u64) {
    if d == 1 {
        return (x, 0);
    }
    let lo = (c as u64 as u128) * x as u128;
    let hi = (c >> 64) * x as u128;
    let q = ((hi + (lo >> 64)) >> 64) as u64;
    (q, x - q * d)
}

/// The reciprocals of the binomials of [`BINOM`], same layout.
pub(crate) static BINOM_RECIP: [[u128; MAXK]; MAXN] = binom_recip();

const fn binom_recip() -> [[u128; MAXK]; MAXN] {
    let t = binom_table();
    let mut r = [[0u128; MAXK]; MAXN];
    let mut n = 0;
    while n < MAXN {
        let mut k = 0;
        while k < MAXK {
            r[n][k] = reciprocal(t[n][k]);
            k += 1;
        }
        n += 1;
    }
    r
}

/// The reciprocals of the hand radices `1..=19` (index = radix).
pub(crate) static SMALL_RECIP: [u128; 20] = small_recip();

const fn small_recip() -> [u128; 20] {
    let mut r = [0u128; 20];
    let mut d = 0;
    while d < 20 {
        r[d] = reciprocal(d as u64);
        d += 1;
    }
    r
}

/// `C(n, k)` as `u64`, for `n < 82`, `k < 19`.
#[inline(always)]
pub(crate) fn binom(n: usize, k: usize) -> u64 {
    BINOM[n][k]
}

/// `C(n, k)` exactly as `u128` for any `n, k <= 127` (0 when `k > n`).
pub(crate) fn binom_u128(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // r * (n - i) / (i + 1) is exact at every step; r * (n - i) fits for n <= 127.
        r = r * (n - i) as u128 / (i + 1) as u128;
    }
    r
}

/// The position of the `k`-th set bit (0-based) of `x`, which must have more than `k`:
/// branch-free broadword select (byte prefix sums by multiplication, then a table for the
/// byte), without relying on a hardware popcount.
#[inline(always)]
fn select64(x: u64, k: u32) -> u32 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i of `prefix`: the number of set bits in bytes 0..=i.
    let prefix = s.wrapping_mul(L8);
    // High bit of byte i set iff prefix_i <= k; their number is the byte holding bit k.
    let le = ((k as u64 * L8) | H8).wrapping_sub(prefix) & H8;
    let byte = ((le >> 7).wrapping_mul(L8) >> 56) as u32;
    let before = ((prefix << 8) >> (8 * byte)) as u32 & 0xff;
    let within = (x >> (8 * byte)) as usize & 0xff;
    8 * byte + SELECT8[within][(k - before) as usize] as u32
}

static SELECT8: [[u8; 8]; 256] = select8_table();

const fn select8_table() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// The position of the `k`-th set bit (0-based) of a `u128` whose low half has `pc_lo`
/// set bits.
#[inline(always)]
pub(crate) fn select128(x: u128, pc_lo: u32, k: u32) -> u32 {
    // Branch-free choice of the half.
    let high = (k >= pc_lo) as u32;
    let word = (x >> (64 * high)) as u64;
    64 * high + select64(word, k - pc_lo * high)
}

/// `C(d, k)` for `k < 19` (rows) and `d < 82` (columns): the transposed table, so that a
/// search over `d` for a fixed `k` reads one contiguous row.
static BINOM_T: [[u64; MAXN]; MAXK] = transpose(binom_table());

const fn transpose(t: [[u64; MAXK]; MAXN]) -> [[u64; MAXN]; MAXK] {
    let mut r = [[0u64; MAXN]; MAXK];
    let mut n = 0;
    while n < MAXN {
        let mut k = 0;
        while k < MAXK {
            r[k][n] = t[n][k];
            k += 1;
        }
        n += 1;
    }
    r
}

macro_rules! last_at_most {
    ($name:ident, $t:ty) => {
        /// The largest `d` in `[lo, hi)` with `row[d] <= rest`, for a non-decreasing `row`
        /// with `row[lo] <= rest` and every value below half the type's range: a branch-free
        /// binary search. The comparisons are unpredictable, so the step is computed with
        /// arithmetic (the sign of `rest - row[mid]`), which the compiler cannot turn back
        /// into a branch.
        #[inline(always)]
        pub(crate) fn $name(row: &[$t], lo: usize, hi: usize, rest: $t) -> usize {
            const SHIFT: u32 = <$t>::BITS - 1;
            let mut base = lo;
            let mut len = hi - lo;
            while len > 1 {
                let half = len / 2;
                let mid = base + half;
                let greater = (rest.wrapping_sub(row[mid]) >> SHIFT) as usize;
                base += half * (1 - greater);
                len -= half;
            }
            base
        }
    };
}
last_at_most!(last_at_most, u64);
last_at_most!(last_at_most_u128, u128);

/// For each `k` and bit length `b`: the range of `d` to search for the largest `d` with
/// `C(d, k) <= rest` when `2^b <= rest + 1 < 2^(b+1)`: from the largest `d` with
/// `C(d, k) < 2^b` to the largest with `C(d, k) < 2^(b+1)`. It holds a few values of `d`, so
/// the binary search takes two or three steps instead of six or seven.
static BRACKET: [[(u8, u8); 64]; MAXK] = brackets();

const fn brackets() -> [[(u8, u8); 64]; MAXK] {
    let t = transpose(binom_table());
    let mut r = [[(0u8, 0u8); 64]; MAXK];
    let mut k = 1;
    while k < MAXK {
        let mut b = 0;
        while b < 64 {
            let lo_bound: u128 = 1 << b;
            let hi_bound: u128 = 1 << (b + 1);
            let mut start = k - 1;
            let mut end = k - 1;
            let mut d = k - 1;
            while d < MAXN {
                if (t[k][d] as u128) < lo_bound {
                    start = d;
                }
                if (t[k][d] as u128) < hi_bound {
                    end = d;
                }
                d += 1;
            }
            r[k][b] = (start as u8, end as u8);
            b += 1;
        }
        k += 1;
    }
    r
}

/// Chooses `n` of the `m` squares in `empty` (a bitboard) from the lexicographic rank `r`
/// (with `r < C(m, n)`), and calls `put` on each chosen square, in descending order.
#[inline(always)]
pub(crate) fn unrank_set(empty: u128, m: usize, n: usize, r: u64, mut put: impl FnMut(u32)) {
    debug_assert_eq!(m, empty.count_ones() as usize);
    debug_assert!(n <= m && n < MAXK && r < binom(m, n));
    let pc_lo = (empty as u64).count_ones();
    let mut rest = binom(m, n) - 1 - r;
    // d runs downwards; for k = n..2 the largest d < hi with C(d, k) <= rest.
    let mut hi = m; // exclusive bound on d
    let mut k = n;
    while k > 1 {
        let b = 63 - (rest + 1).leading_zeros() as usize;
        let (start, end) = BRACKET[k][b];
        let top = hi.min(end as usize + 1);
        let d = last_at_most(&BINOM_T[k], start as usize, top, rest);
        rest -= BINOM_T[k][d];
        put(select128(empty, pc_lo, (m - 1 - d) as u32));
        hi = d;
        k -= 1;
    }
    if k == 1 {
        // C(d, 1) = d: the last one is direct.
        put(select128(empty, pc_lo, (m - 1 - rest as usize) as u32));
    }
}

/// The lexicographic rank of the squares `set` (a subset of `empty`) among `empty`.
#[inline]
pub(crate) fn rank_set(empty: u128, set: u128) -> u64 {
    let m = empty.count_ones() as usize;
    let n = set.count_ones() as usize;
    let mut sum = 0u64;
    let mut s = set;
    let mut k = n;
    while s != 0 {
        let sq = s.trailing_zeros();
        s &= s - 1;
        let below = if sq == 0 { 0 } else { u128::MAX >> (128 - sq) };
        let c = (empty & below).count_ones() as usize;
        sum += BINOM[m - 1 - c][k];
        k -= 1;
    }
    binom(m, n) - 1 - sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binom(81, 18), binom_u128(81, 18) as u64);
        assert_eq!(binom(5, 2), 10);
        assert_eq!(binom(3, 5), 0);
        assert_eq!(binom_u128(81, 40), 212_392_290_424_395_860_814_420);
    }

    #[test]
    fn reciprocal_division() {
        let mut s = 0x9e37_79b9_7f4a_7c15_u64;
        for i in 0..200_000u64 {
            s ^= s << 7;
            s ^= s >> 9;
            let d = match i % 3 {
                0 => s >> (i % 64) | 1,
                1 => i % 40 + 1,
                _ => binom(((i / 3) % 82) as usize, ((i / 7) % 19) as usize).max(1),
            };
            for x in [s, s >> (i % 64), u64::MAX, d, d - 1, d.wrapping_mul(3)] {
                assert_eq!(
                    div_rem_recip(x, d, reciprocal(d)),
                    (x / d, x % d),
                    "{x} / {d}"
                );
            }
        }
    }

    #[test]
    fn select_every_bit() {
        let x: u128 = 0xdead_beef_0123_4567_89ab_cdef_f00d_cafe;
        let mut k = 0;
        for i in 0..128 {
            if x >> i & 1 != 0 {
                assert_eq!(select128(x, (x as u64).count_ones(), k), i);
                k += 1;
            }
        }
    }

    #[test]
    fn lexicographic_order_of_sets() {
        // Every 3-subset of a 7-square set, in lexicographic order of the square lists.
        let empty: u128 = 0b1011_0110_1101;
        let sq: Vec<u32> = (0..128).filter(|&i| empty >> i & 1 != 0).collect();
        let mut r = 0;
        for a in 0..sq.len() {
            for b in a + 1..sq.len() {
                for c in b + 1..sq.len() {
                    let set = 1u128 << sq[a] | 1u128 << sq[b] | 1u128 << sq[c];
                    assert_eq!(rank_set(empty, set), r);
                    let mut got = 0u128;
                    unrank_set(empty, sq.len(), 3, r, |s| got |= 1u128 << s);
                    assert_eq!(got, set);
                    r += 1;
                }
            }
        }
        assert_eq!(r, binom(sq.len(), 3));
    }
}
