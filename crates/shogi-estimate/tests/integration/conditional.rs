//! The conditional estimator (docs/METHOD.md §10.8): its identity on whole spaces, its runs
//! reproducible and mergeable like the others, its counters checked, its files sealed.

use crate::runs::{complete, one_byte_changes, options, tmp};
use num_bigint::BigUint;
use shogi_core::{Color, Game, GameKind, Material, MiniShogi, PieceKind, Rules, Shogi};
use shogi_estimate::{
    merge, Estimate, Estimator, KingGroup, Method, RunConfig, RunState, Shard, WeightCount,
};
use shogi_rank::filters::{classify, FilterOutcome};
use shogi_rank::RankTable;

fn conditional(game: GameKind, samples: u64, seed: u64) -> RunConfig {
    let mut c = RunConfig::new(game, samples).with_method(Method::Conditional);
    c.seed = seed;
    c.figure_samples = samples / 2;
    c
}

/// The identity behind the estimator, exactly, over every position of `S` of a small
/// material: the sum over the positions `x` of `(1/g) Σ h(y)` over the safe positions `y`
/// of `x`'s king group equals the number of positions that pass every filter and have a
/// predecessor. It fails if the groups do not partition `S`, if `g` or `k` is miscounted, or
/// if a position of a group falls outside `S`.
fn identity_holds<G: Game>(material: &Material) {
    let table = RankTable::<G>::new(material).unwrap();
    let count: u64 = table.count().try_into().unwrap();
    let rules = Rules::default();
    let f = |p: &shogi_core::Position<G>| {
        classify(p) == FilterOutcome::Pass
            && (shogi_reach::is_kk(p) || shogi_retro::has_predecessor(p, rules))
    };
    // Σ (1/g) Σ h as a fraction over lcm(1..=81) < 2^117.
    let l: u128 = (1..=G::SQUARES as u128).fold(1, |l, g| {
        let (mut a, mut b) = (l, g);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        l / a * g
    });
    let (mut lhs, mut rhs, mut in_s) = (BigUint::default(), 0u64, 0u64);
    for r in 0..count {
        let x = table.unrank(&BigUint::from(r)).unwrap();
        if !x.placement_errors().is_empty() {
            continue;
        }
        in_s += 1;
        rhs += u64::from(f(&x));
        let group = KingGroup::of(&x).unwrap();
        let w = group.weight();
        assert!(w.safe <= w.squares && group.squares.has(x.king(Color::White).unwrap()));
        let mut hits = 0u128;
        for sq in group.safe {
            let y = x.with_king_on(Color::White, sq).unwrap();
            assert!(y.placement_errors().is_empty() && !y.in_check(Color::White));
            hits += u128::from(f(&y));
        }
        // Positions of the group outside the safe squares fail the check filter.
        for sq in group.squares & !group.safe {
            let y = x.with_king_on(Color::White, sq).unwrap();
            assert!(y.in_check(Color::White), "{y:?}");
        }
        lhs += BigUint::from(hits * (l / u128::from(w.squares)));
    }
    assert!(in_s > 0 && rhs > 0);
    assert_eq!(lhs, BigUint::from(rhs) * BigUint::from(l), "{}", G::NAME);
}

#[test]
fn the_group_mean_sums_to_the_exact_count_over_whole_spaces() {
    let mut m = Material::default();
    m.set(PieceKind::King, 2);
    let mut gp = m;
    gp.set(PieceKind::Gold, 1);
    gp.set(PieceKind::Pawn, 1);
    identity_holds::<MiniShogi>(&gp);
    let mut rb = m;
    rb.set(PieceKind::Rook, 1);
    rb.set(PieceKind::Bishop, 1);
    identity_holds::<MiniShogi>(&rb);
    // Shogi's board and centre file with the kings alone (a lance as well takes 20 s).
    identity_holds::<Shogi>(&m);
}

/// The counters depend on the configuration only: threads, batches, shards and a resume
/// from a checkpoint give the same, in both games.
#[test]
fn conditional_runs_are_reproducible_and_mergeable() {
    for (game, n) in [(GameKind::Mini, 30_000), (GameKind::Shogi, 30_000)] {
        let cfg = conditional(game, n, 6);
        assert_eq!(cfg.estimator, Estimator::Conditional);
        let a = complete(cfg.clone(), &options(1, 256));
        let b = complete(cfg.clone(), &options(3, 1000));
        assert_eq!(a.counters, b.counters);
        a.counters.check().unwrap();
        let c = a.counters.conditional.as_ref().unwrap();
        let total: u64 = c.weights.iter().map(|w| w.2).sum();
        assert_eq!(total, n);
        let t = a.counters.two_phase.unwrap();
        assert!(t.searched > 0 && a.counters.reachable > 0, "{game}");
        let mut files = Vec::new();
        for k in 0..3 {
            let mut c = cfg.clone();
            c.shard = Shard { index: k, count: 3 };
            let s = complete(c, &options(2, 2048));
            let path = tmp(&format!("cond-{game}-{k}.json"));
            s.save(&path).unwrap();
            files.push((path.clone(), RunState::load(&path).unwrap()));
        }
        assert_eq!(merge(&files, false).unwrap().counters, a.counters);
        // The same samples with the indicator estimator are another run.
        let mut fast = cfg.clone().with_method(Method::Fast);
        fast.shard = Shard { index: 1, count: 3 };
        let f = (
            tmp("fast-among-conditional.json"),
            complete(fast, &options(1, 1024)),
        );
        let err = merge(&[files[0].clone(), f], true).unwrap_err().to_string();
        assert!(err.contains("estimator"), "{err}");
        // Stopped after two batches, resumed from the checkpoint.
        let path = tmp(&format!("cond-resume-{game}.json"));
        let resumed = crate::runs::stopped_and_resumed(&cfg, &path);
        assert_eq!(resumed.counters, a.counters);
    }
}

/// The estimate from the weight bins: `π̂` is the mean of `k/g` over the samples with a
/// predecessor, its variance the sample variance, the exact floor the same fraction; a
/// small run's `π` gets the non-asymptotic bound and no zero-width interval.
#[test]
fn the_estimate_follows_from_the_bins() {
    let s = complete(conditional(GameKind::Mini, 20_000, 3), &options(2, 4096));
    let space = shogi_estimate::space_size(&s.config).unwrap();
    let e = Estimate::new(&s.counters, &space);
    let c = s.counters.conditional.as_ref().unwrap();
    let n = s.counters.samples as f64;
    let (mut s1, mut s2) = (0.0, 0.0);
    for &WeightCount(g, k, count) in &c.with_predecessor {
        let q = f64::from(k) / f64::from(g);
        s1 += count as f64 * q;
        s2 += count as f64 * q * q;
    }
    assert!((e.pi - s1 / n).abs() < 1e-15);
    let var = (s2 / n - (s1 / n).powi(2)) * n / (n - 1.0) / n;
    assert!(
        (e.var_pi - var).abs() < 1e-12 * var.max(1e-30),
        "{} {var}",
        e.var_pi
    );
    let t = s.counters.two_phase.unwrap();
    let rho = s.counters.reachable as f64 / t.searched as f64;
    assert!((e.p - e.pi * rho).abs() < 1e-15);
    let exact: f64 = e.positions_exact.parse().unwrap();
    assert!(
        (exact / e.positions - 1.0).abs() < 1e-9,
        "{exact} {}",
        e.positions
    );
    // 300 samples: fewer than 100 with a weight, so the bound of π is the empirical
    // Bernstein one, wider than the normal interval; never [x, x].
    let small = complete(conditional(GameKind::Mini, 300, 3), &options(1, 4096));
    let e = Estimate::new(&small.counters, &space);
    match e.p_interval {
        Some(iv) => {
            assert!(e.exact_binomial);
            assert!(iv.hi > iv.lo);
            assert!(iv.hi - iv.lo > e.p_normal.hi - e.p_normal.lo);
        }
        None => assert!(e.no_interval.is_some()),
    }
}

/// Conditional counters that break a relation of the bins, or belong to another estimator,
/// are refused naming the field.
#[test]
fn inconsistent_conditional_counters_are_refused() {
    let good = complete(conditional(GameKind::Mini, 5_000, 1), &options(1, 1024));
    good.check().unwrap();
    let edit = |f: &dyn Fn(&mut RunState)| {
        let mut s = good.clone();
        f(&mut s);
        s.check().unwrap_err().0
    };
    let e = edit(&|s| s.counters.conditional.as_mut().unwrap().weights[0].2 += 1);
    assert!(e.contains("conditional.weights"), "{e}");
    let e = edit(&|s| s.counters.conditional.as_mut().unwrap().with_predecessor[0].2 += 1);
    assert!(e.contains("conditional.with_predecessor"), "{e}");
    let e = edit(&|s| {
        let w = &mut s.counters.conditional.as_mut().unwrap().weights;
        w.swap(0, 1);
    });
    assert!(e.contains("order"), "{e}");
    let e = edit(&|s| {
        let w = s
            .counters
            .conditional
            .as_mut()
            .unwrap()
            .weights
            .last_mut()
            .unwrap();
        w.1 = w.0 + 1;
    });
    assert!(e.contains("impossible"), "{e}");
    let e = edit(&|s| s.counters.conditional = None);
    assert!(e.contains("counters.conditional"), "{e}");
    let e = edit(&|s| s.config.estimator = Estimator::Indicator);
    assert!(e.contains("counters.conditional"), "{e}");
    let e = edit(&|s| s.config.phase2_rate = None);
    assert!(e.contains("estimator"), "{e}");
}

/// Every one-byte change of a finished conditional state file is refused or leaves the state
/// (and so the report) as it was. (Unfinished files are tested with the indicator
/// estimator in `runs.rs`: the progress fields are the same.)
#[test]
fn every_one_byte_mutation_of_a_conditional_file_is_refused_or_harmless() {
    // Small: the test parses the file 255 times per byte.
    let mut cfg = conditional(GameKind::Mini, 40, 2);
    cfg.phase2_rate = Some(1.0);
    cfg.figure_samples = 5;
    let state = complete(cfg, &options(1, 1024));
    assert!(state.counters.reachable > 0);
    let text = state.to_file_text().into_bytes();
    // Every byte of what this estimator adds to a file (its name and its bins), and every
    // 8th of the rest: the indicator's test in `runs.rs` changes every byte of those parts.
    let find = |needle: &str| {
        text.windows(needle.len())
            .position(|w| w == needle.as_bytes())
            .unwrap()
    };
    let (bins, bins_end) = (find("\"conditional\": {"), find("\"expanded\""));
    let estimator = find("\"estimator\"");
    let every = |i: usize| {
        (bins..bins_end).contains(&i)
            || (estimator..estimator + 30).contains(&i)
            || i.is_multiple_of(8)
    };
    let (refused, accepted) = one_byte_changes(&text, every, |s| assert_eq!(s, &state));
    assert!(
        accepted > 0 && refused > 100 * 255,
        "{accepted} accepted, {refused} refused"
    );
}

/// Files of the indicator estimator carry no `estimator` field and keep the run identity
/// they always had; a conditional run's identity differs from the fast run of the same
/// samples.
#[test]
fn indicator_files_are_unchanged() {
    let fast = RunConfig::new(GameKind::Shogi, 1000).with_method(Method::Fast);
    let json = serde_json::to_value(&fast).unwrap();
    assert!(json.get("estimator").is_none());
    let cond = RunConfig::new(GameKind::Shogi, 1000).with_method(Method::Conditional);
    assert_eq!(
        serde_json::to_value(&cond).unwrap()["estimator"],
        "conditional"
    );
    assert_ne!(fast.run_id(), cond.run_id());
    assert!(fast.difference(&cond, false).unwrap().contains("estimator"));
    assert!(cond.difference(&fast, false).unwrap().contains("estimator"));
}
