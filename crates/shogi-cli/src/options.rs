//! Options shared by several subcommands.

use clap::Args;
use shogi_core::{PawnDropRule, Rules};

/// Rule options.
#[derive(Args, Clone, Copy, Debug)]
pub struct RuleArgs {
    /// Which pawn drops that leave no legal reply are illegal.
    #[arg(long, value_enum, default_value = "mate")]
    pub pawn_drop: PawnDropRule,
}

impl RuleArgs {
    /// The rule set chosen.
    pub fn rules(self) -> Rules {
        Rules {
            pawn_drop: self.pawn_drop,
        }
    }
}
