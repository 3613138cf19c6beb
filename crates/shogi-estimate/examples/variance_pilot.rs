//! Where the phase-1 variance of the estimate lives, and what averaging over a king's squares
//! removes: the pilot behind the conditional estimator (docs/METHOD.md §10.8).
//!
//! - `variance_pilot [shogi|mini] [N] [SEED]`: on `N` samples of `S`, the variance a sample
//!   of the indicator of §10.1 and of each design (White's king averaged exactly, the same
//!   with one position tested, Black's king averaged, post-stratified variants); with
//!   `BOTH_KINGS=1` also both kings averaged, and with 1, 2, 4 and 8 pairs tested (slow:
//!   every pair of king squares of every sample).
//! - `variance_pilot pred [N]`: the time of the predecessor test on the positions the
//!   conditional estimator tests, by whether Black is in check and by the answer.
//!
//! Every position of a group is built here through `Position::with_king_on` and tested
//! with the filters and `has_predecessor` directly, not through the estimate's pipeline:
//! the pilot checks the design, not the code that implements it.

use shogi_core::{Color, Game, MiniShogi, Position, Rules, Shogi, Square};
use shogi_rank::filters::{classify, FilterOutcome};
use shogi_rank::{PlacementSampler, PlacementTable};
use shogi_reach::is_kk;
use std::collections::HashMap;

/// The indicator of §10.1: passes every filter and is a KK position or has a predecessor.
fn f<G: Game>(pos: &Position<G>) -> bool {
    classify(pos) == FilterOutcome::Pass
        && (is_kk(pos) || shogi_retro::has_predecessor(pos, Rules::default()))
}

/// The squares `color`'s king may stand on in `pos`'s group: the empty ones and its own, the
/// K-canonical ones only (docs/METHOD.md §3).
fn group<G: Game>(pos: &Position<G>, color: Color) -> Vec<Square> {
    let centre = G::WIDTH / 2;
    let b = pos.king(Color::Black).expect("a king");
    let w = pos.king(Color::White).expect("a king");
    let own = pos.king(color).expect("a king");
    (0..G::SQUARES as u8)
        .filter_map(|i| Square::from_index_in::<G>(i))
        .filter(|&s| s == own || pos.piece_at(s).is_none())
        .filter(|&s| {
            let (bb, ww) = if color == Color::Black {
                (s, w)
            } else {
                (b, s)
            };
            bb.x::<G>() < centre || (bb.x::<G>() == centre && ww.x::<G>() <= centre)
        })
        .collect()
}

/// Running mean and variance.
#[derive(Default)]
struct Acc {
    n: f64,
    s: f64,
    s2: f64,
}

impl Acc {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.s += x;
        self.s2 += x * x;
    }
    fn mean(&self) -> f64 {
        self.s / self.n
    }
    fn var(&self) -> f64 {
        let m = self.mean();
        (self.s2 / self.n - m * m) * self.n / (self.n - 1.0)
    }
}

/// A small xorshift for the pilot's own draws (which position of a group to test).
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn designs<G: Game>(n: u64, seed: u64, both_kings: bool) {
    let table = PlacementTable::<G>::full();
    let sampler = PlacementSampler::new(&table, seed);
    let mut rng = Xorshift(0x1234_5678_9abc_def0 ^ seed);
    let (mut x0, mut white, mut black, mut hybrid) = (
        Acc::default(),
        Acc::default(),
        Acc::default(),
        Acc::default(),
    );
    let (mut both, mut both_k) = (Acc::default(), [(); 4].map(|_| Acc::default()));
    let mut strata: [HashMap<u64, Acc>; 3] = Default::default();
    for i in 0..n {
        let pos = sampler.sample(i);
        x0.add(f64::from(u8::from(f(&pos))));
        // White's king over its group: every position tested, and the estimator's one.
        let gw = group(&pos, Color::White);
        let mut hits = 0.0;
        let mut safe = Vec::new();
        for &s in &gw {
            let y = pos.with_king_on(Color::White, s).expect("an empty square");
            hits += f64::from(u8::from(f(&y)));
            if !y.in_check(Color::White) {
                safe.push(y);
            }
        }
        white.add(hits / gw.len() as f64);
        let q = safe.len() as f64 / gw.len() as f64;
        let z = if safe.is_empty() {
            0.0
        } else {
            q * f64::from(u8::from(f(&safe[rng.below(safe.len())])))
        };
        hybrid.add(z);
        let gb = group(&pos, Color::Black);
        let hits_b: f64 = gb
            .iter()
            .map(|&s| {
                let y = pos.with_king_on(Color::Black, s).expect("an empty square");
                f64::from(u8::from(f(&y)))
            })
            .sum();
        black.add(hits_b / gb.len() as f64);
        // Post-stratification of the estimator by the material split.
        let held = |c: Color| pos.hand(c).0.iter().map(|&k| u64::from(k)).sum::<u64>();
        let on_board = pos.by_color(Color::Black).count() as u64;
        let keys = [
            held(Color::Black) + held(Color::White),
            held(Color::Black) * 64 + held(Color::White),
            on_board * 64 + pos.occupied().count() as u64 - on_board,
        ];
        for (m, k) in strata.iter_mut().zip(keys) {
            m.entry(k).or_default().add(z);
        }
        if both_kings {
            let mut pairs = Vec::new();
            let mut count = 0usize;
            for &b in &gb {
                let pb = pos.with_king_on(Color::Black, b).expect("an empty square");
                for &w in &group(&pb, Color::White) {
                    count += 1;
                    let y = pb.with_king_on(Color::White, w).expect("an empty square");
                    if !y.in_check(Color::White) {
                        pairs.push(f64::from(u8::from(f(&y))));
                    }
                }
            }
            both.add(pairs.iter().sum::<f64>() / count as f64);
            let q2 = pairs.len() as f64 / count as f64;
            for (acc, k) in both_k.iter_mut().zip([1usize, 2, 4, 8]) {
                let t: f64 = (0..k)
                    .map(|_| {
                        if pairs.is_empty() {
                            0.0
                        } else {
                            pairs[rng.below(pairs.len())]
                        }
                    })
                    .sum();
                acc.add(q2 * t / k as f64);
            }
        }
    }
    println!("{} N={n} seed={seed}", G::NAME);
    let base = x0.var();
    let show = |name: &str, a: &Acc| {
        println!(
            "{name:>45}: mean {:.6} ± {:.6} (1σ), variance a sample {:.5}, against the indicator's {:.3}",
            a.mean(),
            (a.var() / a.n).sqrt(),
            a.var(),
            a.var() / base
        );
    };
    show("indicator", &x0);
    show("White's king averaged, every position tested", &white);
    show("White's king: check exact, one position tested", &hybrid);
    show("Black's king averaged", &black);
    if both_kings {
        show("both kings averaged, every pair tested", &both);
        for (acc, k) in both_k.iter().zip([1, 2, 4, 8]) {
            show(&format!("both kings, {k} pairs tested"), acc);
        }
    }
    for (name, m) in ["hand total", "hand of each side", "board of each colour"]
        .iter()
        .zip(&strata)
    {
        let within: f64 = m
            .values()
            .filter(|a| a.n > 1.0)
            .map(|a| a.var() * (a.n - 1.0))
            .sum::<f64>()
            / (hybrid.n - m.len() as f64);
        println!(
            "{:>45}: {} strata, variance a sample {within:.5}, against the indicator's {:.3}",
            format!("one position tested, stratified by {name}"),
            m.len(),
            within / base
        );
    }
}

/// The time of the predecessor test on the positions the conditional estimator tests.
fn predecessor_times<G: Game>(n: u64) {
    use std::time::Instant;
    let table = PlacementTable::<G>::full();
    let sampler = PlacementSampler::new(&table, 5);
    let tested: Vec<Position<G>> = (0..n)
        .filter_map(|i| {
            let pos = sampler.sample(i);
            let g = shogi_estimate::KingGroup::of(&pos)?;
            let y = pos.with_king_on(Color::White, g.safe.first()?)?;
            shogi_rank::filters::mirror_ok(&y).then_some(y)
        })
        .collect();
    let mut stats = [[(0u64, 0f64); 2]; 2];
    for y in &tested {
        let t = Instant::now();
        let r = shogi_retro::has_predecessor(y, Rules::default());
        let dt = t.elapsed().as_secs_f64();
        let cell = &mut stats[usize::from(y.in_check(Color::Black))][usize::from(r)];
        cell.0 += 1;
        cell.1 += dt;
    }
    for (check, row) in stats.iter().enumerate() {
        for (answer, &(c, t)) in row.iter().enumerate() {
            println!(
                "{}: Black in check {}, has a predecessor {}: {c} ({:.1}%), {:.3} µs each",
                G::NAME,
                check == 1,
                answer == 1,
                100.0 * c as f64 / tested.len() as f64,
                1e6 * t / c.max(1) as f64
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|s| s.parse::<f64>().ok())
            .map_or(default, |x| x as u64)
    };
    let both = std::env::var_os("BOTH_KINGS").is_some();
    match args.get(1).map(String::as_str) {
        Some("pred") => {
            predecessor_times::<Shogi>(number(2, 1_000_000));
            predecessor_times::<MiniShogi>(number(2, 1_000_000));
        }
        Some("mini") => designs::<MiniShogi>(number(2, 20_000), number(3, 1), both),
        _ => designs::<Shogi>(number(2, 20_000), number(3, 1), both),
    }
}
