//! Problems run on solver threads, for `mate`, `pass-count` and `check-tsume`: how many
//! threads fit with their tables ([`plan`]), one [`Worker`] a thread printing its lines in
//! input order ([`run_parallel`]), and the one problem of a `--kif` run on a solver's stack.

use crate::inputs::Input;
use crate::output::note;
use serde::Serialize;
use shogi_core::GameKind;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The stack of a solver thread: deep lines recurse deeply, and 256 MiB (reserved, not
/// committed) leaves room for the longest lines --max-depth allows.
pub(crate) const STACK: usize = 256 << 20;

/// Memory a thread's search takes besides its tables (move lists, the repetition and path
/// maps): a margin, not a measurement.
const THREAD_MEMORY: u64 = 32 << 20;

/// Address space a thread reserves besides its stack and its memory: glibc gives each
/// thread's allocator an arena of 64 MiB.
const THREAD_ADDRESS_SPACE: u64 = 64 << 20;

/// What one solver thread with `tables` bytes of tables takes: the memory it commits, and
/// the address space it reserves with its stack and allocator arena.
fn thread_need(tables: u64) -> (u64, u64) {
    let memory = tables + THREAD_MEMORY;
    (memory, memory + STACK as u64 + THREAD_ADDRESS_SPACE)
}

/// How many solver threads with `tables` bytes of tables each fit in `room` (`mate`'s
/// threads, the USI engine's table).
pub(crate) fn threads_that_fit(tables: u64, room: crate::memory::Room) -> u64 {
    let (memory, space) = thread_need(tables);
    let most = |room: Option<u64>, each: u64| room.map_or(u64::MAX, |r| r / each);
    most(room.memory, memory).min(most(room.address_space, space))
}

/// The game of a SFEN by its number of ranks, as the solvers will read it; `None` for
/// text that will be no position.
pub(crate) fn game_of(sfen: &str) -> Option<GameKind> {
    let board = sfen.split_whitespace().next()?;
    match board.split('/').count() {
        9 => Some(GameKind::Shogi),
        5 => Some(GameKind::Mini),
        _ => None,
    }
}

/// How a run is spread: the threads, the games each thread makes a table for, and the
/// threads that search each position (the thread and its helpers).
pub(crate) struct Plan {
    pub threads: usize,
    pub games: Vec<GameKind>,
    pub per_position: usize,
}

/// Chooses the threads (the request or every core, at most the cores and the positions)
/// and checks that their tables fit in the memory and address space this process can get,
/// before anything is allocated.
pub(crate) fn plan(
    inputs: &[Input],
    threads: Option<usize>,
    table_entries: usize,
) -> Result<Plan, String> {
    let games: Vec<GameKind> = GameKind::ALL
        .into_iter()
        .filter(|&g| inputs.iter().any(|i| game_of(&i.sfen) == Some(g)))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = threads;
    let threads = asked.unwrap_or(cores).min(cores).min(inputs.len()).max(1);
    let table = shogi_mate::Table::bytes_for(table_entries)
        .and_then(|b| u64::try_from(b).ok())
        .ok_or("the table size does not fit in this machine's addresses")?;
    let tables = table * games.len() as u64;
    let (memory, space) = thread_need(tables);
    let room = crate::memory::room();
    let fit = usize::try_from(threads_that_fit(tables, room)).unwrap_or(usize::MAX);
    // Threads asked for beyond the positions help search them (a helper shares its
    // thread's tables); without --threads, one thread a position.
    let per_position = asked.map_or(1, |t| (t.min(cores) / threads).max(1));
    if fit >= threads {
        return Ok(Plan {
            threads,
            games,
            per_position,
        });
    }
    if fit >= 1 && asked.is_none() {
        note!(
            "shogi-count: running {fit} thread(s), not {threads}: the tables of more do not \
             fit in the memory this process can get"
        );
        return Ok(Plan {
            threads: fit,
            games,
            per_position,
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

/// Solves one position to one output line; each thread owns one.
pub(crate) trait Worker {
    /// Makes the table of `game` now, or says why it cannot be made.
    fn reserve(&mut self, game: GameKind) -> Result<(), String>;
    /// The text or JSON line for a legal position, or why the input is none.
    fn line(&mut self, input: &Input, json: bool) -> Result<String, String>;
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
pub(crate) fn run_parallel<W: Worker>(
    inputs: &[Input],
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
                        let line = worker.line(input, json);
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
                    note!("shogi-count: {}: {e}", input.place);
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

/// The one input of a command that writes one KIF game (`--kif`).
pub(crate) fn one_problem(inputs: &[Input]) -> Result<&Input, String> {
    match inputs {
        [input] => Ok(input),
        _ => Err(format!(
            "--kif writes one game: give one problem, not {}",
            inputs.len()
        )),
    }
}

/// Runs `f` on a thread with a solver's stack ([`STACK`]): deep lines recurse deeply.
pub(crate) fn on_solver_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .map_err(|e| format!("starting a thread: {e}"))?
        .join()
        .map_err(|_| "the search thread failed".to_string())
}

/// A record as one line of JSON.
pub(crate) fn to_json(record: &impl Serialize) -> String {
    serde_json::to_string(record).unwrap_or_default()
}
