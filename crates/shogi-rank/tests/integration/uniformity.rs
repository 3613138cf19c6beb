//! The sampler is uniform over `P_K`: chi-square tests of the king placement, the number of
//! pieces in hand and the number of promoted pieces on the board against their exact
//! probabilities from the class sizes, with fixed seeds. Two biased samplers (a 64-bit
//! number reduced modulo `|P_K|`, and a class drawn uniformly) must fail the same tests.

use shogi_core::{Color, Game, MiniShogi, Position, Shogi};
use shogi_rank::{full_table, RankTable, Sampler, U256};
use shogi_verify::rng::Rng;

fn to_f64(x: U256) -> f64 {
    x.to_limbs()
        .iter()
        .rev()
        .fold(0.0, |acc, &l| acc * 18_446_744_073_709_551_616.0 + l as f64)
}

/// Per class: its probability, pieces in hand and promotable pieces on the board.
fn class_stats<G: Game>(t: &RankTable<G>) -> Vec<(f64, usize, usize)> {
    let total = to_f64(t.count_u256());
    (0..t.class_count())
        .map(|i| {
            let c = t.class(i);
            let in_hand: usize = c.hand.iter().map(|&(_, h)| h as usize).sum();
            let promotable: usize = t
                .types()
                .iter()
                .filter(|ty| ty.promotable)
                .map(|ty| {
                    let h = c
                        .hand
                        .iter()
                        .find(|(k, _)| *k == ty.kind)
                        .map_or(0, |x| x.1);
                    (ty.count - h) as usize
                })
                .sum();
            (to_f64(c.size) / total, in_hand, promotable)
        })
        .collect()
}

fn binom_f(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Exact distribution of the number of pieces in hand.
fn hand_probs<G: Game>(t: &RankTable<G>) -> Vec<f64> {
    let mut p = vec![0.0; 40];
    for (w, h, _) in class_stats(t) {
        p[h] += w;
    }
    p
}

/// Exact distribution of the number of promoted pieces on the board. Within a class, the
/// placements of `b` pieces of a promotable type with `j` of them promoted number
/// `C(e, b) · C(b, j) · 2^b` (checked below against the split sums), so the count of
/// promoted pieces is Binomial(B, 1/2) with `B` the promotable pieces on the board.
fn promoted_probs<G: Game>(t: &RankTable<G>) -> Vec<f64> {
    let mut p = vec![0.0; 40];
    for (w, _, b) in class_stats(t) {
        for (j, pj) in p.iter_mut().enumerate().take(b + 1) {
            *pj += w * binom_f(b, j) * 0.5f64.powi(b as i32);
        }
    }
    p
}

#[test]
fn promoted_split_identity() {
    let c = |n: u128, k: u128| -> u128 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    };
    for e in 0..30u128 {
        for b in 0..=e.min(10) {
            for j in 0..=b {
                let mut s = 0;
                for n0 in 0..=j {
                    let n1 = j - n0;
                    for n2 in 0..=(b - j) {
                        let n3 = b - j - n2;
                        s += c(e, n0) * c(e - n0, n1) * c(e - n0 - n1, n2) * c(e - j - n2, n3);
                    }
                }
                assert_eq!(s, (c(e, b) * c(b, j)) << b);
            }
        }
    }
}

/// Pearson's chi-square of observed counts against probabilities, pooling the cells whose
/// expected count is below 5 (from both ends inwards); returns (statistic, degrees of
/// freedom).
fn chi_square(observed: &[u64], probs: &[f64], n: u64) -> (f64, usize) {
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let (mut o_acc, mut e_acc) = (0.0, 0.0);
    for (&o, &p) in observed.iter().zip(probs) {
        o_acc += o as f64;
        e_acc += p * n as f64;
        if e_acc >= 5.0 {
            cells.push((o_acc, e_acc));
            o_acc = 0.0;
            e_acc = 0.0;
        }
    }
    if let Some(last) = cells.last_mut() {
        last.0 += o_acc;
        last.1 += e_acc;
    }
    let stat = cells.iter().map(|&(o, e)| (o - e) * (o - e) / e).sum();
    (stat, cells.len() - 1)
}

/// A threshold a uniform sampler exceeds with probability far below 1e-6.
fn threshold(df: usize) -> f64 {
    df as f64 + 7.0 * (2.0 * df as f64).sqrt() + 10.0
}

struct Stats {
    kings: Vec<u64>,
    hand: Vec<u64>,
    promoted: Vec<u64>,
}

fn collect<G: Game>(positions: impl Iterator<Item = Position<G>>) -> Stats {
    let n = G::SQUARES;
    let mut s = Stats {
        kings: vec![0; n * n],
        hand: vec![0; 40],
        promoted: vec![0; 40],
    };
    for p in positions {
        let bk = p.king(Color::Black).unwrap().index();
        let wk = p.king(Color::White).unwrap().index();
        s.kings[bk * n + wk] += 1;
        s.hand[(p.hand(Color::Black).total() + p.hand(Color::White).total()) as usize] += 1;
        let promoted = p
            .occupied()
            .filter(|&sq| p.piece_at(sq).is_some_and(|pc| pc.kind.is_promoted()))
            .count();
        s.promoted[promoted] += 1;
    }
    s
}

/// The three chi-square statistics, each divided by its threshold (uniform: all below 1).
fn scores<G: Game>(t: &RankTable<G>, s: &Stats, n: u64) -> [f64; 3] {
    let k = t.king_placements() as f64;
    let mut kings_obs = Vec::new();
    let sq = G::SQUARES;
    for b in 0..sq {
        for w in 0..sq {
            let (bs, ws) = (
                shogi_core::Square::from_index(b as u8).unwrap(),
                shogi_core::Square::from_index(w as u8).unwrap(),
            );
            if shogi_rank::kings_k_canonical::<G>(bs, ws) {
                kings_obs.push(s.kings[b * sq + w]);
            } else {
                assert_eq!(s.kings[b * sq + w], 0, "a non-canonical king placement");
            }
        }
    }
    assert_eq!(kings_obs.len() as f64, k);
    let kings_p = vec![1.0 / k; kings_obs.len()];
    let mut out = [0.0; 3];
    for (i, (obs, p)) in [
        (&kings_obs, kings_p),
        (&s.hand, hand_probs(t)),
        (&s.promoted, promoted_probs(t)),
    ]
    .into_iter()
    .enumerate()
    {
        let (stat, df) = chi_square(obs, &p, n);
        out[i] = stat / threshold(df);
        println!(
            "{} statistic {i}: chi2 = {stat:.1}, df = {df}, score = {:.3}",
            G::NAME,
            out[i]
        );
    }
    out
}

fn uniform<G: Game>(seed: u64, n: u64) {
    let t = full_table::<G>();
    let sampler = Sampler::new(t, seed);
    let s = collect((0..n).map(|i| sampler.sample(i)));
    for v in scores(t, &s, n) {
        assert!(v < 1.0, "uniform sampler rejected");
    }
}

#[test]
fn shogi_sampler_is_uniform() {
    uniform::<Shogi>(7, 300_000);
}

#[test]
fn mini_sampler_is_uniform() {
    uniform::<MiniShogi>(7, 300_000);
}

fn biased<G: Game>(n: u64) {
    let t = full_table::<G>();
    let total = t.count_u256();
    // A 64-bit number reduced modulo |P_K|.
    let mut rng = shogi_verify::rng::test_rng(99);
    let s = collect((0..n).map(|_| {
        let r = U256::from(rng.next_u64());
        let r = if r >= total {
            r.checked_sub(total).unwrap()
        } else {
            r
        };
        t.unrank_u256(r).unwrap()
    }));
    let sc = scores(t, &s, n);
    assert!(sc[1] > 1.0, "modulo sampler not detected: {sc:?}");
    // A class drawn uniformly, then a uniform rank inside it.
    let s = collect((0..n).map(|_| {
        let c = t.class((rng.next_u64() % t.class_count() as u64) as usize);
        let within = shogi_rank::uniform_below(c.size, 5, rng.next_u64());
        t.unrank_u256(c.offset.checked_add(within).unwrap())
            .unwrap()
    }));
    let sc = scores(t, &s, n);
    assert!(sc[1] > 1.0, "uniform-class sampler not detected: {sc:?}");
}

#[test]
fn biased_samplers_fail_shogi() {
    biased::<Shogi>(100_000);
}

#[test]
fn biased_samplers_fail_mini() {
    biased::<MiniShogi>(300_000);
}

#[test]
fn samples_are_reproducible() {
    let t = full_table::<MiniShogi>();
    let a = Sampler::new(t, 3);
    let b = Sampler::new(t, 3);
    // Drawn in another order, the samples are the same.
    let fwd: Vec<_> = (0..100).map(|i| a.rank(i)).collect();
    let bwd: Vec<_> = (0..100).rev().map(|i| b.rank(i)).collect();
    assert!(fwd.iter().eq(bwd.iter().rev()));
    assert_ne!(Sampler::new(t, 4).rank(0), a.rank(0));
    // Pinned values: a change of generator or draw rule must be deliberate.
    let s = full_table::<Shogi>();
    assert_eq!(
        Sampler::new(s, 1).rank(0).to_string(),
        "30758783661235922004442589595719539699520519809187179522497158996123343"
    );
    assert_eq!(
        Sampler::new(t, 1).rank(0).to_string(),
        "7037237572835827407"
    );
}
