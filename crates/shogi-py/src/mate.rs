//! `mate` and `pass_count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13.

use crate::args::{opt_count, opt_int_in, to_py};
use crate::interrupt::interruptible_search;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shogi_cli::{MateSolvers, PassSolvers};
use shogi_mate::{Defense, MateOptions, PassOptions, SearchControl};

/// The stack of the thread a search runs on: deep lines recurse deeply, and the
/// interpreter's own thread may have little stack. Reserved, not committed: the binary
/// gives its solver threads the same. The search runs there with the GIL released, and
/// Ctrl-C (any signal handler's exception) stops it within a few milliseconds.
const SEARCH_STACK: usize = 256 << 20;

/// Runs `solve` (given the control that Ctrl-C stops) on a thread with [`SEARCH_STACK`];
/// the library's error is a `ValueError`.
fn search<T: Send>(
    py: Python<'_>,
    solve: impl FnOnce(SearchControl) -> Result<T, String> + Send,
) -> PyResult<T> {
    let control = SearchControl::new();
    let worker = control.clone();
    interruptible_search(py, SEARCH_STACK, &control, move || solve(worker))?
        .map_err(PyValueError::new_err)
}

/// Searches a position for a checkmate by its side to move (docs/METHOD.md §11–§12) and
/// returns the dictionary `shogi-count mate --json` prints: `sfen`, `game`, `verdict`
/// (`mate`, `no-mate` or `unknown`), `plies` (`None` unless mate), `moves` (USI: the
/// attacker's checks and the defender's longest resistance found in the proof; empty
/// unless mate), `nodes`, `pieces` (proof pieces of a mate, disproof pieces of a no-mate),
/// `exact_hits`, `superior_hits`, `table_fill`, `replaced`, `collections`.
///
/// The attacker may have no king; the defender holds every piece on neither the board
/// nor the attacker's hand. `nodes` bounds the search (default 100,000,000, as the command
/// line; 0 for no limit; an int, or a count as text such as `"1e6"`); the depth limit is the command line's too (4,096 plies); `shortest=True` proves
/// the shortest mate, as `--shortest` (its length in `shortest`; `cut` is true when a limit
/// ended a search, so that a mate's length is not proved); `futile=True` applies the
/// convention on futile interpositions (無駄合, §11.5), as `--futile`; `threads=N` searches
/// the position with N threads on one table (§11.7; default 1, deterministic); the table is
/// shogi-mate's default, 32 MiB (`shogi-count mate --table-mb 32`).
/// `ValueError` for an input that is no legal position. The GIL is released while
/// searching.
#[pyfunction]
#[pyo3(signature = (sfen, nodes=None, shortest=false, futile=false, threads=1))]
pub fn mate<'py>(
    py: Python<'py>,
    sfen: &str,
    nodes: Option<&Bound<'py, PyAny>>,
    shortest: bool,
    futile: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=256).contains(&threads) {
        return Err(PyValueError::new_err("threads: a number from 1 to 256"));
    }
    let mut opts = MateOptions {
        max_nodes: 100_000_000,
        shortest,
        futile_interpositions: futile,
        threads,
        ..MateOptions::default()
    };
    if let Some(n) = opt_count(nodes, "nodes")? {
        opts.max_nodes = shogi_cli::node_limit(n);
    }
    let record = search(py, |control| {
        let mut solvers = MateSolvers::new(opts);
        solvers.set_control(Some(control));
        solvers.solve(sfen).map_err(|e| e.to_string())
    })?;
    to_py(py, &record)
}

/// The possible pass count of a position for its side to move (docs/METHOD.md §13): how
/// many passes the defender can be given before the attacker forces mate, 0 for a mate;
/// the dictionary `shogi-count pass-count --json` prints: `sfen`, `game`, `defense`,
/// `verdict` (`proved`, `pass-limit` or `unknown`), `passes` and `move` (the attacker's
/// first move of the proof; both `None` unless proved), `nodes`.
///
/// `defense` is the defender's moves considered besides the pass after a quiet attacker
/// move: `"none"` (threatmate), `"takeback"` (recaptures of the piece just moved) or
/// `"all"` (brinkmate). Counts 0 to `max_passes` (default 3) are tried; `nodes` bounds the
/// search (default 1,000,000; both as the command line; 0 for no limit). The table is 32 MiB. `ValueError` for an input that is no legal
/// position. The GIL is released while searching.
#[pyfunction]
#[pyo3(signature = (sfen, defense="none", max_passes=None, nodes=None))]
pub fn pass_count<'py>(
    py: Python<'py>,
    sfen: &str,
    defense: &str,
    max_passes: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut opts = PassOptions {
        defense: Defense::ALL
            .into_iter()
            .find(|d| d.name() == defense)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown defense {defense:?}: expected \"none\", \"takeback\" or \"all\""
                ))
            })?,
        ..PassOptions::default()
    };
    if let Some(n) = opt_int_in(max_passes, "max_passes", 0..=u64::from(u32::MAX))? {
        opts.max_passes = n as u32;
    }
    if let Some(n) = opt_count(nodes, "nodes")? {
        opts.max_nodes = shogi_cli::node_limit(n);
    }
    let record = search(py, |control| {
        let mut solvers = PassSolvers::new(opts);
        solvers.set_control(Some(control));
        solvers.solve(sfen).map_err(|e| e.to_string())
    })?;
    to_py(py, &record)
}
