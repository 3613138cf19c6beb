//! `cargo xtask unreachable-audit`: every sample a run's searches called unreachable, found
//! again by index and proved unreachable by an independent oracle (docs/METHOD.md §10.7).
//!
//! Phase 2 searches a sample only if the hash of `(seed, index)` selects it, so the samples a
//! run searched are found again by testing the hash of every index of the run and evaluating
//! the few selected (0.2% in Shogi, 2% in Mini Shogi) with the pipeline's own function. The
//! tallies of those evaluations must equal the file's counters (searched, reachable,
//! unreachable by depth, unknown): then the samples found are exactly the run's. Each one
//! the search called unreachable is then handed to `shogi_verify::oracle::closure`, which
//! enumerates its whole backward closure with its own brute-force predecessors (no code of
//! shogi-retro or shogi-reach) and must find it finite and free of KK positions.

use clap::Args;
use rayon::prelude::*;
use shogi_core::{Game, GameKind, MiniShogi, Position, Shogi};
use shogi_estimate::{
    evaluate_conditional, evaluate_sample, phase2_selected, Estimator, Phase2, RunState,
    SampleOutcome, SampleSource, Space,
};
use shogi_rank::{full_placement_table, full_table, PlacementSampler, Sampler};
use shogi_reach::Searcher;
use shogi_verify::oracle::{closure, Closure};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// The options of `cargo xtask unreachable-audit`.
#[derive(Args, Debug)]
pub struct UnreachableAuditArgs {
    /// The run's state file (`estimate --out`, any format this version reads).
    #[arg(long)]
    file: PathBuf,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The most positions a closure may hold before the oracle gives up on it (reported as
    /// undecided, never as agreement).
    #[arg(long, default_value_t = 1_000_000)]
    cap: usize,
    /// Audit this segment of the file (repeatable; 0 is the first) [default: every one]:
    /// a run audited up to a checkpoint need only have its new segments audited later.
    #[arg(long)]
    segment: Vec<usize>,
    /// Also write one line a sample (index, depth, closure size, the position searched) to
    /// this file.
    #[arg(long)]
    list: Option<PathBuf>,
}

/// A searched sample the search called unreachable.
struct Found<G: Game> {
    index: u64,
    position: Position<G>,
    depth: u32,
}

/// What the searches of the selected samples gave, to compare with the file.
#[derive(Default, Clone, PartialEq, Debug)]
struct Tally {
    searched: u64,
    reachable: u64,
    unreachable: u64,
    unknown: u64,
    depths: Vec<u64>,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.searched += o.searched;
        self.reachable += o.reachable;
        self.unreachable += o.unreachable;
        self.unknown += o.unknown;
        if self.depths.len() < o.depths.len() {
            self.depths.resize(o.depths.len(), 0);
        }
        for (a, b) in self.depths.iter_mut().zip(&o.depths) {
            *a += b;
        }
    }
}

/// The oracle's closures tallied by size and by depth beside the search's, as the audit
/// and `unreachable-draw` print them.
#[derive(Default)]
pub(crate) struct ClosureSizes {
    /// Closures of one position (no predecessor), then by decade of size: 2–9, 10–99, …,
    /// 10,000 or more.
    by_decade: [u64; 6],
    largest: usize,
    positions: usize,
    /// (the search's depth, the closure's depth): how many.
    depths: std::collections::BTreeMap<(u32, u32), u64>,
}

impl ClosureSizes {
    /// Counts the closure `c` of a position the search traced back `search_depth` plies.
    pub(crate) fn add(&mut self, search_depth: u32, c: &Closure) {
        let b = if c.positions == 1 {
            0
        } else {
            1 + (c.positions as f64).log10().floor() as usize
        };
        self.by_decade[b.min(5)] += 1;
        self.largest = self.largest.max(c.positions);
        self.positions += c.positions;
        *self.depths.entry((search_depth, c.depth)).or_insert(0) += 1;
    }

    pub(crate) fn print(&self) {
        let s = &self.by_decade;
        println!(
            "closure sizes: 1: {}, 2-9: {}, 10-99: {}, 100-999: {}, 1,000-9,999: {}, 10,000 or more: {}; largest {}, {} positions in all",
            s[0], s[1], s[2], s[3], s[4], s[5], self.largest, self.positions
        );
        println!("(search depth, closure depth): count {:?}", self.depths);
    }
}

/// Indices a worker takes at a time: the hash test is a few nanoseconds, so chunks are large.
const CHUNK: u64 = 1 << 20;

pub fn run(args: UnreachableAuditArgs) -> Result<(), String> {
    let (state, threads) = open_run(&args.file, args.threads)?;
    match state.config.game {
        GameKind::Shogi => audit::<Shogi>(&args, &state, threads),
        GameKind::Mini => audit::<MiniShogi>(&args, &state, threads),
    }
}

/// A run's state file and the worker threads, with rayon's pool set up for them.
pub(crate) fn open_run(
    file: &std::path::Path,
    threads: Option<usize>,
) -> Result<(RunState, usize), String> {
    let state = RunState::load(file).map_err(|e| e.to_string())?;
    let threads = shogi_estimate::thread_count(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    Ok((state, threads))
}

fn audit<G: Game>(
    args: &UnreachableAuditArgs,
    state: &RunState,
    threads: usize,
) -> Result<(), String> {
    let c = &state.config;
    if c.material() != G::MATERIAL {
        return Err("the audit reads runs of the standard material only".into());
    }
    match c.space {
        Space::PlacementLegal => {
            let s = PlacementSampler::new(full_placement_table::<G>(), c.seed);
            audit_with(args, state, threads, &s)
        }
        Space::Candidate => {
            let s = Sampler::new(full_table::<G>(), c.seed);
            audit_with(args, state, threads, &s)
        }
    }
}

fn audit_with<G: Game, S: SampleSource<G>>(
    args: &UnreachableAuditArgs,
    state: &RunState,
    threads: usize,
    sampler: &S,
) -> Result<(), String> {
    let c = &state.config;
    let Some(rate) = c.phase2_rate else {
        return Err("a run without two-phase sampling searched every survivor: its unreachable samples are found by `sample --phase2-rate none`, not by index".into());
    };
    let phase2 = Phase2 { seed: c.seed, rate };
    let conditional = c.estimator == Estimator::Conditional;
    let search = c.search_config();
    let rules = search.rules;
    let chosen: Vec<usize> = if args.segment.is_empty() {
        (0..state.segments.len()).collect()
    } else {
        args.segment.clone()
    };
    if let Some(&bad) = chosen.iter().find(|&&i| i >= state.segments.len()) {
        return Err(format!(
            "segment {bad} does not exist: the file has {}",
            state.segments.len()
        ));
    }
    let segments: Vec<&shogi_estimate::Segment> =
        chosen.iter().map(|&i| &state.segments[i]).collect();
    let samples: u64 = segments.iter().map(|s| s.samples()).sum();
    println!(
        "unreachable-audit {}: {} run of seed {}, {} estimator, phase-2 rate {rate}: segments {chosen:?}, {samples} samples, {threads} threads",
        args.file.display(),
        c.game,
        c.seed,
        c.estimator
    );
    let t0 = Instant::now();
    let searchers: Vec<Mutex<Searcher<G>>> = (0..threads)
        .map(|_| Mutex::new(Searcher::new(search)))
        .collect();
    let chunks: Vec<(usize, u64, u64)> = segments
        .iter()
        .enumerate()
        .flat_map(|(k, s)| {
            (s.start..s.end)
                .step_by(CHUNK as usize)
                .map(move |a| (k, a, (a + CHUNK).min(s.end)))
        })
        .collect();
    let done = std::sync::atomic::AtomicU64::new(0);
    let last = Mutex::new(Instant::now());
    let parts: Vec<(usize, Tally, Vec<Found<G>>)> = chunks
        .par_iter()
        .map(|&(k, a, b)| {
            let worker = rayon::current_thread_index().unwrap_or(0) % threads;
            let mut searcher = searchers[worker].lock().unwrap_or_else(|e| e.into_inner());
            let mut tally = Tally::default();
            let mut found = Vec::new();
            for i in a..b {
                if !phase2_selected(c.seed, i, rate) {
                    continue;
                }
                let (outcome, position) = if conditional {
                    let e = evaluate_conditional(sampler, &mut searcher, i, phase2);
                    let y = e.conditional.and_then(|(_, y)| y);
                    (e.outcome, y)
                } else {
                    let e = evaluate_sample(sampler, &mut searcher, i, Some(phase2));
                    (e.outcome, Some(e.position))
                };
                match outcome {
                    SampleOutcome::Reachable { .. } => {
                        tally.searched += 1;
                        tally.reachable += 1;
                    }
                    SampleOutcome::Unreachable { depth, .. } => {
                        tally.searched += 1;
                        tally.unreachable += 1;
                        let d = depth as usize;
                        if tally.depths.len() <= d {
                            tally.depths.resize(d + 1, 0);
                        }
                        tally.depths[d] += 1;
                        found.push(Found {
                            index: i,
                            position: position.expect("a searched sample has a position"),
                            depth,
                        });
                    }
                    SampleOutcome::Unknown { .. } => {
                        tally.searched += 1;
                        tally.unknown += 1;
                    }
                    _ => {}
                }
            }
            let n = done.fetch_add(b - a, std::sync::atomic::Ordering::Relaxed) + (b - a);
            if let Ok(mut l) = last.try_lock() {
                if l.elapsed().as_secs() >= 30 {
                    *l = Instant::now();
                    eprintln!(
                        "  {n} of {samples} indices, {:.0}/s",
                        n as f64 / t0.elapsed().as_secs_f64()
                    );
                }
            }
            (k, tally, found)
        })
        .collect();
    let mut tallies = vec![Tally::default(); segments.len()];
    let mut found: Vec<Found<G>> = Vec::new();
    for (k, t, f) in parts {
        tallies[k].add(&t);
        found.extend(f);
    }
    let find_seconds = t0.elapsed().as_secs_f64();
    let mut tally = Tally::default();
    for ((&i, s), t) in chosen.iter().zip(&segments).zip(&tallies) {
        let k = &s.counters;
        let file = Tally {
            searched: k.two_phase.map_or(0, |t| t.searched),
            reachable: k.reachable,
            unreachable: k.unreachable,
            unknown: k.unknown,
            depths: k.unreachable_depths.clone(),
        };
        if *t != file {
            return Err(format!(
                "segment {i}: the searches found again ({} searched, {} reachable, {} unreachable by depth {:?}, {} unknown) are not the file's ({} searched, {} reachable, {} unreachable by depth {:?}, {} unknown)",
                t.searched, t.reachable, t.unreachable, t.depths, t.unknown,
                file.searched, file.reachable, file.unreachable, file.depths, file.unknown
            ));
        }
        tally.add(t);
    }
    println!(
        "found again in {find_seconds:.0} s: {} searched, {} reachable, {} unreachable (by depth {:?}), {} unknown",
        tally.searched, tally.reachable, tally.unreachable, tally.depths, tally.unknown
    );
    println!("segment by segment the same as the file's counters: these are exactly the run's unreachable samples");

    let t1 = Instant::now();
    let closures: Vec<Closure> = found
        .par_iter()
        .map(|f| closure(&f.position, rules, args.cap))
        .collect();
    let proved = closures.iter().filter(|c| c.proves_unreachable()).count();
    let kk: Vec<usize> = (0..found.len()).filter(|&i| closures[i].found_kk).collect();
    let undecided = found.len() - proved - kk.len();
    let mut sizes = ClosureSizes::default();
    for (f, c) in found.iter().zip(&closures) {
        sizes.add(f.depth, c);
    }
    println!(
        "oracle closures in {:.0} s: {proved} proved unreachable, {} reached a KK position, {undecided} undecided (cap {})",
        t1.elapsed().as_secs_f64(),
        kk.len(),
        args.cap
    );
    sizes.print();
    if let Some(path) = &args.list {
        let mut w = std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
        let _ = writeln!(
            w,
            "# index\tsearch_depth\tclosure_positions\tclosure_depth\tverdict\tsfen"
        );
        for (f, c) in found.iter().zip(&closures) {
            let v = if c.proves_unreachable() {
                "unreachable"
            } else if c.found_kk {
                "REACHABLE"
            } else {
                "undecided"
            };
            let _ = writeln!(
                w,
                "{}\t{}\t{}\t{}\t{v}\t{}",
                f.index,
                f.depth,
                c.positions,
                c.depth,
                f.position.to_sfen()
            );
        }
    }
    for &i in &kk {
        println!(
            "DISAGREEMENT: sample {} ({}) reaches a KK position by the oracle",
            found[i].index,
            found[i].position.to_sfen()
        );
    }
    if !kk.is_empty() || undecided > 0 {
        return Err(format!(
            "{} disagreements and {undecided} undecided closures",
            kk.len()
        ));
    }
    Ok(())
}
