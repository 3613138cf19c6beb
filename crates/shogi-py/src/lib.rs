//! `shogi_count`, the Python module over the shogi-count crates: positions, moves and
//! unmoves, perft, the exact size and ranking of the candidate space, the stage verdict and
//! certificate of reachability, the Monte Carlo estimate, and the mate solver.
//!
//! Built by maturin (`pip install ./crates/shogi-py`); tested by the pytest suite of
//! `tests/`. Every function takes and returns plain Python values: SFEN and USI strings,
//! ints (exact, however large), and dictionaries with the fields of the matching
//! `shogi-count ... --json` output. Bad input raises `ValueError` or `TypeError` with the
//! library's message.
#![deny(missing_docs)]

mod args;
mod estimate;
mod interrupt;
mod mate;
mod position;
mod ranking;
mod reach;

use pyo3::prelude::*;

/// Counting the positions of Shogi and Mini Shogi: moves, unmoves, perft, exact ranking,
/// reachability, the Monte Carlo estimate and checkmate search, from Rust.
///
/// Positions are SFEN strings or `Position` objects; moves are USI strings; large numbers
/// are Python ints. The dictionaries returned by `classify`, `estimate`, `mate` and
/// `pass_count` have the fields of `shogi-count <command> --json`.
#[pymodule]
#[pyo3(name = "shogi_count")]
fn shogi_count_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<position::Position>()?;
    m.add_function(wrap_pyfunction!(ranking::count, m)?)?;
    m.add_function(wrap_pyfunction!(ranking::rank, m)?)?;
    m.add_function(wrap_pyfunction!(ranking::unrank, m)?)?;
    m.add_function(wrap_pyfunction!(reach::classify, m)?)?;
    m.add_function(wrap_pyfunction!(reach::reach, m)?)?;
    m.add_function(wrap_pyfunction!(estimate::estimate, m)?)?;
    m.add_function(wrap_pyfunction!(estimate::sample, m)?)?;
    m.add_function(wrap_pyfunction!(mate::mate, m)?)?;
    m.add_function(wrap_pyfunction!(mate::pass_count, m)?)?;
    Ok(())
}
