//! The statistics of docs/METHOD.md §8: the reachable fraction, its 3σ normal and Wilson intervals,
//! and the number of reachable positions under both definitions.

use crate::counters::Counters;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serialize;

/// The width of every interval, in standard errors (the paper's 3σ).
pub const Z: f64 = 3.0;

/// A closed interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    fn scaled(self, k: f64) -> Interval {
        Interval {
            lo: self.lo * k,
            hi: self.hi * k,
        }
    }

    /// Whether two intervals share a point.
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.lo <= other.hi && other.lo <= self.hi
    }
}

/// The estimate from a set of counters and the exact size of the candidate space.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// `|P_K|`.
    pub space: f64,
    /// Reachable fraction: `p̂ = reachable / samples`, or with two-phase sampling
    /// `p̂ = π̂ ρ̂`.
    pub p: f64,
    /// Its standard error: `sqrt(p̂(1-p̂)/n)`, or with two-phase sampling
    /// `sqrt(var_phase1 + var_phase2)`.
    pub sigma: f64,
    /// Two-phase sampling: `π̂ = a / n`, the share of samples that pass the filters and
    /// have a legal predecessor (1 without two-phase sampling).
    pub pi: f64,
    /// Two-phase sampling: `ρ̂ = r / m`, the share of the searched samples found reachable
    /// (`p̂` without two-phase sampling).
    pub rho: f64,
    /// The phase-1 term of `Var(p̂)`: `ρ̂² π̂(1-π̂)/n` (0 without two-phase sampling).
    pub var_phase1: f64,
    /// The phase-2 term of `Var(p̂)`: `π̂² ρ̂(1-ρ̂)/m` (the whole binomial variance without
    /// two-phase sampling).
    pub var_phase2: f64,
    /// `p̂ ± 3σ`.
    pub p_normal: Interval,
    /// The Wilson score interval at `z = 3`: for a binomial proportion, so only without
    /// two-phase sampling.
    pub p_wilson: Option<Interval>,
    /// `p̂ |P_K|`: reachable positions, mirror images identified (the paper's headline).
    pub positions: f64,
    /// Its 3σ normal interval.
    pub positions_normal: Interval,
    /// Its Wilson interval (without two-phase sampling).
    pub positions_wilson: Option<Interval>,
    /// `p̂ |P_K|` computed exactly (floor), as a decimal integer.
    pub positions_exact: String,
    /// Reachable positions with mirror images counted as distinct.
    pub positions_distinct: f64,
    /// Its 3σ normal interval.
    pub positions_distinct_normal: Interval,
    /// When some searches were `unknown`: the estimate with all of them unreachable (`lo`)
    /// and all of them reachable (`hi`).
    pub unknown_bounds: Option<Interval>,
}

/// `[lo, hi]` of the Wilson score interval for `k` successes in `n` trials at `z`.
pub fn wilson(k: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Interval {
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    }
}

impl Estimate {
    /// The estimate for `counters` in a candidate space of `space` positions. Meaningful
    /// only for counters that pass [`Counters::check`] (the reports check first); whatever
    /// they hold, the arithmetic never overflows.
    pub fn new(counters: &Counters, space: &BigUint) -> Estimate {
        let n = counters.samples;
        let nf = (n as f64).max(1.0);
        let r = counters.reachable;
        // Without two-phase sampling every sample counts as a phase-1 survivor and every one
        // is searched (a = m = n): π̂ = 1 and the variance below is the binomial one.
        let (a, m) = counters
            .two_phase
            .map_or((n, n), |t| (t.with_predecessor, t.searched));
        let mf = (m as f64).max(1.0);
        let pi = a as f64 / nf;
        let rho = r as f64 / mf;
        let p = pi * rho;
        let var_phase1 = rho * rho * pi * (1.0 - pi) / nf;
        let var_phase2 = pi * pi * rho * (1.0 - rho) / mf;
        let sigma = (var_phase1 + var_phase2).sqrt();
        let size = space.to_f64().unwrap_or(f64::INFINITY);
        let p_normal = Interval {
            lo: p - Z * sigma,
            hi: p + Z * sigma,
        };
        let p_wilson = counters.two_phase.is_none().then(|| wilson(r, n, Z));
        // Mirror images distinct: a reachable sample counts 2, or 1 if its board is its own
        // mirror image; the variance is that of this 0/1/2-valued variable, through both
        // phases. In u128, with symmetric_reachable at most reachable, so that no counters
        // (from a file, say) can overflow or underflow.
        let (r2, s2) = (
            u128::from(r),
            u128::from(counters.symmetric_reachable.min(r)),
        );
        let mean_y = (2 * r2 - s2) as f64 / mf;
        let square_y = (4 * (r2 - s2) + s2) as f64 / mf;
        let var_y = (square_y - mean_y * mean_y).max(0.0);
        let mean = pi * mean_y;
        let sigma_d = (mean_y * mean_y * pi * (1.0 - pi) / nf + pi * pi * var_y / mf).sqrt();
        let exact = if n == 0 || m == 0 {
            BigUint::default()
        } else {
            space * BigUint::from(a) * BigUint::from(r) / (BigUint::from(n) * BigUint::from(m))
        };
        Estimate {
            space: size,
            p,
            sigma,
            pi,
            rho,
            var_phase1,
            var_phase2,
            p_normal,
            p_wilson,
            positions: p * size,
            positions_normal: p_normal.scaled(size),
            positions_wilson: p_wilson.map(|w| w.scaled(size)),
            positions_exact: exact.to_string(),
            positions_distinct: mean * size,
            positions_distinct_normal: Interval {
                lo: (mean - Z * sigma_d) * size,
                hi: (mean + Z * sigma_d) * size,
            },
            unknown_bounds: (counters.unknown > 0).then(|| Interval {
                lo: p * size,
                hi: pi * (u128::from(r) + u128::from(counters.unknown)) as f64 / mf * size,
            }),
        }
    }

    /// The 3σ half-width of the estimate relative to it (`3σ / p̂`), infinite when nothing
    /// was found reachable.
    pub fn relative_half_width(&self) -> f64 {
        if self.p > 0.0 {
            Z * self.sigma / self.p
        } else {
            f64::INFINITY
        }
    }
}

/// `x` in scientific notation with `digits` significant digits, as in the reports
/// (`6.5500e68`).
pub fn sci(x: f64, digits: usize) -> String {
    format!("{:.*e}", digits.saturating_sub(1), x)
}
