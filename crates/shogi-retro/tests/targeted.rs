//! One test per rule of docs/METHOD.md §6, named after the rule it guards, for Shogi, Mini Shogi and
//! reduced material.

use shogi_core::{
    AnyPosition, Color, Game, MiniShogi, PawnDropRule, Piece, PieceKind, Position, Relax, Rules,
    Setup, Shogi, Square,
};
use shogi_retro::{predecessor, redo, undo, unmoves, Unmove, UnmoveList, UnmoveParseError};
use shogi_verify::sweep::{check_position, SweepReport};

const NO_REPLY: Rules = Rules {
    pawn_drop: PawnDropRule::NoLegalReply,
};

fn pos<G: Game>(sfen: &str) -> Position<G> {
    // Prev1 is defined on the whole candidate space: relax what may be relaxed.
    Position::<G>::from_sfen_with(sfen, Relax::CANDIDATE).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The text forms of the unmoves of `sfen`, after checking every predecessor for
/// soundness and every move of the position for completeness.
fn texts_with<G: Game>(sfen: &str, rules: Rules) -> Vec<String> {
    let p = pos::<G>(sfen);
    if p.validate().is_empty() {
        let mut report = SweepReport::default();
        check_position(&p, rules, &mut report);
        assert!(report.passed(), "{report}");
    }
    let mut list = UnmoveList::new();
    unmoves(&p, rules, &mut list);
    list.iter().map(|u| u.to_text::<G>()).collect()
}

fn texts<G: Game>(sfen: &str) -> Vec<String> {
    texts_with::<G>(sfen, Rules::default())
}

fn has(list: &[String], t: &str) -> bool {
    list.iter().any(|x| x == t)
}

#[track_caller]
fn assert_has(list: &[String], yes: &[&str], no: &[&str]) {
    for t in yes {
        assert!(has(list, t), "{t} missing from {list:?}");
    }
    for t in no {
        assert!(!has(list, t), "{t} wrongly in {list:?}");
    }
}

#[test]
fn uncapture_restores_promoted_piece() {
    // Black's rook on 5e took something on its last move: a pawn or a tokin, a bishop or a
    // horse, all from Black's hand. The restored piece is White's.
    let l = texts::<Shogi>("8k/9/9/9/4R4/9/9/9/4K4 w BP 2");
    assert_has(&l, &["R5f5ex+P", "R5f5ex+B", "R5c5ex+B", "R9e5ex+P"], &[]);
    let q = predecessor(
        &pos::<Shogi>("8k/9/9/9/4R4/9/9/9/4K4 w BP 2"),
        Unmove::from_text::<Shogi>("R5f5ex+B").unwrap(),
    )
    .unwrap();
    assert_eq!(q.to_sfen(), "8k/9/9/9/4+b4/4R4/9/9/4K4 b P 1");
    // Mini Shogi: a silver took a promoted silver or a dragon.
    let l = texts::<MiniShogi>("4k/5/2S2/5/K4 w RS 2");
    assert_has(&l, &["S3d3cx+S", "S3d3cx+R", "S2d3cx+R"], &[]);
}

#[test]
fn same_capture_restored_as_promoted_and_unpromoted() {
    let l = texts::<Shogi>("8k/9/9/9/4R4/9/9/9/4K4 w BP 2");
    for from in ["5f", "5d", "5b", "4e", "2e", "9e", "5h"] {
        for cap in ["P", "+P", "B", "+B"] {
            let t = format!("R{from}5ex{cap}");
            assert!(has(&l, &t), "{t} missing");
        }
        let t = format!("R{from}5e");
        assert!(has(&l, &t), "{t} missing");
    }
    // A gold and a king cannot be promoted: restored only as they are.
    let l = texts::<Shogi>("8k/9/9/9/4R4/9/9/9/4K4 w G 2");
    assert_has(&l, &["R5f5exG"], &["R5f5ex+G"]);
    let l = texts::<MiniShogi>("4k/5/2S2/5/K4 w P 2");
    assert_has(&l, &["S3d3cxP", "S3d3cx+P"], &[]);
}

#[test]
fn promotion_possible_only_because_origin_in_zone() {
    // Black dragon on 5d (outside the zone): as a rook it promoted, so it came from the
    // zone (5c, 5b), not from 5e..5h. From 5a it would have left White's king on 1a in
    // check along rank a.
    let l = texts::<Shogi>("8k/9/9/4+R4/9/9/9/9/4K4 w - 2");
    assert_has(
        &l,
        &["R5c5d+", "R5b5d+", "+R5e5d", "+R5c5d", "+R5h5d", "+R4c5d"],
        &["R5e5d+", "R5h5d+", "R5a5d+", "R4c5d+", "+R5a5d"],
    );
    // Moving into the zone promotes from anywhere (the destination is in the zone).
    let l = texts::<Shogi>("8k/9/4+R4/9/9/9/9/9/4K4 w - 2");
    assert_has(&l, &["R5h5c+", "R5d5c+", "R9c5c+"], &[]);
    // Mini Shogi: one-rank zone.
    let l = texts::<MiniShogi>("5/5/1+R3/3k1/K4 w - 2");
    assert_has(
        &l,
        &["R4a4c+", "+R4b4c", "+R4e4c", "+R5c4c"],
        &["R4b4c+", "R4d4c+", "R4e4c+", "R5c4c+", "+R3c4c"],
    );
    // A White tokin on 5f (White's zone is ranks g..i in Shogi): promoted moving out of it.
    let l = texts::<Shogi>("4k4/9/9/9/9/4+p4/9/9/K8 b - 1");
    assert_has(&l, &["+P5e5f"], &["P5e5f+"]);
    let l = texts::<Shogi>("4k4/9/9/9/9/9/4+p4/9/K8 b - 1");
    assert_has(&l, &["P5f5g+", "+P5f5g"], &[]);
}

#[test]
fn unpromotion_of_knight_lance_pawn_never_leaves_a_dead_piece() {
    // Promoted knight, lance, pawn on the last rank: their unpromoted origins are always
    // squares where they can still move.
    let l = texts::<Shogi>("+N+L+P3k2/9/9/9/9/9/9/9/K8 w - 2");
    assert_has(&l, &["N8c9a+", "L8b8a+", "L8i8a+", "P7b7a+"], &[]);
    for t in &l {
        let u = Unmove::from_text::<Shogi>(t).unwrap();
        let q = predecessor(&pos::<Shogi>("+N+L+P3k2/9/9/9/9/9/9/9/K8 w - 2"), u).unwrap();
        assert!(q.placement_errors().is_empty(), "{t}: {q}");
    }
    // A dead piece on the board has no predecessor: it moved there without promoting or was
    // dropped there, both illegal.
    for sfen in [
        "4k4/9/9/9/9/9/9/9/n3K4 b - 1",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
        "N3k4/9/9/9/9/9/9/9/4K4 w - 2",
        "1N2k4/9/9/9/9/9/9/9/4K4 w - 2",
        "L3k4/9/9/9/9/9/9/9/4K4 w - 2",
        "P3k4/9/9/9/9/9/9/9/4K4 w - 2",
    ] {
        assert!(texts::<Shogi>(sfen).is_empty(), "{sfen}");
    }
    assert!(texts::<MiniShogi>("P3k/5/5/5/4K w - 2").is_empty());
}

#[test]
fn uncapture_never_restores_a_dead_piece() {
    // A Black rook on 5i (White's last rank): a White pawn, lance or knight restored there
    // could never move; promoted, they could.
    let l = texts::<Shogi>("8k/9/9/9/9/9/9/9/K3R4 w PLN 2");
    assert_has(
        &l,
        &["R5h5ix+P", "R5h5ix+L", "R5h5ix+N"],
        &["R5h5ixP", "R5h5ixL", "R5h5ixN"],
    );
    // Rank h: the knight is dead there, the pawn and lance are not.
    let l = texts::<Shogi>("8k/9/9/9/9/9/9/4R4/K8 w PLN 2");
    assert_has(&l, &["R5g5hxP", "R5g5hxL", "R5g5hx+N"], &["R5g5hxN"]);
    let l = texts::<MiniShogi>("4k/5/5/5/K1R2 w P 2");
    assert_has(&l, &["R3d3ex+P"], &["R3d3exP"]);
}

#[test]
fn restoring_a_pawn_that_would_make_two_pawns() {
    // White already has a pawn on file 5: a White pawn restored on 5e would be a second one.
    let l = texts::<Shogi>("8k/9/4p4/9/4R4/9/9/9/4K4 w P 2");
    assert_has(&l, &["R5f5ex+P", "R4e5ex+P"], &["R5f5exP", "R4e5exP"]);
    // Un-promoting a Black tokin beside a Black pawn on its file is two pawns too.
    let l = texts::<Shogi>("8k/9/4+P4/9/9/4P4/9/9/K8 w - 2");
    assert_has(&l, &["+P5d5c"], &["P5d5c+"]);
    let l = texts::<Shogi>("8k/9/4+P4/9/9/9/9/9/K8 w - 2");
    assert_has(&l, &["+P5d5c", "P5d5c+"], &[]);
    // Mini Shogi.
    let l = texts::<MiniShogi>("p3k/5/R4/5/4K w P 2");
    assert_has(&l, &["R5d5cx+P"], &["R5d5cxP"]);
}

#[test]
fn discovered_check_the_predecessor_would_have_left_open() {
    // White's king on 5a is checked by the rook on 5h. The silver on 4e uncovered it (from
    // 5f or 5d, on the file) or the rook moved along rank h; a silver move from 4f would
    // have left White in check before Black's move.
    let l = texts::<Shogi>("4k4/9/9/9/5S3/9/9/4R4/K8 w - 2");
    assert_has(
        &l,
        &["S5f4e", "S5d4e", "R4h5h", "R9h5h", "R*5h"],
        &["S4f4e", "S3f4e", "S3d4e", "R5i5h", "S*4e", "K9h9i", "K8h9i"],
    );
    // Mini Shogi: a bishop on 1e checks White's king on 5a once the gold left 3c.
    let l = texts::<MiniShogi>("k4/5/3G1/5/K3B w - 2");
    assert_has(
        &l,
        &["G3c2c", "G2d2c", "B*1e"],
        &["G1d2c", "G3d2c", "G1c2c", "G2b2c", "G*2c", "B2d1e"],
    );
}

#[test]
fn double_check_only_moves_that_give_both_checks() {
    // The knight on 4c checks White's king on 5a and uncovered the lance on 5g: it came
    // from 5e. Nothing else gives both checks.
    let l = texts::<Shogi>("4k4/9/5N3/9/9/9/4L4/9/K8 w - 2");
    assert_eq!(l, vec!["N5e4c".to_string()]);
    // Two checks by pieces that do not uncover each other: no predecessor.
    assert!(texts::<Shogi>("4k4/4G4/5N3/9/9/9/9/9/K8 w - 2").is_empty());
    // Mini Shogi: rook on 5e and silver on 4b check the king on 5a; only the silver moving
    // off file 5 (from 5c) gives both.
    let l = texts::<MiniShogi>("k4/1S3/5/5/R3K w - 2");
    assert_eq!(l, vec!["S5c4b".to_string()]);
}

#[test]
fn undrop_of_pawn_that_mates_is_rejected() {
    // The pawn on 1b mates White's king on 1a (the gold on 2c guards it and 2b, White's own
    // lance blocks 2a): it cannot have been dropped; it can have moved from 1c.
    for rules in [Rules::default(), NO_REPLY] {
        let l = texts_with::<Shogi>("7lk/8P/7G1/9/9/9/9/9/K8 w - 2", rules);
        assert_has(&l, &["P1c1b"], &["P*1b"]);
    }
    // Mini Shogi.
    let l = texts::<MiniShogi>("3rk/4P/3G1/5/K4 w - 2");
    assert_has(&l, &["P1c1b"], &["P*1b"]);
}

#[test]
fn undrop_of_pawn_that_checks_without_mating_is_kept() {
    // Without the gold the king takes the pawn: the drop was legal.
    for rules in [Rules::default(), NO_REPLY] {
        let l = texts_with::<Shogi>("7lk/8P/9/9/9/9/9/9/K8 w - 2", rules);
        assert_has(&l, &["P1c1b", "P*1b"], &[]);
    }
    let l = texts::<MiniShogi>("3sk/4P/5/5/K4 w - 2");
    assert_has(&l, &["P1c1b", "P*1b"], &[]);
}

#[test]
fn undrop_of_pawn_that_stalemates_depends_on_the_rule_option() {
    // The pawn on 2b gives no check but leaves White no legal move: legal under the usual
    // rule, a forbidden drop under the paper's reading.
    let sfen = "8k/7P1/8G/9/9/9/9/9/K8 w - 2";
    assert!(!pos::<Shogi>(sfen).has_legal_move(Rules::default()));
    assert_has(&texts::<Shogi>(sfen), &["P*2b", "P2c2b"], &[]);
    assert_has(&texts_with::<Shogi>(sfen, NO_REPLY), &["P2c2b"], &["P*2b"]);
}

#[test]
fn no_predecessor_double_check_by_two_golds() {
    // Figure 12, first kind: Black's king checked by the golds on 4h and 6h.
    assert!(texts::<Shogi>("4k4/9/9/9/9/9/9/3g1g3/4K4 b - 1").is_empty());
    assert!(texts::<Shogi>("4k4/9/9/9/9/9/9/3g1g3/4K4 b 2P 1").is_empty());
    assert!(texts::<MiniShogi>("k4/5/5/1g1g1/2K2 b - 1").is_empty());
}

#[test]
fn one_adjacent_checker_made_the_last_move() {
    // White's gold on 5d checks the king on 5e from the next square: whatever else White
    // could have moved (the silver on 1b, the pawn on 9c, the lance on 1a), only the gold
    // can have moved last, onto 5d, or been dropped there; a knight's check the same.
    let gold = "4k3l/8s/p8/4g4/4K4/9/9/9/9 b - 1";
    let p = pos::<Shogi>(gold);
    let mut list = UnmoveList::new();
    unmoves(&p, Rules::default(), &mut list);
    assert!(!list.is_empty());
    let d5 = Square::from_usi::<Shogi>("5d").unwrap();
    for u in &list {
        let to = match *u {
            Unmove::Drop { to, .. } | Unmove::Normal { to, .. } => to,
        };
        assert_eq!(to, d5, "{}", u.to_text::<Shogi>());
    }
    assert_has(
        &texts::<Shogi>(gold),
        &["G*5d", "G4c5d", "G5c5d"],
        &["S2a1b", "P9b9c"],
    );
    let knight = texts::<Shogi>("4k3l/8s/p2n5/9/4K4/9/9/9/9 b - 1");
    assert_has(&knight, &["N*6c"], &["S2a1b", "P9b9c"]);
    assert!(knight.iter().all(|t| t.ends_with("6c")), "{knight:?}");
    // A slider next to the king: the same; a distant one can be a discovered check.
    let adjacent_rook = texts::<MiniShogi>("k4/5/2r2/2K2/5 b - 1");
    assert!(
        adjacent_rook.iter().all(|t| t.contains("3c")),
        "{adjacent_rook:?}"
    );
    assert!(!adjacent_rook.is_empty());
    // A step checker and a knight checker: no single move made both.
    assert!(texts::<Shogi>("4k4/9/3n5/4g4/4K4/9/9/9/9 b - 1").is_empty());
}

#[test]
fn no_predecessor_checker_only_origin_gives_check() {
    // Figure 12, second kind: the horse on 7g checks the king on 9i; its only free origin
    // is 8h, from where (as bishop or horse) it already attacked the king.
    assert!(texts::<Shogi>("8k/9/9/9/9/1GGG5/1G+bS5/2SS5/K8 b - 1").is_empty());
    // With 7f empty the horse could have come from there.
    assert_eq!(
        texts::<Shogi>("8k/9/9/9/9/1G1G5/1G+bS5/2SS5/K8 b - 1"),
        vec!["+B7f7g".to_string()]
    );
}

#[test]
fn no_predecessor_drop_pawn_mate() {
    // Figure 12, third kind: the pawn on 9h mates and cannot have moved (9g is occupied);
    // its drop would have been drop-pawn-mate.
    for rules in [Rules::default(), NO_REPLY] {
        assert!(texts_with::<Shogi>("8k/9/9/9/9/9/sg7/p8/KL7 b - 1", rules).is_empty());
    }
    // With 9g empty the pawn moved from there.
    assert_eq!(
        texts::<Shogi>("8k/9/9/9/9/9/1g7/p8/KL7 b - 1"),
        vec!["P9g9h".to_string()]
    );
}

#[test]
fn no_predecessor_no_origin_for_any_piece() {
    // Figure 12, fourth kind: White has only its king and a horse, both boxed in.
    assert!(texts::<Shogi>("9/9/9/9/4K4/9/9/PL5NP/+bP5Pk b - 1").is_empty());
    assert!(texts::<MiniShogi>("5/2K2/5/SS1GP/+bG1Pk b - 1").is_empty());
}

#[test]
fn no_predecessor_when_the_side_that_moved_is_in_check() {
    // White to move, Black's king attacked by White's rook: Black's move was illegal.
    assert!(texts::<Shogi>("4k4/9/9/9/4r4/9/9/9/4K4 w - 2").is_empty());
    assert!(texts::<MiniShogi>("4k/5/5/5/r3K w - 2").is_empty());
}

#[test]
fn king_unmoves_included() {
    let l = texts::<Shogi>("4k4/9/9/9/9/9/9/9/4K4 w - 2");
    assert_eq!(l.len(), 5, "{l:?}");
    assert_has(&l, &["K5h5i", "K4h5i", "K6h5i", "K4i5i", "K6i5i"], &[]);
    // A king capture restores the piece it took.
    let l = texts::<MiniShogi>("4k/5/5/5/K4 w G 2");
    assert_has(&l, &["K5d5exG", "K4e5exG", "K4d5exG"], &[]);
    // Adjacent kings in the predecessor: White's king on 4b, Black's king cannot have come
    // from 4c/5c/6c... (they touch 4b) but from 4d-side squares it can.
    let l = texts::<Shogi>("9/5k3/9/4K4/9/9/9/9/9 w - 2");
    assert_has(
        &l,
        &["K5e5d", "K6e5d", "K4e5d", "K6c5d"],
        &["K5c5d", "K4c5d"],
    );
}

#[test]
fn first_move_is_among_many_predecessors() {
    // After 7g7f the position (a triple, not a history) has many predecessors: 7g7f from
    // the initial position, but also drops (Black held the piece) and other moves.
    let start = pos::<Shogi>(Shogi::START_SFEN);
    let after = pos::<Shogi>("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    let l = texts::<Shogi>(&after.to_sfen());
    assert_has(
        &l,
        &["P7g7f", "P*7f", "B7g8h", "R*2h", "K4h5i"],
        &["P*7g", "B*2h"],
    );
    assert_eq!(l.len(), 43, "{l:?}");
    let q = predecessor(&after, Unmove::from_text::<Shogi>("P7g7f").unwrap()).unwrap();
    assert_eq!(q, start);
    // The initial position itself: White's last move could have been any piece that has a
    // free origin; every predecessor is checked by `texts`.
    assert!(!texts::<Shogi>(Shogi::START_SFEN).is_empty());
    assert!(!texts::<MiniShogi>(MiniShogi::START_SFEN).is_empty());
}

#[test]
fn undo_redo_keeps_the_key_incremental() {
    let p = pos::<Shogi>("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    let mut list = UnmoveList::new();
    unmoves(&p, Rules::default(), &mut list);
    assert!(!list.is_empty());
    let mut q = p.clone();
    for &u in &list {
        undo(&mut q, u).unwrap();
        assert_eq!(q.key(), q.compute_key(), "{}", u.to_text::<Shogi>());
        assert_eq!(q.side_to_move(), !p.side_to_move());
        redo(&mut q, u);
        assert_eq!(q, p);
        assert_eq!(q.key(), p.key());
    }
}

#[test]
fn text_form_round_trips_and_rejects_garbage() {
    for t in [
        "P7g7f",
        "B2b9i+",
        "+B9i8ixP",
        "R2h2c+x+S",
        "K5i4h",
        "P*5d",
        "N*1c",
        "+R5e5ax+B",
    ] {
        let u = Unmove::from_text::<Shogi>(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(u.to_text::<Shogi>(), t);
    }
    assert_eq!(
        Unmove::from_text::<Shogi>("7g7f"),
        Err(UnmoveParseError::BadPiece("7g".into()))
    );
    assert!(matches!(
        Unmove::from_text::<Shogi>(""),
        Err(UnmoveParseError::Empty)
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("G5i4h+"),
        Err(UnmoveParseError::CannotPromote)
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("+G5i4h"),
        Err(UnmoveParseError::BadPiece(_))
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("G5i4hxK"),
        Err(UnmoveParseError::BadCapture(_))
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("G5i5i"),
        Err(UnmoveParseError::SameSquare)
    ));
    assert!(matches!(
        Unmove::from_text::<MiniShogi>("G9i4h"),
        Err(UnmoveParseError::BadSquare(_))
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("P7g7f?"),
        Err(UnmoveParseError::Trailing(_))
    ));
    assert!(matches!(
        Unmove::from_text::<Shogi>("K*5e"),
        Err(UnmoveParseError::BadPiece(_))
    ));
    assert_eq!(
        Unmove::from_text::<Shogi>("+B9i8ixP")
            .unwrap()
            .forward()
            .to_usi::<Shogi>(),
        "9i8i"
    );
}

/// Where the third piece goes: on a square for a colour, or in a colour's hand.
type Place = (Option<(usize, Color)>, Option<Color>);

/// Every position of a small material set: two kings and one more piece (any kind,
/// promoted or not, either colour, any square, or in either hand), either side to move. Each
/// legal one passes the completeness and soundness checks; each with the side not to move in
/// check or a placement error has no predecessor.
fn exhaustive_one_piece<G: Game>(kinds: &[PieceKind], king_squares: &[usize]) -> u64 {
    let n = G::SQUARES;
    let mut report = SweepReport::default();
    let mut checked = 0;
    for &bk in king_squares {
        for wk in 0..n {
            if wk == bk {
                continue;
            }
            for &kind in kinds {
                // Placements: on a square for either colour, or in either hand.
                let mut places: Vec<Place> =
                    vec![(None, Some(Color::Black)), (None, Some(Color::White))];
                if kind.is_promoted() {
                    places.clear();
                }
                for s in 0..n {
                    if s != bk && s != wk {
                        places.push((Some((s, Color::Black)), None));
                        places.push((Some((s, Color::White)), None));
                    }
                }
                for (on, hand) in places {
                    for side in Color::ALL {
                        let mut p = Setup::<G>::empty();
                        p.put(
                            Square::from_index(bk as u8).unwrap(),
                            Piece::new(Color::Black, PieceKind::King),
                        );
                        p.put(
                            Square::from_index(wk as u8).unwrap(),
                            Piece::new(Color::White, PieceKind::King),
                        );
                        if let Some((s, c)) = on {
                            p.put(Square::from_index(s as u8).unwrap(), Piece::new(c, kind));
                        }
                        if let Some(c) = hand {
                            p.set_hand(c, kind, 1);
                        }
                        p.set_side_to_move(side);
                        let p = p.into_position(Relax::CANDIDATE).unwrap();
                        if p.validate().is_empty() {
                            check_position(&p, Rules::default(), &mut report);
                            checked += 1;
                        } else {
                            let mut l = UnmoveList::new();
                            unmoves(&p, Rules::default(), &mut l);
                            assert!(l.is_empty(), "{p}: {:?}", p.validate());
                        }
                    }
                }
            }
        }
    }
    assert!(report.passed(), "{report}");
    checked
}

#[test]
fn reduced_material_mini_every_position_with_one_piece() {
    let kinds = [
        PieceKind::Pawn,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::ProPawn,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    let kings: Vec<usize> = (0..MiniShogi::SQUARES).collect();
    let n = exhaustive_one_piece::<MiniShogi>(&kinds, &kings);
    assert!(n > 100_000, "{n}");
}

#[test]
fn reduced_material_shogi_positions_with_one_piece() {
    let kinds = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Gold,
        PieceKind::Rook,
        PieceKind::Horse,
    ];
    // Black's king on a corner and in the centre.
    let n = exhaustive_one_piece::<Shogi>(&kinds, &[0, 40]);
    assert!(n > 50_000, "{n}");
}

#[test]
fn missing_kings_and_empty_boards_are_no_positions() {
    // Without kings there is nothing to take moves back from: such boards never become
    // positions, so the generator never sees them.
    for sfen in ["5/5/2G2/5/5 w - 2", "9/9/9/9/9/9/9/9/9 b - 1"] {
        assert!(
            AnyPosition::from_sfen_with(sfen, Relax::CANDIDATE).is_err(),
            "{sfen}"
        );
    }
}

/// Replays a game; at every ply the position before the move is a predecessor of the one
/// after it, through exactly the unmove of the move played.
fn replay_game<G: Game>(moves: &str) -> Position<G> {
    let mut p = Position::<G>::startpos();
    let mut list = UnmoveList::new();
    for usi in moves.split_whitespace() {
        let before = p.clone();
        let mv = p.play_usi(usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
        unmoves(&p, Rules::default(), &mut list);
        let u = Unmove::of_move(&before, mv).unwrap();
        assert!(
            list.contains(&u),
            "{usi}: {} missing at {p}",
            u.to_text::<G>()
        );
        assert_eq!(predecessor(&p, u).unwrap(), before);
        let mut report = SweepReport::default();
        check_position(&p, Rules::default(), &mut report);
        assert!(report.passed(), "{report}");
    }
    p
}

#[test]
fn paper_example_games_every_ply_has_its_predecessor() {
    // docs/METHOD.md §9: the paper's appendix game (44 plies to a KK position) and the Mini Shogi
    // line to a KK position and back.
    let p = replay_game::<Shogi>(
        "7g7f 8b3b 8h3c 3b3c 2h3h 3c3g 3h3g 2b9i+ 3g3a 9i8i 3a2a 8i6g 2a2c 6g7f 2c1c 7f8g \
         1c4c 1a1g 1i1g 8g9g 4c5c 5a4b 5c6c 9g7i 6c7c 7i5g 7c7a 5g3i 7a8a 3i1g 8a8c 1g2g \
         4i3h 2g3h 8c9c 3h2i 9c9a 2i4g 9a6a 4g6i 5i6i 4b5b 6a4a 5b4a",
    );
    assert_eq!(p.occupied().count(), 2);
    let p = replay_game::<MiniShogi>(
        "1e1b 1a1b 5d5c 5a5c 4e5d 5c5d 5e5d 4a5b 2e5b 3a4b 5b4c 4b4c 5d4c 2a3b 4c3b 1b1c \
         3e2d 1c2d",
    );
    assert_eq!(p.occupied().count(), 2);
}

/// The three selectable unmove kinds partition the full set, in the full set's order.
fn assert_kinds_partition<G: Game>(positions: usize, seed: u64) {
    use core::ops::ControlFlow;
    use shogi_retro::{for_each_unmove_of, UnmoveKinds};
    use shogi_verify::{rng::test_rng, sweep::random_start};
    let mut rng = test_rng(seed);
    let collect = |p: &Position<G>, kinds: UnmoveKinds| {
        let mut v = Vec::new();
        let _ = for_each_unmove_of(p, Rules::default(), kinds, |u| {
            v.push(u);
            ControlFlow::Continue(())
        });
        v
    };
    let only = |drops, quiet, captures| UnmoveKinds {
        drops,
        quiet,
        captures,
    };
    let mut captures_seen = 0;
    for _ in 0..positions {
        let p = random_start::<G>(&mut rng);
        let mut all = UnmoveList::new();
        unmoves(&p, Rules::default(), &mut all);
        let drops = collect(&p, only(true, false, false));
        let quiet = collect(&p, only(false, true, false));
        let caps = collect(&p, UnmoveKinds::CAPTURES);
        assert!(drops.iter().all(|u| matches!(u, Unmove::Drop { .. })));
        assert!(quiet
            .iter()
            .all(|u| matches!(u, Unmove::Normal { captured: None, .. })));
        assert!(caps.iter().all(|u| matches!(
            u,
            Unmove::Normal {
                captured: Some(_),
                ..
            }
        )));
        captures_seen += caps.len();
        let non_caps = collect(&p, UnmoveKinds::NON_CAPTURES);
        let mut union: Vec<Unmove> = non_caps.iter().chain(&caps).copied().collect();
        let mut expected = all.clone();
        assert_eq!(non_caps.len(), drops.len() + quiet.len());
        union.sort();
        expected.sort();
        assert_eq!(union, expected, "{}", p.to_sfen());
    }
    assert!(captures_seen > 0, "the sample exercised un-captures");
}

#[test]
fn unmove_kinds_partition_the_predecessors() {
    assert_kinds_partition::<Shogi>(2000, 11);
    assert_kinds_partition::<MiniShogi>(2000, 12);
}
