//! Holds only comparison benchmarks: `benches/compare.rs` times shogi-core's perft
//! against the `haitaka` and `rsshogi` crates in one run, so that shogi-core itself
//! never depends on them. There is no library code here; see `docs/BENCHMARKS.md`.
