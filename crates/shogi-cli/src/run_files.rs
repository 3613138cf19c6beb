//! `verify-run` and `upgrade-run`: the state files of long runs, recounted segment by segment
//! or block by block, and converted from the format before segments (docs/METHOD.md §10.5).

use clap::Subcommand;
use serde_json::json;
use shogi_estimate::{
    choose_blocks, chosen_segments, parse_sample_count, run_plan, thread_count, upgrade, Binary,
    Choice, Recount, RunState, SegmentFacts,
};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The run-file commands.
#[derive(Subcommand)]
pub enum RunFileCommand {
    /// Recount a run's segments with this binary and compare exactly with its state file.
    ///
    /// Every state file (`estimate --out`) keeps, for each session of the run, its sample
    /// range, its counters, the binary that counted it and the digest of each block of 2^24
    /// samples. `--segment I` (repeatable) recounts segment I whole and compares every counter;
    /// `--segments K` does so for K segments drawn at random; `--samples N` recounts blocks
    /// drawn at random by sample index, N samples or more in all, and compares their
    /// digests (within the chosen segments, else all). Without any of them, `--samples 1e7`.
    /// Exit code 1 names the segment and the samples that differ. The report ends with the
    /// run's estimate and the bounds on its systematic errors (docs/RESULTS.md).
    VerifyRun {
        /// The state file.
        file: PathBuf,
        /// Recount this segment whole (0 is the first; repeatable).
        #[arg(long, conflicts_with = "segments")]
        segment: Vec<usize>,
        /// Recount this many segments, drawn at random, whole.
        #[arg(long)]
        segments: Option<usize>,
        /// Recount at least this many samples, in blocks drawn at random by sample index,
        /// and compare their digests (`1e7`, `5_000_000` allowed).
        #[arg(long, value_parser = parse_sample_count)]
        samples: Option<u64>,
        /// The seed of the random choices [default: from the clock; the report prints it,
        /// so that a check can be repeated].
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads [default: $SLURM_CPUS_PER_TASK, else every core this process may
        /// use].
        #[arg(long, value_parser = crate::options::parse_threads)]
        threads: Option<usize>,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// No progress output.
        #[arg(long, short)]
        quiet: bool,
        /// Recount nothing: print the file's segments, its estimate and the bounds on its
        /// systematic errors only (the file is still checked: checksum, schema, sums).
        #[arg(long, conflicts_with_all = ["segment", "segments", "samples"])]
        no_recount: bool,
    },
    /// Convert a state file of format 2 (one set of counters for the whole run) into the
    /// current format (one segment per stretch between checkpoints), keeping the old file.
    ///
    /// The segments are the stretches between the given checkpoints of the same run (earlier
    /// copies of the file, format 2, e.g. `git show REV:results/F.json > F.REV.json`): each
    /// segment's counters are the difference of two checksummed files, and its note names
    /// both checksums. Nothing is recounted: the converted segments have no digests, and
    /// `verify-run --segment I` recounts them whole. The new file must not exist.
    UpgradeRun {
        /// The run's state file, format 2.
        file: PathBuf,
        /// The new file.
        #[arg(long)]
        out: PathBuf,
        /// An earlier checkpoint of the same run, format 2 (repeatable; any order).
        #[arg(long)]
        checkpoint: Vec<PathBuf>,
        /// The binary of segment K, as recorded elsewhere: `K=TEXT` (repeatable).
        #[arg(long, value_parser = parse_fact)]
        segment_binary: Vec<(usize, String)>,
        /// A note kept with segment K: `K=TEXT` (repeatable).
        #[arg(long, value_parser = parse_fact)]
        segment_note: Vec<(usize, String)>,
    },
}

fn parse_fact(s: &str) -> Result<(usize, String), String> {
    let (k, text) = s
        .split_once('=')
        .ok_or_else(|| "expected K=TEXT, K the segment's index".to_string())?;
    let k = k
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a segment index", k.trim()))?;
    Ok((k, text.to_string()))
}

/// Runs a run-file command.
pub fn run_command(cmd: RunFileCommand) -> Result<(), String> {
    match cmd {
        RunFileCommand::VerifyRun {
            file,
            segment,
            segments,
            samples,
            seed,
            threads,
            json,
            quiet,
            no_recount,
        } => {
            let choice = match (segment.is_empty(), segments) {
                _ if no_recount => Some(Choice::Segments(Vec::new())),
                (false, _) => Some(Choice::Segments(segment)),
                (true, Some(k)) => Some(Choice::RandomSegments(k)),
                (true, None) => None,
            };
            verify_run(&file, choice, samples, seed, threads, json, quiet)
        }
        RunFileCommand::UpgradeRun {
            file,
            out,
            checkpoint,
            segment_binary,
            segment_note,
        } => upgrade_run(&file, &out, &checkpoint, &segment_binary, &segment_note),
    }
}

/// A seed from the clock and the process, for choices that need not repeat.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ u64::from(std::process::id()).rotate_left(32)
}

fn verify_run(
    path: &Path,
    choice: Option<Choice>,
    samples: Option<u64>,
    seed: Option<u64>,
    threads: Option<usize>,
    json: bool,
    quiet: bool,
) -> Result<(), String> {
    let threads = thread_count(threads)?;
    let state = RunState::load(path).map_err(|e| e.to_string())?;
    let seed = seed.unwrap_or_else(clock_seed);
    let segments = match &choice {
        Some(c) => chosen_segments(&state, c, seed).map_err(|e| e.to_string())?,
        None => (0..state.segments.len()).collect(),
    };
    let samples = match (&choice, samples) {
        (None, None) => Some(10_000_000),
        (_, s) => s,
    };
    let plan: Vec<(usize, u64, u64, bool)> = match samples {
        Some(n) => {
            let pool: Vec<_> = segments.iter().map(|&i| (i, &state.segments[i])).collect();
            let blocks = choose_blocks(&pool, n, seed);
            if blocks.is_empty() && !segments.is_empty() {
                return Err(format!(
                    "{}: no chosen segment has block digests (segments converted from format 2 \
                     have none): recount such a segment whole with --segment I",
                    path.display()
                ));
            }
            blocks
                .into_iter()
                .map(|(i, a, b)| (i, a, b, false))
                .collect()
        }
        None => segments
            .iter()
            .map(|&i| {
                let s = &state.segments[i];
                (i, s.start, s.end, true)
            })
            .collect(),
    };
    let total: u64 = plan.iter().map(|p| p.2 - p.1).sum();
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = |done: u64| {
        if !quiet && last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            crate::output::note!(
                "verify-run: {done} of {total} samples recounted, {rate:.0}/s, ETA {:.0} s",
                (total - done) as f64 / rate.max(1e-9)
            );
        }
    };
    if !quiet && !plan.is_empty() {
        crate::output::note!(
            "verify-run: recounting {total} samples ({} {}) of {} with {} on {threads} threads",
            plan.len(),
            if samples.is_some() {
                "blocks"
            } else {
                "whole segments"
            },
            path.display(),
            Binary::this().short()
        );
    }
    let recounts = run_plan(&state, &plan, threads, &mut progress).map_err(|e| e.to_string())?;
    let verified = Verified {
        path,
        state: &state,
        recounts: &recounts,
        seed,
        seconds: started.elapsed().as_secs_f64(),
        threads,
    };
    let text = if json {
        format!("{}\n", verified.json()?)
    } else {
        verified.text()?
    };
    crate::output::print(&text)?;
    match recounts.iter().find(|r| r.difference.is_some()) {
        Some(r) => Err(format!(
            "{}: segment {} differs at samples {}..{}: {}",
            path.display(),
            r.segment,
            r.start,
            r.end,
            r.difference.as_deref().unwrap_or("")
        )),
        None => Ok(()),
    }
}

/// What `verify-run` did, for its report.
struct Verified<'a> {
    path: &'a Path,
    state: &'a RunState,
    recounts: &'a [Recount],
    seed: u64,
    seconds: f64,
    threads: usize,
}

impl Verified<'_> {
    fn text(&self) -> Result<String, String> {
        use std::fmt::Write as _;
        let Verified {
            path,
            state,
            recounts,
            seed,
            seconds,
            threads,
        } = *self;
        let mut t = String::new();
        let c = &state.config;
        let (done, total) = state.progress();
        let _ = writeln!(
            t,
            "{}: {} run, method {}, seed {}, {done} of {total} samples{}",
            path.display(),
            c.game,
            c.method_name(),
            c.seed,
            if state.complete { " (complete)" } else { "" }
        );
        let _ = writeln!(t, "segments:");
        for (i, s) in state.segments.iter().enumerate() {
            let _ = writeln!(
                t,
                "  {i:>3}  samples {}..{} ({}), {}, {}{}",
                s.start,
                s.end,
                s.samples(),
                s.binary.short(),
                match (&s.started, &s.ended) {
                    (Some(a), Some(b)) => format!("{a} to {b}"),
                    _ => "times not recorded".into(),
                },
                if s.digests.is_some() {
                    ""
                } else {
                    ", no block digests"
                }
            );
        }
        if recounts.is_empty() {
            let _ = writeln!(t, "nothing recounted");
        } else {
            let _ = writeln!(
                t,
                "recounted with {} on {threads} threads in {seconds:.1} s (seed {seed}):",
                Binary::this().short()
            );
            for r in recounts {
                let _ = writeln!(
                    t,
                    "  segment {:>3}, {} {}..{}: {}",
                    r.segment,
                    r.unit,
                    r.start,
                    r.end,
                    r.difference.as_deref().unwrap_or("equal")
                );
            }
            let bad = recounts.iter().filter(|r| r.difference.is_some()).count();
            let _ = writeln!(
                t,
                "{}",
                if bad == 0 {
                    format!("all {} recounts equal the file", recounts.len())
                } else {
                    format!("{bad} of {} recounts differ from the file", recounts.len())
                }
            );
        }
        t.push_str(&statement_with_bounds(state)?);
        Ok(t)
    }

    fn json(&self) -> Result<serde_json::Value, String> {
        let Verified {
            path,
            state,
            recounts,
            seed,
            seconds,
            threads,
        } = *self;
        let segments: Vec<_> = state
            .segments
            .iter()
            .map(|s| {
                json!({
                    "start": s.start, "end": s.end, "binary": s.binary,
                    "started": s.started, "ended": s.ended, "digests": s.digests.is_some(),
                })
            })
            .collect();
        Ok(json!({
            "file": path.display().to_string(),
            "samples_done": state.progress().0,
            "complete": state.complete,
            "segments": segments,
            "recounted_by": Binary::this(),
            "threads": threads,
            "seconds": seconds,
            "seed": seed,
            "recounts": recounts,
            "equal": recounts.iter().all(|r| r.difference.is_none()),
            "estimate": bounds_json(state)?,
        }))
    }
}

fn upgrade_run(
    file: &Path,
    out: &Path,
    checkpoints: &[PathBuf],
    binaries: &[(usize, String)],
    notes: &[(usize, String)],
) -> Result<(), String> {
    let mut inputs: Vec<&Path> = vec![file];
    inputs.extend(checkpoints.iter().map(PathBuf::as_path));
    crate::files::check_output(out, "--out", false, &inputs)?;
    shogi_estimate::check_writable(out).map_err(|e| e.to_string())?;
    let last = RunState::load(file).map_err(|e| e.to_string())?;
    let mut points = Vec::new();
    for p in checkpoints {
        points.push(RunState::load(p).map_err(|e| e.to_string())?);
    }
    let n = points.len() + 1;
    let mut facts = vec![SegmentFacts::default(); n];
    for (k, text) in binaries {
        facts
            .get_mut(*k)
            .ok_or_else(|| format!("--segment-binary {k}: the files make {n} segments"))?
            .commit = Some(text.clone());
    }
    for (k, text) in notes {
        facts
            .get_mut(*k)
            .ok_or_else(|| format!("--segment-note {k}: the files make {n} segments"))?
            .note = Some(text.clone());
    }
    let state = upgrade(&last, &points, &facts).map_err(|e| format!("{}: {e}", file.display()))?;
    state.save(out).map_err(|e| e.to_string())?;
    crate::output::note!(
        "shogi-count: {} converted to {} ({} segments, {} samples); the old file is unchanged",
        file.display(),
        out.display(),
        state.segments.len(),
        state.progress().0
    );
    Ok(())
}

/// The statement of a run's estimate and the bounds on its systematic errors, as text.
fn statement_with_bounds(state: &RunState) -> Result<String, String> {
    shogi_estimate::assess(&state.config, &state.counters)
        .map(|a| a.text())
        .map_err(|e| e.to_string())
}

/// The same as JSON.
fn bounds_json(state: &RunState) -> Result<serde_json::Value, String> {
    shogi_estimate::assess(&state.config, &state.counters)
        .map(|a| a.json())
        .map_err(|e| e.to_string())
}
