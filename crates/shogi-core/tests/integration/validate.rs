//! Validation reports each rule of docs/METHOD.md §5 that a position breaks, and only those.

use shogi_core::{
    AnyPosition, Color, MiniShogi, Position, PositionErrors as E, Relax, Setup, SfenError, Shogi,
};

fn shogi(sfen: &str) -> E {
    Setup::<Shogi>::from_sfen(sfen).unwrap().validate()
}
fn mini(sfen: &str) -> E {
    Setup::<MiniShogi>::from_sfen(sfen).unwrap().validate()
}

/// The rules `Position::from_sfen_with(sfen, relax)` reports, or empty if it accepts.
fn refused(sfen: &str, relax: Relax) -> E {
    match AnyPosition::from_sfen_with(sfen, relax) {
        Ok(_) => E::empty(),
        Err(SfenError::Illegal(e)) => e.errors(),
        Err(e) => panic!("{sfen}: not a syntax error expected: {e}"),
    }
}

#[test]
fn start_positions_are_legal() {
    assert_eq!(Position::<Shogi>::startpos().validate(), E::empty());
    assert_eq!(Position::<MiniShogi>::startpos().validate(), E::empty());
}

#[test]
fn each_rule_is_reported() {
    assert_eq!(mini("4k/5/5/5/5 b - 1"), E::MISSING_KING);
    assert_eq!(
        mini("k3k/5/5/5/K4 b - 1"),
        E::TOO_MANY_KINGS | E::TOO_MUCH_MATERIAL
    );
    assert_eq!(mini("4k/5/P4/P4/K4 b - 1"), E::TWO_PAWNS);
    assert_eq!(
        mini("4k/5/P4/+P4/K4 b - 1"),
        E::empty(),
        "a promoted pawn is no pawn"
    );
    assert_eq!(
        mini("4k/5/P4/p4/K4 b - 1"),
        E::empty(),
        "one pawn each side on a file"
    );
    assert_eq!(mini("P3k/5/5/5/K4 b - 1"), E::DEAD_PIECE);
    assert_eq!(mini("4k/5/5/5/K3p b - 1"), E::DEAD_PIECE);
    assert_eq!(mini("+P3k/5/5/5/K4 b - 1"), E::empty());
    assert_eq!(mini("4k/5/5/5/K4 b 3P 1"), E::TOO_MUCH_MATERIAL);
    assert_eq!(
        mini("4k/5/5/5/K4 b N 1"),
        E::TOO_MUCH_MATERIAL,
        "Mini Shogi has no knight"
    );
    // White (not to move) in check from the rook.
    assert_eq!(mini("4k/5/5/5/K3R b - 1"), E::OPPONENT_IN_CHECK);
    // The side to move may be in check.
    assert_eq!(mini("4k/5/5/5/K3R w - 1"), E::empty());
    assert_eq!(shogi("8k/9/9/9/9/9/9/9/K1N6 b - 1"), E::empty());
    assert_eq!(shogi("N7k/9/9/9/9/9/9/9/K8 b - 1"), E::DEAD_PIECE);
    assert_eq!(shogi("8k/N8/9/9/9/9/9/9/K8 b - 1"), E::DEAD_PIECE);
    assert_eq!(shogi("8k/9/N8/9/9/9/9/9/K8 b - 1"), E::empty());
    assert_eq!(shogi("8k/9/9/9/9/9/9/8n/K8 b - 1"), E::DEAD_PIECE);
    assert_eq!(shogi("L7k/9/9/9/9/9/9/9/K8 b - 1"), E::DEAD_PIECE);
    assert_eq!(shogi("8k/9/9/9/9/9/9/9/K7l b - 1"), E::DEAD_PIECE);
    assert_eq!(shogi("8k/9/9/9/9/9/9/9/K8 b 19P 1"), E::TOO_MUCH_MATERIAL);
    assert_eq!(shogi("8k/9/9/9/9/9/9/9/K8 b 18P 1"), E::empty());
    // Several at once.
    assert_eq!(
        mini("P3k/5/P4/5/K3R b - 1"),
        E::DEAD_PIECE | E::TWO_PAWNS | E::OPPONENT_IN_CHECK
    );
}

#[test]
fn placement_filter_is_two_pawns_and_dead_pieces() {
    let p =
        Position::<MiniShogi>::from_sfen_with("P3k/5/P4/5/K3R b - 1", Relax::CANDIDATE).unwrap();
    assert_eq!(p.placement_errors(), E::PLACEMENT);
    assert!(p.validate().to_string().contains("two unpromoted pawns"));
}

#[test]
fn a_position_is_checked_on_the_way_in_and_every_problem_is_named() {
    // No kings, ten rooks and more: refused with all of it, even with everything relaxed
    // (the kings and the material are never relaxed).
    let crowded = "9/9/RRRRRRRRR/9/9/9/9/9/9 b RBGSNLP 1";
    let e = match Position::<Shogi>::from_sfen_with(crowded, Relax::CANDIDATE) {
        Err(SfenError::Illegal(e)) => e,
        other => panic!("{other:?}"),
    };
    assert_eq!(e.errors(), E::MISSING_KING | E::TOO_MUCH_MATERIAL);
    for part in [
        "Black has no king",
        "White has no king",
        "10 rooks on the board and in hand, this game has 2",
    ] {
        assert!(e.to_string().contains(part), "{e}");
    }
    assert_eq!(
        refused("4k/5/5/5/K4 b 3P 1", Relax::CANDIDATE),
        E::TOO_MUCH_MATERIAL
    );
    assert_eq!(
        refused("k3k/5/5/5/K4 b - 1", Relax::CANDIDATE),
        E::TOO_MANY_KINGS | E::TOO_MUCH_MATERIAL
    );
    assert_eq!(
        refused("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", Relax::CANDIDATE),
        E::TOO_MUCH_MATERIAL
    );
    assert_eq!(
        refused("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", Relax::CANDIDATE),
        E::TOO_MUCH_MATERIAL
    );
    assert_eq!(
        refused("4k/5/5/5/K4 b 99P 1", Relax::CANDIDATE),
        E::TOO_MUCH_MATERIAL
    );
}

#[test]
fn each_relaxable_rule_is_refused_unless_relaxed() {
    let two_pawns_dead_check = "P3k/5/P4/5/K3R b - 1";
    let all = E::DEAD_PIECE | E::TWO_PAWNS | E::OPPONENT_IN_CHECK;
    assert_eq!(refused(two_pawns_dead_check, Relax::empty()), all);
    assert_eq!(
        refused(two_pawns_dead_check, Relax::TWO_PAWNS),
        E::DEAD_PIECE | E::OPPONENT_IN_CHECK
    );
    assert_eq!(
        refused(two_pawns_dead_check, Relax::DEAD_PIECES),
        E::TWO_PAWNS | E::OPPONENT_IN_CHECK
    );
    assert_eq!(
        refused(two_pawns_dead_check, Relax::OPPONENT_IN_CHECK),
        E::PLACEMENT
    );
    assert_eq!(
        refused(two_pawns_dead_check, Relax::PLACEMENT),
        E::OPPONENT_IN_CHECK
    );
    assert_eq!(refused(two_pawns_dead_check, Relax::CANDIDATE), E::empty());
    // What was relaxed is still reported by the position itself.
    let p = Position::<MiniShogi>::from_sfen_with(two_pawns_dead_check, Relax::CANDIDATE).unwrap();
    assert_eq!(p.validate(), all);
    let e = Position::<MiniShogi>::from_sfen(two_pawns_dead_check).unwrap_err();
    for part in [
        "Black has two unpromoted pawns on file 5",
        "Black's pawn on 5a can never move",
        "White, not to move, is in check",
    ] {
        assert!(e.to_string().contains(part), "{e}");
    }
}

/// Mate problems leave out the attacker's king: allowed on request for the side to move
/// only, never for the defender or for both sides, and such a position plays on (its
/// kingless side is never in check) but is refused by the strict reader.
#[test]
fn only_the_side_to_move_may_lack_a_king_and_only_on_request() {
    let problem = "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1";
    assert_eq!(refused(problem, Relax::CANDIDATE), E::MISSING_KING);
    let err = Position::<Shogi>::from_sfen_with(problem, Relax::CANDIDATE)
        .expect_err("strict about kings");
    assert!(err.to_string().contains("Black has no king"), "{err}");
    let pos = Position::<Shogi>::from_sfen_with(problem, Relax::ATTACKER_WITHOUT_KING)
        .expect("the attacker may lack its king");
    assert_eq!(pos.king(Color::Black), None);
    assert!(!pos.in_check(Color::Black));
    assert!(pos.count_moves() > 0);
    for mv in pos.moves() {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        // White's replies never include capturing a king that is not there.
        assert!(next.count_moves() <= shogi_core::MAX_MOVES as u64);
        assert_eq!(next.king(Color::Black), None);
    }
    // The defender (White, not to move) must have its king; so must both when White moves.
    let no_defender = "9/9/9/9/9/9/9/9/4K4 b - 1";
    let err = Position::<Shogi>::from_sfen_with(no_defender, Relax::ATTACKER_WITHOUT_KING)
        .expect_err("the defender's king is required");
    assert!(err.to_string().contains("White has no king"), "{err}");
    let white_to_move = "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 w R2b4g2s4n3l16p 1";
    assert!(
        Position::<Shogi>::from_sfen_with(white_to_move, Relax::ATTACKER_WITHOUT_KING).is_err()
    );
    let neither = "9/9/9/9/9/9/9/9/9 b - 1";
    assert!(Position::<Shogi>::from_sfen_with(neither, Relax::all()).is_err());
}
