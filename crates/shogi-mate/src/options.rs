//! The options of a mate search and of a pass-count search, and what they answer.

use crate::defender::DefenderHand;
use crate::node::Defense;
use crate::table::TableStats;
use shogi_core::Move;

/// The default depth limit of a mate search, in plies: longer than any published mate
/// problem (ミクロコスモス, the longest, has 1,525 plies), so that no real problem is cut; the
/// memory of the search is bounded by its table, not by this.
pub const DEFAULT_MAX_DEPTH: u32 = 4096;

/// Options of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateOptions {
    /// The search gives up (verdict [`Verdict::Unknown`]) after this many nodes.
    pub max_nodes: u64,
    /// Transposition table entries (32 bytes each; at least 64, any number). The
    /// table is the search's memory limit: when it is full, entries are replaced, which
    /// costs time but never soundness.
    pub table_entries: usize,
    /// The longest line searched, in plies. Deeper lines count as failed for the attacker,
    /// and a no-mate that rests on such a cut is reported as [`Verdict::Unknown`].
    pub max_depth: u32,
    /// Which hand the defender holds.
    pub defender_hand: DefenderHand,
    /// Whether proofs and disproofs store proof and disproof pieces and answer look-ups by
    /// superiority (off: exact hands only, the ablation of docs/BENCHMARKS.md).
    pub superiority: bool,
    /// Whether [`crate::Solver::solve`] goes on to prove the shortest mate
    /// ([`crate::Solver::solve_shortest`]).
    pub shortest: bool,
    /// The threshold controlling algorithm (docs/METHOD.md §11.2): a node whose children
    /// include a position of the current path searches on past its thresholds until a new
    /// position has been expanded below it, so that a cycle cannot send the search back and
    /// forth between the same nodes for ever (off: the ablation of docs/BENCHMARKS.md).
    pub tca: bool,
    /// Delayed moves (docs/METHOD.md §11.2): of the defender's drops on one square only the
    /// first is counted and searched until it is proved, then the next; of a check with and
    /// without promotion, the one without waits while the promotion is undisproved and no
    /// more than twice as hard to prove by the numbers. Off: every move counts from the start
    /// (the ablation of docs/BENCHMARKS.md).
    pub delay: bool,
    /// A new position after the defender's reply starts with the attacker's number of
    /// checks as its disproof number (off: 1), as a position after a check starts with the
    /// defender's number of replies as its proof number (docs/METHOD.md §11.2).
    pub dn_lookahead: bool,
    /// The tsume convention on futile interpositions (無駄合, docs/METHOD.md §11.5): a
    /// defender whose every reply is a drop the checker can take into mate counts as
    /// mated. Verdicts never change; mate lengths (and lines) can be shorter. Off: every
    /// legal reply counts, as in KomoringHeights' MinLength.
    pub futile_interpositions: bool,
    /// Threads searching each position (docs/METHOD.md §11.8): the first finds the answer,
    /// the others help it through the shared table. With 1 (the default) the search is
    /// deterministic; with more, node counts (the threads' total) vary from run to run.
    pub threads: usize,
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            max_nodes: 1_000_000,
            table_entries: 1 << 20,
            max_depth: DEFAULT_MAX_DEPTH,
            defender_hand: DefenderHand::Rest,
            superiority: true,
            shortest: false,
            tca: true,
            delay: true,
            dn_lookahead: true,
            futile_interpositions: false,
            threads: 1,
        }
    }
}

/// The outcome of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The attacker (the side to move) forces checkmate; the result carries a line.
    Mate,
    /// The defender escapes every sequence of checks.
    NoMate,
    /// A limit was reached first (nodes, table, depth), or the search was stopped
    /// ([`crate::Solver::set_control`]).
    Unknown,
}

impl Verdict {
    /// The name in the command line's output: `mate`, `no-mate`, `unknown`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Mate => "mate",
            Verdict::NoMate => "no-mate",
            Verdict::Unknown => "unknown",
        }
    }
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Nodes expanded (each visit of a position by the search counts once).
    pub nodes: u64,
    /// Table look-ups, by how they were answered.
    pub table: TableStats,
    /// The share of the table in use at the end.
    pub table_fill: f64,
}

/// The result of [`crate::Solver::solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct MateResult {
    /// The verdict.
    pub verdict: Verdict,
    /// For a mate: the attacker's moves and the defender's longest resistance found in the
    /// proof, ending in checkmate; it has been replayed ([`crate::verify_line`]). Empty otherwise.
    pub moves: Vec<Move>,
    /// For a mate: whether the line was planned by minimax over the proved positions
    /// (docs/METHOD.md §11.3), or, after [`crate::Solver::solve_shortest`], walked with every move
    /// proved (§11.4), so that its length is at least that of the shortest forced mate.
    /// `false` when the planning ran out (proofs lost from a full table, the node
    /// limit) and the line follows the stored lengths: a legal mating line whose defence
    /// may not be the longest, so its length bounds nothing.
    pub line_minimax: bool,
    /// After [`crate::Solver::solve_shortest`]: the proved length of the shortest mate, in plies
    /// (`None` after [`crate::Solver::solve`], or when a search of the shortest ran out of nodes:
    /// then the line's length is only an upper bound). A line planned by minimax or
    /// walked ([`MateResult::line_minimax`]) is at least this long, and exactly this long
    /// unless the walk that shortens a planned line ran out of nodes (a table far too
    /// small for the searches and a low node limit).
    pub shortest: Option<u32>,
    /// Whether the node limit or a stop ([`crate::Solver::set_control`]: a caller's time
    /// limit) ended a search of this answer before it was done: with
    /// [`Verdict::Unknown`], that is why; with a mate after
    /// [`crate::Solver::solve_shortest`], the shortest was not proved ([`MateResult::shortest`]
    /// is `None` and the line's length only an upper bound) or its line not walked to that
    /// length. A front end says so rather than print the answer as a proved one.
    pub cut: bool,
    /// For a mate: the proof pieces of the position (a part of the attacker's hand that is
    /// enough for a mate within the depth limit: those of the proof found, whose mate may
    /// be longer than the line, which takes the shortest the table proves); for a no-mate:
    /// its disproof pieces.
    pub pieces: Option<shogi_core::Hand>,
    /// Counters.
    pub stats: SearchStats,
}

impl MateResult {
    /// The length of the line in plies, for a mate.
    pub fn plies(&self) -> Option<usize> {
        (self.verdict == Verdict::Mate).then_some(self.moves.len())
    }
}

/// Options of a pass-count search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassOptions {
    /// The defence set.
    pub defense: Defense,
    /// The largest count tried: beyond it the verdict is [`PassVerdict::PassLimit`].
    pub max_passes: u32,
    /// The search gives up (verdict [`PassVerdict::Unknown`]) after this many nodes, over
    /// all bounds together.
    pub max_nodes: u64,
    /// Transposition table entries (32 bytes each), as [`MateOptions::table_entries`].
    pub table_entries: usize,
    /// The longest line searched, in plies (passes included).
    pub max_depth: u32,
    /// Which hand the defender holds.
    pub defender_hand: DefenderHand,
}

impl PassOptions {
    /// The options of the mate search that the pass count is, with passes allowed: its
    /// limits and defender's hand, and every refinement of the mate search as it is by
    /// default, so that "pc ≤ 0" is searched as `mate` searches it.
    pub fn mate_options(&self) -> MateOptions {
        MateOptions {
            max_nodes: self.max_nodes,
            table_entries: self.table_entries,
            max_depth: self.max_depth,
            defender_hand: self.defender_hand,
            ..MateOptions::default()
        }
    }
}

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            defense: Defense::None,
            max_passes: 3,
            max_nodes: 1_000_000,
            table_entries: 1 << 20,
            max_depth: DEFAULT_MAX_DEPTH,
            defender_hand: DefenderHand::Rest,
        }
    }
}

/// The outcome of a pass-count search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassVerdict {
    /// The count is proved (and smaller counts are refuted).
    Proved,
    /// No count up to the limit could be proved: every one was refuted.
    PassLimit,
    /// A node, table or depth limit stopped the search.
    Unknown,
}

impl PassVerdict {
    /// The name in output: `proved`, `pass-limit`, `unknown`.
    pub const fn name(self) -> &'static str {
        match self {
            PassVerdict::Proved => "proved",
            PassVerdict::PassLimit => "pass-limit",
            PassVerdict::Unknown => "unknown",
        }
    }
}

/// The result of [`crate::PassSolver::solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct PassResult {
    /// The verdict.
    pub verdict: PassVerdict,
    /// The possible pass count, when proved.
    pub passes: Option<u32>,
    /// The attacker's first move of the proof, when proved: a quiet move (the threat)
    /// whenever one proves the count.
    pub first_move: Option<Move>,
    /// Nodes searched, all bounds together.
    pub nodes: u64,
    /// Table counters.
    pub table: TableStats,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_every_refinement_on() {
        let o = MateOptions::default();
        assert!(o.superiority && o.tca && o.delay && o.dn_lookahead);
        assert!(!o.shortest && !o.futile_interpositions);
        assert_eq!(
            (o.max_depth, o.defender_hand),
            (DEFAULT_MAX_DEPTH, DefenderHand::Rest)
        );
        assert_eq!(o.table_entries, 1 << 20);
    }

    #[test]
    fn a_result_has_plies_only_for_a_mate() {
        let mv = Move::from_usi::<shogi_core::Shogi>("G*5b").unwrap();
        let mut r = MateResult {
            verdict: Verdict::Mate,
            moves: vec![mv],
            line_minimax: true,
            shortest: None,
            cut: false,
            pieces: None,
            stats: SearchStats::default(),
        };
        assert_eq!(r.plies(), Some(1));
        r.verdict = Verdict::Unknown;
        assert_eq!(r.plies(), None);
        let names = [Verdict::Mate, Verdict::NoMate, Verdict::Unknown].map(Verdict::name);
        assert_eq!(names, ["mate", "no-mate", "unknown"]);
    }

    #[test]
    fn the_pass_count_searches_with_the_mate_searchs_refinements() {
        let p = PassOptions {
            max_nodes: 77,
            table_entries: 1 << 12,
            max_depth: 9,
            defender_hand: DefenderHand::Sfen,
            ..PassOptions::default()
        };
        let m = p.mate_options();
        assert_eq!(
            (m.max_nodes, m.table_entries, m.max_depth),
            (77, 1 << 12, 9)
        );
        assert_eq!(m.defender_hand, DefenderHand::Sfen);
        assert!(m.superiority && m.tca && m.delay && m.dn_lookahead);
        assert!(!m.shortest && !m.futile_interpositions);
        assert_eq!(PassVerdict::PassLimit.name(), "pass-limit");
    }
}
