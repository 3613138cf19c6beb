//! Perft from the command line, on shogi-core alone (no other crate of the workspace is
//! built): `cargo run --release -p shogi-core --example perft -- 5` counts Shogi's start
//! position to depth 5; `-- 3 "<sfen>"` counts a position of either game (the game follows
//! from the number of ranks). It prints the count, the time and the speed; the count is
//! what to compare with other programs, the time depends on the machine and its load.

use shogi_core::{AnyPosition, Game};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (depth, sfen) = match args.as_slice() {
        [depth] => (depth, shogi_core::Shogi::START_SFEN),
        [depth, sfen] => (depth, sfen.as_str()),
        _ => {
            eprintln!("usage: perft <depth> [<sfen>]");
            return ExitCode::FAILURE;
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("the depth must be a number, not {depth:?}");
        return ExitCode::FAILURE;
    };
    let pos = match AnyPosition::from_sfen(sfen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let nodes = match &pos {
        AnyPosition::Shogi(p) => p.perft(depth),
        AnyPosition::Mini(p) => p.perft(depth),
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "perft {depth}: {nodes} nodes in {:.2} ms ({:.1} M nodes/s)",
        secs * 1e3,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
