//! `cargo xtask perft`: every perft figure we hold, at full depth, with timings.

use shogi_core::{AnyPosition, Game, Position, Shogi};
use shogi_verify::perft_file::read_suite;
use std::time::Instant;

fn check<G: Game>(
    label: &str,
    pos: &Position<G>,
    depth: u32,
    expected: u64,
) -> Result<f64, String> {
    let start = Instant::now();
    let got = pos.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    if got != expected {
        return Err(format!(
            "{label} perft {depth}: got {got}, expected {expected}"
        ));
    }
    println!(
        "ok  {label:<28} perft {depth}: {got:>12} in {secs:>7.3} s ({:>6.1} M nodes/s)",
        got as f64 / secs.max(1e-9) / 1e6
    );
    Ok(secs)
}

/// Runs the deep perft checks; fails on the first mismatch.
pub fn run(suites_only: bool) -> Result<(), String> {
    if !suites_only {
        check(
            "shogi startpos",
            &Position::<Shogi>::startpos(),
            6,
            547_581_517,
        )?;
    }
    for name in ["shogi.perft", "mini.perft", "bench.perft"] {
        let cases = read_suite(name)?;
        let (mut nodes, mut secs) = (0u64, 0f64);
        for case in &cases {
            let pos =
                AnyPosition::from_sfen(&case.sfen).map_err(|e| format!("{}: {e}", case.id))?;
            for &(depth, expected) in &case.counts {
                let start = Instant::now();
                let got = match &pos {
                    AnyPosition::Shogi(p) => p.perft(depth),
                    AnyPosition::Mini(p) => p.perft(depth),
                };
                secs += start.elapsed().as_secs_f64();
                nodes += got;
                if got != expected {
                    return Err(format!(
                        "{name} {} perft {depth}: got {got}, expected {expected} ({})",
                        case.id, case.sfen
                    ));
                }
            }
        }
        println!(
            "ok  {name:<28} {} positions, {nodes} nodes in {secs:.2} s",
            cases.len()
        );
    }
    Ok(())
}
