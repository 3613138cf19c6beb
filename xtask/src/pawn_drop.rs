//! `cargo xtask pawn-drop-sensitivity`: the estimate's verdicts under the two readings of the
//! drop-pawn-mate rule, sample by sample (docs/METHOD.md §2, §10.7).
//!
//! The usual rule forbids a pawn drop that checks and mates; the paper's stated reading
//! forbids any pawn drop that leaves no legal reply. Every move legal under the second is
//! legal under the first, so a position's predecessors under the second are some of those
//! under the first, and a position reachable under the second is reachable under the
//! first: the readings can only disagree where the usual rule finds a predecessor, or a
//! path, that the other forbids.
//!
//! On the samples `estimate` draws (the same space, seed and indices; with the conditional
//! estimator, the same chosen position of each king group), this runs the estimate's own
//! pipeline under the usual rule with a phase-2 rate of its own, and for each sample:
//!
//! - **phase 1**: the predecessor test again under the paper's reading (every sample);
//! - **phase 2**: for each sample the pipeline searched, the verdict under the paper's
//!   reading: a reachable sample's certificate replayed with that reading's legal moves
//!   (which settles it), else a search under that reading.
//!
//! With no difference in `N` samples and `M` searches, the share of `π̂`'s samples the
//! reading changes is below `6.6/N` and the share of `ρ̂`'s below `6.6/M` (one-sided,
//! 99.865%), and the estimate `π̂ ρ̂` moves by at most `6.6/(N π̂) + 6.6/(M ρ̂)` relative.

use clap::Args;
use rayon::prelude::*;
use shogi_core::{Game, GameKind, MiniShogi, PawnDropRule, Rules, Shogi};
use shogi_estimate::{
    evaluate_conditional, evaluate_sample, parse_sample_count, Estimator, Phase2, RunConfig,
    SampleOutcome,
};
use shogi_rank::{full_placement_table, PlacementSampler};
use shogi_reach::{is_kk, Searcher, Verdict};
use shogi_verify::oracle::replay_certificate;
use std::sync::Mutex;
use std::time::Instant;

/// The options of `cargo xtask pawn-drop-sensitivity`.
#[derive(Args, Debug)]
pub struct PawnDropArgs {
    /// Which game: shogi, mini or both.
    #[arg(long, default_value = "both", value_parser = crate::parse_games)]
    game: crate::Games,
    /// Samples per game (`2e7`, `4e7` allowed).
    #[arg(long, default_value = "1000000", value_parser = parse_sample_count)]
    samples: u64,
    /// The first sample index (to split a long comparison).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// The seed: sample i is sample i of `estimate --seed S`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The estimator whose positions are compared (`conditional`: the chosen position of
    /// each sample's king group, as `estimate` takes it; `indicator`: the sample itself).
    #[arg(long, default_value = "conditional")]
    estimator: Estimator,
    /// The share of the samples with a predecessor searched (selected as phase 2 selects,
    /// in proportion to the conditional weight) [default: the estimate's rate].
    #[arg(long)]
    phase2_rate: Option<f64>,
}

#[derive(Default, Clone)]
struct Tally {
    samples: u64,
    /// Samples with a legal predecessor (or KK) under each reading.
    with_predecessor: [u64; 2],
    /// Samples searched (under the usual rule, by the pipeline).
    searched: u64,
    /// Of those, reachable under each reading.
    reachable: [u64; 2],
    /// Settled by replaying the certificate under the paper's reading.
    replayed: u64,
    /// Phase-1 verdicts that differ.
    differ_phase1: u64,
    /// Phase-2 verdicts that differ.
    differ_phase2: u64,
    examples: Vec<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.samples += o.samples;
        self.searched += o.searched;
        self.replayed += o.replayed;
        for k in 0..2 {
            self.with_predecessor[k] += o.with_predecessor[k];
            self.reachable[k] += o.reachable[k];
        }
        self.differ_phase1 += o.differ_phase1;
        self.differ_phase2 += o.differ_phase2;
        self.examples.extend(o.examples);
        self.examples.truncate(10);
    }
}

const USUAL: Rules = Rules {
    pawn_drop: PawnDropRule::MateOnly,
};
const PAPER: Rules = Rules {
    pawn_drop: PawnDropRule::NoLegalReply,
};

pub fn run(args: PawnDropArgs) -> Result<(), String> {
    let threads = shogi_estimate::thread_count(args.threads)?;
    let mut ok = true;
    for &game in &args.game.0 {
        ok &= match game {
            GameKind::Shogi => compare::<Shogi>(&args, game, threads)?,
            GameKind::Mini => compare::<MiniShogi>(&args, game, threads)?,
        };
    }
    if ok {
        Ok(())
    } else {
        Err("the readings of the drop-pawn-mate rule gave different verdicts".into())
    }
}

fn compare<G: Game>(args: &PawnDropArgs, game: GameKind, threads: usize) -> Result<bool, String> {
    let config = RunConfig::new(game, args.samples);
    let rate = args
        .phase2_rate
        .unwrap_or_else(|| shogi_estimate::default_phase2_rate(game));
    shogi_estimate::check_phase2_rate(rate).map_err(|e| format!("--phase2-rate: {e}"))?;
    let sampler = PlacementSampler::new(full_placement_table::<G>(), args.seed);
    let range = args.first..args.first.saturating_add(args.samples);
    println!(
        "pawn-drop-sensitivity {game}: samples {}..{} of seed {} in S, {} estimator, phase-2 rate {rate}, {threads} threads",
        range.start, range.end, args.seed, args.estimator
    );
    let start = Instant::now();
    let searchers: Vec<Mutex<[Searcher<G>; 2]>> = (0..threads)
        .map(|_| {
            Mutex::new([USUAL, PAPER].map(|r| {
                let mut s = config.search_config();
                s.rules = r;
                Searcher::new(s)
            }))
        })
        .collect();
    let phase2 = Phase2 {
        seed: args.seed,
        rate,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let chunk = 1u64 << 14;
    let chunks: Vec<(u64, u64)> = range
        .clone()
        .step_by(chunk as usize)
        .map(|a| (a, (a + chunk).min(range.end)))
        .collect();
    let done = std::sync::atomic::AtomicU64::new(0);
    let last = Mutex::new(Instant::now());
    let parts: Vec<Tally> = pool.install(|| {
        chunks
            .par_iter()
            .map(|&(a, b)| {
                let worker = rayon::current_thread_index().unwrap_or(0) % threads;
                let mut pair = searchers[worker].lock().unwrap_or_else(|e| e.into_inner());
                let mut t = Tally::default();
                for i in a..b {
                    t.samples += 1;
                    let (outcome, position, certificate) = match args.estimator {
                        Estimator::Conditional => {
                            let e = evaluate_conditional(&sampler, &mut pair[0], i, phase2);
                            let y = e.conditional.and_then(|(_, y)| y);
                            (e.outcome, y, e.certificate)
                        }
                        Estimator::Indicator => {
                            let e = evaluate_sample(&sampler, &mut pair[0], i, Some(phase2));
                            (e.outcome, Some(e.position), e.certificate)
                        }
                    };
                    use SampleOutcome::*;
                    let usual_pred = match outcome {
                        Mirror | Placement | Check | NoSafeSquare => continue,
                        NoPredecessor => false,
                        _ => true,
                    };
                    let y = position.expect("a sample past the filters has a position");
                    let paper_pred = is_kk(&y) || shogi_retro::has_predecessor(&y, PAPER);
                    t.with_predecessor[0] += u64::from(usual_pred);
                    t.with_predecessor[1] += u64::from(paper_pred);
                    if usual_pred != paper_pred {
                        t.differ_phase1 += 1;
                        if t.examples.len() < 10 {
                            t.examples.push(format!(
                                "sample {i} ({}): a predecessor under the usual rule {usual_pred}, under the paper's {paper_pred}",
                                y.to_sfen()
                            ));
                        }
                    }
                    let usual_reach = match outcome {
                        Reachable { .. } => true,
                        Unreachable { .. } | Unknown { .. } => false,
                        _ => continue,
                    };
                    t.searched += 1;
                    let paper_reach = match &certificate {
                        Some(c)
                            if replay_certificate(&c.kk, &c.moves, &y, PAPER).is_ok() =>
                        {
                            t.replayed += 1;
                            true
                        }
                        _ => pair[1].search(&y).verdict == Verdict::Reachable,
                    };
                    t.reachable[0] += u64::from(usual_reach);
                    t.reachable[1] += u64::from(paper_reach);
                    if usual_reach != paper_reach {
                        t.differ_phase2 += 1;
                        if t.examples.len() < 10 {
                            t.examples.push(format!(
                                "sample {i} ({}): reachable under the usual rule {usual_reach}, under the paper's {paper_reach}",
                                y.to_sfen()
                            ));
                        }
                    }
                }
                let n = done.fetch_add(b - a, std::sync::atomic::Ordering::Relaxed) + (b - a);
                if let Ok(mut l) = last.try_lock() {
                    if l.elapsed().as_secs() >= 30 {
                        *l = Instant::now();
                        eprintln!(
                            "  {n} of {} samples, {:.0}/s",
                            range.end - range.start,
                            n as f64 / start.elapsed().as_secs_f64()
                        );
                    }
                }
                t
            })
            .collect()
    });
    let mut t = Tally::default();
    for p in parts {
        t.add(p);
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{game}: {} samples in {seconds:.1} s ({:.0} samples/s)",
        t.samples,
        t.samples as f64 / seconds
    );
    println!(
        "  phase 1: {} with a predecessor under the usual rule, {} under the paper's reading; {} differ (share below {:.3e}, one-sided 99.865%)",
        t.with_predecessor[0],
        t.with_predecessor[1],
        t.differ_phase1,
        shogi_estimate::zero_of(t.samples)
    );
    println!(
        "  phase 2: {} searched; reachable {} under the usual rule, {} under the paper's ({} by the certificate replayed, the rest searched); {} differ (share below {:.3e})",
        t.searched,
        t.reachable[0],
        t.reachable[1],
        t.replayed,
        t.differ_phase2,
        shogi_estimate::zero_of(t.searched)
    );
    for e in &t.examples {
        println!("  DIFFERS: {e}");
    }
    Ok(t.differ_phase1 == 0 && t.differ_phase2 == 0)
}
