//! The command-line tests: each module runs the `shogi-count` binary on one family of commands
//! or hostile inputs.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod check_tsume;
mod common;
mod estimate_cmds;
mod estimate_files;
mod estimate_hostile;
mod estimate_interrupt;
mod exit_codes;
mod hostile;
mod mate_cmds;
mod perft_cli;
mod pipes;
mod problem_files;
mod rank_cmds;
mod reach_cmds;
mod retro_cmds;
mod run_files;
mod usi_engine;
