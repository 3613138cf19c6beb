//! The df-pn search loop (docs/METHOD.md §11.2): the state of one search and its
//! multiple-iterative-deepening step, which expands a node, looks its children up, and
//! searches the most proving one until the node's numbers reach their thresholds.
//!
//! What the loop uses lives beside it: the numbers in `numbers`, a node's children and
//! delayed moves in `children`, the look-ahead in `estimate`, the outcome of a decided
//! node in `proof`, the path and its repetitions in `history`, the table in `table`.

use crate::children::{self, Child, Expansion};
use crate::control::{SearchControl, CHECK_INTERVAL};
use crate::estimate::{Estimates, LookAhead};
use crate::hand::PackedHand;
use crate::history::{History, RepTable};
use crate::keys::Keys;
use crate::node::{Defense, Node};
use crate::numbers::{aggregate_numbers, child_thresholds, spread, INF};
use crate::options::MateOptions;
use crate::outcome::{Outcome, ANY_DEPTH, NO_REP};
use crate::proof::Rules;
use crate::table::{Hit, Table};
use crate::verify;
use shogi_core::{Color, Game, Move, Position};

/// The state of a mate search for game `G`: its table, the path, the children of the
/// nodes on it, and its counters.
pub(crate) struct Search<G: Game> {
    pub opts: MateOptions,
    pub table: Table,
    /// Path-dependent disproofs (they rest on a repetition above them), by full key, with
    /// the part of the path they need.
    pub rep_table: RepTable,
    /// Full keys of the positions on the current path.
    pub history: History,
    /// The children of the nodes on the path, each node's in a range.
    pub children: Vec<Child>,
    pub attacker: Color,
    /// What the pieces out of play add to the table key ([`Keys::out_of_play`]).
    out_of_play: u64,
    pub nodes: u64,
    /// Whether the node limit or a stop ended the search.
    pub aborted: bool,
    /// Who may stop this search, and sees its progress.
    pub control: Option<SearchControl>,
    /// The threshold controlling algorithm's count of cycles met on the current path whose
    /// extension has not yet expanded a new position (Kishimoto 2010 has a flag; a count
    /// lets nested cycles each get their extension).
    tca: u32,
    /// The defender's moves besides the pass after a quiet move (the pass count; a mate
    /// search meets no such node).
    pub defense: Defense,
    /// The proved check of the attacker node `mid` proved last (so, after a call at an
    /// attacker node that proves it, that node's).
    pub proved_by: Option<Move>,
    /// The look-ahead numbers of the positions met.
    ahead: LookAhead,
    /// Whether other threads search this problem on the same table (docs/METHOD.md
    /// §11.8): a node then looks all its children up again before each choice, since the
    /// others may have decided them.
    pub shared: bool,
    /// A helper thread's spread `k` (0 for the first thread): it takes the second-best
    /// child's number as `1 + 2^-k` times larger, so that it stays longer in a child than
    /// the first thread would and the two part ways.
    pub spread: u32,
    _game: core::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Search<G> {
    /// A search on `table` with options `opts`.
    pub fn with_table(opts: MateOptions, table: Table) -> Search<G> {
        let ahead = LookAhead::for_table(table.capacity());
        Search {
            opts,
            table,
            rep_table: RepTable::default(),
            history: History::new(),
            children: Vec::with_capacity(4096),
            attacker: Color::Black,
            out_of_play: 0,
            nodes: 0,
            aborted: false,
            control: None,
            tca: 0,
            defense: Defense::None,
            proved_by: None,
            ahead,
            shared: false,
            spread: 0,
            _game: core::marker::PhantomData,
        }
    }

    /// Forgets everything searched before: the table and the look-aheads.
    pub fn clear(&mut self) {
        self.table.clear();
        self.ahead.clear();
    }

    /// Makes ready a search from `root` on the table as it is: a fresh path, no nodes yet.
    pub fn start(&mut self, root: &Position<G>) {
        let keys = Keys::of_root(root);
        self.attacker = keys.attacker;
        self.out_of_play = keys.out_of_play;
        self.nodes = 0;
        self.restart();
    }

    /// A fresh path, the problem's keys and the node count kept: for a search from a
    /// position inside the problem (a helper deciding the positions of a line, §11.8),
    /// whose path starts there.
    pub fn restart(&mut self) {
        self.rep_table.clear();
        self.history.clear();
        self.children.clear();
        self.tca = 0;
        self.aborted = self.control.as_ref().is_some_and(|c| c.is_stopped());
    }

    /// How positions are keyed.
    #[inline]
    pub fn keys(&self) -> Keys {
        Keys {
            attacker: self.attacker,
            out_of_play: self.out_of_play,
        }
    }

    fn rules(&self) -> Rules {
        Rules {
            superiority: self.opts.superiority,
        }
    }

    fn estimates(&self) -> Estimates {
        Estimates {
            dn_lookahead: self.opts.dn_lookahead,
            futile: self.opts.futile_interpositions,
            delay: self.opts.delay,
            rules: self.rules(),
            defense: self.defense,
        }
    }

    /// The table key of a position.
    #[inline]
    pub fn node_key(&self, pos: &Position<G>) -> u64 {
        self.keys().node(pos)
    }

    /// The node of the mate search at `pos`: the attacker's if it is to move, else the
    /// defender's in check.
    #[inline]
    pub fn mate_node(&self, pos: &Position<G>) -> Node {
        Node::mate(pos.side_to_move() == self.attacker)
    }

    /// The attacker's hand in `pos`.
    #[inline]
    pub fn attacker_hand(&self, pos: &Position<G>) -> PackedHand {
        self.keys().hand(pos)
    }

    /// Whether the defender to move in `pos` is mated under this search's convention on
    /// futile interpositions.
    pub fn mated(&self, pos: &Position<G>) -> bool {
        verify::mated(pos, self.opts.futile_interpositions)
    }

    /// Pushes the children of node `node` at `pos` ([`children::expand`]).
    pub fn expand(&mut self, pos: &Position<G>, node: Node) {
        let how = Expansion {
            keys: self.keys(),
            futile: self.opts.futile_interpositions,
            delay: self.opts.delay,
            defense: self.defense,
        };
        children::expand(
            &mut self.children,
            pos,
            node,
            how,
            &self.table,
            &self.history,
        );
    }

    /// The look-ahead number of child `c` of `pos`, or its outcome when it has no move
    /// ([`LookAhead::number`]).
    pub fn look_ahead(
        &mut self,
        pos: &Position<G>,
        c: &Child,
        or_node: bool,
    ) -> Result<u32, Outcome> {
        let how = self.estimates();
        self.ahead.number(pos, c, or_node, how)
    }

    /// Refreshes a child's numbers from the repetition marks and the table; `remaining`
    /// is the child's distance to the depth limit, `depth` the depth of `pos`.
    #[inline]
    fn refresh(&mut self, pos: &Position<G>, or_node: bool, i: usize, remaining: u16, depth: u32) {
        let c = self.children[i];
        self.children[i].fresh = false;
        let disproved = |rep, bound| Outcome {
            pn: INF,
            dn: 0,
            pieces: c.hand,
            len: 0,
            rep,
            bound,
        };
        let out = if let Some(depth) = c.repeats {
            // A repeated position: a cycle of checks, which never mates.
            disproved(depth, ANY_DEPTH)
        } else if let Some((anchor, bound)) =
            self.rep_table.find(c.full, &self.history, depth, remaining)
        {
            disproved(anchor, bound)
        } else {
            // A stored mate longer than the plies left (proved where more were left) does
            // not answer: the child is searched again, under this depth limit.
            let p = self.table.probe(c.key, c.hand, remaining);
            if p.hit == Hit::Miss {
                // At the depth limit, a position with a move left is not mated within it,
                // as its visit would find: after a reply every attacker position (one
                // without a check too, if with a weaker bound than its visit's), after a
                // check one where the look-ahead finds a reply. The frontier of a
                // depth-limited search is most of its nodes.
                if remaining == 0 && !or_node {
                    self.children[i].out = disproved(NO_REP, 0);
                    return;
                }
                // An interposition that waits for an earlier one (refreshed before it) is
                // left out of the numbers: its look-ahead can wait too.
                let waits = !or_node
                    && c.after.is_some_and(|j| {
                        children::still_waits(self.children[j as usize].out, c.out, or_node)
                    });
                let pn = match c.init {
                    Some(pn) => pn,
                    None if waits => 1,
                    None => match self.look_ahead(pos, &c, or_node) {
                        Ok(pn) => {
                            self.children[i].init = Some(pn);
                            pn
                        }
                        Err(out) => {
                            // Decided by the look-ahead itself: stored as its visit would.
                            self.store(c.key, c.hand, &out, 1);
                            self.children[i].out = out;
                            return;
                        }
                    },
                };
                if remaining == 0 {
                    // After a check (the case after a reply returned above): the
                    // look-ahead found a reply.
                    self.children[i].out = disproved(NO_REP, 0);
                    return;
                }
                self.children[i].fresh = true;
                if or_node {
                    Outcome::open(pn, c.hand)
                } else {
                    Outcome {
                        dn: pn,
                        ..Outcome::open(1, c.hand)
                    }
                }
            } else {
                Outcome::from_probe(p)
            }
        };
        self.children[i].out = out;
    }

    /// Looks child `i` up in the table again, if it is open, for what other threads have
    /// found since its refresh (docs/METHOD.md §11.8): only the table, since nothing else
    /// that decides a child changes while its parent is on the path.
    #[inline]
    fn reprobe(&mut self, i: usize, remaining: u16) {
        let c = self.children[i];
        if c.out.is_final() {
            return;
        }
        let p = self.table.probe(c.key, c.hand, remaining);
        if p.hit != Hit::Miss {
            self.children[i].out = Outcome::from_probe(p);
        }
    }

    /// The multiple-iterative-deepening step of df-pn at node `node` of `pos` (depth
    /// `depth` on the path, the root at 1): searches until its proof number reaches `th_pn`
    /// or its disproof number `th_dn`, stores the result and returns it.
    pub fn mid(
        &mut self,
        pos: &Position<G>,
        node: Node,
        th_pn: u32,
        th_dn: u32,
        depth: u32,
    ) -> Outcome {
        self.nodes += 1;
        if self.nodes >= self.opts.max_nodes {
            self.aborted = true;
        } else if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.aborted |= SearchControl::look(&self.control, self.nodes, self.table.fill());
        }
        let or_node = node.is_or();
        let key = node.key(self.node_key(pos), self.defense);
        // The node's key on the path: a position met again with another bound is no
        // repetition of this node.
        let path_key = node.key(pos.key(), self.defense);
        let hand = self.attacker_hand(pos);
        // Plies left to the depth limit: lines of at most `max_depth` plies are searched.
        let here = (self.opts.max_depth + 1)
            .saturating_sub(depth)
            .min(ANY_DEPTH as u32 - 1) as u16;
        let start = self.children.len();
        self.expand(pos, node);
        let end = self.children.len();
        if here == 0 && start != end {
            // At the depth limit with moves left: no mate within the limit. Stored with
            // its bound, so the parent sees it and other paths as deep reuse it.
            self.children.truncate(start);
            let out = Outcome {
                bound: 0,
                ..Outcome::disproof(hand)
            };
            self.store(key, hand, &out, 1);
            return out;
        }
        let remaining = here.saturating_sub(1);
        let nodes_before = self.nodes;
        if start == end {
            let out = self.rules().without_moves(pos, node, hand);
            self.store(key, hand, &out, 1);
            return out;
        }
        self.history.enter(path_key, depth);
        let tca_before = self.tca;
        let mut searched: Option<(usize, Outcome)> = None;
        let (mut pn, mut dn);
        loop {
            // Every child is looked up when the node is entered; after that only the one
            // searched changes, with those that wait for it (as KomoringHeights keeps a
            // node's children between searches). Others may meanwhile have been decided
            // through transpositions below: their numbers are then stale until the next
            // entry, which costs the search time, never soundness (a stale number is an
            // open one; final results do not change while the node is on the path). With
            // other threads at work, every child is looked up again.
            for i in start..end {
                match searched {
                    Some((j, out)) if j == i => self.children[i].out = out,
                    Some((j, _)) if self.children[i].after != Some(j as u32) => {
                        if self.shared {
                            self.reprobe(i, remaining);
                        }
                    }
                    _ => self.refresh(pos, or_node, i, remaining, depth),
                }
            }
            let all = &self.children;
            let numbers = all[start..end]
                .iter()
                .map(|c| (!children::waits(all, c, or_node)).then_some((c.out.pn, c.out.dn)));
            let node = aggregate_numbers(numbers, or_node);
            let best = start + node.best;
            pn = node.pn;
            dn = node.dn;
            // Threshold control: a child on the path closes a cycle, whose numbers can
            // send this node back to its parent and the parent back here without either
            // learning anything; searching on until a new position is expanded below
            // breaks that. Once the extension it began is used up, back to the parent.
            let (mut th_pn, mut th_dn) = (th_pn, th_dn);
            if searched.is_none() {
                if self.opts.tca
                    && self.children[start..end]
                        .iter()
                        .any(|c| c.repeats.is_some())
                {
                    self.tca += 1;
                }
            } else if self.tca == 0 && tca_before > 0 {
                break;
            }
            if self.tca > 0 {
                th_pn = th_pn.max(pn.saturating_add(1));
                th_dn = th_dn.max(dn.saturating_add(1));
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.aborted {
                break;
            }
            let c = self.children[best];
            let (cth_pn, cth_dn) = child_thresholds(
                or_node,
                (th_pn, th_dn),
                (pn, dn),
                (c.out.pn, c.out.dn),
                spread(node.second, self.spread),
            );
            if c.fresh {
                self.tca = self.tca.saturating_sub(1);
            }
            let next = c.play(pos);
            let out = self.mid(&next, c.node, cth_pn, cth_dn, depth + 1);
            searched = Some((best, out));
        }
        self.tca = self.tca.min(tca_before);
        self.history.leave(path_key);
        let amount = self.nodes - nodes_before + 1;
        let kids = &self.children[start..end];
        let out = if pn == 0 {
            if or_node {
                self.proved_by = kids
                    .iter()
                    .filter(|c| c.out.pn == 0)
                    .min_by_key(|c| c.out.len)
                    .map(|c| c.mv);
            }
            self.rules().proved(pos, kids, node, hand)
        } else if dn == 0 {
            self.rules().disproved(pos, kids, node, hand)
        } else {
            Outcome {
                pn,
                dn,
                ..Outcome::open(pn, hand)
            }
        };
        self.children.truncate(start);
        if out.dn == 0 && out.rep < depth {
            // Rests on a position above this one: true while that position is on the path.
            let entry = self.history.rest_on(out.rep, depth, out.bound);
            self.rep_table.insert(path_key, entry);
            return out;
        }
        let out = Outcome { rep: NO_REP, ..out };
        self.store(key, hand, &out, amount);
        out
    }

    /// Stores `out` for the position with table key `key` and attacker hand `hand`, with
    /// `amount` nodes searched below it: a proof or disproof under its pieces (with
    /// superiority), anything else under the hand.
    pub fn store(&mut self, key: u64, hand: PackedHand, out: &Outcome, amount: u64) {
        let stored = if out.is_final() && self.opts.superiority {
            out.pieces
        } else {
            hand
        };
        self.table
            .store(key, stored, out.pn, out.dn, out.stored_len(), amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defender::with_defender_hand;
    use shogi_core::{Relax, Shogi};

    fn search(sfen: &str, opts: MateOptions) -> (Search<Shogi>, Position<Shogi>, Outcome) {
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let root = with_defender_hand(&pos, opts.defender_hand);
        let mut s = Search::with_table(opts, Table::new(1 << 12, opts.superiority));
        s.start(&root);
        let out = s.mid(&root, Node::mate(true), INF, INF, 1);
        (s, root, out)
    }

    /// The defaults, with a small table and node limit.
    fn opts() -> MateOptions {
        MateOptions {
            max_nodes: 100_000,
            table_entries: 1 << 12,
            ..MateOptions::default()
        }
    }

    /// A mate in one is decided by the look-ahead of the root's children: one visit.
    #[test]
    fn a_mate_in_one_costs_the_root_alone_and_is_stored() {
        let (mut s, root, out) = search("4k4/9/4P4/9/9/9/9/9/K8 b G 1", opts());
        assert_eq!((out.pn, out.len), (0, 1));
        assert_eq!(s.nodes, 1);
        let p = s
            .table
            .probe(s.node_key(&root), s.attacker_hand(&root), ANY_DEPTH);
        assert_eq!(p.pn, 0);
        assert_eq!(s.proved_by, Move::from_usi::<Shogi>("G*5b").ok());
        assert!(s.children.is_empty(), "the stack is left as it was found");
    }

    /// Under a depth limit too short for the mate, the root is disproved with a bound:
    /// a no-mate within the limit, not a no-mate.
    #[test]
    fn a_disproof_cut_by_the_depth_limit_keeps_its_bound() {
        let sfen = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
        let (_, _, out) = search(sfen, opts());
        assert_eq!(out.pn, 0, "a mate in 3");
        let (_, _, cut) = search(
            sfen,
            MateOptions {
                max_depth: 1,
                ..opts()
            },
        );
        assert_eq!(cut.dn, 0);
        assert!(cut.bound < ANY_DEPTH && !cut.is_unconditional_disproof());
    }

    /// At the depth limit a child with a move left is decided where it is generated, as
    /// its visit would decide it: a search for a mate in one where there is none visits
    /// the root alone, and one for a mate in two visits each check at most, not the
    /// replies after it.
    #[test]
    fn children_at_the_depth_limit_cost_no_visit() {
        let sfen = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
        for max_depth in [1, 2] {
            let (s, root, out) = search(
                sfen,
                MateOptions {
                    max_depth,
                    ..opts()
                },
            );
            assert_eq!(out.dn, 0, "no mate within {max_depth}");
            let mut checks = shogi_core::MoveList::new();
            root.legal_checks(&mut checks);
            let most = if max_depth == 1 { 1 } else { 1 + checks.len() };
            assert!(s.nodes as usize <= most, "{} nodes", s.nodes);
        }
    }

    /// The node limit ends the search with open numbers, and the count stops there.
    #[test]
    fn the_node_limit_stops_the_search() {
        let sfen = "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72";
        let (s, _, out) = search(
            sfen,
            MateOptions {
                max_nodes: 5,
                ..opts()
            },
        );
        assert!(s.aborted);
        assert!(!out.is_final());
        assert_eq!(s.nodes, 5);
    }

    /// Without a check the attacker has no mate, whatever it holds.
    #[test]
    fn an_attacker_without_a_check_is_disproved() {
        let (s, _, out) = search("4k4/9/9/9/9/9/9/9/K8 b - 1", opts());
        assert!(out.is_unconditional_disproof());
        assert_eq!(s.nodes, 1);
    }
}
