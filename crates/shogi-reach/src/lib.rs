#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod classify;
mod construct;
mod heuristic;
mod search;

pub use classify::{classify, classify_legal, Classification, Stage};
pub use construct::{game_to, game_to_kk, kk_to_kk, opening_line, ConstructError};
pub use heuristic::{heuristic, is_kk, piece_weight, zone_distance, Weights};
pub use search::{
    Certificate, Limits, SearchConfig, SearchOutcome, SearchStats, Searcher, Verdict,
};
