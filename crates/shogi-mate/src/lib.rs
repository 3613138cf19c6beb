//! Checkmate search for Shogi and Mini Shogi: df-pn with proof and disproof pieces and a
//! transposition table that answers by superiority, and the possible pass count of
//! threatmate and brinkmate search. One generic code path serves both games.
//!
//! The method is written up in docs/METHOD.md §11–§13 of the repository.
//!
//! ```
//! use shogi_core::{Position, Shogi};
//! use shogi_mate::{MateOptions, Solver, Verdict};
//!
//! // A mate in 3 from YaneuraOu's published problem sets; White is the attacker.
//! let pos = Position::<Shogi>::from_sfen(
//!     "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
//! )
//! .unwrap();
//! let mut solver = Solver::new(MateOptions::default());
//! let result = solver.solve(&pos);
//! assert_eq!(result.verdict, Verdict::Mate);
//! // The line: White's checks and Black's longest resistance found in the proof (the
//! // shortest mate is 3 plies; the proof found need not be the shortest).
//! let plies = result.plies().unwrap();
//! assert!(plies >= 3 && plies % 2 == 1);
//! shogi_mate::verify_line(&pos, &result.moves).unwrap();
//! ```
#![deny(missing_docs)]

mod control;
mod dfpn;
pub mod futile;
mod hand;
mod history;
mod pass;
pub mod pieces;
mod table;

pub use control::{SearchControl, CHECK_INTERVAL};
pub use dfpn::{
    verify_line, verify_line_with, with_defender_hand, MateOptions, MateResult, SearchStats,
    Solver, Verdict, DEFAULT_MAX_DEPTH,
};
pub use hand::PackedHand;
pub use pass::{Defense, PassOptions, PassResult, PassSolver, PassVerdict};
pub use table::{Hit, Probe, Table, TableBuilder, TableStats, INF};

/// Which hand the defender holds (docs/METHOD.md §11.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum DefenderHand {
    /// Every piece that is neither on the board nor in the attacker's hand: the convention
    /// of mate problems. The hand the SFEN gives the defender is replaced.
    #[default]
    Rest,
    /// The hand the SFEN gives the defender, kept as it is: for positions from games where
    /// both hands are known. The defender's hand is then part of the table key.
    Sfen,
}

impl DefenderHand {
    /// The name on the command line: `rest` or `sfen`.
    pub const fn name(self) -> &'static str {
        match self {
            DefenderHand::Rest => "rest",
            DefenderHand::Sfen => "sfen",
        }
    }
}
