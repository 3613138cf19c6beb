//! `estimate` and `merge`: the Monte Carlo estimate, its checkpoints and its shards.

use crate::options::{PawnDropArg, RuleArgs};
use crate::GameArg;
use clap::{Args, Subcommand};
use core::ops::ControlFlow;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shogi_estimate::{
    merge, report_json, report_text, run, thread_count, Estimate, GameId, PawnDrop, RunConfig,
    RunEnd, RunOptions, RunState, Shard,
};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The estimate commands.
#[derive(Subcommand)]
pub enum EstimateCommand {
    /// Estimate the number of reachable positions (SPEC §1): sample the candidate space,
    /// filter, search; print Table 1 and Table 2 beside the paper's and the estimate with
    /// its 3σ interval.
    Estimate(EstimateArgs),
    /// Add up the result files of the shards of one run (`estimate --shard K/N --out F`)
    /// and print the combined report. Overlapping, incomplete or foreign files are refused.
    Merge {
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write the merged counters to this file (the format of `--out`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// The shard result files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Arguments of `estimate`.
#[derive(Args)]
pub struct EstimateArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "shogi")]
    game: GameArg,
    /// Samples in the whole run (all shards together) [default: 30000000 for shogi,
    /// 10000000 for mini: under a minute on two cores].
    #[arg(long)]
    samples: Option<u64>,
    /// The seed: sample i of a seed is the same position on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: $SLURM_CPUS_PER_TASK, else every core this process may
    /// use]. Never more than the cores the process may run on.
    #[arg(long)]
    threads: Option<usize>,
    /// Keep the state in this JSON file: checkpointed atomically while running, the
    /// final counters at the end. An existing file is not overwritten without --resume.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run saved in --out (after a kill or a preemption); the settings must
    /// be those of the saved run.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Run only slice K of N disjoint slices of the sample indices (K from 0 to N-1);
    /// `shogi-count merge` adds the slices up.
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Print the final report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Seconds between checkpoints of --out.
    #[arg(long, default_value_t = 30)]
    checkpoint_every: u64,
    /// Give up a search after this many expanded nodes (the sample counts as unknown).
    #[arg(long)]
    max_expanded: Option<u64>,
    /// Give up a search after storing this many nodes (about 130 bytes each).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs an estimate command.
pub fn run_command(cmd: EstimateCommand) -> Result<(), String> {
    match cmd {
        EstimateCommand::Estimate(args) => estimate(args),
        EstimateCommand::Merge { json, out, files } => {
            let mut states = Vec::new();
            for f in files {
                let s = RunState::load(&f).map_err(|e| e.to_string())?;
                states.push((f, s));
            }
            let m = merge(&states).map_err(|e| e.to_string())?;
            if m.shards.len() as u64 != m.config.shard.count && m.config.shard.count > 1 {
                eprintln!(
                    "shogi-count: note: {} of {} shards present ({:?}); the report covers those",
                    m.shards.len(),
                    m.config.shard.count,
                    m.shards
                );
            }
            if let Some(path) = out {
                if m.config.shard != Shard::WHOLE {
                    return Err("--out needs every shard of the run".into());
                }
                let mut state = RunState::new(m.config.clone());
                state.next = m.config.range().end;
                state.complete = true;
                state.counters = m.counters.clone();
                state.elapsed_seconds = m.elapsed_seconds;
                state.save(&path).map_err(|e| e.to_string())?;
            }
            print_report(&m.config, &m.counters, m.elapsed_seconds, 0, json)
        }
    }
}

fn estimate(a: EstimateArgs) -> Result<(), String> {
    let game = match a.game {
        GameArg::Shogi => GameId::Shogi,
        GameArg::Mini => GameId::Mini,
    };
    let samples = a.samples.unwrap_or(match game {
        GameId::Shogi => 30_000_000,
        GameId::Mini => 10_000_000,
    });
    let mut config = RunConfig::new(game, samples);
    config.seed = a.seed;
    config.shard = a.shard.unwrap_or(Shard::WHOLE);
    config.max_expanded = a.max_expanded;
    config.max_nodes = a.max_nodes;
    config.pawn_drop = match a.rules.pawn_drop {
        PawnDropArg::Mate => PawnDrop::Mate,
        PawnDropArg::NoReply => PawnDrop::NoReply,
    };
    let threads = thread_count(a.threads)?;
    let mut state = match &a.out {
        Some(path) if a.resume => {
            if path.exists() {
                RunState::resume(path, &config).map_err(|e| e.to_string())?
            } else {
                // A task preempted before its first checkpoint: nothing to lose.
                RunState::new(config.clone())
            }
        }
        Some(path) if path.exists() => {
            return Err(format!(
                "{} exists: pass --resume to continue that run, or choose another --out",
                path.display()
            ))
        }
        _ => RunState::new(config.clone()),
    };
    let mut options = RunOptions::new(threads);
    options.checkpoint = a.out.clone();
    options.checkpoint_every = Duration::from_secs(a.checkpoint_every);
    let space = shogi_estimate::space_size(&config).map_err(|e| e.to_string())?;
    let (done0, total) = state.progress();
    let progress = Progress::new(a.quiet, done0, total);
    let end = run(&mut state, &options, |s| {
        progress.update(s, &space);
        ControlFlow::Continue(())
    })
    .map_err(|e| e.to_string())?;
    progress.finish();
    debug_assert_eq!(end, RunEnd::Complete);
    print_report(
        &state.config,
        &state.counters,
        state.elapsed_seconds,
        threads,
        a.json,
    )
}

fn print_report(
    config: &RunConfig,
    counters: &shogi_estimate::Counters,
    elapsed: f64,
    threads: usize,
    json: bool,
) -> Result<(), String> {
    if json {
        let v = report_json(config, counters, elapsed, threads).map_err(|e| e.to_string())?;
        println!("{v}");
    } else {
        print!(
            "{}",
            report_text(config, counters, elapsed, threads).map_err(|e| e.to_string())?
        );
    }
    Ok(())
}

/// A progress bar on a terminal; plain lines every 10 seconds otherwise (logs of batch
/// jobs); nothing with --quiet.
struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    start: Instant,
    done0: u64,
    last_line: std::cell::Cell<Instant>,
}

impl Progress {
    fn new(quiet: bool, done0: u64, total: u64) -> Progress {
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
        }
    }

    fn update(&self, s: &RunState, space: &num_bigint::BigUint) {
        let (done, total) = s.progress();
        let e = Estimate::new(&s.counters, space);
        let msg = format!(
            "estimate {} ± {} (3σ)",
            shogi_estimate::sci(e.positions, 4),
            shogi_estimate::sci(3.0 * e.sigma * e.space, 2)
        );
        if let Some(b) = &self.bar {
            b.set_position(done);
            b.set_message(msg);
        } else if self.plain && self.last_line.get().elapsed() >= Duration::from_secs(10) {
            self.last_line.set(Instant::now());
            let secs = self.start.elapsed().as_secs_f64();
            let rate = (done - self.done0) as f64 / secs.max(1e-9);
            let eta = (total - done) as f64 / rate.max(1e-9);
            eprintln!("{done}/{total} samples, {rate:.0}/s, ETA {eta:.0} s, {msg}",);
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
