//! Integration tests of shogi-estimate: runs, checkpoints, merges and the statistics against reference values.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod runs;
mod stats_reference;
