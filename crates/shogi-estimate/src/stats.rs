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
    /// The variance of `π̂`: `π̂(1-π̂)/n`, or with the conditional estimator the sample
    /// variance of the weights over `n`.
    pub var_pi: f64,
    /// The phase-1 term of `Var(p̂)`: `ρ̂² Var(π̂)` (0 without two-phase sampling).
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
    /// The interval the reports state (docs/METHOD.md §8.6): 3σ, with exact binomial
    /// (Clopper–Pearson) bounds for a share whose counts are small or at 0 or 1, and
    /// covering the unknown searches both ways. `None` when no sample was searched: then
    /// the data bound nothing, and [`Estimate::no_interval`] says why.
    pub p_interval: Option<Interval>,
    /// `p_interval` times the size of the space.
    pub positions_interval: Option<Interval>,
    /// The same for mirror images distinct.
    pub positions_distinct_interval: Option<Interval>,
    /// Why there is no interval, when there is none.
    pub no_interval: Option<&'static str>,
    /// Whether an exact binomial bound replaced a normal one in `p_interval`.
    pub exact_binomial: bool,
}

/// The two-sided tail probability of a normal 3σ interval, `erfc(3/√2)`: the level of the
/// exact binomial bounds that stand in for it.
pub const ALPHA_3SIGMA: f64 = 0.002_699_796_063_260_207;

/// Below this many successes or failures a share gets exact binomial bounds instead of the
/// normal ones: the normal approximation to a binomial is poor there (at 0 it gives a
/// zero-width interval).
pub const EXACT_BELOW: u64 = 100;

/// `ln P(X <= k)` for `X ~ Binomial(n, q)`, summed term by term in log space (`k` small).
fn ln_cdf(k: u64, n: u64, q: f64) -> f64 {
    if q <= 0.0 {
        return 0.0;
    }
    if q >= 1.0 {
        return if k >= n { 0.0 } else { f64::NEG_INFINITY };
    }
    let (lq, lp) = (q.ln(), (-q).ln_1p());
    let mut term = n as f64 * lp;
    let mut terms = Vec::with_capacity(k as usize + 1);
    terms.push(term);
    for j in 0..k.min(n) {
        term += ((n - j) as f64).ln() - ((j + 1) as f64).ln() + lq - lp;
        terms.push(term);
    }
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln()
}

/// The root in `[0, 1]` of a decreasing function of `q` that goes from positive to
/// negative, by bisection to the last bit.
fn bisect(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The Clopper–Pearson interval of a binomial share at two-sided level `alpha`, for `k`
/// successes in `n > 0` trials with `min(k, n − k)` small (the tails are summed term by
/// term over the smaller side).
pub fn clopper_pearson(k: u64, n: u64, alpha: f64) -> Interval {
    let half = (alpha / 2.0).ln();
    // P(X <= j | q) for the side with few counts: failures when k is near n.
    let (few, flip) = if k <= n - k {
        (k, false)
    } else {
        (n - k, true)
    };
    // Upper bound of the share of the few: P(X <= few) = alpha/2; lower: P(X >= few) =
    // alpha/2, i.e. P(X <= few − 1) = 1 − alpha/2.
    let upper = if few == n {
        1.0
    } else {
        bisect(|q| ln_cdf(few, n, q) - half)
    };
    let lower = if few == 0 {
        0.0
    } else {
        let target = (-alpha / 2.0).ln_1p();
        bisect(|q| ln_cdf(few - 1, n, q) - target)
    };
    if flip {
        Interval {
            lo: 1.0 - upper,
            hi: 1.0 - lower,
        }
    } else {
        Interval {
            lo: lower,
            hi: upper,
        }
    }
}

/// The 3σ bounds of a binomial share `k / n` (`n > 0`): exact when the counts are small,
/// normal otherwise; and whether they are exact.
fn share_bounds(k: u64, n: u64) -> (Interval, bool) {
    if k.min(n - k) < EXACT_BELOW {
        (clopper_pearson(k, n, ALPHA_3SIGMA), true)
    } else {
        let x = k as f64 / n as f64;
        let h = Z * (x * (1.0 - x) / n as f64).sqrt();
        (
            Interval {
                lo: x - h,
                hi: x + h,
            },
            false,
        )
    }
}

/// The 3σ bounds of the mean `mean` of `n` values in `[0, 1]` with estimated variance of the
/// mean `var` (the conditional estimator's `π̂`), `a` of them non-zero: normal when at least
/// [`EXACT_BELOW`] are non-zero, else the empirical Bernstein bound of Maurer and Pontil
/// (2009, Theorem 4), which holds for every `n` at level [`ALPHA_3SIGMA`] (half on each side);
/// and whether the bound is the latter.
fn mean_bounds(mean: f64, var: f64, a: u64, n: u64) -> (Interval, bool) {
    if a >= EXACT_BELOW {
        let h = Z * var.sqrt();
        return (
            Interval {
                lo: mean - h,
                hi: mean + h,
            },
            false,
        );
    }
    let nf = n as f64;
    let sample_var = var * nf;
    let l = (4.0 / ALPHA_3SIGMA).ln();
    let h = (2.0 * sample_var * l / nf).sqrt()
        + if n > 1 {
            7.0 * l / (3.0 * (nf - 1.0))
        } else {
            1.0
        };
    (
        Interval {
            lo: (mean - h).max(0.0),
            hi: (mean + h).min(1.0),
        },
        true,
    )
}

/// The least common multiple of two group sizes' multiples: that of every number up to 81
/// is below 2^117, so a `u128` always holds it.
fn lcm(a: u128, b: u128) -> u128 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// The 3σ interval of `p = π ρ` from the bounds of its factors, side by side: each side's
/// half-width is that of the delta method, `sqrt((ρ Δπ)² + (π Δρ)²)`, with the distances
/// from each share to its bound on that side.
fn product_interval(pi: f64, pi_b: Interval, rho: f64, rho_b: Interval) -> Interval {
    let side = |dpi: f64, drho: f64| ((rho * dpi).powi(2) + (pi * drho).powi(2)).sqrt();
    let p = pi * rho;
    Interval {
        lo: (p - side(pi - pi_b.lo, rho - rho_b.lo)).max(0.0),
        hi: (p + side(pi_b.hi - pi, rho_b.hi - rho)).min(1.0),
    }
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
        let rho = r as f64 / mf;
        // π̂ and its variance: a binomial share, or with the conditional estimator the mean
        // of the weights k/g of the samples with a predecessor (0 for the others), with
        // their sample variance (docs/METHOD.md §10.8).
        let (pi, var_pi) = match &counters.conditional {
            None => {
                let pi = a as f64 / nf;
                (pi, pi * (1.0 - pi) / nf)
            }
            Some(c) => {
                let (s1, s2) = c.moments();
                let pi = s1 / nf;
                let per_sample = if n > 1 {
                    ((s2 - s1 * pi) / (nf - 1.0)).max(0.0)
                } else {
                    0.0
                };
                (pi, per_sample / nf)
            }
        };
        let p = pi * rho;
        let var_phase1 = rho * rho * var_pi;
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
        let sigma_d = (mean_y * mean_y * var_pi + pi * pi * var_y / mf).sqrt();
        let exact = if n == 0 || m == 0 {
            BigUint::default()
        } else {
            // π̂ as the fraction num / den: a / n, or Σ c k/g over n with the weights'
            // common denominator.
            let (num, den) = match &counters.conditional {
                None => (BigUint::from(a), BigUint::from(n)),
                Some(c) => {
                    let l = c
                        .with_predecessor
                        .iter()
                        .fold(1u128, |l, b| lcm(l, u128::from(b.0)));
                    let num = c
                        .with_predecessor
                        .iter()
                        .fold(BigUint::default(), |acc, b| {
                            acc + BigUint::from(b.2)
                                * BigUint::from(b.1)
                                * BigUint::from(l / u128::from(b.0))
                        });
                    (num, BigUint::from(l) * BigUint::from(n))
                }
            };
            space * num * BigUint::from(r) / (den * BigUint::from(m))
        };
        Estimate {
            space: size,
            p,
            sigma,
            pi,
            rho,
            var_pi,
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
            p_interval: None,
            positions_interval: None,
            positions_distinct_interval: None,
            no_interval: None,
            exact_binomial: false,
        }
        .with_interval(counters, a, m)
    }

    /// Fills in the stated interval (see [`Estimate::p_interval`]) for `a` samples with a
    /// predecessor of `n` and `m` searched.
    fn with_interval(mut self, counters: &Counters, a: u64, m: u64) -> Estimate {
        let n = counters.samples;
        if n == 0 || m == 0 {
            self.no_interval = Some(if n == 0 {
                "no sample was drawn"
            } else {
                "no sample was searched (none selected for phase 2), so the reachable share \
                 of the samples with a predecessor is unknown: run more samples or a higher \
                 --phase2-rate"
            });
            return self;
        }
        let (pi_b, exact_pi) = match (&counters.conditional, counters.two_phase) {
            (Some(_), _) => mean_bounds(self.pi, self.var_pi, a, n),
            (None, Some(_)) => share_bounds(a, n),
            // Single phase: every sample is searched, p = ρ.
            (None, None) => (Interval { lo: 1.0, hi: 1.0 }, false),
        };
        let r = counters.reachable;
        let v = counters.unknown.min(m - r.min(m));
        // The unknown searches both ways: the lower side with none of them reachable, the
        // upper with all of them.
        let (low_b, exact_low) = share_bounds(r, m);
        let (high_b, exact_high) = share_bounds(r + v, m);
        let rho_low = r as f64 / m as f64;
        let rho_high = (r + v) as f64 / m as f64;
        let lo = product_interval(self.pi, pi_b, rho_low, low_b).lo;
        let hi = product_interval(self.pi, pi_b, rho_high, high_b).hi;
        let iv = Interval { lo, hi };
        self.exact_binomial = exact_pi || exact_low || exact_high;
        self.p_interval = Some(iv);
        self.positions_interval = Some(iv.scaled(self.space));
        // Mirror images distinct: the normal interval widened on each side as the stated
        // one of p is widened against its normal one.
        let (pn, pd) = (self.p_normal, self.positions_distinct_normal);
        let widen = |stated: f64, normal: f64| {
            if normal > 0.0 {
                (stated / normal).max(1.0)
            } else {
                f64::INFINITY
            }
        };
        let (wl, wh) = (
            widen(self.p - iv.lo, self.p - pn.lo),
            widen(iv.hi - self.p, pn.hi - self.p),
        );
        let x = self.positions_distinct;
        let ratio = if self.p > 0.0 {
            x / (self.p * self.space)
        } else {
            2.0
        };
        self.positions_distinct_interval = Some(Interval {
            lo: if wl.is_finite() {
                (x - (x - pd.lo) * wl).max(0.0)
            } else {
                iv.lo * self.space * ratio
            },
            hi: if wh.is_finite() {
                x + (pd.hi - x) * wh
            } else {
                iv.hi * self.space * ratio
            },
        });
        self
    }

    /// The 3σ half-width of the estimate relative to it: the larger side of the stated
    /// interval ([`Estimate::p_interval`]) over `p̂`; infinite when nothing was found
    /// reachable or there is no interval.
    pub fn relative_half_width(&self) -> f64 {
        match self.p_interval {
            Some(iv) if self.p > 0.0 => (self.p - iv.lo).max(iv.hi - self.p) / self.p,
            _ => f64::INFINITY,
        }
    }
}

/// `x` in scientific notation with `digits` significant digits, as in the reports
/// (`6.5500e68`).
pub fn sci(x: f64, digits: usize) -> String {
    format!("{:.*e}", digits.saturating_sub(1), x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::PhaseCounters;

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() <= tol
    }

    #[test]
    fn clopper_pearson_matches_known_values() {
        // The textbook 95% interval of 5 in 20: [0.0866, 0.4910].
        let i = clopper_pearson(5, 20, 0.05);
        assert!(
            close(i.lo, 0.08657, 1e-4) && close(i.hi, 0.49105, 1e-4),
            "{i:?}"
        );
        // All or nothing: closed forms.
        let half = ALPHA_3SIGMA / 2.0;
        let i = clopper_pearson(11, 11, ALPHA_3SIGMA);
        assert_eq!(i.hi, 1.0);
        assert!(close(i.lo, half.powf(1.0 / 11.0), 1e-12), "{i:?}");
        let i = clopper_pearson(0, 10, ALPHA_3SIGMA);
        assert_eq!(i.lo, 0.0);
        assert!(close(i.hi, 1.0 - half.powf(0.1), 1e-12), "{i:?}");
        // Symmetry, and many trials with few failures (the phase 2 of a Shogi run).
        let a = clopper_pearson(33, 2_448_172, ALPHA_3SIGMA);
        let b = clopper_pearson(2_448_172 - 33, 2_448_172, ALPHA_3SIGMA);
        assert!(close(a.lo, 1.0 - b.hi, 1e-15) && close(a.hi, 1.0 - b.lo, 1e-15));
        assert!(a.lo > 0.0 && a.lo < 33.0 / 2_448_172.0 && a.hi > 33.0 / 2_448_172.0);
    }

    fn two_phase(n: u64, a: u64, m: u64, r: u64, unknown: u64) -> Counters {
        Counters {
            samples: n,
            passed_mirror: n,
            passed_placement: n,
            passed_check: n,
            reachable: r,
            unreachable: m - r - unknown,
            unknown,
            two_phase: Some(PhaseCounters {
                with_predecessor: a,
                searched: m,
            }),
            ..Counters::default()
        }
    }

    #[test]
    fn small_runs_get_no_confident_interval() {
        let space = BigUint::from(1_000_000u32);
        // Nothing searched: no interval, and why.
        let e = Estimate::new(&two_phase(100, 21, 0, 0, 0), &space);
        assert!(e.p_interval.is_none() && e.no_interval.is_some());
        assert_eq!(e.relative_half_width(), f64::INFINITY);
        // 11 of 11 searched reachable: the normal interval has no phase-2 width at all;
        // the stated one has the exact lower bound of ρ.
        let e = Estimate::new(&two_phase(5000, 1000, 11, 11, 0), &space);
        let iv = e.p_interval.unwrap();
        assert!(e.exact_binomial);
        let rho_lo = (ALPHA_3SIGMA / 2.0).powf(1.0 / 11.0);
        assert!(iv.lo < e.pi * rho_lo, "{iv:?}");
        assert!(e.relative_half_width() > 0.4, "{}", e.relative_half_width());
        // Nothing reachable: from 0 to a positive bound, never [0, 0].
        let e = Estimate::new(&two_phase(5000, 1000, 20, 0, 0), &space);
        let iv = e.p_interval.unwrap();
        assert_eq!(iv.lo, 0.0);
        assert!(iv.hi > 0.0);
        // Unknowns: the interval covers them both ways.
        let e = Estimate::new(&two_phase(50_000, 10_000, 1000, 900, 50), &space);
        let all_reachable = Estimate::new(&two_phase(50_000, 10_000, 1000, 950, 0), &space);
        let none_reachable = Estimate::new(&two_phase(50_000, 10_000, 1000, 900, 0), &space);
        let iv = e.p_interval.unwrap();
        assert_eq!(iv.lo, none_reachable.p_interval.unwrap().lo);
        assert_eq!(iv.hi, all_reachable.p_interval.unwrap().hi);
        // Large counts: the normal interval.
        let e = Estimate::new(
            &two_phase(10_000_000, 2_000_000, 200_000, 150_000, 0),
            &space,
        );
        assert!(!e.exact_binomial);
        let iv = e.p_interval.unwrap();
        assert!(close(iv.lo, e.p_normal.lo, 1e-15) && close(iv.hi, e.p_normal.hi, 1e-15));
    }
}
