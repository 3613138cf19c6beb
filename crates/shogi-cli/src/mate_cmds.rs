//! `mate` and `pass-count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13, for positions given as arguments or one a line on standard input.

use clap::{Args, Subcommand};
use serde::Serialize;
use shogi_cli::{MateRecord, MateSolvers, PassRecord, PassSolvers};
use shogi_core::GameKind;
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
    /// Spread the positions over T threads (default: every core this process may use).
    /// Never more threads than cores or positions. Each thread has its own table,
    /// cleared for every position, so the answer for a position does not depend on T.
    ///
    /// The tables must fit: before any is made, threads × tables (one per game among the
    /// positions) is checked against the memory available (MemAvailable, and the
    /// cgroup's memory.max) and, with the threads' stacks, against the address-space
    /// limit (ulimit -v). Without --threads, fewer threads are run when they do not all
    /// fit (a note says so); with it, or when one thread does not fit, the run is
    /// refused with exit code 1.
    #[arg(long, value_name = "T", allow_negative_numbers = true,
          value_parser = crate::options::parse_threads)]
    threads: Option<usize>,
    /// Which hand the defender holds: rest (everything not on the board and not in the
    /// attacker's hand) or sfen (the SFEN's).
    #[arg(long, value_enum, default_value_t = DefenderHand::Rest)]
    defender_hand: DefenderHand,
    /// Transposition table size per thread, in MiB (32-byte entries, rounded up to a
    /// power of two), at most 4096: each thread allocates its table up front, one per
    /// game when the positions are of both.
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
}

/// The stack of a solver thread: deep lines recurse deeply, and 256 MiB (reserved, not
/// committed) leaves room for the longest lines --max-depth allows.
const STACK: usize = 256 << 20;

/// Memory a thread's search takes besides its tables (move lists, the repetition and path
/// maps): a margin, not a measurement.
const THREAD_MEMORY: u64 = 32 << 20;

/// Address space a thread reserves besides its stack and its memory: glibc gives each
/// thread's allocator an arena of 64 MiB.
const THREAD_ADDRESS_SPACE: u64 = 64 << 20;

/// The game of a SFEN by its number of ranks, as the solvers will read it; `None` for
/// text that will be no position.
fn game_of(sfen: &str) -> Option<GameKind> {
    let board = sfen.split_whitespace().next()?;
    match board.split('/').count() {
        9 => Some(GameKind::Shogi),
        5 => Some(GameKind::Mini),
        _ => None,
    }
}

/// How a run is spread: the threads, and the games each thread makes a table for.
struct Plan {
    threads: usize,
    games: Vec<GameKind>,
}

/// Chooses the threads (the request or every core, at most the cores and the positions)
/// and checks that their tables fit in the memory and address space this process can get,
/// before anything is allocated.
fn plan(inputs: &[crate::inputs::Input], common: CommonArgs) -> Result<Plan, String> {
    let games: Vec<GameKind> = GameKind::ALL
        .into_iter()
        .filter(|&g| inputs.iter().any(|i| game_of(&i.sfen) == Some(g)))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = common
        .threads
        .unwrap_or(cores)
        .min(cores)
        .min(inputs.len())
        .max(1);
    let table = shogi_mate::Table::bytes_for(common.table_entries())
        .and_then(|b| u64::try_from(b).ok())
        .ok_or("the table size does not fit in this machine's addresses")?;
    let tables = table * games.len() as u64;
    let memory = tables + THREAD_MEMORY;
    let space = memory + STACK as u64 + THREAD_ADDRESS_SPACE;
    let room = crate::memory::room();
    let most = |room: Option<u64>, each: u64| room.map_or(u64::MAX, |r| r / each);
    let fit = most(room.memory, memory).min(most(room.address_space, space));
    let fit = usize::try_from(fit).unwrap_or(usize::MAX);
    if fit >= threads {
        return Ok(Plan { threads, games });
    }
    if fit >= 1 && common.threads.is_none() {
        eprintln!(
            "shogi-count: running {fit} thread(s), not {threads}: the tables of more do not \
             fit in the memory this process can get"
        );
        return Ok(Plan {
            threads: fit,
            games,
        });
    }
    // Say what was asked, against the bound that refuses it: one thread when none fits.
    let asked = if fit == 0 { 1 } else { threads };
    let mib = |b: u64| b >> 20;
    let tables = match games.len() {
        1 => format!("a table of {} MiB", mib(table)),
        n => format!("{n} tables (one per game) of {} MiB", mib(table)),
    };
    let (needed, bound) = match room.memory {
        Some(m) if m / memory < asked as u64 => (
            format!("{} MiB of memory", mib(memory * asked as u64)),
            format!(
                "{} MiB is available (the machine's MemAvailable, or the room under the \
                 cgroup's memory.max)",
                mib(m)
            ),
        ),
        _ => (
            format!(
                "{} MiB of address space with the stack",
                mib(space * asked as u64)
            ),
            format!(
                "the process's limit (ulimit -v) leaves {} MiB",
                mib(room.address_space.unwrap_or(0))
            ),
        ),
    };
    let remedy = if fit == 0 {
        "lower --table-mb".to_string()
    } else {
        format!("run with --threads {fit} or lower --table-mb")
    };
    Err(format!(
        "{asked} thread(s) with {tables} each need about {needed}, and {bound}: {remedy}"
    ))
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
            let plan = plan(&inputs, common)?;
            let worker = move || MateSolvers::new(opts);
            run_parallel(&inputs, &plan, worker, json)
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
            let plan = plan(&inputs, common)?;
            let worker = move || PassSolvers::new(opts);
            run_parallel(&inputs, &plan, worker, json)
        }
    }
}

/// Solves one position to one output line; each thread owns one.
trait Worker {
    /// Makes the table of `game` now, or says why it cannot be made.
    fn reserve(&mut self, game: GameKind) -> Result<(), String>;
    /// The text or JSON line for a legal position, or why the SFEN is none.
    fn line(&mut self, sfen: &str, json: bool) -> Result<String, String>;
    /// The line for an input that is no legal position.
    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String;
}

/// What a solver thread sends the printing thread.
enum Message {
    /// The line of input `i`, or why it is no position.
    Line(usize, Result<String, String>),
    /// The thread could not make its tables: the run stops.
    Failed(String),
}

/// Solves `inputs` on the threads of `plan`, printing each line as soon as the lines before
/// it are printed, so the output is in input order whatever the thread count.
fn run_parallel<W: Worker>(
    inputs: &[crate::inputs::Input],
    plan: &Plan,
    make: impl Fn() -> W + Sync,
    json: bool,
) -> Result<(), String> {
    if inputs.is_empty() {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Message>();
    let mut invalid = 0u64;
    let written = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..plan.threads {
            let tx = tx.clone();
            let (next, make) = (&next, &make);
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(scope, move || {
                    let mut worker = make();
                    // Every table up front: a failed allocation stops the run here, as an
                    // error, before any line is printed from this thread.
                    for &game in &plan.games {
                        if let Err(e) = worker.reserve(game) {
                            // No new positions for anyone; the others finish theirs.
                            next.store(inputs.len(), Ordering::Relaxed);
                            let _ = tx.send(Message::Failed(e));
                            return;
                        }
                    }
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        let line = worker.line(&input.sfen, json);
                        if tx.send(Message::Line(i, line)).is_err() {
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
        for message in rx {
            let (i, line) = match message {
                Message::Line(i, line) => (i, line),
                Message::Failed(e) => return Err(e),
            };
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
    fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        MateSolvers::reserve(self, game)
    }

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
    fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        PassSolvers::reserve(self, game)
    }

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
