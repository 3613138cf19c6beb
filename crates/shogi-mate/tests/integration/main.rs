//! Integration tests of shogi-mate: problem sets, exhaustive small material, the public API and
//! fuzz regressions.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod common;
mod control;
mod cycles;
mod delay;
mod fuzz_regressions;
mod mini_exhaustive;
mod problem_sets;
mod public;
