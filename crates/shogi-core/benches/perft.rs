//! Perft benchmarks: legal move generation with bulk counting at the leaves.

use criterion::{criterion_main, BenchmarkId, Criterion, Throughput};
use shogi_core::{Game, MiniShogi, Position, Shogi};

/// A crowded midgame with promoted pieces, pieces in hand and many drops (docs/METHOD.md §9).
const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn bench_perft<G: Game>(c: &mut Criterion, name: &str, sfen: &str, depth: u32) {
    let pos = Position::<G>::from_sfen(sfen).expect("benchmark SFEN parses");
    let nodes = pos.perft(depth);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(BenchmarkId::new(name, depth), |b| {
        b.iter(|| pos.perft(depth))
    });
    group.finish();
}

fn perft(c: &mut Criterion) {
    bench_perft::<Shogi>(c, "shogi-startpos", Shogi::START_SFEN, 5);
    bench_perft::<Shogi>(c, "shogi-midgame", MIDGAME, 3);
    bench_perft::<MiniShogi>(c, "mini-startpos", MiniShogi::START_SFEN, 6);
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::perft);
}
criterion_main!(group::benches);
