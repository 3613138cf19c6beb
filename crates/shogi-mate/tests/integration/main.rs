//! Integration tests of shogi-mate: problem sets, exhaustive small material, the public API and fuzz regressions.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod common;
mod fuzz_regressions;
mod mini_exhaustive;
mod problem_sets;
mod public;
