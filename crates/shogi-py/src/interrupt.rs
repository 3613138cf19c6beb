//! Long counts and searches that Ctrl-C stops: the work runs on a thread of its own with
//! the GIL released, while the calling thread looks for Python's signals every
//! [`POLL`]. A signal handler's exception (`KeyboardInterrupt`) sets the cancel flag, which
//! the work looks at often enough to stop soon, and is raised once it has stopped.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use shogi_mate::SearchControl;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How often the calling thread runs Python's signal handlers while the work runs.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on another thread with the GIL released and returns its result; a Python
/// signal handler's exception meanwhile sets the flag `work` is given and is returned
/// once `work` has returned (whatever it returned: a cancelled result is not one).
///
/// `stack` is the worker's stack size: deep recursions need more than the default.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stack: usize,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    interruptible_with(py, stack, || {}, work)
}

/// [`interruptible`] for a mate search, which looks at a [`SearchControl`] rather than a
/// flag: a signal stops `control` too, and the search returns within
/// [`shogi_mate::CHECK_INTERVAL`] nodes.
pub fn interruptible_search<T: Send>(
    py: Python<'_>,
    stack: usize,
    control: &SearchControl,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    interruptible_with(py, stack, || control.stop(), |_| work())
}

/// [`interruptible`], calling `on_signal` as well when a signal handler raises.
fn interruptible_with<T: Send>(
    py: Python<'_>,
    stack: usize,
    on_signal: impl Fn() + Send + Sync,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let mut raised: Option<PyErr> = None;
    let done = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<()>();
            let flag = Arc::clone(&cancel);
            let worker = std::thread::Builder::new()
                .stack_size(stack)
                .spawn_scoped(scope, move || {
                    let result = work(flag);
                    // The caller may be gone only if it panicked: nothing to tell then.
                    let _ = tx.send(());
                    result
                })
                .map_err(|e| format!("starting the worker thread: {e}"))?;
            // Until the worker ends (it sends, or it panicked and dropped the sender).
            while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(POLL) {
                if raised.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        raised = Some(e);
                        cancel.store(true, Ordering::Relaxed);
                        on_signal();
                    }
                }
            }
            worker
                .join()
                .map_err(|_| "the worker thread panicked".to_string())
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    done.map_err(PyRuntimeError::new_err)
}
