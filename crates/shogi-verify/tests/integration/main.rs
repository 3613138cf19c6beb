//! Integration tests of shogi-verify: exhaustive cross-checks, the forward-only oracle and the
//! unmove sweeps.
//!
//! One test binary per package, a module per suite: every test binary is a link of the
//! whole dependency graph, and the first `cargo test` pays for each (docs/BENCHMARKS.md,
//! "The first `cargo test`").

mod exhaustive;
mod oracle;
mod sweep;
