//! `classify` and `reach`: the stage verdict of docs/METHOD.md §5/§7 for a position, and the
//! certificate of a reachable one.

use crate::args::{opt_count, to_py, value_error};
use crate::interrupt::interruptible;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shogi_cli::{Classifier, ReachError};
use shogi_core::{AnyPosition, Game, Relax};
use shogi_reach::{Limits, SearchConfig, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The search configuration of the command line's defaults, with these limits.
fn config(
    max_expanded: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchConfig> {
    Ok(SearchConfig {
        limits: Limits {
            max_expanded: opt_count(max_expanded, "max_expanded")?,
            // A count past this machine's addresses is no limit at all.
            max_nodes: opt_count(max_nodes, "max_nodes")?
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        },
        ..SearchConfig::default()
    })
}

/// The stack of a search thread: the search keeps its nodes on the heap, so the default
/// would do; this leaves room.
const SEARCH_STACK: usize = 8 << 20;

/// A searcher whose search `cancel` stops.
fn searcher<G: Game>(config: SearchConfig, cancel: Arc<AtomicBool>) -> Searcher<G> {
    let mut s = Searcher::new(config);
    s.set_cancel(Some(cancel));
    s
}

/// The stage verdict of a position (docs/METHOD.md §5 filters, then the §7 search), as the
/// dictionary `shogi-count classify --json` prints for it: `sfen`, `game`, `verdict`
/// (`non-canonical`, `illegal-placement`, `opponent-in-check`, `reachable`,
/// `unreachable` or `unknown`), `nodes` (expanded), `generated`, `predecessors`,
/// `capture_expansions`, `peak_open`, `peak_closed`, `max_depth`, and for a reachable
/// position `kk` (the KK position reached) and `moves` (USI, from `kk`).
///
/// `max_expanded` and `max_nodes` bound the search (verdict `unknown` when reached);
/// without them a hard position can take long and much memory. The GIL is released while
/// searching, and Ctrl-C stops the search (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (sfen, max_expanded=None, max_nodes=None))]
pub fn classify<'py>(
    py: Python<'py>,
    sfen: &str,
    max_expanded: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config(max_expanded, max_nodes)?;
    let record = interruptible(py, SEARCH_STACK, |cancel| {
        let mut classifier = Classifier::new(config);
        classifier.set_cancel(Some(cancel));
        classifier.classify(sfen)
    })?
    .map_err(PyValueError::new_err)?;
    to_py(py, &record)
}

/// A certificate that a position is reachable: `{"start": sfen, "moves": [usi, ...]}`, a
/// legal game from `start` (the KK position the backward search reached, or with
/// `from_start=True` the game's initial position) to the position, as `shogi-count reach`
/// prints it. The certificate has been replayed.
///
/// `ValueError` when there is none, with the reason: the position fails a filter
/// (`illegal-placement`, `opponent-in-check`), is proved `unreachable`, or a limit
/// (`max_expanded`, `max_nodes`) stopped the search (`unknown`). A non-canonical position
/// is searched too. The GIL is released while searching, and Ctrl-C stops the search
/// (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (sfen, from_start=false, max_expanded=None, max_nodes=None))]
pub fn reach<'py>(
    py: Python<'py>,
    sfen: &str,
    from_start: bool,
    max_expanded: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config(max_expanded, max_nodes)?;
    let pos = AnyPosition::from_sfen_with(sfen, Relax::CANDIDATE).map_err(value_error)?;
    let reached = interruptible(py, SEARCH_STACK, |cancel| match &pos {
        AnyPosition::Shogi(p) => shogi_cli::reach(&mut searcher(config, cancel), p, from_start),
        AnyPosition::Mini(p) => shogi_cli::reach(&mut searcher(config, cancel), p, from_start),
    })?
    .map_err(|e| match e {
        ReachError::Internal(_) => PyRuntimeError::new_err(e.to_string()),
        ReachError::Unknown { .. } => value_error(format!("{e}; raise max_expanded or max_nodes")),
        e => value_error(e),
    })?;
    to_py(py, &reached)
}
