//! Integration tests of shogi-estimate: runs, checkpoints, merges and the statistics against
//! reference values.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md, "The
//! first `cargo test`").

mod conditional;
mod docs_digits;
mod four_digits;
mod runs;
mod segments;
mod stats_reference;
mod systematic_table;
