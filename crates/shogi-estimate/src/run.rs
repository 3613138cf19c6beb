//! Running the pipeline over a range of sample indices, in parallel, with durable
//! checkpoints; merging the results of shards.

use crate::config::{Estimator, RunConfig, Space};
use crate::counters::{sample_digest, Counters};
use crate::error::{CountersError, EstimateError};
use crate::pipeline::{evaluate, evaluate_conditional_outcome, Phase2, SampleSource};
use crate::segment::{now_utc, Segment, BLOCK};
use crate::state::RunState;
use crate::target::TARGET_STEP;
use core::ops::ControlFlow;
use rayon::prelude::*;
use shogi_core::GameKind;
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{
    full_placement_table, full_table, PlacementSampler, PlacementTable, RankTable, Sampler,
};
use shogi_reach::Searcher;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Samples a worker takes at a time. Small enough to balance the threads, large enough that
/// the bookkeeping is negligible.
const CHUNK: u64 = 256;

/// The threads to use: the request, else `SLURM_CPUS_PER_TASK`, else every allowed core;
/// never more than the cores this process may run on (its CPU affinity mask, which
/// `available_parallelism` reads on Linux).
pub fn thread_count(requested: Option<usize>) -> Result<usize, String> {
    let allowed = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = match requested {
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => n,
        None => match std::env::var("SLURM_CPUS_PER_TASK") {
            Ok(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("SLURM_CPUS_PER_TASK=`{v}` is not a positive number"))?,
            Err(_) => allowed,
        },
    };
    Ok(wanted.min(allowed))
}

/// How to run: threads, checkpoints, batch size.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where to checkpoint, if anywhere.
    pub checkpoint: Option<PathBuf>,
    /// Least time between checkpoints.
    pub checkpoint_every: Duration,
    /// Samples per batch: progress is reported and checkpoints are written between batches.
    pub batch: u64,
    /// Set (by a signal handler, say) to stop the run early: the workers finish the chunk
    /// they are in, the counters are cut back to the samples done without a gap, a final
    /// checkpoint is written, and [`run`] returns [`RunEnd::Cancelled`]. Resuming from that
    /// checkpoint counts every sample exactly once.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl RunOptions {
    /// `threads` workers, no checkpoint, batches of 64 chunks per thread.
    pub fn new(threads: usize) -> RunOptions {
        let threads = threads.max(1);
        RunOptions {
            threads,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(30),
            batch: CHUNK * 64 * threads as u64,
            cancel: None,
        }
    }
}

/// How a call to [`run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every sample of the range is counted (and the final state saved, if checkpointing).
    Complete,
    /// The run's precision target was met after `state.next` samples: the run is cut to
    /// them (`config.samples` is set to the samples done), complete as such and saved.
    TargetReached,
    /// The callback asked to stop; the counters cover the samples before `state.next`.
    Stopped,
    /// [`RunOptions::cancel`] was set; the counters cover the samples before `state.next`,
    /// and the checkpoint, if any, holds them.
    Cancelled,
}

/// Runs `state` to the end of its range, or to its precision target
/// ([`RunConfig::target`]). After each batch `after_batch` sees the state and may stop the
/// run (a stop saves nothing, like a kill: what the last checkpoint holds is what a resume
/// starts from). Setting [`RunOptions::cancel`] instead stops the run with a final
/// checkpoint.
pub fn run(
    state: &mut RunState,
    options: &RunOptions,
    after_batch: impl FnMut(&RunState) -> ControlFlow<()>,
) -> Result<RunEnd, EstimateError> {
    state.check().map_err(|e| EstimateError::Config(e.0))?;
    match state.config.game {
        GameKind::Shogi => run_game::<Shogi>(state, options, after_batch),
        GameKind::Mini => run_game::<MiniShogi>(state, options, after_batch),
    }
}

fn run_game<G: Game>(
    state: &mut RunState,
    options: &RunOptions,
    after_batch: impl FnMut(&RunState) -> ControlFlow<()>,
) -> Result<RunEnd, EstimateError> {
    struct Drive<'a, F> {
        state: &'a mut RunState,
        options: &'a RunOptions,
        after_batch: F,
    }
    impl<G: Game, F: FnMut(&RunState) -> ControlFlow<()>> WithSource<G> for Drive<'_, F> {
        type Out = Result<RunEnd, EstimateError>;
        fn with<S: SampleSource<G>>(self, source: &S) -> Self::Out {
            drive(self.state, self.options, self.after_batch, source)
        }
    }
    let config = state.config.clone();
    with_source::<G, _>(
        &config,
        Drive {
            state,
            options,
            after_batch,
        },
    )?
}

/// Work to do with the sampler of a run: [`with_source`] calls it with the sampler the
/// configuration asks for, whose type is then known at compile time.
pub(crate) trait WithSource<G: Game> {
    /// What the work returns.
    type Out;
    /// Does the work with `source`.
    fn with<S: SampleSource<G>>(self, source: &S) -> Self::Out;
}

/// Builds the sampler of `config` (its space, material and seed) and hands it to `work`.
pub(crate) fn with_source<G: Game, W: WithSource<G>>(
    config: &RunConfig,
    work: W,
) -> Result<W::Out, EstimateError> {
    let material = config.material();
    let bad_material = |e: shogi_rank::MaterialError| {
        EstimateError::Config(format!("material {:?}: {e}", material.0))
    };
    let seed = config.seed;
    Ok(match config.space {
        Space::Candidate => {
            let owned;
            let table: &RankTable<G> = if material == G::MATERIAL {
                full_table::<G>()
            } else {
                owned = RankTable::<G>::new(&material).map_err(bad_material)?;
                &owned
            };
            work.with(&Sampler::new(table, seed))
        }
        Space::PlacementLegal => {
            let owned;
            let table: &PlacementTable<G> = if material == G::MATERIAL {
                full_placement_table::<G>()
            } else {
                owned = PlacementTable::<G>::new(&material).map_err(bad_material)?;
                &owned
            };
            work.with(&PlacementSampler::new(table, seed))
        }
    })
}

/// The chunks of `next..stop`: they end on the multiples of [`CHUNK`] counted from `start`,
/// so that every multiple of [`TARGET_STEP`] is a chunk boundary whatever the batch size
/// and wherever an interrupted run resumed, and on the multiples of [`BLOCK`], so that
/// every chunk lies in one block of the digests.
fn chunks(start: u64, next: u64, stop: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut a = next;
    while a < stop {
        let b = start
            .saturating_add(((a - start) / CHUNK + 1).saturating_mul(CHUNK))
            .min((a / BLOCK).saturating_add(1).saturating_mul(BLOCK))
            .min(stop);
        out.push((a, b));
        a = b;
    }
    out
}

/// What the workers share to count samples: the sampler, one searcher a thread, and how a
/// sample is evaluated and counted. Runs and recounts both count through it, so that a
/// recount is the run's own code.
pub(crate) struct Engine<'a, G: Game, S> {
    sampler: &'a S,
    pool: rayon::ThreadPool,
    searchers: Vec<Mutex<Searcher<G>>>,
    phase2: Option<Phase2>,
    conditional: Option<Phase2>,
    figure_samples: u64,
    empty: Counters,
}

/// The counters and digest of one chunk, or `None` for a chunk skipped after a
/// cancellation.
type Part = Option<Result<(Counters, u64), CountersError>>;

impl<'a, G: Game, S: SampleSource<G>> Engine<'a, G, S> {
    pub(crate) fn new(
        config: &RunConfig,
        sampler: &'a S,
        threads: usize,
    ) -> Result<Engine<'a, G, S>, EstimateError> {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EstimateError::Config(format!("cannot start {threads} threads: {e}")))?;
        let search = config.search_config();
        let phase2 = config.phase2_rate.map(|rate| Phase2 {
            seed: config.seed,
            rate,
        });
        let conditional = match (config.estimator, phase2) {
            (Estimator::Indicator, _) => None,
            (Estimator::Conditional, Some(p)) => Some(p),
            (Estimator::Conditional, None) => {
                return Err(EstimateError::Config(config.check_estimator().unwrap_err()))
            }
        };
        Ok(Engine {
            sampler,
            pool,
            searchers: (0..threads)
                .map(|_| Mutex::new(Searcher::new(search)))
                .collect(),
            phase2,
            conditional,
            figure_samples: config.figure_samples,
            empty: RunState::new(config.clone()).counters,
        })
    }

    /// Counts the chunks in parallel; the results come back in the order of `chunks`.
    fn count(&self, chunks: &[(u64, u64)], cancelled: &(dyn Fn() -> bool + Sync)) -> Vec<Part> {
        let threads = self.searchers.len();
        self.pool.install(|| {
            chunks
                .par_iter()
                .map(|&(a, b)| {
                    if cancelled() {
                        return None;
                    }
                    let worker = rayon::current_thread_index().unwrap_or(0) % threads;
                    let mut searcher = self.searchers[worker]
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    Some(self.count_chunk(&mut searcher, a, b))
                })
                .collect()
        })
    }

    /// The counters and the digest of samples `a..b`.
    fn count_chunk(
        &self,
        searcher: &mut Searcher<G>,
        a: u64,
        b: u64,
    ) -> Result<(Counters, u64), CountersError> {
        let mut c = self.empty.clone();
        let mut digest = 0u64;
        for i in a..b {
            match self.conditional {
                None => {
                    let outcome = evaluate(self.sampler, searcher, i, self.phase2);
                    digest = digest.wrapping_add(sample_digest(i, &outcome, None));
                    c.add(i, outcome, self.figure_samples)?;
                }
                Some(p) => {
                    let (outcome, weight) =
                        evaluate_conditional_outcome(self.sampler, searcher, i, p);
                    digest = digest.wrapping_add(sample_digest(i, &outcome, Some(weight)));
                    c.add_weighted(i, outcome, weight, self.figure_samples)?;
                }
            }
        }
        Ok((c, digest))
    }

    /// Recounts samples `a..b` (in a run whose range starts at `origin`): their counters,
    /// and the digest of each block the range meets. `progress` sees the samples done.
    pub(crate) fn recount(
        &self,
        origin: u64,
        a: u64,
        b: u64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(Counters, Vec<u64>), EstimateError> {
        let mut total = self.empty.clone();
        let mut digests: Vec<u64> = Vec::new();
        let first_block = a / BLOCK;
        let batch = CHUNK * 64 * self.searchers.len() as u64;
        let mut next = a;
        while next < b {
            let stop = next.saturating_add(batch).min(b);
            let chunks = chunks(origin, next, stop);
            for (part, &(x, y)) in self.count(&chunks, &|| false).into_iter().zip(&chunks) {
                let (c, d) = part.expect("nothing cancels a recount")?;
                total.merge(&c)?;
                let at = (x / BLOCK - first_block) as usize;
                if digests.len() <= at {
                    digests.resize(at + 1, 0);
                }
                digests[at] = digests[at].wrapping_add(d);
                next = y;
            }
            progress(next - a);
        }
        Ok((total, digests))
    }
}

/// Runs the samples of `state` drawn by `sampler`.
fn drive<G: Game, S: SampleSource<G>>(
    state: &mut RunState,
    options: &RunOptions,
    mut after_batch: impl FnMut(&RunState) -> ControlFlow<()>,
    sampler: &S,
) -> Result<RunEnd, EstimateError> {
    let threads = options.threads.max(1);
    let engine = Engine::new(&state.config, sampler, threads)?;
    let target = match state.config.target {
        Some(t) => Some((t, crate::report::space_size(&state.config)?)),
        None => None,
    };
    let start = state.config.range().start;
    let end = state.config.range().end;
    let batch = options.batch.max(CHUNK);
    state.threads = threads;
    let mut last_save = Instant::now();
    let session_start = Instant::now();
    let base_elapsed = state.elapsed_seconds;
    let cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst))
    };
    // This session's segment, opened at its first sample (a session that counts nothing
    // leaves none).
    let mut segment: Option<usize> = None;
    let stamp = |state: &mut RunState, segment: Option<usize>| {
        let session = session_start.elapsed().as_secs_f64();
        state.elapsed_seconds = base_elapsed + session;
        if let Some(i) = segment {
            let s = &mut state.segments[i];
            s.elapsed_seconds = session;
            s.ended = Some(now_utc());
        }
    };
    let mut reached = false;
    while state.next < end && !cancelled() {
        // Saturating: a range that ends near u64::MAX must not wrap around.
        let stop = state.next.saturating_add(batch).min(end);
        let chunks = chunks(start, state.next, stop);
        // Chunks run out of order, so only the leading run of finished chunks is kept: the
        // counters then cover exactly the samples before `next`, and a resume redoes the rest.
        let parts = engine.count(&chunks, &cancelled);
        // In sample order, one chunk at a time: the counters cover exactly the samples
        // before `next` after every step (`merge` changes nothing when it fails), and the
        // target is tested on the counters of the multiples of TARGET_STEP.
        for (part, &(a, b)) in parts.iter().zip(&chunks) {
            match part {
                None => break,
                Some(Err(e)) => return Err(EstimateError::Overflow(e.to_string())),
                Some(Ok((c, digest))) => {
                    let i = *segment.get_or_insert_with(|| {
                        state.segments.push(Segment::open(
                            state.next,
                            threads,
                            engine.empty.clone(),
                        ));
                        state.segments.len() - 1
                    });
                    // An overflow (which no honest run reaches) ends the run with an error
                    // and nothing saved, so the two sums need not fail together.
                    state.segments[i].extend(a, b, c, *digest)?;
                    state.counters.merge(c)?;
                    state.next = b;
                }
            }
            if let Some((t, space)) = &target {
                if (b - start).is_multiple_of(TARGET_STEP)
                    && b < end
                    && t.reached(&state.counters, space)
                {
                    reached = true;
                    break;
                }
            }
        }
        if reached {
            // The run is the samples done, complete as such.
            state.config.samples = state.next;
        }
        state.complete = state.next == state.config.range().end;
        stamp(state, segment);
        if let Some(path) = &options.checkpoint {
            if state.complete || last_save.elapsed() >= options.checkpoint_every {
                state.save(path)?;
                last_save = Instant::now();
            }
        }
        if reached {
            return Ok(RunEnd::TargetReached);
        }
        if cancelled() && !state.complete {
            break;
        }
        if after_batch(state).is_break() && !state.complete {
            return Ok(RunEnd::Stopped);
        }
    }
    if !state.complete {
        // Cancelled, possibly before the first batch: leave a checkpoint of what is done.
        stamp(state, segment);
        if let Some(path) = &options.checkpoint {
            state.save(path)?;
        }
        return Ok(RunEnd::Cancelled);
    }
    if let Some(path) = &options.checkpoint {
        // An empty range or an already complete state still leaves its result file.
        if !path.exists() {
            state.save(path)?;
        }
    }
    Ok(RunEnd::Complete)
}

/// The sum of the results of shards of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The run; its shard is [`Shard::WHOLE`](crate::Shard::WHOLE) when the files cover
    /// every sample, else that of the first file.
    pub config: RunConfig,
    /// The shards of the files, in the order of their ranges.
    pub shards: Vec<crate::Shard>,
    /// The sample ranges no file covers (empty for a complete merge).
    pub missing: Vec<core::ops::Range<u64>>,
    /// The summed counters.
    pub counters: Counters,
    /// The summed wall-clock seconds of the shards.
    pub elapsed_seconds: f64,
    /// The worker threads of each shard's last session, in the order of `shards`.
    pub threads: Vec<usize>,
    /// The segments of all the files, in sample order.
    pub segments: Vec<Segment>,
}

impl Merged {
    /// Whether the files cover every sample of the run.
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty()
    }
}

/// Adds up the results of shards of one run: all of the same run (the same
/// [`RunConfig::run_id`]: every setting but the shard), their sample ranges disjoint. Unless
/// `partial`, each must be complete and together they must cover every sample; with it, an
/// unfinished file counts the samples it has done, and the ranges no file counts are listed
/// in [`Merged::missing`].
pub fn merge(files: &[(PathBuf, RunState)], partial: bool) -> Result<Merged, EstimateError> {
    let Some((first_path, first)) = files.first() else {
        return Err(EstimateError::Merge("no files given".into()));
    };
    let mut order: Vec<&(PathBuf, RunState)> = Vec::with_capacity(files.len());
    for file @ (path, s) in files {
        s.check().map_err(|e| EstimateError::Corrupt {
            path: path.clone(),
            reason: e.0,
        })?;
        if let Some(reason) = first.config.difference(&s.config, true) {
            return Err(EstimateError::Merge(format!(
                "{} and {} are from different runs: {reason}",
                first_path.display(),
                path.display()
            )));
        }
        if !s.complete && !partial {
            let (done, total) = s.progress();
            return Err(EstimateError::Merge(format!(
                "{} is incomplete ({done} of {total} samples); finish it with --resume, or \
                 pass --partial to report the samples done",
                path.display()
            )));
        }
        order.push(file);
    }
    order.sort_by_key(|(_, s)| (s.config.range().start, s.config.range().end));
    let mut merged = Merged {
        config: first.config.clone(),
        shards: Vec::new(),
        missing: Vec::new(),
        counters: RunState::new(first.config.clone()).counters,
        elapsed_seconds: 0.0,
        threads: Vec::new(),
        segments: Vec::new(),
    };
    let mut covered = 0u64;
    let mut previous: Option<&(PathBuf, RunState)> = None;
    for file @ (path, s) in order {
        // An unfinished run (only with `partial`) holds the samples before its `next`: those
        // its counters count, in order; the rest of its range is missing.
        let r = if s.complete {
            s.config.range()
        } else {
            s.config.range().start..s.next
        };
        if r.start < covered {
            let (p, q) = previous.expect("a range below `covered` follows another");
            let what = if q.config.shard == s.config.shard {
                format!("shard {} appears twice", s.config.shard)
            } else {
                format!(
                    "shard {} (samples {}..{}) overlaps shard {} (samples {}..{})",
                    s.config.shard,
                    r.start,
                    r.end,
                    q.config.shard,
                    q.config.range().start,
                    q.config.range().end
                )
            };
            return Err(EstimateError::Merge(format!(
                "{what}: {} and {} count the same samples",
                p.display(),
                path.display()
            )));
        }
        if r.start > covered {
            merged.missing.push(covered..r.start);
        }
        covered = covered.max(r.end);
        if !s.complete {
            let end = s.config.range().end;
            if end > r.end {
                merged.missing.push(r.end..end);
                covered = covered.max(end);
            }
        }
        if r.start < r.end || previous.is_none() {
            previous = Some(file);
        }
        merged.shards.push(s.config.shard);
        merged.threads.push(s.threads);
        merged
            .counters
            .merge(&s.counters)
            .map_err(|e| EstimateError::Merge(format!("adding {}: {e}", path.display())))?;
        merged.elapsed_seconds += s.elapsed_seconds;
        merged.segments.extend(s.segments.iter().cloned());
    }
    if covered < first.config.samples {
        merged.missing.push(covered..first.config.samples);
    }
    if merged.missing.is_empty() {
        merged.config.shard = crate::Shard::WHOLE;
    } else if !partial {
        return Err(EstimateError::Merge(format!(
            "the files do not cover every sample of the run: {} missing; add the \
             missing shards, or pass --partial to report the samples present",
            missing_text(
                &merged.missing,
                first.config.shard.count,
                first.config.samples
            )
        )));
    }
    Ok(merged)
}

/// The ranges missing from a merge, as shards of the split into `count` where they are whole
/// shards of it, else as sample ranges.
pub fn missing_text(missing: &[core::ops::Range<u64>], count: u64, samples: u64) -> String {
    let mut parts = Vec::new();
    for m in missing {
        // The shards of the split that lie in `m`, if they tile it exactly (at most 16).
        let near = (u128::from(m.start) * u128::from(count) / u128::from(samples.max(1))) as u64;
        let mut shards = Vec::new();
        let mut k = near.saturating_sub(1);
        while k < count && shards.len() <= 16 {
            let r = crate::Shard { index: k, count }.range(samples);
            if r.start >= m.end {
                break;
            }
            if r.end > m.start && !r.is_empty() {
                shards.push((k, r));
            }
            k += 1;
        }
        let tiles = shards.len() <= 16
            && shards.first().is_some_and(|(_, r)| r.start == m.start)
            && shards.last().is_some_and(|(_, r)| r.end == m.end);
        if tiles {
            parts.extend(shards.iter().map(|(k, _)| format!("shard {k}/{count}")));
        } else {
            parts.push(format!("samples {}..{}", m.start, m.end));
        }
    }
    parts.join(", ")
}
