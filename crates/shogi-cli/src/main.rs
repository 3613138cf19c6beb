//! `shogi-count`: count, rank, search and estimate positions of Shogi-like games.

use clap::{Parser, Subcommand};
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Position, Rules, Shogi};
use std::process::ExitCode;
use std::time::Instant;

mod estimate_cmds;
mod inputs;
mod mate_cmds;
mod options;
mod rank_cmds;
mod reach_cmds;
mod retro_cmds;
mod sample_cmds;
use options::RuleArgs;

#[derive(Parser)]
#[command(
    name = "shogi-count",
    version,
    about = "Counting the positions of Shogi-like games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft); the count is the last line.
    Perft {
        /// Start from this SFEN (the game follows from its number of ranks).
        #[arg(long)]
        sfen: Option<String>,
        /// The game: its initial position is the start when no SFEN is given (default
        /// shogi); with --sfen, the SFEN must be of this game.
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
    Mate(mate_cmds::MateCommand),
    #[command(flatten)]
    Sample(sample_cmds::SampleCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shogi-count: {e}");
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
        Command::Mate(cmd) => mate_cmds::run(cmd),
        Command::Sample(cmd) => sample_cmds::run(cmd),
        Command::Perft {
            sfen,
            game,
            divide,
            rules,
            depth,
        } => {
            let rules = rules.rules();
            match (sfen, game) {
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
            Ok(())
        }
    }
}

fn perft<G: Game>(pos: &Position<G>, rules: Rules, depth: u32, divide: bool) {
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(rules, depth) {
            println!("{} {n}", mv.to_usi::<G>());
            total += n;
        }
        total
    } else {
        pos.perft_with(rules, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.1} M nodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
}
