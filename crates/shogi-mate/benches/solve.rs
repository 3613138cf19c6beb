//! The public problems of docs/METHOD.md §11, solved with and without proof pieces and
//! superiority look-ups, and the threatmate search of the initial position.

use criterion::{criterion_main, BenchmarkId, Criterion};
use shogi_core::{Position, Relax, Shogi};
use shogi_mate::{Defense, MateOptions, PassOptions, PassSolver, Solver};
use std::hint::black_box;

const PROBLEMS: [(&str, &str); 4] = [
    (
        "mate3",
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
    ),
    (
        "mate5",
        "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
    ),
    (
        "mate7",
        "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36",
    ),
    ("ghi", "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1"),
];

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    for (name, sfen) in PROBLEMS {
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .expect("legal problem");
        for superiority in [true, false] {
            let mut solver = Solver::<Shogi>::new(MateOptions {
                superiority,
                table_entries: 1 << 18,
                ..MateOptions::default()
            });
            let label = if superiority { "superiority" } else { "exact" };
            group.bench_with_input(BenchmarkId::new(label, name), &pos, |b, p| {
                b.iter(|| black_box(solver.solve(p)))
            });
        }
    }
    group.finish();
    let mut pc = PassSolver::<Shogi>::new(PassOptions {
        defense: Defense::None,
        max_passes: 1,
        table_entries: 1 << 18,
        ..PassOptions::default()
    });
    let start = Position::<Shogi>::startpos();
    c.bench_function("pass-count/startpos-none-1", |b| {
        b.iter(|| black_box(pc.solve(&start)))
    });
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::solve);
}
criterion_main!(group::benches);
