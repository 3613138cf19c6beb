//! Running the pipeline over a range of sample indices, in parallel, with durable
//! checkpoints; merging the results of shards.

use crate::config::{check_phase2_rate, RunConfig, Space};
use crate::counters::Counters;
use crate::pipeline::{evaluate, Phase2, SampleSource};
use core::ops::ControlFlow;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shogi_core::GameKind;
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{
    full_placement_table, full_table, PlacementSampler, PlacementTable, RankTable, Sampler,
};
use shogi_reach::Searcher;
use std::io::Read;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The format tag of state files; a file with another tag is refused.
pub const FORMAT: &str = "shogi-count-estimate/1";

/// Samples a worker takes at a time. Small enough to balance the threads, large enough that
/// the bookkeeping is negligible.
const CHUNK: u64 = 256;

/// The largest state file read. Honest files hold a few megabytes at most (the Figure 18
/// points are the bulk); the limit keeps `--resume /dev/zero` or a runaway file from
/// exhausting memory.
const MAX_STATE_FILE: u64 = 1 << 30;

/// Why a run or a merge could not go on.
#[derive(Debug)]
pub enum EstimateError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A state file is not valid.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A state file belongs to another run.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which setting differs.
        reason: String,
    },
    /// Shard files that cannot be merged (overlapping, incomplete, from different runs).
    Merge(String),
    /// The material or another setting cannot be run.
    Config(String),
    /// A counter would exceed a `u64`.
    Overflow(String),
}

impl core::fmt::Display for EstimateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EstimateError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EstimateError::Corrupt { path, reason } => {
                write!(f, "{}: not a valid estimate state file: {reason}", path.display())
            }
            EstimateError::Mismatch { path, reason } => write!(
                f,
                "{}: made by a different run ({reason}); use another --out file or the same settings",
                path.display()
            ),
            EstimateError::Merge(reason) => write!(f, "cannot merge: {reason}"),
            EstimateError::Config(reason) => f.write_str(reason),
            EstimateError::Overflow(reason) => write!(f, "counter overflow: {reason}"),
        }
    }
}

impl std::error::Error for EstimateError {}

/// The durable state of a run: its configuration, how far it got and its counters. Written
/// as JSON to checkpoints and as the final result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// [`FORMAT`].
    pub format: String,
    /// The run.
    pub config: RunConfig,
    /// Every sample index from the start of the shard's range up to (not including) `next`
    /// is counted, and no other.
    pub next: u64,
    /// Whether the whole range is done.
    pub complete: bool,
    /// Wall-clock seconds spent, over all sessions of the run.
    pub elapsed_seconds: f64,
    /// Worker threads of the last session (for the throughput report only).
    pub threads: usize,
    /// The counters.
    pub counters: Counters,
}

impl RunState {
    /// A run that has not started (and so is complete if its range is empty).
    pub fn new(config: RunConfig) -> RunState {
        let range = config.range();
        let two_phase = config.phase2_rate.is_some();
        RunState {
            format: FORMAT.to_string(),
            next: range.start,
            config,
            complete: range.is_empty(),
            elapsed_seconds: 0.0,
            threads: 0,
            counters: Counters::new(two_phase),
        }
    }

    /// Samples done and samples in the range.
    pub fn progress(&self) -> (u64, u64) {
        let r = self.config.range();
        (self.next - r.start, r.end - r.start)
    }

    /// Reads a state file, checking that it is well formed and self-consistent. Errors name
    /// the file and, where it is a single one, the field at fault.
    pub fn load(path: &Path) -> Result<RunState, EstimateError> {
        let io = |error| EstimateError::Io {
            path: path.to_path_buf(),
            error,
        };
        let corrupt = |reason: String| EstimateError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        // A FIFO or a device would block or never end: only regular files are state files.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(corrupt("not a regular file".into()));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_STATE_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_STATE_FILE {
            return Err(corrupt(format!(
                "larger than {MAX_STATE_FILE} bytes, far beyond any state file"
            )));
        }
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let state: RunState = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let at = e.path().to_string();
            if at == "." || at.is_empty() {
                corrupt(e.inner().to_string())
            } else {
                corrupt(format!("field `{at}`: {}", e.inner()))
            }
        })?;
        de.end().map_err(|e| corrupt(e.to_string()))?;
        if state.format != FORMAT {
            return Err(corrupt(format!(
                "field `format` is `{}`, expected `{FORMAT}`",
                state.format
            )));
        }
        state.check().map_err(corrupt)?;
        Ok(state)
    }

    /// Checks that the state is self-consistent: the shard, the progress, the completion
    /// flag, the counters and the Figure 18 points agree. The error names the field.
    pub fn check(&self) -> Result<(), String> {
        let c = &self.config;
        if let Some(rate) = c.phase2_rate {
            check_phase2_rate(rate).map_err(|e| format!("field `config.phase2_rate`: {e}"))?;
        }
        if c.phase2_rate.is_some() != self.counters.two_phase.is_some() {
            return Err(format!(
                "field `counters.two_phase`: {} for a run {} two-phase sampling",
                if self.counters.two_phase.is_some() {
                    "present"
                } else {
                    "absent"
                },
                if c.phase2_rate.is_some() {
                    "with"
                } else {
                    "without"
                }
            ));
        }
        if c.shard.count == 0 || c.shard.index >= c.shard.count {
            return Err(format!(
                "field `config.shard`: shard {} is out of range (K/N needs K < N)",
                c.shard
            ));
        }
        let r = c.range();
        if !(r.start..=r.end).contains(&self.next) {
            return Err(format!(
                "field `next`: sample {} is outside the shard's range {}..{}",
                self.next, r.start, r.end
            ));
        }
        if self.counters.samples != self.next - r.start {
            return Err(format!(
                "field `counters.samples`: {} samples counted but {} done (next {} from {})",
                self.counters.samples,
                self.next - r.start,
                self.next,
                r.start
            ));
        }
        if self.complete != (self.next == r.end) {
            return Err(format!(
                "field `complete`: the completion flag ({}) contradicts the progress ({} of {} samples)",
                self.complete,
                self.next - r.start,
                r.end - r.start
            ));
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return Err(format!(
                "field `elapsed_seconds`: {} is not a duration",
                self.elapsed_seconds
            ));
        }
        if let (Some(first), Some(last)) =
            (self.counters.figure.first(), self.counters.figure.last())
        {
            if first.index < r.start || last.index >= self.next || last.index >= c.figure_samples {
                return Err(
                    "field `counters.figure`: a point lies outside the samples done".into(),
                );
            }
        }
        self.counters.check().map_err(|e| format!("counters: {e}"))
    }

    /// Writes the state atomically: to a temporary file beside `path`, flushed to disk,
    /// then renamed over `path`, so a kill at any moment leaves the old or the new state.
    pub fn save(&self, path: &Path) -> Result<(), EstimateError> {
        let io = |error| EstimateError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let json = serde_json::to_string_pretty(self).expect("a state serialises");
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        file.write_all(json.as_bytes()).map_err(io)?;
        file.write_all(b"\n").map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&tmp, path).map_err(io)?;
        // The rename itself is durable only once the directory is flushed.
        if let Some(dir) = path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }

    /// Loads `path` to continue the run `config`, refusing a file made by another run.
    pub fn resume(path: &Path, config: &RunConfig) -> Result<RunState, EstimateError> {
        let state = RunState::load(path)?;
        if let Some(reason) = state.config.difference(config, false) {
            return Err(EstimateError::Mismatch {
                path: path.to_path_buf(),
                reason,
            });
        }
        Ok(state)
    }
}

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
    /// The callback asked to stop; the counters cover the samples before `state.next`.
    Stopped,
    /// [`RunOptions::cancel`] was set; the counters cover the samples before `state.next`,
    /// and the checkpoint, if any, holds them.
    Cancelled,
}

/// Runs `state` to the end of its range. After each batch `after_batch` sees the state and
/// may stop the run (a stop saves nothing, like a kill: what the last checkpoint holds is
/// what a resume starts from). Setting [`RunOptions::cancel`] instead stops the run with a
/// final checkpoint.
pub fn run(
    state: &mut RunState,
    options: &RunOptions,
    after_batch: impl FnMut(&RunState) -> ControlFlow<()>,
) -> Result<RunEnd, EstimateError> {
    state.check().map_err(EstimateError::Config)?;
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
    let material = state.config.material();
    let bad_material = |e: shogi_rank::MaterialError| {
        EstimateError::Config(format!("material {:?}: {e}", material.0))
    };
    let seed = state.config.seed;
    match state.config.space {
        Space::Candidate => {
            let owned;
            let table: &RankTable<G> = if material == G::MATERIAL {
                full_table::<G>()
            } else {
                owned = RankTable::<G>::new(&material).map_err(bad_material)?;
                &owned
            };
            drive(state, options, after_batch, &Sampler::new(table, seed))
        }
        Space::PlacementLegal => {
            let owned;
            let table: &PlacementTable<G> = if material == G::MATERIAL {
                full_placement_table::<G>()
            } else {
                owned = PlacementTable::<G>::new(&material).map_err(bad_material)?;
                &owned
            };
            drive(
                state,
                options,
                after_batch,
                &PlacementSampler::new(table, seed),
            )
        }
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| EstimateError::Config(format!("cannot start {threads} threads: {e}")))?;
    let search = state.config.search_config();
    let searchers: Vec<Mutex<Searcher<G>>> = (0..threads)
        .map(|_| Mutex::new(Searcher::new(search)))
        .collect();
    let figure_samples = state.config.figure_samples;
    let two_phase = state.config.phase2_rate.is_some();
    let phase2 = state.config.phase2_rate.map(|rate| Phase2 {
        seed: state.config.seed,
        rate,
    });
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
    while state.next < end && !cancelled() {
        // Saturating: a range that ends near u64::MAX must not wrap around.
        let stop = state.next.saturating_add(batch).min(end);
        let chunks: Vec<(u64, u64)> = (state.next..stop)
            .step_by(CHUNK as usize)
            .map(|a| (a, a.saturating_add(CHUNK).min(stop)))
            .collect();
        // `None` for a chunk skipped after a cancellation. Chunks run out of order, so only
        // the leading run of finished chunks is kept: the counters then cover exactly the
        // samples before `next`, and a resume redoes the rest.
        let parts: Vec<Option<Result<Counters, String>>> = pool.install(|| {
            chunks
                .par_iter()
                .map(|&(a, b)| {
                    if cancelled() {
                        return None;
                    }
                    let worker = rayon::current_thread_index().unwrap_or(0) % threads;
                    let mut searcher = searchers[worker].lock().unwrap_or_else(|e| e.into_inner());
                    let mut c = Counters::new(two_phase);
                    for i in a..b {
                        if let Err(e) = c.add(
                            i,
                            evaluate(sampler, &mut searcher, i, phase2),
                            figure_samples,
                        ) {
                            return Some(Err(e));
                        }
                    }
                    Some(Ok(c))
                })
                .collect()
        });
        // The counters of this batch first, and `merge` changes nothing when it fails, so
        // that an overflow leaves the state as it was.
        let mut batch_counters = Counters::new(two_phase);
        let mut done_to = state.next;
        for (part, &(_, b)) in parts.iter().zip(&chunks) {
            match part {
                None => break,
                Some(Err(e)) => return Err(EstimateError::Overflow(e.clone())),
                Some(Ok(c)) => {
                    batch_counters.merge(c).map_err(EstimateError::Overflow)?;
                    done_to = b;
                }
            }
        }
        state
            .counters
            .merge(&batch_counters)
            .map_err(EstimateError::Overflow)?;
        state.next = done_to;
        state.complete = state.next == end;
        state.elapsed_seconds = base_elapsed + session_start.elapsed().as_secs_f64();
        if let Some(path) = &options.checkpoint {
            if state.complete || last_save.elapsed() >= options.checkpoint_every {
                state.save(path)?;
                last_save = Instant::now();
            }
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
        state.elapsed_seconds = base_elapsed + session_start.elapsed().as_secs_f64();
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
    /// The run; its shard is [`Shard::WHOLE`](crate::Shard::WHOLE) when every shard is
    /// present, else that of the first file.
    pub config: RunConfig,
    /// The shard indices present, ascending.
    pub shards: Vec<u64>,
    /// The summed counters.
    pub counters: Counters,
    /// The summed wall-clock seconds of the shards.
    pub elapsed_seconds: f64,
}

/// Adds up the results of shards of one run: all from the same configuration (but the shard
/// index), each complete, no shard twice.
pub fn merge(files: &[(PathBuf, RunState)]) -> Result<Merged, EstimateError> {
    let Some((first_path, first)) = files.first() else {
        return Err(EstimateError::Merge("no files given".into()));
    };
    let mut merged = Merged {
        config: first.config.clone(),
        shards: Vec::new(),
        counters: Counters::new(first.config.phase2_rate.is_some()),
        elapsed_seconds: 0.0,
    };
    for (path, s) in files {
        s.check().map_err(|reason| EstimateError::Corrupt {
            path: path.clone(),
            reason,
        })?;
        if let Some(reason) = first.config.difference(&s.config, true) {
            return Err(EstimateError::Merge(format!(
                "{} and {} are from different runs: {reason}",
                first_path.display(),
                path.display()
            )));
        }
        if !s.complete {
            let (done, total) = s.progress();
            return Err(EstimateError::Merge(format!(
                "{} is incomplete ({done} of {total} samples); finish it with --resume",
                path.display()
            )));
        }
        if merged.shards.contains(&s.config.shard.index) {
            return Err(EstimateError::Merge(format!(
                "shard {} appears twice ({} overlaps an earlier file)",
                s.config.shard,
                path.display()
            )));
        }
        merged.shards.push(s.config.shard.index);
        merged
            .counters
            .merge(&s.counters)
            .map_err(|e| EstimateError::Merge(format!("adding {}: {e}", path.display())))?;
        merged.elapsed_seconds += s.elapsed_seconds;
    }
    merged.shards.sort_unstable();
    if merged.shards.len() as u64 == merged.config.shard.count {
        merged.config.shard = crate::Shard::WHOLE;
    }
    Ok(merged)
}
