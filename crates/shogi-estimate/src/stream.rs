//! The sample stream's hashing: every choice the estimate makes about sample `i` of seed `s`
//! besides drawing the position (which shogi-rank's ChaCha8 streams do) comes from a hash
//! of `(s, i)` and a salt naming the choice, here and nowhere else. The choices then do not
//! depend on the thread, the batch, the shard or the machine, and any one of them can be
//! recomputed for one sample without the others.
//!
//! The hash is SplitMix64's finaliser, applied twice: `mix(mix(s ^ salt) ^ i)`. It is a
//! bijection of `u64` whose outputs pass the usual tests of independence, and it costs a few
//! multiplications, which matters at 10^11 samples.

/// SplitMix64's finaliser: a bijection of `u64` whose outputs look independent.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The first word of the stream `(seed, salt)` at `index`.
#[inline]
pub(crate) fn word(seed: u64, salt: u64, index: u64) -> u64 {
    mix(mix(seed ^ salt) ^ index)
}

/// The salt of the phase-2 selection ("phase2" in ASCII). Changing it changes which samples
/// every run searched: it is part of the definition of a run.
const SALT_PHASE2: u64 = 0x7068_6173_6532_0000;
/// The salt of the safe square chosen for White's king ("king-sq").
pub(crate) const SALT_SQUARE: u64 = 0x6b69_6e67_2d73_7100;
/// The salt of the conditional estimator's acceptance for phase 2 ("king-ac").
pub(crate) const SALT_ACCEPT: u64 = 0x6b69_6e67_2d61_6300;
/// The salt of a sample's digest ("digest").
pub(crate) const SALT_DIGEST: u64 = 0x6469_6765_7374_0000;

/// Whether two-phase sampling searches sample `index` of `seed` when it passes phase 1
/// (docs/METHOD.md §10.1): a hash of `(seed, index)` below `rate · 2^64`. It depends on
/// nothing else (not the position, the thread or the shard), so every machine selects the
/// same samples; `rate >= 1` selects all of them. The conditional estimator accepts a
/// selected sample with a further probability ([`crate::KingWeight`], §10.8).
pub fn phase2_selected(seed: u64, index: u64, rate: f64) -> bool {
    if rate >= 1.0 {
        return true;
    }
    // The float-to-integer cast rounds down and saturates: exact for any rate in (0, 1).
    let threshold = (rate * 18_446_744_073_709_551_616.0) as u64;
    word(seed, SALT_PHASE2, index) < threshold
}

/// A uniform integer below `bound` (`bound >= 1`) from the stream `(seed, salt)` at `index`,
/// exactly uniform: a multiply-shift with rejection of the few words that would favour some
/// values (Lemire's method), drawing the next word of the stream when one is rejected.
/// (shogi-rank's `uniform_below` draws a 256-bit rank from a ChaCha8 stream instead; this
/// one picks among at most a few dozen squares.)
pub(crate) fn uniform_index(seed: u64, index: u64, salt: u64, bound: u64) -> u64 {
    debug_assert!(bound >= 1);
    let mut h = word(seed, salt, index);
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let wide = u128::from(h) * u128::from(bound);
        if (wide as u64) >= threshold {
            return (wide >> 64) as u64;
        }
        h = mix(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_index_is_exactly_uniform_over_small_bounds() {
        for bound in [1u64, 2, 3, 7, 40, 81] {
            let mut counts = vec![0u64; bound as usize];
            let n = 20_000 * bound;
            for i in 0..n {
                let v = uniform_index(9, i, SALT_SQUARE, bound);
                assert!(v < bound);
                counts[v as usize] += 1;
            }
            // Chi-square with bound − 1 degrees of freedom, far tail only (a broken
            // reduction shows as a huge statistic).
            let e = n as f64 / bound as f64;
            let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
            let df = (bound - 1) as f64;
            assert!(
                chi < df + 8.0 * (2.0 * df).sqrt() + 10.0,
                "bound {bound}: {chi}"
            );
        }
    }

    /// The selection is a definition every run depends on: pinned to its values, so that a
    /// change to the hash, the salt or the threshold fails here before it reaches a run.
    #[test]
    fn the_phase2_selection_is_pinned() {
        let picked: Vec<u64> = (0..20_000)
            .filter(|&i| phase2_selected(2032, i, 0.002))
            .collect();
        assert_eq!(picked.len(), 30);
        assert_eq!(&picked[..5], &[11, 1_458, 1_915, 2_127, 3_902]);
        assert!((0..100).all(|i| phase2_selected(7, i, 1.0)));
    }
}
