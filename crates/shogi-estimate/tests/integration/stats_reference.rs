//! The statistics of the estimate (docs/METHOD.md §8) against values computed independently
//! of this crate: `testdata/stats/make_reference.py` (mpmath at 50 digits for the closed
//! forms, statsmodels for the Wilson interval and the z-test; see testdata/stats/README.md).
//! The constants below are that script's output; these tests need no Python.
//!
//! Tolerances. Every quantity is a closed form of a few f64 operations on exact integer
//! counts, so the Rust value is within a few ulps of the correctly rounded one unless a
//! subtraction cancels. Hence a relative 1e-12 (thousands of ulps: room for the order of
//! operations to differ, far below any digit a report prints), plus an absolute 1e-15 for
//! values that are exactly 0 or 1 in exact arithmetic, where the f64 Wilson formula leaves
//! a residue of about 1e-17 (centre - half for k = 0). The z-score subtracts two nearly equal
//! rates (k/n - p0, about 1e-3 of either), which costs about three digits: there the bound is
//! an absolute 1e-9, still seven orders below the two decimals Table 1 prints.

use num_bigint::BigUint;
use shogi_core::GameKind;
use shogi_estimate::{paper, sci, wilson, z_score, Counters, Estimate, Interval, Z};

const REL: f64 = 1e-12;
const ABS: f64 = 1e-15;

/// `|P_K|` of Shogi and of Mini Shogi (docs/METHOD.md §4), as `shogi-count count` prints them.
const SHOGI_PK: &str = "80880932079767835177773204009328769812438521503800714936366945233084532";
const MINI_PK: &str = "16014219505238849250";

#[track_caller]
fn close(what: &str, actual: f64, expected: f64) {
    let err = (actual - expected).abs();
    assert!(
        err <= REL * expected.abs() + ABS,
        "{what}: {actual:e}, reference {expected:e} (relative error {:e})",
        err / expected.abs()
    );
}

#[track_caller]
fn close_interval(what: &str, actual: Interval, lo: f64, hi: f64) {
    close(&format!("{what}.lo"), actual.lo, lo);
    close(&format!("{what}.hi"), actual.hi, hi);
}

/// `(k, n, p, sigma, normal lo, normal hi, Wilson lo, Wilson hi)`.
type SmallCase = (u64, u64, f64, f64, f64, f64, f64, f64);

/// One reference case of `Estimate::new`.
struct Reference {
    samples: u64,
    reachable: u64,
    symmetric_reachable: u64,
    unknown: u64,
    space: f64,
    p: f64,
    sigma: f64,
    p_normal_lo: f64,
    p_normal_hi: f64,
    p_wilson_lo: f64,
    p_wilson_hi: f64,
    positions: f64,
    positions_normal_lo: f64,
    positions_normal_hi: f64,
    positions_wilson_lo: f64,
    positions_wilson_hi: f64,
    positions_distinct: f64,
    positions_distinct_normal_lo: f64,
    positions_distinct_normal_hi: f64,
    positions_exact: &'static str,
    unknown_bounds: Option<(f64, f64)>,
}

// mpmath 1.4.1, scipy 1.17.1, statsmodels 0.15.0
// alpha = 2 (1 - Φ(3)) = 0.0026997960632601866; norm.isf(alpha / 2) = 3.0000000000000004

// Shogi, the paper's counts: n = 5000000000, reachable = 40491613, symmetric_reachable = 1234, unknown = 0
//   statsmodels Wilson: [0.008094520995140865, 0.00810212597570517]
//   3σ interval of positions to 5 digits: [6.5469e+68, 6.5531e+68]
const SHOGI: Reference = Reference {
    samples: 5_000_000_000,
    reachable: 40_491_613,
    symmetric_reachable: 1_234,
    unknown: 0,
    space: 8.088093207976783e+70,
    p: 0.0080983226,
    sigma: 1.2674967274960776e-06,
    p_normal_lo: 0.008094520109817512,
    p_normal_hi: 0.008102125090182488,
    p_wilson_lo: 0.008094520995140865,
    p_wilson_hi: 0.008102125975705171,
    positions: 6.549998801706489e+68,
    positions_normal_lo: 6.546923312204651e+68,
    positions_normal_hi: 6.553074291208326e+68,
    positions_wilson_lo: 6.546924028262431e+68,
    positions_wilson_hi: 6.553075007427326e+68,
    positions_distinct: 1.3099797989272604e+69,
    positions_distinct_normal_lo: 1.3093647080373215e+69,
    positions_distinct_normal_hi: 1.3105948898171996e+69,
    positions_exact: "654999880170648862373235755703157787402268639804815315665337994474050",
    unknown_bounds: None,
};

// Mini Shogi, the paper's counts: n = 100000000, reachable = 14849198, symmetric_reachable = 123456, unknown = 0
//   statsmodels Wilson: [0.1483853355369646, 0.14859868773447332]
//   3σ interval of positions to 5 digits: [2.3763e+18, 2.3797e+18]
const MINI: Reference = Reference {
    samples: 100_000_000,
    reachable: 14_849_198,
    symmetric_reachable: 123_456,
    unknown: 0,
    space: 1.601421950523885e+19,
    p: 0.14849198,
    sigma: 3.555869962128531e-05,
    p_normal_lo: 0.14838530390113613,
    p_normal_hi: 0.14859865609886386,
    p_wilson_lo: 0.1483853355369646,
    p_wilson_hi: 0.1485986877344733,
    positions: 2.377983162487537e+18,
    positions_normal_lo: 2.3762748280243686e+18,
    positions_normal_hi: 2.3796914969507057e+18,
    positions_wilson_lo: 2.37627533464747e+18,
    positions_wilson_hi: 2.3796920035702994e+18,
    positions_distinct: 4.736195810142686e+18,
    positions_distinct_normal_lo: 4.732789194245972e+18,
    positions_distinct_normal_hi: 4.739602426039401e+18,
    positions_exact: "2377983162487537098",
    unknown_bounds: None,
};

// small with unknowns: n = 10, reachable = 3, symmetric_reachable = 1, unknown = 2
//   statsmodels Wilson: [0.0654212587166178, 0.7240524254939087]
//   3σ interval of positions to 5 digits: [-2.1578e+18, 1.1766e+19]
const SMALL_UNKNOWN: Reference = Reference {
    samples: 10,
    reachable: 3,
    symmetric_reachable: 1,
    unknown: 2,
    space: 1.601421950523885e+19,
    p: 0.3,
    sigma: 0.14491376746189438,
    p_normal_lo: -0.13474130238568316,
    p_normal_hi: 0.7347413023856831,
    p_wilson_lo: 0.06542125871661773,
    p_wilson_hi: 0.7240524254939086,
    positions: 4.804265851571655e+18,
    positions_normal_lo: -2.157776792826093e+18,
    positions_normal_hi: 1.1766308495969403e+19,
    positions_wilson_lo: 1.0476703973969368e+18,
    positions_wilson_hi: 1.159513447516005e+19,
    positions_distinct: 8.007109752619425e+18,
    positions_distinct_normal_lo: -4.241412910206238e+18,
    positions_distinct_normal_hi: 2.0255632415445086e+19,
    positions_exact: "4804265851571654775",
    unknown_bounds: Some((4.804265851571655e+18, 8.007109752619425e+18)),
};

/// small n: (k, n, p, sigma, normal lo, normal hi, Wilson lo, Wilson hi)
#[rustfmt::skip]
const SMALL: [SmallCase; 3] = [
// n = 10, k = 0: statsmodels normal (clipped to [0, 1]): [0.0, 0.0]
// n = 10, k = 0: statsmodels Wilson: [2.7755575615628914e-17, 0.4736842105263158]
    (0, 10, 0.0, 0.0, 0.0, 0.0, 0.0, 0.47368421052631576),
// n = 10, k = 10: statsmodels normal (clipped to [0, 1]): [1.0, 1.0]
// n = 10, k = 10: statsmodels Wilson: [0.5263157894736841, 1.0]
    (10, 10, 1.0, 0.0, 1.0, 1.0, 0.5263157894736842, 1.0),
// n = 10, k = 3: statsmodels normal (clipped to [0, 1]): [0.0, 0.7347413023856832]
// n = 10, k = 3: statsmodels Wilson: [0.0654212587166178, 0.7240524254939087]
    (3, 10, 0.3, 0.14491376746189438, -0.13474130238568316, 0.7347413023856831, 0.06542125871661773, 0.7240524254939086),
];

/// z-scores: (k, n, k0, n0, z)
const Z_SCORES: [(u64, u64, u64, u64, f64); 2] = [
    (243170, 354000, 40491613, 58981117, 0.5164229743189227), // statsmodels: 0.5164229743188321
    (2213000, 7780000, 21506911, 77795825, 49.85525039910743), // statsmodels: 49.855250399107376
];

fn check(name: &str, r: &Reference, space: &str) {
    let counters = Counters {
        samples: r.samples,
        reachable: r.reachable,
        unknown: r.unknown,
        symmetric_reachable: r.symmetric_reachable,
        ..Counters::default()
    };
    let space: BigUint = space.parse().expect("a decimal |P_K|");
    let e = Estimate::new(&counters, &space);
    let at = |field: &str| format!("{name}: {field}");
    close(&at("space"), e.space, r.space);
    close(&at("p"), e.p, r.p);
    close(&at("sigma"), e.sigma, r.sigma);
    close_interval(&at("p_normal"), e.p_normal, r.p_normal_lo, r.p_normal_hi);
    close_interval(
        &at("p_wilson"),
        e.p_wilson.unwrap(),
        r.p_wilson_lo,
        r.p_wilson_hi,
    );
    close(&at("positions"), e.positions, r.positions);
    close_interval(
        &at("positions_normal"),
        e.positions_normal,
        r.positions_normal_lo,
        r.positions_normal_hi,
    );
    close_interval(
        &at("positions_wilson"),
        e.positions_wilson.unwrap(),
        r.positions_wilson_lo,
        r.positions_wilson_hi,
    );
    close(
        &at("positions_distinct"),
        e.positions_distinct,
        r.positions_distinct,
    );
    close_interval(
        &at("positions_distinct_normal"),
        e.positions_distinct_normal,
        r.positions_distinct_normal_lo,
        r.positions_distinct_normal_hi,
    );
    assert_eq!(
        e.positions_exact, r.positions_exact,
        "{name}: positions_exact"
    );
    match (e.unknown_bounds, r.unknown_bounds) {
        (None, None) => {}
        (Some(b), Some((lo, hi))) => close_interval(&at("unknown_bounds"), b, lo, hi),
        (got, want) => panic!("{name}: unknown_bounds {got:?}, reference {want:?}"),
    }
}

#[test]
fn shogi_paper_counts() {
    check("Shogi", &SHOGI, SHOGI_PK);
}

#[test]
fn mini_paper_counts() {
    check("Mini Shogi", &MINI, MINI_PK);
}

#[test]
fn small_run_with_unknowns() {
    check("small", &SMALL_UNKNOWN, MINI_PK);
}

/// The intervals the paper's counts give, to the digits docs/METHOD.md §1 and paper.rs
/// quote them (Shogi to 5 significant digits; Mini Shogi's published upper end 2.379e18 is
/// 2.3797e18 cut to 4 digits, not rounded).
#[test]
fn paper_intervals_from_the_paper_counts() {
    let shogi = paper(GameKind::Shogi);
    let space: BigUint = SHOGI_PK.parse().unwrap();
    let e = Estimate::new(
        &Counters {
            samples: shogi.samples,
            reachable: shogi.reachable,
            ..Counters::default()
        },
        &space,
    );
    assert_eq!(sci(e.positions_normal.lo, 5), sci(shogi.positions.lo, 5));
    assert_eq!(sci(e.positions_normal.hi, 5), sci(shogi.positions.hi, 5));

    let mini = paper(GameKind::Mini);
    let space: BigUint = MINI_PK.parse().unwrap();
    let e = Estimate::new(
        &Counters {
            samples: mini.samples,
            reachable: mini.reachable,
            ..Counters::default()
        },
        &space,
    );
    assert_eq!(sci(e.positions_normal.lo, 4), sci(mini.positions.lo, 4));
    let cut = (e.positions_normal.hi / 1e15).floor() * 1e15;
    assert_eq!(sci(cut, 4), sci(mini.positions.hi, 4));
}

/// Small samples, where the normal and Wilson intervals differ most. The normal interval is
/// `p ± 3σ` unclipped, as stats.rs documents it: for k = 3 of 10 its lower end is negative
/// (statsmodels clips it to 0; see the script's comments).
#[test]
fn small_samples_normal_and_wilson() {
    for (k, n, p, sigma, nlo, nhi, wlo, whi) in SMALL {
        let what = format!("k = {k}, n = {n}");
        let e = Estimate::new(
            &Counters {
                samples: n,
                reachable: k,
                ..Counters::default()
            },
            &BigUint::from(1u32),
        );
        close(&format!("{what}: p"), e.p, p);
        close(&format!("{what}: sigma"), e.sigma, sigma);
        close_interval(&format!("{what}: normal"), e.p_normal, nlo, nhi);
        close_interval(&format!("{what}: Wilson"), e.p_wilson.unwrap(), wlo, whi);
        close_interval(&format!("{what}: wilson()"), wilson(k, n, Z), wlo, whi);
    }
}

#[test]
fn z_scores_against_the_paper_rate() {
    for (k, n, k0, n0, z) in Z_SCORES {
        let got = z_score(k, n, k0, n0);
        assert!(
            (got - z).abs() <= 1e-9,
            "z_score({k}, {n}, {k0}, {n0}) = {got}, reference {z}"
        );
    }
}
