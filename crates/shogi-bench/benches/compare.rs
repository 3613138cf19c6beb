//! Perft compared across Rust Shogi move generators: shogi-core, `haitaka` and `rsshogi`,
//! in one run on one machine. Every library counts with bulk counting at the leaves (the
//! last ply is counted from the generated move set, never played), and every count is
//! checked against the known value before it is timed: a library that cannot parse a
//! position or gets another number is left out of that group, with a message.

use criterion::{criterion_main, BenchmarkGroup, Criterion, Throughput};
use shogi_core::{Game, Position, Shogi};

/// The crowded midgame from shogi-core's own perft bench (promoted pieces, many drops).
const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// The positions timed: criterion group name, SFEN, depth and the known perft count.
const CASES: [(&str, &str, u8, u64); 2] = [
    ("startpos-perft5", Shogi::START_SFEN, 5, 19_861_490),
    ("midgame-perft3", MIDGAME, 3, 4_809_015),
];

/// A way of running one library's perft on a position it has already parsed.
type PerftFn = Box<dyn Fn(u8) -> u64>;

/// Parses a SFEN for one library and hands back its perft, or why it could not parse.
type Setup = fn(&str) -> Result<PerftFn, String>;

/// shogi-core: its own `Position::perft` (copy-make, leaf ply counted without playing).
fn shogi_core_perft(sfen: &str) -> Result<PerftFn, String> {
    let pos = Position::<Shogi>::from_sfen(sfen).map_err(|e| format!("{e:?}"))?;
    Ok(Box::new(move |depth| pos.perft(u32::from(depth))))
}

/// haitaka: the library exports no perft function, so this is `perft_bulk::<true>` from
/// its `examples/perft.rs` (the one its README runs), unchanged: copy-make, and at depth
/// 1 the length of each generated move set is added without playing the moves.
fn haitaka_bulk(board: &haitaka::Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_board_moves(|moves| {
                nodes += moves.into_iter().len() as u64;
                false
            });
            board.generate_drops(|moves| {
                nodes += moves.into_iter().len() as u64;
                false
            });
        }
        _ => {
            board.generate_board_moves(|moves| {
                for mv in moves {
                    let mut board = board.clone();
                    board.play_unchecked(mv);
                    nodes += haitaka_bulk(&board, depth - 1);
                }
                false
            });
            board.generate_drops(|moves| {
                for mv in moves {
                    let mut board = board.clone();
                    board.play_unchecked(mv);
                    nodes += haitaka_bulk(&board, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// haitaka: parses the SFEN and runs [`haitaka_bulk`].
fn haitaka_perft(sfen: &str) -> Result<PerftFn, String> {
    let board = haitaka::Board::from_sfen(sfen).map_err(|e| format!("{e:?}"))?;
    Ok(Box::new(move |depth| haitaka_bulk(&board, depth)))
}

/// rsshogi: its own `board::perft::perft` (make/unmake, the leaf ply is the length of
/// the generated legal move list).
fn rsshogi_perft(sfen: &str) -> Result<PerftFn, String> {
    let pos = rsshogi::board::position_from_sfen(sfen).map_err(|e| format!("{e:?}"))?;
    Ok(Box::new(move |depth| {
        rsshogi::board::perft::perft(&pos, depth)
            .expect("rsshogi perft")
            .nodes
    }))
}

/// The libraries compared, by bench function name.
const LIBRARIES: [(&str, Setup); 3] = [
    ("shogi-core", shogi_core_perft),
    ("haitaka", haitaka_perft),
    ("rsshogi", rsshogi_perft),
];

/// Times `run` in `group` if its count is right; otherwise says why it is left out.
fn bench_one(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    library: &str,
    run: Result<PerftFn, String>,
    depth: u8,
    expected: u64,
) {
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{library}: cannot parse the position ({e}); left out");
            return;
        }
    };
    let nodes = run(depth);
    if nodes != expected {
        eprintln!("{library}: perft {depth} = {nodes}, expected {expected}; left out");
        return;
    }
    group.bench_function(library, |b| b.iter(|| run(std::hint::black_box(depth))));
}

/// One criterion group per position, one bench function per library.
fn compare(c: &mut Criterion) {
    for (name, sfen, depth, expected) in CASES {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(expected));
        group.sample_size(10);
        for (library, make) in LIBRARIES {
            bench_one(&mut group, library, make(sfen), depth, expected);
        }
        group.finish();
    }
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::compare);
}
criterion_main!(group::benches);
