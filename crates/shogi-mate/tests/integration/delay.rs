//! Delayed moves (docs/METHOD.md §11.2) on a composed problem built on their exception: a
//! mate whose key move is a check without promotion.

use crate::common::problem;
use shogi_core::Shogi;
use shogi_mate::{verify_line, with_defender_hand, DefenderHand, MateOptions, Solver, Verdict};

/// 将棋無双 21 after two plies (testdata/mate/blind_classics.tsv): a mate in 23 whose fifth
/// ply, 7d7c, is a pawn that does not promote (歩不成), leaving the king a flight so that a
/// later pawn drop is no drop-pawn mate. cshogi's `DfPn` proves it in 256,589 nodes. While
/// a check without promotion waited until the promotion was disproved, the hard-to-disprove
/// 7d7c+ kept 7d7c out of the search and the proof took 1,553,080 nodes (with these
/// options); ending the wait once the promotion's proof number has grown past twice the
/// plain check's, 135,940.
const MUSO_21: &str = "s6r1/1Bk1p+R3/1n7/2Pg5/p1S+b5/2p6/1+p7/9/9 b 3g2s3n4l13p 1";

#[test]
fn a_mate_through_a_pawn_that_does_not_promote_is_found_early() {
    let pos = problem::<Shogi>(MUSO_21);
    let opts = MateOptions {
        max_nodes: 400_000,
        ..MateOptions::default()
    };
    let r = Solver::<Shogi>::new(opts).solve(&pos);
    assert_eq!(r.verdict, Verdict::Mate, "{} nodes", r.stats.nodes);
    let root = with_defender_hand(&pos, DefenderHand::Rest);
    verify_line(&root, &r.moves).expect("the line mates");
    assert!(r.moves.len() >= 23, "{} plies", r.moves.len());
}
