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

use crate::control::SearchControl;
use crate::defender::with_defender_hand;
use crate::node::Node;
use crate::options::{MateOptions, Verdict};
use crate::search::Search;
use crate::shortest::{mates_within, walk_shortest};
use crate::solver::Solver;
use shogi_core::{Game, Hand, Move, Position};
use std::time::Duration;

/// The most longest defences of one defender node whose lines are walked to their end to
/// find the one that leaves the attacker no pieces in hand: each costs a walk, and more
/// than a handful of different longest defences at one node is a problem with bigger
/// faults than a choice among them.
const MOST_DEFENCES_WALKED: usize = 8;

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
    /// asks, not for all of them), table and defender's hand. [`check`] searches the
    /// shortest mate with the convention on futile interpositions whatever `shortest` and
    /// `futile_interpositions` say: they are the conventions being checked.
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

/// The state of one check.
struct Checker<'a, G: Game> {
    solver: &'a mut Solver<G>,
    root: &'a Position<G>,
    problem: &'a Problem<G>,
    flaws: Vec<Flaw>,
    undecided: u32,
    nodes: u64,
}

impl<'a, G: Game> Checker<'a, G> {
    fn new(solver: &'a mut Solver<G>, root: &'a Position<G>, problem: &'a Problem<G>) -> Self {
        Checker {
            solver,
            root,
            problem,
            flaws: Vec::new(),
            undecided: 0,
            nodes: 0,
        }
    }

    fn search(&mut self) -> &mut Search<G> {
        self.solver.search_mut()
    }

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

    /// Whether `pos` is mated within `m` plies, as a question of its own: its own node
    /// limit, the check's control; `None` when undecided.
    fn within(&mut self, pos: &Position<G>, m: u32) -> Option<bool> {
        let s = self.search();
        let full = s.opts.max_depth;
        s.nodes = 0;
        s.aborted = s.control.as_ref().is_some_and(|c| c.is_stopped());
        let answer = mates_within(s, pos, m);
        s.opts.max_depth = full;
        self.nodes += s.nodes;
        answer
    }

    /// A line of exactly `len` plies from `pos`, whose shortest mate is `len`, every move
    /// proved (§11.4's walk); `None` when a limit stops it.
    fn walk(&mut self, pos: &Position<G>, len: u32) -> Option<Vec<Move>> {
        if pos.side_to_move() != self.root.side_to_move() {
            // §11.4's walk checks a mating line, which starts with the attacker: from a
            // defender node, a longest reply first, then the walk.
            for mv in self.moves(pos, false) {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                if len < 4 || !self.within(&next, len - 3)? {
                    let mut line = vec![mv];
                    line.extend(self.walk(&next, len - 1)?);
                    return Some(line);
                }
            }
            return None;
        }
        let s = self.search();
        s.nodes = 0;
        s.aborted = s.control.as_ref().is_some_and(|c| c.is_stopped());
        let line = walk_shortest(s, pos, len);
        self.nodes += s.nodes;
        line
    }

    /// The legal moves of the node `pos`: the checks at an attacker node, every reply at a
    /// defender node (under the futile convention, none where the defender is mated by it).
    fn moves(&mut self, pos: &Position<G>, or_node: bool) -> Vec<Move> {
        let s = self.search();
        let start = s.children.len();
        s.expand(pos, Node::mate(or_node));
        let moves = s.children[start..].iter().map(|c| c.mv).collect();
        s.children.truncate(start);
        moves
    }

    /// The main line, from the solver's `line` of the proved length `len`, with the
    /// alternatives and variations of each ply examined on the way. It follows the recorded
    /// solution while that keeps to the proved length (the composer's line where it is one
    /// of the answers), then the solver's line.
    fn main_line(&mut self, mut line: Vec<Move>, len: u32) -> Vec<Move> {
        let attacker = self.root.side_to_move();
        let recorded = self.problem.solution.clone().unwrap_or_default();
        let mut on_record = true;
        let mut pos = self.root.clone();
        let mut ply = 0usize;
        while ply < line.len() {
            let left = len - ply as u32;
            let or_node = pos.side_to_move() == attacker;
            let record = recorded.get(ply).copied().filter(|_| on_record);
            if or_node {
                if let Some(mv) = record.filter(|&mv| mv != line[ply]) {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    let rest = if left == 1 {
                        crate::verify::mated(&next, true).then(Vec::new)
                    } else if self.within(&next, left - 1) == Some(true) {
                        self.recorded_rest(ply + 1, &next, left - 1)
                            .or_else(|| self.walk(&next, left - 1))
                    } else {
                        None
                    };
                    if let Some(rest) = rest {
                        line.truncate(ply);
                        line.push(mv);
                        line.extend(rest);
                    }
                }
                on_record = record == Some(line[ply]);
                self.alternatives(&pos, line[ply], ply as u32 + 1, left);
            } else {
                if let Some(rest) = self.defence(&pos, line[ply], record, ply as u32 + 1, left) {
                    line.truncate(ply);
                    line.extend(rest);
                }
                on_record = record == Some(line[ply]);
            }
            pos.play_unchecked(line[ply]);
            ply += 1;
        }
        line
    }

    /// The other checks at an attacker node of the main line, with `left` plies left to
    /// the mate: those that also mate within them are 余詰, tolerated at the last move and
    /// as a choice of promotion.
    fn alternatives(&mut self, pos: &Position<G>, main: Move, ply: u32, left: u32) {
        for mv in self.moves(pos, true) {
            if mv == main {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let mates = if left == 1 {
                Some(crate::verify::mated(&next, true))
            } else {
                self.within(&next, left - 1)
            };
            match mates {
                Some(true) => {
                    let moves = if left == 1 {
                        vec![mv]
                    } else {
                        self.alternative_line(mv, &next, left - 1)
                    };
                    let kind = if left == 1 {
                        FlawKind::LastMoveAlternative
                    } else if promotion_choice(main, mv) {
                        FlawKind::Unlimited
                    } else {
                        FlawKind::AlternativeMate
                    };
                    self.flaws.push(Flaw {
                        kind,
                        ply,
                        moves,
                        pieces: None,
                    });
                }
                Some(false) => {}
                None => self.undecided += 1,
            }
        }
    }

    /// The alternative check `mv` and, after it, a shortest mate of the position `next` it
    /// leads to, which is mated within `most` plies: the shortest length found by searches
    /// within 0, 2, … plies, then its walk. Only `mv` when a limit stops that.
    fn alternative_line(&mut self, mv: Move, next: &Position<G>, most: u32) -> Vec<Move> {
        let mut line = vec![mv];
        for m in (0..=most).step_by(2) {
            match self.within(next, m) {
                Some(true) => {
                    if m > 0 {
                        line.extend(self.walk(next, m).unwrap_or_default());
                    }
                    break;
                }
                Some(false) => {}
                None => break,
            }
        }
        line
    }

    /// The defender node `pos` of the main line, `left` plies from the end, where the
    /// solver's line plays `main` and the recorded solution `record`: the longest defences,
    /// the one the main line takes (one that leaves the attacker no pieces in hand, where
    /// one does; the recorded one first, then the solver's), and the others as long that
    /// are 変同. Returns the main line's rest from here when it changes.
    fn defence(
        &mut self,
        pos: &Position<G>,
        main: Move,
        record: Option<Move>,
        ply: u32,
        left: u32,
    ) -> Option<Vec<Move>> {
        // The longest defences, drops of other kinds on one square counted as one (the
        // choice of the interposed piece is free where it changes nothing).
        let mut all: Vec<Move> = Vec::new();
        for mv in self.moves(pos, false) {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let keeps = if left < 4 {
                Some(true)
            } else {
                self.within(&next, left - 3).map(|m| !m)
            };
            match keeps {
                Some(true) => all.push(mv),
                Some(false) => {}
                None => self.undecided += 1,
            }
        }
        // The recorded defence first, the solver's next, then one a square for the drops.
        all.sort_by_key(|&mv| (Some(mv) != record, mv != main));
        let mut longest: Vec<Move> = Vec::new();
        for mv in all {
            let same_square = |m: &Move| is_drop(*m) && m.to() == mv.to();
            if !(is_drop(mv) && longest.iter().any(same_square)) {
                longest.push(mv);
            }
        }
        if longest.is_empty() || longest == [main] {
            return None;
        }
        // Each longest defence's line to the end, and the attacker's hand there.
        let mut lines: Vec<(Move, Vec<Move>, bool)> = Vec::new();
        for &mv in longest.iter().take(MOST_DEFENCES_WALKED) {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            // The recorded continuation, where this is the recorded defence, is the line
            // the composer meant; else the walk's.
            let recorded = (Some(mv) == record)
                .then(|| self.recorded_rest(ply as usize, &next, left - 1))
                .flatten();
            match recorded.or_else(|| self.walk(&next, left - 1)) {
                Some(rest) => {
                    let empty = self.ends_empty(&next, &rest);
                    lines.push((mv, rest, empty));
                }
                None => self.undecided += 1,
            }
        }
        let chosen = lines
            .iter()
            .position(|l| l.2)
            .or_else(|| lines.iter().position(|l| Some(l.0) == record))
            .or_else(|| lines.iter().position(|l| l.0 == main))
            // The line's own defence is not a longest one (a recorded line followed so far
            // whose defender errs here): the first longest.
            .or_else(|| (!lines.is_empty()).then_some(0))?;
        let (mv, rest, empty) = lines[chosen].clone();
        // 変同: another defence as long that leaves no pieces either (or, where every
        // longest line leaves some, any other); composers do not call the last two plies
        // one.
        if left > 2 {
            for (i, (other, line, other_empty)) in lines.iter().enumerate() {
                if i != chosen && (*other_empty || !empty) {
                    let mut moves = vec![*other];
                    moves.extend(line.iter().copied());
                    self.flaws.push(Flaw {
                        kind: FlawKind::EqualVariation,
                        ply,
                        moves,
                        pieces: None,
                    });
                }
            }
        }
        (mv != main || empty).then(|| {
            let mut line = vec![mv];
            line.extend(rest);
            line
        })
    }

    /// The recorded solution from index `from` on, when it is a mating line of exactly
    /// `len` plies from `pos` (every move legal, every attacker move a check, the end mated
    /// under the conventions).
    fn recorded_rest(&self, from: usize, pos: &Position<G>, len: u32) -> Option<Vec<Move>> {
        let rest = self.problem.solution.as_ref()?.get(from..)?;
        if rest.len() != len as usize {
            return None;
        }
        let attacker = self.root.side_to_move();
        let mut end = pos.clone();
        for &mv in rest {
            if !end.is_legal(mv) {
                return None;
            }
            let mover = end.side_to_move();
            end.play_unchecked(mv);
            if mover == attacker && !end.in_check(!attacker) {
                return None;
            }
        }
        crate::verify::mated(&end, true).then(|| rest.to_vec())
    }

    /// Whether the attacker's hand is empty after `line` from `pos`.
    fn ends_empty(&self, pos: &Position<G>, line: &[Move]) -> bool {
        let attacker = self.root.side_to_move();
        let mut end = pos.clone();
        for &mv in line {
            end.play_unchecked(mv);
        }
        end.hand(attacker).is_empty()
    }

    /// The findings on the whole line: pieces left, and the declared length against the
    /// proved one.
    fn declared(&mut self, len: u32, line: &[Move]) {
        let attacker = self.root.side_to_move();
        let mut end = self.root.clone();
        for &mv in line {
            end.play_unchecked(mv);
        }
        let hand = *end.hand(attacker);
        if !hand.is_empty() {
            self.flaws.push(Flaw {
                kind: FlawKind::PiecesLeft,
                ply: len,
                moves: line.to_vec(),
                pieces: Some(hand),
            });
        }
        match self.problem.declared {
            Some(d) if d > len => self.flaws.push(Flaw {
                kind: FlawKind::ShorterMate,
                ply: 1,
                moves: line.to_vec(),
                pieces: None,
            }),
            Some(d) if d < len => {
                let found = self.longer_defence(len);
                self.flaws.push(found.unwrap_or(Flaw {
                    kind: FlawKind::LongerVariation,
                    ply: 0,
                    moves: line.to_vec(),
                    pieces: None,
                }));
            }
            _ => {}
        }
    }

    /// The first defender move of the recorded solution that is not a longest defence,
    /// with a longest one and its line, while the recorded attacker moves keep the mate
    /// within the proved length.
    fn longer_defence(&mut self, len: u32) -> Option<Flaw> {
        let solution = self.problem.solution.clone()?;
        let attacker = self.root.side_to_move();
        let mut pos = self.root.clone();
        for (i, &mv) in solution.iter().enumerate() {
            let left = len.checked_sub(i as u32)?;
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if pos.side_to_move() == attacker {
                if left < 2 || self.within(&next, left - 1) != Some(true) {
                    return None;
                }
            } else if left >= 4 && self.within(&next, left - 3) == Some(true) {
                // The recorded reply is mated sooner: find a reply that is not.
                for other in self.moves(&pos, false) {
                    let mut after = pos.clone();
                    after.play_unchecked(other);
                    if self.within(&after, left - 3) == Some(false) {
                        let mut moves = vec![other];
                        moves.extend(self.walk(&after, left - 1).unwrap_or_default());
                        return Some(Flaw {
                            kind: FlawKind::LongerVariation,
                            ply: i as u32 + 1,
                            moves,
                            pieces: None,
                        });
                    }
                }
                return None;
            }
            pos = next;
        }
        None
    }
}

fn is_drop(mv: Move) -> bool {
    matches!(mv, Move::Drop { .. })
}

/// Whether `a` and `b` are one board move, with and without promotion.
fn promotion_choice(a: Move, b: Move) -> bool {
    match (a, b) {
        (
            Move::Normal {
                from: f1,
                to: t1,
                promote: p1,
            },
            Move::Normal {
                from: f2,
                to: t2,
                promote: p2,
            },
        ) => f1 == f2 && t1 == t2 && p1 != p2,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DefenderHand;
    use shogi_core::{MoveList, Relax, Shogi};

    fn problem(sfen: &str, declared: Option<u32>, solution: &str) -> Problem<Shogi> {
        let position = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let moves: Vec<Move> = solution
            .split_whitespace()
            .map(|m| Move::from_usi::<Shogi>(m).unwrap())
            .collect();
        Problem {
            position,
            declared,
            solution: (!moves.is_empty()).then_some(moves),
        }
    }

    fn opts() -> CheckOptions {
        let mut o = CheckOptions::default();
        o.mate.table_entries = 1 << 14;
        o
    }

    fn usi(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| m.to_usi::<Shogi>()).collect()
    }

    fn kinds(r: &Report) -> Vec<(FlawKind, u32)> {
        r.flaws.iter().map(|f| (f.kind, f.ply)).collect()
    }

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

    /// 余詰: a gold added on 7a also mates in 3 from the first move (8a9a, the king takes,
    /// the horse mates on 8a); the recorded line stays the main line.
    #[test]
    fn an_added_piece_that_makes_a_second_mate_is_an_alternative_at_its_ply() {
        let p = problem(
            "1+LG6/k1+B6/s8/9/9/9/9/9/9 b N 1",
            Some(3),
            "N*8d 9c8d 7b8b",
        );
        let r = check(&p, &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Flawed);
        assert_eq!(usi(&r.main_line), ["N*8d", "9c8d", "7b8b"]);
        assert_eq!(kinds(&r), [(FlawKind::AlternativeMate, 1)]);
        assert_eq!(usi(&r.flaws[0].moves), ["8a9a", "9b9a", "7b8a"]);
    }

    /// 駒余り: a pawn added to the attacker's hand is left over.
    #[test]
    fn a_hand_piece_left_over_is_pieces_left_at_the_last_ply() {
        let r = check(
            &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NP 1", Some(3), ""),
            &opts(),
        )
        .unwrap();
        assert_eq!(r.verdict, Soundness::Flawed);
        assert_eq!(kinds(&r), [(FlawKind::PiecesLeft, 3)]);
        let left = r.flaws[0].pieces.as_ref().unwrap();
        assert_eq!(
            (left.count(shogi_core::PieceKind::Pawn), left.total()),
            (1, 1)
        );
    }

    /// 早詰: a silver added to the hand mates at once (S*8c), shorter than the declared 3.
    #[test]
    fn a_shorter_mate_than_declared_is_reported() {
        let r = check(
            &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NS 1", Some(3), ""),
            &opts(),
        )
        .unwrap();
        assert_eq!((r.verdict, r.length), (Soundness::Flawed, Some(1)));
        assert!(kinds(&r).contains(&(FlawKind::ShorterMate, 1)));
        // Declared as long as it is, it is no early mate (but the knight is left over).
        let r = check(
            &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NS 1", Some(1), ""),
            &opts(),
        )
        .unwrap();
        assert_eq!(kinds(&r), [(FlawKind::PiecesLeft, 1)]);
    }

    #[test]
    fn no_mate_is_its_own_verdict() {
        let r = check(&problem("4k4/9/9/9/9/9/9/9/9 b P 1", Some(1), ""), &opts()).unwrap();
        assert_eq!((r.verdict, r.length), (Soundness::NoMate, None));
        assert_eq!(kinds(&r), [(FlawKind::NoMate, 0)]);
    }

    /// The defender longest: after 4b3a+ the king's 2a3a is mated in 3 plies in all, but
    /// 2a1b resists to 5. A recorded solution that declares the 3 is shown the longer
    /// defence at its ply.
    #[test]
    fn a_longer_defence_than_declared_is_placed_in_the_recorded_line() {
        let p = problem(
            "4pS1k1/5B3/5n3/6g2/9/9/9/9/9 b G 1",
            Some(3),
            "4b3a+ 2a3a G*3b",
        );
        let r = check(&p, &opts()).unwrap();
        assert_eq!(
            (r.verdict, r.length, r.declared),
            (Soundness::Flawed, Some(5), Some(3))
        );
        let flaws: Vec<&Flaw> = r.flaws.iter().filter(|f| f.kind.is_flaw()).collect();
        assert_eq!(flaws.len(), 1);
        let f = flaws[0];
        assert_eq!((f.kind, f.ply), (FlawKind::LongerVariation, 2));
        assert_eq!(usi(&f.moves[..1]), ["2a1b"]);
        assert_eq!(f.moves.len(), 4, "the defence and the mate after it");
        // The main line follows the recorded check, then leaves its defence for the longest.
        assert_eq!(usi(&r.main_line[..2]), ["4b3a+", "2a1b"]);
    }

    /// 変同: after P*1c both 1b2b and 1b1a hold out to the fifth ply and end with no
    /// pieces left.
    #[test]
    fn an_equally_long_defence_is_an_equal_variation() {
        let r = check(
            &problem("9/8k/5B3/4l2Gl/7S1/9/9/9/9 b SP 1", None, ""),
            &opts(),
        )
        .unwrap();
        assert_eq!(r.verdict, Soundness::Flawed);
        assert_eq!(usi(&r.main_line[..2]), ["P*1c", "1b2b"]);
        assert_eq!(kinds(&r)[0], (FlawKind::EqualVariation, 2));
        assert_eq!(usi(&r.flaws[0].moves), ["1b1a", "S*1b", "1a2b", "1b2a+"]);
    }

    /// The defender's choice among equally long lines: after G*2c, 1b2a and 1b1a both last
    /// five plies; 1b2a's ends with the pawn in the attacker's hand, 1b1a's uses it. The
    /// main line takes 1b1a, and 1b2a is a variation, no 変同. The solver's own line took
    /// 1b2a: without the rule the problem would be reported as 駒余り.
    #[test]
    fn the_defender_avoids_leaving_pieces_among_equal_lines() {
        let sfen = "9/5l2k/3B5/3s1N2S/9/9/9/9/9 b PG 1";
        let r = check(&problem(sfen, Some(5), ""), &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Sound, "{:?}", kinds(&r));
        assert_eq!(usi(&r.main_line), ["G*2c", "1b1a", "P*1b", "1a2a", "4d3b+"]);
        let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let mut solver = Solver::<Shogi>::new(opts().mate);
        let raw = solver.solve_shortest(&pos);
        assert_eq!(usi(&raw.moves[..2]), ["G*2c", "1b2a"]);
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

    /// Another check that mates at the last move is tolerated: the rook may drop anywhere
    /// on the file.
    #[test]
    fn alternatives_at_the_last_move_are_tolerated() {
        let sfen = "+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1";
        let r = check(&problem(sfen, Some(3), "9a7c 9e9f R*9e"), &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Sound);
        assert_eq!(usi(&r.main_line), ["9a7c", "9e9f", "R*9e"]);
        assert!(!r.flaws.is_empty());
        assert!(r
            .flaws
            .iter()
            .all(|f| (f.kind, f.ply) == (FlawKind::LastMoveAlternative, 3) && !f.kind.is_flaw()));
    }

    /// A check with and without promotion that both mate is 非限定, tolerated.
    #[test]
    fn a_free_choice_of_promotion_is_tolerated() {
        let r = check(
            &problem("8k/6nn1/9/3R5/8G/9/9/9/9 b NSL 1", None, ""),
            &opts(),
        )
        .unwrap();
        let f = r
            .flaws
            .iter()
            .find(|f| f.kind == FlawKind::Unlimited)
            .expect("非限定");
        assert_eq!((f.ply, usi(&f.moves[..1])), (3, vec!["6d6a".to_string()]));
        assert_eq!(f.moves.len(), 5, "the move and the mate after it");
        assert!(!FlawKind::Unlimited.is_flaw());
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

    /// The defender's replies at the end of `prefix` from the problem `sfen` after which
    /// the attacker has no mate within `left - 3` plies: the longest defences there.
    fn longest(sfen: &str, prefix: &str, left: u32) -> Vec<String> {
        let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let mut pos = with_defender_hand(&pos, DefenderHand::Rest);
        let mut solver = Solver::<Shogi>::new(opts().mate);
        let s = solver.search_mut();
        s.opts.futile_interpositions = true;
        s.start(&pos);
        for m in prefix.split_whitespace() {
            pos.play_usi(m).unwrap();
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut out = Vec::new();
        for &mv in list.iter() {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if left < 4 || mates_within(s, &next, left - 3) == Some(false) {
                out.push(mv.to_usi::<Shogi>());
            }
        }
        out
    }

    /// Two defences as long in the last two plies are no 変同 (composers do not call them
    /// one): here the king's 9e9f and an interposition on 8d, which the horse takes with
    /// mate, are each mated at the next ply.
    #[test]
    fn equal_defences_in_the_last_two_plies_are_no_variation() {
        let sfen = "+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1";
        let last = longest(sfen, "9a7c", 2);
        assert_eq!(
            last,
            ["9e9f", "P*8d", "L*8d", "N*8d", "S*8d", "G*8d", "R*8d"]
        );
        let r = check(&problem(sfen, Some(3), ""), &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Sound);
    }

    /// Interpositions of different kinds on one square are one defence: after 6e6a+ the
    /// defender may drop a knight or a bishop on 5a, each as long, and the problem is sound.
    #[test]
    fn drops_of_other_kinds_on_one_square_are_one_defence() {
        let sfen = "5k3/7S1/9/9/3R2g2/9/9/9/9 b PGS 1";
        let drops: Vec<String> = longest(sfen, "6e6a+", 6)
            .into_iter()
            .filter(|m| m.ends_with("*5a"))
            .collect();
        assert_eq!(drops, ["N*5a", "B*5a"]);
        let r = check(&problem(sfen, Some(7), ""), &opts()).unwrap();
        assert_eq!(r.verdict, Soundness::Sound, "{:?}", kinds(&r));
        assert_eq!(r.length, Some(7));
    }
}
