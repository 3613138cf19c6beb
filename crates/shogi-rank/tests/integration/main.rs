//! Integration tests of shogi-rank: anchors, exhaustive ranking on small material, round trips, uniformity and filter rates.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod anchors;
mod common;
mod errors;
mod exhaustive;
mod filter_rates;
mod placement;
mod roundtrip;
mod uniformity;
