//! `cargo xtask verdict-sweep`: the systematic error of the fast pipeline's phase 1, bounded
//! (docs/METHOD.md §10.7). On the samples `estimate` draws (same space, seed and indices),
//! the pipeline's own phase-1 verdict of each sample (`shogi_estimate::evaluate_sample`:
//! the filters, then `shogi_retro::has_predecessor`) is compared with an independent
//! oracle's (`shogi_verify::oracle`: the filters recomputed from the board, the
//! predecessors by brute force over the forward move generator); a share of the samples
//! with a predecessor is searched and its certificate replayed forward. With
//! `--against-unmoves N`, the oracle's predecessor sets are compared with
//! `shogi_retro::unmoves`' on N random-game positions per game instead.

use clap::Args;
use shogi_core::{Color, Game, GameKind, MiniShogi, Position, Relax, Setup, Shogi, Square};
use shogi_estimate::{
    evaluate_conditional, evaluate_sample, parse_count, parse_sample_count, phase2_selected,
    Estimator, RunConfig, SampleOutcome, SampleSource,
};
use shogi_rank::{full_placement_table, full_table, PlacementSampler, Sampler};
use shogi_reach::Searcher;
use shogi_verify::oracle::Phase1;
use shogi_verify::verdicts::{
    compare_predecessors, retro_predecessors, verdict_sweep, VerdictReport,
};
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// The options of `cargo xtask verdict-sweep`.
#[derive(Args, Debug)]
pub struct VerdictSweepArgs {
    /// Which game: shogi, mini or both.
    #[arg(long, default_value = "both", value_parser = crate::parse_games)]
    game: crate::Games,
    /// The space sampled, as `estimate` samples it: `s` (placement-legal, the fast
    /// method's) or `pk` (the candidate space, the paper's).
    #[arg(long, default_value = "s", value_parser = ["s", "pk"])]
    space: String,
    /// Samples per game (`1e6`, `1e8` allowed).
    #[arg(long, default_value = "1000000", value_parser = parse_sample_count)]
    samples: u64,
    /// The first sample index (to continue or split a sweep).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// The seed: sample i is the sample i of `estimate --seed S`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The share of the samples with a predecessor that are searched and whose certificate
    /// is replayed forward (chosen by the hash of phase 2: at the estimate's phase-2 rate,
    /// exactly the samples it searches).
    #[arg(long, default_value_t = 0.001)]
    certificates: f64,
    /// Use the paper's reading of the drop-pawn-mate rule (no legal reply).
    #[arg(long)]
    no_reply: bool,
    /// Instead of the samples: compare the oracle's predecessor sets with
    /// shogi_retro::unmoves' on N positions of random legal games per game.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "100000", value_parser = parse_count)]
    against_unmoves: Option<u64>,
    /// The seed of the random games of --against-unmoves.
    #[arg(long, default_value_t = 17)]
    games_seed: u64,
    /// The estimator whose phase 1 is checked: `indicator` (each sample's own verdict) or
    /// `conditional` (docs/METHOD.md §10.8: each sample's king group counted again by brute
    /// force, its size and safe squares against the pipeline's weight, the chosen position
    /// checked to be the sample with White's king on a safe square, and that position's
    /// verdict against the oracle's).
    #[arg(long, default_value = "indicator")]
    estimator: Estimator,
}

/// The king group of `x` by brute force, without `KingGroup` or `attacks_by`: every square
/// of the board, White's king put there through a `Setup`, kept when the kings are
/// K-canonical (docs/METHOD.md §3, compared by square index, which is the square order), and
/// safe when the oracle's own check filter passes. Returns the squares of the group and the
/// safe ones.
fn oracle_group<G: Game>(x: &Position<G>) -> (Vec<Square>, Vec<Square>) {
    let mut setup = Setup::from(x.clone());
    let wk = x.king(Color::White).expect("a sample has both kings");
    let bk = x.king(Color::Black).expect("a sample has both kings");
    let king = setup.take(wk).expect("the king stands on its square");
    let (mut squares, mut safe) = (Vec::new(), Vec::new());
    for i in 0..G::SQUARES as u8 {
        let sq = Square::from_index_in::<G>(i).expect("a square of the board");
        if setup.piece_at(sq).is_some() {
            continue;
        }
        let ours = (bk.index(), sq.index());
        let mirrored = (bk.hflip::<G>().index(), sq.hflip::<G>().index());
        if ours > mirrored {
            continue;
        }
        squares.push(sq);
        let mut s = setup.clone();
        s.put(sq, king);
        let y = s
            .into_position(Relax::CANDIDATE)
            .expect("a sample with its king moved is a candidate");
        if !shogi_verify::oracle::side_not_to_move_attacked(&y) {
            safe.push(sq);
        }
    }
    (squares, safe)
}

/// Weight mismatches of a conditional sweep: how many, and the first few.
#[derive(Default)]
struct WeightErrors {
    count: u64,
    examples: Vec<String>,
    /// `Σ k/g` over the samples whose chosen position has a predecessor: `n π̂`.
    sum_z: f64,
}

/// The 4-digit runs' relative 3σ half-widths (docs/RESULTS.md), to set the bound beside.
fn four_digit_half_width(game: GameKind) -> f64 {
    match game {
        GameKind::Shogi => 7.65e-5,
        GameKind::Mini => 2.02e-4,
    }
}

/// Runs `cargo xtask verdict-sweep`; fails on any disagreement or failed certificate.
pub fn run(args: VerdictSweepArgs) -> Result<(), String> {
    let threads = shogi_estimate::thread_count(args.threads)?;
    if let Some(n) = args.against_unmoves {
        return against_unmoves(&args, n as usize);
    }
    shogi_estimate::check_phase2_rate(args.certificates)
        .map_err(|e| format!("--certificates: {e}"))?;
    let mut failed = Vec::new();
    for &game in &args.game.0 {
        let ok = match game {
            GameKind::Mini => sweep_game::<MiniShogi>(&args, game, threads)?,
            GameKind::Shogi => sweep_game::<Shogi>(&args, game, threads)?,
        };
        if !ok {
            failed.push(game.to_string());
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the pipeline and the oracle disagree, or a certificate failed, in: {}",
            failed.join(", ")
        ))
    }
}

fn against_unmoves(args: &VerdictSweepArgs, n: usize) -> Result<(), String> {
    let rules = crate::rules(args.no_reply);
    let mut ok = true;
    for &game in &args.game.0 {
        let r = match game {
            GameKind::Mini => compare_predecessors::<MiniShogi>(
                n,
                args.games_seed,
                rules,
                &retro_predecessors::<MiniShogi>,
            ),
            GameKind::Shogi => compare_predecessors::<Shogi>(
                n,
                args.games_seed,
                rules,
                &retro_predecessors::<Shogi>,
            ),
        };
        print!("{r}");
        println!(
            "  rules: pawn drop {}, seed {}: {}",
            rules.pawn_drop.name(),
            args.games_seed,
            if r.passed() { "ok" } else { "FAILED" }
        );
        ok &= r.passed();
    }
    if ok {
        Ok(())
    } else {
        Err("the oracle and shogi_retro::unmoves differ (see above)".into())
    }
}

/// The phase-1 verdict in a pipeline outcome (the search never runs in the sweep's
/// evaluation, so an `A`-sample is `NotSearched`).
fn phase1_of(outcome: &SampleOutcome) -> Phase1 {
    match outcome {
        SampleOutcome::Mirror => Phase1::Mirror,
        SampleOutcome::Placement => Phase1::Placement,
        // The conditional estimator's outcome for a group with no safe square: every
        // position of it fails the check filter.
        SampleOutcome::Check | SampleOutcome::NoSafeSquare => Phase1::Check,
        SampleOutcome::NoPredecessor => Phase1::NoPredecessor,
        SampleOutcome::NotSearched
        | SampleOutcome::Reachable { .. }
        | SampleOutcome::Unreachable { .. }
        | SampleOutcome::Unknown { .. } => Phase1::Predecessor,
    }
}

fn sweep_game<G: Game>(
    args: &VerdictSweepArgs,
    game: GameKind,
    threads: usize,
) -> Result<bool, String> {
    let mut config = RunConfig::new(game, args.samples);
    config.seed = args.seed;
    config.pawn_drop = crate::rules(args.no_reply).pawn_drop;
    let search = config.search_config();
    let start = Instant::now();
    let range = args.first..args.first.saturating_add(args.samples);
    let space_name = if args.space == "s" {
        "S (placement-legal)"
    } else {
        "P_K (candidate)"
    };
    println!(
        "verdict-sweep {game}: samples {}..{} of seed {} in {space_name}, {} estimator, {threads} threads, certificates on {} of the samples with a predecessor, pawn drop {}",
        range.start,
        range.end,
        args.seed,
        args.estimator,
        args.certificates,
        config.pawn_drop.name()
    );
    let report = if args.space == "s" {
        let sampler = PlacementSampler::new(full_placement_table::<G>(), args.seed);
        run_with(&sampler, args, range.clone(), threads, search, start)?
    } else {
        let sampler = Sampler::new(full_table::<G>(), args.seed);
        run_with(&sampler, args, range.clone(), threads, search, start)?
    };
    let seconds = start.elapsed().as_secs_f64();
    print_report(game, &report, seconds, threads, args.estimator);
    Ok(report.passed())
}

fn run_with<G: Game, S: SampleSource<G>>(
    sampler: &S,
    args: &VerdictSweepArgs,
    range: core::ops::Range<u64>,
    threads: usize,
    search: shogi_reach::SearchConfig,
    start: Instant,
) -> Result<VerdictReport, String> {
    // A phase-2 rate so small that no sample is selected: the pipeline's evaluation then
    // stops after phase 1, on exactly the path `estimate` takes.
    let p = shogi_estimate::Phase2 {
        seed: args.seed,
        rate: f64::MIN_POSITIVE,
    };
    let phase2 = Some(p);
    let weights = Mutex::new(WeightErrors::default());
    let conditional = args.estimator == Estimator::Conditional;
    let pipeline = |searcher: &mut Searcher<G>, i: u64| {
        if !conditional {
            let e = evaluate_sample(sampler, searcher, i, phase2);
            return (e.position, phase1_of(&e.outcome));
        }
        let e = evaluate_conditional(sampler, searcher, i, p);
        let (weight, chosen) = e.conditional.expect("a conditional evaluation");
        let (squares, safe) = oracle_group(&e.position);
        let mut wrong = Vec::new();
        if (usize::from(weight.squares), usize::from(weight.safe)) != (squares.len(), safe.len()) {
            wrong.push(format!(
                "weight {weight}, the oracle's {}/{}",
                safe.len(),
                squares.len()
            ));
        }
        if let Some(y) = &chosen {
            let sq = y.king(Color::White).expect("a king");
            let mut s = Setup::from(e.position.clone());
            let k = s.take(e.position.king(Color::White).expect("a king"));
            s.put(sq, k.expect("a king"));
            let same = s.into_position(Relax::CANDIDATE).is_ok_and(|p| &p == y);
            if !safe.contains(&sq) || !same {
                wrong.push(format!(
                    "chosen position {y} is not the sample with White's king on a safe square"
                ));
            }
        } else if !safe.is_empty() {
            wrong.push("no position chosen though a square is safe".into());
        }
        let verdict = phase1_of(&e.outcome);
        {
            let mut w = weights.lock().unwrap_or_else(|e| e.into_inner());
            if verdict == Phase1::Predecessor {
                w.sum_z += weight.share();
            }
            if !wrong.is_empty() {
                w.count += 1;
                if w.examples.len() < 20 {
                    w.examples
                        .push(format!("sample {i} ({}): {}", e.position, wrong.join("; ")));
                }
            }
        }
        match chosen {
            Some(y) => (y, verdict),
            // No safe square (checked just above): there is no position to judge, so the
            // sample's own verdict stands for both sides.
            None => {
                let v = shogi_verify::oracle::oracle_phase1(&e.position, searcher.config().rules);
                (e.position, v)
            }
        }
    };
    let (seed, share) = (args.seed, args.certificates);
    let certify = move |i: u64| phase2_selected(seed, i, share);
    let total = range.end - range.start;
    let mut last = Instant::now();
    let mut progress = |r: &VerdictReport| {
        if last.elapsed().as_secs_f64() < 30.0 && r.samples < total {
            return;
        }
        last = Instant::now();
        let secs = start.elapsed().as_secs_f64();
        let rate = r.samples as f64 / secs;
        // The conditional estimator's weights are checked beside the verdicts: a progress
        // line that left them out would read as a clean partial result when it is not.
        let wrong = weights.lock().unwrap_or_else(|e| e.into_inner()).count;
        eprintln!(
            "  {} of {} samples, {:.0}/s, {} disagreements, {wrong} wrong weights, {} certificates replayed, eta {:.0} s",
            r.samples,
            total,
            rate,
            r.disagreement_count(),
            r.certified,
            (total - r.samples) as f64 / rate
        );
        let _ = std::io::stderr().flush();
    };
    let report = verdict_sweep::<G>(range, threads, search, &pipeline, &certify, &mut progress)?;
    let w = weights.into_inner().unwrap_or_else(|e| e.into_inner());
    if conditional {
        println!(
            "conditional estimator: {} of {} samples with a king group or chosen position other than the oracle's",
            w.count, report.samples
        );
        for e in &w.examples {
            println!("  WEIGHT MISMATCH {e}");
        }
        if w.count > 0 {
            return Err(format!("{} weight mismatches (listed above)", w.count));
        }
        // A wrong weight or verdict moves a sample's Z = (k/g) h by at most 1, so π̂ by at
        // most the rate e of such samples, and the estimate by e/π̂ with π̂ the weighted one.
        let n = report.samples as f64;
        let pi = w.sum_z / n;
        if report.disagreement_count() == 0 && n > 0.0 {
            let e = zero_upper_bound(report.samples, 0.00135);
            println!(
                "conditional estimator: pi-hat = {pi:.5} (the mean weight of the samples with a predecessor); with no wrong weight or verdict in {} samples the rate of either is at most {e:.3e}, which moves the estimate by at most e/pi = {:.3e} relative",
                report.samples,
                e / pi
            );
        }
    }
    Ok(report)
}

/// The one-sided upper bound of level `1 − alpha` on a binomial proportion with 0 successes
/// in `n` trials (Clopper-Pearson): `1 − alpha^(1/n)`.
fn zero_upper_bound(n: u64, alpha: f64) -> f64 {
    -(alpha.ln() / n as f64).exp_m1()
}

fn print_report(
    game: GameKind,
    r: &VerdictReport,
    seconds: f64,
    threads: usize,
    estimator: Estimator,
) {
    println!();
    println!(
        "| pipeline \\ oracle | {} |",
        Phase1::ALL.map(|v| v.name()).join(" | ")
    );
    println!("|---|{}", "---|".repeat(Phase1::ALL.len()));
    for a in Phase1::ALL {
        let row: Vec<String> = Phase1::ALL
            .iter()
            .map(|b| r.counts[a.index()][b.index()].to_string())
            .collect();
        println!("| {} | {} |", a.name(), row.join(" | "));
    }
    println!();
    let d = r.disagreement_count();
    println!(
        "{game}: {} samples, {} agreements, {d} disagreements; {:.1} s on {threads} threads, {:.0} samples/s",
        r.samples,
        r.samples - d,
        seconds,
        r.samples as f64 / seconds
    );
    for x in &r.disagreements {
        println!(
            "  DISAGREEMENT sample {}: pipeline {}, oracle {}: {}",
            x.index,
            x.pipeline.name(),
            x.oracle.name(),
            x.sfen
        );
    }
    println!(
        "certificates: {} searched, {} replayed forward to the sample, {} unreachable, {} unknown, {} failed",
        r.searched, r.certified, r.unreachable, r.unknown, r.certificate_failures
    );
    for e in &r.certificate_examples {
        println!("  CERTIFICATE FAILURE {e}");
    }
    let a = r.counts[Phase1::Predecessor.index()].iter().sum::<u64>();
    let pi = a as f64 / r.samples as f64;
    if d == 0 && r.samples > 0 {
        let e = zero_upper_bound(r.samples, 0.00135);
        println!(
            "misclassification rate of the phase-1 verdict: 0 in {} samples, at most {:.3e} (one-sided 99.73% Clopper-Pearson, 1 - 0.00135^(1/n))",
            r.samples, e
        );
        if estimator == Estimator::Conditional {
            // The weighted π̂ of the conditional estimator is printed with its bound above.
            return;
        }
        println!(
            "effect on the estimate: pi-hat = {a}/{} = {pi:.5} moves by at most e, the estimate by at most e/pi = {:.3e} relative; the 4-digit run's (space S, method fast) relative 3-sigma half-width is {:.3e} (ratio {:.2})",
            r.samples,
            e / pi,
            four_digit_half_width(game),
            e / pi / four_digit_half_width(game)
        );
    } else if d > 0 {
        println!("FAILED: {d} disagreements (listed above, at most 20)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_estimate::KingGroup;
    use shogi_rank::{full_placement_table, PlacementSampler};

    /// The brute-force group equals the pipeline's on samples of S of both games, and it
    /// sees what a group without the K-canonical rule would get wrong.
    fn agrees<G: Game>(n: u64) {
        let sampler = PlacementSampler::new(full_placement_table::<G>(), 3);
        let mut centre = 0;
        for i in 0..n {
            let x = sampler.sample(i);
            let g = KingGroup::of(&x).unwrap();
            let (squares, safe) = oracle_group(&x);
            assert_eq!(g.squares.into_iter().collect::<Vec<_>>(), squares, "{x}");
            assert_eq!(g.safe.into_iter().collect::<Vec<_>>(), safe, "{x}");
            let bk = x.king(Color::Black).unwrap();
            if bk.x::<G>() == G::WIDTH / 2 {
                centre += 1;
                let empty = (x.occupied().count() as usize) < G::SQUARES;
                assert!(!empty || squares.len() < G::SQUARES - x.occupied().count() as usize + 1);
            }
        }
        assert!(centre > 0);
    }

    #[test]
    fn the_oracle_group_is_the_pipeline_group() {
        agrees::<MiniShogi>(3000);
        agrees::<Shogi>(600);
    }
}
