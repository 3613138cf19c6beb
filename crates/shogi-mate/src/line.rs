//! The line of a proof (docs/METHOD.md §11.3): planned by minimax over the proved
//! positions in the table, at attacker nodes the proved check with the shortest line, at
//! defender nodes the reply with the longest, searching again what a full table lost; or,
//! when that fails, walked by the stored lengths.

use crate::keys::KeyHasher;
use crate::keys::KeyMap;
use crate::node::Node;
use crate::numbers::INF;
use crate::outcome::{Outcome, ANY_DEPTH};
use crate::search::Search;
use crate::table::Hit;
use shogi_core::{Game, Move, Position};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// What the line planned through a proof knows of a position: the length of its line and
/// the move (none at the checkmate), or that it has no line within so many plies.
#[derive(Clone, Copy)]
enum Planned {
    Line(u32, Option<Move>),
    Longer(u32),
}

/// The most positions the planning of a line searches again for lost proofs (each search
/// also counts towards the node limit).
const MAX_PLAN_SEARCHES: u32 = 4096;

/// A move with whether the table proves the position it leads to, and the shortest mate
/// stored for that position (`u16::MAX`: none).
type Proved = (bool, u16, Move);

/// The planning of a line on a search: what it knows of each position, by full key; the
/// positions on the current path of the planning (by full key); and the searches made for
/// proofs the table had lost.
struct Planner<'a, G: Game> {
    s: &'a mut Search<G>,
    plan: HashMap<u64, Planned, BuildHasherDefault<KeyHasher>>,
    path: KeyMap,
    /// The positions of `path` in order from the root.
    keys: Vec<u64>,
    searches: u32,
}

/// A line of the proof found, by minimax over the proved positions in the table: at
/// attacker nodes the proved check with the shortest line, at defender nodes the reply with
/// the longest, so that the line is never shorter than the shortest forced mate nor longer
/// than the depth limit. (The lengths stored in the table are those of the proofs as they
/// were found, and a shorter mate proved later undercuts them: a defender choosing by them
/// could walk into a line shorter than the shortest forced mate.) When the planning runs
/// out (a proof the line needs was removed and searching it again failed), the stored
/// lengths are walked and such nodes searched again: a legal mating line whose length then
/// bounds nothing. The flag says which.
pub(crate) fn extract_line<G: Game>(
    s: &mut Search<G>,
    root: &Position<G>,
) -> Option<(Vec<Move>, bool)> {
    let mut planner = Planner {
        s,
        plan: HashMap::default(),
        path: KeyMap::default(),
        keys: Vec::new(),
        searches: 0,
    };
    let depth = planner.s.opts.max_depth;
    if planner.plan_line(root, depth).is_none() {
        return walk_stored(planner.s, root).map(|line| (line, false));
    }
    let mut pos = root.clone();
    let mut line = Vec::new();
    // Each planned move leads to a position planned one ply shorter: the walk ends.
    while let Some(&Planned::Line(_, Some(mv))) = planner.plan.get(&pos.key()) {
        line.push(mv);
        pos.play_unchecked(mv);
    }
    Some((line, true))
}

impl<G: Game> Planner<'_, G> {
    /// The length of the line [`extract_line`] plays from `pos`, at most `remaining` plies,
    /// by minimax over the proved positions in the table, with the move chosen at each
    /// position recorded in the plan: at attacker nodes the proved check whose line is the
    /// shortest, at defender nodes the reply (every one planned) whose line is the longest.
    /// Taking the defender's longest everywhere makes the line at least as long as the
    /// shortest forced mate, and the proof found is among the lines compared, so the line
    /// is no longer than it. An attacker node none of whose checks the table still proves
    /// (entries replaced) is searched again, with the plies left there. `None` when there
    /// is no such line within `remaining` plies: a proof is missing (and the node limit or
    /// the number of searches ran out), the lines are longer, or they cycle.
    fn plan_line(&mut self, pos: &Position<G>, remaining: u32) -> Option<u32> {
        let full = pos.key();
        match self.plan.get(&full) {
            Some(&Planned::Line(n, _)) => return (n <= remaining).then_some(n),
            Some(&Planned::Longer(r)) if remaining <= r => return None,
            _ => {}
        }
        if self.path.contains_key(&full) {
            return None;
        }
        let or_node = pos.side_to_move() == self.s.attacker;
        let mut moves = proved_children(self.s, pos, or_node);
        if moves.is_empty() {
            if or_node || !self.s.mated(pos) {
                self.plan.insert(full, Planned::Longer(u32::MAX));
                return None;
            }
            self.plan.insert(full, Planned::Line(0, None));
            return Some(0);
        }
        let mut best = None;
        if or_node {
            // Searched again when no check begins a line within the plies left and either
            // the table proves no check (entries replaced), or proves this position within
            // them (entries replaced below, or proofs that lead back onto the path), or
            // they are all the plies the depth limit leaves here: a node the line must
            // pass through. Not when a shorter line found through a sibling above limits
            // the plies and the table knows only longer mates: that line is shorter.
            let lost = !moves.iter().any(|m| m.0)
                || remaining + self.keys.len() as u32 >= self.s.opts.max_depth;
            self.keep_planned_checks(pos, &mut moves, remaining);
            let within = |s: &Search<G>| {
                s.table
                    .shortest_proof(s.node_key(pos), s.attacker_hand(pos))
                    .is_some_and(|len| u32::from(len) <= remaining)
            };
            if moves.is_empty() && (lost || within(self.s)) {
                moves = self.plan_search(pos, remaining);
            }
            best = self.plan_moves(pos, &moves, remaining, or_node);
        } else if remaining > 0 {
            // At a defender node every reply is planned, whether or not the table still
            // holds its proof: the attacker node it leads to searches it again if need be.
            best = self.plan_moves(pos, &moves, remaining, or_node);
        }
        match best {
            Some((n, mv)) => {
                self.plan.insert(full, Planned::Line(n + 1, Some(mv)));
                Some(n + 1)
            }
            None => {
                // No line within `remaining` plies (or, on a cycle, none found from here).
                self.plan.insert(full, Planned::Longer(remaining));
                None
            }
        }
    }

    /// Keeps the checks of `moves` that can begin a line within `remaining` plies: those
    /// whose position the table proves mated within `remaining - 1` plies, and that do not
    /// lead back onto the path of the plan (the table proves the position, but by a proof
    /// that, followed from here, comes back). The shortest stored mates first: the
    /// shortest line is usually among them, and each line found bounds the search for the
    /// next.
    fn keep_planned_checks(&self, pos: &Position<G>, moves: &mut Vec<Proved>, remaining: u32) {
        let board_key = pos.board_key();
        let keys = self.s.keys();
        moves.retain(|m| {
            m.0 && u32::from(m.1) < remaining
                && !self.path.contains_key(&keys.child(pos, m.2, board_key).0)
        });
        moves.sort_by_key(|m| m.1);
    }

    /// Searches the attacker node `pos` of the plan again, `remaining` plies from the end
    /// of the line: as deep in the depth limit as it stands there, with the path of the
    /// plan above it as the search's path (so that the proof found does not pass through
    /// it; a proof rests on no repetition, so it holds off this path too). Returns its
    /// proved checks (with the one that proved it, even if its entry is lost again), or
    /// none when it does not prove within the limits.
    fn plan_search(&mut self, pos: &Position<G>, remaining: u32) -> Vec<Proved> {
        if remaining == 0 || self.s.aborted || self.searches >= MAX_PLAN_SEARCHES {
            return Vec::new();
        }
        self.searches += 1;
        let depth = self.s.opts.max_depth + 1 - remaining;
        let on_path = self.keys.len() as u32;
        if depth > on_path {
            self.s.history.pad_to(depth - on_path);
            for (i, &k) in self.keys.iter().enumerate() {
                self.s.history.enter(k, depth - on_path + i as u32);
            }
        } else {
            self.s.history.pad_to(depth);
        }
        self.s.proved_by = None;
        let proved = self.s.mid(pos, Node::mate(true), INF, INF, depth).pn == 0;
        for &k in &self.keys {
            self.s.history.leave(k);
        }
        if !proved {
            return Vec::new();
        }
        let mut moves = proved_children(self.s, pos, true);
        self.keep_planned_checks(pos, &mut moves, remaining);
        if let Some(mv) = self.s.proved_by {
            if !moves.iter().any(|m| m.2 == mv) {
                moves.insert(0, (true, u16::MAX, mv));
            }
        }
        moves
    }

    /// The best of `moves` at `pos` for the plan (the shortest line at an attacker node,
    /// the longest at a defender node, where every reply must have one), with its length.
    fn plan_moves(
        &mut self,
        pos: &Position<G>,
        moves: &[Proved],
        remaining: u32,
        or_node: bool,
    ) -> Option<(u32, Move)> {
        if remaining == 0 || moves.is_empty() {
            return None;
        }
        let full = pos.key();
        let mut best: Option<(u32, Move)> = None;
        self.path.insert(full, self.path.len() as u32);
        self.keys.push(full);
        for &(_, _, mv) in moves {
            // At an attacker node only a shorter line than the best so far matters.
            let limit = match best {
                Some((0, _)) if or_node => break,
                Some((b, _)) if or_node => b - 1,
                _ => remaining - 1,
            };
            let mut next = pos.clone();
            next.play_unchecked(mv);
            match self.plan_line(&next, limit) {
                Some(n) if or_node => {
                    if best.is_none_or(|(b, _)| n < b) {
                        best = Some((n, mv));
                    }
                }
                Some(n) => {
                    if best.is_none_or(|(b, _)| n > b) {
                        best = Some((n, mv));
                    }
                }
                None if or_node => {}
                None => {
                    best = None;
                    break;
                }
            }
        }
        self.path.remove(&full);
        self.keys.pop();
        best
    }
}

/// The moves of `pos` the search would try (checks at attacker nodes, every legal move at
/// defender nodes), each with whether the table proves the position it leads to and the
/// stored mate length.
fn proved_children<G: Game>(s: &mut Search<G>, pos: &Position<G>, or_node: bool) -> Vec<Proved> {
    let start = s.children.len();
    s.expand(pos, Node::mate(or_node));
    let end = s.children.len();
    let mut moves = Vec::with_capacity(end - start);
    for i in start..end {
        let c = s.children[i];
        let len = s.table.shortest_proof(c.key, c.hand);
        moves.push((len.is_some(), len.unwrap_or(u16::MAX), c.mv));
    }
    s.children.truncate(start);
    moves
}

/// The walk of the stored lengths: at attacker nodes the proved check with the shortest
/// stored mate, at defender nodes the reply with the longest, each strictly shorter than
/// the last so the walk ends. A node the table no longer proves (its entry was replaced)
/// is searched again.
fn walk_stored<G: Game>(s: &mut Search<G>, root: &Position<G>) -> Option<Vec<Move>> {
    let mut pos = root.clone();
    let mut line = Vec::new();
    let mut bound = u16::MAX;
    let mut retries = 0;
    while line.len() <= s.opts.max_depth as usize {
        let or_node = pos.side_to_move() == s.attacker;
        let start = s.children.len();
        s.expand(&pos, Node::mate(or_node));
        let end = s.children.len();
        if start == end {
            s.children.truncate(start);
            return (!or_node && s.mated(&pos)).then_some(line);
        }
        for i in start..end {
            // Repetition marks belong to the search's paths, not to this walk.
            s.children[i].repeats = None;
            let c = s.children[i];
            let mut p = s.table.probe(c.key, c.hand, ANY_DEPTH);
            if p.pn == 0 {
                p.len = s.table.shortest_proof(c.key, c.hand).unwrap_or(p.len);
            }
            s.children[i].out = if p.hit == Hit::Miss {
                let pn = if or_node {
                    s.look_ahead(&pos, &c, or_node).unwrap_or(1)
                } else {
                    1
                };
                Outcome::open(pn, c.hand)
            } else {
                Outcome::from_probe(p)
            };
        }
        let kids = &s.children[start..end];
        let pick = if or_node {
            kids.iter()
                .filter(|c| c.out.pn == 0 && c.out.len < bound)
                .min_by_key(|c| c.out.len)
        } else if kids.iter().all(|c| c.out.pn == 0) {
            kids.iter()
                .filter(|c| c.out.len < bound)
                .max_by_key(|c| c.out.len)
        } else {
            None
        }
        .copied();
        s.children.truncate(start);
        match pick {
            Some(c) => {
                bound = c.out.len;
                line.push(c.mv);
                pos.play_unchecked(c.mv);
            }
            None => {
                // Search this node again (its proof was overwritten), then retry.
                retries += 1;
                if retries > 64 || s.aborted {
                    return None;
                }
                s.history.clear();
                let out = s.mid(&pos, Node::mate(or_node), INF, INF, 1);
                if out.pn != 0 {
                    return None;
                }
                bound = bound.max(out.len.saturating_add(1));
                if !line.is_empty() || retries > 1 {
                    bound = u16::MAX;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defender::with_defender_hand;
    use crate::options::MateOptions;
    use crate::table::Table;
    use crate::verify::verify_line;
    use shogi_core::{Relax, Shogi};

    /// A search of the mate in 7 of YaneuraOu's set, on a small table.
    fn searched() -> (Search<Shogi>, Position<Shogi>) {
        let sfen = "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36";
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let opts = MateOptions::default();
        let root = with_defender_hand(&pos, opts.defender_hand);
        let mut s = Search::with_table(opts, Table::new(1 << 14, true));
        s.start(&root);
        assert_eq!(s.mid(&root, Node::mate(true), INF, INF, 1).pn, 0);
        (s, root)
    }

    #[test]
    fn the_planned_line_mates_and_is_at_least_the_shortest() {
        let (mut s, root) = searched();
        let (line, minimax) = extract_line(&mut s, &root).expect("a line");
        assert!(minimax);
        verify_line(&root, &line).expect("it mates");
        assert!(line.len() >= 7);
        assert!(s.children.is_empty());
    }

    /// With the table emptied after the proof, the plan searches the lost proofs again
    /// (from the root down) and still finds a line.
    #[test]
    fn a_plan_searches_again_what_the_table_lost() {
        let (mut s, root) = searched();
        s.table.clear();
        let before = s.nodes;
        let (line, minimax) = extract_line(&mut s, &root).expect("a line");
        assert!(minimax);
        verify_line(&root, &line).expect("it mates");
        assert!(s.nodes > before, "the searches count as nodes");
    }

    #[test]
    fn the_walk_of_stored_lengths_mates_too() {
        let (mut s, root) = searched();
        let line = walk_stored(&mut s, &root).expect("a line");
        verify_line(&root, &line).expect("it mates");
        assert_eq!(line.len() % 2, 1);
    }
}
