//! The exhaustive cross-check of docs/METHOD.md §9 (last bullet) on small materials: every candidate of
//! `P_K` through the backward search, against a forward breadth-first search from every KK
//! position, position by position (see `shogi_verify::exhaustive`).
//!
//! Tests are built optimised; the whole file takes about half a minute on two cores. The
//! larger configurations are in `cargo xtask reach-exhaustive`.
//!
//! Besides passing the cross-check, each configuration pins its figures: `|P_K|` (also
//! checked against the closed formula of `shogi_rank::count`), the size of the forward
//! closure, the ranks found reachable and the canonical ones among them. The two searches
//! agreeing is the real test; the pinned figures catch a change that moves both at once
//! (in the shared move generator, say).

use shogi_core::{Color, Game, MiniShogi, PawnDropRule, Position, Rules, Shogi};
use shogi_rank::{count, material_from_spec};
use shogi_reach::{SearchConfig, Stage};
use shogi_verify::exhaustive::{
    cross_check, forward_reachable, kk_positions, CrossCheckOptions, CrossCheckReport,
};

/// Every check: the KK mutual-reachability check and the symmetry verification included.
fn full() -> CrossCheckOptions {
    CrossCheckOptions::default()
}

/// The cross-check alone, for the larger configurations.
fn light() -> CrossCheckOptions {
    CrossCheckOptions {
        kk_connectivity: false,
        verify_symmetry: false,
        ..CrossCheckOptions::default()
    }
}

/// The paper's reading of the drop-pawn-mate rule (docs/METHOD.md §2).
fn no_reply(options: CrossCheckOptions) -> CrossCheckOptions {
    CrossCheckOptions {
        search: SearchConfig {
            rules: Rules {
                pawn_drop: PawnDropRule::NoLegalReply,
            },
            ..SearchConfig::default()
        },
        ..options
    }
}

/// Runs the cross-check on the material given by its counts in the order of docs/METHOD.md §3
/// (King, Gold, Knight, Lance, Pawn, Silver, Rook, Bishop), fails with the report on any
/// mismatch, and compares `(|P_K|, forward closure, reachable ranks, canonical reachable
/// ranks)` with `expected`.
fn check<G: Game>(
    counts: [u8; 8],
    options: &CrossCheckOptions,
    expected: (u64, u64, u64, u64),
) -> CrossCheckReport {
    let material = material_from_spec(counts);
    let report = cross_check::<G>(&material, options).expect("a small valid material");
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    assert_eq!(report.unknown, 0, "no limit was set");
    assert_eq!(
        report.candidates.to_string(),
        count::<G>(&material).unwrap().to_string(),
        "|P_K| by the rank table and by the formula"
    );
    let total: u64 = report.stages.iter().sum();
    assert_eq!(total, report.candidates, "every rank has a stage");
    assert_eq!(
        report.reachable + report.unreachable + report.unknown,
        report.candidates
    );
    if let Some(kk) = &report.kk {
        assert!(kk.connected(), "{report}");
    }
    let got = (
        report.candidates,
        report.forward,
        report.reachable,
        report.stage(Stage::Reachable),
    );
    assert_eq!(got, expected, "{report}");
    report
}

/// The kings alone: every figure can be counted by hand. The forward closure is the
/// non-adjacent king pairs with either side to move (5x5: 600 ordered pairs less 144
/// adjacent ones; 9x9: 6480 less 544), and the reachable candidates are the K-canonical
/// placements with the kings apart.
#[test]
fn kings_only() {
    let r = check::<MiniShogi>([2, 0, 0, 0, 0, 0, 0, 0], &full(), (310, 912, 234, 234));
    assert_eq!(r.stage(Stage::OpponentInCheck), 310 - 234);
    assert_eq!(
        r.forward_depth, 0,
        "king moves only lead to other KK positions"
    );
    check::<Shogi>([2, 0, 0, 0, 0, 0, 0, 0], &full(), (3276, 11872, 2996, 2996));
}

/// Mini Shogi, the kings and one piece of each kind, with every check.
#[test]
fn mini_one_piece() {
    // K G N L P S R B
    check::<MiniShogi>(
        [2, 1, 0, 0, 0, 0, 0, 0],
        &full(),
        (14880, 39804, 10209, 9990),
    );
    check::<MiniShogi>(
        [2, 0, 0, 0, 1, 0, 0, 0],
        &full(),
        (29140, 72450, 18587, 18176),
    );
    check::<MiniShogi>(
        [2, 0, 0, 0, 0, 1, 0, 0],
        &full(),
        (29140, 78462, 20126, 19685),
    );
    check::<MiniShogi>(
        [2, 0, 0, 0, 0, 0, 1, 0],
        &full(),
        (29140, 69672, 17888, 17474),
    );
    check::<MiniShogi>(
        [2, 0, 0, 0, 0, 0, 0, 1],
        &full(),
        (29140, 74440, 19089, 18685),
    );
    // The other reading of the drop-pawn-mate rule, where it could matter most.
    check::<MiniShogi>(
        [2, 0, 0, 0, 1, 0, 0, 0],
        &no_reply(full()),
        (29140, 72450, 18587, 18176),
    );
}

/// Mini Shogi, two golds (a hand of two of a kind), with every check.
#[test]
fn mini_two_golds() {
    check::<MiniShogi>(
        [2, 2, 0, 0, 0, 0, 0, 0],
        &full(),
        (343170, 826840, 211972, 206917),
    );
}

/// Mini Shogi, gold and pawn: drop-pawn-mate positions exist, and pawn promotions.
#[test]
fn mini_gold_and_pawn() {
    let mut options = light();
    options.kk_connectivity = true;
    check::<MiniShogi>(
        [2, 1, 0, 0, 1, 0, 0, 0],
        &options,
        (1341680, 3015326, 773250, 754157),
    );
}

/// Mini Shogi, a pawn each or both on one side: two pawns on a file, promotions, and the
/// paper's reading of the drop-pawn-mate rule.
#[test]
fn mini_pawn_pair() {
    check::<MiniShogi>(
        [2, 0, 0, 0, 2, 0, 0, 0],
        &no_reply(light()),
        (1312850, 2701128, 692863, 675721),
    );
}

/// Shogi, the kings and a gold (every legal position is reachable), and the kings and a
/// knight (dead squares on two ranks, forced promotion).
#[test]
fn shogi_one_piece() {
    let r = check::<Shogi>(
        [2, 1, 0, 0, 0, 0, 0, 0],
        &light(),
        (524160, 1838844, 464037, 460110),
    );
    assert_eq!(r.stage(Stage::Unreachable), 0);
    check::<Shogi>(
        [2, 0, 1, 0, 0, 0, 0, 0],
        &light(),
        (1041768, 3280168, 827764, 820744),
    );
}

/// The forward set answers what it should for positions picked by hand.
#[test]
fn forward_set_membership() {
    let material = material_from_spec([2, 0, 0, 0, 1, 0, 0, 0]);
    let set = forward_reachable::<MiniShogi>(&material).unwrap();
    assert_eq!(set.iter().count() as u64, set.len());
    assert_eq!(
        set.seeds(),
        kk_positions::<MiniShogi>(&material).unwrap().len() as u64
    );
    let has = |sfen: &str| {
        set.contains(&Position::from_sfen_with(sfen, shogi_core::Relax::CANDIDATE).unwrap())
    };
    // KK positions, both sides to move.
    assert!(has("4k/5/5/5/K4 b P 1"));
    assert!(has("4k/5/5/5/K4 w p 1"));
    // A pawn walked up and promoted; a pawn just dropped.
    assert!(has("4k/+P4/5/5/K4 w - 1"));
    assert!(has("4k/5/2P2/5/K4 w - 1"));
    // A dead pawn, the side not to move in check, adjacent kings, other material.
    assert!(!has("P3k/5/5/5/K4 w - 1"));
    assert!(!has("4k/4P/5/5/K4 b - 1"));
    assert!(!has("5/5/5/1k3/K4 b P 1"));
    assert!(!has("4k/5/5/5/K4 b G 1"));
    // Every member is legal, and closed under the colour flip.
    for p in set.iter().step_by(97) {
        assert!(p.is_valid(), "{p}");
        assert!(set.contains(&p.flip_colors()), "{p}");
        assert!(set.contains(&p.hflip()), "{p}");
    }
    let black = set
        .iter()
        .filter(|p| p.side_to_move() == Color::Black)
        .count() as u64;
    assert_eq!(
        2 * black,
        set.len(),
        "the colour flip pairs the two sides to move"
    );
}
