//! Legal move generation, move counting and perft.
//!
//! The generator hands out *sets* of moves to a sink: one piece and all its legal
//! destinations, or one hand kind and all its legal drop squares. Perft counts a leaf's
//! moves with a few popcounts instead of materialising them; the list sink expands each
//! set into moves, including both the promotion and the (optional) non-promotion.

use crate::attacks::attacks;
use crate::{Bitboard, Color, Game, Move, PieceKind, Position, Square};
use arrayvec::ArrayVec;

/// The capacity of a [`MoveList`]: at least as many moves as any [`Position`] of either game
/// can have, so generation never overflows.
///
/// The bound follows from the invariants of a position (one king each, no kind with more
/// pieces than the game has), whatever relaxed rules it breaks. Let `m(k)` be the most moves
/// one piece of basic kind `k` can have: the most destinations of `k` or of its promoted form
/// on an empty board, doubled for a form that may promote (each destination may be reached
/// with and without promotion). All `s(k)` pieces of the kind may belong to the side to
/// move; if one or more are in its hand, they add at most `SQUARES - 2` drops (the kings
/// occupy two squares) and at most `s(k) - 1` are on the board. So the side to move has at
/// most `m(King) + Σ_k max(s(k) m(k), SQUARES - 2 + (s(k) - 1) m(k))` legal moves: 841 in
/// Shogi (tokins count 6 moves each, more than a pawn's 2) and 177 in Mini Shogi. The test
/// `max_moves_bounds_every_position` computes it from the game's tables. The most found in
/// a legal Shogi position is 593.
pub const MAX_MOVES: usize = 848;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The bound of [`MAX_MOVES`] for game `G`, computed from its attack tables and material.
#[cfg(test)]
pub(crate) fn move_bound<G: Game>() -> usize {
    use crate::{Color, Position};
    let t = G::tables();
    let empty = Position::<G>::empty();
    let most_destinations = |kind: PieceKind| -> usize {
        (0..G::SQUARES as u8)
            .filter_map(Square::from_index)
            .map(|sq| (attacks::<G>(Color::Black, kind, sq, empty.occupied()) & t.board).count())
            .max()
            .unwrap_or(0) as usize
    };
    let per_piece = |kind: PieceKind| -> usize {
        let plain = most_destinations(kind) * if kind.can_promote() { 2 } else { 1 };
        let promoted = kind.promoted().map_or(0, most_destinations);
        plain.max(promoted)
    };
    let mut bound = per_piece(PieceKind::King);
    for kind in PieceKind::HAND {
        let s = G::MATERIAL.get(kind) as usize;
        if s > 0 {
            let m = per_piece(kind);
            bound += (s * m).max(G::SQUARES - 2 + (s - 1) * m);
        }
    }
    bound
}

/// Which pawn drops leaving the opponent no legal reply are illegal (docs/METHOD.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PawnDropRule {
    /// The usual rule (and the authors' code): illegal only when the pawn gives check
    /// (drop-pawn-mate, uchifuzume). A pawn drop that stalemates is legal.
    #[default]
    MateOnly,
    /// The paper's stated reading: illegal whenever the opponent has no legal reply,
    /// whether or not the pawn gives check.
    NoLegalReply,
}

impl PawnDropRule {
    /// Both readings, the usual one first.
    pub const ALL: [PawnDropRule; 2] = [PawnDropRule::MateOnly, PawnDropRule::NoLegalReply];

    /// The name on the command line and in files: `mate` or `no-reply`.
    pub const fn name(self) -> &'static str {
        match self {
            PawnDropRule::MateOnly => "mate",
            PawnDropRule::NoLegalReply => "no-reply",
        }
    }

    /// One line on the reading, for help texts.
    pub const fn help(self) -> &'static str {
        match self {
            PawnDropRule::MateOnly => {
                "A pawn drop is illegal when it checks and mates (the usual rule)"
            }
            PawnDropRule::NoLegalReply => {
                "A pawn drop is illegal whenever it leaves no legal reply (the paper's reading)"
            }
        }
    }
}

/// Rule options. The default is the usual rule set used by perft and other engines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The drop-pawn-mate reading.
    pub pawn_drop: PawnDropRule,
}

/// Receives sets of legal moves; returning `true` stops the generation early.
pub(crate) trait MoveSink {
    /// `kind` (its colour is the side to move) on `from` can move to every square of `to`;
    /// the sink decides on promotions with [`Expand`].
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool;
    /// A piece of `kind` can be dropped on every square of `to`.
    fn drops(&mut self, kind: PieceKind, to: Bitboard) -> bool;
    /// A piece of each of `kinds` (in [`PieceKind::HAND`] order) can be dropped on every
    /// square of `to`: the kinds of [`ALIKE_DROPS`] share their targets, so that a
    /// counting sink counts them once.
    #[inline(always)]
    fn drops_alike(&mut self, kinds: &[PieceKind], to: Bitboard) -> bool {
        kinds.iter().any(|&kind| self.drops(kind, to))
    }
    /// Whether the sink has any use for the moves of the king on `king`: finding its safe
    /// squares is the dearest part of the generation, and a check generator needs them
    /// only when the king's leaving uncovers a check.
    #[inline(always)]
    fn wants_king_moves(&self, _king: Square) -> bool {
        true
    }
    /// Whether the sink takes the moves of all pawns that are not pinned as one set
    /// ([`MoveSink::pawn_pushes`]) instead of pawn by pawn: for a sink that never asks
    /// which pawn moves (a count), which saves a lookup and a count per pawn.
    const PAWNS_AT_ONCE: bool = false;
    /// Pawns can move to every square of `to`, each from the square behind it. Called
    /// only when [`MoveSink::PAWNS_AT_ONCE`] is set.
    #[inline(always)]
    fn pawn_pushes(&mut self, _to: Bitboard, _ex: &Expand) -> bool {
        unreachable!("pawn_pushes is called only for a sink with PAWNS_AT_ONCE")
    }
}

/// The hand kinds with no dead square (a square where the piece could never move), in
/// [`PieceKind::HAND`] order: wherever one may be dropped, so may the others.
const ALIKE_DROPS: [PieceKind; 4] = [
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// What a sink needs to split destinations into promotions and non-promotions.
pub(crate) struct Expand {
    zone: Bitboard,
    dead: [Bitboard; PieceKind::HAND_COUNT],
}

impl Expand {
    /// `(non-promotion targets, promotion targets)` of `kind` moving from `from` to `to`.
    #[inline(always)]
    pub(crate) fn split(
        &self,
        from: Square,
        kind: PieceKind,
        to: Bitboard,
    ) -> (Bitboard, Bitboard) {
        if !kind.can_promote() {
            return (to, Bitboard::EMPTY);
        }
        let promo = if self.zone.has(from) {
            to
        } else {
            to & self.zone
        };
        (to & !self.dead[kind.index()], promo)
    }

    /// [`Expand::split`] for pieces of a `kind` that may promote, each moving straight
    /// forward from wherever it stands: a move from the zone stays in it, so the
    /// promotions are the targets in the zone whatever the origins.
    #[inline(always)]
    pub(crate) fn split_forward(&self, kind: PieceKind, to: Bitboard) -> (Bitboard, Bitboard) {
        (to & !self.dead[kind.index()], to & self.zone)
    }
}

/// Every square of the files holding a pawn of `pawns`: where no further pawn may be
/// dropped. A file is a run of `H` bits (squares are `x * H + y`), so this takes a few word
/// operations where a loop over the pawns took one file lookup each (and a division to
/// find the file). No per-file sum carries into the next file: the low `H - 1` bits of a
/// file plus the same bits all set stay below `2^H`.
#[inline(always)]
pub(crate) fn pawn_files<G: Game>(pawns: Bitboard) -> Bitboard {
    let ends = const { file_ends(G::WIDTH, G::HEIGHT) };
    let rest = G::tables().board.0 & !ends;
    // The end bit of each file with a pawn.
    let hit = (pawns.0 | ((pawns.0 & rest) + rest)) & ends;
    // From each such end bit down to its file's first bit, `H - 1` below: the subtraction
    // borrows only inside each file.
    Bitboard(hit | (hit - (hit >> (G::HEIGHT - 1))))
}

/// The last square of every file (rank `i` in Shogi, `e` in Mini Shogi): the top bit of
/// each file's run of `h` bits.
const fn file_ends(w: u8, h: u8) -> u128 {
    let mut ends = 0;
    let mut x = 0;
    while x < w as u32 {
        ends |= 1 << (x * h as u32 + h as u32 - 1);
        x += 1;
    }
    ends
}

/// Lists the promotions to `promo` and the plain moves to `plain` of the piece on `from`.
#[inline(always)]
fn push_board_moves(list: &mut MoveList, from: Square, promo: Bitboard, plain: Bitboard) {
    for to in promo {
        list.push(Move::Normal {
            from,
            to,
            promote: true,
        });
    }
    for to in plain {
        list.push(Move::Normal {
            from,
            to,
            promote: false,
        });
    }
}

/// Lists the drops of `kind` on `to`.
#[inline(always)]
fn push_drops(list: &mut MoveList, kind: PieceKind, to: Bitboard) {
    for to in to {
        list.push(Move::Drop { kind, to });
    }
}

struct ListSink<'a>(&'a mut MoveList);

impl MoveSink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promo) = ex.split(from, kind, to);
        push_board_moves(self.0, from, promo, plain);
        false
    }
    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) -> bool {
        push_drops(self.0, kind, to);
        false
    }
}

/// Keeps only the moves that give check: a destination from which the moved (or
/// promoted, or dropped) piece attacks the enemy king, or any destination off the line of a
/// piece whose leaving uncovers one of the mover's sliders.
struct CheckSink<'a> {
    list: &'a mut MoveList,
    /// `checks[kind]`: the squares from which a piece of the mover's `kind` attacks the
    /// enemy king (the enemy's same kind attacks them from the king).
    checks: [Bitboard; PieceKind::COUNT],
    /// Pieces of the mover that alone block one of its sliders from the enemy king.
    discoverers: Bitboard,
    /// The line through the enemy king and each square (for discovered checks).
    king_lines: &'static [Bitboard; crate::geometry::MAX_SQUARES],
}

impl MoveSink for CheckSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promo) = ex.split(from, kind, to);
        let uncovered = if self.discoverers.has(from) {
            !self.king_lines[from.index()]
        } else {
            Bitboard::EMPTY
        };
        let promoted = kind.promoted().unwrap_or(kind);
        push_board_moves(
            self.list,
            from,
            promo & (self.checks[promoted.index()] | uncovered),
            plain & (self.checks[kind.index()] | uncovered),
        );
        false
    }
    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) -> bool {
        push_drops(self.list, kind, to & self.checks[kind.index()]);
        false
    }
    #[inline(always)]
    fn wants_king_moves(&self, king: Square) -> bool {
        // A king never attacks a king: only a king that uncovers a slider checks.
        self.discoverers.has(king)
    }
}

struct CountSink(u64);

impl MoveSink for CountSink {
    #[inline(always)]
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promo) = ex.split(from, kind, to);
        self.0 += plain.count() as u64;
        // Most pieces stand and move outside the zone: without a hardware popcount (the
        // portable build) a test is much cheaper than counting an empty set.
        if promo.is_nonempty() {
            self.0 += promo.count() as u64;
        }
        false
    }
    #[inline(always)]
    fn drops(&mut self, _kind: PieceKind, to: Bitboard) -> bool {
        self.0 += to.count() as u64;
        false
    }
    #[inline(always)]
    fn drops_alike(&mut self, kinds: &[PieceKind], to: Bitboard) -> bool {
        self.0 += u64::from(to.count()) * kinds.len() as u64;
        false
    }
    const PAWNS_AT_ONCE: bool = true;
    #[inline(always)]
    fn pawn_pushes(&mut self, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promo) = ex.split_forward(PieceKind::Pawn, to);
        self.0 += plain.count() as u64;
        if promo.is_nonempty() {
            self.0 += promo.count() as u64;
        }
        false
    }
}

struct AnySink;

impl MoveSink for AnySink {
    #[inline(always)]
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promo) = ex.split(from, kind, to);
        (plain | promo).is_nonempty()
    }
    #[inline(always)]
    fn drops(&mut self, _kind: PieceKind, to: Bitboard) -> bool {
        to.is_nonempty()
    }
}

impl<G: Game> Position<G> {
    /// Appends every legal move (usual rules) to `list`.
    pub fn legal_moves(&self, list: &mut MoveList) {
        self.legal_moves_with(Rules::default(), list);
    }

    /// Appends every legal move under `rules` to `list`.
    pub fn legal_moves_with(&self, rules: Rules, list: &mut MoveList) {
        self.generate(rules, &mut ListSink(list));
    }

    /// Appends every legal move (usual rules) that gives check to `list`: what a mate
    /// search's attacker may play. Cheaper than filtering [`Position::legal_moves`], since
    /// only destinations that attack the enemy king (or uncover an attack) are listed.
    /// Nothing is appended when the opponent has no king.
    pub fn legal_checks(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = !us;
        let Some(king) = self.king(them) else {
            return;
        };
        let occ = self.occupied();
        let mut checks = [Bitboard::EMPTY; PieceKind::COUNT];
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                checks[kind.index()] = attacks::<G>(them, kind, king, occ);
            }
        }
        let mut sink = CheckSink {
            list,
            checks,
            discoverers: self.blockers_to(king, them) & self.by_color(us),
            king_lines: &G::tables().line[king.index()],
        };
        self.generate(Rules::default(), &mut sink);
    }

    /// The legal moves (usual rules) as a new list.
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list
    }

    /// The number of legal moves (usual rules), counted without listing them.
    pub fn count_moves(&self) -> u64 {
        self.count_moves_with(Rules::default())
    }

    /// The number of legal moves under `rules`.
    pub fn count_moves_with(&self, rules: Rules) -> u64 {
        let mut sink = CountSink(0);
        self.generate(rules, &mut sink);
        sink.0
    }

    /// Whether the side to move has at least one legal move under `rules`.
    pub fn has_legal_move(&self, rules: Rules) -> bool {
        self.generate(rules, &mut AnySink)
    }

    /// Whether `mv` is a legal move here (usual rules).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_with(Rules::default(), mv)
    }

    /// Whether `mv` is a legal move here under `rules`.
    pub fn is_legal_with(&self, rules: Rules, mv: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves_with(rules, &mut list);
        list.contains(&mv)
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.checkers().is_nonempty() && !self.has_legal_move(Rules::default())
    }

    /// The core generator: feeds every legal move set to `sink`. Returns `true` when the
    /// sink stopped it.
    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(&self, rules: Rules, sink: &mut S) -> bool {
        let t = G::tables();
        let us = self.side_to_move();
        let them = !us;
        let ours = self.by_color(us);
        // A king is never captured: in an (illegal) position where one could be, that
        // capture is no move, so enemy kings are excluded from every target set.
        let not_targets = ours | self.pieces(them, PieceKind::King);
        let occ = self.occupied();
        let ex = Expand {
            zone: t.zone[us.index()],
            dead: t.dead[us.index()],
        };
        let king = self.king(us);
        let mut checkers = Bitboard::EMPTY;
        let mut pinned = Bitboard::EMPTY;
        if let Some(k) = king {
            let (sliding, blockers) = self.slider_lines(k, us);
            checkers = self.step_attackers_to(k, them) | sliding;
            pinned = blockers & ours;
            // The king must not stay on a line it is checked along: look through it. The
            // attacks on the king's few target squares are found from the attackers' side:
            // the sliders that can reach them, and the step movers near the king.
            if sink.wants_king_moves(k) {
                let area = t.pseudo(us, PieceKind::King, k) & !not_targets;
                let to = area
                    & !self.slider_attacks_on(area, them, occ.without(k))
                    & !self.step_attacks_on(k, area, them);
                if to.is_nonempty() && sink.piece(k, PieceKind::King, to, &ex) {
                    return true;
                }
            }
            if checkers.more_than_one() {
                return false;
            }
        }
        let (targets, drop_targets) = match (king, checkers.first()) {
            (Some(k), Some(c)) => {
                let between = t.between[k.index()][c.index()];
                ((between | checkers) & !not_targets, between)
            }
            _ => (t.board & !not_targets, t.board & !occ),
        };

        let pinned_line = |from: Square| match king {
            Some(k) if pinned.has(from) => t.line[k.index()][from.index()],
            _ => t.board,
        };
        macro_rules! gen_kind {
            ($pieces:expr, $kind:expr) => {
                for from in $pieces {
                    let to = attacks::<G>(us, $kind, from, occ) & targets & pinned_line(from);
                    if to.is_nonempty() && sink.piece(from, $kind, to, &ex) {
                        return true;
                    }
                }
            };
        }
        let pawns = self.pieces(us, PieceKind::Pawn);
        if S::PAWNS_AT_ONCE && pawns.is_nonempty() {
            // A pawn moves one square forward, one index down for Black and up for White:
            // the pawns' set shifted by one. A pawn on its last rank (a relaxed position)
            // has no move, and shifting it would wrap into the next file: it is left out.
            let free = pawns & !pinned & !t.dead[us.index()][PieceKind::Pawn.index()];
            let pushed = Bitboard(match us {
                Color::Black => free.0 >> 1,
                Color::White => free.0 << 1,
            }) & targets;
            if pushed.is_nonempty() && sink.pawn_pushes(pushed, &ex) {
                return true;
            }
            gen_kind!(pawns & pinned, PieceKind::Pawn);
        } else {
            gen_kind!(pawns, PieceKind::Pawn);
        }
        gen_kind!(self.pieces(us, PieceKind::Lance), PieceKind::Lance);
        gen_kind!(self.pieces(us, PieceKind::Knight), PieceKind::Knight);
        gen_kind!(self.pieces(us, PieceKind::Silver), PieceKind::Silver);
        gen_kind!(self.gold_movers() & ours, PieceKind::Gold);
        gen_kind!(self.pieces(us, PieceKind::Bishop), PieceKind::Bishop);
        gen_kind!(self.pieces(us, PieceKind::Rook), PieceKind::Rook);
        gen_kind!(self.pieces(us, PieceKind::Horse), PieceKind::Horse);
        gen_kind!(self.pieces(us, PieceKind::Dragon), PieceKind::Dragon);

        let hand = self.hand(us);
        if drop_targets.is_empty() || hand.is_empty() {
            return false;
        }
        for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut to = drop_targets & !t.dead[us.index()][kind.index()];
            if kind == PieceKind::Pawn {
                to &= !pawn_files::<G>(self.pieces(us, PieceKind::Pawn));
                to = self.without_illegal_pawn_drops(rules, to);
            }
            if to.is_nonempty() && sink.drops(kind, to) {
                return true;
            }
        }
        // Silver, gold, bishop and rook have no dead square: they share one target set.
        let mut alike = ArrayVec::<PieceKind, 4>::new();
        for kind in ALIKE_DROPS {
            if hand.count(kind) > 0 {
                alike.push(kind);
            }
        }
        !alike.is_empty() && sink.drops_alike(&alike, drop_targets)
    }

    /// Removes from `to` the pawn drops forbidden by the drop-pawn-mate rule.
    #[inline(always)]
    fn without_illegal_pawn_drops(&self, rules: Rules, mut to: Bitboard) -> Bitboard {
        let us = self.side_to_move();
        if let Some(ek) = self.king(!us) {
            // The one square from which a pawn of ours checks their king.
            let check_sq = G::tables().pseudo(!us, PieceKind::Pawn, ek) & to;
            if let Some(s) = check_sq.first() {
                if self.pawn_drop_mates(s, ek) {
                    to = to.without(s);
                }
            }
        }
        if rules.pawn_drop == PawnDropRule::NoLegalReply {
            for s in to {
                let mut after = self.clone();
                after.play_unchecked(Move::Drop {
                    kind: PieceKind::Pawn,
                    to: s,
                });
                if !after.has_legal_move(rules) {
                    to = to.without(s);
                }
            }
        }
        to
    }

    /// Whether a pawn of the side to move dropped on `s`, checking the enemy king on `ek`,
    /// would be mate: the king has no safe square and no other piece can legally take it.
    /// (The check is adjacent, so nothing can interpose.)
    fn pawn_drop_mates(&self, s: Square, ek: Square) -> bool {
        let t = G::tables();
        let us = self.side_to_move();
        let them = !us;
        let occ = self.occupied().with(s);
        // King escapes, the pawn's own square included, found from the attackers' side as
        // for the king's moves (the pawn itself, not yet on the board, attacks only `ek`).
        let area = t.pseudo(them, PieceKind::King, ek) & !self.by_color(them);
        let attacked =
            self.slider_attacks_on(area, us, occ.without(ek)) | self.step_attacks_on(ek, area, us);
        if (area & !attacked).is_nonempty() {
            return false;
        }
        // Captures of the pawn by pieces other than the king, which must not expose it.
        let capturers = self.attackers_to(s, them, occ) & !self.pieces(them, PieceKind::King);
        for c in capturers {
            let kind = self.piece_at(c).map(|p| p.kind).unwrap_or(PieceKind::Gold);
            let can_land = !kind.can_promote()
                || !t.dead[them.index()][kind.index()].has(s)
                || t.zone[them.index()].has(s)
                || t.zone[them.index()].has(c);
            if can_land && self.attackers_to(ek, us, occ.without(c)).is_empty() {
                return false;
            }
        }
        true
    }

    /// Counts the leaf nodes of the legal move tree to `depth` plies (usual rules).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_with(Rules::default(), depth)
    }

    /// Counts the leaf nodes of the legal move tree to `depth` plies under `rules`.
    ///
    /// The count recurses one stack frame of a few kilobytes (a position and a move list)
    /// per ply, so a depth in the thousands overflows a thread's stack. Such depths can
    /// never be counted anyway (Shogi's tree from the initial position passes 10^20 leaves
    /// before depth 15); callers taking a depth from users should bound it, as the command
    /// line does (at most 20).
    pub fn perft_with(&self, rules: Rules, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves_with(rules),
            _ => {
                let mut list = MoveList::new();
                self.legal_moves_with(rules, &mut list);
                list.iter()
                    .map(|&m| {
                        let mut p = self.clone();
                        p.play_unchecked(m);
                        p.perft_with(rules, depth - 1)
                    })
                    .sum()
            }
        }
    }

    /// Perft split by first move: `(move, leaf count)` for every legal move.
    #[cfg(feature = "std")]
    pub fn perft_divide(&self, rules: Rules, depth: u32) -> Vec<(Move, u64)> {
        let mut list = MoveList::new();
        self.legal_moves_with(rules, &mut list);
        list.iter()
            .map(|&m| {
                let mut p = self.clone();
                p.play_unchecked(m);
                (m, p.perft_with(rules, depth.saturating_sub(1)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MiniShogi, Shogi};

    /// The word-parallel pawn files equal the files looked up pawn by pawn, for every set
    /// of one square per file and for pseudo-random sets (several squares a file too).
    fn pawn_files_equal_the_lookup<G: Game>() {
        let t = G::tables();
        let naive = |set: Bitboard| {
            let mut files = Bitboard::EMPTY;
            for s in set {
                files |= t.files[s.x::<G>() as usize];
            }
            files
        };
        let ends = Bitboard(file_ends(G::WIDTH, G::HEIGHT));
        let mut sets = vec![Bitboard::EMPTY, t.board, ends, t.board & !ends];
        for s in 0..G::SQUARES as u8 {
            sets.push(Bitboard::from_square(Square::from_index(s).unwrap()));
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let hi = state;
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let bits = (u128::from(hi) << 64 | u128::from(state)) & t.board.0;
            // Sparse sets too: a pawn or two per side is the common case.
            sets.push(Bitboard(bits));
            sets.push(Bitboard(bits & (bits >> 17) & (bits >> 33)));
        }
        for set in sets {
            assert_eq!(pawn_files::<G>(set), naive(set), "{set:?}");
        }
    }

    /// The drops of [`ALIKE_DROPS`] share one target set only because none of those
    /// kinds has a dead square.
    #[test]
    fn alike_drops_have_no_dead_square() {
        for kind in ALIKE_DROPS {
            for color in [crate::Color::Black, crate::Color::White] {
                assert!(Shogi::tables().dead[color.index()][kind.index()].is_empty());
                assert!(MiniShogi::tables().dead[color.index()][kind.index()].is_empty());
            }
        }
    }

    #[test]
    fn pawn_files_shogi() {
        pawn_files_equal_the_lookup::<Shogi>();
    }

    #[test]
    fn pawn_files_mini() {
        pawn_files_equal_the_lookup::<MiniShogi>();
    }

    /// The capacity is proved from the invariants (see [`MAX_MOVES`]); this recomputes the
    /// bound from the tables, so a change to the tables or the material cannot silently make
    /// the list too small.
    #[test]
    fn max_moves_bounds_every_position() {
        assert_eq!(move_bound::<Shogi>(), 841);
        assert_eq!(move_bound::<MiniShogi>(), 177);
        assert!(move_bound::<Shogi>() <= MAX_MOVES);
        assert!(move_bound::<MiniShogi>() <= MAX_MOVES);
    }
}
