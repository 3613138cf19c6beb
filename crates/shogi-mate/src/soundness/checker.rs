//! One check's state, and the questions it puts to the mate search (docs/METHOD.md §11.4):
//! each a search with a depth limit on the one table, asked on its own so that the node
//! limit of the options bounds one question, not the whole check, and the check's control
//! stops them all.

use super::report::{Flaw, Problem};
use crate::node::Node;
use crate::search::Search;
use crate::shortest::{mates_within, walk_shortest};
use crate::solver::Solver;
use shogi_core::{Game, Move, Position};
use std::collections::HashSet;

/// The most positions one search for a line that leaves no pieces ([`Checker::empty_line`])
/// expands before it gives up, leaving its question undecided: each position asks the
/// mate search about every one of its moves, and in the classical problems a line that
/// exists is found within a few hundred.
const EMPTY_LINE_POSITIONS: u32 = 20_000;

/// What one search for a line that leaves no pieces may still spend.
struct Budget {
    positions: u32,
    /// The check's node count at which it stops.
    nodes_until: u64,
}

/// The state of one check.
pub(super) struct Checker<'a, G: Game> {
    pub(super) solver: &'a mut Solver<G>,
    /// The problem's position, with the defender's hand of the options.
    pub(super) root: &'a Position<G>,
    pub(super) problem: &'a Problem<G>,
    /// The findings so far, sorted by ply when the check ends.
    pub(super) flaws: Vec<Flaw>,
    pub(super) undecided: u32,
    pub(super) nodes: u64,
    /// Positions (full key, plies left) from which no line of the proved length leaves
    /// the attacker's hand empty: kept for the whole check, since the main line asks
    /// again from deeper nodes of the same lines.
    no_empty_line: HashSet<(u64, u32)>,
}

impl<'a, G: Game> Checker<'a, G> {
    /// A check of `problem` from `root` on `solver`, nothing found yet.
    pub(super) fn new(
        solver: &'a mut Solver<G>,
        root: &'a Position<G>,
        problem: &'a Problem<G>,
    ) -> Self {
        Checker {
            solver,
            root,
            problem,
            flaws: Vec::new(),
            undecided: 0,
            nodes: 0,
            no_empty_line: HashSet::new(),
        }
    }

    fn search(&mut self) -> &mut Search<G> {
        self.solver.search_mut()
    }

    /// Whether `pos` is mated within `m` plies, as a question of its own: its own node
    /// limit, the check's control; `None` when undecided.
    pub(super) fn within(&mut self, pos: &Position<G>, m: u32) -> Option<bool> {
        let s = self.search();
        let full = s.opts.max_depth;
        s.nodes = 0;
        s.aborted = s.control.as_ref().is_some_and(|c| c.is_stopped());
        let answer = mates_within(s, pos, m);
        s.opts.max_depth = full;
        self.nodes += s.nodes;
        answer
    }

    /// Whether the attacker's hand is empty after `line` from `pos`.
    pub(super) fn ends_empty(&self, pos: &Position<G>, line: &[Move]) -> bool {
        let attacker = self.root.side_to_move();
        let mut end = pos.clone();
        for &mv in line {
            end.play_unchecked(mv);
        }
        end.hand(attacker).is_empty()
    }

    /// A line of exactly `len` plies from `pos`, whose shortest mate is `len`, every move
    /// proved (§11.4's walk); `None` when a limit stops it.
    pub(super) fn walk(&mut self, pos: &Position<G>, len: u32) -> Option<Vec<Move>> {
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

    /// A line of exactly `len` plies from `pos`, whose shortest mate is `len` (either side
    /// to move), that ends with the attacker's hand empty: every attacker move a check
    /// after which the mate is still `len` less the plies played, every defender move a
    /// longest defence (docs/METHOD.md §11.7, rules 3, 5 and 7). The answer is exact,
    /// unlike one walk's: `Some(None)` when no such line exists, `None` when a limit left
    /// it open. The lines are searched depth first, a position's failure remembered, and
    /// cut where the attacker holds more pieces than it has moves left to drop them.
    pub(super) fn empty_line(&mut self, pos: &Position<G>, len: u32) -> Option<Option<Vec<Move>>> {
        // One question, as `within`'s are: the node limit bounds the whole search.
        let mut budget = Budget {
            positions: EMPTY_LINE_POSITIONS,
            nodes_until: self.nodes.saturating_add(self.solver.options().max_nodes),
        };
        let mut line = Vec::with_capacity(len as usize);
        match self.empty_from(pos, len, &mut budget, &mut line)? {
            true => Some(Some(line)),
            false => Some(None),
        }
    }

    /// [`Checker::empty_line`] below `pos`, `left` plies from the end, its moves pushed on
    /// `line` when one is found; `None` when the budget or a question's limit stops it.
    fn empty_from(
        &mut self,
        pos: &Position<G>,
        left: u32,
        budget: &mut Budget,
        line: &mut Vec<Move>,
    ) -> Option<bool> {
        if self.without_empty_line(pos, left) {
            return Some(false);
        }
        if left == 0 {
            return Some(true);
        }
        budget.positions = budget.positions.checked_sub(1)?;
        let or_node = pos.side_to_move() == self.root.side_to_move();
        let futile = self.solver.options().futile_interpositions;
        let mut moves = self.moves(pos, or_node);
        // The attacker's drops first: they are what empties the hand.
        moves.sort_by_key(|mv| !matches!(mv, Move::Drop { .. }));
        for mv in moves {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            // Ruled out before the mate search is asked about the move.
            if self.without_empty_line(&next, left - 1) {
                continue;
            }
            if self.nodes >= budget.nodes_until {
                return None;
            }
            let keeps = match (or_node, left) {
                (true, 1) => crate::verify::mated(&next, futile),
                (true, _) => self.within(&next, left - 1)?,
                // Every reply is longest when the mate is at most three plies away.
                (false, _) if left < 4 => true,
                (false, _) => !self.within(&next, left - 3)?,
            };
            if keeps {
                line.push(mv);
                if self.empty_from(&next, left - 1, budget, line)? {
                    return Some(true);
                }
                line.pop();
            }
        }
        self.no_empty_line.insert((pos.key(), left));
        Some(false)
    }

    /// Whether `pos`, `left` plies from the end, is known to have no line that leaves the
    /// attacker's hand empty: it holds more pieces than the attacker has moves left to drop
    /// them (a capture only adds to the hand), or an earlier search found none.
    fn without_empty_line(&self, pos: &Position<G>, left: u32) -> bool {
        let attacker = self.root.side_to_move();
        let drops_left = if pos.side_to_move() == attacker {
            left.div_ceil(2)
        } else {
            left / 2
        };
        pos.hand(attacker).total() > drops_left || self.no_empty_line.contains(&(pos.key(), left))
    }

    /// The legal moves of the node `pos`: the checks at an attacker node, every reply at a
    /// defender node (under the futile convention, none where the defender is mated by it).
    pub(super) fn moves(&mut self, pos: &Position<G>, or_node: bool) -> Vec<Move> {
        let s = self.search();
        let start = s.children.len();
        s.expand(pos, Node::mate(or_node));
        let moves = s.children[start..].iter().map(|c| c.mv).collect();
        s.children.truncate(start);
        moves
    }

    /// The recorded solution from index `from` on, when it is a mating line of exactly
    /// `len` plies from `pos` (every move legal, every attacker move a check, the end mated
    /// under the conventions).
    pub(super) fn recorded_rest(
        &self,
        from: usize,
        pos: &Position<G>,
        len: u32,
    ) -> Option<Vec<Move>> {
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
}

#[cfg(test)]
mod tests;
