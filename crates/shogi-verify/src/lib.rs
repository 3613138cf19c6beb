//! Verification code for the shogi-count crates: what checks the libraries rather than what an
//! engine author would call. Not published.
//!
//! - [`exhaustive`]: the exhaustive cross-check of the backward search against a forward
//!   closure on reduced material (docs/METHOD.md §9);
//! - [`sweep`]: the completeness/soundness sweep of the unmove generator (docs/METHOD.md §6);
//! - [`perft_file`]: the reader of the perft suites in `testdata/perft`;
//! - [`rng`]: the one deterministic random generator of the tests.
#![forbid(unsafe_code)]

pub mod exhaustive;
pub mod perft_file;
pub mod rng;
pub mod sweep;
