//! Integration tests of shogi-reach: certificate construction, sampled searches and the search
//! itself.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod construct;
mod sampled;
mod search;
