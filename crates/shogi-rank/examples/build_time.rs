//! Times `count` (the formula) and `RankTable::new` (the class table) for both games.

use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{count, RankTable};
use std::time::Instant;

fn run<G: Game>() {
    let t = Instant::now();
    let n = count::<G>(&G::MATERIAL).expect("valid material");
    let c = t.elapsed();
    let t = Instant::now();
    let table = RankTable::<G>::full();
    let b = t.elapsed();
    assert_eq!(table.count(), n);
    println!(
        "{}: |P_K| = {n}; count {:.1} ms, table ({} classes) {:.1} ms",
        G::NAME,
        c.as_secs_f64() * 1e3,
        table.class_count(),
        b.as_secs_f64() * 1e3
    );
}

fn main() {
    run::<Shogi>();
    run::<MiniShogi>();
}
