//! What a check takes and what it gives (docs/METHOD.md §11.7): the problem and the options,
//! the report with its verdict and findings, and why a problem cannot be checked.

use crate::options::MateOptions;
use shogi_core::{Game, Hand, Move, Position};
use std::time::Duration;

/// A problem to check: a position with the attacker (the side to move) to mate, and the
/// length its composer declares, if any.
#[derive(Clone, Debug)]
pub struct Problem<G: Game> {
    /// The position; its defender's hand is read with [`MateOptions::defender_hand`].
    pub position: Position<G>,
    /// The declared length in plies (odd), or `None` to check the problem on its own.
    pub declared: Option<u32>,
    /// The recorded solution, if any: with a declared length shorter than the proved one,
    /// it locates the defender move that is not the longest resistance.
    pub solution: Option<Vec<Move>>,
}

/// Options of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The mate search's options: its limits (`max_nodes` holds for each question the check
    /// asks, not for all of them), table and defender's hand. [`check`](crate::check)
    /// searches the shortest mate with the convention on futile interpositions whatever
    /// `shortest` and `futile_interpositions` say: they are the conventions being checked.
    pub mate: MateOptions,
    /// The whole check stops after this long (the questions not yet answered count as
    /// undecided); `None`: no time limit.
    pub time_limit: Option<Duration>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            mate: MateOptions {
                shortest: true,
                futile_interpositions: true,
                ..MateOptions::default()
            },
            time_limit: None,
        }
    }
}

/// The verdict on a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Soundness {
    /// A mate of the declared length (when one is declared), with none of the flaws of
    /// [`FlawKind::is_flaw`], every question decided.
    Sound,
    /// At least one flaw is proved ([`Report::flaws`]).
    Flawed,
    /// The defender escapes: the problem has no mate.
    NoMate,
    /// A limit stopped the check before it could say: the mate's length was not proved,
    /// or some alternative was left undecided and no flaw was found.
    Unknown,
}

impl Soundness {
    /// The name in output: `sound`, `flawed`, `no-mate`, `unknown`.
    pub const fn name(self) -> &'static str {
        match self {
            Soundness::Sound => "sound",
            Soundness::Flawed => "flawed",
            Soundness::NoMate => "no-mate",
            Soundness::Unknown => "unknown",
        }
    }
}

/// What is wrong with a problem (or, for the tolerated kinds, what a reader may want to
/// know), with the composers' term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlawKind {
    /// 余詰: at an attacker move of the main line other than the last, another check mates
    /// within the plies that remain.
    AlternativeMate,
    /// 早詰: the proved length is shorter than the declared one.
    ShorterMate,
    /// 不詰: there is no mate.
    NoMate,
    /// 駒余り: the main line, the defender avoiding it wherever a longest defence allows,
    /// ends with pieces in the attacker's hand.
    PiecesLeft,
    /// 変同 (変化同手数): another defence, not a drop of another kind on the same square, is
    /// as long as the main line's and leaves the attacker no pieces either; not reported in
    /// the last two plies, where composers do not call it one.
    EqualVariation,
    /// The defender resists longer than the declared length: the declared line is not the
    /// solution (a defence in it is not the longest).
    LongerVariation,
    /// Tolerated (最終手余詰): another check also mates at the last move.
    LastMoveAlternative,
    /// Tolerated (成不成非限定): the same move with and without promotion both mate within
    /// the plies that remain.
    Unlimited,
}

impl FlawKind {
    /// The name in output: `alternative-mate`, `shorter-mate`, `no-mate`, `pieces-left`,
    /// `equal-variation`, `longer-variation`, `last-move-alternative`, `unlimited`.
    pub const fn name(self) -> &'static str {
        match self {
            FlawKind::AlternativeMate => "alternative-mate",
            FlawKind::ShorterMate => "shorter-mate",
            FlawKind::NoMate => "no-mate",
            FlawKind::PiecesLeft => "pieces-left",
            FlawKind::EqualVariation => "equal-variation",
            FlawKind::LongerVariation => "longer-variation",
            FlawKind::LastMoveAlternative => "last-move-alternative",
            FlawKind::Unlimited => "unlimited",
        }
    }

    /// Whether the kind makes a problem flawed; the tolerated kinds do not (the composers'
    /// tolerance of docs/METHOD.md §11.7).
    pub const fn is_flaw(self) -> bool {
        !matches!(self, FlawKind::LastMoveAlternative | FlawKind::Unlimited)
    }
}

/// One finding of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flaw {
    /// What it is.
    pub kind: FlawKind,
    /// The ply of the main line where it shows, from 1 (0: the problem as a whole, as for
    /// no mate, or a longer defence the check could not place).
    pub ply: u32,
    /// The moves that show it, played from the position before that ply: the other mating
    /// move (alternatives), the other defence and its line (variations), the main line
    /// (a shorter mate, pieces left, a longer defence not placed); empty for no mate.
    pub moves: Vec<Move>,
    /// For [`FlawKind::PiecesLeft`]: the pieces left in the attacker's hand.
    pub pieces: Option<Hand>,
}

/// The report on one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The verdict.
    pub verdict: Soundness,
    /// The proved length under the conventions, in plies (`None` unless proved).
    pub length: Option<u32>,
    /// The declared length, as given.
    pub declared: Option<u32>,
    /// The main line: the attacker shortest, the defender longest and, among its longest
    /// defences, one that leaves the attacker no pieces in hand where there is one. Empty
    /// unless mate.
    pub main_line: Vec<Move>,
    /// Flaws and tolerated findings, by ply.
    pub flaws: Vec<Flaw>,
    /// Questions a limit left undecided (each an alternative or a defence not known to
    /// keep or lose the mate's length).
    pub undecided: u32,
    /// Nodes searched, all questions together.
    pub nodes: u64,
}

/// Why a problem cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A declared length must be odd (the attacker moves first and last).
    DeclaredLength {
        /// The length given.
        declared: u32,
    },
    /// The recorded solution has a move that is not legal where it is played.
    Solution {
        /// The ply, from 1.
        ply: usize,
        /// The move in USI.
        usi: String,
    },
}

impl core::fmt::Display for CheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CheckError::DeclaredLength { declared } => write!(
                f,
                "a declared length is an odd number of plies, not {declared}"
            ),
            CheckError::Solution { ply, usi } => {
                write!(f, "the recorded solution's ply {ply}, {usi}, is not legal")
            }
        }
    }
}

impl std::error::Error for CheckError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind and verdict has a name of its own, and only the composers' tolerated kinds
    /// leave a problem sound.
    #[test]
    fn names_are_distinct_and_only_the_tolerated_kinds_are_no_flaw() {
        let kinds = [
            FlawKind::AlternativeMate,
            FlawKind::ShorterMate,
            FlawKind::NoMate,
            FlawKind::PiecesLeft,
            FlawKind::EqualVariation,
            FlawKind::LongerVariation,
            FlawKind::LastMoveAlternative,
            FlawKind::Unlimited,
        ];
        let mut names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), kinds.len());
        let tolerated: Vec<FlawKind> = kinds.into_iter().filter(|k| !k.is_flaw()).collect();
        assert_eq!(
            tolerated,
            [FlawKind::LastMoveAlternative, FlawKind::Unlimited]
        );
        let verdicts = [
            Soundness::Sound,
            Soundness::Flawed,
            Soundness::NoMate,
            Soundness::Unknown,
        ];
        assert_eq!(
            verdicts.map(Soundness::name),
            ["sound", "flawed", "no-mate", "unknown"]
        );
    }

    /// The conventions being checked are on by default, and there is no time limit.
    #[test]
    fn the_default_options_search_under_the_conventions() {
        let o = CheckOptions::default();
        assert!(o.mate.shortest && o.mate.futile_interpositions);
        assert_eq!(o.time_limit, None);
    }
}
