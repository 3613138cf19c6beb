//! `estimate` and `merge`: the Monte Carlo estimate, its checkpoints and its shards.

use clap::error::ErrorKind;
use clap::{Args, Subcommand};
use core::ops::ControlFlow;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shogi_core::{GameKind, PawnDropRule};
use shogi_estimate::{
    check_phase2_rate, check_writable, merge, missing_text, report_json, report_text, run,
    thread_count, Estimate, EstimateError, Estimator, Method, RunConfig, RunEnd, RunOptions,
    RunState, Shard, Space, Target,
};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::output::note;

/// The estimate commands.
#[derive(Subcommand)]
pub enum EstimateCommand {
    /// Estimate the number of reachable positions (docs/METHOD.md §1): sample the candidate space,
    /// filter, search; print Table 1 and Table 2 beside the paper's and the estimate with
    /// its 3σ interval.
    Estimate(EstimateArgs),
    /// Add up the result files of the shards of one run (`estimate --shard K/N --out F`)
    /// and print the combined report. Every file is verified first (its checksum, its
    /// schema, its counters); files of different runs and shards that overlap (the same
    /// shard twice, or shards of different splits that share samples) are refused, and so
    /// are unfinished files and a set that misses samples unless --partial is given.
    Merge {
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write the merged counters to this file (the format of `--out`): a new one, or an
        /// existing one with --force, but never one of the inputs.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Replace an existing --out file (never an input).
        #[arg(long, requires = "out")]
        force: bool,
        /// Report the samples the files hold even if some are missing: absent shards, or
        /// the rest of a run still in progress (the report says which; no --out).
        #[arg(long)]
        partial: bool,
        /// The shard result files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Arguments of `estimate`.
#[derive(Args)]
pub struct EstimateArgs {
    /// The game [default: shogi; with --resume, the saved run's].
    #[arg(long, value_enum)]
    game: Option<GameKind>,
    /// Samples in the whole run (all shards together), as `30000000`, `3e7`, `2.5e6` or
    /// `30_000_000` [default: 3e7 for shogi, 1e7 for mini: under a minute on two cores;
    /// with --resume, the saved run's].
    #[arg(long, allow_negative_numbers = true, value_parser = crate::options::CountParser { at_least_one: true })]
    samples: Option<u64>,
    /// The seed: sample i of a seed is the same position on every machine [default: 1;
    /// with --resume, the saved run's].
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Worker threads [default: $SLURM_CPUS_PER_TASK, else every core this process may
    /// use]. Never more than the cores the process may run on.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::options::parse_threads)]
    threads: Option<usize>,
    /// Keep the state in this JSON file: checkpointed atomically while running, on
    /// SIGINT, SIGTERM or SIGHUP, and at the end with the final counters. An existing file
    /// is not overwritten without --resume. The run holds the file for its life (a lock on
    /// FILE.lock beside it): a second run on it is refused. A symbolic link is followed and
    /// stays a link.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run saved in --out (after Ctrl-C, a kill or a preemption), with the
    /// settings saved there: `estimate --out F --resume` is enough. Settings given as well
    /// must agree with the saved ones. Without the file, start the run afresh.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Start a new run over an existing --out file, which the first checkpoint replaces
    /// (without it, an existing file is only continued, with --resume).
    #[arg(long, requires = "out", conflicts_with = "resume")]
    force: bool,
    /// Run only slice K of N disjoint slices of the sample indices (K from 0 to N-1);
    /// `shogi-count merge` adds the slices up [default: 0/1, the whole run].
    #[arg(long, value_parser = Shard::parse, allow_hyphen_values = true)]
    shard: Option<Shard>,
    /// Print the final report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Seconds between checkpoints of --out.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true)]
    checkpoint_every: u64,
    /// Give up a search after this many expanded nodes (the sample counts as unknown);
    /// `1e6` and the like are accepted.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::options::CountParser::ANY)]
    max_expanded: Option<u64>,
    /// Give up a search after storing this many nodes (about 130 bytes each).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::options::CountParser::ANY)]
    max_nodes: Option<u64>,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
    /// Which pawn drops that leave no legal reply are illegal [default: mate; with
    /// --resume, the saved run's].
    #[arg(long, value_enum)]
    pawn_drop: Option<PawnDropRule>,
    /// How to sample and search (docs/METHOD.md §10): `conditional` samples the
    /// placement-legal subspace S, averages the check filter exactly over the squares of
    /// White's king, tests one position of each sample's group for a legal predecessor and
    /// searches a small subsample of those that have one (two-phase sampling: 0.2% in
    /// Shogi, 2% in Mini Shogi); `fast` does the same with one position a sample (no
    /// averaging); `paper` samples P_K and searches every sample that passes the filters,
    /// as the paper did. All three are unbiased [default: conditional; with --resume, the
    /// saved run's].
    #[arg(long, value_parser = parse_method)]
    method: Option<Method>,
    /// What a sample contributes, overriding the method's: `indicator` (its own verdict)
    /// or `conditional` (averaged over the squares of White's king; needs a phase-2 rate).
    #[arg(long, value_parser = parse_estimator)]
    estimator: Option<Estimator>,
    /// The space to sample, overriding the method's: `candidate` (P_K) or
    /// `placement-legal` (S).
    #[arg(long, value_parser = parse_space)]
    space: Option<Space>,
    /// The share of the samples with a legal predecessor that are searched, in (0, 1], or
    /// `none` to search every sample that passes the filters; overrides the method's.
    #[arg(long, value_parser = parse_rate)]
    phase2_rate: Option<Rate>,
    /// Run until the 3σ half-width is at most half a unit of the D-th significant digit
    /// of the estimate, or until --samples [default then: 1e12]. That guarantees an
    /// interval no wider than one unit of the D-th digit: it determines D digits unless it
    /// straddles a rounding point, and then the report states D−1 digits and the two
    /// candidates for the D-th (docs/METHOD.md §8.6). The target is tested every 16,384 samples, so a resumed run
    /// stops where an uninterrupted one would; the saved run is then cut to the samples
    /// done. With --resume, the saved run's.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=9), conflicts_with_all = ["target_half_width", "shard"])]
    target_digits: Option<u32>,
    /// Run until the 3σ half-width relative to the estimate is at most this (e.g.
    /// `0.00047`, the paper's precision), or until --samples [default then: 1e12]. With
    /// --resume, the saved run's.
    #[arg(long, value_parser = parse_fraction, conflicts_with = "shard")]
    target_half_width: Option<f64>,
}

/// A phase-2 rate given on the command line: a share, or none (single phase).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rate(Option<f64>);

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse()
}

fn parse_estimator(s: &str) -> Result<Estimator, String> {
    s.parse()
}

fn parse_space(s: &str) -> Result<Space, String> {
    s.parse()
}

fn parse_rate(s: &str) -> Result<Rate, String> {
    if s == "none" {
        return Ok(Rate(None));
    }
    let f: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number in (0, 1] or `none`"))?;
    check_phase2_rate(f)?;
    Ok(Rate(Some(f)))
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    let f: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if f.is_finite() && f > 0.0 && f < 1.0 {
        Ok(f)
    } else {
        Err(format!(
            "the relative half-width must be in (0, 1), not {s}"
        ))
    }
}

/// Runs an estimate command.
pub fn run_command(cmd: EstimateCommand) -> Result<(), String> {
    match cmd {
        EstimateCommand::Estimate(args) => estimate(args),
        EstimateCommand::Merge {
            json,
            out,
            partial,
            force,
            files,
        } => merge_command(&files, out.as_deref(), partial, json, force),
    }
}

/// `merge`: verifies and adds up the shard files; with `out`, writes the sum to a new file
/// (checked writable, and not an existing file, before anything is read).
fn merge_command(
    files: &[PathBuf],
    out: Option<&Path>,
    partial: bool,
    json: bool,
    force: bool,
) -> Result<(), String> {
    if let Some(path) = out {
        let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        crate::files::check_output(path, "--out", force, &inputs)?;
        check_writable(path).map_err(|e| e.to_string())?;
    }
    let mut states = Vec::new();
    for f in files {
        let s = RunState::load(f).map_err(|e| e.to_string())?;
        states.push((f.clone(), s));
    }
    let m = merge(&states, partial).map_err(|e| e.to_string())?;
    if !m.is_complete() {
        note!(
            "shogi-count: partial merge: {} missing; the report covers the samples counted in the {} file{} given",
            missing_text(&m.missing, m.config.shard.count, m.config.samples),
            m.shards.len(),
            if m.shards.len() == 1 { "" } else { "s" }
        );
    }
    let threads = m.threads.iter().copied().max().unwrap_or(0);
    if m.threads.iter().any(|&t| t != threads) {
        note!(
            "shogi-count: the shards ran on {} threads; the report names the most",
            m.threads
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let (Some(_), false) = (out, m.is_complete()) {
        return Err("--out needs every shard of the run: a partial merge is a report only".into());
    }
    if let Some(path) = out {
        let mut state = RunState::new(m.config.clone());
        state.next = m.config.range().end;
        state.complete = true;
        state.counters = m.counters.clone();
        state.elapsed_seconds = m.elapsed_seconds;
        state.threads = threads;
        state.segments = m.segments.clone();
        // The shards were checked one by one; the sum must hold up too.
        state
            .check()
            .map_err(|e| format!("the merged counters are inconsistent: {e}"))?;
        state.save(path).map_err(|e| e.to_string())?;
    }
    print_report(&m.config, &m.counters, m.elapsed_seconds, threads, json)
}

/// The configuration of a new run: the flags given, defaults for the others.
fn new_config(a: &EstimateArgs) -> RunConfig {
    let game = a.game.unwrap_or(GameKind::Shogi);
    let targeted = a.target_digits.is_some() || a.target_half_width.is_some();
    let samples = a.samples.unwrap_or(match game {
        _ if targeted => 1_000_000_000_000,
        GameKind::Shogi => 30_000_000,
        GameKind::Mini => 10_000_000,
    });
    let mut config = RunConfig::new(game, samples).with_method(a.method.unwrap_or_default());
    if let Some(space) = a.space {
        config.space = space;
    }
    if let Some(Rate(rate)) = a.phase2_rate {
        config.phase2_rate = rate;
    }
    if let Some(estimator) = a.estimator {
        config.estimator = estimator;
    }
    config.seed = a.seed.unwrap_or(1);
    config.shard = a.shard.unwrap_or(Shard::WHOLE);
    config.max_expanded = a.max_expanded;
    config.max_nodes = a.max_nodes;
    config.pawn_drop = a.pawn_drop.unwrap_or_default();
    config.target = given_target(a);
    config
}

/// A new run of the settings given, refused when its shard holds no sample (a report of
/// nothing would look like a result).
fn fresh(a: &EstimateArgs) -> Result<RunState, String> {
    let config = new_config(a);
    if config.range().is_empty() {
        return Err(format!(
            "shard {} of {} samples holds no sample: split the run into at most {} shards",
            config.shard, config.samples, config.samples
        ));
    }
    Ok(RunState::new(config))
}

/// The precision target given on the command line, if any.
fn given_target(a: &EstimateArgs) -> Option<Target> {
    match (a.target_digits, a.target_half_width) {
        (Some(d), _) => Some(Target::Digits(d)),
        (None, Some(h)) => Some(Target::HalfWidth(h)),
        (None, None) => None,
    }
}

/// Checks that every setting given on the command line agrees with the run saved in
/// `path`; the error names the first that does not, with both values.
fn check_flags_agree(a: &EstimateArgs, saved: &RunConfig, path: &Path) -> Result<(), String> {
    let limit = |v: Option<u64>| v.map_or_else(|| "none".to_string(), |n| n.to_string());
    let rate = |r: Option<f64>| r.map_or_else(|| "none".to_string(), |f| f.to_string());
    let target = |t: Option<Target>| t.map_or_else(|| "none".to_string(), |t| t.to_string());
    let given: [(&str, Option<String>, String); 12] = [
        (
            "estimator",
            a.estimator.map(|e| e.to_string()),
            saved.estimator.to_string(),
        ),
        (
            // Named by the option given, so that the message names an option that exists.
            if a.target_half_width.is_some() && a.target_digits.is_none() {
                "target-half-width"
            } else {
                "target-digits"
            },
            given_target(a).map(|t| t.to_string()),
            target(saved.target),
        ),
        (
            "method",
            a.method.map(|m| m.to_string()),
            saved.method_name().to_string(),
        ),
        (
            "space",
            a.space.map(|s| s.to_string()),
            saved.space.to_string(),
        ),
        (
            "phase2-rate",
            a.phase2_rate.map(|Rate(r)| rate(r)),
            rate(saved.phase2_rate),
        ),
        (
            "game",
            a.game.map(|g| g.to_string()),
            saved.game.to_string(),
        ),
        (
            "samples",
            a.samples.map(|n| n.to_string()),
            saved.samples.to_string(),
        ),
        (
            "seed",
            a.seed.map(|n| n.to_string()),
            saved.seed.to_string(),
        ),
        (
            "shard",
            a.shard.map(|s| s.to_string()),
            saved.shard.to_string(),
        ),
        (
            "max-expanded",
            a.max_expanded.map(|n| n.to_string()),
            limit(saved.max_expanded),
        ),
        (
            "max-nodes",
            a.max_nodes.map(|n| n.to_string()),
            limit(saved.max_nodes),
        ),
        (
            "pawn-drop",
            a.pawn_drop.map(|p| p.to_string()),
            saved.pawn_drop.to_string(),
        ),
    ];
    for (name, flag, file) in given {
        match flag {
            Some(flag) if flag != file => {
                return Err(format!(
                    "--{name} {flag} disagrees with the run saved in {}, which has {name} {file}: \
                     drop --{name} to continue that run (--resume reads every setting from \
                     the file), or choose another --out",
                    path.display()
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// `path` as one shell word, for a command the user may paste.
fn shell_word(path: &Path) -> String {
    let s = path.display().to_string();
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if plain {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) set `cancel` (the run stops
/// at the next chunk and checkpoints) and record which signal came in `caught`; a second one
/// while the first is being handled terminates at once, as if no handler were installed.
fn catch_signals(cancel: &Arc<AtomicBool>, caught: &Arc<AtomicUsize>) -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        let failed = |e: std::io::Error| format!("cannot install the signal handlers: {e}");
        // Handlers run in the order registered: this one sees the flag before the others
        // set it, so it acts only on a second signal.
        signal_hook::flag::register_conditional_default(sig, Arc::clone(cancel)).map_err(failed)?;
        signal_hook::flag::register_usize(sig, Arc::clone(caught), sig as usize).map_err(failed)?;
        signal_hook::flag::register(sig, Arc::clone(cancel)).map_err(failed)?;
    }
    Ok(())
}

fn estimate(mut a: EstimateArgs) -> Result<(), String> {
    if let Err(e) = new_config(&a).check_estimator() {
        clap::Error::raw(ErrorKind::ArgumentConflict, format!("{e}\n")).exit();
    }
    let threads = thread_count(a.threads)?;
    // The file itself, not a link to it: a checkpoint replaces what it is written to.
    if let Some(out) = &a.out {
        a.out = Some(crate::files::followed(out));
    }
    // One run a file, for the run's life (released when this process ends, however).
    let _claim = match &a.out {
        Some(path) => Some(crate::out_file::claim(path)?),
        None => None,
    };
    let existing = match &a.out {
        // Not `Path::exists`: a file that is there but unreadable must be reported, not
        // taken for a missing one and overwritten.
        Some(path) => match std::fs::symlink_metadata(path) {
            Ok(_) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        },
        None => false,
    };
    // What to say on standard error once the state is known to be runnable.
    let mut note = None;
    let mut state = match &a.out {
        Some(path) if a.resume && existing => {
            let state = RunState::load(path).map_err(|e| e.to_string())?;
            if state.format_2_sha256.is_some() && !state.complete {
                return Err(format!(
                    "{} is of format {} (one set of counters, no segments): convert it first \
                     with `shogi-count upgrade-run {} --out NEW` (the old file stays as it is; \
                     docs/METHOD.md §10.5), then resume NEW",
                    path.display(),
                    shogi_estimate::FORMAT_2,
                    shell_word(path)
                ));
            }
            check_flags_agree(&a, &state.config, path)?;
            let (done, total) = state.progress();
            let shard = if state.config.shard == Shard::WHOLE {
                String::new()
            } else {
                format!(" of shard {}", state.config.shard)
            };
            note = Some(if state.complete {
                format!(
                    "resuming at {done} of {total} samples{shard}: {} holds a complete run; \
                     its report follows",
                    path.display()
                )
            } else {
                format!(
                    "resuming at {done} of {total} samples{shard} from {}",
                    path.display()
                )
            });
            state
        }
        Some(path) if a.resume => {
            // A task preempted before its first checkpoint: nothing to lose.
            note = Some(format!(
                "no checkpoint at {} yet: starting the run",
                path.display()
            ));
            fresh(&a)?
        }
        Some(path) if existing && !a.force => {
            return Err(format!(
                "{} exists: pass --resume to continue that run, --force to start a new one \
                 over it, or choose another --out",
                path.display()
            ))
        }
        _ => fresh(&a)?,
    };
    let space = shogi_estimate::space_size(&state.config).map_err(|e| e.to_string())?;
    if let Some(path) = &a.out {
        // Before the first sample: a run must not learn at its end that its result has
        // nowhere to go.
        check_writable(path).map_err(|e| e.to_string())?;
    }
    if let Some(note) = note {
        note!("shogi-count: {note}");
    }
    if !state.complete {
        resume_check(&state, threads, a.quiet)?;
    }
    let mut options = RunOptions::new(threads);
    options.checkpoint = a.out.clone();
    options.checkpoint_every = Duration::from_secs(a.checkpoint_every);
    let cancel = Arc::new(AtomicBool::new(false));
    let caught = Arc::new(AtomicUsize::new(0));
    options.cancel = Some(Arc::clone(&cancel));
    let (done0, total) = state.progress();
    let report =
        |s: &RunState| print_report(&s.config, &s.counters, s.elapsed_seconds, threads, a.json);
    catch_signals(&cancel, &caught)?;
    let target = state.config.target;
    let progress = Progress::new(a.quiet || state.complete, done0, total, target);
    let end = run(&mut state, &options, |s| {
        progress.update(s, &space);
        // No one reads the notes any more (a closed pipe, as for a closed standard
        // output): a run with a state file saves it and stops rather than go on for hours
        // unwatched; without one it runs to its report.
        if crate::output::stderr_closed() && a.out.is_some() {
            caught.store(SIGPIPE, Ordering::SeqCst);
            cancel.store(true, Ordering::SeqCst);
        }
        ControlFlow::Continue(())
    });
    progress.finish();
    match end {
        Ok(RunEnd::Cancelled) => {
            interrupted(&state, caught.load(Ordering::SeqCst), a.out.as_deref())
        }
        Ok(RunEnd::TargetReached) => {
            if !a.quiet {
                note!(
                    "shogi-count: precision target ({}) reached after {} samples",
                    target.map_or_else(String::new, |t| t.to_string()),
                    state.next
                );
            }
        }
        Ok(RunEnd::Complete | RunEnd::Stopped) => {}
        Err(e @ EstimateError::Io { .. }) if state.counters.samples > 0 => {
            // The result could not be saved (the disk filled up, say): print it all the
            // same, so that a run never ends with its counters lost.
            report(&state)?;
            return Err(format!(
                "{e}: the report above is the run's ({} samples), but it could not be saved",
                state.counters.samples
            ));
        }
        Err(e) => return Err(e.to_string()),
    }
    report(&state)
}

/// Before a run continues with a binary whose counting code differs from that of its last
/// segment: recount a slice of that segment and refuse on any difference (docs/METHOD.md
/// §10.5).
fn resume_check(state: &RunState, threads: usize, quiet: bool) -> Result<(), String> {
    let Some(last) = state.last_segment() else {
        return Ok(());
    };
    let this = shogi_estimate::Binary::this();
    if this.counts_as(&last.binary) {
        return Ok(());
    }
    let seed = crate::run_files::clock_seed();
    if !quiet {
        // A whole recount takes as long as the segment took to count: say so up front.
        let what = if !shogi_estimate::resume_recounts_whole(last) {
            format!("recounting a slice of that segment first (seed {seed})")
        } else if last.digests.is_none() {
            format!(
                "recounting that whole segment first ({} samples: a converted segment has no \
                 block digests to sample from)",
                last.samples()
            )
        } else {
            format!(
                "recounting that whole segment first ({} samples)",
                last.samples()
            )
        };
        note!(
            "shogi-count: this binary, {}, is not the one that counted the last segment, {}: \
             {what}",
            this.short(),
            last.binary.short()
        );
    }
    let started = Instant::now();
    let mut shown = Instant::now();
    let mut progress = |done: u64, total: u64| {
        if !quiet && shown.elapsed() >= Duration::from_secs(10) {
            shown = Instant::now();
            note!("shogi-count: recounted {done} of {total} samples");
        }
    };
    let check = shogi_estimate::check_resume(state, threads, seed, &mut progress)
        .map_err(|e| e.to_string())?;
    if let (Some(c), false) = (check, quiet) {
        note!(
            "shogi-count: {} samples of the last segment recounted in {:.1} s ({} {}), all equal: continuing",
            c.samples,
            started.elapsed().as_secs_f64(),
            c.recounts.len(),
            if c.recounts.iter().all(|r| r.unit == "block") {
                "blocks"
            } else {
                "segment"
            }
        );
    }
    Ok(())
}

/// The mark in `caught` of a run stopped because standard error was closed (the number of
/// the signal a C program would have died of).
const SIGPIPE: usize = 13;

/// Reports a run stopped by a signal and exits with the shell's code for it (128 + the
/// signal number). It exits here rather than returning an error because `main` maps every
/// error to exit code 1, and batch systems and shells tell an interruption by 130 or 143.
fn interrupted(state: &RunState, signal: usize, out: Option<&Path>) -> ! {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let (name, code) = match signal as i32 {
        SIGINT => ("SIGINT", 130),
        SIGTERM => ("SIGTERM", 143),
        SIGHUP => ("SIGHUP", 129),
        s if s == SIGPIPE as i32 => ("a closed standard error", crate::output::CLOSED_PIPE),
        _ => ("a signal", 1),
    };
    let (done, total) = state.progress();
    match out {
        Some(path) => note!(
            "shogi-count: interrupted by {name} at {done} of {total} samples; checkpoint \
             written to {}; continue with: shogi-count estimate --out {} --resume",
            path.display(),
            shell_word(path)
        ),
        None => note!(
            "shogi-count: interrupted by {name} at {done} of {total} samples; nothing was \
             saved (no --out): run with --out FILE to be able to resume"
        ),
    }
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    std::process::exit(code)
}

fn print_report(
    config: &RunConfig,
    counters: &shogi_estimate::Counters,
    elapsed: f64,
    threads: usize,
    json: bool,
) -> Result<(), String> {
    let text = if json {
        let v = report_json(config, counters, elapsed, threads).map_err(|e| e.to_string())?;
        format!("{v}\n")
    } else {
        report_text(config, counters, elapsed, threads).map_err(|e| e.to_string())?
    };
    crate::output::print(&text)
}

/// A progress bar on a terminal; plain lines every 10 seconds otherwise (logs of batch
/// jobs); nothing with --quiet.
struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    start: Instant,
    done0: u64,
    last_line: std::cell::Cell<Instant>,
    target: Option<Target>,
}

impl Progress {
    fn new(quiet: bool, done0: u64, total: u64, target: Option<Target>) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} samples, {per_sec}, ETA {eta} {msg}",
                )
                .expect("a valid template"),
            );
            b.set_position(done0);
            b
        });
        Progress {
            bar,
            plain: !quiet && !terminal,
            start: Instant::now(),
            done0,
            last_line: std::cell::Cell::new(Instant::now()),
            target,
        }
    }

    /// Shows the progress. With a precision target, the length of the run and its ETA are
    /// those of the target: the samples it is projected to need (the half-width shrinks as
    /// 1/sqrt(n)), capped by the run's samples. (Whether the target is met is decided by
    /// the run itself, at fixed sample counts.)
    fn update(&self, s: &RunState, space: &num_bigint::BigUint) {
        let (done, total) = s.progress();
        let e = Estimate::new(&s.counters, space);
        let half = e.relative_half_width();
        // Stated as reports state it (docs/METHOD.md §8.6): the value to the place of the
        // half-width's second digit, so that no digit it shows is one the interval leaves
        // open without its uncertainty beside it.
        let stated = e
            .positions_interval
            .and_then(|i| shogi_estimate::state(e.positions, i.lo, i.hi));
        let mut msg = match stated {
            Some(st) => format!(
                "estimate {} ± {} (3σ, {:.4}%)",
                st.value,
                st.half_width,
                100.0 * half
            ),
            None => "no estimate yet".to_string(),
        };
        let mut end = total;
        if let Some(t) = self.target {
            let goal = t.goal(&e);
            let needed = done as f64 * (half / goal).powi(2);
            if needed.is_finite() {
                end = (needed.ceil().min(total as f64) as u64).max(done);
            }
            let _ = write!(msg, "; target {:.4}%", 100.0 * goal);
        }
        if let Some(b) = &self.bar {
            b.set_length(end);
            b.set_position(done);
            b.set_message(msg);
        } else if self.plain && self.last_line.get().elapsed() >= Duration::from_secs(10) {
            self.last_line.set(Instant::now());
            let secs = self.start.elapsed().as_secs_f64();
            let rate = (done - self.done0) as f64 / secs.max(1e-9);
            let eta = (end - done) as f64 / rate.max(1e-9);
            let of = if end == total {
                format!("{done}/{total} samples")
            } else {
                format!("{done}/{end} samples (projected for the target; at most {total})")
            };
            note!("{of}, {rate:.0}/s, ETA {eta:.0} s, {msg}");
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
