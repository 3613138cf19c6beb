//! Integration tests of shogi-core: perft against outside libraries, a naive move generator,
//! parsing, symmetry and the material rules.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod checks;
mod common;
mod crowded;
mod material_limit;
mod move_sets;
mod movegen_naive;
mod parse;
mod perft_suite;
mod spec_facts;
mod symmetry;
mod validate;
