//! Attack sets. Sliders are looked up in magic-bitboard tables (`magic.rs`), one lookup
//! for a bishop's four diagonals, one for a rook's rank and one for its file (a lance's
//! file slides are the rook's, cut to its forward ray), for both board sizes alike.

use crate::{Bitboard, Color, Game, PieceKind, Square};

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks<G: Game>(sq: Square, occ: Bitboard) -> Bitboard {
    // Magic numbers for the whole rook (up to 14 bits of occupancy) would need tables of
    // megabytes; the rank and the file are looked up apart instead.
    let t = G::tables();
    t.rank_slides[t.rank_magic[sq.index()].index(occ)]
        | t.file_slides[t.file_magic[sq.index()].index(occ)]
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks<G: Game>(sq: Square, occ: Bitboard) -> Bitboard {
    let t = G::tables();
    t.bishop_slides[t.bishop_magic[sq.index()].index(occ)]
}

/// Lance attacks of a `color` lance on `sq` with occupancy `occ`.
#[inline(always)]
pub fn lance_attacks<G: Game>(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let t = G::tables();
    // The file's slides, cut to the lance's forward ray (its empty-board attacks).
    t.file_slides[t.file_magic[sq.index()].index(occ)] & t.pseudo(color, PieceKind::Lance, sq)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MiniShogi, Shogi};

    /// The squares seen from `sq` along `(dx, dy)` steps, walked one square at a time up to
    /// and including the first occupied one: the reference for the magic lookups.
    fn walk<G: Game>(sq: Square, occ: Bitboard, steps: &[(i32, i32)]) -> Bitboard {
        let (w, h) = (G::WIDTH as i32, G::HEIGHT as i32);
        let (x, y) = (sq.index() as i32 / h, sq.index() as i32 % h);
        let mut seen = Bitboard::EMPTY;
        for &(dx, dy) in steps {
            let (mut cx, mut cy) = (x + dx, y + dy);
            while cx >= 0 && cy >= 0 && cx < w && cy < h {
                let q = Square::from_index((cx * h + cy) as u8).unwrap();
                seen = seen.with(q);
                if occ.has(q) {
                    break;
                }
                cx += dx;
                cy += dy;
            }
        }
        seen
    }

    /// Rook, bishop and both lances from every square equal the walked slides, on the empty
    /// and the full board and on pseudo-random occupancies of every density (the square
    /// itself occupied or not), so every magic number and every table entry a square can
    /// reach is exercised many times over.
    fn magic_slides_equal_ray_walking<G: Game>() {
        let board = G::tables().board;
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut occupancies = vec![Bitboard::EMPTY, board];
        for i in 0..3000 {
            let r = |n: &mut dyn FnMut() -> u64| u128::from(n()) << 64 | u128::from(n());
            let mut bits = r(&mut next);
            // Sparse to dense: AND or OR more random words in.
            for _ in 0..i % 4 {
                bits &= r(&mut next);
            }
            if i % 5 == 4 {
                bits |= r(&mut next);
            }
            occupancies.push(Bitboard(bits) & board);
        }
        for s in 0..G::SQUARES as u8 {
            let sq = Square::from_index(s).unwrap();
            for &occ in &occupancies {
                assert_eq!(
                    rook_attacks::<G>(sq, occ),
                    walk::<G>(sq, occ, &[(0, -1), (0, 1), (-1, 0), (1, 0)]),
                    "rook {s} {occ:?}"
                );
                assert_eq!(
                    bishop_attacks::<G>(sq, occ),
                    walk::<G>(sq, occ, &[(-1, -1), (1, -1), (-1, 1), (1, 1)]),
                    "bishop {s} {occ:?}"
                );
                assert_eq!(
                    lance_attacks::<G>(Color::Black, sq, occ),
                    walk::<G>(sq, occ, &[(0, -1)]),
                    "black lance {s} {occ:?}"
                );
                assert_eq!(
                    lance_attacks::<G>(Color::White, sq, occ),
                    walk::<G>(sq, occ, &[(0, 1)]),
                    "white lance {s} {occ:?}"
                );
            }
        }
    }

    #[test]
    fn magic_slides_equal_ray_walking_shogi() {
        magic_slides_equal_ray_walking::<Shogi>();
    }

    #[test]
    fn magic_slides_equal_ray_walking_mini() {
        magic_slides_equal_ray_walking::<MiniShogi>();
    }
}
