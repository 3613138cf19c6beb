//! The possible pass count (docs/METHOD.md §13): how many free moves the defender can be
//! given before the attacker forces mate, for a set of defence moves.
//!
//! It is the mate search with passes allowed: "pc ≤ 0" is the mate search itself, line and
//! all, and "pc ≤ n" for n = 1, 2, … searches nodes that carry their bound ([`Node`]) with
//! the same df-pn loop, on the same table, so that every refinement of the mate search
//! (look-ahead, delayed moves, threshold control, superiority) serves the pass count too.

use crate::children::Child;
use crate::control::SearchControl;
use crate::defender::with_defender_hand;
use crate::node::{Kind, Node};
use crate::numbers::INF;
use crate::options::{PassOptions, PassResult, PassVerdict, Verdict};
use crate::outcome::ANY_DEPTH;
use crate::solver::Solver;
use crate::table::{Table, TableStats};
use shogi_core::{Game, Move, Position};
use std::collections::TryReserveError;

/// A pass-count solver for game `G`: a mate [`Solver`] whose search may pass.
pub struct PassSolver<G: Game> {
    opts: PassOptions,
    solver: Solver<G>,
}

impl<G: Game> PassSolver<G> {
    /// A solver with the given options.
    pub fn new(opts: PassOptions) -> PassSolver<G> {
        PassSolver {
            opts,
            solver: Solver::new(opts.mate_options()),
        }
    }

    /// [`PassSolver::new`], but a table the process cannot allocate is an error, not an
    /// abort.
    pub fn try_new(opts: PassOptions) -> Result<PassSolver<G>, TryReserveError> {
        Ok(PassSolver {
            opts,
            solver: Solver::try_new(opts.mate_options())?,
        })
    }

    /// A solver on `table`, as [`Solver::with_table`]: for a table made by a
    /// [`crate::TableBuilder`], a step at a time.
    pub fn with_table(opts: PassOptions, table: Table) -> PassSolver<G> {
        PassSolver {
            opts,
            solver: Solver::with_table(opts.mate_options(), table),
        }
    }

    /// Lets `control` stop the searches of this solver from another thread (a Python
    /// caller's Ctrl-C) and read their node count, as [`crate::Solver::set_control`]: a
    /// stopped search answers [`PassVerdict::Unknown`] within [`crate::CHECK_INTERVAL`]
    /// nodes.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.solver.set_control(control);
    }

    /// The possible pass count of `pos` for its side to move: "pc ≤ 0" by the mate search,
    /// then "pc ≤ n" for n = 1, 2, … on the table the searches before left, until one is
    /// proved, one is undecided, or the limit is passed. The node limit holds for all the
    /// searches together.
    pub fn solve(&mut self, pos: &Position<G>) -> PassResult {
        let mut result = PassResult {
            verdict: PassVerdict::PassLimit,
            passes: None,
            first_move: None,
            nodes: 0,
            table: TableStats::default(),
        };
        let (mate, _, _) = self.solver.solve_root(pos);
        result.nodes = mate.stats.nodes;
        match mate.verdict {
            Verdict::Mate => {
                result.verdict = PassVerdict::Proved;
                result.passes = Some(0);
                result.first_move = mate.moves.first().copied();
            }
            Verdict::Unknown => result.verdict = PassVerdict::Unknown,
            Verdict::NoMate => {
                let root = with_defender_hand(pos, self.opts.defender_hand);
                for bound in 1..=self.opts.max_passes {
                    let (verdict, first_move, nodes) =
                        self.search_bound(&root, bound, result.nodes);
                    result.nodes += nodes;
                    if verdict != PassVerdict::PassLimit {
                        result.verdict = verdict;
                        result.passes = (verdict == PassVerdict::Proved).then_some(bound);
                        result.first_move = first_move;
                        break;
                    }
                }
            }
        }
        let s = self.solver.search_mut();
        s.opts.max_nodes = self.opts.max_nodes;
        result.table = s.table.stats();
        if let Some(c) = &s.control {
            c.publish(result.nodes, s.table.fill());
        }
        result
    }

    /// Searches "pc ≤ bound" at `root` with the nodes left after `used`: proved (with the
    /// attacker's first move), refuted (`PassLimit`: the next bound is tried) or
    /// undecided, and the nodes it took.
    fn search_bound(
        &mut self,
        root: &Position<G>,
        bound: u32,
        used: u64,
    ) -> (PassVerdict, Option<Move>, u64) {
        let s = self.solver.search_mut();
        s.opts.max_nodes = self.opts.max_nodes.saturating_sub(used);
        s.defense = self.opts.defense;
        s.start(root);
        let attack = Node {
            kind: Kind::Attack,
            bound,
        };
        let out = s.mid(root, attack, INF, INF, 1);
        let verdict = if out.pn == 0 {
            PassVerdict::Proved
        } else if out.is_unconditional_disproof() && !s.aborted {
            PassVerdict::PassLimit
        } else {
            PassVerdict::Unknown
        };
        let first_move = (verdict == PassVerdict::Proved)
            .then(|| self.proving_move(root, attack))
            .flatten();
        (verdict, first_move, self.solver.search_mut().nodes)
    }

    /// The attacker's move at the root whose child the table proves: a quiet move (a
    /// threat) when one proves the count, searched for within the node limit if the proof
    /// found went through a check; else that check.
    fn proving_move(&mut self, root: &Position<G>, attack: Node) -> Option<Move> {
        let s = self.solver.search_mut();
        let start = s.children.len();
        s.expand(root, attack);
        let kids: Vec<Child> = s.children[start..].to_vec();
        s.children.truncate(start);
        let quiet = |c: &&Child| matches!(c.node.kind, Kind::Quiet { .. });
        let mut check = None;
        for c in &kids {
            if s.table.probe(c.key, c.hand, ANY_DEPTH).pn == 0 {
                if quiet(&c) {
                    return Some(c.mv);
                }
                check = check.or(Some(c.mv));
            }
        }
        let root_key = attack.key(root.key(), s.defense);
        for c in kids.iter().filter(quiet) {
            if s.aborted {
                break;
            }
            let next = c.play(root);
            s.history.clear();
            s.history.enter(root_key, 1);
            if s.mid(&next, c.node, INF, INF, 2).pn == 0 {
                return Some(c.mv);
            }
        }
        check
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Defense;
    use crate::options::MateOptions;
    use shogi_core::{Relax, Shogi};

    fn pos(sfen: &str) -> Position<Shogi> {
        Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap()
    }

    fn opts(defense: Defense, max_passes: u32) -> PassOptions {
        PassOptions {
            defense,
            max_passes,
            max_nodes: 200_000,
            table_entries: 1 << 14,
            ..PassOptions::default()
        }
    }

    /// "pc ≤ 0" is the mate search: the same verdict, the same nodes, its first move.
    #[test]
    fn a_count_of_zero_is_the_mate_search_node_for_node() {
        let sfen = "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36";
        let p = pos(sfen);
        let o = opts(Defense::None, 0);
        let mate = Solver::<Shogi>::new(o.mate_options()).solve(&p);
        let pc = PassSolver::<Shogi>::new(o).solve(&p);
        assert_eq!((pc.verdict, pc.passes), (PassVerdict::Proved, Some(0)));
        assert_eq!(pc.nodes, mate.stats.nodes);
        assert_eq!(pc.first_move, mate.moves.first().copied());
        assert_eq!(
            MateOptions {
                max_nodes: 200_000,
                table_entries: 1 << 14,
                ..MateOptions::default()
            },
            o.mate_options()
        );
    }

    /// A threat: no mate now, but a quiet move after which a pass loses to mate.
    #[test]
    fn a_threat_has_a_count_of_one_and_a_quiet_first_move() {
        // Black's gold in hand mates on 5b once the pawn stands on 5c: 5d5c is the threat.
        let p = pos("4k4/9/9/4P4/9/9/9/9/K8 b G 1");
        let r = PassSolver::<Shogi>::new(opts(Defense::None, 2)).solve(&p);
        assert_eq!((r.verdict, r.passes), (PassVerdict::Proved, Some(1)));
        let mv = r.first_move.expect("a first move");
        let mut next = p.clone();
        next.play_unchecked(mv);
        assert!(
            !next.in_check(shogi_core::Color::White),
            "the threat is quiet"
        );
        // No count up to 0: the limit.
        let r = PassSolver::<Shogi>::new(opts(Defense::None, 0)).solve(&p);
        assert_eq!((r.verdict, r.passes), (PassVerdict::PassLimit, None));
    }

    /// The node limit holds for all the bounds together.
    #[test]
    fn the_node_limit_holds_over_all_bounds() {
        let p = Position::<Shogi>::startpos();
        let mut o = opts(Defense::All, 3);
        o.max_nodes = 500;
        let r = PassSolver::<Shogi>::new(o).solve(&p);
        assert_eq!(r.verdict, PassVerdict::Unknown);
        assert!(r.nodes <= 500, "{}", r.nodes);
    }
}
