//! Integration tests of shogi-verify: exhaustive cross-checks, the forward-only oracle and the unmove sweeps.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod exhaustive;
mod oracle;
mod sweep;
