//! The fast generator against an independent brute-force one, on positions from random
//! legal games of both games, under both drop-pawn rules.

use crate::common;
use common::{naive_moves, random_positions};
use shogi_core::{Game, MiniShogi, Move, MoveList, PawnDropRule, Position, Rules, Shogi};

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

fn check<G: Game>(positions: &[Position<G>], rules: Rules) {
    for pos in positions {
        let mut list = MoveList::new();
        pos.legal_moves_with(rules, &mut list);
        let fast = sorted(list.to_vec());
        let naive = sorted(naive_moves(pos, rules));
        assert_eq!(fast, naive, "move lists differ in {}", pos.to_sfen());
        assert_eq!(
            pos.count_moves_with(rules),
            fast.len() as u64,
            "count in {}",
            pos.to_sfen()
        );
        assert_eq!(
            pos.has_legal_move(rules),
            !fast.is_empty(),
            "{}",
            pos.to_sfen()
        );
    }
}

const BOTH: [Rules; 2] = [
    Rules {
        pawn_drop: PawnDropRule::MateOnly,
    },
    Rules {
        pawn_drop: PawnDropRule::NoLegalReply,
    },
];

#[test]
fn shogi_moves_equal_brute_force() {
    let positions = random_positions::<Shogi>(1, 40, 160);
    for rules in BOTH {
        check(&positions, rules);
    }
}

#[test]
fn mini_moves_equal_brute_force() {
    let positions = random_positions::<MiniShogi>(2, 300, 80);
    for rules in BOTH {
        check(&positions, rules);
    }
}

/// Guards the test above against testing nothing: the random positions must include checks,
/// promoted pieces, pieces in hand and forbidden pawn drops.
#[test]
fn random_positions_cover_the_interesting_cases() {
    let positions = random_positions::<Shogi>(1, 40, 160);
    let mini = random_positions::<MiniShogi>(2, 300, 80);
    let in_check = positions
        .iter()
        .filter(|p| p.checkers().is_nonempty())
        .count();
    let double = mini.iter().filter(|p| p.checkers().more_than_one()).count()
        + positions
            .iter()
            .filter(|p| p.checkers().more_than_one())
            .count();
    let promoted = positions
        .iter()
        .filter(|p| (p.occupied()).any(|s| p.piece_at(s).unwrap().kind.is_promoted()))
        .count();
    let pinned = positions
        .iter()
        .filter(|p| p.pinned(p.side_to_move()).is_nonempty())
        .count();
    eprintln!(
        "shogi {} positions: {in_check} in check, {promoted} with promoted pieces, {pinned} with pins; \
         mini {} positions; double checks {double}",
        positions.len(),
        mini.len()
    );
    assert!(positions.len() > 1000 && mini.len() > 3000);
    assert!(in_check > 50 && promoted > 500 && pinned > 50 && double > 0);
}

/// Pawn drops that mate, and one position where every pawn drop stalemates without check:
/// the two readings of the drop-pawn-mate rule (docs/METHOD.md §2) must differ exactly there.
const PAWN_DROP_CASES: [&str; 4] = [
    // White king 1a boxed in by a gold on 2c and a knight on 3c: P*1b mates; every other
    // pawn drop leaves White without a move but gives no check.
    "8k/9/6NG1/9/9/9/9/9/K8 b P 1",
    "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1",
    // The pawn on 1b could be taken by the gold on 2b, but the bishop on 4d pins it.
    "8k/7g1/7SN/5B3/9/9/9/9/K8 b P 1",
    "S2k1/b+B3/2S1R/K3g/3gR b 2P 1",
];

#[test]
fn pawn_drop_rule_readings_against_brute_force() {
    for sfen in PAWN_DROP_CASES {
        match shogi_core::AnyPosition::from_sfen(sfen).unwrap() {
            shogi_core::AnyPosition::Shogi(p) => {
                for rules in BOTH {
                    check(std::slice::from_ref(&p), rules);
                }
            }
            shogi_core::AnyPosition::Mini(p) => {
                for rules in BOTH {
                    check(std::slice::from_ref(&p), rules);
                }
            }
        }
    }
}

#[test]
fn pawn_drop_stalemate_is_legal_only_under_the_usual_rule() {
    let pos = Position::<Shogi>::from_sfen(PAWN_DROP_CASES[0]).unwrap();
    let drops = |rules: Rules| {
        let mut list = MoveList::new();
        pos.legal_moves_with(rules, &mut list);
        list.iter()
            .filter(|m| matches!(m, Move::Drop { .. }))
            .map(|m| m.to_usi::<Shogi>())
            .collect::<Vec<_>>()
    };
    let usual = drops(BOTH[0]);
    assert!(!usual.contains(&"P*1b".to_string()), "P*1b checkmates");
    assert!(
        usual.contains(&"P*5e".to_string()),
        "P*5e stalemates without check: legal"
    );
    assert_eq!(usual.len(), 68);
    assert!(
        drops(BOTH[1]).is_empty(),
        "no pawn drop leaves White a reply"
    );
}

#[test]
fn pinned_defender_cannot_take_the_mating_pawn() {
    let pos = Position::<Shogi>::from_sfen(PAWN_DROP_CASES[2]).unwrap();
    assert!(pos.pinned(shogi_core::Color::White).is_nonempty());
    assert!(pos.validate().is_empty());
    let usi: Vec<String> = pos.moves().iter().map(|m| m.to_usi::<Shogi>()).collect();
    assert!(!usi.contains(&"P*1b".to_string()));
    assert!(usi.contains(&"P*5e".to_string()));
}
