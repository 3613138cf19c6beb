//! A composed problem checked against the composers' conventions (docs/METHOD.md §11.7):
//! its proved length, its main line, and the flaws a composer or an editor looks for
//! (余詰, 早詰, 不詰, 駒余り, 変同, a longer defence than declared).
//!
//! Everything here is a question put to the mate search of [`crate::Solver`]: "is this
//! position mated within `m` plies?", decided both ways by a search with that depth limit
//! on one table whose entries answer by length (§11.4). The conventions themselves are
//! those of the search (the attacker shortest, the defender longest, futile interpositions
//! as §11.5 defines them); this module adds the choices a composer's reading makes on top of
//! the minimax length: which of several longest defences is the main line, and which
//! alternatives are flaws and which are tolerated.
//!
//! The check is in parts, each using only those before it (docs/METHOD.md §11.6): `report`,
//! what a check takes and gives; `checker`, one check's state and the questions it puts to
//! the search; `variations`, the defender's choice at a node of the main line; `main_line`,
//! the main line with the checks beside it and the findings on the whole of it; and this
//! file, the check from a problem to its verdict.

use crate::control::SearchControl;
use crate::defender::with_defender_hand;
use crate::options::{MateOptions, Verdict};
use crate::solver::Solver;
use checker::Checker;
use shogi_core::Game;

mod checker;
mod main_line;
mod report;
#[cfg(test)]
mod testing;
mod variations;

pub use report::{CheckError, CheckOptions, Flaw, FlawKind, Problem, Report, Soundness};

/// Checks `problem` with a solver made for it from `opts` (docs/METHOD.md §11.7).
pub fn check<G: Game>(problem: &Problem<G>, opts: &CheckOptions) -> Result<Report, CheckError> {
    let mut solver = Solver::<G>::new(opts.mate);
    check_with(&mut solver, problem, opts)
}

/// [`check`] on `solver`'s table, which is cleared first; the solver's options are those of
/// `opts.mate`, with the conventions on ([`CheckOptions::mate`]). The solver's control, if
/// any, is replaced for the check's time and given back after.
pub fn check_with<G: Game>(
    solver: &mut Solver<G>,
    problem: &Problem<G>,
    opts: &CheckOptions,
) -> Result<Report, CheckError> {
    let root = with_defender_hand(&problem.position, opts.mate.defender_hand);
    if let Some(solution) = &problem.solution {
        let mut pos = root.clone();
        for (i, &mv) in solution.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(CheckError::Solution {
                    ply: i + 1,
                    usi: mv.to_usi::<G>(),
                });
            }
            pos.play_unchecked(mv);
        }
    }
    if let Some(d) = problem.declared {
        if d.is_multiple_of(2) {
            return Err(CheckError::DeclaredLength { declared: d });
        }
    }
    let mate = MateOptions {
        shortest: true,
        futile_interpositions: true,
        ..opts.mate
    };
    let saved = *solver.options();
    solver.search_mut().opts = mate;
    let caller = solver.search_mut().control.take();
    let control = SearchControl::new();
    solver.set_control(Some(control.clone()));
    let report = std::thread::scope(|scope| {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        if let Some(limit) = opts.time_limit {
            if limit.is_zero() {
                control.stop();
            }
            let control = control.clone();
            scope.spawn(move || {
                if wait.recv_timeout(limit).is_err() {
                    control.stop();
                }
            });
        }
        let report = Checker::new(solver, &root, problem).run();
        drop(done);
        report
    });
    solver.set_control(caller);
    solver.search_mut().opts = saved;
    Ok(report)
}

impl<G: Game> Checker<'_, G> {
    /// The report: the proved length first, then the main line with its findings, and the
    /// verdict on them.
    fn run(mut self) -> Report {
        let first = self.solver.solve_shortest(self.root);
        self.nodes = first.stats.nodes;
        let mut report = Report {
            verdict: Soundness::Unknown,
            length: None,
            declared: self.problem.declared,
            main_line: Vec::new(),
            flaws: Vec::new(),
            undecided: 0,
            nodes: 0,
        };
        match (first.verdict, first.shortest) {
            (Verdict::NoMate, _) => {
                report.verdict = Soundness::NoMate;
                report.flaws.push(Flaw {
                    kind: FlawKind::NoMate,
                    ply: 0,
                    moves: Vec::new(),
                    pieces: None,
                });
            }
            (Verdict::Mate, Some(len)) => {
                report.length = Some(len);
                report.main_line = self.main_line(first.moves, len);
                self.declared(len, &report.main_line);
                let decided = self.undecided == 0;
                self.flaws.sort_by_key(|f| f.ply);
                report.flaws = std::mem::take(&mut self.flaws);
                report.verdict = if report.flaws.iter().any(|f| f.kind.is_flaw()) {
                    Soundness::Flawed
                } else if decided {
                    Soundness::Sound
                } else {
                    Soundness::Unknown
                };
            }
            // A mate whose length was not proved, or no verdict at all.
            _ => report.main_line = first.moves,
        }
        report.undecided = self.undecided;
        report.nodes = self.nodes;
        report
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{kinds, opts, problem, usi};
    use super::*;
    use shogi_core::{Position, Relax, Shogi};
    use std::time::Duration;

    /// A mate in 3 with one answer: N*8d, the silver must take, the horse mates.
    const SOUND3: &str = "1+L7/k1+B6/s8/9/9/9/9/9/9 b N 1";

    #[test]
    fn a_sound_problem_passes() {
        let r = check(&problem(SOUND3, Some(3), "N*8d 9c8d 7b8b"), &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Sound);
        assert_eq!((r.length, r.declared, r.undecided), (Some(3), Some(3), 0));
        assert_eq!(usi(&r.main_line), ["N*8d", "9c8d", "7b8b"]);
        assert!(r.flaws.is_empty());
        assert_eq!(Soundness::Sound.name(), "sound");
    }

    #[test]
    fn no_mate_is_its_own_verdict() {
        let r = check(&problem("4k4/9/9/9/9/9/9/9/9 b P 1", Some(1), ""), &opts()).unwrap();
        assert_eq!((r.verdict, r.length), (Soundness::NoMate, None));
        assert_eq!(kinds(&r), [(FlawKind::NoMate, 0)]);
    }

    /// Futile interpositions are not counted: the bishop's discovered check from 9i, every
    /// drop between taken by it, is a mate in 1 (15 plies with every reply counted).
    #[test]
    fn futile_interpositions_are_not_counted() {
        let r = check(
            &problem("8k/8p/6P2/9/9/9/9/9/B8 b - 1", Some(1), ""),
            &opts(),
        )
        .unwrap();
        assert_eq!((r.verdict, r.length), (Soundness::Sound, Some(1)));
        assert_eq!(usi(&r.main_line), ["3c3b+"]);
    }

    /// The attacker shortest: a mate in 3 from the committed set of shortest mates
    /// (testdata/mate/shogi_shortest.tsv), whose first proof is 11 plies long.
    #[test]
    fn the_attacker_mates_in_the_fewest_plies() {
        let sfen = "1n6n/2L1s4/3p4p/1p1b2gP1/N4nP2/3P4P/1P2g1k1+r/1GK2P1+s1/L8 w 2Prbg2s2l7p 1";
        let r = check(&problem(sfen, None, ""), &opts()).unwrap();
        assert_eq!(r.length, Some(3));
        assert_eq!(r.main_line.len(), 3);
        let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        // The command line's default table, 64 MiB.
        let first = Solver::<Shogi>::new(MateOptions {
            table_entries: 1 << 21,
            ..MateOptions::default()
        })
        .solve(&pos);
        assert_eq!(first.moves.len(), 11, "the first proof is no shortest mate");
    }

    #[test]
    fn bad_problems_are_typed_errors() {
        let e = check(&problem(SOUND3, Some(4), ""), &opts()).unwrap_err();
        assert_eq!(e, CheckError::DeclaredLength { declared: 4 });
        assert_eq!(
            e.to_string(),
            "a declared length is an odd number of plies, not 4"
        );
        let e = check(&problem(SOUND3, None, "N*8d 7b8b"), &opts()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the recorded solution's ply 2, 7b8b, is not legal"
        );
    }

    /// A time limit of zero stops the check before it begins: nothing is proved.
    #[test]
    fn a_check_out_of_time_is_unknown() {
        let o = CheckOptions {
            time_limit: Some(Duration::ZERO),
            ..opts()
        };
        let r = check(&problem(SOUND3, Some(3), ""), &o).unwrap();
        assert_eq!((r.verdict, r.length), (Soundness::Unknown, None));
    }
}
