//! Prints `|S|`, `|S_centre|` (both kings on the centre file) and `|S|` with mirror images
//! counted as distinct (`2|S| − |S_centre|`, the convention of Shinoda's and Miyako et al.'s
//! upper bounds), for both games: `cargo run --release -p shogi-rank --example placement_counts`.

use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{KingSet, PlacementTable};

fn show<G: Game>() {
    let all = PlacementTable::<G>::full().count();
    let centre = PlacementTable::<G>::with_kings(&G::MATERIAL, KingSet::CentreFile)
        .expect("the game's own material is valid")
        .count();
    let distinct = &all * 2u32 - &centre;
    println!("{}: |S| = {all}", G::NAME);
    println!("{}: |S_centre| = {centre}", G::NAME);
    println!("{}: mirror images distinct: {distinct}", G::NAME);
}

fn main() {
    show::<Shogi>();
    show::<MiniShogi>();
}
