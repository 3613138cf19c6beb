//! Exhaustive checks on reduced materials small enough to enumerate: every rank unranks to
//! a distinct K-canonical position that ranks back to it, and an independent brute-force
//! enumeration of the K-canonical positions gives the same count and the same set.

use shogi_core::{Color, Game, MiniShogi, Piece, PieceKind, Position, Relax, Setup, Shogi, Square};
use shogi_rank::{count, kings_k_canonical, material_from_spec, RankTable, U256};

/// A compact, collision-free code of a position with at most ten pieces on the board.
fn code<G: Game>(pos: &Position<G>) -> (u128, u64) {
    let mut board = 0u128;
    for sq in pos.occupied() {
        let p = pos.piece_at(sq).unwrap();
        board = board << 12 | (sq.index() as u128) << 5 | p.index() as u128;
    }
    let mut hands = 0u64;
    for c in Color::ALL {
        for k in PieceKind::HAND {
            hands = hands * 19 + pos.hand(c).count(k) as u64;
        }
    }
    assert_eq!(pos.side_to_move(), Color::Black);
    (board, hands)
}

fn k_canonical<G: Game>(pos: &Position<G>) -> bool {
    let b = pos.king(Color::Black).unwrap();
    let w = pos.king(Color::White).unwrap();
    pos.pieces(Color::Black, PieceKind::King).count() == 1
        && pos.pieces(Color::White, PieceKind::King).count() == 1
        && kings_k_canonical::<G>(b, w)
}

/// Every K-canonical position of the material, by brute force: each piece type's pieces
/// are split between the two hands and a set of squares, and each board piece gets an owner
/// and (if the type can promote) a promotion state.
fn brute_force<G: Game>(types: &[(PieceKind, u8)]) -> Vec<(u128, u64)> {
    fn place<G: Game>(pos: &mut Setup<G>, types: &[(PieceKind, u8)], out: &mut Vec<(u128, u64)>) {
        let Some(&(kind, s)) = types.first() else {
            // The brute force builds setups; every one is a candidate position.
            let pos = pos.clone().into_position(Relax::CANDIDATE).unwrap();
            out.push(code(&pos));
            return;
        };
        for black in 0..=s {
            for white in 0..=(s - black) {
                let b = s - black - white;
                pos.set_hand(Color::Black, kind, black);
                pos.set_hand(Color::White, kind, white);
                let empty: Vec<Square> = (0..G::SQUARES as u8)
                    .filter_map(Square::from_index)
                    .filter(|&q| pos.piece_at(q).is_none())
                    .collect();
                let variants: Vec<Piece> = Color::ALL
                    .into_iter()
                    .flat_map(|c| {
                        let mut v = vec![Piece::new(c, kind)];
                        if let Some(p) = kind.promoted() {
                            v.push(Piece::new(c, p));
                        }
                        v
                    })
                    .collect();
                // every b-subset of the empty squares, every labelling of it
                let mut idx: Vec<usize> = (0..b as usize).collect();
                loop {
                    if idx.len() > empty.len() {
                        break;
                    }
                    let labels = variants.len().pow(b as u32);
                    for mut l in 0..labels {
                        for &i in &idx {
                            pos.put(empty[i], variants[l % variants.len()]);
                            l /= variants.len();
                        }
                        place(pos, &types[1..], out);
                        for &i in &idx {
                            pos.take(empty[i]);
                        }
                    }
                    // next combination
                    let k = idx.len();
                    let mut j = k;
                    while j > 0 && idx[j - 1] == empty.len() - k + j - 1 {
                        j -= 1;
                    }
                    if j == 0 {
                        break;
                    }
                    idx[j - 1] += 1;
                    for t in j..k {
                        idx[t] = idx[t - 1] + 1;
                    }
                }
            }
        }
        pos.set_hand(Color::Black, kind, 0);
        pos.set_hand(Color::White, kind, 0);
    }
    let mut out = Vec::new();
    for b in 0..G::SQUARES as u8 {
        for w in 0..G::SQUARES as u8 {
            let (bs, ws) = (
                Square::from_index(b).unwrap(),
                Square::from_index(w).unwrap(),
            );
            if !kings_k_canonical::<G>(bs, ws) {
                continue;
            }
            let mut pos = Setup::<G>::empty();
            pos.put(bs, Piece::new(Color::Black, PieceKind::King));
            pos.put(ws, Piece::new(Color::White, PieceKind::King));
            place(&mut pos, types, &mut out);
        }
    }
    out
}

fn exhaustive<G: Game>(spec: [u8; 8]) {
    let material = material_from_spec(spec);
    let table = RankTable::<G>::new(&material).unwrap();
    let total = table.count_u256().to_u128().unwrap() as u64;
    assert_eq!(table.count(), count::<G>(&material).unwrap());
    let mut from_ranks = Vec::with_capacity(total as usize);
    for r in 0..total {
        let pos = table.unrank_u256(U256::from(r)).unwrap();
        assert!(k_canonical(&pos), "{pos:?}");
        assert_eq!(pos.material(), material);
        assert_eq!(table.rank_u256(&pos).unwrap(), U256::from(r));
        from_ranks.push(code(&pos));
    }
    from_ranks.sort_unstable();
    let before = from_ranks.len();
    from_ranks.dedup();
    assert_eq!(
        from_ranks.len(),
        before,
        "two ranks unrank to the same position"
    );

    let types: Vec<(PieceKind, u8)> = table.types().iter().map(|t| (t.kind, t.count)).collect();
    let mut brute = brute_force::<G>(&types);
    brute.sort_unstable();
    let before = brute.len();
    brute.dedup();
    assert_eq!(brute.len(), before);
    assert_eq!(brute.len() as u64, total, "brute-force count");
    assert!(brute == from_ranks, "the two sets differ");
}

#[test]
fn mini_kings_gold_pawn() {
    exhaustive::<MiniShogi>([2, 1, 0, 0, 1, 0, 0, 0]);
}

#[test]
fn mini_kings_two_pawns() {
    exhaustive::<MiniShogi>([2, 0, 0, 0, 2, 0, 0, 0]);
}

#[test]
fn mini_kings_rook_bishop() {
    exhaustive::<MiniShogi>([2, 0, 0, 0, 0, 0, 1, 1]);
}

#[test]
fn shogi_kings_pawn() {
    exhaustive::<Shogi>([2, 0, 0, 0, 1, 0, 0, 0]);
}

#[test]
fn mini_kings_only() {
    exhaustive::<MiniShogi>([2, 0, 0, 0, 0, 0, 0, 0]);
    exhaustive::<Shogi>([2, 0, 0, 0, 0, 0, 0, 0]);
}
