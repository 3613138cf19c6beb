//! Integration tests of shogi-reach: certificate construction, sampled searches and the search itself.
//!
//! One test binary per package: each linked test binary costs a link of the whole
//! dependency graph, and 41 of them made the first `cargo test` take minutes longer.

mod construct;
mod sampled;
mod search;
