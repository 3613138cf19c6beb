//! Draws many samples in a loop (for profiling and for comparing the two samplers):
//! `sample_loop [shogi|mini] [pk|s] [N]`, where `pk` draws uniform positions of `P_K`
//! (a rank, then an unrank) and `s` uniform positions of the placement-legal subspace `S`.
//! With `DRAWS` set in the environment it also prints the expected number of core draws
//! (proposals) per sample of `S`.

use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{PlacementSampler, PlacementTable, RankTable, Sampler};
use std::time::Instant;

fn run<G: Game>(space: &str, n: u64) {
    let mut acc = 0u64;
    let start;
    if space == "s" {
        let table = PlacementTable::<G>::full();
        if std::env::var_os("DRAWS").is_some() {
            println!(
                "expected core draws per sample: {:.3}",
                table.expected_draws()
            );
        }
        let sampler = PlacementSampler::new(&table, 1);
        start = Instant::now();
        for i in 0..n {
            acc = acc.wrapping_add(sampler.sample(i).key());
        }
    } else {
        let table = RankTable::<G>::full();
        let sampler = Sampler::new(&table, 1);
        start = Instant::now();
        for i in 0..n {
            acc = acc.wrapping_add(sampler.sample(i).key());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} {space}: {n} samples in {secs:.3} s = {:.3} µs each (checksum {acc:x})",
        G::NAME,
        secs * 1e6 / n as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let space = args.get(2).map(String::as_str).unwrap_or("s");
    let n = args
        .get(3)
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(1_000_000, |x| x as u64);
    match args.get(1).map(String::as_str) {
        Some("mini") => run::<MiniShogi>(space, n),
        _ => run::<Shogi>(space, n),
    }
}
