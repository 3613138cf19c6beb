//! The possible pass count (docs/METHOD.md §13): how many free moves the defender can be
//! given before the attacker forces mate, for a set of defence moves.
//!
//! The search proves "pc ≤ n" for n = 0, 1, 2, … with df-pn over nodes that carry their
//! bound: an attacker node (any legal move; only checks when n = 0), a defender node in
//! check (every reply, bound kept), and a defender node after a quiet move (a pass, bound
//! n − 1, and every defence move of the chosen set, bound n).

use crate::control::{SearchControl, CHECK_INTERVAL};
use crate::defender::{with_defender_hand, DefenderHand};
use crate::hand::PackedHand;
use crate::history::{History, RepTable};
use crate::keys::extend_path;
use crate::numbers::{aggregate_numbers, child_thresholds, INF};
use crate::options::DEFAULT_MAX_DEPTH;
use crate::outcome::{deeper, ANY_DEPTH};
use crate::table::{Table, TableStats};
use shogi_core::{Game, Move, MoveList, Position, Square};
use std::collections::TryReserveError;

/// The defender moves considered besides the pass after a quiet attacker move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Defense {
    /// None: the threatmate search.
    #[default]
    None,
    /// Captures of the piece the attacker just moved.
    Takeback,
    /// Every legal move: the brinkmate search.
    All,
}

impl Defense {
    /// The three sets, smallest first.
    pub const ALL: [Defense; 3] = [Defense::None, Defense::Takeback, Defense::All];

    /// The name on the command line and in output: `none`, `takeback`, `all`.
    pub const fn name(self) -> &'static str {
        match self {
            Defense::None => "none",
            Defense::Takeback => "takeback",
            Defense::All => "all",
        }
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
    /// Transposition table entries (32 bytes each).
    pub table_entries: usize,
    /// The longest line searched, in plies (passes included).
    pub max_depth: u32,
    /// Which hand the defender holds.
    pub defender_hand: DefenderHand,
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

/// The result of [`PassSolver::solve`].
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

/// What kind of position a node is, beyond the position itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// The attacker to move, to prove pc ≤ bound.
    Attack,
    /// The defender to move, in check.
    Evade,
    /// The defender to move after the attacker's quiet move to `to`.
    Quiet { to: Square },
}

/// A child of a node: a move (or the pass) and the node it leads to.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Option<Move>,
    node: Node,
    bound: u32,
    key: u64,
    repeats: Option<u32>,
    out: Numbers,
}

/// A node's numbers, with what a disproof rests on (as in the mate search).
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u32,
    dn: u32,
    /// The shallowest repeated depth of the path a disproof rests on (`NO_REP`: none).
    rep: u32,
    /// The depth bound of a disproof.
    bound: u16,
}

const NO_REP: u32 = u32::MAX;

/// A pass-count solver for game `G`.
pub struct PassSolver<G: Game> {
    opts: PassOptions,
    table: Table,
    rep_table: RepTable,
    /// The node keys of the current path.
    history: History,
    children: Vec<Child>,
    nodes: u64,
    aborted: bool,
    /// Who may stop the search from another thread ([`PassSolver::set_control`]).
    control: Option<SearchControl>,
    _game: core::marker::PhantomData<G>,
}

/// Mixes a position key with a node's kind and bound (and, when the defence set is
/// takeback, the square the attacker moved to: it decides which replies are defences).
fn node_key(pos_key: u64, node: Node, bound: u32, defense: Defense) -> u64 {
    let tag = match node {
        Node::Attack => 1u64,
        Node::Evade => 2,
        Node::Quiet { to } if defense == Defense::Takeback => 3 + ((to.index() as u64 + 1) << 2),
        Node::Quiet { .. } => 3,
    };
    extend_path(pos_key, tag | (bound as u64) << 16) | 1
}

impl<G: Game> PassSolver<G> {
    /// A solver with the given options.
    pub fn new(opts: PassOptions) -> PassSolver<G> {
        // Exact hands: the superiority of proof pieces is a result about checkmates.
        PassSolver::with_table(opts, Table::new(opts.table_entries, false))
    }

    /// [`PassSolver::new`], but a table the process cannot allocate is an error, not an
    /// abort.
    pub fn try_new(opts: PassOptions) -> Result<PassSolver<G>, TryReserveError> {
        Ok(PassSolver::with_table(
            opts,
            Table::try_new(opts.table_entries, false)?,
        ))
    }

    fn with_table(opts: PassOptions, table: Table) -> PassSolver<G> {
        PassSolver {
            opts,
            table,
            rep_table: RepTable::default(),
            history: History::new(),
            children: Vec::with_capacity(4096),
            nodes: 0,
            aborted: false,
            control: None,
            _game: core::marker::PhantomData,
        }
    }

    /// Lets `control` stop the searches of this solver from another thread (a Python
    /// caller's Ctrl-C) and read their node count, as [`crate::Solver::set_control`]: a
    /// stopped search answers [`PassVerdict::Unknown`] within [`CHECK_INTERVAL`] nodes.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.control = control;
    }

    /// The possible pass count of `pos` for its side to move.
    pub fn solve(&mut self, pos: &Position<G>) -> PassResult {
        let root = with_defender_hand(pos, self.opts.defender_hand);
        self.table.clear();
        self.nodes = 0;
        self.aborted = self.control.as_ref().is_some_and(|c| c.is_stopped());
        let mut result = PassResult {
            verdict: PassVerdict::PassLimit,
            passes: None,
            first_move: None,
            nodes: 0,
            table: TableStats::default(),
        };
        for bound in 0..=self.opts.max_passes {
            self.rep_table.clear();
            self.history.clear();
            self.children.clear();
            let out = self.mid(&root, Node::Attack, bound, INF, INF, 1);
            if out.pn == 0 {
                result.verdict = PassVerdict::Proved;
                result.passes = Some(bound);
                result.first_move = self.proving_move(&root, bound);
                break;
            }
            if out.dn != 0 || out.rep != NO_REP || out.bound != ANY_DEPTH || self.aborted {
                result.verdict = PassVerdict::Unknown;
                break;
            }
        }
        result.nodes = self.nodes;
        result.table = self.table.stats();
        result
    }

    /// The attacker's move at the root whose child the table proves.
    /// The attacker's move at the root whose child the table proves: a quiet move (a
    /// threat, for a count of 1 or more) when one proves the count, searched for within
    /// the node limit if the proof found went through a check; else that check.
    fn proving_move(&mut self, root: &Position<G>, bound: u32) -> Option<Move> {
        let start = self.children.len();
        self.expand(root, Node::Attack, bound);
        let end = self.children.len();
        let proved = |this: &mut Self, c: &Child| {
            this.table.probe(c.key, PackedHand::EMPTY, ANY_DEPTH).pn == 0
        };
        let mut check = None;
        let mut quiet = None;
        for i in start..end {
            let c = self.children[i];
            if proved(self, &c) {
                match c.node {
                    Node::Quiet { .. } => {
                        quiet = c.mv;
                        break;
                    }
                    _ => check = check.or(c.mv),
                }
            }
        }
        if quiet.is_none() && bound > 0 {
            for i in start..end {
                let c = self.children[i];
                if !matches!(c.node, Node::Quiet { .. }) || self.aborted {
                    continue;
                }
                let Some(mv) = c.mv else { continue };
                let mut next = root.clone();
                next.play_unchecked(mv);
                self.history.clear();
                self.history.enter(
                    node_key(root.key(), Node::Attack, bound, self.opts.defense),
                    1,
                );
                let out = self.mid(&next, c.node, c.bound, INF, INF, 2);
                if out.pn == 0 {
                    quiet = Some(mv);
                    break;
                }
            }
        }
        self.children.truncate(start);
        quiet.or(check)
    }

    fn expand(&mut self, pos: &Position<G>, node: Node, bound: u32) {
        let push = |this: &mut Self, mv: Option<Move>, next: &Position<G>, node: Node, bound| {
            let key = node_key(next.key(), node, bound, this.opts.defense);
            this.children.push(Child {
                mv,
                node,
                bound,
                key,
                repeats: this.history.depth(key),
                out: Numbers {
                    pn: 1,
                    dn: 1,
                    rep: NO_REP,
                    bound: ANY_DEPTH,
                },
            });
        };
        let mut list = MoveList::new();
        match node {
            Node::Attack => {
                pos.legal_moves(&mut list);
                let them = !pos.side_to_move();
                for mv in list {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    if next.in_check(them) {
                        push(self, Some(mv), &next, Node::Evade, bound);
                    } else if bound > 0 {
                        push(self, Some(mv), &next, Node::Quiet { to: mv.to() }, bound);
                    }
                }
            }
            Node::Evade => {
                pos.legal_moves(&mut list);
                for mv in list {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    push(self, Some(mv), &next, Node::Attack, bound);
                }
            }
            Node::Quiet { to } => {
                let mut passed = pos.clone();
                if bound > 0 && passed.play_pass() {
                    push(self, None, &passed, Node::Attack, bound - 1);
                }
                if self.opts.defense != Defense::None {
                    pos.legal_moves(&mut list);
                    for mv in list {
                        let takeback = matches!(mv, Move::Normal { to: t, .. } if t == to);
                        if self.opts.defense == Defense::All || takeback {
                            let mut next = pos.clone();
                            next.play_unchecked(mv);
                            push(self, Some(mv), &next, Node::Attack, bound);
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        pos: &Position<G>,
        node: Node,
        bound: u32,
        th_pn: u32,
        th_dn: u32,
        depth: u32,
    ) -> Numbers {
        self.nodes += 1;
        if self.nodes >= self.opts.max_nodes {
            self.aborted = true;
        } else if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.aborted |= SearchControl::look(&self.control, self.nodes, self.table.fill());
        }
        let final_numbers = |pn, dn, rep, bound| Numbers { pn, dn, rep, bound };
        // Plies left to the depth limit: lines of at most `max_depth` plies are searched.
        let here = (self.opts.max_depth + 1)
            .saturating_sub(depth)
            .min(ANY_DEPTH as u32 - 1) as u16;
        let or_node = node == Node::Attack;
        let key = node_key(pos.key(), node, bound, self.opts.defense);
        let start = self.children.len();
        self.expand(pos, node, bound);
        let end = self.children.len();
        if start == end {
            // An attacker without a move (that checks, at bound 0) fails; a defender
            // without a reply is checkmated (a defender after a quiet move always has
            // the pass, or else bound 0 was never given a quiet move).
            let out = if or_node { (INF, 0) } else { (0, INF) };
            // A proof's length 0 answers at every depth (this search keeps no lengths).
            let len = if or_node { ANY_DEPTH } else { 0 };
            self.table
                .store(key, PackedHand::EMPTY, out.0, out.1, len, 1);
            return final_numbers(out.0, out.1, NO_REP, ANY_DEPTH);
        }
        if here == 0 {
            // At the depth limit with moves left: refuted within the limit only.
            self.children.truncate(start);
            self.table.store(key, PackedHand::EMPTY, INF, 0, 0, 1);
            return final_numbers(INF, 0, NO_REP, 0);
        }
        let remaining = here - 1;
        let nodes_before = self.nodes;
        self.history.enter(key, depth);
        let mut searched: Option<(usize, Numbers)> = None;
        let (mut pn, mut dn);
        loop {
            for i in start..end {
                let c = self.children[i];
                let out = match (searched, c.repeats) {
                    (Some((j, out)), _) if j == i => out,
                    (_, Some(d)) => final_numbers(INF, 0, d, ANY_DEPTH),
                    _ => {
                        let rep = self
                            .rep_table
                            .find(c.key, &self.history, depth, remaining)
                            .map(|(d, bound)| final_numbers(INF, 0, d, bound));
                        rep.unwrap_or_else(|| {
                            let p = self.table.probe(c.key, PackedHand::EMPTY, remaining);
                            let bound = if p.dn == 0 { p.len } else { ANY_DEPTH };
                            final_numbers(p.pn, p.dn, NO_REP, bound)
                        })
                    }
                };
                self.children[i].out = out;
            }
            let numbers = self.children[start..end]
                .iter()
                .map(|c| Some((c.out.pn, c.out.dn)));
            let node = aggregate_numbers(numbers, or_node);
            let (best, second) = (node.best, node.second);
            (pn, dn) = (node.pn, node.dn);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.aborted {
                break;
            }
            let c = self.children[start + best];
            let (cth_pn, cth_dn) = child_thresholds(
                or_node,
                (th_pn, th_dn),
                (pn, dn),
                (c.out.pn, c.out.dn),
                second,
            );
            let mut next = pos.clone();
            match c.mv {
                Some(mv) => next.play_unchecked(mv),
                None => {
                    next.play_pass();
                }
            }
            let out = self.mid(&next, c.node, c.bound, cth_pn, cth_dn, depth + 1);
            searched = Some((best + start, out));
        }
        self.history.leave(key);
        let kids = &self.children[start..end];
        let (rep, limit) = if dn != 0 {
            (NO_REP, ANY_DEPTH)
        } else if or_node {
            kids.iter().fold((NO_REP, ANY_DEPTH), |(r, b), c| {
                (r.min(c.out.rep), b.min(c.out.bound))
            })
        } else {
            kids.iter()
                .filter(|c| c.out.dn == 0)
                .map(|c| (c.out.rep, c.out.bound))
                .max()
                .unwrap_or((NO_REP, ANY_DEPTH))
        };
        let out = final_numbers(pn, dn, rep, deeper(limit));
        self.children.truncate(start);
        if dn == 0 && rep < depth {
            let entry = self.history.rest_on(rep, depth, out.bound);
            self.rep_table.insert(key, entry);
            return out;
        }
        let amount = self.nodes - nodes_before + 1;
        // A disproof keeps its depth bound; a proof, length 0: it answers at every depth.
        let len = if dn == 0 { out.bound } else { 0 };
        self.table
            .store(key, PackedHand::EMPTY, pn, dn, len, amount);
        Numbers { rep: NO_REP, ..out }
    }
}
