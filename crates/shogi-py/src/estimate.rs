//! `estimate`: the Monte Carlo estimate of docs/METHOD.md §1, with the GIL released and
//! progress reported to an optional callback.

use crate::args::{count, game, opt_count, opt_int_in, to_py, value_error};
use core::ops::ControlFlow;
use pyo3::prelude::*;
use shogi_estimate::{
    check_phase2_rate, check_writable, report_json, run, thread_count, Estimator, Method,
    RunConfig, RunEnd, RunOptions, RunState, Shard, Space, Target,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Estimates the number of reachable positions of `game` (`"shogi"` or `"mini"`) from
/// `samples` uniform samples, and returns the dictionary `shogi-count estimate --json`
/// prints: the counters of each stage (`samples`, `passed_mirror`, `passed_placement`,
/// `passed_check`, `reachable`, `unreachable`, `unknown`, ...), `space`, the estimate and
/// its interval as decimal strings (`estimate`, `estimate_lo`, `estimate_hi`, rounded
/// outward, and `statement`: the value ± its 3σ half-width and the digits the interval
/// determines), the paper's figures and z-scores, and the timing.
///
/// Every option of the command line: `method="conditional"` (the default) samples the
/// placement-legal space `S`, averages the check filter exactly over the squares of
/// White's king and searches a share of the survivors (two-phase sampling, docs/METHOD.md
/// §10.8); `method="fast"` does the same without the averaging; `method="paper"` samples
/// `P_K` and searches every survivor. `space` (`"candidate"` or `"placement-legal"`),
/// `phase2_rate` (a share in (0, 1], or `"none"`) and `estimator` (`"indicator"` or
/// `"conditional"`) override the method's. `target_digits` or `target_half_width` stop the run at
/// that precision (tested every 16,384 samples). `out` keeps the state in a checkpointed,
/// checksummed file; `resume=True` continues the run saved there (the other settings must
/// then agree with the saved ones). `shard="K/N"` runs slice K of N.
///
/// The same `seed` and `samples` give the same counters on any machine and thread count.
/// `threads` defaults to `$SLURM_CPUS_PER_TASK`, else every core this process may use.
/// `max_expanded` and `max_nodes` bound each search (the sample counts as unknown).
///
/// The GIL is released while sampling. `progress(done, total)`, if given, is called with
/// the samples done so far after each batch of a few thousand samples; an exception it
/// raises stops the run (with a final checkpoint in `out`) and propagates, and so does
/// Ctrl-C (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (game="shogi", *, samples, method="conditional", seed=None, threads=None,
                    progress=None, max_expanded=None, max_nodes=None, space=None,
                    phase2_rate=None, target_digits=None, target_half_width=None, out=None,
                    resume=false, shard=None, estimator=None))]
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
    space: Option<&str>,
    phase2_rate: Option<&Bound<'py, PyAny>>,
    target_digits: Option<&Bound<'py, PyAny>>,
    target_half_width: Option<f64>,
    out: Option<std::path::PathBuf>,
    resume: bool,
    shard: Option<&str>,
    estimator: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config_of(
        game,
        samples,
        method,
        seed,
        max_expanded,
        max_nodes,
        space,
        phase2_rate,
        target_digits,
        target_half_width,
        shard,
        estimator,
    )?;
    let threads = opt_int_in(threads, "threads", 1..=u64::from(u32::MAX))?;
    let threads = thread_count(threads.map(|n| n as usize)).map_err(value_error)?;
    if let Some(p) = &progress {
        if !p.bind(py).is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "progress must be callable as progress(done, total)",
            ));
        }
    }
    if resume && out.is_none() {
        return Err(value_error("resume=True needs out, the file of the run"));
    }
    let mut state = match &out {
        Some(path) if path.exists() => {
            if !resume {
                return Err(value_error(format!(
                    "{} exists: pass resume=True to continue that run, or choose another out",
                    path.display()
                )));
            }
            let saved = RunState::load(path).map_err(value_error)?;
            if let Some(why) = saved.config.difference(&config, false) {
                return Err(value_error(format!(
                    "{}: the saved run differs from the arguments ({why}); pass the saved \
                     run's settings to continue it, or choose another out",
                    path.display()
                )));
            }
            saved
        }
        _ => RunState::new(config),
    };
    let mut options = RunOptions::new(threads);
    if let Some(path) = &out {
        check_writable(path).map_err(value_error)?;
        options.checkpoint = Some(path.clone());
    }
    // A Python exception (from the callback or a signal handler) sets `cancel`: the run
    // then stops at the next chunk and leaves a final checkpoint, like SIGINT on the
    // command line, and the exception propagates.
    let cancel = Arc::new(AtomicBool::new(false));
    options.cancel = Some(Arc::clone(&cancel));
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
                if let Err(e) = called {
                    raised.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                }
                ControlFlow::Continue(())
            })
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    match end.map_err(value_error)? {
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

/// The run the arguments describe, as the command line builds it.
#[allow(clippy::too_many_arguments)] // the keyword arguments of `estimate` and `sample`
fn config_of(
    game: &str,
    samples: &Bound<'_, PyAny>,
    method: &str,
    seed: Option<&Bound<'_, PyAny>>,
    max_expanded: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
    space: Option<&str>,
    phase2_rate: Option<&Bound<'_, PyAny>>,
    target_digits: Option<&Bound<'_, PyAny>>,
    target_half_width: Option<f64>,
    shard: Option<&str>,
    estimator: Option<&str>,
) -> PyResult<RunConfig> {
    let method: Method = method.parse().map_err(value_error)?;
    let mut config =
        RunConfig::new(self::game(game)?, count(samples, "samples", 1)?).with_method(method);
    if let Some(seed) = opt_int_in(seed, "seed", 0..=u64::MAX)? {
        config.seed = seed;
    }
    config.max_expanded = opt_count(max_expanded, "max_expanded")?;
    config.max_nodes = opt_count(max_nodes, "max_nodes")?;
    if let Some(space) = space {
        config.space = space.parse::<Space>().map_err(value_error)?;
    }
    if let Some(rate) = phase2_rate {
        config.phase2_rate = if rate.extract::<String>().is_ok_and(|s| s == "none") {
            None
        } else {
            let f: f64 = rate.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "phase2_rate must be a number in (0, 1] or \"none\"",
                )
            })?;
            check_phase2_rate(f).map_err(value_error)?;
            Some(f)
        };
    }
    config.target = match (
        opt_int_in(target_digits, "target_digits", 1..=9)?,
        target_half_width,
    ) {
        (Some(_), Some(_)) => {
            return Err(value_error(
                "give target_digits or target_half_width, not both",
            ))
        }
        (Some(d), None) => Some(Target::Digits(d as u32)),
        (None, Some(h)) => {
            let t = Target::HalfWidth(h);
            t.check().map_err(value_error)?;
            Some(t)
        }
        (None, None) => None,
    };
    if let Some(estimator) = estimator {
        config.estimator = estimator.parse::<Estimator>().map_err(value_error)?;
    }
    config.check_estimator().map_err(value_error)?;
    if let Some(shard) = shard {
        config.shard = Shard::parse(shard).map_err(value_error)?;
        if config.target.is_some() && config.shard != Shard::WHOLE {
            return Err(value_error(
                "a precision target needs the whole run, not a shard",
            ));
        }
    }
    Ok(config)
}

/// The samples `estimate` draws with `seed`, from `first` on, each with the verdict the
/// estimate counts: a list of the dictionaries `shogi-count sample --json` prints (`index`,
/// `rank`, `sfen`, `verdict`, `expanded`, and `kk` and `moves` for a reachable sample).
/// `method`, `space`, `phase2_rate` and `estimator` are the run's, as in `estimate`, whose
/// default method (`"conditional"`) `shogi-count sample` shares (`"fast"`: each sample's
/// own verdict); with the conditional estimator each record also has `king_squares`,
/// `safe_squares` and `chosen` (docs/METHOD.md §10.8). The GIL is released while
/// sampling; Ctrl-C stops it between samples.
#[pyfunction]
#[pyo3(signature = (game="shogi", *, samples, seed=None, first=None, method="conditional", space=None,
                    phase2_rate=None, max_expanded=None, estimator=None))]
#[allow(clippy::too_many_arguments)] // a Python signature of keyword arguments
pub fn sample<'py>(
    py: Python<'py>,
    game: &str,
    samples: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    first: Option<&Bound<'py, PyAny>>,
    method: &str,
    space: Option<&str>,
    phase2_rate: Option<&Bound<'py, PyAny>>,
    max_expanded: Option<&Bound<'py, PyAny>>,
    estimator: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config_of(
        game,
        samples,
        method,
        seed,
        max_expanded,
        None,
        space,
        phase2_rate,
        None,
        None,
        None,
        estimator,
    )?;
    let first = opt_int_in(first, "first", 0..=u64::MAX)?.unwrap_or(0);
    let mut records = Vec::new();
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        let mut since_check = 0u32;
        shogi_estimate::samples(&config, first, config.samples, |r| {
            records.push(r);
            since_check += 1;
            if since_check == 256 {
                since_check = 0;
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    raised = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    result.map_err(value_error)?;
    to_py(py, &records)
}
