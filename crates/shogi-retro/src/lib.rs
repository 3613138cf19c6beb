#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod generate;
mod unmove;

pub use generate::{
    count_unmoves, for_each_unmove, for_each_unmove_of, has_predecessor, unmoves, UnmoveKinds,
    UnmoveList,
};
pub use unmove::{predecessor, redo, undo, Unmove, UnmoveParseError};

use shogi_core::{Game, Position, Rules};

/// Every legal predecessor of `pos` with the unmove leading to it (a convenience that
/// allocates; the search uses [`unmoves`] or [`for_each_unmove`] with [`undo`]).
pub fn predecessors<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<(Unmove, Position<G>)> {
    let mut list = UnmoveList::new();
    unmoves(pos, rules, &mut list);
    list.into_iter()
        .filter_map(|u| predecessor(pos, u).ok().map(|p| (u, p)))
        .collect()
}
