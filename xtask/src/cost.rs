//! `cargo xtask cost-of-precision`: estimate methods side by side, judged by the cost of a
//! given precision (docs/BENCHMARKS.md, "The cost of precision"): core-seconds × (relative
//! 3σ half-width)², which a run of any length gives and which scales to any target, since the
//! half-width shrinks as one over the square root of the samples.
//!
//! The methods run in turn, round after round, each round with its own seed shared by every
//! method, so that a change in the machine's load falls on all of them alike; the ratio of
//! their costs is the figure to read, not the seconds.

use clap::Args;
use shogi_core::GameKind;
use shogi_estimate::{run, Estimate, Method, RunConfig, RunOptions, RunState};
use std::ops::ControlFlow;
use std::time::Instant;

/// Arguments of `cost-of-precision`.
#[derive(Args)]
pub struct CostArgs {
    /// The game.
    #[arg(long, default_value = "shogi")]
    game: GameKind,
    /// Samples a run.
    #[arg(long, default_value = "5e6", value_parser = shogi_estimate::parse_sample_count)]
    samples: u64,
    /// Rounds (each runs every method once).
    #[arg(long, default_value_t = 5)]
    rounds: u64,
    /// Seed of the first round; round `i` uses `seed + i`.
    #[arg(long, default_value_t = 100)]
    seed: u64,
    /// Worker threads of each run.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The methods, comma-separated, the first the reference of the ratios.
    #[arg(long, default_value = "fast,conditional", value_delimiter = ',')]
    methods: Vec<Method>,
    /// Phase-2 rates to try with each method that has one, comma-separated (default: the
    /// method's own).
    #[arg(long, value_delimiter = ',')]
    phase2_rates: Vec<f64>,
    /// The reachable share `ρ` of the phase-2 term, instead of each run's own `ρ̂`: a short
    /// run finds too few unreachable samples (in Shogi about 1 in 70,000) to measure its
    /// phase-2 variance, which a long run's `ρ̂` gives (docs/RESULTS.md).
    #[arg(long)]
    rho: Option<f64>,
    /// Also run this `shogi-count` binary's `estimate --method fast`, as the first row and
    /// the reference of the ratios (to compare with the fast method of another commit).
    #[arg(long)]
    baseline: Option<std::path::PathBuf>,
}

/// One run's figures: wall seconds, `p̂`, the phase-1 variance of `p̂`, `π̂`, the searched
/// samples `m`, `ρ̂` and the estimate.
struct Measured {
    seconds: f64,
    p: f64,
    var_phase1: f64,
    pi: f64,
    searched: u64,
    rho: f64,
    positions: f64,
}

impl Measured {
    /// The variance of `p̂`: the phase-1 term as measured, the phase-2 term with `rho` when
    /// given (else the run's own).
    fn variance(&self, rho: Option<f64>) -> f64 {
        let r = rho.unwrap_or(self.rho);
        let m = (self.searched as f64).max(1.0);
        let scale = (r / self.rho.max(f64::MIN_POSITIVE)).powi(2);
        self.var_phase1 * scale + self.pi * self.pi * r * (1.0 - r) / m
    }
}

/// `estimate --method fast` of another binary, timed as a whole process.
fn baseline_run(bin: &std::path::Path, a: &CostArgs, seed: u64) -> Result<Measured, String> {
    let start = Instant::now();
    let out = std::process::Command::new(bin)
        .args([
            "estimate", "--method", "fast", "--json", "--quiet", "--game",
        ])
        .arg(a.game.name())
        .args(["--samples", &a.samples.to_string()])
        .args(["--seed", &seed.to_string()])
        .args(["--threads", &a.threads.to_string()])
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            bin.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("baseline JSON: {e}"))?;
    let num = |k: &str| -> Result<f64, String> {
        v[k].as_str()
            .and_then(|s| s.parse().ok())
            .or_else(|| v[k].as_f64())
            .ok_or_else(|| format!("baseline JSON has no number `{k}`"))
    };
    Ok(Measured {
        seconds,
        p: num("p_hat")?,
        var_phase1: num("var_phase1")?,
        pi: num("pi_hat")?,
        searched: v["searched"].as_u64().unwrap_or(0),
        rho: num("rho_hat")?,
        positions: num("estimate_exact")?,
    })
}

struct Row {
    label: String,
    seconds: Vec<f64>,
    costs: Vec<f64>,
    rhw: Vec<f64>,
    phase2_share: Vec<f64>,
    estimates: Vec<f64>,
}

/// Runs the comparison and prints its Markdown table.
pub fn run_cost(a: CostArgs) -> Result<(), String> {
    let mut variants: Vec<(String, RunConfig)> = Vec::new();
    for &m in &a.methods {
        let base = RunConfig::new(a.game, a.samples).with_method(m);
        if base.phase2_rate.is_some() && !a.phase2_rates.is_empty() {
            for &f in &a.phase2_rates {
                let mut c = base.clone();
                c.phase2_rate = Some(f);
                variants.push((format!("{m}, phase-2 rate {f}"), c));
            }
        } else {
            let label = match base.phase2_rate {
                Some(f) => format!("{m}, phase-2 rate {f}"),
                None => m.to_string(),
            };
            variants.push((label, base));
        }
    }
    let mut rows: Vec<Row> = a
        .baseline
        .iter()
        .map(|b| Row {
            label: format!("fast of {}", b.display()),
            seconds: Vec::new(),
            costs: Vec::new(),
            rhw: Vec::new(),
            phase2_share: Vec::new(),
            estimates: Vec::new(),
        })
        .collect();
    rows.extend(variants.iter().map(|(label, _)| Row {
        label: label.clone(),
        seconds: Vec::new(),
        costs: Vec::new(),
        rhw: Vec::new(),
        phase2_share: Vec::new(),
        estimates: Vec::new(),
    }));
    let space_cache: Vec<_> = variants
        .iter()
        .map(|(_, c)| shogi_estimate::space_size(c).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    for round in 0..a.rounds {
        let seed = a.seed + round;
        let mut measured = Vec::new();
        if let Some(bin) = &a.baseline {
            measured.push(baseline_run(bin, &a, seed)?);
        }
        for (i, (_, config)) in variants.iter().enumerate() {
            let mut c = config.clone();
            c.seed = seed;
            let mut state = RunState::new(c);
            let options = RunOptions::new(a.threads);
            let start = Instant::now();
            run(&mut state, &options, |_| ControlFlow::Continue(())).map_err(|e| e.to_string())?;
            let seconds = start.elapsed().as_secs_f64();
            let e = Estimate::new(&state.counters, &space_cache[i]);
            measured.push(Measured {
                seconds,
                p: e.p,
                var_phase1: e.var_phase1,
                pi: e.pi,
                searched: state.counters.two_phase.map_or(0, |t| t.searched),
                rho: e.rho,
                positions: e.positions,
            });
        }
        for (i, m) in measured.into_iter().enumerate() {
            // The normal half-width: the exact small-count bounds would charge a method for
            // the few unreachable samples of a short run, not for its variance.
            let var = m.variance(a.rho);
            let rhw = 3.0 * var.sqrt() / m.p;
            let cost = m.seconds * a.threads as f64 * rhw * rhw;
            let r = &mut rows[i];
            eprintln!(
                "round {round} {}: {:.2} s, relative 3σ half-width {:.4}%, cost {cost:.3e} core-s, estimate {:.5e}",
                r.label,
                m.seconds,
                100.0 * rhw,
                m.positions
            );
            r.seconds.push(m.seconds);
            r.costs.push(cost);
            r.rhw.push(rhw);
            r.phase2_share
                .push(1.0 - m.var_phase1 / var.max(f64::MIN_POSITIVE));
            r.estimates.push(m.positions);
        }
    }
    let median = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        if n % 2 == 1 {
            s[n / 2]
        } else {
            0.5 * (s[n / 2 - 1] + s[n / 2])
        }
    };
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let reference = mean(&rows[0].costs);
    println!(
        "{} samples a run, {} rounds (seeds {}..{}), {} threads; cost = wall × threads × (relative 3σ half-width)²{}\n",
        a.samples,
        a.rounds,
        a.seed,
        a.seed + a.rounds - 1,
        a.threads,
        match a.rho {
            Some(r) => format!("; the phase-2 term with ρ = {r}"),
            None => String::new(),
        }
    );
    println!("| method | median wall | µs a sample (core) | median relative 3σ half-width | phase-2 share of the variance | mean cost (core-s) | cost against the first |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let c = mean(&r.costs);
        println!(
            "| {} | {:.2} s | {:.3} | {:.4}% | {:.1}% | {:.3e} | {:.3} ({:.2}x less) |",
            r.label,
            median(&r.seconds),
            median(&r.seconds) * a.threads as f64 * 1e6 / a.samples as f64,
            100.0 * median(&r.rhw),
            100.0 * mean(&r.phase2_share),
            c,
            c / reference,
            reference / c
        );
    }
    // The cost of one cost estimate: its spread over the rounds.
    println!();
    for r in &rows {
        let m = mean(&r.costs);
        let sd = (r.costs.iter().map(|c| (c - m).powi(2)).sum::<f64>()
            / (r.costs.len().max(2) - 1) as f64)
            .sqrt();
        println!(
            "{}: cost per round {}; standard error of the mean {:.1}%; mean estimate {:.5e}",
            r.label,
            r.costs
                .iter()
                .map(|c| format!("{c:.3e}"))
                .collect::<Vec<_>>()
                .join(", "),
            100.0 * sd / m / (r.costs.len() as f64).sqrt(),
            mean(&r.estimates)
        );
    }
    Ok(())
}
