//! The final report: Table 1 and Table 2 beside the paper's, the estimates, as text or JSON.

use crate::config::{RunConfig, Space};
use crate::counters::Counters;
use crate::error::EstimateError;
use crate::paper::{paper, z_score};
use crate::stats::{sci, Estimate, Interval};
use num_bigint::BigUint;
use serde_json::{json, Value};
use shogi_core::GameKind;
use shogi_core::{MiniShogi, Shogi};
use std::fmt::Write;

/// The size of the space the run samples: `|P_K|` or `|S|` for its game and material.
pub fn space_size(config: &RunConfig) -> Result<BigUint, EstimateError> {
    let m = config.material();
    let r = match (config.game, config.space) {
        (GameKind::Shogi, Space::Candidate) => shogi_rank::count::<Shogi>(&m),
        (GameKind::Mini, Space::Candidate) => shogi_rank::count::<MiniShogi>(&m),
        (GameKind::Shogi, Space::PlacementLegal) => shogi_rank::count_placement_legal::<Shogi>(&m),
        (GameKind::Mini, Space::PlacementLegal) => {
            shogi_rank::count_placement_legal::<MiniShogi>(&m)
        }
    };
    r.map_err(|e| EstimateError::Config(format!("material {:?}: {e}", m.0)))
}

/// `n` with thousands separators (`5,000,000,000`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    // Groups of three counted from the right; the first group may be shorter.
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("decimal digits are ASCII"))
        .collect();
    groups.join(",")
}

/// `k / n` as a percentage with `decimals` decimals, or `-` when `n` is 0.
pub fn percent(k: u64, n: u64, decimals: usize) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.*}%", decimals, 100.0 * k as f64 / n as f64)
    }
}

/// An interval as `[lo, hi]` with 5 significant digits (to nearest: for intervals that are
/// not this run's, such as the paper's).
pub fn interval_text(i: Interval) -> String {
    format!("[{}, {}]", sci(i.lo, 5), sci(i.hi, 5))
}

/// An interval of this run as `[lo, hi]` rounded outward to `digits` significant digits.
pub fn outward_text(i: Interval, digits: u32) -> String {
    match crate::digits::outward(i.lo, i.hi, digits) {
        Some((lo, hi)) => format!("[{lo}, {hi}]"),
        None => interval_text(i),
    }
}

/// One row of Table 1, for every renderer of it (the text and JSON reports here, and
/// `cargo xtask reproduce-paper`'s Markdown).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageRow {
    /// The stage.
    pub name: &'static str,
    /// Survivors of the stage in the run.
    pub ours: u64,
    /// Survivors of the stage in the paper.
    pub theirs: u64,
    /// The survivors of the previous row, run and paper: what the rates are of. `None` for
    /// the first row (the samples).
    pub of: Option<(u64, u64)>,
}

impl StageRow {
    /// The z-score of the stage's rate against the paper's ([`z_score`]); `None` for the
    /// first row.
    pub fn z(&self) -> Option<f64> {
        self.of
            .map(|(n, n0)| z_score(self.ours, n, self.theirs, n0))
    }
}

/// The rows of Table 1: the survivors of each stage in `c` and in the paper.
pub fn table1_rows(c: &Counters, game: GameKind) -> [StageRow; 5] {
    let p = paper(game).stages();
    let names = [
        "samples drawn",
        "pass mirror canonicalization",
        "pass piece placement",
        "pass opponent king not in check",
        "reachable (search succeeded)",
    ];
    let ours = [
        c.samples,
        c.passed_mirror,
        c.passed_placement,
        c.passed_check,
        c.reachable,
    ];
    core::array::from_fn(|i| StageRow {
        name: names[i],
        ours: ours[i],
        theirs: p[i],
        of: i.checked_sub(1).map(|j| (ours[j], p[j])),
    })
}

/// The rows of Table 2: for each depth, the unreachable samples traced back that far in `c`
/// and in the paper; at least `min_rows` rows, and every depth either has.
pub fn table2_rows(c: &Counters, game: GameKind, min_rows: usize) -> Vec<(u64, u64)> {
    let p = paper(game).unreachable_depths;
    let rows = c.unreachable_depths.len().max(p.len()).max(min_rows);
    (0..rows)
        .map(|d| {
            let ours = c.unreachable_depths.get(d).copied().unwrap_or(0);
            (ours, p.get(d).copied().unwrap_or(0))
        })
        .collect()
}

/// Whether the run's estimate is comparable with the paper's (standard material).
fn comparable(config: &RunConfig) -> bool {
    config.material == config.game.material().0
}

/// Whether the run's Table 1 is comparable with the paper's, stage by stage: standard
/// material, the candidate space, every survivor searched.
fn stages_comparable(config: &RunConfig) -> bool {
    comparable(config) && config.space == Space::Candidate && config.phase2_rate.is_none()
}

/// The name of the space's size in reports.
fn space_name(config: &RunConfig) -> &'static str {
    match config.space {
        Space::Candidate => "|P_K|",
        Space::PlacementLegal => "|S|",
    }
}

/// `|P_K|` and the estimate of a run whose counters are consistent: the statistics assume
/// honest counters, so the reports refuse others rather than print nonsense.
fn checked_estimate(
    config: &RunConfig,
    c: &Counters,
) -> Result<(BigUint, Estimate), EstimateError> {
    c.check()
        .map_err(|e| EstimateError::Config(format!("inconsistent counters: {e}")))?;
    let space = space_size(config)?;
    let e = Estimate::new(c, &space);
    Ok((space, e))
}

/// Table 1 of a run with two-phase sampling: the phase-1 stages as shares of the samples
/// drawn, then phase 2 (searched, reachable, unreachable, unknown) with `ρ̂`. The paper's
/// columns are left out: its stages are not these (every one of its survivors was
/// searched); for samples of `S` the placement filter passes every sample by construction,
/// so its row is left out too.
fn two_phase_table1(
    s: &mut String,
    config: &RunConfig,
    c: &Counters,
    t: crate::counters::PhaseCounters,
    e: &Estimate,
) {
    let of_samples = |k: u64| percent(k, c.samples, 3);
    let _ = writeln!(
        s,
        "{:<44} {:>15} {:>10}",
        "Table 1 (two-phase sampling)", "this run", "of samples"
    );
    let drawn = match config.space {
        Space::Candidate => "samples of P_K drawn",
        Space::PlacementLegal => "samples of S drawn",
    };
    match &c.conditional {
        None => {
            let mut rows = vec![
                (drawn, c.samples),
                ("pass mirror canonicalization", c.passed_mirror),
            ];
            if config.space == Space::Candidate {
                rows.push(("pass piece placement", c.passed_placement));
            }
            rows.push(("pass opponent king not in check", c.passed_check));
            rows.push(("have a legal predecessor (phase 1)", t.with_predecessor));
            for (name, k) in rows {
                let _ = writeln!(s, "{name:<44} {:>15} {:>10}", grouped(k), of_samples(k));
            }
            let _ = writeln!(
                s,
                "    π̂ = {} (the share of the samples with a legal predecessor)",
                sci(e.pi, 6)
            );
        }
        Some(cc) => {
            let _ = writeln!(
                s,
                "{drawn:<44} {:>15} {:>10}",
                grouped(c.samples),
                of_samples(c.samples)
            );
            let share = cc.safe_sum() / (c.samples as f64).max(1.0);
            let _ = writeln!(
                s,
                "{:<44} {:>15} {:>10}",
                "squares of White's king not attacked (mean)",
                "",
                format!("{:.3}%", 100.0 * share)
            );
            let mut rows = vec![
                ("with a square not attacked", cc.with_safe_square()),
                ("chosen position canonical", c.passed_mirror),
            ];
            if config.space == Space::Candidate {
                rows.push(("chosen position: piece placement", c.passed_placement));
            }
            rows.push((
                "chosen position has a legal predecessor",
                t.with_predecessor,
            ));
            for (name, k) in rows {
                let _ = writeln!(s, "{name:<44} {:>15} {:>10}", grouped(k), of_samples(k));
            }
            let _ = writeln!(
                s,
                "    π̂ = {} (the mean over the samples of the share of White's king's squares not attacked,\n         times whether the chosen position has a legal predecessor)",
                sci(e.pi, 6)
            );
        }
    }
    let _ = writeln!(
        s,
        "{:<44} {:>15} {:>10}",
        "phase 2", "this run", "of searched"
    );
    let _ = writeln!(
        s,
        "{:<44} {:>15}",
        format!(
            "searched ({} of those with a predecessor{})",
            percent(t.searched, t.with_predecessor, 3),
            if c.conditional.is_some() {
                ", drawn by their weights"
            } else {
                ""
            }
        ),
        grouped(t.searched)
    );
    for (name, k) in [
        ("reachable", c.reachable),
        ("unreachable", c.unreachable),
        ("unknown (search limit)", c.unknown),
    ] {
        let _ = writeln!(
            s,
            "    {name:<40} {:>15} {:>10}",
            grouped(k),
            percent(k, t.searched, 4)
        );
    }
    if t.searched > 0 {
        let _ = writeln!(
            s,
            "    ρ̂ = {} (the share of the searched samples found reachable)",
            sci(e.rho, 7)
        );
    }
    let _ = writeln!(
        s,
        "variance of p̂: phase 1 {}, phase 2 {} ({:.1}% of the total)",
        sci(e.var_phase1, 3),
        sci(e.var_phase2, 3),
        100.0 * e.var_phase2 / (e.var_phase1 + e.var_phase2).max(f64::MIN_POSITIVE)
    );
}

/// The report as text: a header line, Table 1 with z-scores against the paper, the
/// estimates with their 3σ intervals, and Table 2.
pub fn report_text(
    config: &RunConfig,
    c: &Counters,
    elapsed_seconds: f64,
    threads: usize,
) -> Result<String, EstimateError> {
    let (space, e) = checked_estimate(config, c)?;
    let p = paper(config.game);
    let cmp = stages_comparable(config);
    let mut s = String::new();
    let rate = c.samples as f64 / elapsed_seconds.max(1e-9);
    let _ = writeln!(
        s,
        "{} samples of {} (seed {}, shard {}), {:.1} s, {} samples/s on {} thread{}",
        grouped(c.samples),
        config.game,
        config.seed,
        config.shard,
        elapsed_seconds,
        grouped(rate as u64),
        threads,
        if threads == 1 { "" } else { "s" },
    );
    let _ = writeln!(
        s,
        "method {}: {} space, {}{}",
        config.method_name(),
        config.space,
        match config.phase2_rate {
            None => "every sample that passes the filters searched".to_string(),
            Some(f) => format!("two-phase sampling, phase-2 rate {f}"),
        },
        match config.estimator {
            crate::Estimator::Indicator => "",
            crate::Estimator::Conditional =>
                ", conditional estimator (White's king averaged over its squares)",
        }
    );
    let _ = writeln!(s, "{} = {space}", space_name(config));
    let _ = writeln!(s);
    match c.two_phase {
        Some(t) => two_phase_table1(&mut s, config, c, t, &e),
        None => {
            let _ = writeln!(
                s,
                "{:<32} {:>15} {:>9}   {:>15} {:>9}   {:>6}",
                "Table 1", "this run", "rate", "paper", "rate", "z"
            );
            for row in table1_rows(c, config.game) {
                let (name, ours, theirs) = (row.name, row.ours, row.theirs);
                let (rate, prate, z) = match (row.of, row.z()) {
                    (Some((n, n0)), Some(z)) => (
                        percent(ours, n, 3),
                        percent(theirs, n0, 3),
                        format!("{z:+.2}"),
                    ),
                    _ => (String::new(), String::new(), String::new()),
                };
                if cmp {
                    let _ = writeln!(
                        s,
                        "{name:<32} {:>15} {rate:>9}   {:>15} {prate:>9}   {z:>6}",
                        grouped(ours),
                        grouped(theirs)
                    );
                } else {
                    let _ = writeln!(s, "{name:<32} {:>15} {rate:>9}", grouped(ours));
                }
            }
            let _ = writeln!(
                s,
                "{:<32} {:>15}\n{:<32} {:>15}",
                "unreachable",
                grouped(c.unreachable),
                "unknown (search limit)",
                grouped(c.unknown)
            );
            if cmp {
                let _ = writeln!(
                    s,
                    "(rates are of the previous row; z = (rate - paper rate) / standard error)"
                );
            } else {
                let _ = writeln!(s, "(rates are of the previous row)");
            }
        }
    }
    let _ = writeln!(s);
    let wilson = |w: Option<Interval>| {
        w.map_or_else(String::new, |w| format!("; Wilson {}", interval_text(w)))
    };
    match e.p_interval {
        Some(iv) => {
            let _ = writeln!(
                s,
                "reachable fraction  p = {}; 3σ {}{}",
                sci(e.p, 5),
                outward_text(iv, 5),
                wilson(e.p_wilson)
            );
        }
        None => {
            let _ = writeln!(s, "reachable fraction  p: no estimate");
        }
    }
    for (what, value, iv) in [
        (
            "mirror images identified",
            e.positions,
            e.positions_interval,
        ),
        (
            "mirror images distinct",
            e.positions_distinct,
            e.positions_distinct_interval,
        ),
    ] {
        let _ = writeln!(s, "reachable positions, {what}:");
        match iv.and_then(|iv| crate::digits::state(value, iv.lo, iv.hi)) {
            Some(st) => {
                let _ = writeln!(s, "    {}", st.interval());
                let _ = writeln!(s, "    {}", st.digits_text());
            }
            None => match e.no_interval {
                Some(why) => {
                    let _ = writeln!(s, "    no estimate: {why}");
                }
                None => {
                    let _ = writeln!(s, "    {} with no interval", sci(value, 5));
                }
            },
        }
    }
    if e.p_interval.is_some() {
        let _ = writeln!(
            s,
            "relative 3σ half-width {:.4}%{}",
            100.0 * e.relative_half_width(),
            if e.exact_binomial {
                " (exact bounds for a share or mean with few counts)"
            } else {
                ""
            }
        );
    }
    if let (true, Some(iv)) = (comparable(config), e.positions_interval) {
        let _ = writeln!(
            s,
            "paper {} ({})",
            interval_text(p.positions),
            if iv.overlaps(&p.positions) {
                "overlaps"
            } else {
                "DOES NOT overlap"
            }
        );
    }
    if let Some(w) = e.positions_wilson {
        let _ = writeln!(s, "Wilson interval of the positions {}", outward_text(w, 5));
    }
    if let Some(b) = e.unknown_bounds {
        let _ = writeln!(
            s,
            "with the {} unknown searches all unreachable / all reachable: {} (the interval above covers both)",
            grouped(c.unknown),
            interval_text(b)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<32} {:>15}   {:>15}",
        "Table 2: max plies back", "this run", "paper"
    );
    if let Some(t) = c.two_phase {
        let _ = writeln!(
            s,
            "(searched samples only; {} more had no predecessor: depth 0 without a search)",
            grouped(c.passed_check - t.with_predecessor)
        );
    }
    for (d, (ours, theirs)) in table2_rows(c, config.game, 0).into_iter().enumerate() {
        if cmp {
            let _ = writeln!(s, "{d:<32} {:>15}   {:>15}", grouped(ours), grouped(theirs));
        } else {
            let _ = writeln!(s, "{d:<32} {:>15}", grouped(ours));
        }
    }
    if c.reachable > 0 {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "search: {:.1} nodes expanded per reachable sample, {:.1} per searched sample",
            c.expanded_reachable as f64 / c.reachable as f64,
            c.expanded as f64 / c.two_phase.map_or(c.passed_check, |t| t.searched).max(1) as f64
        );
    }
    Ok(s)
}

/// The report as one JSON object: the counters as integers, the estimates and interval
/// bounds as decimal strings (6 significant digits; `estimate_exact` in full), the paper's
/// figures and the z-scores of each stage rate.
pub fn report_json(
    config: &RunConfig,
    c: &Counters,
    elapsed_seconds: f64,
    threads: usize,
) -> Result<Value, EstimateError> {
    let (space, e) = checked_estimate(config, c)?;
    let d = |x: f64| sci(x, 6);
    // Interval ends rounded outward to 6 significant digits; null without an interval.
    let ends = |iv: Option<Interval>| iv.and_then(|iv| crate::digits::outward(iv.lo, iv.hi, 6));
    let lo = |iv: Option<Interval>| ends(iv).map(|(lo, _)| lo);
    let hi = |iv: Option<Interval>| ends(iv).map(|(_, hi)| hi);
    let statement = |value: f64, iv: Option<Interval>| {
        iv.and_then(|iv| crate::digits::state(value, iv.lo, iv.hi))
            .map(|st| {
                json!({
                    "value": st.value,
                    "half_width": st.half_width,
                    "lo": st.lo,
                    "hi": st.hi,
                    "digits": st.digits,
                    "determined": st.determined,
                    "next_digit": st.next.map(|(a, b, sentence)| json!({
                        "lo": a, "hi": b, "text": sentence
                    })),
                })
            })
    };
    let cmp = stages_comparable(config);
    let z: Vec<Value> = table1_rows(c, config.game)
        .iter()
        .filter_map(|row| row.z().map(|z| json!({ "stage": row.name, "z": z })))
        .collect();
    let p = paper(config.game);
    Ok(json!({
        "game": config.game.name(),
        "material": config.material,
        "seed": config.seed,
        "shard": config.shard.to_string(),
        "samples": c.samples,
        "passed_mirror": c.passed_mirror,
        "passed_placement": c.passed_placement,
        "passed_check": c.passed_check,
        "reachable": c.reachable,
        "unreachable": c.unreachable,
        "unknown": c.unknown,
        "symmetric_reachable": c.symmetric_reachable,
        "unreachable_depths": c.unreachable_depths,
        "method": config.method_name(),
        "estimator": config.estimator.name(),
        "mean_safe_share": c.conditional.as_ref().map(|cc| d(cc.safe_sum() / (c.samples as f64).max(1.0))),
        "with_safe_square": c.conditional.as_ref().map(|cc| cc.with_safe_square()),
        "var_pi": d(e.var_pi),
        "sampled_space": config.space.name(),
        "phase2_rate": config.phase2_rate,
        "with_predecessor": c.two_phase.map(|t| t.with_predecessor),
        "searched": c.two_phase.map(|t| t.searched),
        "space": space.to_string(),
        "p_hat": d(e.p),
        "p_sigma": d(e.sigma),
        "pi_hat": d(e.pi),
        "rho_hat": d(e.rho),
        "var_phase1": d(e.var_phase1),
        "var_phase2": d(e.var_phase2),
        "relative_half_width": e.p_interval.map(|_| d(e.relative_half_width())),
        "estimate": e.p_interval.map(|_| d(e.positions)),
        "estimate_exact": e.positions_exact,
        "estimate_lo": lo(e.positions_interval),
        "estimate_hi": hi(e.positions_interval),
        "wilson_lo": lo(e.positions_wilson),
        "wilson_hi": hi(e.positions_wilson),
        "estimate_distinct": d(e.positions_distinct),
        "estimate_distinct_lo": lo(e.positions_distinct_interval),
        "estimate_distinct_hi": hi(e.positions_distinct_interval),
        "statement": statement(e.positions, e.positions_interval),
        "statement_distinct": statement(e.positions_distinct, e.positions_distinct_interval),
        "no_interval": e.no_interval,
        "exact_binomial": e.exact_binomial,
        "unknown_lo": e.unknown_bounds.map(|b| d(b.lo)),
        "unknown_hi": e.unknown_bounds.map(|b| d(b.hi)),
        "z_scores": if cmp { Value::Array(z) } else { Value::Null },
        "paper": if comparable(config) {
            json!({
                "samples": p.samples,
                "passed_mirror": p.passed_mirror,
                "passed_placement": p.passed_placement,
                "passed_check": p.passed_check,
                "reachable": p.reachable,
                "unreachable_depths": p.unreachable_depths,
                "estimate_lo": d(p.positions.lo),
                "estimate_hi": d(p.positions.hi),
            })
        } else {
            Value::Null
        },
        "expanded": c.expanded,
        "expanded_reachable": c.expanded_reachable,
        "generated": c.generated,
        "elapsed_seconds": elapsed_seconds,
        "threads": threads,
        "samples_per_second": c.samples as f64 / elapsed_seconds.max(1e-9),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(5_000_000_000), "5,000,000,000");
        assert_eq!(percent(1, 3, 2), "33.33%");
        assert_eq!(percent(1, 0, 2), "-");
    }
}
