//! Greedy best-first search backwards through `Prev1` to a KK position (docs/METHOD.md §7).
//!
//! Nodes are stored compactly (a byte per square, the hands and the side to move, about a
//! fifth of a [`Position`]), and a child is derived from its parent's compact form, Zobrist key
//! and `H` by the unmove alone: a full position is built only for the nodes the search
//! expands, which are a small fraction of those it generates.
//!
//! Predecessors are generated lazily. Expanding a node first generates its un-drops and
//! quiet un-moves (none of which adds a piece to the board); its un-captures, which add a
//! piece and so raise `H` by at least `a` unless they also take back a promotion, are
//! generated only when the queue reaches the node again at priority `H + a`. A typical
//! reachable sample is solved without generating any un-capture at all. The search is still
//! complete: every predecessor of every expanded node is generated before the queue can run
//! empty, so the verdicts are those of the eager search; only the expansion order (among
//! equal priorities, the newest node first) and hence the paths may differ.

use crate::heuristic::{is_kk, piece_weight, Weights};
use core::ops::ControlFlow;
use hashbrown::HashTable;
use shogi_core::tables::MAX_SQUARES;
use shogi_core::{Color, Game, Hand, Move, Piece, PieceKind, Position, Relax, Rules, Setup};
use shogi_retro::{for_each_unmove_of, Unmove, UnmoveKinds};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Limits after which a search gives up with [`Verdict::Unknown`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Most nodes expanded; `None` for no limit (the paper used none).
    pub max_expanded: Option<u64>,
    /// Most nodes stored (the closed set, which also holds the open ones): a memory bound,
    /// at about 128 bytes a node. `None` for no limit.
    pub max_nodes: Option<usize>,
}

/// What a search is configured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// The weights of the heuristic.
    pub weights: Weights,
    /// Node and memory limits.
    pub limits: Limits,
    /// The rule variant the predecessors are generated under.
    pub rules: Rules,
    /// Whether a node's un-captures wait until the queue reaches `H + a` (the default), or
    /// are generated with its other predecessors. Either way the verdict is the same; the
    /// eager search is the paper's, kept to measure and test the lazy one against.
    pub lazy_captures: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            weights: Weights::default(),
            limits: Limits::default(),
            rules: Rules::default(),
            lazy_captures: true,
        }
    }
}

/// The three possible answers of a search. `Unknown` is never folded into the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// A KK position was reached backwards: the position is reachable.
    Reachable,
    /// The search exhausted every predecessor without reaching a KK position: a proof that
    /// the position is unreachable.
    Unreachable,
    /// A limit stopped the search before it could decide.
    Unknown,
}

/// Statistics of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchStats {
    /// Nodes expanded (taken from the queue and given their predecessors), the root included.
    pub expanded: u64,
    /// Distinct predecessors stored, the root excluded.
    pub generated: u64,
    /// Predecessors produced by the unmove generator, duplicates included.
    pub predecessors: u64,
    /// Expanded nodes whose un-captures were generated too.
    pub capture_expansions: u64,
    /// Largest size of the open queue.
    pub peak_open: usize,
    /// Nodes stored at the end (the closed set; it only grows during a search).
    pub peak_closed: usize,
    /// The largest depth of a generated node: the root has depth 0, a node first generated
    /// from a parent gets the parent's depth plus one. For unreachable positions this is the
    /// "max plies traced back" of the paper's Table 2.
    pub max_depth: u32,
}

/// A proof of reachability: a KK position and the legal moves from it to the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate<G: Game> {
    /// The KK position the search reached.
    pub kk: Position<G>,
    /// The legal moves, in playing order, that lead from `kk` to the target.
    pub moves: Vec<Move>,
}

impl<G: Game> Certificate<G> {
    /// The moves in USI notation.
    pub fn usi_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.to_usi::<G>()).collect()
    }

    /// Replays the moves from `kk`, checking each for legality, and returns the position
    /// reached (which should be the target).
    pub fn replay(&self) -> Result<Position<G>, shogi_core::IllegalMove> {
        let mut p = self.kk.clone();
        for &m in &self.moves {
            p.play(m)?;
        }
        Ok(p)
    }
}

/// The result of one search: the verdict, a certificate when reachable, and statistics.
#[derive(Clone, Debug)]
pub struct SearchOutcome<G: Game> {
    /// What the search decided.
    pub verdict: Verdict,
    /// The certificate, present exactly when the verdict is `Reachable`.
    pub certificate: Option<Certificate<G>>,
    /// What the search did.
    pub stats: SearchStats,
}

/// A position as the search stores it: `board[sq]` is 0 for an empty square and
/// `1 + Piece::index()` otherwise.
#[derive(Clone, PartialEq, Eq)]
struct Packed {
    board: [u8; MAX_SQUARES],
    hands: [[u8; PieceKind::HAND_COUNT]; 2],
    side: Color,
}

const NONE: u32 = u32::MAX;

struct Node {
    packed: Packed,
    key: u64,
    parent: u32,
    unmove: Option<Unmove>,
    depth: u32,
    h: u32,
    /// Non-king pieces on the board.
    n: u8,
}

/// A greedy best-first searcher. It keeps its buffers between searches, so one searcher per
/// thread serves any number of positions without reallocating.
pub struct Searcher<G: Game> {
    config: SearchConfig,
    /// `H` of each piece (by `1 + Piece::index()`, 0 for empty) on each square.
    weight: Vec<[u32; MAX_SQUARES]>,
    nodes: Vec<Node>,
    seen: HashTable<u32>,
    /// The open queue: a bucket per priority, each a stack of (node, un-captures due).
    buckets: Vec<Vec<(u32, bool)>>,
    /// The unmoves of the node being expanded.
    unmoves: Vec<Unmove>,
    /// Set from another thread to stop the search (see [`Searcher::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
    _game: core::marker::PhantomData<G>,
}

fn code(piece: Piece) -> u8 {
    1 + piece.index() as u8
}

fn decode(c: u8) -> Option<Piece> {
    let i = (c as usize).checked_sub(1)?;
    let color = Color::from_index(i / PieceKind::COUNT)?;
    Some(Piece::new(
        color,
        PieceKind::from_index(i % PieceKind::COUNT)?,
    ))
}

impl<G: Game> Searcher<G> {
    /// A searcher with the given configuration.
    pub fn new(config: SearchConfig) -> Self {
        let mut weight = vec![[0u32; MAX_SQUARES]; 1 + 2 * PieceKind::COUNT];
        for (c, row) in weight.iter_mut().enumerate().skip(1) {
            let piece = decode(c as u8).expect("a piece code");
            for sq in G::tables().board {
                row[sq.index()] = piece_weight::<G>(config.weights, piece, sq);
            }
        }
        Searcher {
            config,
            weight,
            nodes: Vec::new(),
            seen: HashTable::new(),
            buckets: Vec::new(),
            unmoves: Vec::new(),
            cancel: None,
            _game: core::marker::PhantomData,
        }
    }

    /// A flag that, once set (by another thread: a Ctrl-C handler, say), stops the search
    /// at the next expansion with [`Verdict::Unknown`], as a limit would; `None` for none.
    /// An unbounded search of a hard position can take long, and only the caller knows
    /// when to give up on it.
    pub fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        self.cancel = cancel;
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    fn pack(pos: &Position<G>) -> Packed {
        let mut board = [0u8; MAX_SQUARES];
        for sq in pos.occupied() {
            board[sq.index()] = code(pos.piece_at(sq).expect("occupied"));
        }
        let hand = |c: Color| {
            let mut h = [0u8; PieceKind::HAND_COUNT];
            for k in PieceKind::HAND {
                h[k.index()] = pos.hand(c).count(k);
            }
            h
        };
        Packed {
            board,
            hands: [hand(Color::Black), hand(Color::White)],
            side: pos.side_to_move(),
        }
    }

    fn unpack(p: &Packed) -> Position<G> {
        let mut board = [None; MAX_SQUARES];
        for (square, &c) in board.iter_mut().zip(&p.board[..G::SQUARES]) {
            *square = decode(c);
        }
        // Only positions are packed, and the bytes are compared on every key match, so
        // this never fails.
        Setup::from_board(
            &board[..G::SQUARES],
            [Hand(p.hands[0]), Hand(p.hands[1])],
            p.side,
        )
        .and_then(|s| s.into_position(Relax::CANDIDATE).ok())
        .expect("a packed position unpacks to itself")
    }

    fn push(&mut self, node: u32, captures: bool, priority: u32) {
        let i = priority as usize;
        if i >= self.buckets.len() {
            self.buckets.resize_with(i + 1, Vec::new);
        }
        self.buckets[i].push((node, captures));
    }

    /// Searches backwards from `pos` for a KK position.
    ///
    /// A position with an error that [`Position::validate`] reports (a relaxed rule its setup
    /// broke) has no legal predecessor and is not a KK position, so it is `Unreachable` at
    /// once.
    pub fn search(&mut self, pos: &Position<G>) -> SearchOutcome<G> {
        self.reset();
        let mut stats = SearchStats::default();
        let errors = pos.validate();
        if !errors.is_empty() {
            return SearchOutcome {
                verdict: Verdict::Unreachable,
                certificate: None,
                stats,
            };
        }
        let root = Node {
            packed: Self::pack(pos),
            key: pos.key(),
            parent: NONE,
            unmove: None,
            depth: 0,
            h: crate::heuristic::heuristic(pos, self.config.weights),
            n: (pos.occupied().count() - 2) as u8,
        };
        let root_h = root.h;
        self.seen
            .insert_unique(root.key, 0, |&i| self.nodes[i as usize].key);
        self.nodes.push(root);
        self.push(0, false, root_h);
        let mut open = 1usize;
        stats.peak_open = 1;
        let mut cursor = root_h as usize;
        let rules = self.config.rules;
        let (verdict, goal) = loop {
            // The lowest non-empty bucket; pushes below the cursor move it back.
            while cursor < self.buckets.len() && self.buckets[cursor].is_empty() {
                cursor += 1;
            }
            let Some((id, captures)) = self.buckets.get_mut(cursor).and_then(Vec::pop) else {
                break (Verdict::Unreachable, NONE);
            };
            open -= 1;
            let node = &self.nodes[id as usize];
            if !captures {
                if node.n == 0 {
                    break (Verdict::Reachable, id);
                }
                let cancelled = || {
                    self.cancel
                        .as_ref()
                        .is_some_and(|c| c.load(Ordering::Relaxed))
                };
                if self
                    .config
                    .limits
                    .max_expanded
                    .is_some_and(|m| stats.expanded >= m)
                    || cancelled()
                {
                    break (Verdict::Unknown, NONE);
                }
                stats.expanded += 1;
            } else {
                stats.capture_expansions += 1;
            }
            let parent = Self::unpack(&node.packed);
            debug_assert_eq!(parent.key(), node.key, "the derived key is the position's");
            debug_assert_eq!(
                crate::heuristic::heuristic(&parent, self.config.weights),
                node.h,
                "the derived H is the position's"
            );
            let lazy = self.config.lazy_captures;
            let kinds = if captures {
                UnmoveKinds::CAPTURES
            } else if lazy {
                UnmoveKinds::NON_CAPTURES
            } else {
                UnmoveKinds::ALL
            };
            let mut low = usize::MAX;
            let mut full = false;
            let mut children = core::mem::take(&mut self.unmoves);
            children.clear();
            let _ = for_each_unmove_of(&parent, rules, kinds, |u| {
                children.push(u);
                ControlFlow::Continue(())
            });
            for &u in &children {
                stats.predecessors += 1;
                if let Some(child) = self.child(id, &parent, u) {
                    if self
                        .config
                        .limits
                        .max_nodes
                        .is_some_and(|m| self.nodes.len() >= m)
                    {
                        full = true;
                        break;
                    }
                    let cid = self.nodes.len() as u32;
                    stats.max_depth = stats.max_depth.max(child.depth);
                    let (key, prio) = (child.key, child.h);
                    self.nodes.push(child);
                    let nodes = &self.nodes;
                    self.seen
                        .insert_unique(key, cid, |&i| nodes[i as usize].key);
                    self.push(cid, false, prio);
                    low = low.min(prio as usize);
                    open += 1;
                }
            }
            self.unmoves = children;
            // Un-captures return pieces from the mover's hand: with it empty there are none.
            let mover_holds = !parent.hand(!parent.side_to_move()).is_empty();
            if lazy && !captures && mover_holds {
                let prio = self.nodes[id as usize].h + u32::from(self.config.weights.a);
                self.push(id, true, prio);
                low = low.min(prio as usize);
                open += 1;
            }
            stats.peak_open = stats.peak_open.max(open);
            if full {
                break (Verdict::Unknown, NONE);
            }
            cursor = cursor.min(low);
        };
        stats.generated = self.nodes.len() as u64 - 1;
        stats.peak_closed = self.nodes.len();
        let certificate = (verdict == Verdict::Reachable).then(|| self.certificate(goal));
        SearchOutcome {
            verdict,
            certificate,
            stats,
        }
    }

    /// The child of node `id` (whose position is `pos`) through `u`, unless already seen.
    #[inline]
    fn child(&self, id: u32, pos: &Position<G>, u: Unmove) -> Option<Node> {
        let t = G::tables();
        let parent = &self.nodes[id as usize];
        let s = pos.side_to_move();
        let o = !s;
        let mut packed = parent.packed.clone();
        let mut key = parent.key;
        let mut h = parent.h;
        let mut n = parent.n;
        match u {
            Unmove::Normal {
                from,
                to,
                piece,
                promote,
                captured,
            } => {
                let now = Piece::new(
                    o,
                    if promote {
                        piece.promoted().expect("promotable")
                    } else {
                        piece
                    },
                );
                let before = Piece::new(o, piece);
                key = key
                    .wrapping_sub(t.zobrist_board[now.index()][to.index()])
                    .wrapping_add(t.zobrist_board[before.index()][from.index()]);
                h = h - self.weight[code(now) as usize][to.index()]
                    + self.weight[code(before) as usize][from.index()];
                packed.board[from.index()] = code(before);
                packed.board[to.index()] = 0;
                if let Some(c) = captured {
                    let back = Piece::new(s, c);
                    let base = c.unpromoted();
                    key = key
                        .wrapping_add(t.zobrist_board[back.index()][to.index()])
                        .wrapping_sub(t.zobrist_hand[o.index()][base.index()]);
                    h += self.weight[code(back) as usize][to.index()];
                    packed.board[to.index()] = code(back);
                    packed.hands[o.index()][base.index()] -= 1;
                    n += 1;
                }
            }
            Unmove::Drop { kind, to } => {
                let now = Piece::new(o, kind);
                key = key
                    .wrapping_sub(t.zobrist_board[now.index()][to.index()])
                    .wrapping_add(t.zobrist_hand[o.index()][kind.index()]);
                h -= self.weight[code(now) as usize][to.index()];
                packed.board[to.index()] = 0;
                packed.hands[o.index()][kind.index()] += 1;
                n -= 1;
            }
        }
        packed.side = o;
        key = match o {
            Color::White => key.wrapping_add(t.zobrist_side),
            Color::Black => key.wrapping_sub(t.zobrist_side),
        };
        let nodes = &self.nodes;
        if self
            .seen
            .find(key, |&i| nodes[i as usize].packed == packed)
            .is_some()
        {
            return None;
        }
        Some(Node {
            packed,
            key,
            parent: id,
            unmove: Some(u),
            depth: parent.depth + 1,
            h,
            n,
        })
    }

    /// The certificate of the KK node `goal`: its position and the moves that take back
    /// the unmoves on the way from the root to it, in playing order.
    fn certificate(&self, goal: u32) -> Certificate<G> {
        let mut moves = Vec::new();
        let mut id = goal;
        while let Some(u) = self.nodes[id as usize].unmove {
            moves.push(u.forward());
            id = self.nodes[id as usize].parent;
        }
        let kk = Self::unpack(&self.nodes[goal as usize].packed);
        debug_assert!(is_kk(&kk));
        Certificate { kk, moves }
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.seen.clear();
        for b in &mut self.buckets {
            b.clear();
        }
    }
}
