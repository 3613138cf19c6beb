//! Depth-first proof-number search for checkmates (docs/METHOD.md §11–§12).

use crate::futile;
use crate::hand::PackedHand;
use crate::history::{History, RepTable};
use crate::pieces;
use crate::table::{Probe, Table, TableStats, INF};
use crate::{DefenderHand, SearchControl, CHECK_INTERVAL};
use shogi_core::{Color, Game, Move, MoveList, Piece, PieceKind, Position, Relax, Setup};
use std::collections::{HashMap, TryReserveError};
use std::hash::{BuildHasherDefault, Hasher};

/// The default depth limit of a mate search, in plies: longer than any published mate
/// problem (ミクロコスモス, the longest, has 1,525 plies), so that no real problem is cut; the
/// memory of the search is bounded by its table, not by this.
pub const DEFAULT_MAX_DEPTH: u32 = 4096;

/// Options of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateOptions {
    /// The search gives up (verdict [`Verdict::Unknown`]) after this many nodes.
    pub max_nodes: u64,
    /// Transposition table entries (32 bytes each; rounded up to a power of two). The
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
    /// Whether [`Solver::solve`] goes on to prove the shortest mate
    /// ([`Solver::solve_shortest`]).
    pub shortest: bool,
    /// The threshold controlling algorithm (docs/METHOD.md §11.2): a node whose children
    /// include a position of the current path searches on past its thresholds until a new
    /// position has been expanded below it, so that a cycle cannot send the search back and
    /// forth between the same nodes for ever (off: the ablation of docs/BENCHMARKS.md).
    pub tca: bool,
    /// Delayed moves (docs/METHOD.md §11.2): of the defender's drops on one square only the
    /// first is counted and searched until it is proved, then the next; of a check with and
    /// without promotion, the one without waits until the promotion is disproved. Off: every
    /// move counts from the start (the ablation of docs/BENCHMARKS.md).
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
    /// ([`Solver::set_control`]).
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

/// The result of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct MateResult {
    /// The verdict.
    pub verdict: Verdict,
    /// For a mate: the attacker's moves and the defender's longest resistance found in the
    /// proof, ending in checkmate; it has been replayed ([`verify_line`]). Empty otherwise.
    pub moves: Vec<Move>,
    /// For a mate: whether the line was planned by minimax over the proved positions
    /// (docs/METHOD.md §11.3), or, after [`Solver::solve_shortest`], walked with every move
    /// proved (§11.4), so that its length is at least that of the shortest forced mate.
    /// `false` when the planning ran out (proofs lost from a full table, the node
    /// limit) and the line follows the stored lengths: a legal mating line whose defence
    /// may not be the longest, so its length bounds nothing.
    pub line_minimax: bool,
    /// After [`Solver::solve_shortest`]: the proved length of the shortest mate, in plies
    /// (`None` after [`Solver::solve`], or when a search of the shortest ran out of nodes:
    /// then the line's length is only an upper bound). A line planned by minimax or
    /// walked ([`MateResult::line_minimax`]) is at least this long, and exactly this long
    /// unless the walk that shortens a planned line ran out of nodes (a table far too
    /// small for the searches and a low node limit).
    pub shortest: Option<u32>,
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

/// A hasher for keys that are already random 64-bit values.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

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

/// The plan of a line: what it knows of each position, by full key; the positions on the
/// current path of the planning (by full key); and the searches made for proofs the table
/// had lost.
#[derive(Default)]
struct PlanState {
    plan: HashMap<u64, Planned, BuildHasherDefault<KeyHasher>>,
    path: KeyMap,
    /// The positions of `path` in order from the root.
    keys: Vec<u64>,
    searches: u32,
}

/// The depth bound of a disproof that holds at any remaining depth.
pub(crate) const ANY_DEPTH: u16 = u16::MAX;

/// "No repetition below": the depth marker of a result that does not depend on the path.
const NO_REP: u32 = u32::MAX;

/// What a node's search (or a look-up) says about it.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    pn: u32,
    dn: u32,
    pieces: PackedHand,
    len: u16,
    /// For a disproof: the shallowest depth of the current path whose position it found
    /// repeated; `NO_REP` when it depends on no repetition.
    rep: u32,
    /// For a disproof: it holds when at most this many plies remain to the depth limit
    /// ([`ANY_DEPTH`]: always; less when it rests on lines the limit cut).
    bound: u16,
}

impl Outcome {
    /// An open node with proof number `pn` and disproof number 1 (`pieces`: its hand).
    fn open(pn: u32, pieces: PackedHand) -> Outcome {
        Outcome {
            pn,
            dn: 1,
            pieces,
            len: 0,
            rep: NO_REP,
            bound: ANY_DEPTH,
        }
    }

    fn from_probe(p: Probe) -> Outcome {
        Outcome {
            pn: p.pn,
            dn: p.dn,
            pieces: p.pieces,
            len: p.len,
            rep: NO_REP,
            bound: if p.dn == 0 { p.len } else { ANY_DEPTH },
        }
    }
}

/// A move of an expanded node, with what the search knows of the position it leads to.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    /// The kind captured by the move, if any.
    captured: Option<PieceKind>,
    /// Table key and attacker hand of the position after the move.
    key: u64,
    hand: PackedHand,
    /// Full key (board and hands) of the position after the move.
    full: u64,
    /// Depth of the position on the current path that this child repeats.
    repeats: Option<u32>,
    /// The child's look-ahead number ([`Solver::initial_number`]), once computed in this
    /// expansion.
    init: Option<u32>,
    /// Whether the last refresh found nothing in the table: the child is a new position.
    fresh: bool,
    /// The child (index in the solver's `children`) this one waits for
    /// ([`MateOptions::delay`]).
    after: Option<u32>,
    out: Outcome,
}

/// A mate solver for game `G`, with its transposition table. Reusing one solver for many
/// positions reuses the table's memory, not its contents: every search starts afresh, so
/// a position's answer does not depend on what was solved before.
pub struct Solver<G: Game> {
    opts: MateOptions,
    table: Table,
    /// Path-dependent disproofs (they rest on a repetition above them), by full key, with
    /// the part of the path they need.
    rep_table: RepTable,
    /// Full keys of the positions on the current path.
    history: History,
    children: Vec<Child>,
    attacker: Color,
    nodes: u64,
    aborted: bool,
    /// Who may stop this search, and sees its progress.
    control: Option<SearchControl>,
    /// The threshold controlling algorithm's count of cycles met on the current path whose
    /// extension has not yet expanded a new position (Kishimoto 2010 has a flag; a count
    /// lets nested cycles each get their extension).
    tca: u32,
    /// The proved check of the attacker node `mid` proved last (so, after a call at an
    /// attacker node that proves it, that node's).
    proved_by: Option<Move>,
    /// The look-ahead numbers of positions met in this search, by full key (mixed with the
    /// node kind), direct-mapped: a node entered again expands its children again, and
    /// their look-aheads (a move generation each) are most of that cost. A collision only
    /// misorders children, never decides one; cleared with the table so that a search
    /// does not depend on the one before. A power of two, at most [`AHEAD_SLOTS`], and a
    /// 32nd of the table's memory at most.
    ahead: Vec<(u64, u32)>,
    _game: core::marker::PhantomData<G>,
}

/// Entries of [`Solver::ahead`] (16 bytes each) at most: with the default tables (2^20
/// entries and more); smaller tables get a 16th of their entries, so that many small
/// solvers (a fuzz target keeps one for each set of options) stay small.
const AHEAD_SLOTS: usize = 1 << 16;

/// Mixes a path key with the key of the next position (splitmix64's finaliser).
pub(crate) fn extend_path(path: u64, key: u64) -> u64 {
    let mut z = path.rotate_left(5) ^ key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The position with the defender's hand replaced by everything off the board that the
/// attacker does not hold (the usual convention of mate problems), or unchanged.
pub fn with_defender_hand<G: Game>(pos: &Position<G>, convention: DefenderHand) -> Position<G> {
    if convention == DefenderHand::Sfen {
        return pos.clone();
    }
    let attacker = pos.side_to_move();
    let defender = !attacker;
    let material = pos.material();
    let mut setup = Setup::from(pos.clone());
    for kind in PieceKind::HAND {
        let on_board = material.get(kind) as u32
            - pos.hand(attacker).count(kind) as u32
            - pos.hand(defender).count(kind) as u32;
        let rest = G::MATERIAL.get(kind) as u32 - on_board - pos.hand(attacker).count(kind) as u32;
        setup.set_hand(defender, kind, rest as u8);
    }
    // The board, the kings and the side to move are those of a position; the hands now
    // hold exactly the game's material off the board, which is never over the limit.
    setup
        .into_position(Relax::all())
        .unwrap_or_else(|_| pos.clone())
}

impl<G: Game> Solver<G> {
    /// A solver with the given options (the table is allocated here, once).
    pub fn new(opts: MateOptions) -> Solver<G> {
        Solver::with_table(opts, Table::new(opts.table_entries, opts.superiority))
    }

    /// [`Solver::new`], but a table the process cannot allocate is an error, not an abort.
    pub fn try_new(opts: MateOptions) -> Result<Solver<G>, TryReserveError> {
        let table = Table::try_new(opts.table_entries, opts.superiority)?;
        Ok(Solver::with_table(opts, table))
    }

    /// A solver on `table`, which takes the place of the one `opts.table_entries` and
    /// `opts.superiority` would make: for a table made by a [`crate::TableBuilder`], a step
    /// at a time.
    pub fn with_table(opts: MateOptions, table: Table) -> Solver<G> {
        let ahead = (table.capacity() / 16).clamp(1, AHEAD_SLOTS);
        Solver {
            opts,
            table,
            rep_table: RepTable::default(),
            history: History::new(),
            children: Vec::with_capacity(4096),
            attacker: Color::Black,
            nodes: 0,
            aborted: false,
            control: None,
            tca: 0,
            proved_by: None,
            ahead: vec![(0, 0); ahead],
            _game: core::marker::PhantomData,
        }
    }

    /// The options.
    pub fn options(&self) -> &MateOptions {
        &self.opts
    }

    /// Lets `control` stop the searches of this solver from another thread and read their
    /// progress (`None`: no one can). A search that finds the flag raised (at its start too)
    /// returns [`Verdict::Unknown`] within [`CHECK_INTERVAL`] nodes. The flag stays raised
    /// until the caller gives a fresh control: one control serves one search.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.control = control;
    }

    /// Searches `pos` for a mate by its side to move. `pos` is read with the defender-hand
    /// convention of the options.
    pub fn solve(&mut self, pos: &Position<G>) -> MateResult {
        if self.opts.shortest {
            self.solve_shortest(pos)
        } else {
            self.solve_root(pos).0
        }
    }

    /// [`Solver::solve`], then the shortest mate by the depth limit (docs/METHOD.md §11.4):
    /// a search with depth limit `M` proves a mate within `M` plies or, when it ends with a
    /// disproof, that there is none; `M` goes down from the length of the first proof, two
    /// plies below each mate found, all the searches on one table whose entries answer by
    /// length. When every search decides, the length is proved the shortest (the attacker
    /// shortest, the defender longest over every reply) and [`MateResult::shortest`] holds
    /// it, with a line of exactly that length: planned through the proofs, or, when the
    /// plan falls short (a table too small), walked with a search for each move (if the
    /// walk runs out of nodes, the planned line, which is never shorter). When one
    /// runs out of nodes, the result is the shortest mate found, `shortest` is `None`, and
    /// the line's length is only an upper bound.
    pub fn solve_shortest(&mut self, pos: &Position<G>) -> MateResult {
        let full = self.opts.max_depth;
        let (mut best, out, _) = self.solve_root(pos);
        if best.verdict != Verdict::Mate {
            return best;
        }
        let mut nodes = best.stats.nodes;
        // Mate lengths are odd; `hi` is a length within which a mate is proved (the
        // proof's longest line, or the minimax line through the proved positions when it
        // is shorter), `lo` one within which none is: none within `lo - 2`.
        let bound = |r: &MateResult, out: &Outcome| {
            let line = if r.line_minimax {
                r.moves.len() as u32
            } else {
                u32::MAX
            };
            u32::from(out.len).min(line)
        };
        let (mut lo, mut hi) = (1u32, bound(&best, &out).min(full));
        let mut decided = true;
        while lo < hi {
            // Down from the mate found, not by halving: a search for a mate well below the
            // shortest must refute every line of checks to that depth, which in a long
            // problem costs more than the proofs above it. The table is kept: its proofs
            // answer wherever their mates are short enough and its disproofs wherever
            // their depth bounds reach (docs/METHOD.md §11.4).
            let m = hi - 2;
            self.opts.max_depth = m;
            let (r, out, aborted) = self.search_root(pos);
            nodes += r.stats.nodes;
            if r.verdict == Verdict::Mate {
                hi = bound(&r, &out).min(m);
                best = r;
            } else if !aborted && out.dn == 0 && out.rep == NO_REP {
                lo = m + 2;
            } else {
                decided = false;
                break;
            }
        }
        self.opts.max_depth = full;
        best.shortest = (decided && lo == hi).then_some(hi);
        if best.shortest.is_some() && !(best.line_minimax && best.moves.len() == hi as usize) {
            // The plan through the table's proofs fell short (entries a full table
            // replaced): the line is walked instead, each move proved by a search.
            self.nodes = 0;
            if let Some(line) = self.walk_shortest(pos, hi) {
                best.moves = line;
                best.line_minimax = true;
            }
            nodes += self.nodes;
        }
        best.stats.nodes = nodes;
        if let Some(c) = &self.control {
            // The nodes of every search, not the last one's.
            c.publish(nodes, best.stats.table_fill);
        }
        best
    }

    /// A line of exactly `len` plies from `pos`, whose shortest mate is proved to be `len`,
    /// with every move proved by a search under the depth limit: at attacker nodes a check
    /// after which the defender is mated within the plies left, at defender nodes a reply
    /// after which the attacker has no mate in two plies fewer (so the reply resists
    /// longest: the shortest mate strictly falls along the line, and at each defender node
    /// some reply keeps it). The searches use the table as the shortest-mate searches left
    /// it, which usually holds these answers, and share one node limit. `None` when a
    /// search does not decide.
    fn walk_shortest(&mut self, root: &Position<G>, len: u32) -> Option<Vec<Move>> {
        let root = with_defender_hand(root, self.opts.defender_hand);
        let full = self.opts.max_depth;
        let mut pos = root.clone();
        let mut line = Vec::with_capacity(len as usize);
        let mut found = true;
        for r in (1..=len).rev() {
            let or_node = pos.side_to_move() == self.attacker;
            let start = self.children.len();
            self.expand(&pos, or_node);
            let mut moves: Vec<(u16, Move)> = self.children[start..]
                .iter()
                .map(|c| {
                    (
                        self.table.shortest_proof(c.key, c.hand).unwrap_or(u16::MAX),
                        c.mv,
                    )
                })
                .collect();
            self.children.truncate(start);
            // The likeliest first: the shortest stored mates after a check, the longest
            // (or unknown) after a reply.
            if or_node {
                moves.sort_by_key(|m| m.0);
            } else {
                moves.sort_by_key(|m| core::cmp::Reverse(m.0));
            }
            let mut pick = None;
            for (_, mv) in moves {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                let keeps = if or_node {
                    self.mates_within(&next, r - 1)
                } else if r < 3 {
                    Some(false)
                } else {
                    self.mates_within(&next, r - 3)
                };
                match (keeps, or_node) {
                    (Some(true), true) | (Some(false), false) => {
                        pick = Some(mv);
                        break;
                    }
                    (None, _) => break,
                    _ => {}
                }
            }
            let Some(mv) = pick else {
                found = false;
                break;
            };
            line.push(mv);
            pos.play_unchecked(mv);
        }
        self.opts.max_depth = full;
        (found && self.verify(&root, &line).is_ok()).then_some(line)
    }

    /// Whether the position `pos` (attacker or defender to move) is mated within `m`
    /// plies: a search with that depth limit, on the table as it is. `None` when it does
    /// not decide (the node limit, or a disproof that rests on a repetition).
    fn mates_within(&mut self, pos: &Position<G>, m: u32) -> Option<bool> {
        if self.aborted {
            return None;
        }
        self.opts.max_depth = m;
        self.history.clear();
        let out = self.mid(pos, INF, INF, 1);
        if self.aborted {
            None
        } else if out.pn == 0 {
            Some(true)
        } else if out.dn == 0 && out.rep == NO_REP {
            Some(false)
        } else {
            None
        }
    }

    /// [`Solver::solve`], with the root's outcome and whether the search was cut short
    /// (node limit or stop).
    fn solve_root(&mut self, pos: &Position<G>) -> (MateResult, Outcome, bool) {
        self.table.clear();
        self.ahead.fill((0, 0));
        self.search_root(pos)
    }

    /// [`Solver::solve_root`] on the table as it is: what earlier searches of the same
    /// position stored answers under this search's depth limit as the table allows.
    fn search_root(&mut self, pos: &Position<G>) -> (MateResult, Outcome, bool) {
        let root = with_defender_hand(pos, self.opts.defender_hand);
        self.rep_table.clear();
        self.history.clear();
        self.children.clear();
        self.attacker = root.side_to_move();
        self.nodes = 0;
        self.tca = 0;
        self.aborted = self.control.as_ref().is_some_and(|c| c.is_stopped());
        let out = self.mid(&root, INF, INF, 1);
        let mut result = MateResult {
            verdict: Verdict::Unknown,
            moves: Vec::new(),
            line_minimax: false,
            shortest: None,
            pieces: None,
            stats: SearchStats::default(),
        };
        if out.pn == 0 {
            if let Some((line, minimax)) = self.extract_line(&root) {
                if self.verify(&root, &line).is_ok() {
                    result.verdict = Verdict::Mate;
                    result.moves = line;
                    result.line_minimax = minimax;
                    result.pieces = Some(out.pieces.to_hand());
                }
            }
        } else if out.dn == 0 && out.rep == NO_REP && out.bound == ANY_DEPTH {
            result.verdict = Verdict::NoMate;
            result.pieces = Some(out.pieces.to_hand());
        }
        result.stats = SearchStats {
            nodes: self.nodes,
            table: self.table.stats(),
            table_fill: self.table.fill(),
        };
        if let Some(c) = &self.control {
            c.publish(self.nodes, result.stats.table_fill);
        }
        (result, out, self.aborted)
    }

    /// Looks `pos` up in the table as the last search left it: `Some(true)` for a stored
    /// proof (by superiority too), `Some(false)` for a stored disproof, `None` otherwise.
    /// For tests and tools that check what the table knows.
    pub fn lookup(&mut self, pos: &Position<G>) -> Option<bool> {
        let p = self
            .table
            .probe(self.node_key(pos), self.attacker_hand(pos), ANY_DEPTH);
        if p.pn == 0 {
            Some(true)
        } else if p.dn == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The table key of a position: its board and side to move, and with the SFEN's hands
    /// convention the defender's hand too (the attacker's hand is compared separately).
    #[inline]
    fn node_key(&self, pos: &Position<G>) -> u64 {
        let mut key = pos.board_key();
        if self.opts.defender_hand == DefenderHand::Sfen {
            let t = G::tables();
            let d = !self.attacker;
            for (k, &n) in pos.hand(d).0.iter().enumerate() {
                key = key.wrapping_add(t.zobrist_hand[d.index()][k].wrapping_mul(n as u64));
            }
        }
        key | 1
    }

    /// The full key, table key and attacker hand of the position after `mv`, computed
    /// from the Zobrist tables without playing the move (`board_key` is `pos`'s).
    #[inline]
    fn child_keys(&self, pos: &Position<G>, mv: Move, board_key: u64) -> (u64, u64, PackedHand) {
        let t = G::tables();
        let us = pos.side_to_move();
        let mut full = pos.key();
        let mut board = board_key;
        let mut mover_hand = *pos.hand(us);
        match mv {
            Move::Normal { from, to, promote } => {
                if let Some(p) = pos.piece_at(from) {
                    let kind = if promote {
                        p.kind.promoted().unwrap_or(p.kind)
                    } else {
                        p.kind
                    };
                    let mut delta = t.zobrist_board[Piece::new(us, kind).index()][to.index()]
                        .wrapping_sub(t.zobrist_board[p.index()][from.index()]);
                    if let Some(c) = pos.piece_at(to) {
                        let held = c.kind.unpromoted();
                        delta = delta.wrapping_sub(t.zobrist_board[c.index()][to.index()]);
                        full = full.wrapping_add(t.zobrist_hand[us.index()][held.index()]);
                        mover_hand.0[held.index()] += 1;
                    }
                    full = full.wrapping_add(delta);
                    board = board.wrapping_add(delta);
                }
            }
            Move::Drop { kind, to } => {
                let delta = t.zobrist_board[Piece::new(us, kind).index()][to.index()];
                full = full
                    .wrapping_add(delta)
                    .wrapping_sub(t.zobrist_hand[us.index()][kind.index()]);
                board = board.wrapping_add(delta);
                mover_hand.0[kind.index()] = mover_hand.0[kind.index()].saturating_sub(1);
            }
        }
        // The key holds White to move.
        let side = match us {
            Color::Black => t.zobrist_side,
            Color::White => t.zobrist_side.wrapping_neg(),
        };
        full = full.wrapping_add(side);
        board = board.wrapping_add(side);
        let attacker_hand = if us == self.attacker {
            PackedHand::new(&mover_hand)
        } else {
            PackedHand::new(pos.hand(self.attacker))
        };
        if self.opts.defender_hand == DefenderHand::Sfen {
            let d = !self.attacker;
            let dh = if us == d { &mover_hand } else { pos.hand(d) };
            for (k, &n) in dh.0.iter().enumerate() {
                board = board.wrapping_add(t.zobrist_hand[d.index()][k].wrapping_mul(n as u64));
            }
        }
        (full, board | 1, attacker_hand)
    }

    /// [`mated`] under this solver's convention on futile interpositions.
    fn mated(&self, pos: &Position<G>) -> bool {
        mated(pos, self.opts.futile_interpositions)
    }

    /// [`verify_line_with`] under this solver's convention on futile interpositions.
    fn verify(&self, root: &Position<G>, line: &[Move]) -> Result<(), String> {
        verify_line_with(root, line, self.opts.futile_interpositions)
    }

    #[inline]
    fn attacker_hand(&self, pos: &Position<G>) -> PackedHand {
        PackedHand::new(pos.hand(self.attacker))
    }

    /// Pushes the children of `pos` (the attacker's checks, or the defender's replies).
    fn expand(&mut self, pos: &Position<G>, or_node: bool) {
        let mut list = MoveList::new();
        if or_node {
            pos.legal_checks(&mut list);
        } else {
            pos.legal_moves(&mut list);
            if self.opts.futile_interpositions && futile::only_futile_drops(pos, &list) {
                list.clear();
            }
        }
        let board_key = pos.board_key();
        let start = self.children.len();
        for mv in list {
            let captured = match mv {
                Move::Normal { to, .. } => pos.piece_at(to).map(|p| p.kind),
                Move::Drop { .. } => None,
            };
            let (full, key, child_hand) = self.child_keys(pos, mv, board_key);
            self.table.prefetch(key);
            #[cfg(debug_assertions)]
            {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                debug_assert_eq!(
                    (full, key, child_hand),
                    (next.key(), self.node_key(&next), self.attacker_hand(&next))
                );
                debug_assert!(!or_node || next.in_check(next.side_to_move()));
            }
            self.children.push(Child {
                mv,
                captured,
                key,
                hand: child_hand,
                full,
                repeats: self.history.depth(full),
                init: None,
                fresh: false,
                after: None,
                out: Outcome {
                    pn: 1,
                    dn: 1,
                    pieces: PackedHand::EMPTY,
                    len: 0,
                    rep: NO_REP,
                    bound: ANY_DEPTH,
                },
            });
        }
        if self.opts.delay {
            self.link_delayed(start, or_node);
        }
    }

    /// Chains the moves that wait for another ([`MateOptions::delay`]): interpositions on
    /// one square are nearly the same defence, and summing their proof numbers makes a
    /// check that allows many of them look many times harder than it is; a check without
    /// promotion rarely mates where the promotion does not.
    fn link_delayed(&mut self, start: usize, or_node: bool) {
        let kids = &mut self.children[start..];
        if or_node {
            for i in 0..kids.len() {
                if let Move::Normal {
                    from,
                    to,
                    promote: false,
                } = kids[i].mv
                {
                    let promoted = Move::Normal {
                        from,
                        to,
                        promote: true,
                    };
                    kids[i].after = kids
                        .iter()
                        .position(|c| c.mv == promoted)
                        .map(|j| (start + j) as u32);
                }
            }
        } else {
            let mut last = [u32::MAX; 128];
            for (i, c) in kids.iter_mut().enumerate() {
                if let Move::Drop { to, .. } = c.mv {
                    let at = &mut last[to.index() & 127];
                    c.after = (*at != u32::MAX).then_some(*at);
                    *at = (start + i) as u32;
                }
            }
        }
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
            if p.hit == crate::table::Hit::Miss {
                // An interposition that waits for an earlier one (refreshed before it) is
                // left out of the numbers: its look-ahead can wait too.
                let waits = !or_node
                    && c.after
                        .is_some_and(|j| still_waits(self.children[j as usize].out, or_node));
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

    /// The number of a child the table does not know (its proof number after a check, its
    /// disproof number after a reply). After a check, the proof number is the defender's
    /// number of replies (a one-ply look-ahead, as in df-pn+), so that checks leaving few
    /// replies are tried first; after a reply, with [`MateOptions::dn_lookahead`], the
    /// disproof number is the attacker's number of checks, so that replies leaving few
    /// checks are tried first. A move that leaves no reply (no check) starts at (1, 1): its
    /// own visit decides it and stores the result. (Storing the look-ahead as an open
    /// entry was measured: more nodes, not fewer.)
    fn initial_number(&mut self, pos: &Position<G>, c: &Child, or_node: bool) -> u32 {
        self.look_ahead(pos, c, or_node).unwrap_or(1)
    }

    /// [`Solver::initial_number`], or the child's final outcome when the look-ahead finds
    /// no move there: after a check, no reply is checkmate (proved, with its proof pieces);
    /// after a reply, no check is no mate (disproved, with its disproof pieces). So the
    /// leaves of a proof are decided where they are generated, without a visit of their own.
    fn look_ahead(&mut self, pos: &Position<G>, c: &Child, or_node: bool) -> Result<u32, Outcome> {
        if !or_node && !self.opts.dn_lookahead {
            return Ok(1);
        }
        let tag = if or_node { c.full } else { !c.full };
        let slot = (tag >> 3) as usize & (self.ahead.len() - 1);
        let (known, n) = self.ahead[slot];
        if known == tag && n > 0 {
            return Ok(n);
        }
        let mut next = pos.clone();
        next.play_unchecked(c.mv);
        let n = if or_node && self.opts.futile_interpositions {
            let mut list = MoveList::new();
            next.legal_moves(&mut list);
            if futile::only_futile_drops(&next, &list) {
                0
            } else {
                list.len() as u32
            }
        } else if or_node {
            next.count_moves().min(INF as u64 / 2) as u32
        } else {
            let mut list = MoveList::new();
            next.legal_checks(&mut list);
            list.len() as u32
        };
        if n > 0 {
            self.ahead[slot] = (tag, n);
            return Ok(n);
        }
        // The child is a node of the other kind.
        Err(self.without_moves(&next, !or_node, c.hand))
    }

    /// The outcome of a position without a move to search (`or_node`: the attacker's, with
    /// attacker hand `hand`): an attacker without a check has no mate, whatever it holds
    /// that cannot check; a defender without a reply is checkmated (pawn-drop mates were
    /// never generated as checks).
    fn without_moves(&self, pos: &Position<G>, or_node: bool, hand: PackedHand) -> Outcome {
        if or_node {
            let d = pieces::or_disproof(
                pos,
                PackedHand::new(&shogi_core::Hand([u8::MAX; 7])),
                self.opts.defender_hand,
            );
            self.final_disproof(d)
        } else {
            let p = pieces::and_proof(pos, PackedHand::EMPTY, self.opts.defender_hand);
            Outcome {
                pn: 0,
                dn: INF,
                pieces: self.proof_pieces(p, hand),
                len: 0,
                rep: NO_REP,
                bound: ANY_DEPTH,
            }
        }
    }

    /// The multiple-iterative-deepening step of df-pn at `pos` (depth `depth` on the path,
    /// the root at 1): searches until its proof number reaches `th_pn` or its disproof
    /// number `th_dn`, stores the result and returns it.
    fn mid(&mut self, pos: &Position<G>, th_pn: u32, th_dn: u32, depth: u32) -> Outcome {
        self.nodes += 1;
        if self.nodes >= self.opts.max_nodes {
            self.aborted = true;
        } else if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.aborted |= SearchControl::look(&self.control, self.nodes, self.table.fill());
        }
        let or_node = pos.side_to_move() == self.attacker;
        let key = self.node_key(pos);
        let hand = self.attacker_hand(pos);
        // Plies left to the depth limit: lines of at most `max_depth` plies are searched.
        let here = (self.opts.max_depth + 1)
            .saturating_sub(depth)
            .min(ANY_DEPTH as u32 - 1) as u16;
        let start = self.children.len();
        self.expand(pos, or_node);
        let end = self.children.len();
        if here == 0 && start != end {
            // At the depth limit with moves left: no mate within the limit. Stored with
            // its bound, so the parent sees it and other paths as deep reuse it.
            self.children.truncate(start);
            let out = Outcome {
                bound: 0,
                ..self.final_disproof(hand)
            };
            self.store(key, hand, &out, 1);
            return out;
        }
        let remaining = here.saturating_sub(1);
        let nodes_before = self.nodes;
        if start == end {
            let out = self.without_moves(pos, or_node, hand);
            self.store(key, hand, &out, 1);
            return out;
        }
        self.history.enter(pos.key(), depth);
        let tca_before = self.tca;
        let mut searched: Option<(usize, Outcome)> = None;
        let (mut pn, mut dn);
        loop {
            // Every child is looked up when the node is entered; after that only the one
            // searched changes, with those that wait for it (as KomoringHeights keeps a
            // node's children between searches). Others may meanwhile have been decided
            // through transpositions below: their numbers are then stale until the next
            // entry, which costs the search time, never soundness (a stale number is an
            // open one; final results do not change while the node is on the path).
            for i in start..end {
                match searched {
                    Some((j, out)) if j == i => self.children[i].out = out,
                    Some((j, _)) if self.children[i].after != Some(j as u32) => {}
                    _ => self.refresh(pos, or_node, i, remaining, depth),
                }
            }
            let all = &self.children;
            let numbers = all[start..end].iter().map(|c| {
                let waits = c.out.pn != 0
                    && c.out.dn != 0
                    && c.after
                        .is_some_and(|j| still_waits(all[j as usize].out, or_node));
                (!waits).then_some((c.out.pn, c.out.dn))
            });
            let (p, d, best, second) = aggregate_numbers(numbers, or_node);
            let best = start + best;
            pn = p;
            dn = d;
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
            let (cth_pn, cth_dn) = if or_node {
                (th_pn.min(widen(second)), sub_threshold(th_dn, dn, c.out.dn))
            } else {
                (sub_threshold(th_pn, pn, c.out.pn), th_dn.min(widen(second)))
            };
            if c.fresh {
                self.tca = self.tca.saturating_sub(1);
            }
            let mut next = pos.clone();
            next.play_unchecked(c.mv);
            let out = self.mid(&next, cth_pn, cth_dn, depth + 1);
            searched = Some((best, out));
        }
        self.tca = self.tca.min(tca_before);
        self.history.leave(pos.key());
        let amount = self.nodes - nodes_before + 1;
        let out = if pn == 0 {
            if or_node {
                self.proved_by = self.children[start..end]
                    .iter()
                    .filter(|c| c.out.pn == 0)
                    .min_by_key(|c| c.out.len)
                    .map(|c| c.mv);
            }
            self.proved(pos, start, end, or_node, hand)
        } else if dn == 0 {
            self.disproved(pos, start, end, or_node)
        } else {
            Outcome {
                pn,
                dn,
                pieces: hand,
                len: 0,
                rep: NO_REP,
                bound: ANY_DEPTH,
            }
        };
        self.children.truncate(start);
        if out.dn == 0 && out.rep < depth {
            // Rests on a position above this one: true while that position is on the path.
            let entry = self.history.rest_on(out.rep, depth, out.bound);
            self.rep_table.insert(pos.key(), entry);
            return out;
        }
        let out = Outcome { rep: NO_REP, ..out };
        self.store(key, hand, &out, amount);
        out
    }

    /// The outcome of a proved node: proof pieces and mate length (docs/METHOD.md §12).
    fn proved(
        &self,
        pos: &Position<G>,
        start: usize,
        end: usize,
        or_node: bool,
        hand: PackedHand,
    ) -> Outcome {
        let kids = &self.children[start..end];
        if or_node {
            // The proved check with the fewest proof pieces, then the shortest mate.
            let (p, len) = kids
                .iter()
                .filter(|c| c.out.pn == 0)
                .map(|c| {
                    (
                        pieces::before(c.mv, c.captured, c.out.pieces),
                        c.out.len.saturating_add(1),
                    )
                })
                .min_by_key(|(p, len)| (p.total(), *len))
                .expect("a proved OR node has a proved child");
            Outcome {
                pn: 0,
                dn: INF,
                pieces: self.proof_pieces(p, hand),
                len,
                rep: NO_REP,
                bound: ANY_DEPTH,
            }
        } else {
            let union = kids
                .iter()
                .fold(PackedHand::EMPTY, |u, c| u.union(c.out.pieces));
            let len = kids.iter().map(|c| c.out.len).max().unwrap_or(0);
            let p = pieces::and_proof(pos, union, self.opts.defender_hand);
            Outcome {
                pn: 0,
                dn: INF,
                pieces: self.proof_pieces(p, hand),
                len: len.saturating_add(1),
                rep: NO_REP,
                bound: ANY_DEPTH,
            }
        }
    }

    /// The outcome of a disproved node: disproof pieces and the repetition it rests on.
    fn disproved(&self, pos: &Position<G>, start: usize, end: usize, or_node: bool) -> Outcome {
        let kids = &self.children[start..end];
        if or_node {
            let mut d = PackedHand::new(&shogi_core::Hand([u8::MAX; 7]));
            let mut rep = NO_REP;
            let mut bound = ANY_DEPTH;
            for c in kids {
                d = d.intersection(pieces::before(c.mv, c.captured, c.out.pieces));
                rep = rep.min(c.out.rep);
                bound = bound.min(c.out.bound);
            }
            let d = pieces::or_disproof(pos, d, self.opts.defender_hand);
            Outcome {
                rep,
                bound: deeper(bound),
                ..self.final_disproof(d)
            }
        } else {
            // The refutation that rests on no repetition if there is one, then the one
            // with the most disproof pieces.
            let c = kids
                .iter()
                .filter(|c| c.out.dn == 0)
                .max_by_key(|c| (c.out.rep, c.out.bound, c.out.pieces.total()))
                .expect("a disproved AND node has a disproved child");
            let d = pieces::and_disproof(pos, c.mv, c.out.pieces, self.opts.defender_hand);
            Outcome {
                rep: c.out.rep,
                bound: deeper(c.out.bound),
                ..self.final_disproof(d)
            }
        }
    }

    /// Proof pieces as stored: without superiority, the whole hand.
    fn proof_pieces(&self, p: PackedHand, hand: PackedHand) -> PackedHand {
        if self.opts.superiority {
            p
        } else {
            hand
        }
    }

    fn final_disproof(&self, d: PackedHand) -> Outcome {
        Outcome {
            pn: INF,
            dn: 0,
            pieces: d,
            len: 0,
            rep: NO_REP,
            bound: ANY_DEPTH,
        }
    }

    fn store(&mut self, key: u64, hand: PackedHand, out: &Outcome, amount: u64) {
        let stored = if (out.pn == 0 || out.dn == 0) && self.opts.superiority {
            out.pieces
        } else {
            hand
        };
        // A disproof keeps its depth bound where a proof keeps its length.
        let len = if out.dn == 0 { out.bound } else { out.len };
        self.table.store(key, stored, out.pn, out.dn, len, amount);
    }

    /// A line of the proof found, by minimax over the proved positions in the table
    /// ([`Solver::plan_line`]): at attacker nodes the proved check with the shortest line,
    /// at defender nodes the reply with the longest, so that the line is never shorter
    /// than the shortest forced mate nor longer than the depth limit. (The lengths stored
    /// in the table are those of the proofs as they were found, and a shorter mate proved
    /// later undercuts them: a defender choosing by them could walk into a line shorter
    /// than the shortest forced mate.) When the planning runs out (a proof the line needs
    /// was removed and searching it again failed), [`Solver::walk_stored`] walks the stored
    /// lengths and searches such nodes again: a legal mating line whose length then bounds
    /// nothing. The flag says which.
    fn extract_line(&mut self, root: &Position<G>) -> Option<(Vec<Move>, bool)> {
        let mut plan = PlanState::default();
        if self
            .plan_line(root, self.opts.max_depth, &mut plan)
            .is_none()
        {
            return self.walk_stored(root).map(|line| (line, false));
        }
        let mut pos = root.clone();
        let mut line = Vec::new();
        // Each planned move leads to a position planned one ply shorter: the walk ends.
        while let Some(&Planned::Line(_, Some(mv))) = plan.plan.get(&pos.key()) {
            line.push(mv);
            pos.play_unchecked(mv);
        }
        Some((line, true))
    }

    /// The length of the line [`Solver::extract_line`] plays from `pos`, at most
    /// `remaining` plies, by minimax over the proved positions in the table, with the move
    /// chosen at each position recorded in `plan`: at attacker nodes the proved check whose
    /// line is the shortest, at defender nodes the reply (every one planned) whose line is
    /// the longest. Taking the defender's longest everywhere makes the line at least as
    /// long as the shortest forced mate, and the proof found is among the lines compared,
    /// so the line is no longer than it. An attacker node none of whose checks the table
    /// still proves (entries replaced) is searched again, with the plies left there.
    /// `None` when there is no such line within `remaining` plies: a proof is missing (and
    /// the node limit or the number of searches ran out), the lines are longer, or they
    /// cycle.
    fn plan_line(&mut self, pos: &Position<G>, remaining: u32, st: &mut PlanState) -> Option<u32> {
        let full = pos.key();
        match st.plan.get(&full) {
            Some(&Planned::Line(n, _)) => return (n <= remaining).then_some(n),
            Some(&Planned::Longer(r)) if remaining <= r => return None,
            _ => {}
        }
        if st.path.contains_key(&full) {
            return None;
        }
        let or_node = pos.side_to_move() == self.attacker;
        let mut moves = self.proved_children(pos, or_node);
        if moves.is_empty() {
            if or_node || !self.mated(pos) {
                st.plan.insert(full, Planned::Longer(u32::MAX));
                return None;
            }
            st.plan.insert(full, Planned::Line(0, None));
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
                || remaining + st.keys.len() as u32 >= self.opts.max_depth;
            self.keep_planned_checks(pos, &mut moves, remaining, st);
            let within = || {
                self.table
                    .shortest_proof(self.node_key(pos), self.attacker_hand(pos))
                    .is_some_and(|len| u32::from(len) <= remaining)
            };
            if moves.is_empty() && (lost || within()) {
                moves = self.plan_search(pos, remaining, st);
            }
            best = self.plan_moves(pos, &moves, remaining, or_node, st);
        } else if remaining > 0 {
            // At a defender node every reply is planned, whether or not the table still
            // holds its proof: the attacker node it leads to searches it again if need be.
            best = self.plan_moves(pos, &moves, remaining, or_node, st);
        }
        match best {
            Some((n, mv)) => {
                st.plan.insert(full, Planned::Line(n + 1, Some(mv)));
                Some(n + 1)
            }
            None => {
                // No line within `remaining` plies (or, on a cycle, none found from here).
                st.plan.insert(full, Planned::Longer(remaining));
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
    fn keep_planned_checks(
        &self,
        pos: &Position<G>,
        moves: &mut Vec<(bool, u16, Move)>,
        remaining: u32,
        st: &PlanState,
    ) {
        let board_key = pos.board_key();
        moves.retain(|m| {
            m.0 && u32::from(m.1) < remaining
                && !st
                    .path
                    .contains_key(&self.child_keys(pos, m.2, board_key).0)
        });
        moves.sort_by_key(|m| m.1);
    }

    /// Searches the attacker node `pos` of the plan again, `remaining` plies from the end
    /// of the line: as deep in the depth limit as it stands there, with the path of the
    /// plan above it as the search's path (so that the proof found does not pass through
    /// it; a proof rests on no repetition, so it holds off this path too). Returns its
    /// proved checks (with the one that proved it, even if its entry is lost again), or
    /// none when it does not prove within the limits.
    fn plan_search(
        &mut self,
        pos: &Position<G>,
        remaining: u32,
        st: &mut PlanState,
    ) -> Vec<(bool, u16, Move)> {
        if remaining == 0 || self.aborted || st.searches >= MAX_PLAN_SEARCHES {
            return Vec::new();
        }
        st.searches += 1;
        let depth = self.opts.max_depth + 1 - remaining;
        let on_path = st.keys.len() as u32;
        if depth > on_path {
            self.history.pad_to(depth - on_path);
            for (i, &k) in st.keys.iter().enumerate() {
                self.history.enter(k, depth - on_path + i as u32);
            }
        } else {
            self.history.pad_to(depth);
        }
        self.proved_by = None;
        let proved = self.mid(pos, INF, INF, depth).pn == 0;
        for &k in &st.keys {
            self.history.leave(k);
        }
        if !proved {
            return Vec::new();
        }
        let mut moves = self.proved_children(pos, true);
        self.keep_planned_checks(pos, &mut moves, remaining, st);
        if let Some(mv) = self.proved_by {
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
        moves: &[(bool, u16, Move)],
        remaining: u32,
        or_node: bool,
        st: &mut PlanState,
    ) -> Option<(u32, Move)> {
        if remaining == 0 || moves.is_empty() {
            return None;
        }
        let full = pos.key();
        let mut best: Option<(u32, Move)> = None;
        st.path.insert(full, st.path.len() as u32);
        st.keys.push(full);
        for &(_, _, mv) in moves {
            // At an attacker node only a shorter line than the best so far matters.
            let limit = match best {
                Some((0, _)) if or_node => break,
                Some((b, _)) if or_node => b - 1,
                _ => remaining - 1,
            };
            let mut next = pos.clone();
            next.play_unchecked(mv);
            match self.plan_line(&next, limit, st) {
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
        st.path.remove(&full);
        st.keys.pop();
        best
    }

    /// The moves of `pos` the search would try (checks at attacker nodes, every legal
    /// move at defender nodes), each with whether the table proves the position it leads
    /// to and the stored mate length.
    fn proved_children(&mut self, pos: &Position<G>, or_node: bool) -> Vec<(bool, u16, Move)> {
        let start = self.children.len();
        self.expand(pos, or_node);
        let end = self.children.len();
        let mut moves = Vec::with_capacity(end - start);
        for i in start..end {
            let c = self.children[i];
            let len = self.table.shortest_proof(c.key, c.hand);
            moves.push((len.is_some(), len.unwrap_or(u16::MAX), c.mv));
        }
        self.children.truncate(start);
        moves
    }

    /// The walk of the stored lengths: at attacker nodes the proved check with the
    /// shortest stored mate, at defender nodes the reply with the longest, each strictly
    /// shorter than the last so the walk ends. A node the table no longer proves (its
    /// entry was replaced) is searched again.
    fn walk_stored(&mut self, root: &Position<G>) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut bound = u16::MAX;
        let mut retries = 0;
        while line.len() <= self.opts.max_depth as usize {
            let or_node = pos.side_to_move() == self.attacker;
            let start = self.children.len();
            self.expand(&pos, or_node);
            let end = self.children.len();
            if start == end {
                self.children.truncate(start);
                return (!or_node && self.mated(&pos)).then_some(line);
            }
            for i in start..end {
                // Repetition marks belong to the search's paths, not to this walk.
                self.children[i].repeats = None;
                let c = self.children[i];
                let mut p = self.table.probe(c.key, c.hand, ANY_DEPTH);
                if p.pn == 0 {
                    p.len = self.table.shortest_proof(c.key, c.hand).unwrap_or(p.len);
                }
                self.children[i].out = if p.hit == crate::table::Hit::Miss {
                    let pn = if or_node {
                        self.initial_number(&pos, &c, or_node)
                    } else {
                        1
                    };
                    Outcome::open(pn, c.hand)
                } else {
                    Outcome::from_probe(p)
                };
            }
            let kids = &self.children[start..end];
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
            self.children.truncate(start);
            match pick {
                Some(c) => {
                    bound = c.out.len;
                    line.push(c.mv);
                    pos.play_unchecked(c.mv);
                }
                None => {
                    // Search this node again (its proof was overwritten), then retry.
                    retries += 1;
                    if retries > 64 || self.aborted {
                        return None;
                    }
                    self.history.clear();
                    let out = self.mid(&pos, INF, INF, 1);
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
}

/// The depth bound of a disproof one ply above one with bound `b`.
#[inline]
pub(crate) fn deeper(b: u16) -> u16 {
    if b == ANY_DEPTH {
        ANY_DEPTH
    } else {
        (b + 1).min(ANY_DEPTH - 1)
    }
}

/// Whether a move that waits for another ([`MateOptions::delay`]) still waits, `first`
/// being what is known of the one it waits for: an interposition waits until the one before
/// it is proved, a check without promotion until the promotion is disproved.
#[inline]
fn still_waits(first: Outcome, or_node: bool) -> bool {
    if or_node {
        first.dn != 0
    } else {
        first.pn != 0
    }
}

/// Proof and disproof numbers of a node from its children's `(pn, dn)` (`None`: a child
/// that waits, left out), with the index of the child to search and the second-best
/// number. At an OR node the proof number is the least child's and the disproof number the
/// sum, clamped below infinity (a large sum is no disproof); at an AND node the other way
/// round.
pub(crate) fn aggregate_numbers(
    children: impl Iterator<Item = Option<(u32, u32)>>,
    or_node: bool,
) -> (u32, u32, usize, u32) {
    let mut least = INF;
    let mut second = INF;
    let mut best = 0;
    let mut sum: u64 = 0;
    let mut largest = 0;
    for (i, numbers) in children.enumerate() {
        let Some((pn, dn)) = numbers else {
            continue;
        };
        let (mine, other) = if or_node { (pn, dn) } else { (dn, pn) };
        if mine < least {
            second = least;
            least = mine;
            best = i;
        } else if mine < second {
            second = mine;
        }
        if other >= SUM_LIMIT {
            largest = largest.max(other);
        } else {
            sum += other as u64;
        }
    }
    let sum = if least == 0 {
        INF
    } else {
        (sum + largest as u64).min(INF as u64 - 1) as u32
    };
    if or_node {
        (least, sum, best, second)
    } else {
        (sum, least, best, second)
    }
}

/// Children whose number is this large count by their maximum, not their sum. In cycles a
/// node's number is summed from its descendants' stored numbers, which were summed from
/// its own: summing grows them geometrically until they stick just under infinity, where
/// the thresholds stop telling the search anything (a position with a cycle of checks
/// then runs to the node limit in a few thousand positions). Counting the large ones by
/// their maximum grows them additively.
pub(crate) const SUM_LIMIT: u32 = INF / 1024;

/// The threshold for the second-best child plus a quarter: the widening (1 + ε with
/// ε = 1/4) that keeps df-pn from switching back and forth between two close children.
#[inline]
pub(crate) fn widen(second: u32) -> u32 {
    let w = second as u64 + second as u64 / 4 + 1;
    w.min(INF as u64 - 1) as u32
}

/// The threshold passed to the child searched at a node whose own number is `own` against
/// threshold `th`: the child may grow until the node reaches its threshold.
#[inline]
pub(crate) fn sub_threshold(th: u32, own: u32, child: u32) -> u32 {
    if th == INF {
        return INF;
    }
    let t = th as u64 + child as u64 - own as u64;
    t.min(INF as u64 - 1) as u32
}

/// Whether the defender to move in `pos` (in check) is mated: checkmate, or with
/// `futile_interpositions` only futile drops left ([`MateOptions::futile_interpositions`]).
fn mated<G: Game>(pos: &Position<G>, futile_interpositions: bool) -> bool {
    if futile_interpositions {
        futile::mated_with_futile_drops(pos)
    } else {
        pos.is_checkmate()
    }
}

/// Checks a claimed mating line from `root`: every move legal, every attacker move a
/// check, the defender never left without a reply before the end, and the last position
/// checkmate. Returns what is wrong otherwise.
pub fn verify_line<G: Game>(root: &Position<G>, line: &[Move]) -> Result<(), String> {
    verify_line_with(root, line, false)
}

/// [`verify_line`], where with `futile_interpositions` the last position may also be one
/// whose only replies are futile interpositions ([`MateOptions::futile_interpositions`]).
pub fn verify_line_with<G: Game>(
    root: &Position<G>,
    line: &[Move],
    futile_interpositions: bool,
) -> Result<(), String> {
    if line.len().is_multiple_of(2) {
        return Err(format!(
            "a mate has an odd number of plies, not {}",
            line.len()
        ));
    }
    let attacker = root.side_to_move();
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        if !pos.is_legal(mv) {
            return Err(format!("ply {}: {} is not legal", i + 1, mv.to_usi::<G>()));
        }
        let mover = pos.side_to_move();
        pos.play_unchecked(mv);
        if mover == attacker && !pos.in_check(!attacker) {
            return Err(format!(
                "ply {}: {} gives no check",
                i + 1,
                mv.to_usi::<G>()
            ));
        }
    }
    if mated(&pos, futile_interpositions) {
        Ok(())
    } else {
        Err("the last position is not checkmate".into())
    }
}
