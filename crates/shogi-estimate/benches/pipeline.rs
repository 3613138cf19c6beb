//! Where the time of a sample goes: drawing and unranking it, the three filters, and the
//! search of the survivors, over the same fixed indices (seed 1, samples 0..20000), one
//! thread. The share of a stage is the difference between consecutive benchmarks.

use criterion::{criterion_main, Criterion, Throughput};
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_estimate::evaluate;
use shogi_rank::{filters, full_table, Sampler};
use shogi_reach::{SearchConfig, Searcher};
use std::hint::black_box;

const N: u64 = 20_000;

fn bench_game<G: Game>(c: &mut Criterion) {
    let sampler = Sampler::new(full_table::<G>(), 1);
    let mut group = c.benchmark_group(format!("pipeline/{}", G::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(N));
    group.bench_function("1-sample", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(sampler.sample(i));
            }
        })
    });
    group.bench_function("2-sample+filters", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(filters::classify(&sampler.sample(i)));
            }
        })
    });
    let mut searcher = Searcher::<G>::new(SearchConfig::default());
    group.bench_function("3-sample+filters+search", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(evaluate(&sampler, &mut searcher, i));
            }
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<Shogi>(c);
    bench_game::<MiniShogi>(c);
}

#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(pipeline, super::benches);
}

criterion_main!(group::pipeline);
