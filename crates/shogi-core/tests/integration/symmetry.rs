//! Self-consistency: mirror and colour-flip invariance of perft, incremental Zobrist keys,
//! make/unmake by copy, SFEN round trips, list/count agreement.

use crate::common;
use common::random_positions;
use shogi_core::{Game, MiniShogi, Position, Shogi};

fn symmetric<G: Game>(positions: &[Position<G>], depth: u32) {
    for pos in positions {
        let n = pos.perft(depth);
        assert_eq!(pos.hflip().perft(depth), n, "hflip of {}", pos.to_sfen());
        let twin = pos.flip_colors();
        assert_eq!(twin.perft(depth), n, "colour flip of {}", pos.to_sfen());
        assert_eq!(twin.flip_colors(), *pos);
        assert_eq!(pos.hflip().hflip(), *pos);
    }
}

#[test]
fn shogi_perft_is_mirror_and_colour_symmetric() {
    let positions = random_positions::<Shogi>(11, 30, 150);
    symmetric(&positions[..positions.len().min(400)], 2);
}

#[test]
fn mini_perft_is_mirror_and_colour_symmetric() {
    let positions = random_positions::<MiniShogi>(12, 100, 60);
    symmetric(&positions, 3);
}

fn keys_and_sfen<G: Game>(positions: &[Position<G>]) {
    for pos in positions {
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "incremental key of {}",
            pos.to_sfen()
        );
        let again = Position::<G>::from_sfen(&pos.to_sfen()).unwrap();
        assert_eq!(&again, pos);
        assert_eq!(again.key(), pos.key());
        assert_eq!(again.to_sfen(), pos.to_sfen());
        for (i, mv) in pos.moves().into_iter().enumerate() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            assert_eq!(
                after.key(),
                after.compute_key(),
                "key after {}",
                mv.to_usi::<G>()
            );
            assert!(
                !after.in_check(pos.side_to_move()),
                "{} leaves the king in check",
                mv.to_usi::<G>()
            );
            if i % 7 == 0 {
                let reparsed = shogi_core::Move::from_usi::<G>(&mv.to_usi::<G>()).unwrap();
                assert_eq!(reparsed, mv);
            }
        }
        let flipped = pos.flip_colors();
        assert_eq!(flipped.key(), flipped.compute_key());
    }
}

#[test]
fn shogi_zobrist_and_sfen_round_trip() {
    keys_and_sfen(&random_positions::<Shogi>(21, 30, 200));
}

#[test]
fn mini_zobrist_and_sfen_round_trip() {
    keys_and_sfen(&random_positions::<MiniShogi>(22, 100, 100));
}

#[test]
fn equal_positions_reached_by_transposition_have_equal_keys() {
    let mut a = Position::<Shogi>::startpos();
    let mut b = Position::<Shogi>::startpos();
    for m in ["7g7f", "3c3d", "2g2f"] {
        a.play_usi(m).unwrap();
    }
    for m in ["2g2f", "3c3d", "7g7f"] {
        b.play_usi(m).unwrap();
    }
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
}
