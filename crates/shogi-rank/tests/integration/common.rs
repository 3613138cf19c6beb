//! Helpers shared by the integration tests. The random generator is the one of every
//! test (shogi-verify's ChaCha8), independent of the sampler's streams by its seeding.
#![allow(dead_code)]

use shogi_core::{Color, Game, Piece, PieceKind, Position, Relax, Setup, Square};
use shogi_rank::{RankTable, U256};
use shogi_verify::rng::{below, TestRng};

/// A random position of `P_K` of the table's material, built piece by piece without the
/// ranking code: kings on a random K-canonical placement, every other piece in a random hand
/// or on a random empty square with a random owner and promotion.
pub fn random_position<G: Game>(table: &RankTable<G>, rng: &mut TestRng) -> Position<G> {
    let n = G::SQUARES;
    let mut pos = Setup::<G>::empty();
    let (bk, wk) = loop {
        let b = Square::from_index(below(rng, n) as u8).unwrap();
        let w = Square::from_index(below(rng, n) as u8).unwrap();
        if shogi_rank::kings_k_canonical::<G>(b, w) {
            break (b, w);
        }
    };
    pos.put(bk, Piece::new(Color::Black, PieceKind::King));
    pos.put(wk, Piece::new(Color::White, PieceKind::King));
    // Vary how crowded the hands are.
    let hand_bias = below(rng, 4);
    for t in table.types() {
        for _ in 0..t.count {
            let r = below(rng, 8);
            if r < hand_bias {
                let c = if below(rng, 2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let have = pos.hand(c).count(t.kind);
                pos.set_hand(c, t.kind, have + 1);
            } else {
                let sq = loop {
                    let s = Square::from_index(below(rng, n) as u8).unwrap();
                    if pos.piece_at(s).is_none() {
                        break s;
                    }
                };
                let c = if below(rng, 2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let kind = if t.promotable && below(rng, 2) == 0 {
                    t.kind.promoted().unwrap()
                } else {
                    t.kind
                };
                pos.put(sq, Piece::new(c, kind));
            }
        }
    }
    pos.into_position(Relax::CANDIDATE)
        .expect("kings and the table's material make a candidate position")
}

/// Asserts that `r` round-trips: unrank then rank gives `r` back.
pub fn roundtrip_rank<G: Game>(table: &RankTable<G>, r: U256) {
    let pos = table
        .unrank_u256(r)
        .unwrap_or_else(|e| panic!("unrank({r}): {e}"));
    let back = table
        .rank_u256(&pos)
        .unwrap_or_else(|e| panic!("rank(unrank({r})) = rank({pos:?}): {e}"));
    assert_eq!(back, r, "rank(unrank(r)) for {pos:?}");
}
