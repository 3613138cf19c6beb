//! Integration tests of shogi-rank: anchors, exhaustive ranking on small material, round trips,
//! uniformity and filter rates.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod anchors;
mod common;
mod errors;
mod exhaustive;
mod filter_rates;
mod placement;
mod roundtrip;
mod uniformity;
