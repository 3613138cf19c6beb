//! Holds only comparison benchmarks: `benches/compare.rs` times shogi-core's perft
//! against the `haitaka`, `rsshogi` and `shunsai` crates in one run,
//! on the suite of `testdata/perft/bench.perft`, so that shogi-core itself
//! never depends on them. There is no library code here; see `docs/BENCHMARKS.md`.
