//! Options shared by several subcommands.

use clap::{Args, ValueEnum};
use shogi_core::{PawnDropRule, Rules};

/// The drop-pawn-mate reading (SPEC §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PawnDropArg {
    /// A pawn drop is illegal when it checks and mates (the usual rule).
    Mate,
    /// A pawn drop is illegal whenever it leaves no legal reply (the paper's reading).
    NoReply,
}

/// Rule options.
#[derive(Args, Clone, Copy, Debug)]
pub struct RuleArgs {
    /// Which pawn drops that leave no legal reply are illegal.
    #[arg(long, value_enum, default_value = "mate")]
    pub pawn_drop: PawnDropArg,
}

impl RuleArgs {
    /// The rule set chosen.
    pub fn rules(self) -> Rules {
        Rules {
            pawn_drop: match self.pawn_drop {
                PawnDropArg::Mate => PawnDropRule::MateOnly,
                PawnDropArg::NoReply => PawnDropRule::NoLegalReply,
            },
        }
    }
}
