//! Generation of the legal one-ply predecessors (docs/METHOD.md §6).

use crate::Unmove;
use core::ops::ControlFlow;
use shogi_core::{
    attacks, step_attacks, Bitboard, Game, PawnDropRule, PieceKind, Position, Rules, Square,
};

/// A reusable buffer of unmoves. [`unmoves`] clears it and refills it, so a caller that keeps
/// one buffer allocates only while its capacity grows.
pub type UnmoveList = Vec<Unmove>;

/// Fills `out` (cleared first) with the unmoves leading to every legal predecessor of `pos`
/// under `rules`: exactly the set `Prev1(pos)` of docs/METHOD.md §6, each predecessor once.
pub fn unmoves<G: Game>(pos: &Position<G>, rules: Rules, out: &mut UnmoveList) {
    out.clear();
    let _ = for_each_unmove(pos, rules, |u| {
        out.push(u);
        ControlFlow::Continue(())
    });
}

/// The number of legal predecessors of `pos` under `rules`.
pub fn count_unmoves<G: Game>(pos: &Position<G>, rules: Rules) -> usize {
    let mut n = 0;
    let _ = for_each_unmove(pos, rules, |_| {
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

/// Whether `pos` has at least one legal predecessor under `rules` (stops at the first).
pub fn has_predecessor<G: Game>(pos: &Position<G>, rules: Rules) -> bool {
    for_each_unmove(pos, rules, |_| ControlFlow::Break(())).is_break()
}

/// Calls `f` with the unmove of every legal predecessor of `pos` under `rules` (the set of
/// [`unmoves`]), in a fixed order, without allocating. `f` may stop the generation by
/// returning `ControlFlow::Break(())`, which is then returned.
///
/// Nothing is assumed about the material: any counts, either side to move, missing kings
/// (a side without a king is never in check).
pub fn for_each_unmove<G: Game, F: FnMut(Unmove) -> ControlFlow<()>>(
    pos: &Position<G>,
    rules: Rules,
    f: F,
) -> ControlFlow<()> {
    for_each_unmove_of(pos, rules, UnmoveKinds::ALL, f)
}

/// Which unmoves [`for_each_unmove_of`] generates. Un-captures are most of a position's
/// predecessors but the ones a search toward fewer pieces needs last, so a search can ask for
/// them separately, only when it gets to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnmoveKinds {
    /// Drops taken back.
    pub drops: bool,
    /// Board moves taken back that captured nothing.
    pub quiet: bool,
    /// Board moves taken back that captured (a piece of the side to move comes back).
    pub captures: bool,
}

impl UnmoveKinds {
    /// Every unmove.
    pub const ALL: UnmoveKinds = UnmoveKinds {
        drops: true,
        quiet: true,
        captures: true,
    };
    /// Un-drops and quiet un-moves: every predecessor with no more pieces on the board.
    pub const NON_CAPTURES: UnmoveKinds = UnmoveKinds {
        drops: true,
        quiet: true,
        captures: false,
    };
    /// Un-captures only.
    pub const CAPTURES: UnmoveKinds = UnmoveKinds {
        drops: false,
        quiet: false,
        captures: true,
    };
}

/// [`for_each_unmove`] restricted to the unmoves selected by `kinds`, in the same order:
/// the union over a partition of [`UnmoveKinds`] is exactly `Prev1(pos)`.
pub fn for_each_unmove_of<G: Game, F: FnMut(Unmove) -> ControlFlow<()>>(
    pos: &Position<G>,
    rules: Rules,
    kinds: UnmoveKinds,
    mut f: F,
) -> ControlFlow<()> {
    let t = G::tables();
    let s = pos.side_to_move();
    // O made the last move. If its king is attacked, whatever O played left it in check.
    let o = !s;
    if pos.in_check(o) {
        return ControlFlow::Continue(());
    }
    // A dead piece or two pawns in `pos` is either still there in any predecessor, or
    // was made by the last move (a move or drop onto a dead square, a pawn dropped beside
    // another), which was then illegal.
    if !pos.placement_errors().is_empty() {
        return ControlFlow::Continue(());
    }
    let occ = pos.occupied();
    let ks = pos.king(s);
    let o_hand = *pos.hand(o);
    let zone = t.zone[o.index()];
    let pawn_files = |c| {
        let mut m = Bitboard::EMPTY;
        for p in pos.pieces(c, PieceKind::Pawn) {
            m |= t.files[p.x::<G>() as usize];
        }
        m
    };
    let o_pawn_files = pawn_files(o);
    let s_pawn_files = pawn_files(s);
    // O's pieces attacking S's king now, and the squares whose piece is the only one
    // between S's king and a slider of O that would attack it along that line (taking
    // that piece away opens the line).
    let (checkers, screens) = match ks {
        Some(k) => (pos.attackers_to(k, o, occ), pos.king_blockers(s)),
        None => (Bitboard::EMPTY, Bitboard::EMPTY),
    };
    // Whether the king of S is attacked in the predecessor whose occupancy is `occ2`, where
    // O's piece on `to` is gone (or replaced by a piece of S) and O's `moved` piece stands
    // on its origin. `quiet` says that no other piece of O attacks the king now and that
    // emptying `to` opens no line onto it: the predecessor only adds a blocker on the
    // origin, so then no other piece of O attacks the king there either.
    let s_attacked =
        |occ2: Bitboard, moved: Option<(PieceKind, Square)>, to: Square, quiet: bool| -> bool {
            match ks {
                None => false,
                Some(k) => {
                    moved.is_some_and(|(kind, from)| attacks::<G>(o, kind, from, occ2).has(k))
                        || (!quiet && pos.attackers_to(k, o, occ2).without(to).is_nonempty())
                }
            }
        };
    // Whether S has a legal reply in `pos` (asked at most once, for pawn un-drops).
    let mut has_reply: Option<bool> = None;
    let mut reply = || *has_reply.get_or_insert_with(|| pos.has_legal_move(rules));

    // A checker with no square between it and S's king (a step, a knight's jump, or a
    // slider next to the king) attacks the king in every predecessor in which it still
    // stands there: an unmove changes only its two squares, and the king does not move.
    // So the last move was that piece's (the unmove's `to` is its square), and two such
    // checkers cannot both be explained: then there is no predecessor. This prunes most
    // of the work on the positions with S in check, whatever `kinds` asks for.
    let adjacent_checkers = match ks {
        Some(k) => {
            let mut c = Bitboard::EMPTY;
            for sq in checkers {
                if t.between[k.index()][sq.index()].is_empty() {
                    c = c.with(sq);
                }
            }
            c
        }
        None => Bitboard::EMPTY,
    };
    let last_movers = match adjacent_checkers.count() {
        0 => pos.by_color(o),
        1 => adjacent_checkers,
        _ => return ControlFlow::Continue(()),
    };

    for to in last_movers {
        let kind = match pos.piece_at(to) {
            Some(p) => p.kind,
            None => continue,
        };
        let quiet = checkers.without(to).is_empty() && !screens.has(to);
        // Un-drops.
        if kinds.drops && !kind.is_promoted() && kind != PieceKind::King {
            let mut ok = !s_attacked(occ.without(to), None, to, quiet);
            if ok && kind == PieceKind::Pawn {
                let checks = ks.is_some_and(|k| step_attacks::<G>(o, PieceKind::Pawn, to).has(k));
                let forbidden = match rules.pawn_drop {
                    PawnDropRule::MateOnly => checks && !reply(),
                    PawnDropRule::NoLegalReply => !reply(),
                };
                ok = !forbidden;
            }
            if ok {
                f(Unmove::Drop { kind, to })?;
            }
        }
        if !(kinds.quiet || kinds.captures) {
            continue;
        }
        // Un-moves: as the same kind, or as its unpromoted form with a promotion.
        for promote in [false, true] {
            let piece = if promote {
                if !kind.is_promoted() {
                    continue;
                }
                kind.unpromoted()
            } else {
                kind
            };
            // Squares from which an O `piece` reaches `to`: the moves of an S `piece`
            // from `to` (the tables are mirror images), through the same empty squares.
            let mut origins = attacks::<G>(s, piece, to, occ) & !occ & t.board;
            if promote {
                if !zone.has(to) {
                    origins &= zone;
                }
                // The unpromoted piece must be able to move from its origin, and a pawn
                // must not make two pawns there.
                origins &= !t.dead[o.index()][piece.index()];
                if piece == PieceKind::Pawn {
                    origins &= !o_pawn_files;
                }
            } else if piece.can_promote() && t.dead[o.index()][piece.index()].has(to) {
                // Not promoting onto a square where the piece could never move again.
                continue;
            }
            for from in origins {
                let occ_from = occ.with(from);
                // No capture: `to` was empty.
                if kinds.quiet && !s_attacked(occ_from.without(to), Some((piece, from)), to, quiet)
                {
                    f(Unmove::Normal {
                        from,
                        to,
                        piece,
                        promote,
                        captured: None,
                    })?;
                }
                // Captures: restore a piece of S of every kind O holds, promoted or not.
                if !kinds.captures
                    || o_hand.is_empty()
                    || s_attacked(occ_from, Some((piece, from)), to, quiet)
                {
                    continue;
                }
                for base in o_hand.kinds() {
                    let dead = t.dead[s.index()][base.index()].has(to);
                    let two_pawns = base == PieceKind::Pawn && s_pawn_files.has(to);
                    let fits = !dead && !two_pawns;
                    if fits {
                        f(Unmove::Normal {
                            from,
                            to,
                            piece,
                            promote,
                            captured: Some(base),
                        })?;
                    }
                    if let Some(pro) = base.promoted() {
                        f(Unmove::Normal {
                            from,
                            to,
                            piece,
                            promote,
                            captured: Some(pro),
                        })?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}
