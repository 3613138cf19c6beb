//! Ranking, unranking and sampling throughput, of `P_K` and of the placement-legal subspace
//! `S` (docs/BENCHMARKS.md, "Ranking and unranking").

use criterion::{criterion_main, BenchmarkId, Criterion, Throughput};
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{PlacementSampler, PlacementTable, RankTable, Sampler, U256};
use std::hint::black_box;

const BATCH: u64 = 1000;

fn bench_game<G: Game>(c: &mut Criterion, name: &str) {
    let table = RankTable::<G>::full();
    let sampler = Sampler::new(&table, 12345);
    let ranks: Vec<U256> = (0..BATCH).map(|i| sampler.rank(i)).collect();
    let positions: Vec<_> = ranks
        .iter()
        .map(|&r| table.unrank_u256(r).expect("in range"))
        .collect();
    let mut group = c.benchmark_group("rank");
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function(BenchmarkId::new("unrank", name), |b| {
        b.iter(|| {
            for &r in &ranks {
                black_box(table.unrank_u256(black_box(r)).expect("in range"));
            }
        })
    });
    group.bench_function(BenchmarkId::new("rank", name), |b| {
        b.iter(|| {
            for p in &positions {
                black_box(table.rank_u256(black_box(p)).expect("in P_K"));
            }
        })
    });
    group.bench_function(BenchmarkId::new("sample-rank", name), |b| {
        b.iter(|| {
            for i in 0..BATCH {
                black_box(sampler.rank(black_box(i)));
            }
        })
    });
    group.bench_function(BenchmarkId::new("sample", name), |b| {
        b.iter(|| {
            for i in 0..BATCH {
                black_box(sampler.sample(black_box(i)));
            }
        })
    });
    // A uniform sample of the placement-legal subspace S, against `sample` above (a
    // uniform sample of P_K): the fast method draws the former where the paper's draws
    // the latter.
    let placement = PlacementTable::<G>::full();
    let s_sampler = PlacementSampler::new(&placement, 12345);
    group.bench_function(BenchmarkId::new("sample-S", name), |b| {
        b.iter(|| {
            for i in 0..BATCH {
                black_box(s_sampler.sample(black_box(i)));
            }
        })
    });
    group.finish();
}

fn f(c: &mut Criterion) {
    bench_game::<Shogi>(c, "shogi");
    bench_game::<MiniShogi>(c, "mini");
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::f);
}
criterion_main!(group::benches);
