//! The command-line tests: each module runs the `shogi-count` binary on one family of commands or hostile inputs.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod common;
mod estimate_cmds;
mod estimate_hostile;
mod estimate_interrupt;
mod exit_codes;
mod hostile;
mod mate_cmds;
mod perft_cli;
mod pipes;
mod rank_cmds;
mod reach_cmds;
mod retro_cmds;
