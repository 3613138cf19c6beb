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

/// A clap value parser for `--threads`: a whole number of at least 1, so that `--threads
/// 0` is a usage error (exit code 2) like every other value out of range. Clap quotes the
/// value itself.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let t = text.trim();
    match t.parse::<usize>() {
        Ok(0) => Err("a thread count is 1 or more".into()),
        Ok(n) => Ok(n),
        Err(_) if t.starts_with('-') => Err("negative: a thread count is 1 or more".into()),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("too large: at most {} threads", usize::MAX))
        }
        Err(_) => Err("not a whole number: a thread count is 1 or more".into()),
    }
}
