//! `mate` and `pass_count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13.

use crate::args::{opt_int_in, to_py};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shogi_cli::{MateSolvers, PassSolvers};
use shogi_mate::{Defense, MateOptions, PassOptions};

/// The stack of the thread a search runs on: deep lines recurse deeply, and the
/// interpreter's own thread may have little stack. Reserved, not committed: the binary
/// gives its solver threads the same.
const SEARCH_STACK: usize = 256 << 20;

/// Runs `f` on a thread with [`SEARCH_STACK`], the GIL released meanwhile.
fn on_search_thread<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, f)
                .map_err(|e| format!("starting the search thread: {e}"))?
                .join()
                .map_err(|_| "the search thread panicked".to_string())
        })
    })
    .map_err(PyRuntimeError::new_err)
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
/// line); the depth limit is the command line's too (4,096 plies); `shortest=True` proves
/// the shortest mate, as `--shortest` (its length in `shortest`); `futile=True` applies the
/// convention on futile interpositions (無駄合, §11.5), as `--futile`; the table is
/// shogi-mate's default, 32 MiB (`shogi-count mate --table-mb 32`).
/// `ValueError` for an input that is no legal position. The GIL is released while
/// searching.
#[pyfunction]
#[pyo3(signature = (sfen, nodes=None, shortest=false, futile=false))]
pub fn mate<'py>(
    py: Python<'py>,
    sfen: &str,
    nodes: Option<&Bound<'py, PyAny>>,
    shortest: bool,
    futile: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut opts = MateOptions {
        max_nodes: 100_000_000,
        shortest,
        futile_interpositions: futile,
        ..MateOptions::default()
    };
    if let Some(n) = opt_int_in(nodes, "nodes", 0..=u64::MAX)? {
        opts.max_nodes = n;
    }
    let record = on_search_thread(py, || MateSolvers::new(opts).solve(sfen))?
        .map_err(PyValueError::new_err)?;
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
/// search (default 1,000,000; both as the command line). The table is 32 MiB. `ValueError` for an input that is no legal
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
    if let Some(n) = opt_int_in(nodes, "nodes", 0..=u64::MAX)? {
        opts.max_nodes = n;
    }
    let record = on_search_thread(py, || PassSolvers::new(opts).solve(sfen))?
        .map_err(PyValueError::new_err)?;
    to_py(py, &record)
}
