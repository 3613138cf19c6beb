//! Integration tests of shogi-core: perft against outside libraries, a naive move generator, parsing, symmetry and the material rules.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod checks;
mod common;
mod crowded;
mod material_limit;
mod movegen_naive;
mod parse;
mod perft_suite;
mod spec_facts;
mod symmetry;
mod validate;
