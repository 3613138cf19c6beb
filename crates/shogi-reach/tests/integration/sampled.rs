//! The search on uniformly sampled positions that pass the filters of docs/METHOD.md §5: the reachable
//! fraction agrees with the paper's, and the unreachable ones die almost at once (Table 2).

use shogi_core::{Game, GameKind, MiniShogi, Position, Shogi};
use shogi_estimate::{paper, z_score};
use shogi_rank::{filters, full_table, Sampler};
use shogi_reach::{SearchConfig, Searcher, Verdict};

/// The samples of `seed` that pass the three filters, with the number of samples drawn so
/// far.
fn survivors<G: Game>(seed: u64) -> impl Iterator<Item = (u64, Position<G>)> {
    let sampler = Sampler::new(full_table::<G>(), seed);
    (0u64..)
        .map(move |i| (i + 1, sampler.sample(i)))
        .filter(|(_, p)| filters::classify(p) == filters::FilterOutcome::Pass)
}

struct Tally {
    samples: u64,
    reachable: u64,
    unreachable: u64,
    /// Unreachable positions by the deepest ply traced back.
    depths: [u64; 16],
}

fn tally<G: Game>(passing: usize, seed: u64) -> Tally {
    let mut searcher = Searcher::<G>::new(SearchConfig::default());
    let mut t = Tally {
        samples: 0,
        reachable: 0,
        unreachable: 0,
        depths: [0; 16],
    };
    for (drawn, p) in survivors::<G>(seed).take(passing) {
        t.samples = drawn;
        let out = searcher.search(&p);
        match out.verdict {
            Verdict::Reachable => {
                t.reachable += 1;
                let cert = out.certificate.unwrap();
                assert_eq!(cert.replay().unwrap(), p);
            }
            Verdict::Unreachable => {
                t.unreachable += 1;
                t.depths[(out.stats.max_depth as usize).min(15)] += 1;
            }
            Verdict::Unknown => panic!("no limit was set, yet {} is unknown", p.to_sfen()),
        }
    }
    eprintln!(
        "{}: reachable {} of {passing} survivors of {} samples; depths {:?}",
        G::NAME,
        t.reachable,
        t.samples,
        t.depths
    );
    t
}

/// Table 2's shape: at least 99% of the unreachable samples have no predecessor at all, and
/// none is traced back `beyond` plies or more.
fn assert_table2_shape(t: &Tally, beyond: usize) {
    let d = &t.depths;
    assert!(d[0] as f64 >= 0.99 * t.unreachable as f64, "depths {d:?}");
    assert!(d[beyond..].iter().all(|&n| n == 0), "depths {d:?}");
}

#[test]
fn shogi_reachable_fraction_matches_the_paper() {
    let t = tally::<Shogi>(10_000, 2026);
    let p = paper(GameKind::Shogi);
    let z = z_score(t.reachable, 10_000, p.reachable, p.passed_check);
    assert!(
        z.abs() < 4.0,
        "reachable {} of 10000: z = {z:.2}",
        t.reachable
    );
    // Table 2: of 18,489,504 unreachable samples all but 566 have no predecessor at all,
    // and none goes back 4 plies.
    assert_table2_shape(&t, 4);
    // The filters pass about 1.18% of the samples (58,981,117 / 5e9).
    let z = z_score(10_000, t.samples, p.passed_check, p.samples);
    assert!(
        z.abs() < 4.0,
        "{} samples for 10000 survivors: z = {z:.2}",
        t.samples
    );
}

#[test]
fn mini_reachable_fraction_matches_the_paper() {
    let t = tally::<MiniShogi>(10_000, 2026);
    let p = paper(GameKind::Mini);
    let z = z_score(t.reachable, 10_000, p.reachable, p.passed_check);
    assert!(
        z.abs() < 4.0,
        "reachable {} of 10000: z = {z:.2}",
        t.reachable
    );
    // Table 2 for Mini Shogi: 99.82% at depth 0, nothing beyond 8 ...
    assert_table2_shape(&t, 9);
    // ... but some are traced back (0.18% in the paper): the depth is counted.
    assert!(
        t.depths[1..].iter().sum::<u64>() > 0,
        "depths {:?}",
        t.depths
    );
}

/// Deferring un-captures changes the order of the search, never its verdict.
fn lazy_equals_eager<G: Game>(passing: usize, seed: u64) {
    let mut lazy = Searcher::<G>::new(SearchConfig::default());
    let mut eager = Searcher::<G>::new(SearchConfig {
        lazy_captures: false,
        ..SearchConfig::default()
    });
    let mut generated = [0u64; 2];
    for (_, p) in survivors::<G>(seed).take(passing) {
        let a = lazy.search(&p);
        let b = eager.search(&p);
        assert_eq!(a.verdict, b.verdict, "{}", p.to_sfen());
        if b.verdict == Verdict::Reachable {
            assert_eq!(b.certificate.unwrap().replay().unwrap(), p);
        }
        generated[0] += a.stats.generated;
        generated[1] += b.stats.generated;
    }
    assert!(
        generated[0] < generated[1],
        "lazy generates less: {generated:?}"
    );
}

#[test]
fn lazy_and_eager_searches_agree() {
    lazy_equals_eager::<Shogi>(1500, 7);
    lazy_equals_eager::<MiniShogi>(3000, 7);
}
