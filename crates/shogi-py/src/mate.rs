//! `mate` and `pass_count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13.

use crate::args::{opt_count, opt_int_in, to_py};
use crate::interrupt::interruptible_search;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shogi_cli::{MateMode, MateSolvers, PassSolvers};
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
/// (`mate`, `no-mate` or `unknown`), `plies` (`None` unless mate), `moves` (USI; empty
/// unless mate), `line_minimax`, `shortest`, `cut`, `nodes`, `pieces` (proof pieces of a
/// mate, disproof pieces of a no-mate), `exact_hits`, `superior_hits`, `table_fill`,
/// `replaced`, `collections`.
///
/// By default, as the command line and USI's `go mate`, the answer is the proved shortest
/// mate under the composers' conventions (the attacker shortest, the defender longest,
/// futile interpositions not counted): `shortest` is its proved length, `None` when a
/// limit cut the proof (`cut` is then true). `first=True` answers the first mate proved,
/// the fast search for batches, as `--first`; `all_interpositions=True` counts every legal
/// reply (無駄合 included, §11.5), as `--all-interpositions`. `shortest=True` and
/// `futile=True`, the earlier names of the defaults, are still accepted (`shortest=False`
/// is `first=True`, `futile=False` is `all_interpositions=True`); contradicting
/// `first` or `all_interpositions` is a `ValueError`.
///
/// The attacker may have no king; the defender holds every piece on neither the board
/// nor the attacker's hand. `nodes` bounds the search (default 100,000,000, as the command
/// line; 0 for no limit; an int, or a count as text such as `"1e6"`); the depth limit is
/// the command line's too (4,096 plies); the table is shogi-mate's default, 32 MiB
/// (`shogi-count mate --table-mb 32`); `threads=N` searches the position with N threads on
/// one table (§11.8; default 1, deterministic; N from 1 to 256). `ValueError` for an input
/// that is no legal position. The GIL is released while searching.
#[pyfunction]
#[pyo3(signature = (sfen, nodes=None, first=false, all_interpositions=false, shortest=None, futile=None, threads=1))]
#[allow(clippy::too_many_arguments)] // a Python signature of keyword arguments
pub fn mate<'py>(
    py: Python<'py>,
    sfen: &str,
    nodes: Option<&Bound<'py, PyAny>>,
    first: bool,
    all_interpositions: bool,
    shortest: Option<bool>,
    futile: Option<bool>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=256).contains(&threads) {
        return Err(PyValueError::new_err("threads: a number from 1 to 256"));
    }
    let mode = MateMode {
        first: with_earlier_name(first, "first", shortest, "shortest")?,
        all_interpositions: with_earlier_name(
            all_interpositions,
            "all_interpositions",
            futile,
            "futile",
        )?,
    };
    let mut opts = mode.options(MateOptions {
        max_nodes: 100_000_000,
        threads,
        ..MateOptions::default()
    });
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

/// The switch `flag` (named `name`) given either itself or by its earlier, opposite name
/// `earlier` (`shortest=False` is `first=True`), kept so that scripts written for it
/// still work; both given and contradicting each other is an error naming both.
fn with_earlier_name(
    flag: bool,
    name: &str,
    earlier: Option<bool>,
    earlier_name: &str,
) -> PyResult<bool> {
    match earlier {
        None => Ok(flag),
        Some(e) if !e || !flag => Ok(!e || flag),
        Some(_) => Err(PyValueError::new_err(format!(
            "{name}=True and {earlier_name}=True contradict each other: {name}=True is \
             {earlier_name}=False"
        ))),
    }
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
