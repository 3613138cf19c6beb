//! Perft from the command line, on shogi-core alone (no other crate of the workspace is
//! built): `cargo run --release -p shogi-core --example perft -- 5` counts Shogi's start
//! position to depth 5; `-- 3 "<sfen>"` counts a position of either game (the game follows
//! from the number of ranks). It prints the count, the time and the speed; the count is
//! what to compare with other programs, the time depends on the machine and its load.
//!
//! Built with `--no-default-features` (shogi-core without `std`, hence without SFEN) it
//! counts the start positions only: `-- 5` for Shogi, `-- 6 mini` for Mini Shogi. That is
//! how the cost of the `no_std` build is measured (docs/BENCHMARKS.md).

use std::process::ExitCode;
use std::time::Instant;

/// The leaf count of `position` (a SFEN, or `mini` for Mini Shogi's start) to `depth`.
#[cfg(feature = "std")]
fn perft(depth: u32, position: Option<&str>) -> Result<u64, String> {
    use shogi_core::{AnyPosition, Game, MiniShogi, Shogi};
    let sfen = match position {
        None => Shogi::START_SFEN,
        Some("mini") => MiniShogi::START_SFEN,
        Some(sfen) => sfen,
    };
    Ok(
        match AnyPosition::from_sfen(sfen).map_err(|e| e.to_string())? {
            AnyPosition::Shogi(p) => p.perft(depth),
            AnyPosition::Mini(p) => p.perft(depth),
        },
    )
}

/// The leaf count of a start position (`mini` for Mini Shogi's) to `depth`: without `std`
/// shogi-core reads no SFEN.
#[cfg(not(feature = "std"))]
fn perft(depth: u32, position: Option<&str>) -> Result<u64, String> {
    use shogi_core::{MiniShogi, Position, Shogi};
    match position {
        None => Ok(Position::<Shogi>::startpos().perft(depth)),
        Some("mini") => Ok(Position::<MiniShogi>::startpos().perft(depth)),
        Some(_) => Err("built without shogi-core's std feature: no SFEN, only `mini`".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (depth, position) = match args.as_slice() {
        [depth] => (depth, None),
        [depth, position] => (depth, Some(position.as_str())),
        _ => {
            eprintln!("usage: perft <depth> [<sfen> | mini]");
            return ExitCode::FAILURE;
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("the depth must be a number, not {depth:?}");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let nodes = match perft(depth, position) {
        Ok(nodes) => nodes,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
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
