//! Searches per second and expanded nodes per second on a fixed set of uniformly sampled
//! positions that pass the filters (seed 12345, the first 300 survivors of each game), with
//! the lazy search (default) and the eager one (all predecessors at once, as in the paper).

use criterion::{criterion_main, BenchmarkId, Criterion, Throughput};
use shogi_core::{Game, MiniShogi, Position, Shogi};
use shogi_rank::{filters, RankTable, Sampler};
use shogi_reach::{SearchConfig, Searcher};
use std::hint::black_box;

fn survivors<G: Game>(n: usize) -> Vec<Position<G>> {
    let table = RankTable::<G>::full();
    let sampler = Sampler::new(&table, 12345);
    (0..)
        .map(|i| sampler.sample(i))
        .filter(|p| filters::classify(p) == filters::FilterOutcome::Pass)
        .take(n)
        .collect()
}

fn bench_game<G: Game>(c: &mut Criterion) {
    let positions = survivors::<G>(300);
    for lazy in [true, false] {
        let config = SearchConfig {
            lazy_captures: lazy,
            ..SearchConfig::default()
        };
        let mut searcher = Searcher::<G>::new(config);
        let expanded: u64 = positions
            .iter()
            .map(|p| searcher.search(p).stats.expanded)
            .sum();
        let label = if lazy { "lazy" } else { "eager" };
        for (unit, count) in [("searches", positions.len() as u64), ("nodes", expanded)] {
            let mut group = c.benchmark_group(format!("search/{}/{unit}", G::NAME));
            group.sample_size(10);
            group.throughput(Throughput::Elements(count));
            group.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| {
                    for p in &positions {
                        black_box(searcher.search(black_box(p)).verdict);
                    }
                })
            });
            group.finish();
        }
    }
}

fn benches(c: &mut Criterion) {
    bench_game::<Shogi>(c);
    bench_game::<MiniShogi>(c);
}

#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(search, super::benches);
}

criterion_main!(group::search);
