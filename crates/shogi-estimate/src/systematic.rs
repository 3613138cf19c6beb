//! The bounds on an estimate's systematic errors: what the independent checks of
//! docs/RESULTS.md ("Systematic errors") found, kept here as data so that every report of a
//! run (`verify-run`, RESULTS) states them beside the interval they support
//! (docs/METHOD.md §10.7, §11.2 of the method's notes).
//!
//! A check compares `checked` verdicts with an independent computation and finds
//! `disagreements`. With `k` in `N`, the share of wrong verdicts is below the upper end of
//! the one-sided 99.865% Clopper–Pearson bound (the upper end of a 3σ interval): for `k = 0`,
//! `1 − 0.00135^(1/N) ≈ 6.6/N`; for `k = 1`, about `8.9/N`. That share moves the estimate by
//! at most:
//!
//! - phase-1 verdicts (the filters, the conditional weight, the predecessor test): a wrong
//!   sample moves `π̂` by at most its share, so the estimate by `share / π̂` relative;
//! - the drop-pawn-mate reading: its phase-1 verdicts as above, over the samples compared,
//!   and its phase-2 verdicts over the searches compared, `share₂ / ρ̂` (the two add up);
//! - the search's *unreachable* verdicts (checked by the oracle's full backward closure): a
//!   wrong one is a reachable sample counted unreachable, which moves `ρ̂` by the share
//!   times `1 − ρ̂`, so the estimate by `share · (1 − ρ̂) / ρ̂` relative. (Reachable verdicts
//!   come with certificates replayed move by move, which admit no error.)

use crate::config::{Estimator, RunConfig};
use crate::counters::Counters;
use crate::digits::{state, Stated};
use crate::error::EstimateError;
use crate::stats::Estimate;
use serde::Serialize;
use shogi_core::GameKind;

/// What a check verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Every sample's phase-1 verdict against `shogi_verify::oracle` (filters recomputed,
    /// predecessors by brute force; with the conditional estimator also the king group's
    /// weight and the chosen position).
    Phase1,
    /// The search's unreachable verdicts: the oracle enumerates the whole backward closure
    /// and finds it finite and free of KK positions.
    Unreachable,
    /// The drop-pawn-mate reading: the verdicts (both phases, every sample searched) under
    /// `--pawn-drop no-reply` against those under `mate`.
    PawnDropReading,
}

/// One independent check, as docs/RESULTS.md reports it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Check {
    /// What it checks.
    pub scope: Scope,
    /// The game.
    #[serde(serialize_with = "crate::config::by_name::serialize")]
    pub game: GameKind,
    /// The estimator whose verdicts it checks.
    #[serde(serialize_with = "crate::config::by_name::serialize")]
    pub estimator: Estimator,
    /// Verdicts compared: samples (phase 1, the drop-pawn-mate reading's phase 1), or
    /// unreachable verdicts (the closures).
    pub checked: u64,
    /// The drop-pawn-mate reading: the searched samples whose verdicts were compared too
    /// (0 for the other scopes).
    pub searched: u64,
    /// Of those, how many differed.
    pub searched_disagreements: u64,
    /// Of them, how many differed.
    pub disagreements: u64,
    /// The command that ran it.
    pub command: &'static str,
    /// The commit of the binary.
    pub commit: &'static str,
}

/// The checks run so far (docs/RESULTS.md, "Systematic errors"). A disagreement of phase 1
/// or of an unreachable verdict would be a defect to fix, not a bound, so those checks list
/// none; the drop-pawn-mate reading is a choice between two rules, whose differences are
/// counted and bounded.
pub const CHECKS: &[Check] = &[
    Check {
        scope: Scope::Unreachable,
        game: GameKind::Mini,
        estimator: Estimator::Conditional,
        // Every unreachable verdict of the five-digit run (results/mini-5digits.json).
        checked: 38_298,
        disagreements: 0,
        searched: 0,
        searched_disagreements: 0,
        command: "cargo xtask unreachable-audit --file results/mini-5digits.json",
        commit: "5e84329",
    },
    Check {
        scope: Scope::Unreachable,
        game: GameKind::Shogi,
        estimator: Estimator::Conditional,
        // Every unreachable verdict of results/shogi-5digits.json's first thirteen segments
        // (21,502,087,168 samples: segments 0 to 5, then 6 with `--segment 6`, then 7 and 8
        // with `--segment 7 --segment 8`, then 8 whole and 9 with `--segment 8 --segment
        // 9`, then 9 whole and 10 with `--segment 9 --segment 10`, then 10 whole and 11
        // with `--segment 10 --segment 11`, then 11 whole and 12 with `--segment 11
        // --segment 12`, the last by a binary of 825a0f0); the audit grows with the run.
        checked: 117,
        disagreements: 0,
        searched: 0,
        searched_disagreements: 0,
        command: "cargo xtask unreachable-audit --file results/shogi-5digits.json",
        commit: "e6ed4f4",
    },
    Check {
        scope: Scope::PawnDropReading,
        game: GameKind::Mini,
        estimator: Estimator::Conditional,
        checked: 100_000_000,
        disagreements: 0,
        searched: 5_544_184,
        // Sample 84867466: a stalemate that only a pawn drop reaches (docs/RESULTS.md).
        searched_disagreements: 1,
        command:
            "cargo xtask pawn-drop-sensitivity --game mini --samples 1e8 --phase2-rate 0.3 --seed 1",
        commit: "5e84329",
    },
    Check {
        scope: Scope::PawnDropReading,
        game: GameKind::Shogi,
        estimator: Estimator::Conditional,
        // Three runs on consecutive samples: 10^8 (3,206,710 searched) at e6ed4f4, then
        // 4×10^7 (1,283,670 searched) and 4×10^7 (1,281,896 searched) at d96315c, whose
        // estimate code is e6ed4f4's.
        checked: 180_000_000,
        disagreements: 0,
        searched: 5_772_276,
        searched_disagreements: 0,
        command: "cargo xtask pawn-drop-sensitivity --game shogi --samples 1e8 --phase2-rate 0.15 --seed 1, then --first 100000000 --samples 4e7 and --first 140000000 --samples 4e7",
        commit: "e6ed4f4",
    },
    Check {
        scope: Scope::Phase1,
        game: GameKind::Shogi,
        estimator: Estimator::Conditional,
        // Samples 0 to 3e8, in five parts of `--first F --samples N` that together are
        // exactly that range (RESULTS).
        checked: 300_000_000,
        searched: 0,
        searched_disagreements: 0,
        disagreements: 0,
        command: "cargo xtask verdict-sweep --estimator conditional --game shogi --first 0 --samples 1e8 --seed 1, then --first 100000000 --samples 50000000, --first 150000000 --samples 30000000, --first 180000000 --samples 20000000 and --first 200000000 --samples 1e8",
        commit: "e6ed4f4",
    },
    Check {
        scope: Scope::Phase1,
        game: GameKind::Shogi,
        estimator: Estimator::Conditional,
        checked: 30_000_000,
        searched: 0,
        searched_disagreements: 0,
        disagreements: 0,
        command:
            "cargo xtask verdict-sweep --estimator conditional --game shogi --samples 3e7 --seed 1",
        commit: "72f8cd8",
    },
    Check {
        scope: Scope::Phase1,
        game: GameKind::Mini,
        estimator: Estimator::Conditional,
        checked: 100_000_000,
        searched: 0,
        searched_disagreements: 0,
        disagreements: 0,
        command:
            "cargo xtask verdict-sweep --estimator conditional --game mini --samples 1e8 --seed 1",
        commit: "72f8cd8",
    },
    Check {
        scope: Scope::Phase1,
        game: GameKind::Shogi,
        estimator: Estimator::Indicator,
        checked: 100_000_000,
        searched: 0,
        searched_disagreements: 0,
        disagreements: 0,
        command: "cargo xtask verdict-sweep --game shogi --space s --samples 1e8 --seed 1",
        commit: "72f8cd8",
    },
    Check {
        scope: Scope::Phase1,
        game: GameKind::Mini,
        estimator: Estimator::Indicator,
        checked: 100_000_000,
        searched: 0,
        searched_disagreements: 0,
        disagreements: 0,
        command: "cargo xtask verdict-sweep --game mini --space s --samples 1e8 --seed 1",
        commit: "72f8cd8",
    },
];

/// The one-sided 99.865% upper bound on a share with 0 occurrences in `n` trials:
/// `1 − 0.00135^(1/n)`.
pub fn zero_of(n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    -(ALPHA_HALF.ln() / n as f64).exp_m1()
}

/// The one-sided 99.865% upper bound on a share with `k` occurrences in `n` trials (the
/// upper end of the 3σ Clopper–Pearson interval).
pub fn upper_of(k: u64, n: u64) -> f64 {
    match (k, n) {
        (_, 0) => 1.0,
        (0, n) => zero_of(n),
        (k, n) => crate::stats::clopper_pearson(k, n, crate::stats::ALPHA_3SIGMA).hi,
    }
}

/// One side of a 3σ interval: `erfc(3/√2) / 2`.
const ALPHA_HALF: f64 = crate::stats::ALPHA_3SIGMA / 2.0;

/// A check's bound on the relative error of an estimate with these shares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bound {
    /// The check.
    pub check: Check,
    /// The bound on the share of wrong verdicts.
    pub share: f64,
    /// The bound on the estimate's relative error it implies.
    pub relative: f64,
}

/// The bounds that apply to a run of `game` and `estimator` whose estimate has shares `pi`
/// (`π̂`) and `rho` (`ρ̂`): for each scope, the largest check of that scope (the tightest
/// bound), if any.
pub fn bounds(game: GameKind, estimator: Estimator, pi: f64, rho: f64) -> Vec<Bound> {
    let mut out: Vec<Bound> = Vec::new();
    for scope in [Scope::Phase1, Scope::Unreachable, Scope::PawnDropReading] {
        let best = CHECKS
            .iter()
            .filter(|c| c.scope == scope && c.game == game)
            // The drop-pawn-mate reading and the unreachable verdicts are the search's and
            // the predecessor test's, whatever the estimator; phase 1 depends on it.
            .filter(|c| scope != Scope::Phase1 || c.estimator == estimator)
            .max_by_key(|c| c.checked);
        if let Some(c) = best {
            let share = upper_of(c.disagreements, c.checked);
            let relative = match scope {
                Scope::Phase1 => share / pi,
                // π̂'s samples and ρ̂'s searches, each by its own count.
                Scope::PawnDropReading => {
                    share / pi + upper_of(c.searched_disagreements, c.searched) / rho
                }
                Scope::Unreachable => share * (1.0 - rho) / rho,
            };
            out.push(Bound {
                check: *c,
                share,
                relative,
            });
        }
    }
    out
}

/// A run's estimate as its report states it, with the bounds on its systematic errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessed {
    /// The estimate and its 3σ interval (mirror images identified), `None` when the
    /// counters bound nothing.
    pub stated: Option<Stated>,
    /// The relative 3σ half-width (the larger side over the estimate).
    pub relative_half_width: f64,
    /// The systematic-error bounds that apply.
    pub bounds: Vec<Bound>,
}

/// The estimate of `counters` (a run of `config`) with the bounds that apply to it.
pub fn assess(config: &RunConfig, counters: &Counters) -> Result<Assessed, EstimateError> {
    counters.check()?;
    let space = crate::report::space_size(config)?;
    let e = Estimate::new(counters, &space);
    let stated = e
        .positions_interval
        .and_then(|i| state(e.positions, i.lo, i.hi));
    let relative_half_width = e.positions_interval.map_or(f64::INFINITY, |i| {
        (i.hi - e.positions).max(e.positions - i.lo) / e.positions
    });
    Ok(Assessed {
        stated,
        relative_half_width,
        bounds: bounds(config.game, config.estimator, e.pi, e.rho),
    })
}

impl Assessed {
    /// The statement and one line a bound, each with its share of the half-width.
    pub fn text(&self) -> String {
        use core::fmt::Write as _;
        let mut t = String::new();
        match &self.stated {
            Some(s) => {
                let _ = writeln!(
                    t,
                    "estimate (mirror images identified): {}; {}; relative 3σ half-width {:.3e}",
                    s.interval(),
                    s.digits_text(),
                    self.relative_half_width
                );
            }
            None => t.push_str("estimate: none (no sample was searched)\n"),
        }
        if self.bounds.is_empty() {
            t.push_str("systematic errors: no independent check of this game and estimator\n");
        } else {
            t.push_str("systematic errors (one-sided 99.865% bounds on the relative effect):\n");
        }
        for b in &self.bounds {
            let what = match b.check.scope {
                Scope::Phase1 => format!(
                    "phase-1 verdicts: {} of {} samples differ",
                    b.check.disagreements, b.check.checked
                ),
                Scope::Unreachable => format!(
                    "unreachable verdicts: {} of {} disproved",
                    b.check.disagreements, b.check.checked
                ),
                Scope::PawnDropReading => format!(
                    "the paper's drop-pawn-mate reading: {} of {} samples and {} of {} searches differ",
                    b.check.disagreements,
                    b.check.checked,
                    b.check.searched_disagreements,
                    b.check.searched
                ),
            };
            let _ = writeln!(
                t,
                "  <= {:.2e} ({:.3} of the half-width): {what}; `{}` at {}",
                b.relative,
                b.relative / self.relative_half_width,
                b.check.command,
                b.check.commit
            );
        }
        t
    }

    /// The same as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "statement": self.stated.as_ref().map(|s| s.interval()),
            "digits": self.stated.as_ref().map(|s| s.digits_text()),
            "relative_half_width": self.relative_half_width,
            "systematic_bounds": self.bounds.iter().map(|b| serde_json::json!({
                "scope": b.check.scope,
                "checked": b.check.checked,
                "disagreements": b.check.disagreements,
                "searched": b.check.searched,
                "searched_disagreements": b.check.searched_disagreements,
                "command": b.check.command,
                "commit": b.check.commit,
                "share_bound": b.share,
                "relative_bound": b.relative,
                "of_half_width": b.relative / self.relative_half_width,
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_of_three_at_the_3_sigma_level() {
        // 6.6/n for large n (−ln 0.00135 = 6.608), and exactly 1 − 0.00135 for one trial.
        assert!((zero_of(100_000_000) * 1e8 - 6.6077).abs() < 1e-3);
        assert!((zero_of(1) - (1.0 - ALPHA_HALF)).abs() < 1e-15);
        assert_eq!(zero_of(0), 1.0);
        // One occurrence: the exact bound, above the rule of three's.
        let one = upper_of(1, 100_000_000);
        assert!(
            one > zero_of(100_000_000) && (one * 1e8 - 8.9).abs() < 0.1,
            "{one}"
        );
    }

    #[test]
    fn the_largest_check_of_each_scope_bounds_a_run() {
        let b = bounds(GameKind::Mini, Estimator::Conditional, 0.1848, 0.99954);
        let phase1 = b.iter().find(|b| b.check.scope == Scope::Phase1).unwrap();
        assert_eq!(phase1.check.checked, 100_000_000);
        assert!((phase1.relative - zero_of(100_000_000) / 0.1848).abs() < 1e-15);
        // Another estimator's sweep says nothing about this one's phase 1.
        assert!(
            bounds(GameKind::Shogi, Estimator::Conditional, 0.21, 0.99999)
                .iter()
                .filter(|b| b.check.scope == Scope::Phase1)
                .all(|b| b.check.estimator == Estimator::Conditional)
        );
    }
}
