//! Validation reports each rule of SPEC §5 that a position breaks, and only those.

use shogi_core::{MiniShogi, Position, PositionErrors as E, Shogi};

fn shogi(sfen: &str) -> E {
    Position::<Shogi>::from_sfen(sfen).unwrap().validate()
}
fn mini(sfen: &str) -> E {
    Position::<MiniShogi>::from_sfen(sfen).unwrap().validate()
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
    let p = Position::<MiniShogi>::from_sfen("P3k/5/P4/5/K3R b - 1").unwrap();
    assert_eq!(p.placement_errors(), E::PLACEMENT);
    assert!(p.validate().to_string().contains("two unpromoted pawns"));
}
