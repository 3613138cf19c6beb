//! Per-search timing and node counts on uniformly sampled positions that pass the filters:
//! `cargo run --release -p shogi-reach --example search_stats -- [SURVIVORS] [SEED]`
//! (default 10000 survivors of seed 1 per game). Prints the median and tail of the time per
//! reachable search, the expanded and generated nodes, and Table 2 of the unreachable ones.
//! The figures in docs/BENCHMARKS.md come from this command.

use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{filters, full_table, Sampler};
use shogi_reach::{SearchConfig, Searcher, Verdict};
use std::time::Instant;

fn quantile<T: Copy>(sorted: &[T], q: f64) -> T {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn run<G: Game>(survivors: usize, seed: u64) {
    let sampler = Sampler::new(full_table::<G>(), seed);
    let mut searcher = Searcher::<G>::new(SearchConfig::default());
    let (mut times, mut expanded, mut generated) = (Vec::new(), Vec::new(), Vec::new());
    let (mut unreachable, mut unknown, mut unreachable_time) = (0u64, 0u64, 0.0f64);
    let mut depths = [0u64; 10];
    let (mut index, mut found) = (0u64, 0usize);
    while found < survivors {
        let p = sampler.sample(index);
        index += 1;
        if filters::classify(&p) != filters::FilterOutcome::Pass {
            continue;
        }
        found += 1;
        let t = Instant::now();
        let out = searcher.search(&p);
        let dt = t.elapsed().as_secs_f64() * 1e3;
        match out.verdict {
            Verdict::Reachable => {
                times.push(dt);
                expanded.push(out.stats.expanded);
                generated.push(out.stats.generated);
            }
            Verdict::Unreachable => {
                unreachable += 1;
                unreachable_time += dt;
                depths[(out.stats.max_depth as usize).min(9)] += 1;
            }
            Verdict::Unknown => unknown += 1,
        }
    }
    times.sort_by(f64::total_cmp);
    expanded.sort_unstable();
    generated.sort_unstable();
    let reachable = times.len();
    println!(
        "{}: {found} survivors of {index} samples (seed {seed}): {reachable} reachable ({:.2}%), \
         {unreachable} unreachable, {unknown} unknown",
        G::NAME,
        100.0 * reachable as f64 / found as f64
    );
    println!(
        "  reachable: ms per search median {:.3}, p90 {:.3}, p99 {:.3}, max {:.3}; mean {:.3}",
        quantile(&times, 0.5),
        quantile(&times, 0.9),
        quantile(&times, 0.99),
        times[reachable - 1],
        times.iter().sum::<f64>() / reachable as f64
    );
    println!(
        "  reachable: expanded median {}, p99 {}, max {}; generated median {}, p99 {}, max {}",
        quantile(&expanded, 0.5),
        quantile(&expanded, 0.99),
        expanded[reachable - 1],
        quantile(&generated, 0.5),
        quantile(&generated, 0.99),
        generated[reachable - 1]
    );
    println!(
        "  unreachable: mean {:.4} ms; by max plies traced back {:?}",
        unreachable_time / unreachable.max(1) as f64,
        depths
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let survivors = args
        .next()
        .map_or(10_000, |s| s.parse().expect("SURVIVORS is a number"));
    let seed = args
        .next()
        .map_or(1, |s| s.parse().expect("SEED is a number"));
    run::<Shogi>(survivors, seed);
    run::<MiniShogi>(survivors, seed);
}
