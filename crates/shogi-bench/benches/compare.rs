//! Perft compared across Rust Shogi move generators: shogi-core, `haitaka`, `rsshogi` and
//! `shunsai`, in one run on one machine, on the benchmark suite of
//! `testdata/perft/bench.perft` (counts from cshogi and minishogilib, see the README
//! there). Every library counts by its fastest documented method, with bulk counting at
//! the leaves (the last ply is counted from the generated moves, never played), and every
//! count is checked against the suite's before it is timed: a library that cannot parse a
//! position (the other three know only 9x9 Shogi) or gets another number is left out of
//! that group, with a message.

use criterion::{criterion_main, BenchmarkGroup, Criterion, Throughput};
use shogi_core::AnyPosition;
use shogi_verify::perft_file::parse_perft_file;
use std::ops::ControlFlow;

/// The suite, compiled in so that the bench runs from any directory.
const SUITE: &str = include_str!("../../../testdata/perft/bench.perft");

/// The positions timed, by suite id, and the depth of each: the one whose count takes
/// shogi-core tens of milliseconds, long enough to time and short enough for ten samples
/// of four libraries on a loaded two-core machine.
const CASES: [(&str, u8); 11] = [
    ("startpos", 5),
    ("matsuri", 3),
    ("max-moves", 3),
    ("middle-drops", 3),
    ("middle-promotions", 3),
    ("endgame-drops", 3),
    ("endgame-promotions", 4),
    ("check", 3),
    ("double-check", 4),
    ("mini-startpos", 6),
    ("mini-middle", 4),
];

/// A way of running one library's perft on a position it has already parsed.
type PerftFn = Box<dyn Fn(u8) -> u64>;

/// Parses a SFEN for one library and hands back its perft, or why it could not parse.
type Setup = fn(&str) -> Result<PerftFn, String>;

/// shogi-core: its own `Position::perft` (copy-make, leaf ply counted without playing),
/// for Shogi and Mini Shogi alike.
fn shogi_core_perft(sfen: &str) -> Result<PerftFn, String> {
    match AnyPosition::from_sfen(sfen).map_err(|e| format!("{e:?}"))? {
        AnyPosition::Shogi(pos) => Ok(Box::new(move |depth| pos.perft(u32::from(depth)))),
        AnyPosition::Mini(pos) => Ok(Box::new(move |depth| pos.perft(u32::from(depth)))),
    }
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

/// shunsai: the library exports no perft function; its documented fast path is
/// `generate_moves` (one `MoveSet` per origin, destinations as bitboards) with
/// `do_move`/`undo_move`, and at depth 1 the sizes of the sets (`MoveSet::len`, popcounts)
/// are added without building a move.
fn shunsai_bulk(pos: &mut shunsai::Position, depth: u8) -> u64 {
    let mut nodes = 0;
    if depth <= 1 {
        let _ = pos.generate_moves(|set| {
            nodes += set.len() as u64;
            ControlFlow::Continue(())
        });
        return if depth == 0 { 1 } else { nodes };
    }
    // The callback borrows the position, so the sets are gathered before any move is
    // played; on the stack, since a position has at most 40 pieces plus 7 kinds in hand.
    let mut sets = arrayvec::ArrayVec::<shunsai::MoveSet, 48>::new();
    let _ = pos.generate_moves(|set| {
        sets.push(set);
        ControlFlow::Continue(())
    });
    for set in sets {
        for mv in set {
            let undo = pos.do_move(mv);
            nodes += shunsai_bulk(pos, depth - 1);
            pos.undo_move(mv, undo);
        }
    }
    nodes
}

/// shunsai: parses the SFEN with `shogi_usi_parser` (the USI parser of the `shogi_core`
/// types shunsai builds on) and runs [`shunsai_bulk`].
fn shunsai_perft(sfen: &str) -> Result<PerftFn, String> {
    use shogi_usi_parser::FromUsi;
    let partial = shunsai::shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}"))
        .map_err(|e| format!("{e:?}"))?;
    let pos = shunsai::Position::new(partial);
    Ok(Box::new(move |depth| shunsai_bulk(&mut pos.clone(), depth)))
}

/// The libraries compared, by bench function name.
const LIBRARIES: [(&str, Setup); 4] = [
    ("shogi-core", shogi_core_perft),
    ("haitaka", haitaka_perft),
    ("rsshogi", rsshogi_perft),
    ("shunsai", shunsai_perft),
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
    let suite = parse_perft_file(SUITE).expect("bench.perft parses");
    for (id, depth) in CASES {
        let case = suite
            .iter()
            .find(|case| case.id == id)
            .unwrap_or_else(|| panic!("{id} is not in bench.perft"));
        let expected = case
            .counts
            .iter()
            .find(|&&(d, _)| d == u32::from(depth))
            .unwrap_or_else(|| panic!("bench.perft has no perft {depth} for {id}"))
            .1;
        let sfen = case.sfen.as_str();
        let mut group = c.benchmark_group(format!("{id}-perft{depth}"));
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
