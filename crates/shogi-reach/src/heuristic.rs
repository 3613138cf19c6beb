//! The KK goal and the search heuristic `H = a*N + b*P + c*D` of docs/METHOD.md §7.

use shogi_core::{Color, Game, Piece, PieceKind, Position};

/// The weights of `H = a*N + b*P + c*D` (docs/METHOD.md §7): `N` counts the non-king pieces on the
/// board, `P` the promoted ones, `D` their distances in ranks from their owner's zone.
///
/// The search's open queue has a bucket for every value of `H` up to the largest it meets,
/// so keep the weights small (the command line allows up to 1000 each): with the largest
/// `u16` weights a Shogi search could need hundreds of megabytes of empty buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Weight of each non-king piece on the board.
    pub a: u16,
    /// Extra weight of each promoted piece on the board.
    pub b: u16,
    /// Weight of each rank between a promoted piece and its owner's promotion zone.
    pub c: u16,
}

impl Default for Weights {
    /// The paper's weights: `a = b = 10`, `c = 1`.
    fn default() -> Self {
        Weights { a: 10, b: 10, c: 1 }
    }
}

/// Ranks between a promoted piece of `color` on rank `y` and that colour's promotion zone:
/// `max(0, y - 2)` for Black and `max(0, 6 - y)` for White in Shogi, `y` and `4 - y` in
/// Mini Shogi.
pub fn zone_distance<G: Game>(color: Color, y: u8) -> u8 {
    let depth = G::ZONE_DEPTH;
    match color {
        Color::Black => y.saturating_sub(depth - 1),
        Color::White => (G::HEIGHT - depth).saturating_sub(y),
    }
}

/// The contribution of one piece on a square to `H` (0 for a king).
pub fn piece_weight<G: Game>(w: Weights, piece: Piece, sq: shogi_core::Square) -> u32 {
    if piece.kind == PieceKind::King {
        return 0;
    }
    let mut h = u32::from(w.a);
    if piece.kind.is_promoted() {
        h += u32::from(w.b)
            + u32::from(w.c) * u32::from(zone_distance::<G>(piece.color, sq.y::<G>()));
    }
    h
}

/// `H(pos)` under the weights `w`.
pub fn heuristic<G: Game>(pos: &Position<G>, w: Weights) -> u32 {
    pos.occupied()
        .into_iter()
        .map(|sq| piece_weight::<G>(w, pos.piece_at(sq).expect("occupied"), sq))
        .sum()
}

/// Whether only the two kings stand on the board (with both kings present). Every legal
/// such position is a KK position of docs/METHOD.md §7: legality keeps the kings apart.
pub fn is_kk<G: Game>(pos: &Position<G>) -> bool {
    pos.occupied().count() == 2
        && pos.king(Color::Black).is_some()
        && pos.king(Color::White).is_some()
}
