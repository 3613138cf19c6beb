//! `shogi-count`: count, rank, search and estimate positions of Shogi-like games.

use clap::{Parser, Subcommand};
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Position, Rules, Shogi};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

mod check_cmd;
mod estimate_cmds;
mod files;
mod inputs;
mod mate_cmds;
mod memory;
mod options;
mod out_file;
mod output;
mod problems;
mod quote;
mod rank_cmds;
mod reach_cmds;
mod retro_cmds;
mod run_files;
mod sample_cmds;
mod usi;
use options::RuleArgs;
use output::note;

/// The exit codes, the same for every command (README.md lists them too).
const EXIT_CODES: &str = "\
Exit codes, the same for every command:
  0    success
  1    an error: a bad position or file, an invalid input line, a failed write
  2    a usage error: an unknown option or an invalid option value
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM, 129 by SIGHUP (estimate checkpoints first)
  141  standard output was closed early (`| head`): the output stops there, silently;
       or standard error was: the results are still written, then the exit is 141";

#[derive(Parser)]
#[command(
    name = "shogi-count",
    version,
    about = "Counting the positions of Shogi-like games",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft); the count is the last line.
    ///
    /// `perft 5` counts from Shogi's initial position, `perft --game mini 5` from Mini
    /// Shogi's, `perft 3 "<sfen>"` from a position (the game follows from its number of
    /// ranks).
    Perft {
        /// The game: its initial position is the start when no SFEN is given (default
        /// shogi); with a SFEN, the SFEN must be of this game.
        #[arg(long, value_enum)]
        game: Option<GameKind>,
        /// Print the count below each legal first move.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        rules: RuleArgs,
        /// Depth in plies, at most 20 (deeper trees are far beyond reach, and the
        /// recursion would overflow the stack).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(shogi_cli::MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Start from this position instead of the initial one.
        #[arg(value_name = "SFEN")]
        sfen: Option<String>,
        /// The same as the SFEN argument, for scripts written before it existed
        /// (`perft --sfen "<sfen>" 2`).
        #[arg(long = "sfen", value_name = "SFEN", conflicts_with = "sfen")]
        sfen_option: Option<String>,
    },
    #[command(flatten)]
    Ranking(rank_cmds::RankCommand),
    #[command(flatten)]
    Retro(retro_cmds::RetroCommand),
    #[command(flatten)]
    Reach(reach_cmds::ReachCommand),
    #[command(flatten)]
    Estimate(estimate_cmds::EstimateCommand),
    #[command(flatten)]
    RunFiles(run_files::RunFileCommand),
    #[command(flatten)]
    Mate(mate_cmds::MateCommand),
    #[command(flatten)]
    Sample(sample_cmds::SampleCommand),
    /// Run as a USI engine for mate search (`go mate`), for Shogi GUIs.
    ///
    /// Speaks USI on standard input and output: usi, isready, setoption (USI_Hash,
    /// Threads, NodesLimit, DepthLimit, DefenderHand), usinewgame, position, `go mate <ms>` |
    /// `infinite`, stop, quit; answers `checkmate <moves>`, checkmate nomate or checkmate
    /// timeout, with info lines while it searches. A GUI that cannot pass the `usi`
    /// argument can run a copy or link of the binary named `shogi-count-usi` (README.md).
    Usi,
}

fn main() -> ExitCode {
    // The arguments as text, to cut the long ones out of error messages.
    let args: Vec<String> = std::env::args_os()
        .filter_map(|a| a.into_string().ok())
        .collect();
    // A GUI registers one executable and runs it without arguments: under the engine's
    // name, the binary is the engine.
    if std::env::args_os()
        .next()
        .is_some_and(|a| usi::invoked_as_engine(&a))
    {
        return match usi::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                note!("shogi-count: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to standard output, and errors without a long argument in
        // them keep clap's own rendering (colours on a terminal).
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            let text = e.render().to_string();
            let clipped = quote::clip_arguments(&text, &args);
            if clipped == text {
                e.exit()
            }
            output::note_text(&clipped);
            std::process::exit(e.exit_code())
        }
    };
    // Whatever a command left in the buffer of standard output is written here, where an
    // error can still change the exit code.
    let done = run(cli).and_then(|()| output::stdout().flush().map_err(output::error));
    match done {
        // The results are out; a reader of standard error who left is told as a reader of
        // standard output would be.
        Ok(()) if output::stderr_closed() => ExitCode::from(output::CLOSED_PIPE as u8),
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            note!("shogi-count: {}", quote::clip_arguments(&e, &args));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Ranking(cmd) => rank_cmds::run(cmd),
        Command::Retro(cmd) => retro_cmds::run(cmd),
        Command::Reach(cmd) => reach_cmds::run(cmd),
        Command::Estimate(cmd) => estimate_cmds::run_command(cmd),
        Command::RunFiles(cmd) => run_files::run_command(cmd),
        Command::Mate(cmd) => mate_cmds::run(cmd),
        Command::Sample(cmd) => sample_cmds::run(cmd),
        Command::Usi => usi::run(),
        Command::Perft {
            game,
            divide,
            rules,
            depth,
            sfen,
            sfen_option,
        } => {
            let rules = rules.rules();
            match (sfen.or(sfen_option), game) {
                (Some(s), Some(GameKind::Shogi)) => perft(
                    &Position::<Shogi>::from_sfen(&s).map_err(|e| e.to_string())?,
                    rules,
                    depth,
                    divide,
                ),
                (Some(s), Some(GameKind::Mini)) => perft(
                    &Position::<MiniShogi>::from_sfen(&s).map_err(|e| e.to_string())?,
                    rules,
                    depth,
                    divide,
                ),
                (Some(s), None) => match AnyPosition::from_sfen(&s).map_err(|e| e.to_string())? {
                    AnyPosition::Shogi(p) => perft(&p, rules, depth, divide),
                    AnyPosition::Mini(p) => perft(&p, rules, depth, divide),
                },
                (None, Some(GameKind::Mini)) => {
                    perft(&Position::<MiniShogi>::startpos(), rules, depth, divide)
                }
                (None, _) => perft(&Position::<Shogi>::startpos(), rules, depth, divide),
            }
        }
    }
}

fn perft<G: Game>(pos: &Position<G>, rules: Rules, depth: u32, divide: bool) -> Result<(), String> {
    let start = Instant::now();
    let mut out = output::stdout();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(rules, depth) {
            writeln!(out, "{} {n}", mv.to_usi::<G>()).map_err(output::error)?;
            total += n;
        }
        total
    } else {
        pos.perft_with(rules, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    note!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.1} M nodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    writeln!(out, "{total}").map_err(output::error)
}
