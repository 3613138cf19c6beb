//! The facts of docs/METHOD.md §9: perft figures, drop-pawn-mate positions and the replayed lines.

use shogi_core::{Game, MiniShogi, Position, PositionErrors, Shogi};

fn perfts<G: Game>(sfen: &str, expected: &[u64]) {
    let pos = Position::<G>::from_sfen(sfen).unwrap();
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(pos.perft(i as u32 + 1), n, "perft {} of {sfen}", i + 1);
    }
}

#[test]
fn shogi_startpos_perft_to_depth_5() {
    perfts::<Shogi>(Shogi::START_SFEN, &[30, 900, 25_470, 719_731, 19_861_490]);
}

/// Depth 6 takes a few seconds in release mode: `cargo xtask perft` runs it, or
/// `cargo test -p shogi-core -- --ignored`.
#[test]
#[ignore]
fn shogi_startpos_perft_depth_6() {
    assert_eq!(Position::<Shogi>::startpos().perft(6), 547_581_517);
}

#[test]
fn mini_startpos_perft_to_depth_5() {
    perfts::<MiniShogi>(MiniShogi::START_SFEN, &[14, 181, 2_512, 35_401, 533_203]);
}

#[test]
fn shogi_midgame_with_promotions_and_hands() {
    perfts::<Shogi>(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        &[207, 28_684, 4_809_015],
    );
}

#[test]
fn shogi_most_legal_moves_known() {
    perfts::<Shogi>(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        &[593, 105_677],
    );
}

#[test]
fn drop_pawn_mate_is_illegal_but_lance_drop_there_is_legal() {
    let sfen = "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1";
    perfts::<Shogi>(sfen, &[160, 12_632]);
    let pos = Position::<Shogi>::from_sfen(sfen).unwrap();
    let usi: Vec<String> = pos.moves().iter().map(|m| m.to_usi::<Shogi>()).collect();
    assert!(!usi.contains(&"P*5b".to_string()));
    assert!(usi.contains(&"L*5b".to_string()));
}

/// Fairy-Stockfish lists P*2b here, after which White is in check with no legal move.
#[test]
fn mini_drop_pawn_mate_that_other_engines_allow() {
    let pos = Position::<MiniShogi>::from_sfen("S2k1/b+B3/2S1R/K3g/3gR b 2P 1").unwrap();
    let usi: Vec<String> = pos
        .moves()
        .iter()
        .map(|m| m.to_usi::<MiniShogi>())
        .collect();
    assert!(!usi.contains(&"P*2b".to_string()));
    let mut after = pos.clone();
    after.play_unchecked(shogi_core::Move::from_usi::<MiniShogi>("P*2b").unwrap());
    assert!(after.is_checkmate(), "the forbidden drop would mate");
    assert!(usi.contains(&"P*1b".to_string()));
}

fn replay<G: Game>(start: &str, line: &str, end: &str) {
    let mut pos = Position::<G>::from_sfen(start).unwrap();
    for usi in line.split_whitespace() {
        pos.play_usi(usi)
            .unwrap_or_else(|e| panic!("{e} at {}", pos.to_sfen()));
        assert_eq!(pos.validate(), PositionErrors::empty(), "{}", pos.to_sfen());
        assert_eq!(pos.key(), pos.compute_key());
    }
    let expected = Position::<G>::from_sfen(end).unwrap();
    assert_eq!(pos, expected);
    // The move number is informational but must still come out right from the start.
    assert_eq!(pos.to_sfen().split(' ').next(), end.split(' ').next());
}

#[test]
fn paper_appendix_line_reaches_its_kk_position() {
    replay::<Shogi>(
        Shogi::START_SFEN,
        "7g7f 8b3b 8h3c 3b3c 2h3h 3c3g 3h3g 2b9i+ 3g3a 9i8i 3a2a 8i6g 2a2c 6g7f 2c1c 7f8g 1c4c \
         1a1g 1i1g 8g9g 4c5c 5a4b 5c6c 9g7i 6c7c 7i5g 7c7a 5g3i 7a8a 3i1g 8a8c 1g2g 4i3h 2g3h \
         8c9c 3h2i 9c9a 2i4g 9a6a 4g6i 5i6i 4b5b 6a4a 5b4a",
        "5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p 45",
    );
    let end = Position::<Shogi>::from_sfen("5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p 45")
        .unwrap();
    assert_eq!(
        end.to_sfen(),
        "5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p 45"
    );
}

#[test]
fn mini_line_to_kk_and_back() {
    replay::<MiniShogi>(
        MiniShogi::START_SFEN,
        "1e1b 1a1b 5d5c 5a5c 4e5d 5c5d 5e5d 4a5b 2e5b 3a4b 5b4c 4b4c 5d4c 2a3b 4c3b 1b1c 3e2d 1c2d",
        "5/2K2/5/3k1/5 b RBGSPrbgsp 1",
    );
    replay::<MiniShogi>(
        "4k/5/5/5/K4 b RBGSPrbgsp 1",
        "P*5d P*1b R*1e R*5a G*4e G*2a S*3e S*3a B*2e B*4a",
        MiniShogi::START_SFEN,
    );
    // Handing a piece from Black to White with the kings on 5e/1a.
    replay::<MiniShogi>(
        "4k/5/5/5/K4 b RBGSPrbgsp 1",
        "G*1b 1a1b 5e5d 1b2a 5d5e 2a1a",
        "4k/5/5/5/K4 b RBSPrb2gsp 1",
    );
}
