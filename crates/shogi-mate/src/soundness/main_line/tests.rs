//! The main line's findings: 余詰 and the tolerated alternatives at its attacker moves,
//! pieces left and a shorter mate on the whole of it.

use crate::soundness::testing::{kinds, opts, problem, usi};
use crate::soundness::{check, FlawKind, Soundness};

/// 余詰: a gold added on 7a also mates in 3 from the first move (8a9a, the king takes,
/// the horse mates on 8a); the recorded line stays the main line.
#[test]
fn an_added_piece_that_makes_a_second_mate_is_an_alternative_at_its_ply() {
    let p = problem(
        "1+LG6/k1+B6/s8/9/9/9/9/9/9 b N 1",
        Some(3),
        "N*8d 9c8d 7b8b",
    );
    let r = check(&p, &opts()).unwrap();
    assert_eq!(r.verdict, Soundness::Flawed);
    assert_eq!(usi(&r.main_line), ["N*8d", "9c8d", "7b8b"]);
    assert_eq!(kinds(&r), [(FlawKind::AlternativeMate, 1)]);
    assert_eq!(usi(&r.flaws[0].moves), ["8a9a", "9b9a", "7b8a"]);
}

/// Another check that mates at the last move is tolerated: the rook may drop anywhere
/// on the file.
#[test]
fn alternatives_at_the_last_move_are_tolerated() {
    let sfen = "+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1";
    let r = check(&problem(sfen, Some(3), "9a7c 9e9f R*9e"), &opts()).unwrap();
    assert_eq!(r.verdict, Soundness::Sound);
    assert_eq!(usi(&r.main_line), ["9a7c", "9e9f", "R*9e"]);
    assert!(!r.flaws.is_empty());
    assert!(r
        .flaws
        .iter()
        .all(|f| (f.kind, f.ply) == (FlawKind::LastMoveAlternative, 3) && !f.kind.is_flaw()));
}

/// A check with and without promotion that both mate is 非限定, tolerated.
#[test]
fn a_free_choice_of_promotion_is_tolerated() {
    let r = check(
        &problem("8k/6nn1/9/3R5/8G/9/9/9/9 b NSL 1", None, ""),
        &opts(),
    )
    .unwrap();
    let f = r
        .flaws
        .iter()
        .find(|f| f.kind == FlawKind::Unlimited)
        .expect("非限定");
    assert_eq!((f.ply, usi(&f.moves[..1])), (3, vec!["6d6a".to_string()]));
    assert_eq!(f.moves.len(), 5, "the move and the mate after it");
    assert!(!FlawKind::Unlimited.is_flaw());
}

/// 駒余り: a pawn added to the attacker's hand is left over.
#[test]
fn a_hand_piece_left_over_is_pieces_left_at_the_last_ply() {
    let r = check(
        &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NP 1", Some(3), ""),
        &opts(),
    )
    .unwrap();
    assert_eq!(r.verdict, Soundness::Flawed);
    assert_eq!(kinds(&r), [(FlawKind::PiecesLeft, 3)]);
    let left = r.flaws[0].pieces.as_ref().unwrap();
    assert_eq!(
        (left.count(shogi_core::PieceKind::Pawn), left.total()),
        (1, 1)
    );
}

/// 早詰: a silver added to the hand mates at once (S*8c), shorter than the declared 3.
#[test]
fn a_shorter_mate_than_declared_is_reported() {
    let r = check(
        &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NS 1", Some(3), ""),
        &opts(),
    )
    .unwrap();
    assert_eq!((r.verdict, r.length), (Soundness::Flawed, Some(1)));
    assert!(kinds(&r).contains(&(FlawKind::ShorterMate, 1)));
    // Declared as long as it is, it is no early mate (but the knight is left over).
    let r = check(
        &problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b NS 1", Some(1), ""),
        &opts(),
    )
    .unwrap();
    assert_eq!(kinds(&r), [(FlawKind::PiecesLeft, 1)]);
}

/// Pieces left are judged over every mating line, not the solver's: G*1b, G*2b, 2c2b and
/// 3d2b+ all mate, and the two drops use the gold in hand, so the problem is sound with
/// a drop as its main line and the board moves tolerated alternatives at the last move.
#[test]
fn a_mate_that_can_use_every_piece_leaves_none() {
    let r = check(
        &problem("8k/9/7G1/6N2/9/9/9/9/9 b G 1", Some(1), ""),
        &opts(),
    )
    .unwrap();
    assert_eq!(r.verdict, Soundness::Sound, "{:?}", kinds(&r));
    assert!(
        usi(&r.main_line)[0].starts_with("G*"),
        "{:?}",
        usi(&r.main_line)
    );
    assert_eq!(
        kinds(&r),
        [(FlawKind::LastMoveAlternative, 1); 3],
        "the three other mates, tolerated"
    );
}
