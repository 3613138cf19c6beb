//! Tests of the construction of games from the initial position to KK positions (issue 5):
//! random KK targets of both games are replayed move by move with the legality-checked
//! `play`, bad inputs give typed errors, and the fixed opening lines are those of docs/METHOD.md §9.

use shogi_core::{
    Color, Game, MiniShogi, Move, Piece, PieceKind, Position, Relax, Setup, Shogi, Square,
};
use shogi_reach::{
    game_to, game_to_kk, kk_to_kk, opening_line, Certificate, ConstructError, SearchConfig,
    Searcher, Verdict,
};
use shogi_verify::rng::{below, test_rng, TestRng};

const SHOGI_LINE: &str = "7g7f 8b3b 8h3c 3b3c 2h3h 3c3g 3h3g 2b9i+ 3g3a 9i8i 3a2a 8i6g 2a2c \
    6g7f 2c1c 7f8g 1c4c 1a1g 1i1g 8g9g 4c5c 5a4b 5c6c 9g7i 6c7c 7i5g 7c7a 5g3i 7a8a 3i1g 8a8c \
    1g2g 4i3h 2g3h 8c9c 3h2i 9c9a 2i4g 9a6a 4g6i 5i6i 4b5b 6a4a 5b4a";
const SHOGI_K0: &str = "5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p 45";
const MINI_LINE: &str =
    "1e1b 1a1b 5d5c 5a5c 4e5d 5c5d 5e5d 4a5b 2e5b 3a4b 5b4c 4b4c 5d4c 2a3b 4c3b 1b1c 3e2d 1c2d";
const MINI_K0: &str = "5/2K2/5/3k1/5 b RBGSPrbgsp 1";

/// Chebyshev distance between two squares.
fn distance<G: Game>(a: Square, b: Square) -> u8 {
    let dx = a.x::<G>().abs_diff(b.x::<G>());
    let dy = a.y::<G>().abs_diff(b.y::<G>());
    dx.max(dy)
}

/// A KK position with kings on `black`/`white`, `black_hand[i]` pieces of
/// `PieceKind::HAND[i]` for Black, the rest of the game's material for White.
fn kk<G: Game>(black: Square, white: Square, black_hand: [u8; 7], side: Color) -> Position<G> {
    let mut p = Setup::<G>::empty();
    p.put(black, Piece::new(Color::Black, PieceKind::King));
    p.put(white, Piece::new(Color::White, PieceKind::King));
    for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
        let total = G::MATERIAL.get(kind);
        p.set_hand(Color::Black, kind, black_hand[i]);
        p.set_hand(Color::White, kind, total - black_hand[i]);
    }
    p.set_side_to_move(side);
    p.into_position(Relax::empty()).expect("a KK position")
}

/// A random legal KK position of `G` with its full material: random non-adjacent king
/// squares, a random split of each kind (sometimes all to one side), random side to move.
fn random_kk<G: Game>(rng: &mut TestRng) -> Position<G> {
    let n = G::SQUARES;
    let (black, white) = loop {
        let b = Square::from_index(below(rng, n) as u8).unwrap();
        let w = Square::from_index(below(rng, n) as u8).unwrap();
        if distance::<G>(b, w) >= 2 {
            break (b, w);
        }
    };
    let mode = below(rng, 8);
    let mut hand = [0u8; 7];
    for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
        let total = G::MATERIAL.get(kind);
        hand[i] = match mode {
            0 => total,
            1 => 0,
            _ => below(rng, usize::from(total) + 1) as u8,
        };
    }
    let side = if below(rng, 2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    kk::<G>(black, white, hand, side)
}

/// Replays `moves` from the initial position with the legality check.
fn replay<G: Game>(moves: &[Move]) -> Position<G> {
    let mut p = Position::<G>::startpos();
    for (i, &mv) in moves.iter().enumerate() {
        p.play(mv)
            .unwrap_or_else(|e| panic!("ply {i}: {e} in {}", p.to_sfen()));
    }
    p
}

/// Builds and replays games to `count` random KK targets; returns (min, mean, max) length.
fn random_targets<G: Game>(seed: u64, count: usize) -> (usize, f64, usize) {
    let mut rng = test_rng(seed);
    let (mut min, mut max, mut sum) = (usize::MAX, 0, 0);
    for _ in 0..count {
        let target = random_kk::<G>(&mut rng);
        let moves =
            game_to_kk(&target).unwrap_or_else(|e| panic!("no game to {}: {e}", target.to_sfen()));
        assert_eq!(replay::<G>(&moves), target, "target {}", target.to_sfen());
        min = min.min(moves.len());
        max = max.max(moves.len());
        sum += moves.len();
    }
    (min, sum as f64 / count as f64, max)
}

#[test]
fn opening_lines_are_the_spec_lines() {
    fn check<G: Game>(line: &str, k0: &str) {
        let mut p = Position::<G>::startpos();
        let mut spec = Vec::new();
        for usi in line.split_whitespace() {
            spec.push(p.play_usi(usi).unwrap_or_else(|e| panic!("{usi}: {e}")));
        }
        assert_eq!(p, Position::<G>::from_sfen(k0).unwrap());
        assert_eq!(opening_line::<G>().unwrap(), spec);
    }
    check::<Shogi>(SHOGI_LINE, SHOGI_K0);
    check::<MiniShogi>(MINI_LINE, MINI_K0);
    assert_eq!(SHOGI_LINE.split_whitespace().count(), 44);
    assert_eq!(MINI_LINE.split_whitespace().count(), 18);
}

#[test]
fn k0_itself_is_just_the_opening() {
    let k0 = Position::<Shogi>::from_sfen(SHOGI_K0).unwrap();
    assert_eq!(game_to_kk(&k0).unwrap().len(), 44);
    let k0 = Position::<MiniShogi>::from_sfen(MINI_K0).unwrap();
    assert_eq!(game_to_kk(&k0).unwrap().len(), 18);
}

#[test]
fn random_shogi_targets() {
    let (min, mean, max) = random_targets::<Shogi>(0x5EED_0005, 2000);
    eprintln!("shogi: plies min {min}, mean {mean:.1}, max {max}");
    assert!(max <= 300, "games should stay short, got {max} plies");
}

#[test]
fn random_mini_targets() {
    let (min, mean, max) = random_targets::<MiniShogi>(0x5EED_0006, 5000);
    eprintln!("mini: plies min {min}, mean {mean:.1}, max {max}");
    assert!(max <= 100, "games should stay short, got {max} plies");
}

/// Every king placement of Mini Shogi, both sides to move, with the extreme and a mixed
/// split: the walk and the transfers must work in corners and along edges too.
#[test]
fn every_mini_king_placement() {
    let splits = [[2, 0, 0, 2, 2, 2, 2], [0; 7], [1, 0, 0, 0, 2, 1, 0]];
    let n = MiniShogi::SQUARES as u8;
    let mut count = 0;
    for b in 0..n {
        for w in 0..n {
            let (b, w) = (
                Square::from_index(b).unwrap(),
                Square::from_index(w).unwrap(),
            );
            if distance::<MiniShogi>(b, w) < 2 {
                continue;
            }
            for split in splits {
                for side in Color::ALL {
                    let target = kk::<MiniShogi>(b, w, split, side);
                    let moves = game_to_kk(&target).unwrap();
                    assert_eq!(replay::<MiniShogi>(&moves), target);
                    count += 1;
                }
            }
        }
    }
    // 456 ordered non-adjacent placements (221,616 KK positions / 243 splits / 2 sides).
    assert_eq!(count, 456 * 3 * 2);
}

#[test]
fn extreme_shogi_splits_in_corners() {
    let corners = [(0, 0), (8, 0), (0, 8), (8, 8), (4, 0), (4, 8)];
    let all_black = [18, 4, 4, 4, 4, 2, 2];
    for &(bx, by) in &corners {
        for &(wx, wy) in &corners {
            let (b, w) = (
                Square::new::<Shogi>(bx, by).unwrap(),
                Square::new::<Shogi>(wx, wy).unwrap(),
            );
            if distance::<Shogi>(b, w) < 2 {
                continue;
            }
            for hand in [all_black, [0; 7]] {
                for side in Color::ALL {
                    let target = kk::<Shogi>(b, w, hand, side);
                    let moves = game_to_kk(&target).unwrap();
                    assert_eq!(replay::<Shogi>(&moves), target);
                }
            }
        }
    }
}

#[test]
fn kk_to_kk_with_reduced_material() {
    // Mini Shogi with the kings, a pawn and a gold only: from all with Black to all with
    // White, and back, between corner placements.
    let a = Position::<MiniShogi>::from_sfen("k4/5/5/5/4K b GP 1").unwrap();
    let b = Position::<MiniShogi>::from_sfen("4K/5/5/5/k4 w gp 1").unwrap();
    for (from, to) in [(&a, &b), (&b, &a)] {
        let moves = kk_to_kk(from, to).unwrap();
        let mut p = from.clone();
        for &mv in &moves {
            p.play(mv).unwrap();
        }
        assert_eq!(&p, to);
    }
    // The six-ply transfer of docs/METHOD.md §9: kings on 5e/1a, Black hands a piece to White.
    let from = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b S 1").unwrap();
    let to = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b s 1").unwrap();
    let moves = kk_to_kk(&from, &to).unwrap();
    assert_eq!(moves.len(), 6);
}

#[test]
fn game_to_certificate() {
    // A hand-made certificate: from a KK position, Black drops a gold.
    let kk_pos =
        Position::<Shogi>::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").unwrap();
    let mv = Move::from_usi::<Shogi>("G*5h").unwrap();
    let cert = Certificate {
        kk: kk_pos.clone(),
        moves: vec![mv],
    };
    let game = game_to(&cert).unwrap();
    let mut expected = kk_pos;
    expected.play(mv).unwrap();
    assert_eq!(replay::<Shogi>(&game), expected);

    // An illegal certificate move is reported, not passed on.
    let bad = Certificate {
        kk: cert.kk.clone(),
        moves: vec![Move::from_usi::<Shogi>("5i5h").unwrap(), mv],
    };
    match game_to(&bad) {
        Err(ConstructError::IllegalStep { usi, .. }) => assert_eq!(usi, "G*5h"),
        other => panic!("expected an illegal step, got {other:?}"),
    }
}

#[test]
fn game_to_searched_certificate() {
    // A position one ply from the start: the search certifies it from some KK position,
    // and the full game from the initial position must end exactly there.
    let pos = Position::<Shogi>::from_sfen(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
    )
    .unwrap();
    let mut searcher = Searcher::<Shogi>::new(SearchConfig::default());
    let outcome = searcher.search(&pos);
    assert_eq!(outcome.verdict, Verdict::Reachable);
    let cert = outcome.certificate.unwrap();
    let game = game_to(&cert).unwrap();
    assert_eq!(replay::<Shogi>(&game), pos);
}

#[test]
fn errors() {
    // Not a KK position: the initial position, a board with an extra piece, a missing king.
    let start = Position::<Shogi>::startpos();
    assert!(matches!(
        game_to_kk(&start),
        Err(ConstructError::NotKk { .. })
    ));
    let extra =
        Position::<Shogi>::from_sfen("4k4/9/9/9/4P4/9/9/9/4K4 b RB2G2S2N2L8Prb2g2s2n2l9p 1")
            .unwrap();
    assert!(matches!(
        game_to_kk(&extra),
        Err(ConstructError::NotKk { .. })
    ));
    // One king is no position: refused before construction can be asked.
    assert!(Position::<MiniShogi>::from_sfen("5/5/5/5/4K b RBGSPrbgsp 1").is_err());

    // Adjacent kings.
    let adjacent =
        Position::<MiniShogi>::from_sfen_with("5/5/2k2/3K1/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
            .unwrap();
    assert!(matches!(
        game_to_kk(&adjacent),
        Err(ConstructError::AdjacentKings { .. })
    ));

    // Wrong material: a pawn missing, a pawn too many.
    let missing =
        Position::<Shogi>::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L8Prb2g2s2n2l9p 1").unwrap();
    assert!(matches!(
        game_to_kk(&missing),
        Err(ConstructError::WrongMaterial { .. })
    ));
    // A pawn too many is no position: refused before construction can be asked.
    assert!(Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b RBGS2Prbgsp 1").is_err());

    // kk_to_kk between positions of different material.
    let a = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b P 1").unwrap();
    let b = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b G 1").unwrap();
    assert!(matches!(
        kk_to_kk(&a, &b),
        Err(ConstructError::WrongMaterial { .. })
    ));

    // A certificate whose KK position is bad is rejected before anything else.
    let cert = Certificate {
        kk: adjacent,
        moves: Vec::new(),
    };
    assert!(matches!(
        game_to(&cert),
        Err(ConstructError::AdjacentKings { .. })
    ));
}
