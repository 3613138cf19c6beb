//! Where the time of a sample goes, for both methods (docs/METHOD.md §10): drawing it, the
//! three filters, then the search of the survivors (`paper`), or the predecessor test and
//! the search of a subsample (`fast`), over the same fixed indices (seed 1, samples
//! 0..20000), one thread. The share of a stage is the difference between consecutive
//! benchmarks.

use criterion::measurement::WallTime;
use criterion::{criterion_main, BenchmarkGroup, Criterion, Throughput};
use shogi_core::GameKind;
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_estimate::{default_phase2_rate, evaluate, Phase2, SampleSource};
use shogi_rank::{filters, full_placement_table, full_table, PlacementSampler, Sampler};
use shogi_reach::{SearchConfig, Searcher};
use std::hint::black_box;

const N: u64 = 20_000;

/// The first two stages of a method: drawing the samples, then the filters.
fn bench_sampling<G: Game, S: SampleSource<G>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    sampler: &S,
) {
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
}

fn bench_game<G: Game>(c: &mut Criterion, kind: GameKind) {
    let sampler = Sampler::new(full_table::<G>(), 1);
    let mut group = c.benchmark_group(format!("pipeline/{}/paper", G::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(N));
    bench_sampling(&mut group, &sampler);
    let mut searcher = Searcher::<G>::new(SearchConfig::default());
    group.bench_function("3-sample+filters+search", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(evaluate(&sampler, &mut searcher, i, None));
            }
        })
    });
    group.finish();

    let sampler = PlacementSampler::new(full_placement_table::<G>(), 1);
    let rules = searcher.config().rules;
    let mut group = c.benchmark_group(format!("pipeline/{}/fast", G::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(N));
    bench_sampling(&mut group, &sampler);
    group.bench_function("3-sample+filters+predecessor", |b| {
        b.iter(|| {
            for i in 0..N {
                let pos = sampler.sample(i);
                if filters::classify(&pos) == filters::FilterOutcome::Pass {
                    black_box(shogi_retro::has_predecessor(&pos, rules));
                }
            }
        })
    });
    let phase2 = Some(Phase2 {
        seed: 1,
        rate: default_phase2_rate(kind),
    });
    group.bench_function("4-sample+filters+predecessor+search", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(evaluate(&sampler, &mut searcher, i, phase2));
            }
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<Shogi>(c, GameKind::Shogi);
    bench_game::<MiniShogi>(c, GameKind::Mini);
}

#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(pipeline, super::benches);
}

criterion_main!(group::pipeline);
