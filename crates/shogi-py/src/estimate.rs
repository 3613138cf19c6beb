//! `estimate`: the Monte Carlo estimate of docs/METHOD.md §1, with the GIL released and
//! progress reported to an optional callback.

use crate::args::{game, int_in, opt_int_in, to_py, value_error};
use core::ops::ControlFlow;
use pyo3::prelude::*;
use shogi_estimate::{
    report_json, run, thread_count, Method, RunConfig, RunEnd, RunOptions, RunState,
};

/// Estimates the number of reachable positions of `game` (`"shogi"` or `"mini"`) from
/// `samples` uniform samples of the candidate space, and returns the dictionary
/// `shogi-count estimate --json` prints: the counters of each stage (`samples`,
/// `passed_mirror`, `passed_placement`, `passed_check`, `reachable`, `unreachable`,
/// `unknown`, ...), `space` (`|P_K|`), the estimates and their intervals as decimal strings
/// (`estimate`, `estimate_exact`, `estimate_lo`, `estimate_hi`, `wilson_lo`, ...), the
/// paper's figures and z-scores, and the timing.
///
/// `method="fast"` (the default, as the command line's) samples the placement-legal space
/// `S` and searches a share of the survivors (two-phase sampling, docs/METHOD.md §10);
/// `method="paper"` samples `P_K` and searches every survivor, as the paper did.
///
/// The same `seed` and `samples` give the same counters on any machine and thread count.
/// `threads` defaults to `$SLURM_CPUS_PER_TASK`, else every core this process may use.
/// `max_expanded` and `max_nodes` bound each search (the sample counts as unknown).
///
/// The GIL is released while sampling. `progress(done, total)`, if given, is called with
/// the samples done so far after each batch of a few thousand samples; an exception it
/// raises stops the run and propagates, and so does Ctrl-C (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (game="shogi", *, samples, method="fast", seed=None, threads=None,
                    progress=None, max_expanded=None, max_nodes=None))]
#[allow(clippy::too_many_arguments)] // a Python signature of keyword arguments
pub fn estimate<'py>(
    py: Python<'py>,
    game: &str,
    samples: &Bound<'py, PyAny>,
    method: &str,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
    max_expanded: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let method: Method = method.parse().map_err(value_error)?;
    let mut config = RunConfig::new(self::game(game)?, int_in(samples, "samples", 1..=u64::MAX)?)
        .with_method(method);
    if let Some(seed) = opt_int_in(seed, "seed", 0..=u64::MAX)? {
        config.seed = seed;
    }
    config.max_expanded = opt_int_in(max_expanded, "max_expanded", 0..=u64::MAX)?;
    config.max_nodes = opt_int_in(max_nodes, "max_nodes", 0..=u64::MAX)?;
    let threads = opt_int_in(threads, "threads", 1..=u64::from(u32::MAX))?;
    let threads = thread_count(threads.map(|n| n as usize)).map_err(value_error)?;
    if let Some(p) = &progress {
        if !p.bind(py).is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "progress must be callable as progress(done, total)",
            ));
        }
    }

    let mut state = RunState::new(config);
    let options = RunOptions::new(threads);
    // The first exception of the callback or of a signal handler: it stops the run.
    let mut raised: Option<PyErr> = None;
    let end = py.detach(|| {
        run(&mut state, &options, |s| {
            Python::attach(|py| {
                // Ctrl-C while the GIL was released only set a flag: run the handler now.
                let called = py.check_signals().and_then(|()| match &progress {
                    Some(p) => {
                        let (done, total) = s.progress();
                        p.bind(py).call1((done, total)).map(drop)
                    }
                    None => Ok(()),
                });
                match called {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(e) => {
                        raised = Some(e);
                        ControlFlow::Break(())
                    }
                }
            })
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    match end.map_err(value_error)? {
        // No target is set from Python yet; a run that meets one is complete as such.
        RunEnd::Complete | RunEnd::TargetReached => {}
        RunEnd::Stopped | RunEnd::Cancelled => {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "the run stopped before its end without an exception",
            ))
        }
    }
    let report = report_json(
        &state.config,
        &state.counters,
        state.elapsed_seconds,
        threads,
    )
    .map_err(value_error)?;
    to_py(py, &report)
}
