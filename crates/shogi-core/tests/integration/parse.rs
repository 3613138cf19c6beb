//! SFEN and USI parsing: every malformed input is a typed error, and nothing panics.

use proptest::prelude::*;
use shogi_core::{
    AnyPosition, MiniShogi, Move, Position, PositionErrors, Relax, Setup, SfenError, Shogi,
    UsiError,
};

fn err(sfen: &str) -> SfenError {
    AnyPosition::from_sfen(sfen).expect_err(sfen)
}

#[test]
fn malformed_sfen_errors_say_what_and_where() {
    use SfenError::*;
    assert_eq!(err(""), Empty);
    assert_eq!(err("   "), Empty);
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR"), MissingField("side to move"));
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR b"), MissingField("hands"));
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR b - 1 x"), TrailingText("x".into()));
    assert_eq!(err("rbsgk/4p/5/KGSBR b - 1"), UnsupportedBoard { ranks: 4 });
    assert_eq!(
        err("rbsgk/4p/6/P4/KGSBR b - 1"),
        RankLength {
            rank: 3,
            expected: 5,
            found: 6
        }
    );
    assert_eq!(
        err("rbsgk/4p/5/P3/KGSBR b - 1"),
        RankLength {
            rank: 4,
            expected: 5,
            found: 4
        }
    );
    assert_eq!(
        err("rbsgk/4x/5/P4/KGSBR b - 1"),
        BadBoardChar { rank: 2, ch: 'x' }
    );
    assert_eq!(
        err("rbsgk/0p4/5/P4/KGSBR b - 1"),
        BadBoardChar { rank: 2, ch: '0' }
    );
    assert_eq!(
        err("rbsgk/4+/5/P4/KGSBR b - 1"),
        DanglingPromotion { rank: 2 }
    );
    assert_eq!(
        err("rbsgk/3+1p/5/P4/KGSBR b - 1"),
        DanglingPromotion { rank: 2 }
    );
    assert_eq!(
        err("rbsg+k/4p/5/P4/KGSBR b - 1"),
        CannotPromote {
            rank: 1,
            piece: 'k'
        }
    );
    assert_eq!(
        err("rbsgk/4p/5/P4/K+GSBR b - 1"),
        CannotPromote {
            rank: 5,
            piece: 'G'
        }
    );
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR x - 1"), BadSide("x".into()));
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR B - 1"), BadSide("B".into()));
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b Pk 1"),
        BadHandChar { ch: 'k', at: 1 }
    );
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b P% 1"),
        BadHandChar { ch: '%', at: 1 }
    );
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR b 0P 1"), BadHandCount("0".into()));
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b 300P 1"),
        BadHandCount("300".into())
    );
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b 128P 1"),
        BadHandCount("128".into())
    );
    // The largest count reads, and is then judged by the rules: too much material.
    assert!(Setup::<MiniShogi>::from_sfen("rbsgk/4p/5/P4/KGSBR b 127P 1").is_ok());
    assert!(matches!(
        err("rbsgk/4p/5/P4/KGSBR b 127P 1"),
        SfenError::Illegal(e) if e.errors() == PositionErrors::TOO_MUCH_MATERIAL
    ));
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR b P2 1"), BadHandCount("2".into()));
    assert_eq!(err("rbsgk/4p/5/P4/KGSBR b PP 1"), RepeatedHandPiece('P'));
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b - -3"),
        BadMoveNumber("-3".into())
    );
    assert_eq!(
        Position::<Shogi>::from_sfen(MINI_START).unwrap_err(),
        WrongRankCount {
            expected: 9,
            found: 5
        }
    );
    // Messages name the problem.
    let msg = err("rbsgk/4p/6/P4/KGSBR b - 1").to_string();
    assert!(msg.contains("rank 3") && msg.contains('6'), "{msg}");
}

const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

/// A message quotes at most the first 40 characters of a bad field, with its length: a
/// megabyte of bad text does not come back whole.
#[test]
fn errors_quote_a_short_prefix_of_a_long_field() {
    let kk = "4k4/9/9/9/9/9/9/9/4K4";
    let mb = 1 << 20;
    for sfen in [
        format!("{kk} b - 1 {}", "x".repeat(mb)),
        format!("{kk} {} - 1", "b".repeat(mb)),
        format!("{kk} b - {}", "9".repeat(mb)),
        format!("{kk} b - {}", "é".repeat(mb)),
    ] {
        let message = err(&sfen).to_string();
        assert!(
            message.len() < 200,
            "{} bytes: {message:.300}",
            message.len()
        );
        assert!(
            message.contains("…\" (") && message.contains(" bytes)"),
            "{message}"
        );
    }
    // A hand count stops at its fourth digit (the largest is 3 digits long).
    let message = err(&format!("{kk} b {}P 1", "1".repeat(mb))).to_string();
    assert!(message.len() < 200, "{message:.300}");
    // A short field is quoted whole, as before.
    assert_eq!(
        err(&format!("{kk} x - 1")).to_string(),
        "side to move must be 'b' or 'w', found \"x\""
    );
    let usi = "7g7f".repeat(mb / 4);
    let e = Position::<Shogi>::startpos().play_usi(&usi).unwrap_err();
    assert!(e.to_string().len() < 200, "{e}");
    let e = "x".repeat(mb).parse::<shogi_core::GameKind>().unwrap_err();
    assert!(e.len() < 200, "{e}");
}

#[test]
fn game_is_known_from_the_number_of_ranks() {
    assert!(matches!(
        AnyPosition::from_sfen(MINI_START),
        Ok(AnyPosition::Mini(_))
    ));
    assert!(matches!(
        AnyPosition::from_sfen(<Shogi as shogi_core::Game>::START_SFEN),
        Ok(AnyPosition::Shogi(_))
    ));
    // The move number is optional; large hand counts are read (validation judges them).
    let p = Setup::<MiniShogi>::from_sfen("rbsgk/4p/5/P4/KGSBR w 12p").unwrap();
    assert_eq!(p.to_sfen(), "rbsgk/4p/5/P4/KGSBR w 12p 1");
    assert_eq!(p.validate(), PositionErrors::TOO_MUCH_MATERIAL);
}

#[test]
fn usi_errors() {
    let bad = |s: &str| Move::from_usi::<Shogi>(s).expect_err(s);
    for s in [
        "", "7g", "7g7", "7g7f++", "0a1a", "7j7f", "7g7g", "K*5e", "p*5e", "P*0e", "P-5e", "７g7f",
    ] {
        assert!(matches!(bad(s), UsiError::Syntax { .. }), "{s}");
    }
    assert!(
        Move::from_usi::<MiniShogi>("6a5a").is_err(),
        "file 6 is off a 5x5 board"
    );
    assert!(
        Move::from_usi::<MiniShogi>("5a5f").is_err(),
        "rank f is off a 5x5 board"
    );
    let mut pos = Position::<Shogi>::startpos();
    assert_eq!(pos.play_usi("7g7e"), Err(UsiError::Illegal("7g7e".into())));
    assert_eq!(pos.play_usi("P*5e"), Err(UsiError::Illegal("P*5e".into())));
    assert!(pos.play_usi("7g7f").is_ok());
}

/// Every move text of a game reads back as the move it was written from.
fn usi_text_round_trips<G: shogi_core::Game>() {
    use shogi_core::{PieceKind, Square};
    let squares: Vec<Square> = (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .collect();
    let mut moves = Vec::new();
    for &to in &squares {
        for &from in squares.iter().filter(|&&s| s != to) {
            for promote in [false, true] {
                moves.push(Move::Normal { from, to, promote });
            }
        }
        for kind in PieceKind::HAND {
            moves.push(Move::Drop { kind, to });
        }
    }
    for m in moves {
        let text = m.usi::<G>();
        assert_eq!(text.to_string(), m.to_usi::<G>());
        assert_eq!(Move::from_usi::<G>(text.as_str()), Ok(m), "{text}");
    }
}

#[test]
fn usi_text() {
    let sq = |s: &str| shogi_core::Square::from_usi::<Shogi>(s).unwrap();
    let promoting = Move::Normal {
        from: sq("2b"),
        to: sq("9i"),
        promote: true,
    };
    assert_eq!(promoting.usi::<Shogi>().as_str(), "2b9i+");
    usi_text_round_trips::<Shogi>();
    usi_text_round_trips::<MiniShogi>();
}

fn sfen_like() -> impl Strategy<Value = String> {
    // Mostly SFEN-shaped text, so that the deeper branches of the parser are reached.
    let cell = prop::sample::select(vec![
        "p", "P", "+p", "+R", "k", "K", "g", "1", "2", "5", "9", "0", "+", "/", "x", "+k", "10",
    ]);
    let board = prop::collection::vec(cell, 0..60).prop_map(|v| v.concat());
    let side = prop::sample::select(vec!["b", "w", "", "B", "x"]);
    let hand = "[-0-9PLNSGBRKplnsgbrk]{0,12}";
    let num = "[0-9-]{0,12}";
    (board, side, hand, num).prop_map(|(b, s, h, n)| format!("{b} {s} {h} {n}"))
}

/// Well-formed SFEN of arbitrary, mostly illegal positions: any pieces anywhere (kings
/// missing or doubled, dead pieces, two pawns, checks), arbitrary hands and side.
fn arbitrary_position(ranks: usize) -> impl Strategy<Value = String> {
    let square = prop::sample::select(vec![
        "1", "1", "1", "1", "1", "1", "p", "P", "l", "L", "n", "N", "s", "S", "g", "G", "b", "B",
        "r", "R", "k", "K", "+p", "+L", "+n", "+S", "+b", "+R",
    ]);
    let board =
        prop::collection::vec(prop::collection::vec(square, ranks), ranks).prop_map(|rows| {
            rows.iter()
                .map(|r| r.concat())
                .collect::<Vec<_>>()
                .join("/")
        });
    let hand = prop::collection::vec(
        (
            0u8..4,
            prop::sample::select(vec![
                'P', 'L', 'N', 'S', 'G', 'B', 'R', 'p', 'l', 'n', 's', 'g', 'b', 'r',
            ]),
        ),
        0..6,
    )
    .prop_map(|v| {
        let mut seen = std::collections::HashSet::new();
        let h: String = v
            .into_iter()
            .filter(|(_, c)| seen.insert(*c))
            .map(|(n, c)| {
                if n > 1 {
                    format!("{n}{c}")
                } else {
                    c.to_string()
                }
            })
            .collect();
        if h.is_empty() {
            "-".to_string()
        } else {
            h
        }
    });
    (board, prop::bool::ANY, hand)
        .prop_map(|(b, white, h)| format!("{b} {} {h} 1", if white { "w" } else { "b" }))
}

fn no_panic_on<G: shogi_core::Game>(p: &Position<G>) -> Result<(), TestCaseError> {
    let _ = p.validate();
    let moves = p.moves();
    prop_assert_eq!(p.count_moves(), moves.len() as u64);
    for m in moves.iter().take(20) {
        let mut q = p.clone();
        q.play_unchecked(*m);
        prop_assert_eq!(q.key(), q.compute_key());
    }
    let _ = p.perft(2);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_positions_generate_without_panicking(s in prop_oneof![arbitrary_position(5), arbitrary_position(9)]) {
        // Arbitrary boards break essential rules more often than not: those are refused
        // with a reason, the rest must generate, play and count without panicking.
        let p = match AnyPosition::from_sfen_with(&s, Relax::CANDIDATE) {
            Ok(p) => p,
            Err(SfenError::Illegal(e)) => {
                prop_assert!(e.errors().intersects(PositionErrors::ESSENTIAL), "{}", e);
                prop_assert!(!e.reason().is_empty());
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{s}: {e}"))),
        };
        prop_assert_eq!(AnyPosition::from_sfen_with(&p.to_sfen(), Relax::CANDIDATE).unwrap(), p.clone());
        match p {
            AnyPosition::Shogi(p) => no_panic_on(&p)?,
            AnyPosition::Mini(p) => no_panic_on(&p)?,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn sfen_parser_never_panics_on_any_text(s in "\\PC{0,120}") {
        let _ = AnyPosition::from_sfen(&s);
        let _ = Position::<Shogi>::from_sfen(&s);
        let _ = Position::<MiniShogi>::from_sfen(&s);
    }

    #[test]
    fn sfen_parser_never_panics_on_sfen_like_text(s in sfen_like()) {
        if let Ok(p) = AnyPosition::from_sfen(&s) {
            // Whatever parses prints back to text that parses to the same position.
            let again = AnyPosition::from_sfen(&p.to_sfen()).unwrap();
            prop_assert_eq!(again, p.clone());
            // Move generation and validation must not panic on arbitrary (illegal) input.
            match p {
                AnyPosition::Shogi(p) => { let _ = (p.validate(), p.moves(), p.perft(2)); }
                AnyPosition::Mini(p) => { let _ = (p.validate(), p.moves(), p.perft(2)); }
            }
        }
    }

    #[test]
    fn usi_parser_never_panics(s in "\\PC{0,8}") {
        let _ = Move::from_usi::<Shogi>(&s);
        let _ = Move::from_usi::<MiniShogi>(&s);
        let mut pos = Position::<MiniShogi>::startpos();
        let _ = pos.play_usi(&s);
    }
}
