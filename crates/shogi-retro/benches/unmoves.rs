//! Unmove generation beside forward legal move generation, on the same positions sampled
//! from random legal games.

use criterion::{criterion_main, BenchmarkId, Criterion, Throughput};
use shogi_core::{Game, MiniShogi, MoveList, Position, Rules, Shogi};
use shogi_retro::{count_unmoves, undo, unmoves, UnmoveList};
use shogi_verify::rng::{below, test_rng};
use shogi_verify::sweep::random_start;

/// `n` positions from random legal games (every 7th position of each game).
fn sample<G: Game>(n: usize, seed: u64) -> Vec<Position<G>> {
    let mut rng = test_rng(seed);
    let mut out = Vec::with_capacity(n);
    let mut moves = MoveList::new();
    while out.len() < n {
        let mut pos = random_start::<G>(&mut rng);
        for ply in 0..200 {
            if ply % 7 == 6 {
                out.push(pos.clone());
                if out.len() == n {
                    break;
                }
            }
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[below(&mut rng, moves.len())]);
        }
    }
    out
}

fn bench_game<G: Game>(c: &mut Criterion) {
    let positions = sample::<G>(1000, 1);
    let rules = Rules::default();
    let preds: u64 = positions
        .iter()
        .map(|p| count_unmoves(p, rules) as u64)
        .sum();
    let moves: u64 = positions.iter().map(|p| p.count_moves()).sum();
    let mut group = c.benchmark_group(format!("{}-1000-positions", G::NAME));
    group.sample_size(20);

    group.throughput(Throughput::Elements(preds));
    group.bench_function(BenchmarkId::new("unmoves", preds), |b| {
        let mut list = UnmoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                unmoves(p, rules, &mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function(BenchmarkId::new("unmoves+undo", preds), |b| {
        let mut list = UnmoveList::new();
        b.iter(|| {
            let mut n = 0u64;
            for p in &positions {
                unmoves(p, rules, &mut list);
                for &u in &list {
                    let mut q = p.clone();
                    undo(&mut q, u).expect("a generated unmove fits");
                    n = n.wrapping_add(q.key());
                }
            }
            n
        })
    });
    group.throughput(Throughput::Elements(moves));
    group.bench_function(BenchmarkId::new("legal_moves", moves), |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                list.clear();
                p.legal_moves(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<Shogi>(c);
    bench_game::<MiniShogi>(c);
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::benches);
}
criterion_main!(group::benches);
