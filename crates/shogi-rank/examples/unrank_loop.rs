//! Unranks many sampled ranks in a loop (for profiling): `unrank_loop [shogi|mini] [N]`.

use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{RankTable, Sampler, U256};
use std::time::Instant;

fn run<G: Game>(n: u64) {
    let table = RankTable::<G>::full();
    let sampler = Sampler::new(&table, 1);
    let ranks: Vec<U256> = (0..10_000).map(|i| sampler.rank(i)).collect();
    let start = Instant::now();
    let mut acc = 0u64;
    for i in 0..n {
        let pos = table
            .unrank_u256(ranks[(i % 10_000) as usize])
            .expect("in range");
        acc = acc.wrapping_add(pos.key());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {n} unranks in {secs:.3} s = {:.0} /s (checksum {acc:x})",
        G::NAME,
        n as f64 / secs
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    match args.get(1).map(String::as_str) {
        Some("mini") => run::<MiniShogi>(n),
        _ => run::<Shogi>(n),
    }
}
