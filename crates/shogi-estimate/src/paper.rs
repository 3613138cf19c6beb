//! The published figures of Ishii & Tanaka (docs/METHOD.md §1), to compare runs against.

use crate::stats::Interval;
use shogi_core::GameKind;

/// One game's column of the paper's Table 1 and Table 2.
#[derive(Clone, Copy, Debug)]
pub struct Paper {
    /// Samples drawn.
    pub samples: u64,
    /// Passed the mirror filter.
    pub passed_mirror: u64,
    /// Passed the piece-placement filter.
    pub passed_placement: u64,
    /// Passed the check filter.
    pub passed_check: u64,
    /// Found reachable.
    pub reachable: u64,
    /// Table 2: unreachable samples by the deepest ply traced back (0 to 8).
    pub unreachable_depths: [u64; 9],
    /// The published 3σ interval of the number of reachable positions.
    pub positions: Interval,
    /// The published number of reachable positions with mirror images counted as distinct
    /// (given for Shogi only, without an interval).
    pub positions_distinct: Option<f64>,
}

/// The paper's figures for `game`.
pub fn paper(game: GameKind) -> Paper {
    match game {
        GameKind::Shogi => Paper {
            samples: 5_000_000_000,
            passed_mirror: 4_945_063_843,
            passed_placement: 187_220_063,
            passed_check: 58_981_117,
            reachable: 40_491_613,
            unreachable_depths: [18_488_938, 480, 83, 3, 0, 0, 0, 0, 0],
            // docs/METHOD.md §1: the interval from the paper's counts (its printed 6.5506 ± 0.0033
            // is a slip).
            positions: Interval {
                lo: 6.5469e68,
                hi: 6.5531e68,
            },
            positions_distinct: Some(1.31e69),
        },
        GameKind::Mini => Paper {
            samples: 100_000_000,
            passed_mirror: 96_774_076,
            passed_placement: 77_795_825,
            passed_check: 21_506_911,
            reachable: 14_849_198,
            unreachable_depths: [6_650_818, 4_175, 2_494, 114, 104, 2, 4, 1, 1],
            positions: Interval {
                lo: 2.376e18,
                hi: 2.379e18,
            },
            positions_distinct: None,
        },
    }
}

impl Paper {
    /// The survivors of each stage, from the samples to the reachable ones.
    pub fn stages(&self) -> [u64; 5] {
        [
            self.samples,
            self.passed_mirror,
            self.passed_placement,
            self.passed_check,
            self.reachable,
        ]
    }
}

/// The z-score of `k` successes in `n` trials against the paper's rate `k0 / n0`:
/// `(k/n - p0) / sqrt(p0 (1 - p0) / n)`.
pub fn z_score(k: u64, n: u64, k0: u64, n0: u64) -> f64 {
    if n == 0 || n0 == 0 {
        return 0.0;
    }
    let p0 = k0 as f64 / n0 as f64;
    let se = (p0 * (1.0 - p0) / n as f64).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    (k as f64 / n as f64 - p0) / se
}

/// The z-score of `k` of `n` against `k0` of `n0` when both are samples (pooled
/// two-proportion test): unlike [`z_score`], it counts the paper's own sampling error, which
/// matters when a run is not much smaller than the paper's.
pub fn z_two_sample(k: u64, n: u64, k0: u64, n0: u64) -> f64 {
    if n == 0 || n0 == 0 {
        return 0.0;
    }
    let (nf, n0f) = (n as f64, n0 as f64);
    let pooled = (k + k0) as f64 / (nf + n0f);
    let se = (pooled * (1.0 - pooled) * (1.0 / nf + 1.0 / n0f)).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    (k as f64 / nf - k0 as f64 / n0f) / se
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sample_z_is_antisymmetric() {
        let z = z_two_sample(500, 1_000, 5_200, 10_000);
        assert!(z < 0.0);
        assert!((z + z_two_sample(5_200, 10_000, 500, 1_000)).abs() < 1e-12);
    }
}
