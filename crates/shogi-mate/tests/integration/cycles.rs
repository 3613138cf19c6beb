//! Cycles of checks: positions where the king and the checking pieces can go round and
//! round, which send a plain df-pn back and forth between the same few nodes.

use shogi_core::{Position, Shogi};
use shogi_mate::{DefenderHand, MateOptions, Solver, Verdict};

/// From `testdata/mate/shogi_random.tsv`: White checks Black's king on an open second rank,
/// both hands as in the game. cshogi disproves it in 1,253 nodes and KomoringHeights in 808.
/// Summing the numbers of the nodes of its cycles by plain addition drove them to just
/// under infinity within a few thousand nodes, after which the search made no progress and
/// ran to any node limit (20 million tried): large numbers now count by their maximum.
const CYCLING: &str = "ln3l3/1rs1K4/pppp5/7p1/3G1n3/2P1G2S1/PP7/3S+pLk2/LN7 w 2B2GSN4Pr5p 1";

fn solve(opts: MateOptions) -> shogi_mate::MateResult {
    let pos = Position::<Shogi>::from_sfen(CYCLING).expect("a legal position");
    Solver::<Shogi>::new(opts).solve(&pos)
}

#[test]
fn a_cycle_of_checks_does_not_stall_the_search() {
    let opts = MateOptions {
        max_nodes: 100_000,
        defender_hand: DefenderHand::Sfen,
        ..MateOptions::default()
    };
    let r = solve(opts);
    assert_eq!(r.verdict, Verdict::NoMate, "{} nodes", r.stats.nodes);
    assert!(r.stats.nodes < 20_000, "{} nodes", r.stats.nodes);
    // The threshold controlling algorithm changes the work, not the verdict.
    let r = solve(MateOptions { tca: false, ..opts });
    assert_eq!(r.verdict, Verdict::NoMate);
    // With the defender holding everything else, the same board is no mate either.
    let r = solve(MateOptions {
        defender_hand: DefenderHand::Rest,
        ..opts
    });
    assert_ne!(r.verdict, Verdict::Mate);
}
