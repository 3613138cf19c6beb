//! A fast slice of the completeness/soundness sweep (the long one is an xtask command).

use shogi_core::{Game, MiniShogi, PawnDropRule, Rules, Shogi};
use shogi_verify::sweep::{sweep, sweep_with};

fn run<G: Game>(n: usize, seed: u64, rules: Rules) {
    let r = sweep_with::<G>(n, seed, rules);
    println!("{r}");
    assert!(r.passed(), "{r}");
    assert!(
        r.white_to_move > 0 && r.in_check > 0 && r.reduced_material > 0,
        "{r}"
    );
}

#[test]
fn sweep_slice_shogi() {
    run::<Shogi>(3_000, 1, Rules::default());
}

#[test]
fn sweep_slice_mini() {
    run::<MiniShogi>(20_000, 2, Rules::default());
}

#[test]
fn sweep_slice_no_legal_reply_rule() {
    let rules = Rules {
        pawn_drop: PawnDropRule::NoLegalReply,
    };
    run::<Shogi>(1_000, 3, rules);
    run::<MiniShogi>(10_000, 4, rules);
}

/// The long sweep: `SWEEP_POSITIONS=1000000 cargo test -p shogi-verify --release --test
/// integration sweep::sweep_long -- --ignored --nocapture` (the xtask command calls the same function).
#[test]
#[ignore]
fn sweep_long() {
    let n = std::env::var("SWEEP_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seed = std::env::var("SWEEP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    let mini = sweep::<MiniShogi>(n, seed);
    println!("{mini}");
    let shogi = sweep::<Shogi>(n, seed);
    println!("{shogi}");
    assert!(mini.passed() && shogi.passed());
}
