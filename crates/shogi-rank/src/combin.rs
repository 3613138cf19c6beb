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

const L8: u64 = 0x0101_0101_0101_0101;
const H8: u64 = 0x8080_8080_8080_8080;

/// Byte `i` of the result: the number of set bits in bytes `0..=i` of `x` (a broadword
/// popcount by bytes, then prefix sums by one multiplication; no hardware popcount needed).
#[inline(always)]
fn byte_prefix(x: u64) -> u64 {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    s.wrapping_mul(L8)
}

/// A set of squares prepared for repeated branch-free select (the position of its `k`-th
/// element): the byte prefix counts of both 64-bit halves are computed once per group of
/// pieces instead of once per piece, which leaves a comparison by bytes and a table read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selector {
    words: [u64; 2],
    prefix: [u64; 2],
    /// Number of elements in the low half.
    pc_lo: u32,
}

impl Selector {
    #[inline(always)]
    pub(crate) fn new(x: u128) -> Selector {
        let words = [x as u64, (x >> 64) as u64];
        let prefix = [byte_prefix(words[0]), byte_prefix(words[1])];
        Selector {
            words,
            prefix,
            pc_lo: (prefix[0] >> 56) as u32,
        }
    }

    /// The position of the `k`-th set bit (0-based); the set must have more than `k`.
    #[inline(always)]
    pub(crate) fn select(&self, k: u32) -> u32 {
        // Branch-free choice of the half.
        let high = (k >= self.pc_lo) as usize;
        let (x, prefix) = (self.words[high], self.prefix[high]);
        let k = k - self.pc_lo * high as u32;
        // High bit of byte i set iff prefix_i <= k; their number is the byte holding bit k.
        let le = ((k as u64 * L8) | H8).wrapping_sub(prefix) & H8;
        let byte = ((le >> 7).wrapping_mul(L8) >> 56) as u32;
        let before = ((prefix << 8) >> (8 * byte)) as u32 & 0xff;
        let within = (x >> (8 * byte)) as usize & 0xff;
        64 * high as u32 + 8 * byte + SELECT8[within][((k - before) & 7) as usize] as u32
    }
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

/// `C(d, k)` for `k < 19` (rows) and `d <= 82` (columns), the transposed table with one
/// extra column of `u64::MAX`: the unranking reads `C(d + 1, k)` for `d` up to 81 and must
/// then find it larger than any remainder.
static BINOM_T: [[u64; MAXN + 1]; MAXK] = transpose_padded(binom_table());

const fn transpose_padded(t: [[u64; MAXK]; MAXN]) -> [[u64; MAXN + 1]; MAXK] {
    let mut r = [[u64::MAX; MAXN + 1]; MAXK];
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

/// Mantissa bits of the bucket of a remainder (see [`bucket`]).
const MANT: u32 = 5;
/// Number of buckets: 64 bit lengths times `2^MANT` mantissas.
const BUCKETS: usize = 64 << MANT;

/// The bucket of `v >= 1`: its bit length and the `MANT` bits after its leading one, like a
/// tiny floating-point number. Non-decreasing in `v`; a bucket spans a relative range of at
/// most `2^-MANT`.
#[inline(always)]
fn bucket(v: u64) -> usize {
    let lz = v.leading_zeros();
    let mant = ((v << lz) >> (63 - MANT)) as usize & ((1 << MANT) - 1);
    ((63 - lz as usize) << MANT) | mant
}

/// The smallest `v` of bucket `b` (for the buckets of small bit length that hold no
/// integer, a bound that keeps the sequence non-decreasing).
const fn bucket_start(b: usize) -> u128 {
    let e = b >> MANT;
    let mant = (b & ((1 << MANT) - 1)) as u128;
    (((1u128 << MANT) + mant) << e).div_ceil(1 << MANT)
}

/// `FLOOR_D[k][bucket(rest + 1)]`: the largest `d` with `C(d, k)` at most the smallest
/// remainder of the bucket. The answer for any remainder of the bucket is that `d` or the
/// next one (checked when the table is built), so unranking one square is a table read and
/// one comparison instead of a search: the remainders feed each other, and this cuts the
/// latency of that chain.
static FLOOR_D: [[u8; BUCKETS]; MAXK] = floor_d();

const fn floor_d() -> [[u8; BUCKETS]; MAXK] {
    let c = binom_table();
    let mut r = [[0u8; BUCKETS]; MAXK];
    let mut k = 2;
    while k < MAXK {
        // Largest remainder that can occur: rest < C(m, k) <= C(MAXN - 1, k).
        let max_rest = c[MAXN - 1][k] as u128 - 1;
        let mut d = k - 1; // C(k - 1, k) = 0 <= any remainder
        let mut b = 0;
        while b < BUCKETS {
            let lo = bucket_start(b) - 1;
            while d + 1 < MAXN && c[d + 1][k] as u128 <= lo {
                d += 1;
            }
            r[k][b] = d as u8;
            // Every remainder of the bucket (up to bucket_start(b + 1) - 2) must be below
            // C(d + 2, k), so that d + 1 is the only other candidate.
            let hi = if b + 1 < BUCKETS {
                bucket_start(b + 1) - 2
            } else {
                u128::MAX
            };
            let hi = if hi < max_rest { hi } else { max_rest };
            if lo <= max_rest && d + 2 < MAXN && c[d + 2][k] as u128 <= hi {
                panic!("MANT too small: a bucket spans three values of d");
            }
            b += 1;
        }
        k += 1;
    }
    r
}

/// The largest `d` with `C(d, k) <= rest`, and that binomial, for `2 <= k < 19` and
/// `rest < C(81, k)`.
#[inline(always)]
fn floor_d_of(k: usize, rest: u64) -> (usize, u64) {
    let row = &BINOM_T[k];
    let d = FLOOR_D[k][bucket(rest + 1)] as usize;
    let (c0, c1) = (row[d], row[d + 1]);
    // Branch-free: the comparison is unpredictable.
    let up = (c1 <= rest) as usize;
    (d + up, if up != 0 { c1 } else { c0 })
}

/// Chooses `n` of the `m` squares in `empty` (a bitboard) from the lexicographic rank `r`
/// (with `r < C(m, n)`), and calls `put` on each chosen square, in ascending order.
#[inline(always)]
pub(crate) fn unrank_set(empty: u128, m: usize, n: usize, r: u64, mut put: impl FnMut(u32)) {
    debug_assert_eq!(m, empty.count_ones() as usize);
    debug_assert!(n <= m && n < MAXK && r < binom(m, n));
    let squares = Selector::new(empty);
    let mut rest = binom(m, n) - 1 - r;
    // d runs downwards (the combinatorial number system: the next d is always smaller);
    // for k = n..2 the largest d with C(d, k) <= rest.
    let mut k = n;
    while k > 1 {
        let (d, c) = floor_d_of(k, rest);
        rest -= c;
        put(squares.select((m - 1 - d) as u32));
        k -= 1;
    }
    if k == 1 {
        // C(d, 1) = d: the last one is direct.
        put(squares.select((m - 1 - rest as usize) as u32));
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
    // The tests' one generator (see shogi-verify's rng module; a unit test cannot use that
    // crate, which depends on this one).
    use chacha20::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn binomials() {
        assert_eq!(binom(81, 18), binom_u128(81, 18) as u64);
        assert_eq!(binom(5, 2), 10);
        assert_eq!(binom(3, 5), 0);
        assert_eq!(binom_u128(81, 40), 212_392_290_424_395_860_814_420);
    }

    #[test]
    fn reciprocal_division() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for i in 0..200_000u64 {
            let s = rng.next_u64();
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
    fn floor_d_matches_a_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for k in 2..MAXK {
            let naive = |rest: u64| (0..MAXN).rev().find(|&d| binom(d, k) <= rest).unwrap();
            let check = |rest: u64| {
                let d = naive(rest);
                assert_eq!(
                    floor_d_of(k, rest),
                    (d, binom(d, k)),
                    "k = {k}, rest = {rest}"
                );
            };
            let max = binom(MAXN - 1, k);
            for d in k - 1..MAXN {
                let c = binom(d, k);
                for rest in [c.saturating_sub(1), c, c + 1, c + c / 64, c + c / 31] {
                    if rest < max {
                        check(rest);
                    }
                }
            }
            for rest in 0..2000.min(max) {
                check(rest);
            }
            for _ in 0..20_000 {
                let s = rng.next_u64();
                check(s % max);
                check((s >> (s % 64)) % max);
            }
        }
    }

    #[test]
    fn select_every_bit() {
        for x in [
            0xdead_beef_0123_4567_89ab_cdef_f00d_cafe_u128,
            u128::MAX,
            1,
            1 << 127,
            u64::MAX as u128,
            (u64::MAX as u128) << 64,
            (1 << 81) - 1,
        ] {
            let squares = Selector::new(x);
            let mut k = 0;
            for i in 0..128 {
                if x >> i & 1 != 0 {
                    assert_eq!(squares.select(k), i, "{x:x} {k}");
                    k += 1;
                }
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
