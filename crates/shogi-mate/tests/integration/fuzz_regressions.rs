//! Inputs the fuzz targets (fuzz/, `cargo xtask fuzz`) found, minimised, kept as tests.

use crate::common::problem;
use shogi_core::{Game, MiniShogi, MoveList, Position};
use shogi_mate::{verify_line, DefenderHand, MateOptions, Solver, Verdict};

/// Whether the side to move forces mate within `plies` plies (full width: every check,
/// every reply).
fn mate_within<G: Game>(pos: &Position<G>, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let them = !pos.side_to_move();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.into_iter().any(|mv| {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if !next.in_check(them) {
            return false;
        }
        let mut replies = MoveList::new();
        next.legal_moves(&mut replies);
        replies.is_empty()
            || (plies >= 3
                && replies.into_iter().all(|r| {
                    let mut after = next.clone();
                    after.play_unchecked(r);
                    mate_within(&after, plies - 2)
                }))
    })
}

/// Solves `pos` under `opts`, which must find a mate whose line replays, and returns the
/// result with the line in USI.
fn solve_mate(pos: &Position<MiniShogi>, opts: MateOptions) -> (shogi_mate::MateResult, String) {
    let r = Solver::<MiniShogi>::new(opts).solve(pos);
    assert_eq!(r.verdict, Verdict::Mate);
    verify_line(pos, &r.moves).expect("the line replays");
    let line: Vec<String> = r.moves.iter().map(|m| m.to_usi::<MiniShogi>()).collect();
    (r, line.join(" "))
}

/// fuzz target mate_small: the line was 5 plies (`1b2a+ 5d5e 2a2b P*4d 2b4d`) where the
/// shortest forced mate is 7. The defender's reply was chosen by the mate lengths stored in
/// the table, which are those of the proofs as found: after `P*4d` the stored proof was a
/// 7-ply one, but a mate in 1 (`2b4d`) had been proved since, and the walk took it, while
/// `P*3c` holds out for 3 more plies. The line is now planned over the proofs (the
/// defender's reply with the longest planned line), so it is never shorter than the
/// shortest forced mate.
#[test]
fn the_line_is_never_shorter_than_the_shortest_mate() {
    let pos = problem::<MiniShogi>("5/1R2B/5/k4/5 b p 1");
    assert!(!mate_within(&pos, 5) && mate_within(&pos, 7));
    for (max_nodes, table_entries) in [(600, 1 << 12), (1_000_000, 1 << 20)] {
        let opts = MateOptions {
            max_nodes,
            table_entries,
            max_depth: 31,
            defender_hand: DefenderHand::Sfen,
            ..MateOptions::default()
        };
        let (r, line) = solve_mate(&pos, opts);
        assert!(r.moves.len() >= 7, "{line}");
    }
}

/// fuzz target mate_small: with a depth limit of 7 plies the solver answered mate with the
/// 7-ply line `B*2e R*3d 2e3d+ 5b5a 3d3c 5a5b 3c4b`, but the shortest forced mate is 9
/// plies. A proof stored where more plies were left answered a look-up where fewer were;
/// a mate longer than the plies left now counts as unknown there and is searched again.
#[test]
fn a_mate_beyond_the_depth_limit_is_not_claimed() {
    let pos = problem::<MiniShogi>("5/K4/5/1r3/5 w R2G2S2P2b 1");
    assert!(!mate_within(&pos, 7) && mate_within(&pos, 9));
    for max_depth in [7, 8] {
        let opts = MateOptions {
            max_nodes: 2_000,
            table_entries: 1 << 12,
            max_depth,
            ..MateOptions::default()
        };
        let r = Solver::<MiniShogi>::new(opts).solve(&pos);
        assert_ne!(r.verdict, Verdict::Mate, "{:?}", r.moves);
    }
    let r = Solver::<MiniShogi>::new(MateOptions::default()).solve(&pos);
    assert_eq!(r.verdict, Verdict::Mate);
    assert!(r.moves.len() >= 9);
    verify_line(&pos, &r.moves).expect("the line replays");
}

/// fuzz target mate_small: a mate in 5 under a depth limit of 5 plies, which the line
/// walked along the stored lengths missed (`unknown`): the line planned over the proofs
/// finds it.
#[test]
fn a_mate_at_the_depth_limit_has_a_line() {
    let pos = Position::<MiniShogi>::from_sfen("k4/4p/1r3/5/b3K w - 1").expect("legal");
    assert!(!mate_within(&pos, 3) && mate_within(&pos, 5));
    let opts = MateOptions {
        max_nodes: 150,
        table_entries: 1 << 12,
        max_depth: 5,
        defender_hand: DefenderHand::Sfen,
        ..MateOptions::default()
    };
    let r = Solver::<MiniShogi>::new(opts).solve(&pos);
    assert_eq!(r.verdict, Verdict::Mate);
    assert_eq!(r.moves.len(), 5);
    verify_line(&pos, &r.moves).expect("the line replays");
}

/// fuzz target mate_small: without superiority, a mate in 5 line (`4c3c 2c1d G*2c 1d2e
/// 3c2d`) where the shortest mate is 7. The table kept a disproof bounded by the depth
/// limit (found where few plies were left) over a later proof of the same position and
/// hand, so the proof was never stored and the line could not be planned over it. A proof,
/// or a disproof with a wider bound, now replaces a bounded disproof. The same position
/// with tables so small that entries are replaced: the lost proofs are searched again.
#[test]
fn a_bounded_disproof_does_not_hide_a_proof() {
    let pos = problem::<MiniShogi>("2+p2/5/1+p1K1/1k3/b4 w 2RBG2Sg 1");
    assert!(!mate_within(&pos, 5) && mate_within(&pos, 7));
    for superiority in [false, true] {
        for (table_entries, max_depth) in [(1 << 12, 7), (16, 9), (32, 9)] {
            let opts = MateOptions {
                max_nodes: 100_000,
                table_entries,
                max_depth,
                superiority,
                ..MateOptions::default()
            };
            let r = Solver::<MiniShogi>::new(opts).solve(&pos);
            // The small tables replace entries (and may run out of nodes: unknown).
            if table_entries == 1 << 12 {
                assert_eq!(r.verdict, Verdict::Mate, "{opts:?}");
            }
            if r.verdict == Verdict::Mate {
                verify_line(&pos, &r.moves).expect("the line replays");
                let n = r.moves.len() as u32;
                assert!((7..=max_depth).contains(&n), "{opts:?}: {n} plies");
            }
        }
    }
}

/// fuzz target mate_small: without superiority every hand of a board shared one cluster of
/// the table then, and here, with the defender dropping one piece after another, the
/// proofs of the line overflowed it (about 280 entries replaced in 540 nodes): the plan
/// gave up after 64 searches for lost proofs and the walk of stored lengths printed a
/// 5-ply line (`2a3b R*2a 1a2a B*3a R*4a`) where the shortest mate is 7. The planning now
/// searches each attacker node whose proof is lost, up to 4096 of them, and takes the
/// check that proved it even if its entry is lost again. The table no longer overflows at
/// 4,096 entries (its hands of a board live side by side), so the test makes it small
/// enough to be collected many times over.
#[test]
fn lost_proofs_are_searched_again_for_the_line() {
    let pos = problem::<MiniShogi>("k2K+R/+p2S1/5/5/5 b r2b2gsp 1");
    assert!(!mate_within(&pos, 5) && mate_within(&pos, 7));
    let opts = MateOptions {
        max_nodes: 100_000,
        table_entries: 128,
        max_depth: 31,
        superiority: false,
        ..MateOptions::default()
    };
    let r = Solver::<MiniShogi>::new(opts).solve(&pos);
    assert_eq!(r.verdict, Verdict::Mate);
    assert!(
        r.stats.table.replaced > 0,
        "the table overflows: {:?}",
        r.stats
    );
    verify_line(&pos, &r.moves).expect("the line replays");
    assert!(r.moves.len() >= 7, "{} plies", r.moves.len());
}

/// fuzz target mate_small, with `shortest`: 7 plies proved the shortest, but with a table
/// of 8 entries and 100 nodes a search, the line printed had 9 (planned by minimax through
/// what the table kept, and the walk that would shorten it to 7 ran out of nodes). What
/// holds: a proved length is the shortest, and a line planned or walked is never shorter;
/// with room to work, the line has exactly the proved length. (The small budget was 100
/// nodes; since the look-ahead counts the drops on one square once, the first search takes
/// 101 to 110 of them here, so it is 120.)
#[test]
fn a_proved_shortest_mate_is_never_longer_than_its_line() {
    let pos = problem::<MiniShogi>("3k1/5/1p1K1/5/3+R1 b r2b2g2sp 1");
    assert!(!mate_within(&pos, 5) && mate_within(&pos, 7));
    for (max_nodes, table_entries) in [(120, 8), (1_000_000, 1 << 16)] {
        let opts = MateOptions {
            max_nodes,
            table_entries,
            max_depth: 255,
            shortest: true,
            ..MateOptions::default()
        };
        let (r, line) = solve_mate(&pos, opts);
        if let Some(s) = r.shortest {
            assert_eq!(s, 7, "{line}");
            if r.line_minimax {
                assert!(r.moves.len() >= 7, "{line}");
            }
        }
        if max_nodes > 120 {
            assert_eq!(r.shortest, Some(7));
            assert!(r.line_minimax);
            assert_eq!(r.moves.len(), 7, "{line}");
        }
    }
}
