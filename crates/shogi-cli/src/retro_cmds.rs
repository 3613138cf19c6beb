//! `unmoves`: the one-ply predecessors of a position (docs/METHOD.md §6).

use crate::options::RuleArgs;
use crate::output::note;
use clap::Subcommand;
use shogi_core::{AnyPosition, Game, Position, Relax, Rules};
use shogi_retro::{predecessor, unmoves, UnmoveList};

/// The subcommands over backward move generation.
#[derive(Subcommand)]
pub enum RetroCommand {
    /// Print every legal predecessor of a position, one SFEN a line (docs/METHOD.md §6): the
    /// positions from which one legal move leads to it.
    Unmoves {
        /// Also print the USI move leading from each predecessor to the position, after a
        /// tab.
        #[arg(long)]
        moves: bool,
        #[command(flatten)]
        rules: RuleArgs,
        /// The position (the game follows from its number of ranks).
        sfen: String,
    },
}

/// Runs one of the subcommands; the error text goes to standard error.
pub fn run(cmd: RetroCommand) -> Result<(), String> {
    match cmd {
        RetroCommand::Unmoves { moves, rules, sfen } => {
            let rules = rules.rules();
            match AnyPosition::from_sfen_with(&sfen, Relax::CANDIDATE).map_err(|e| e.to_string())? {
                AnyPosition::Shogi(p) => print_unmoves(&p, rules, moves),
                AnyPosition::Mini(p) => print_unmoves(&p, rules, moves),
            }
        }
    }
}

fn print_unmoves<G: Game>(pos: &Position<G>, rules: Rules, moves: bool) -> Result<(), String> {
    let mut list = UnmoveList::new();
    unmoves(pos, rules, &mut list);
    let mut out = String::new();
    for &u in &list {
        let Ok(q) = predecessor(pos, u) else {
            continue; // every generated unmove fits its position
        };
        out.push_str(&q.to_sfen());
        if moves {
            out.push('\t');
            out.push_str(&u.forward().to_usi::<G>());
        }
        out.push('\n');
    }
    crate::output::print(&out)?;
    note!("{} predecessors", list.len());
    Ok(())
}
