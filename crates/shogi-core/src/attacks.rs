//! Attack sets. Sliders use per-direction ray masks and one bit scan per ray (the
//! "classical approach"): no ray walking, a few kilobytes of table, and the same code for
//! both board sizes.

use crate::tables::{dir_is_positive, DOWN, UP};
use crate::{Bitboard, Color, Game, PieceKind, Square};

/// The squares seen from `sq` in direction `dir`, up to and including the first blocker.
#[inline(always)]
pub(crate) fn ray<G: Game>(dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let ray = G::tables().rays[dir][sq.index()].0;
    let blockers = ray & occ.0;
    if dir_is_positive(dir) {
        // Bits up to and including the lowest blocker; all of them when there is none
        // (0 - 1 wraps to all ones).
        Bitboard(ray & (blockers ^ blockers.wrapping_sub(1)))
    } else {
        // Bits from the highest blocker up; bit 0 as a sentinel keeps this branch-free.
        let msb = 127 - (blockers | 1).leading_zeros();
        Bitboard(ray & (u128::MAX << msb))
    }
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks<G: Game>(sq: Square, occ: Bitboard) -> Bitboard {
    ray::<G>(0, sq, occ) | ray::<G>(1, sq, occ) | ray::<G>(2, sq, occ) | ray::<G>(3, sq, occ)
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks<G: Game>(sq: Square, occ: Bitboard) -> Bitboard {
    ray::<G>(4, sq, occ) | ray::<G>(5, sq, occ) | ray::<G>(6, sq, occ) | ray::<G>(7, sq, occ)
}

/// Lance attacks of a `color` lance on `sq` with occupancy `occ`.
#[inline(always)]
pub fn lance_attacks<G: Game>(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match color {
        Color::Black => ray::<G>(UP, sq, occ),
        Color::White => ray::<G>(DOWN, sq, occ),
    }
}

/// The empty-board table entry of a piece: its attacks for the step movers (pawn, knight,
/// silver, the golds, king); for sliders, the squares they would reach on an empty board.
#[inline(always)]
pub fn step_attacks<G: Game>(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    G::tables().pseudo[color.index()][kind.index()][sq.index()]
}

/// The squares a piece of `color` and `kind` on `sq` attacks, given occupancy `occ`.
#[inline(always)]
pub fn attacks<G: Game>(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Lance => lance_attacks::<G>(color, sq, occ),
        PieceKind::Bishop => bishop_attacks::<G>(sq, occ),
        PieceKind::Rook => rook_attacks::<G>(sq, occ),
        // The table entries of horse and dragon are their empty-board attacks: add the king
        // steps to the blocked slides instead.
        PieceKind::Horse => {
            bishop_attacks::<G>(sq, occ) | step_attacks::<G>(color, PieceKind::King, sq)
        }
        PieceKind::Dragon => {
            rook_attacks::<G>(sq, occ) | step_attacks::<G>(color, PieceKind::King, sq)
        }
        _ => step_attacks::<G>(color, kind, sq),
    }
}
