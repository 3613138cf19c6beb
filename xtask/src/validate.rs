//! `cargo xtask validate-estimator`: the estimator against exact answers (docs/METHOD.md
//! §10.4). For reduced materials small enough to enumerate, the exact number of reachable
//! canonical positions comes from the exhaustive cross-check (every candidate of `P_K`
//! through the backward search, agreeing position by position with a forward closure from
//! every KK position). Then both methods run over many seeds: the share of 3σ intervals
//! that contain the exact value must be consistent with the nominal 99.73% (binomial test),
//! and the mean relative error must be zero within its standard error.

use clap::Args;
use shogi_core::{Game, GameKind, Material, MiniShogi, Shogi};
use shogi_estimate::{run, Estimate, Method, RunConfig, RunOptions, RunState};
use shogi_reach::{SearchConfig, Stage};
use shogi_verify::exhaustive::{cross_check, CrossCheckOptions};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The options of `cargo xtask validate-estimator`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Configurations as GAME:PIECES (SFEN letters of the non-king pieces), repeatable.
    /// Default: mini:GP, mini:SB, mini:RP, mini:GSP, shogi:P, shogi:N (mini:GSP, three
    /// pieces, needs about 1.2 GB and some 20 minutes for its exact count).
    #[arg(long)]
    config: Vec<String>,
    /// Seeds (independent runs) per configuration and method.
    #[arg(long, default_value_t = 400)]
    seeds: u64,
    /// Samples per run.
    #[arg(long, default_value_t = 40_000)]
    samples: u64,
    /// The phase-2 rates of the two-phase methods, repeatable: a share in (0, 1], or
    /// `production` for the full game's default (0.002 in Shogi, 0.02 in Mini Shogi), at
    /// which reduced material searches few samples and the exact binomial bounds take over.
    /// Default: 0.25 and production.
    #[arg(long)]
    phase2_rate: Vec<String>,
    /// Worker threads (runs in parallel, each on one thread).
    #[arg(long)]
    threads: Option<usize>,
    /// The methods to run, comma-separated (each two-phase one at every --phase2-rate).
    #[arg(long, default_value = "paper,fast,conditional", value_delimiter = ',')]
    methods: Vec<Method>,
}

/// Two pieces or fewer are quick to enumerate; three (Mini Shogi's gold, silver and pawn:
/// 115,736,640 candidates) are the most this machine's exhaustive count affords in either
/// game (docs/METHOD.md §10.4).
const DEFAULT_CONFIGS: [&str; 6] = [
    "mini:GP", "mini:SB", "mini:RP", "mini:GSP", "shogi:P", "shogi:N",
];

/// The 3σ coverage of a normal interval.
const NOMINAL: f64 = 0.997_300_203_936_74;

/// `P(X >= k)` and `P(X <= k)` for `X ~ Binomial(n, p)`, summed in logs.
fn binomial_tails(n: u64, k: u64, p: f64) -> (f64, f64) {
    let ln_choose = |n: u64, k: u64| -> f64 {
        (1..=k)
            .map(|i| ((n - k + i) as f64).ln() - (i as f64).ln())
            .sum()
    };
    let pmf =
        |i: u64| (ln_choose(n, i) + i as f64 * p.ln() + (n - i) as f64 * (1.0 - p).ln()).exp();
    let upper: f64 = (k..=n).map(pmf).sum();
    let lower: f64 = (0..=k).map(pmf).sum();
    (upper.min(1.0), lower.min(1.0))
}

/// The material of the kings plus the pieces named by SFEN letters.
fn parse_config(text: &str) -> Result<(GameKind, Material), String> {
    let (game, pieces) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not GAME:PIECES (e.g. mini:GP)"))?;
    let game: GameKind = game.parse()?;
    Ok((game, crate::reach_exhaustive::parse_pieces(pieces)?))
}

/// One run: whether its stated interval contains the exact count, its relative error, its
/// relative 3σ half-width, and its reported σ relative to the exact count.
type Outcome = (bool, f64, f64, f64);

/// What the runs of one method on one configuration gave.
struct MethodResult {
    covered: u64,
    runs: u64,
    mean_error: f64,
    error_se: f64,
    mean_half_width: f64,
    p_too_few: f64,
    p_too_many: f64,
    /// The spread of the estimates over the seeds (their standard deviation) over the mean
    /// σ the runs reported: 1 for a calibrated σ.
    sigma_ratio: f64,
    /// Its standard error, `ratio / sqrt(2 (n − 1))` for normal estimates.
    sigma_ratio_se: f64,
}

impl MethodResult {
    /// Coverage consistent with the nominal (two-sided binomial test at 0.1%), mean error
    /// within 4 standard errors of zero, and the σ ratio within 4 standard errors of 1
    /// (which fails on over-wide intervals as well as on narrow ones).
    fn passed(&self) -> bool {
        self.p_too_few > 0.0005
            && self.p_too_many > 0.0005
            && (self.mean_error / self.error_se).abs() < 4.0
            && ((self.sigma_ratio - 1.0) / self.sigma_ratio_se).abs() < 4.0
    }

    /// The smallest relative bias the runs could have detected: 4 standard errors of the
    /// mean error.
    fn detectable_bias(&self) -> f64 {
        4.0 * self.error_se
    }
}

fn run_method(
    game: GameKind,
    material: &Material,
    method: Method,
    rate: Option<f64>,
    args: &ValidateArgs,
    exact: f64,
    threads: usize,
) -> Result<MethodResult, String> {
    let next = AtomicU64::new(1);
    let results: Vec<Result<Vec<Outcome>, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let seed = next.fetch_add(1, Ordering::SeqCst);
                        if seed > args.seeds {
                            return Ok(out);
                        }
                        let mut config = RunConfig::new(game, args.samples).with_method(method);
                        config.material = material.0;
                        config.seed = seed;
                        config.figure_samples = 0;
                        if config.phase2_rate.is_some() {
                            config.phase2_rate = rate;
                        }
                        let mut state = RunState::new(config.clone());
                        run(&mut state, &RunOptions::new(1), |_| {
                            core::ops::ControlFlow::Continue(())
                        })
                        .map_err(|e| e.to_string())?;
                        let space =
                            shogi_estimate::space_size(&config).map_err(|e| e.to_string())?;
                        let e = Estimate::new(&state.counters, &space);
                        let covered = e
                            .positions_interval
                            .is_some_and(|i| i.lo <= exact && exact <= i.hi);
                        out.push((
                            covered,
                            (e.positions - exact) / exact,
                            e.relative_half_width(),
                            e.sigma * e.space / exact,
                        ));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    let n = all.len() as u64;
    let covered = all.iter().filter(|r| r.0).count() as u64;
    let mean = all.iter().map(|r| r.1).sum::<f64>() / n as f64;
    let var = all.iter().map(|r| (r.1 - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
    let misses = n - covered;
    let (too_many_misses, too_few_misses) = binomial_tails(n, misses, 1.0 - NOMINAL);
    let mean_sigma = all.iter().map(|r| r.3).sum::<f64>() / n as f64;
    let ratio = var.sqrt() / mean_sigma;
    Ok(MethodResult {
        covered,
        runs: n,
        mean_error: mean,
        error_se: (var / n as f64).sqrt(),
        mean_half_width: all.iter().map(|r| r.2).sum::<f64>() / n as f64,
        p_too_few: too_many_misses,
        p_too_many: too_few_misses,
        sigma_ratio: ratio,
        sigma_ratio_se: ratio / (2.0 * (n as f64 - 1.0)).sqrt(),
    })
}

fn exact_count<G: Game>(material: &Material) -> Result<(u64, u64, f64), String> {
    let options = CrossCheckOptions {
        search: SearchConfig::default(),
        kk_connectivity: false,
        verify_symmetry: false,
        max_examples: 5,
        max_forward: None,
    };
    let start = Instant::now();
    let report = cross_check::<G>(material, &options).map_err(|e| e.to_string())?;
    if !report.passed() {
        return Err(format!(
            "the exhaustive cross-check of {} {material} failed, so there is no exact answer to compare with:\n{report}",
            G::NAME
        ));
    }
    Ok((
        report.stage(Stage::Reachable),
        report.candidates,
        start.elapsed().as_secs_f64(),
    ))
}

/// The phase-2 rates asked for: `production` is the full game's default.
fn rates(args: &ValidateArgs, game: GameKind) -> Result<Vec<f64>, String> {
    let given: Vec<String> = if args.phase2_rate.is_empty() {
        vec!["0.25".into(), "production".into()]
    } else {
        args.phase2_rate.clone()
    };
    given
        .iter()
        .map(|r| {
            if r == "production" {
                Ok(shogi_estimate::default_phase2_rate(game))
            } else {
                let f: f64 = r
                    .parse()
                    .map_err(|_| format!("--phase2-rate {r}: not a number or `production`"))?;
                shogi_estimate::check_phase2_rate(f)?;
                Ok(f)
            }
        })
        .collect()
}

/// Runs `cargo xtask validate-estimator`; fails if a method's coverage, mean error or σ
/// ratio is off.
pub fn run_validate(args: ValidateArgs) -> Result<(), String> {
    if args.seeds < 2 || args.samples == 0 {
        return Err("--seeds must be at least 2 and --samples at least 1".into());
    }
    let threads = shogi_estimate::thread_count(args.threads)?;
    let configs: Vec<String> = if args.config.is_empty() {
        DEFAULT_CONFIGS.iter().map(|s| s.to_string()).collect()
    } else {
        args.config.clone()
    };
    println!(
        "validate-estimator: {} seeds x {} samples per run, {threads} threads; coverage of the stated 3σ interval (docs/METHOD.md §8.6)",
        args.seeds, args.samples
    );
    println!();
    println!("| game | material | exact reachable | \\|P_K\\| | method | phase-2 rate | runs | intervals containing it | binomial p (too few / too many) | mean relative error ± s.e. | smallest detectable bias | σ ratio ± s.e. | mean 3σ half-width | |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut failed = Vec::new();
    for text in configs {
        let (game, material) = parse_config(&text)?;
        let (exact, candidates, _) = match game {
            GameKind::Mini => exact_count::<MiniShogi>(&material)?,
            GameKind::Shogi => exact_count::<Shogi>(&material)?,
        };
        let mut runs: Vec<(Method, Option<f64>)> = Vec::new();
        for &method in &args.methods {
            if method.settings(game).1.is_none() {
                runs.push((method, None));
            } else {
                runs.extend(rates(&args, game)?.into_iter().map(|r| (method, Some(r))));
            }
        }
        for (method, rate) in runs {
            let r = run_method(game, &material, method, rate, &args, exact as f64, threads)?;
            let ok = r.passed();
            println!(
                "| {game} | {material} | {exact} | {candidates} | {method} | {} | {} | {} ({:.2}%) | {:.3} / {:.3} | {:+.2e} ± {:.2e} | {:.1e} | {:.3} ± {:.3} | {:.2}% | {} |",
                rate.map_or("-".to_string(), |r| r.to_string()),
                r.runs,
                r.covered,
                100.0 * r.covered as f64 / r.runs as f64,
                r.p_too_few,
                r.p_too_many,
                r.mean_error,
                r.error_se,
                r.detectable_bias(),
                r.sigma_ratio,
                r.sigma_ratio_se,
                100.0 * r.mean_half_width,
                if ok { "ok" } else { "FAILED" }
            );
            if !ok {
                failed.push(format!(
                    "{game} {material} {method}{}",
                    rate.map_or(String::new(), |r| format!(" at rate {r}"))
                ));
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("estimator off in: {}", failed.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tails_sum_to_one_plus_the_point() {
        let (up, low) = binomial_tails(300, 2, 0.0027);
        let (up3, _) = binomial_tails(300, 3, 0.0027);
        // P(X >= 2) + P(X <= 2) = 1 + P(X = 2).
        assert!((up + low - 1.0 - (up - up3)).abs() < 1e-12);
        // E[X] = 0.81: X = 0 has probability (1 - p)^300 = 0.444.
        let (_, p0) = binomial_tails(300, 0, 0.0027);
        assert!((p0 - 0.9973f64.powi(300)).abs() < 1e-12);
    }
}
