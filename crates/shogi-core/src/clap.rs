//! `clap::ValueEnum` for the enums a command line chooses from (feature `clap`), so that
//! every tool spells them the same way.

use crate::{GameKind, PawnDropRule};
use clap::builder::PossibleValue;

impl clap::ValueEnum for GameKind {
    fn value_variants<'a>() -> &'a [Self] {
        &GameKind::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.help()))
    }
}

impl clap::ValueEnum for PawnDropRule {
    fn value_variants<'a>() -> &'a [Self] {
        &PawnDropRule::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.help()))
    }
}
