//! `mate` and `pass-count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13, for positions given as arguments or one a line on standard input.

use clap::{Args, Subcommand};
use serde::Serialize;
use shogi_cli::{MateRecord, MateSolvers, PassRecord, PassSolvers};
use shogi_mate::{DefenderHand, Defense, MateOptions, PassOptions};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The subcommands over the mate search.
#[derive(Subcommand)]
pub enum MateCommand {
    /// Search each position for a checkmate by its side to move (docs/METHOD.md §11–§12).
    ///
    /// The attacker is the side to move and may only check; the defender's hand is, by
    /// default, everything neither on the board nor in the attacker's hand (the usual
    /// convention of mate problems; --defender-hand sfen keeps the SFEN's).
    ///
    /// Output, one line per position in input order: `<verdict> <plies> <nodes> <sfen>
    /// <moves...>`, separated by single spaces: the verdict `mate`, `no-mate`, `unknown`
    /// (a limit stopped the search) or `invalid` (no legal position), the length of the
    /// mating line in plies (`-` unless mate), the nodes searched, the input SFEN as
    /// given, and for a mate the line as USI moves: the attacker's checks and the
    /// defender's longest resistance found in the proof. Every line printed has been
    /// replayed: each attacker move checks and the last position is checkmate. With
    /// --json, one JSON object per line: sfen, verdict, plies (null unless mate), moves
    /// (USI list, empty unless mate), nodes, and game, pieces (the proof pieces of a
    /// mate, the disproof pieces of a no-mate), exact_hits, superior_hits, table_fill.
    ///
    /// A line that is no legal position is reported on standard error as well, the
    /// other positions are still searched, and the exit code is 1 at the end.
    Mate {
        /// Print one JSON object per position.
        #[arg(long)]
        json: bool,
        /// Give up on a position (verdict `unknown`) after N nodes.
        #[arg(long, value_name = "N", default_value_t = 1_000_000)]
        nodes: u64,
        #[command(flatten)]
        common: CommonArgs,
        /// Answer look-ups by exact hands only, without proof and disproof pieces (the
        /// ablation of docs/BENCHMARKS.md; slower, same verdicts).
        #[arg(long)]
        no_superiority: bool,
        /// The positions (the game of each follows from its number of ranks). Without
        /// any, one SFEN per line is read from standard input, blank lines skipped. An
        /// empty argument is refused (exit code 1) before any search.
        sfens: Vec<String>,
    },
    /// Compute the possible pass count of each position for its side to move
    /// (docs/METHOD.md §13): how many free moves (passes) the defender can be given
    /// before the attacker forces mate. 0 is a mate; 1 with `--defense none` a
    /// threatmate (a quiet move after which a pass loses to mate).
    ///
    /// Counts 0, 1, … up to --max-passes are tried in turn. Output, one line per
    /// position in input order: `<verdict> <passes> <nodes> <sfen> <move>`: the verdict
    /// `proved`, `pass-limit` (every count up to the limit refuted), `unknown` (a limit
    /// stopped the search) or `invalid`, the count (`-` unless proved), the nodes
    /// searched, the SFEN as given, and the attacker's first move of the proof (`-`
    /// unless proved; a quiet move, the threat, whenever one proves the count). With
    /// --json, one JSON object per line: sfen, defense, verdict,
    /// passes (null unless proved), move (null unless proved), nodes, and game.
    PassCount {
        /// Print one JSON object per position.
        #[arg(long)]
        json: bool,
        /// The defender's moves considered besides the pass after a quiet attacker move:
        /// none (threatmate), takeback (recaptures of the piece just moved), all
        /// (brinkmate).
        #[arg(long, value_enum, default_value_t = Defense::None)]
        defense: Defense,
        /// The largest count tried.
        #[arg(long, value_name = "K", default_value_t = 3)]
        max_passes: u32,
        /// Give up on a position (verdict `unknown`) after N nodes, all counts together.
        #[arg(long, value_name = "N", default_value_t = 1_000_000)]
        nodes: u64,
        #[command(flatten)]
        common: CommonArgs,
        /// The positions; without any, one SFEN per line from standard input, blank lines
        /// skipped. An empty argument is refused (exit code 1) before any search.
        sfens: Vec<String>,
    },
}

/// Options shared by `mate` and `pass-count`.
#[derive(Args, Clone, Copy, Debug)]
pub struct CommonArgs {
    /// Spread the positions over T threads (default: every core). Each thread has its
    /// own table, cleared for every position, so the answer for a position does not
    /// depend on T.
    #[arg(long, value_name = "T", allow_negative_numbers = true,
          value_parser = crate::options::parse_threads)]
    threads: Option<usize>,
    /// Which hand the defender holds: rest (everything not on the board and not in the
    /// attacker's hand) or sfen (the SFEN's).
    #[arg(long, value_enum, default_value_t = DefenderHand::Rest)]
    defender_hand: DefenderHand,
    /// Transposition table size per thread, in MiB (32-byte entries), at most 4096: each
    /// thread allocates its table up front.
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    table_mb: u64,
    /// The longest line searched, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 255,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_depth: u32,
}

impl CommonArgs {
    fn table_entries(self) -> usize {
        (self.table_mb as usize).saturating_mul((1 << 20) / 32)
    }

    fn threads(self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Runs one of the subcommands; the error text goes to standard error.
pub fn run(cmd: MateCommand) -> Result<(), String> {
    match cmd {
        MateCommand::Mate {
            json,
            nodes,
            common,
            no_superiority,
            sfens,
        } => {
            let opts = MateOptions {
                max_nodes: nodes,
                table_entries: common.table_entries(),
                max_depth: common.max_depth,
                defender_hand: common.defender_hand,
                superiority: !no_superiority,
            };
            let inputs = crate::inputs::collect(&sfens)?;
            let worker = move || MateSolvers::new(opts);
            run_parallel(&inputs, common.threads(), worker, json)
        }
        MateCommand::PassCount {
            json,
            defense,
            max_passes,
            nodes,
            common,
            sfens,
        } => {
            let opts = PassOptions {
                defense,
                max_passes,
                max_nodes: nodes,
                table_entries: common.table_entries(),
                max_depth: common.max_depth,
                defender_hand: common.defender_hand,
            };
            let inputs = crate::inputs::collect(&sfens)?;
            let worker = move || PassSolvers::new(opts);
            run_parallel(&inputs, common.threads(), worker, json)
        }
    }
}

/// Solves one position to one output line; each thread owns one.
trait Worker {
    /// The text or JSON line for a legal position, or why the SFEN is none.
    fn line(&mut self, sfen: &str, json: bool) -> Result<String, String>;
    /// The line for an input that is no legal position.
    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String;
}

/// Solves `inputs` on `threads` threads, printing each line as soon as the lines before
/// it are printed, so the output is in input order whatever the thread count.
fn run_parallel<W: Worker>(
    inputs: &[crate::inputs::Input],
    threads: usize,
    make: impl Fn() -> W + Sync,
    json: bool,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<String, String>)>();
    let threads = threads.clamp(1, inputs.len().max(1));
    let mut invalid = 0u64;
    let written = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, make) = (&next, &make);
            // Deep lines recurse deeply: a thread stack of 256 MiB (reserved, not
            // committed) leaves room for the longest lines --max-depth allows.
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(scope, move || {
                    let mut worker = make();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        let line = worker.line(&input.sfen, json);
                        if tx.send((i, line)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("starting a thread: {e}"))?;
        }
        drop(tx);
        // Solvers are made on first use, so this worker costs nothing.
        let reporter = make();
        let mut out = crate::output::stdout();
        let mut pending = std::collections::BTreeMap::new();
        let mut printed = 0;
        for (i, line) in rx {
            pending.insert(i, line);
            while let Some(line) = pending.remove(&printed) {
                let input = &inputs[printed];
                let text = line.unwrap_or_else(|e| {
                    invalid += 1;
                    eprintln!("shogi-count: {} {}: {e}", input.what, input.n);
                    reporter.invalid(&input.sfen, &e, json)
                });
                writeln!(out, "{text}").map_err(crate::output::error)?;
                printed += 1;
            }
        }
        Ok(())
    });
    written?;
    if invalid > 0 {
        return Err(format!("{invalid} invalid input(s)"));
    }
    Ok(())
}

impl Worker for MateSolvers {
    fn line(&mut self, sfen: &str, json: bool) -> Result<String, String> {
        let r = self.solve(sfen)?;
        Ok(if json { to_json(&r) } else { r.text() })
    }

    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String {
        if !json {
            return format!("invalid - 0 {sfen}");
        }
        to_json(&MateRecord::invalid(sfen, error))
    }
}

impl Worker for PassSolvers {
    fn line(&mut self, sfen: &str, json: bool) -> Result<String, String> {
        let r = self.solve(sfen)?;
        Ok(if json { to_json(&r) } else { r.text() })
    }

    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String {
        if !json {
            return format!("invalid - 0 {sfen} -");
        }
        to_json(&PassRecord::invalid(sfen, self.defense(), error))
    }
}

fn to_json(record: &impl Serialize) -> String {
    serde_json::to_string(record).unwrap_or_default()
}
