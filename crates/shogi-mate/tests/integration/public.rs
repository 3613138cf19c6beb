//! The public problems of docs/METHOD.md §11 (from YaneuraOu's published mate3, mate5 and
//! mate7 sets as quoted in open-source solvers' tests, and a graph-history-interaction
//! problem), the initial position, and the superiority properties on each.

use crate::common;
use common::{give, problem};
use shogi_core::{Hand, PieceKind, Position, Shogi};
use shogi_mate::{verify_line, DefenderHand, MateOptions, Solver, Verdict};

const PROBLEMS: [(&str, usize); 4] = [
    (
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        3,
    ),
    (
        "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
        5,
    ),
    (
        "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36",
        7,
    ),
    // Listed among graph-history-interaction test problems; Black has no king. Mate in 3
    // (R*3d 3c3d 4b4d+; none in 1, by brute force).
    ("7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1", 3),
];

/// `shortest`: the published lengths, proved, with lines of exactly that length.
#[test]
fn the_public_problems_have_their_shortest_mates_proved() {
    let mut solver = Solver::<Shogi>::new(MateOptions {
        shortest: true,
        ..MateOptions::default()
    });
    for (sfen, shortest) in PROBLEMS {
        let pos = problem::<Shogi>(sfen);
        let r = solver.solve(&pos);
        assert_eq!(r.verdict, Verdict::Mate, "{sfen}");
        assert_eq!(r.shortest, Some(shortest as u32), "{sfen}");
        assert!(r.line_minimax, "{sfen}");
        assert_eq!(r.moves.len(), shortest, "{sfen}: {:?}", r.moves);
        verify_line(
            &shogi_mate::with_defender_hand(&pos, DefenderHand::Rest),
            &r.moves,
        )
        .unwrap_or_else(|e| panic!("{sfen}: {e}"));
    }
    // Without it, `shortest` stays unknown.
    let r = Solver::<Shogi>::new(MateOptions::default()).solve(&problem::<Shogi>(PROBLEMS[0].0));
    assert_eq!(r.shortest, None);
}

#[test]
fn the_public_problems_solve_with_lines_that_replay() {
    for convention in [DefenderHand::Rest, DefenderHand::Sfen] {
        let mut solver = Solver::<Shogi>::new(MateOptions {
            defender_hand: convention,
            ..MateOptions::default()
        });
        for (sfen, shortest) in PROBLEMS {
            let pos = problem::<Shogi>(sfen);
            let r = solver.solve(&pos);
            assert_eq!(r.verdict, Verdict::Mate, "{sfen} ({convention:?})");
            // The line is the longest resistance in the proof found: never shorter than
            // the shortest mate, and odd.
            let plies = r.plies().expect("a mate has a length");
            assert!(plies >= shortest && plies % 2 == 1, "{sfen}: {plies} plies");
            let root = shogi_mate::with_defender_hand(&pos, convention);
            verify_line(&root, &r.moves).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        }
    }
}

#[test]
fn the_initial_positions_are_no_mate() {
    let r = Solver::<Shogi>::new(MateOptions::default()).solve(&Position::startpos());
    assert_eq!(r.verdict, Verdict::NoMate);
    assert!(r.moves.is_empty());
    let r =
        Solver::<shogi_core::MiniShogi>::new(MateOptions::default()).solve(&Position::startpos());
    assert_eq!(r.verdict, Verdict::NoMate);
}

/// A proved position stays proved with any superior hand, and the table already knows it
/// by superiority when the proof pieces fit the new hand.
#[test]
fn superior_hands_stay_mate() {
    let mut solver = Solver::<Shogi>::new(MateOptions::default());
    for (sfen, _) in PROBLEMS {
        let pos = problem::<Shogi>(sfen);
        let r = solver.solve(&pos);
        assert_eq!(r.verdict, Verdict::Mate);
        let pieces: Hand = r.pieces.expect("a proof has proof pieces");
        let attacker = pos.side_to_move();
        let rest = shogi_mate::with_defender_hand(&pos, DefenderHand::Rest);
        for kind in PieceKind::HAND {
            assert!(
                pieces.count(kind) <= rest.hand(attacker).count(kind),
                "{sfen}: proof pieces within the hand"
            );
            let Some(richer) = give(&rest, kind) else {
                continue;
            };
            // The table of the last search answers by superiority, without searching.
            assert_eq!(solver.lookup(&richer), Some(true), "{sfen} + {kind:?}");
            let again = Solver::<Shogi>::new(MateOptions::default()).solve(&richer);
            assert_eq!(again.verdict, Verdict::Mate, "{sfen} + {kind:?}");
            verify_line(&richer, &again.moves).expect("replays");
        }
    }
}

/// Turning superiority off changes the work, never the verdict.
#[test]
fn the_ablation_keeps_the_verdicts() {
    let mut plain = Solver::<Shogi>::new(MateOptions {
        superiority: false,
        ..MateOptions::default()
    });
    for (sfen, _) in PROBLEMS {
        let pos = problem::<Shogi>(sfen);
        let r = plain.solve(&pos);
        assert_eq!(r.verdict, Verdict::Mate, "{sfen}");
        assert_eq!(r.stats.table.superior_hits, 0);
        verify_line(&pos, &r.moves).expect("replays");
    }
}

/// Limits give unknown, never a wrong verdict.
#[test]
fn a_node_limit_gives_unknown() {
    let pos = problem::<Shogi>(PROBLEMS[2].0);
    let r = Solver::<Shogi>::new(MateOptions {
        max_nodes: 5,
        ..MateOptions::default()
    })
    .solve(&pos);
    assert_eq!(r.verdict, Verdict::Unknown);
    assert!(r.moves.is_empty());
    let tiny = Solver::<Shogi>::new(MateOptions {
        table_entries: 8,
        ..MateOptions::default()
    })
    .solve(&pos);
    assert_ne!(
        tiny.verdict,
        Verdict::NoMate,
        "a full table must not disprove a mate"
    );
    if tiny.verdict == Verdict::Mate {
        verify_line(&pos, &tiny.moves).expect("replays");
    }
}
