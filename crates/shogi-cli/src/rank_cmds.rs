//! `count`, `rank` and `unrank`: the candidate space `P_K` of docs/METHOD.md §4 and its ranking.

use crate::output;
use clap::Subcommand;
use num_bigint::BigUint;
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Relax, Shogi};
use shogi_estimate::Space;
use shogi_rank::{full_placement_table, full_table, RankTable};

fn parse_space(s: &str) -> Result<Space, String> {
    s.parse()
}

/// A rank as clap reads it, so that text that is no rank at all is a usage error (exit
/// code 2); a number past the last rank is found when the table is there (exit code 1).
fn parse_rank(s: &str) -> Result<BigUint, String> {
    // Clap quotes the value itself.
    s.trim()
        .parse()
        .map_err(|_| "not a non-negative decimal integer".to_string())
}

/// The subcommands over the ranking.
#[derive(Subcommand)]
pub enum RankCommand {
    /// Print |P_K|, the exact number of K-canonical candidate positions (docs/METHOD.md §4),
    /// or with --space placement-legal |S|, those of them that pass the piece-placement
    /// filter (docs/METHOD.md §10.2).
    Count {
        /// The game.
        #[arg(long, value_enum, default_value = "shogi")]
        game: GameKind,
        /// The space: `candidate` (P_K) or `placement-legal` (S).
        #[arg(long, default_value = "candidate", value_parser = parse_space)]
        space: Space,
    },
    /// Print the SFEN of the position with this rank (docs/METHOD.md §4.1, the authors' order).
    Unrank {
        /// The game.
        #[arg(long, value_enum, default_value = "shogi")]
        game: GameKind,
        /// The rank, a decimal integer in [0, |P_K|).
        #[arg(allow_hyphen_values = true, value_parser = parse_rank)]
        rank: BigUint,
    },
    /// Print the rank of a position given as SFEN (the game follows from its number of
    /// ranks).
    Rank {
        /// The position: Black to move, K-canonical kings, the game's full material.
        sfen: String,
    },
}

/// Runs one of the subcommands; the error text goes to standard error.
pub fn run(cmd: RankCommand) -> Result<(), String> {
    match cmd {
        RankCommand::Count { game, space } => {
            let n = match (game, space) {
                (GameKind::Shogi, Space::Candidate) => full_table::<Shogi>().count(),
                (GameKind::Mini, Space::Candidate) => full_table::<MiniShogi>().count(),
                (GameKind::Shogi, Space::PlacementLegal) => full_placement_table::<Shogi>().count(),
                (GameKind::Mini, Space::PlacementLegal) => {
                    full_placement_table::<MiniShogi>().count()
                }
            };
            output::print(&format!("{n}\n"))?;
        }
        RankCommand::Unrank { game, rank: r } => {
            let sfen = match game {
                GameKind::Shogi => unrank(full_table::<Shogi>(), &r)?,
                GameKind::Mini => unrank(full_table::<MiniShogi>(), &r)?,
            };
            output::print(&format!("{sfen}\n"))?;
        }
        RankCommand::Rank { sfen } => {
            let r = match AnyPosition::from_sfen_with(sfen.trim(), Relax::CANDIDATE)
                .map_err(|e| e.to_string())?
            {
                AnyPosition::Shogi(p) => full_table::<Shogi>().rank(&p),
                AnyPosition::Mini(p) => full_table::<MiniShogi>().rank(&p),
            }
            .map_err(|e| e.to_string())?;
            output::print(&format!("{r}\n"))?;
        }
    }
    Ok(())
}

fn unrank<G: Game>(table: &RankTable<G>, r: &BigUint) -> Result<String, String> {
    table
        .unrank(r)
        .map(|p| p.to_sfen())
        .map_err(|e| e.to_string())
}
