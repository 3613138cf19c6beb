//! Precision targets: a run that stops once its 3σ interval is narrow enough
//! (docs/METHOD.md §10.1, "Precision targets").
//!
//! The target is tested only at fixed sample counts, every [`TARGET_STEP`] samples from the
//! start of the run, on the counters of exactly those samples. Counters are sums over
//! samples, so whether the target holds at a given count does not depend on the threads,
//! the batches or the interruptions of the run: a run resumed after a kill stops at the very
//! sample an uninterrupted run stops at, with the same counters.

use crate::counters::Counters;
use crate::stats::Estimate;
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

/// The sample counts at which a target is tested are the multiples of this (from the
/// start of the run). 16,384 samples take a few milliseconds on two cores; the last of
/// the samples beyond the target is then a negligible cost.
pub const TARGET_STEP: u64 = 1 << 14;

/// The fewest reachable samples before a precision target may stop a run: below them the
/// estimated half-width is itself too uncertain to stop on.
pub const TARGET_MIN_REACHABLE: u64 = 1000;

/// A precision to run to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    /// Significant digits: the relative 3σ half-width at most half a unit of the last of
    /// them, relative to the estimate (`0.5 · 10^(1−D) / m` for an estimate `m · 10^e`,
    /// `1 ≤ m < 10`).
    Digits(u32),
    /// The relative 3σ half-width.
    HalfWidth(f64),
}

impl Target {
    /// Checks the target's value: 1 to 9 digits, a half-width in `(0, 1)`.
    pub fn check(self) -> Result<(), String> {
        match self {
            Target::Digits(d) if (1..=9).contains(&d) => Ok(()),
            Target::Digits(d) => Err(format!("a digits target is 1 to 9, not {d}")),
            Target::HalfWidth(h) if h.is_finite() && h > 0.0 && h < 1.0 => Ok(()),
            Target::HalfWidth(h) => Err(format!(
                "a relative half-width target is in (0, 1), not {h}"
            )),
        }
    }

    /// The relative 3σ half-width the target asks of `estimate`.
    pub fn goal(self, estimate: &Estimate) -> f64 {
        match self {
            Target::Digits(d) => {
                let x = estimate.positions;
                // The mantissa of the estimate: its leading digits, in [1, 10).
                let m = x / 10f64.powf(x.log10().floor());
                let m = if m.is_finite() && m >= 1.0 { m } else { 1.0 };
                0.5 * 10f64.powi(1 - d as i32) / m
            }
            Target::HalfWidth(h) => h,
        }
    }

    /// Whether `counters` (of a space of `space` positions) meet the target.
    pub fn reached(self, counters: &Counters, space: &BigUint) -> bool {
        if counters.reachable < TARGET_MIN_REACHABLE {
            return false;
        }
        let e = Estimate::new(counters, space);
        e.relative_half_width() <= self.goal(&e)
    }
}

impl core::fmt::Display for Target {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Target::Digits(d) => write!(f, "{d} significant digits"),
            Target::HalfWidth(h) => write!(f, "a relative 3σ half-width of {h}"),
        }
    }
}
