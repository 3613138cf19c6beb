//! The library side of `shogi-count`: what its per-position commands compute and the records
//! they print with `--json`.
//!
//! The binary prints these records; the Python module of `crates/shogi-py` returns them as
//! dictionaries. Keeping the records here, once, is what makes `classify(sfen)` in Python
//! and `shogi-count classify --json` give the same fields with the same values.
//!
//! - [`Classifier`] and [`ClassifyRecord`]: `classify` (docs/METHOD.md §5, §7);
//! - [`reach`] and [`Reached`]: the certificate of `reach`;
//! - [`MateSolvers`], [`MateRecord`], [`PassSolvers`] and [`PassRecord`]: `mate` and
//!   `pass-count` (docs/METHOD.md §11–§13), with the solvers made in one place
//!   ([`Solvers`]) for the command line, the USI engine and Python, which answer the mate
//!   [`MateMode`] asks for, by default the same;
//! - [`MAX_PERFT_DEPTH`]: the deepest `perft`;
//! - [`node_limit`]: what a user's node count means (0: no limit).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod mate_records;
mod reach_records;
mod solvers;

pub use mate_records::{FlawRecord, MateRecord, PassRecord, TsumeRecord};
pub use reach_records::{reach, Classifier, ClassifyRecord, ReachError, Reached};
pub use solvers::{
    table_entries, Allocation, Mate, MateMode, MateSolvers, PassCount, PassSolvers, Search,
    SolveError, Solvers, TableError,
};

/// The deepest perft accepted: enough for any tree that can be counted, and far from the
/// depth at which the recursion of `Position::perft_with` overflows the stack.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The solvers' node limit for a count of nodes given by a user (`mate --nodes N`, USI's
/// `NodesLimit`, Python's `nodes=`): 0 is no limit, as USI has it for `NodesLimit`, so that
/// one number means the same to the command line, the engine and the Python module.
pub fn node_limit(nodes: u64) -> u64 {
    if nodes == 0 {
        u64::MAX
    } else {
        nodes
    }
}
