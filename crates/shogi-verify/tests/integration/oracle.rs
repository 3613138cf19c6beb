//! The independent phase-1 oracle (docs/METHOD.md §10.7): it finds exactly the predecessors
//! `shogi_retro::unmoves` lists, its pruning loses nothing, and its harnesses catch a broken
//! predecessor generator and a broken predecessor test. The long runs are
//! `cargo xtask verdict-sweep` (10^5 positions per game against the unmoves, 10^6 and more
//! samples against the pipeline).

use shogi_core::{Game, MiniShogi, PawnDropRule, PieceKind, Position, Rules, Shogi};
use shogi_rank::filters::{classify, FilterOutcome};
use shogi_rank::{full_placement_table, PlacementSampler};
use shogi_reach::{is_kk, SearchConfig, Searcher};
use shogi_retro::{predecessors, Unmove};
use shogi_verify::oracle::{
    brute_has_predecessor, brute_predecessors, brute_predecessors_unpruned, closure, oracle_phase1,
    replay_certificate, Phase1,
};
use shogi_verify::rng::test_rng;
use shogi_verify::sweep::random_start;
use shogi_verify::verdicts::{
    compare_predecessors, retro_predecessors, verdict_sweep, VerdictReport,
};
use std::collections::HashSet;

fn against_unmoves<G: Game>(n: usize, seed: u64, rules: Rules) {
    let r = compare_predecessors::<G>(n, seed, rules, &retro_predecessors::<G>);
    println!("{r}");
    assert!(r.passed(), "{r}");
    assert!(r.oracle_predecessors > 10 * n as u64, "{r}");
}

#[test]
fn oracle_finds_the_unmoves_shogi() {
    against_unmoves::<Shogi>(10_000, 1, Rules::default());
}

#[test]
fn oracle_finds_the_unmoves_mini() {
    against_unmoves::<MiniShogi>(10_000, 2, Rules::default());
}

#[test]
fn oracle_finds_the_unmoves_no_legal_reply_rule() {
    let rules = Rules {
        pawn_drop: PawnDropRule::NoLegalReply,
    };
    against_unmoves::<Shogi>(1_000, 3, rules);
    against_unmoves::<MiniShogi>(5_000, 4, rules);
}

/// The pruning of origins by the forward attack tables loses no predecessor.
fn pruning_loses_nothing<G: Game>(n: usize, seed: u64) {
    let mut rng = test_rng(seed);
    let mut checked = 0;
    for _ in 0..n {
        let mut pos = random_start::<G>(&mut rng);
        // A few random moves into the game, so that pieces are spread out.
        for _ in 0..shogi_verify::rng::below(&mut rng, 60) {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[shogi_verify::rng::below(&mut rng, moves.len())]);
        }
        let a: HashSet<Position<G>> = brute_predecessors(&pos, Rules::default())
            .into_iter()
            .map(|(q, _)| q)
            .collect();
        let b: HashSet<Position<G>> = brute_predecessors_unpruned(&pos, Rules::default())
            .into_iter()
            .map(|(q, _)| q)
            .collect();
        assert_eq!(a, b, "{pos}");
        checked += a.len();
    }
    assert!(checked > n, "{checked} predecessors");
}

#[test]
fn pruning_loses_nothing_mini() {
    pruning_loses_nothing::<MiniShogi>(300, 5);
}

#[test]
fn pruning_loses_nothing_shogi() {
    pruning_loses_nothing::<Shogi>(40, 6);
}

/// Every predecessor the oracle gives leads to the position by the move it names.
#[test]
fn oracle_moves_replay() {
    let mut rng = test_rng(7);
    for _ in 0..200 {
        let pos = random_start::<MiniShogi>(&mut rng);
        for (q, m) in brute_predecessors(&pos, Rules::default()) {
            let mut p = q.clone();
            p.play(m).expect("a legal move");
            assert_eq!(p, pos);
        }
    }
}

/// The unmoves without un-captures: a broken generator.
fn no_uncaptures<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Position<G>> {
    predecessors(pos, rules)
        .into_iter()
        .filter(|(u, _)| {
            !matches!(
                u,
                Unmove::Normal {
                    captured: Some(_),
                    ..
                }
            )
        })
        .map(|(_, q)| q)
        .collect()
}

/// The unmoves plus a position that is no predecessor: a broken generator.
fn one_too_many<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Position<G>> {
    let mut out = retro_predecessors(pos, rules);
    out.push(pos.flip_colors());
    out
}

#[test]
fn comparison_catches_a_broken_generator() {
    let r = compare_predecessors::<MiniShogi>(2_000, 8, Rules::default(), &no_uncaptures);
    assert!(!r.passed() && r.missed_by_generator > 0, "{r}");
    assert_eq!(r.missed_by_oracle, 0, "{r}");
    let r = compare_predecessors::<MiniShogi>(200, 9, Rules::default(), &one_too_many);
    assert!(!r.passed() && r.missed_by_oracle > 0, "{r}");
}

/// The pipeline's phase-1 verdict with a given predecessor test, as the estimate computes it
/// (filters, KK, then the test).
fn phase1_with<G: Game>(pos: &Position<G>, test: impl Fn(&Position<G>) -> bool) -> Phase1 {
    match classify(pos) {
        FilterOutcome::Mirror => Phase1::Mirror,
        FilterOutcome::Placement => Phase1::Placement,
        FilterOutcome::Check => Phase1::Check,
        FilterOutcome::Pass if is_kk(pos) || test(pos) => Phase1::Predecessor,
        FilterOutcome::Pass => Phase1::NoPredecessor,
    }
}

fn sweep_mini(n: u64, test: &(dyn Fn(&Position<MiniShogi>) -> bool + Sync)) -> VerdictReport {
    let sampler = PlacementSampler::new(full_placement_table::<MiniShogi>(), 1);
    let pipeline = |_: &mut Searcher<MiniShogi>, i: u64| {
        let pos = sampler.sample(i);
        let v = phase1_with(&pos, test);
        (pos, v)
    };
    verdict_sweep::<MiniShogi>(
        0..n,
        2,
        SearchConfig::default(),
        &pipeline,
        &|i| i % 97 == 0,
        &mut |_| {},
    )
    .expect("threads start")
}

#[test]
fn verdict_sweep_agrees_with_the_real_test() {
    let r = sweep_mini(20_000, &|p| {
        shogi_retro::has_predecessor(p, Rules::default())
    });
    assert!(r.passed(), "{r:?}");
    assert_eq!(r.samples, 20_000);
    // Every verdict of the space S occurs (S has no placement failures).
    for v in [
        Phase1::Mirror,
        Phase1::Check,
        Phase1::NoPredecessor,
        Phase1::Predecessor,
    ] {
        assert!(r.agreed(v) > 0, "{v:?}: {r:?}");
    }
    assert!(r.certified > 10, "{r:?}");
}

#[test]
fn verdict_sweep_catches_a_broken_predecessor_test() {
    // Answers false for any position with a promoted piece on the board.
    let broken = |p: &Position<MiniShogi>| {
        let promoted = PieceKind::ALL
            .into_iter()
            .filter(|k| k.is_promoted())
            .any(|k| p.by_kind(k).is_nonempty());
        !promoted && shogi_retro::has_predecessor(p, Rules::default())
    };
    let r = sweep_mini(20_000, &broken);
    assert!(!r.passed() && r.disagreement_count() > 0, "{r:?}");
    let d = &r.disagreements[0];
    assert_eq!(
        (d.pipeline, d.oracle),
        (Phase1::NoPredecessor, Phase1::Predecessor)
    );
    // And un-captures left out of the test: caught as well.
    let no_captures = |p: &Position<MiniShogi>| !no_uncaptures(p, Rules::default()).is_empty();
    let r = sweep_mini(20_000, &no_captures);
    assert!(r.disagreement_count() > 0, "{r:?}");
}

/// The oracle's filters agree with shogi-rank's on samples of both spaces.
#[test]
fn oracle_filters_agree_on_candidate_samples() {
    let sampler = shogi_rank::Sampler::new(shogi_rank::full_table::<Shogi>(), 3);
    for i in 0..3_000 {
        let pos = sampler.sample(i);
        let fast = phase1_with(&pos, |p| shogi_retro::has_predecessor(p, Rules::default()));
        assert_eq!(
            fast,
            oracle_phase1(&pos, Rules::default()),
            "sample {i}: {pos}"
        );
    }
}

#[test]
fn has_predecessor_agrees_with_the_set() {
    let mut rng = test_rng(10);
    for _ in 0..300 {
        let pos = random_start::<Shogi>(&mut rng);
        assert_eq!(
            brute_has_predecessor(&pos, Rules::default()),
            !brute_predecessors(&pos, Rules::default()).is_empty()
        );
    }
}

/// Samples of the space S (most without a predecessor once past the filters, the side to
/// move often in check): the oracle's set equals the unmoves' there too.
fn against_unmoves_on_samples<G: Game>(n: u64) {
    let sampler = PlacementSampler::new(full_placement_table::<G>(), 5);
    let mut r = shogi_verify::verdicts::PredecessorReport::default();
    for i in 0..n {
        let pos = sampler.sample(i);
        shogi_verify::verdicts::compare_one(
            &pos,
            Rules::default(),
            &retro_predecessors::<G>,
            &mut r,
        );
    }
    assert!(r.passed(), "{r}");
    assert!(r.no_predecessor > n / 10 && r.no_predecessor < n, "{r}");
}

#[test]
fn oracle_finds_the_unmoves_on_samples() {
    against_unmoves_on_samples::<MiniShogi>(5_000);
    against_unmoves_on_samples::<Shogi>(1_000);
}

fn mini(sfen: &str) -> Position<MiniShogi> {
    shogi_core::Setup::<MiniShogi>::from_sfen(sfen)
        .unwrap()
        .into_position(shogi_core::Relax::CANDIDATE)
        .unwrap()
}

/// The closure against the pipeline's search on positions of every kind: one move from a
/// KK position (found at depth 1), without any predecessor (itself alone), and an
/// unreachable sample with predecessors (a finite closure, no KK position), each agreeing
/// with shogi-reach's verdict.
#[test]
fn the_oracle_closure_agrees_with_the_search() {
    let rules = Rules::default();
    let after_drop = mini("k4/5/5/1p3/4K b RBGSPrbgs 1");
    let c = closure(&after_drop, rules, 1000);
    assert!(
        c.found_kk && c.depth == 1 && !c.proves_unreachable(),
        "{c:?}"
    );

    let mut searcher = Searcher::<MiniShogi>::new(SearchConfig::default());
    // Sample 29350 of `shogi-count sample --game mini --seed 1 --phase2-rate 1 --method fast`:
    // unreachable after 6 expanded nodes.
    let dead_end = mini("1s2g/g1r+b1/r3b/+p1p+sk/1K3 b - 1");
    let c = closure(&dead_end, rules, 100_000);
    assert!(c.proves_unreachable() && c.positions > 1, "{c:?}");
    assert_eq!(
        searcher.search(&dead_end).verdict,
        shogi_reach::Verdict::Unreachable
    );
    // A cap below its size leaves it undecided, never proved.
    let capped = closure(&dead_end, rules, 1);
    assert!(
        !capped.complete && !capped.proves_unreachable(),
        "{capped:?}"
    );

    // Samples of S with no predecessor at all: a closure of one.
    let table = full_placement_table::<MiniShogi>();
    let sampler = PlacementSampler::new(table, 3);
    let mut found = 0;
    for i in 0..20_000 {
        let p = sampler.sample(i);
        if !shogi_rank::filters::check_ok(&p) || is_kk(&p) {
            continue;
        }
        if !brute_has_predecessor(&p, rules) {
            let c = closure(&p, rules, 10);
            assert!(c.proves_unreachable() && c.positions == 1 && c.depth == 0);
            found += 1;
        }
    }
    assert!(found > 100, "{found}");
}

/// The one sample found whose verdict depends on the reading of the drop-pawn-mate rule
/// (`cargo xtask pawn-drop-sensitivity --game mini --samples 1e8 --phase2-rate 0.3`, sample
/// 84867466 of seed 1): Black has only its king and no legal move, without being in check.
/// Under the usual rule White's last move can be the pawn drop that left Black so (legal:
/// it gives no check), and the position is reachable; under the paper's reading that drop is
/// illegal, no other last move leads there, and the oracle's closure, like the search, finds
/// it unreachable.
#[test]
fn a_stalemate_by_a_pawn_drop_is_reachable_only_under_the_usual_rule() {
    let pos = mini("rg1g+r/5/2p1k/bp+b1s/K3s b - 1");
    let mut moves = shogi_core::MoveList::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(!pos.in_check(shogi_core::Color::Black));
    // Under the usual rule: the search's certificate replays forward from a KK position;
    // under the paper's reading its last move, the pawn drop, is not among the legal moves.
    let found = Searcher::<MiniShogi>::new(SearchConfig::default()).search(&pos);
    let cert = found.certificate.expect("reachable under the usual rule");
    assert_eq!(
        cert.moves
            .last()
            .map(|m| m.to_usi::<MiniShogi>())
            .as_deref(),
        Some("P*4d")
    );
    replay_certificate(&cert.kk, &cert.moves, &pos, Rules::default()).unwrap();
    let paper = Rules {
        pawn_drop: PawnDropRule::NoLegalReply,
    };
    let err = replay_certificate(&cert.kk, &cert.moves, &pos, paper).unwrap_err();
    assert!(err.contains("P*4d"), "{err}");
    let c = closure(&pos, paper, 1_000_000);
    assert!(c.proves_unreachable(), "{c:?}");
    let search = SearchConfig {
        rules: paper,
        ..SearchConfig::default()
    };
    assert_eq!(
        Searcher::<MiniShogi>::new(search).search(&pos).verdict,
        shogi_reach::Verdict::Unreachable
    );
}
