//! `shogi-count usi`: a USI engine for mate search, for the GUIs tsume solvers and composers
//! use (ShogiGUI, Shogidokoro, ShogiHome), over the df-pn solver of `shogi-mate`.
//!
//! The input loop never waits for a search: `go mate` runs on a worker thread, and `stop`
//! raises the [`SearchControl`] flag that the solver looks at every
//! [`shogi_mate::CHECK_INTERVAL`] nodes. The worker alone writes the answer of a `go`
//! (`checkmate <moves>`, `checkmate nomate` or `checkmate timeout`), after a ticker thread
//! that writes the `info` lines (and enforces the time limit) has ended, so one `go` gets
//! exactly one answer and no `info` line follows it. A line that cannot be understood gets
//! an `info string` naming what is wrong, never a crash or a hang.

use crate::quote::quoted;
use shogi_cli::{Allocation, MateMode, MateRecord, MateSolvers, TableError};
use shogi_core::{AnyPosition, Game, GameKind, Position, Relax};
use shogi_mate::{DefenderHand, MateOptions, SearchControl};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The name this engine gives with `id name`.
const NAME: &str = concat!("shogi-count ", env!("CARGO_PKG_VERSION"));

/// The longest input line read: a longer one is refused whole (its rest skipped, so that a
/// runaway writer cannot make the engine hold gigabytes), never cut and obeyed, since a
/// `position` cut at a move boundary is another position.
const MAX_LINE: usize = 1 << 20;

/// How often `info` lines report a running search.
const INFO_INTERVAL: Duration = Duration::from_millis(500);

/// The largest `USI_Hash`, in MiB: the bound of `mate --table-mb`.
const MAX_HASH_MB: u64 = 4096;

/// The most threads `Threads` gives one search: they share its table, each with a stack and
/// a path of its own.
const MAX_THREADS: u64 = 256;

/// The settings of `setoption`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Settings {
    hash_mb: u64,
    /// 0: no limit.
    nodes: u64,
    depth: u32,
    defender_hand: DefenderHand,
    /// `ShortestMate` and `FutileInterpositions`, the mate the command line answers by
    /// default unless they are set.
    mode: MateMode,
    /// Threads searching the position (docs/METHOD.md §11.8).
    threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 64,
            nodes: 0,
            depth: shogi_mate::DEFAULT_MAX_DEPTH,
            // A GUI sends the position it shows, hands written out: keep them.
            defender_hand: DefenderHand::Sfen,
            mode: MateMode::default(),
            threads: 1,
        }
    }
}

impl Settings {
    fn options(self) -> MateOptions {
        self.mode.options(MateOptions {
            max_nodes: shogi_cli::node_limit(self.nodes),
            table_entries: shogi_cli::table_entries(self.hash_mb),
            max_depth: self.depth,
            defender_hand: self.defender_hand,
            threads: self.threads,
            ..MateOptions::default()
        })
    }
}

/// The solvers of both games, made as the command line makes them ([`MateSolvers`]), and
/// made again when the options change.
///
/// A table made inside `go` (the first Mini Shogi position, or options changed without
/// `isready`) is allocated a step at a time, looking at the search's control between steps:
/// the time limit and `stop` end the allocation as they end a search, and the answer is
/// `checkmate timeout`. What was allocated is kept, and the next `go` or `isready` goes on
/// from there.
fn configured(solvers: &mut MateSolvers, opts: MateOptions) {
    if *solvers.options() != opts {
        *solvers = MateSolvers::new(opts);
    }
}

/// What a search answers, or why there is none.
enum Answer {
    /// The record `mate --json` prints for the position.
    Record(MateRecord),
    /// The table could not be allocated.
    Table(TableError),
    /// The time limit or `stop` came while the table was being allocated.
    Allocating { done: usize, whole: usize },
}

/// Searches `pos` under `control` with the solvers of the engine.
fn solve(solvers: &mut MateSolvers, pos: &AnyPosition, control: &SearchControl) -> Answer {
    solvers.set_control(Some(control.clone()));
    let answer = match solvers.solve_position(pos, &pos.to_sfen(), || !control.is_stopped()) {
        Ok(Ok(record)) => Answer::Record(record),
        Ok(Err(Allocation::Stopped { done, whole })) => Answer::Allocating { done, whole },
        Ok(Err(Allocation::Done)) => unreachable!("a search follows a whole table"),
        Err(e) => Answer::Table(e),
    };
    solvers.set_control(None);
    answer
}

/// A search under way: its control, whether its answer is out, and the worker that gives
/// the solvers back.
struct Running {
    control: SearchControl,
    /// Raised by the worker before it writes the answer, so that a `go` the GUI sends on
    /// reading the answer waits for the worker's last instants rather than being refused.
    answered: Arc<AtomicBool>,
    worker: JoinHandle<MateSolvers>,
}

/// What `go` (without `mate`) owes the GUI: USI wants a `bestmove` for every `go`, after
/// `stop` or `ponderhit` when it was `go infinite` or `go ponder`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owed {
    Nothing,
    BestmoveOnStop,
}

/// The engine's state between lines.
struct Engine {
    settings: Settings,
    /// The position of the last `position` command, or why it was refused.
    position: Result<AnyPosition, String>,
    solvers: Option<MateSolvers>,
    running: Option<Running>,
    owed: Owed,
}

/// Writes one line to standard output at once (both threads write: the lock of
/// [`crate::output`] keeps lines whole).
fn send(line: &str) {
    // A closed pipe ends the process in `output` itself; another write error leaves no
    // one to tell.
    let _ = crate::output::print(&format!("{line}\n"));
}

/// Writes `info string <text>`, in printable ASCII: it quotes what the GUI sent, which may
/// hold any byte, and GUIs read engine output as ASCII, UTF-8 or Shift_JIS (cshogi's client
/// reads `isready`'s answer as Shift_JIS and fails on UTF-8 it cannot decode).
fn info_string(text: &str) {
    send(&format!("info string {}", printable_ascii(text)));
}

/// `text` with the ellipsis of [`quoted`] as `...` and every other character that is not
/// printable ASCII escaped as Rust does (`\u{fffd}`, `\0`).
fn printable_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '…' => out.push_str("..."),
            ' '..='~' => out.push(c),
            _ => out.extend(c.escape_default()),
        }
    }
    out
}

/// Runs the engine on standard input and output until `quit` or the end of the input.
pub fn run() -> Result<(), String> {
    let mut engine = Engine {
        settings: Settings::default(),
        position: Err("no position yet: send `position sfen ...` or `position startpos`".into()),
        solvers: Some(MateSolvers::new(Settings::default().options())),
        running: None,
        owed: Owed::Nothing,
    };
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        let line = match read_line(&mut input, &mut buf) {
            Ok(Some(Line::Whole(line))) => line,
            Ok(Some(Line::TooLong(start))) => {
                engine.refuse(&start);
                continue;
            }
            Ok(None) => break,
            Err(e) => {
                info_string(&format!("reading standard input: {e}"));
                break;
            }
        };
        if !engine.command(&line) {
            break;
        }
    }
    engine.finish();
    Ok(())
}

/// A line of input.
enum Line {
    /// The line, lossily decoded and trimmed.
    Whole(String),
    /// A line longer than [`MAX_LINE`]: its first [`MAX_LINE`] bytes, to name it.
    TooLong(String),
}

/// One line of input without its line end; `None` at the end. A line longer than
/// [`MAX_LINE`] is read to its end and returned as [`Line::TooLong`].
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Line>> {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        if part.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(buf).trim().to_string();
    Ok(Some(if cut {
        Line::TooLong(text)
    } else {
        Line::Whole(text)
    }))
}

impl Engine {
    /// Refuses a line longer than [`MAX_LINE`] whose first bytes are `start`, leaving the
    /// engine as if the line meant what it was meant to mean but failed: a refused
    /// `position` leaves no position (a later `go mate` answers `checkmate timeout`), and a
    /// refused `go` gets its answer at once, so that no GUI waits for one.
    fn refuse(&mut self, start: &str) {
        let why = format!("a line of more than {MAX_LINE} bytes was refused whole");
        info_string(&format!("{why}: {}", quoted(start)));
        let mut words = start.split_whitespace();
        match (words.next(), words.next()) {
            (Some("position"), _) => {
                self.position = Err(format!("the last `position` line was refused ({why})"))
            }
            (Some("go"), Some("mate")) => send("checkmate timeout"),
            (Some("go"), _) => send("bestmove resign"),
            _ => {}
        }
    }

    /// Handles one line; `false` ends the engine.
    fn command(&mut self, line: &str) -> bool {
        self.reap();
        let mut words = line.split_whitespace();
        let Some(head) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match head {
            "usi" => self.usi(),
            "isready" => self.isready(),
            "setoption" => self.setoption(&rest),
            "usinewgame" | "gameover" => self.owed = Owed::Nothing,
            "position" => self.position = parse_position(&rest),
            "go" => self.go(&rest),
            "stop" => self.stop(),
            "ponderhit" => self.pay_bestmove(),
            "quit" => return false,
            _ => info_string(&format!("unknown command {}", quoted(head))),
        }
        true
    }

    fn usi(&self) {
        send(&format!("id name {NAME}"));
        send("id author the shogi-count authors");
        send(&format!(
            "option name USI_Hash type spin default {} min 1 max {MAX_HASH_MB}",
            Settings::default().hash_mb
        ));
        // One df-pn search is one thread: the option says so rather than being ignored.
        send(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        send(&format!(
            "option name NodesLimit type spin default 0 min 0 max {}",
            i64::MAX
        ));
        send(&format!(
            "option name DepthLimit type spin default {} min 1 max 4096",
            Settings::default().depth
        ));
        send("option name DefenderHand type combo default sfen var sfen var rest");
        let defaults = Settings::default();
        send(&format!(
            "option name ShortestMate type check default {}",
            !defaults.mode.first
        ));
        send(&format!(
            "option name FutileInterpositions type check default {}",
            !defaults.mode.all_interpositions
        ));
        send("usiok");
    }

    /// Allocates the table now (unless a search holds it) and answers `readyok`.
    fn isready(&mut self) {
        if let Some(solvers) = self.solvers.as_mut() {
            configured(solvers, fitted(self.settings).options());
            // The Shogi table, and a Mini Shogi table that a `go` began.
            let reserved = solvers
                .reserve(GameKind::Shogi)
                .and_then(|()| solvers.finish_allocations());
            if let Err(e) = reserved {
                info_string(&e.to_string());
            }
        }
        send("readyok");
    }

    fn setoption(&mut self, words: &[&str]) {
        let Some(("name", rest)) = words.split_first().map(|(h, r)| (*h, r)) else {
            info_string("setoption: expected `setoption name <id> value <x>`");
            return;
        };
        let at = rest.iter().position(|w| *w == "value");
        let name = rest[..at.unwrap_or(rest.len())].join(" ");
        let value = at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        // Counts as the command line reads them (`1e6`, `5_000_000`), for NodesLimit above
        // all; a GUI's plain digits read the same.
        let spin = |min: u64, max: u64| -> Option<u64> {
            match shogi_estimate::parse_count(&value) {
                Ok(v) if (min..=max).contains(&v) => Some(v),
                _ => {
                    info_string(&format!(
                        "setoption {name}: {} is not a number from {min} to {max}",
                        quoted(&value)
                    ));
                    None
                }
            }
        };
        match name.as_str() {
            "USI_Hash" => {
                if let Some(v) = spin(1, MAX_HASH_MB) {
                    self.settings.hash_mb = v;
                }
            }
            "Threads" => {
                if let Some(v) = spin(1, MAX_THREADS) {
                    self.settings.threads = v as usize;
                }
            }
            "NodesLimit" => {
                if let Some(v) = spin(0, i64::MAX as u64) {
                    self.settings.nodes = v;
                }
            }
            "DepthLimit" => {
                if let Some(v) = spin(1, 4096) {
                    self.settings.depth = v as u32;
                }
            }
            "DefenderHand" => match value.as_str() {
                "sfen" => self.settings.defender_hand = DefenderHand::Sfen,
                "rest" => self.settings.defender_hand = DefenderHand::Rest,
                _ => info_string(&format!(
                    "setoption DefenderHand: {} is neither `sfen` nor `rest`",
                    quoted(&value)
                )),
            },
            "ShortestMate" => match value.as_str() {
                "true" => self.settings.mode.first = false,
                "false" => self.settings.mode.first = true,
                _ => info_string(&format!(
                    "setoption ShortestMate: {} is neither `true` nor `false`",
                    quoted(&value)
                )),
            },
            "FutileInterpositions" => match value.as_str() {
                "true" => self.settings.mode.all_interpositions = false,
                "false" => self.settings.mode.all_interpositions = true,
                _ => info_string(&format!(
                    "setoption FutileInterpositions: {} is neither `true` nor `false`",
                    quoted(&value)
                )),
            },
            // The options every GUI sends, which mean nothing to a mate search.
            "USI_Ponder"
            | "USI_OwnBook"
            | "USI_MultiPV"
            | "USI_ShowCurrLine"
            | "USI_ShowRefutations"
            | "USI_LimitStrength"
            | "USI_Strength"
            | "USI_AnalyseMode" => {}
            _ => info_string(&format!("setoption: unknown option {}", quoted(&name))),
        }
    }

    fn go(&mut self, words: &[&str]) {
        if words.first() != Some(&"mate") {
            // A mate engine has no move to choose: USI's answer for no move is resign,
            // after `stop` or `ponderhit` when the GUI asked for an endless search.
            info_string("this engine only searches for mates: use `go mate`");
            if words.iter().any(|w| *w == "infinite" || *w == "ponder") {
                self.owed = Owed::BestmoveOnStop;
            } else {
                send("bestmove resign");
            }
            return;
        }
        if let Some(running) = &self.running {
            if !running.answered.load(Ordering::Acquire) {
                info_string("a search is already running: this `go` is ignored (send `stop`)");
                return;
            }
            self.join();
        }
        let limit = match words.get(1).copied() {
            None | Some("infinite") => None,
            Some(ms) => match ms.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    info_string(&format!(
                        "go mate: {} is neither a time in milliseconds nor `infinite`; \
                         searching without a time limit",
                        quoted(ms)
                    ));
                    None
                }
            },
        };
        let pos = match &self.position {
            Ok(pos) => pos.clone(),
            Err(e) => {
                info_string(&format!("go mate: {e}"));
                send("checkmate timeout");
                return;
            }
        };
        let Some(mut solvers) = self.solvers.take() else {
            info_string("go mate: the solver was lost; send `isready`");
            send("checkmate timeout");
            return;
        };
        configured(&mut solvers, fitted(self.settings).options());
        let control = SearchControl::new();
        let worker_control = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let worker_answered = answered.clone();
        let spawned = std::thread::Builder::new()
            .stack_size(crate::problems::STACK)
            .spawn(move || {
                search(&mut solvers, &pos, &worker_control, limit, &worker_answered);
                solvers
            });
        match spawned {
            Ok(worker) => {
                self.running = Some(Running {
                    control,
                    answered,
                    worker,
                })
            }
            Err(e) => {
                info_string(&format!("go mate: cannot start the search thread: {e}"));
                send("checkmate timeout");
                self.solvers = Some(MateSolvers::new(fitted(self.settings).options()));
            }
        }
    }

    fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
        self.pay_bestmove();
    }

    fn pay_bestmove(&mut self) {
        if self.owed == Owed::BestmoveOnStop {
            self.owed = Owed::Nothing;
            send("bestmove resign");
        }
    }

    /// Takes back the solvers of a search that has ended.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.worker.is_finished())
        {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            let settings = self.settings;
            self.solvers = Some(running.worker.join().unwrap_or_else(|_| {
                info_string("the search thread failed; its table is made again");
                MateSolvers::new(fitted(settings).options())
            }));
        }
    }

    /// At `quit` or the end of the input: stops the search and waits for its answer.
    fn finish(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
        self.join();
    }
}

/// The settings with `USI_Hash` lowered, with a note, to what this process can allocate
/// (the bounds of `mate`: memory available, the cgroup's limit, `ulimit -v`).
fn fitted(mut settings: Settings) -> Settings {
    let room = crate::memory::room();
    // The table as `Solver::try_new` will make it.
    let fits = |mb: u64| {
        let entries = Settings {
            hash_mb: mb,
            ..settings
        }
        .options()
        .table_entries;
        shogi_mate::Table::bytes_for(entries)
            .and_then(|b| u64::try_from(b).ok())
            .is_some_and(|bytes| crate::problems::threads_that_fit(bytes, room) >= 1)
    };
    let asked = settings.hash_mb;
    while settings.hash_mb > 1 && !fits(settings.hash_mb) {
        settings.hash_mb /= 2;
    }
    if settings.hash_mb != asked {
        info_string(&format!(
            "USI_Hash {asked} MiB does not fit in the memory this process can get; \
             using {} MiB",
            settings.hash_mb
        ));
    }
    settings
}

/// Reads `position startpos [moves ...]` or `position sfen <sfen> [moves ...]`, playing
/// the moves legally; the error names what is wrong.
fn parse_position(words: &[&str]) -> Result<AnyPosition, String> {
    let result = (|| {
        let (start, rest) = match words.split_first() {
            Some((&"startpos", rest)) => (AnyPosition::Shogi(Position::startpos()), rest),
            Some((&"sfen", rest)) => {
                let end = rest
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(rest.len());
                let sfen = rest[..end].join(" ");
                let pos = AnyPosition::from_sfen_with(&sfen, Relax::ATTACKER_WITHOUT_KING)
                    .map_err(|e| e.to_string())?;
                (pos, &rest[end..])
            }
            Some((other, _)) => {
                return Err(format!(
                    "expected `startpos` or `sfen`, not {}",
                    quoted(other)
                ))
            }
            None => return Err("expected `startpos` or `sfen`".into()),
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", moves)) => moves,
            Some((other, _)) => return Err(format!("expected `moves`, not {}", quoted(other))),
        };
        match start {
            AnyPosition::Shogi(p) => play(p, moves).map(AnyPosition::Shogi),
            AnyPosition::Mini(p) => play(p, moves).map(AnyPosition::Mini),
        }
    })();
    if let Err(e) = &result {
        info_string(&format!("position: {e}"));
    }
    result
}

fn play<G: Game>(mut pos: Position<G>, moves: &[&str]) -> Result<Position<G>, String> {
    for (i, usi) in moves.iter().enumerate() {
        pos.play_usi(usi).map_err(|e| match e {
            shogi_core::UsiError::Illegal(_) => {
                format!("move {} ({}) is not legal here", i + 1, quoted(usi))
            }
            other => format!("move {} ({}): {other}", i + 1, quoted(usi)),
        })?;
    }
    Ok(pos)
}

/// The worker: searches `pos`, with a ticker thread that writes `info` lines every
/// [`INFO_INTERVAL`] and stops the search at the time limit, then writes the answer.
fn search(
    solvers: &mut MateSolvers,
    pos: &AnyPosition,
    control: &SearchControl,
    limit: Option<Duration>,
    answered: &AtomicBool,
) {
    let start = Instant::now();
    let (done, ended) = mpsc::channel::<()>();
    let ticker_control = control.clone();
    let ticker = std::thread::Builder::new().spawn(move || {
        let deadline = limit.map(|l| start + l);
        let mut next_info = start + INFO_INTERVAL;
        loop {
            let now = Instant::now();
            let wake = deadline.map_or(next_info, |d| d.min(next_info));
            match ended.recv_timeout(wake.saturating_duration_since(now)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                ticker_control.stop();
            }
            if now >= next_info {
                info_line(
                    ticker_control.nodes(),
                    ticker_control.hashfull(),
                    now - start,
                );
                next_info += INFO_INTERVAL;
            }
        }
    });
    let answer = solve(solvers, pos, control);
    drop(done);
    match ticker {
        Ok(t) => {
            let _ = t.join();
        }
        Err(e) => info_string(&format!("no info lines: cannot start a thread: {e}")),
    }
    let record = match answer {
        Answer::Record(r) => r,
        Answer::Table(e) => {
            info_string(&e.to_string());
            answered.store(true, Ordering::Release);
            send("checkmate timeout");
            return;
        }
        Answer::Allocating { done, whole } => {
            info_string(&format!(
                "the table of {} MiB was still being allocated ({} MiB done) when the search \
                 had to end; send `isready` after `setoption` and before `go` to allocate it \
                 beforehand",
                whole >> 20,
                done >> 20
            ));
            answered.store(true, Ordering::Release);
            send("checkmate timeout");
            return;
        }
    };
    info_line(control.nodes(), control.hashfull(), start.elapsed());
    answered.store(true, Ordering::Release);
    match record.verdict {
        "mate" => {
            if record.cut {
                // USI has no word for a mate whose length is unproved: the line still
                // mates, and the note says that a shorter one may exist.
                info_string(
                    "the search was stopped (time limit, NodesLimit or stop) before the \
                     shortest mate was proved: the line below mates, but is not proved the \
                     shortest",
                );
            }
            send(&format!("checkmate {}", record.moves.join(" ")))
        }
        "no-mate" => send("checkmate nomate"),
        _ => send("checkmate timeout"),
    }
}

fn info_line(nodes: u64, hashfull: u32, elapsed: Duration) {
    let ms = elapsed.as_millis() as u64;
    let nps = nodes.saturating_mul(1000) / ms.max(1);
    send(&format!(
        "info time {ms} nodes {nodes} nps {nps} hashfull {hashfull}"
    ));
}

/// Whether the process was started under the engine's own name (`shogi-count-usi`, a copy
/// or link of the binary), for GUIs that cannot pass the `usi` argument.
pub fn invoked_as_engine(argv0: &std::ffi::OsStr) -> bool {
    std::path::Path::new(argv0)
        .file_stem()
        .is_some_and(|s| s == "shogi-count-usi")
}
