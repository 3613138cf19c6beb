//! The move-set API (`Position::for_each_move_set`): the same moves as the move list, in
//! sets that are never empty, with an early exit that really stops the generation.

use crate::common::random_positions;
use core::ops::ControlFlow;
use shogi_core::{Game, MiniShogi, Move, MoveSet, PawnDropRule, Position, Rules, Shogi, MAX_MOVES};
use shogi_verify::perft_file::read_suite;

/// Every set's moves, in the order they are handed out.
fn expanded<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Move> {
    let mut out = Vec::new();
    let _ = pos.for_each_move_set(rules, |set| {
        assert!(!set.is_empty(), "an empty set was handed out");
        assert_eq!(set.moves().count(), set.len());
        out.extend(set.moves());
        ControlFlow::<()>::Continue(())
    });
    out
}

fn same_moves_as_the_list<G: Game>(positions: &[Position<G>]) {
    assert!(positions.len() > 100);
    for pos in positions {
        for pawn_drop in PawnDropRule::ALL {
            let rules = Rules { pawn_drop };
            let mut list = shogi_core::MoveList::new();
            pos.legal_moves_with(rules, &mut list);
            // The list sink and the sets come from one generator and share their order.
            assert_eq!(expanded(pos, rules), list.to_vec(), "{}", pos.to_sfen());
            assert_eq!(list.len() as u64, pos.count_moves_with(rules));
        }
    }
}

#[test]
fn sets_hold_exactly_the_legal_moves_shogi() {
    let mut positions = random_positions::<Shogi>(34, 12, 160);
    for case in read_suite("crowded.perft").unwrap() {
        positions.push(Position::from_sfen(&case.sfen).unwrap());
    }
    same_moves_as_the_list(&positions);
}

#[test]
fn sets_hold_exactly_the_legal_moves_mini() {
    same_moves_as_the_list(&random_positions::<MiniShogi>(35, 20, 80));
}

/// Breaking after the `n`th set hands out exactly `n` sets and returns the value given.
#[test]
fn breaking_stops_the_generation() {
    let pos = Position::<Shogi>::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")
        .unwrap();
    let mut all = 0;
    let _ = pos.for_each_move_set(Rules::default(), |_| {
        all += 1;
        ControlFlow::<()>::Continue(())
    });
    assert!(all > 10, "the maximum-moves position has {all} sets");
    for n in 1..=all {
        let mut seen = 0;
        let flow = pos.for_each_move_set(Rules::default(), |set| {
            seen += 1;
            if seen == n {
                ControlFlow::Break(set)
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, n);
        let set: MoveSet = flow.break_value().expect("broke at the nth set");
        assert!(set.len() <= MAX_MOVES);
    }
    // A checkmated side has no set at all: the walk ends without a call.
    let mated = Position::<Shogi>::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
    assert!(mated.is_checkmate());
    let flow = mated.for_each_move_set(Rules::default(), |_| ControlFlow::Break(()));
    assert_eq!(flow, ControlFlow::Continue(()));
}
