//! Verification code for the shogi-count crates: what checks the libraries rather than what an
//! engine author would call. Not published.
//!
//! - [`exhaustive`]: the exhaustive cross-check of the backward search against a forward
//!   closure on reduced material (docs/METHOD.md §9);
//! - [`sweep`]: the completeness/soundness sweep of the unmove generator (docs/METHOD.md §6);
//! - [`perft_file`]: the reader of the perft suites in `testdata/perft`;
//! - [`rng`]: the one deterministic random generator of the tests;
//! - [`oracle`]: an independent oracle of the phase-1 verdicts (filters and one-ply
//!   predecessors by brute force over the forward move generator, docs/METHOD.md §10.7);
//! - [`verdicts`]: its harnesses, against `shogi_retro::unmoves` and against the pipeline.
#![forbid(unsafe_code)]

pub mod exhaustive;
pub mod oracle;
pub mod perft_file;
pub mod rng;
pub mod sweep;
pub mod verdicts;
