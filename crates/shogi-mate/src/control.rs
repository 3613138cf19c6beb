//! Stopping a running search from another thread, and watching its progress.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

/// Nodes between two looks of the search at its [`SearchControl`]: a power of two, so the
/// test is a mask. At the solver's few hundred thousand nodes a second, 1024 nodes are a few
/// milliseconds, well within the 100 ms a GUI's `stop` may take (a `stop` took 2.5 ms at the
/// median, under 10 ms at worst); the look costs nothing measurable (node rates with and
/// without a control, and with and without the mask test, agree within the noise of 1 to
/// 5 %): docs/BENCHMARKS.md, "The USI engine's `stop`".
pub const CHECK_INTERVAL: u64 = 1024;

/// A handle shared between a running search and the threads that may stop it or report on
/// it (a USI engine's input loop and its `info` ticker). Clones share one state.
///
/// The search reads the stop flag and publishes its node count and table fill every
/// [`CHECK_INTERVAL`] nodes, so a stop takes effect within that many nodes; the search then
/// unwinds and returns [`crate::Verdict::Unknown`] unless it had already decided.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    inner: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    stop: AtomicBool,
    nodes: AtomicU64,
    /// The table's fill in permille (0 to 1000), USI's `hashfull`.
    permille: AtomicU32,
}

impl SearchControl {
    /// A control with the stop flag down and no progress.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Asks the search to stop as soon as it next looks (within [`CHECK_INTERVAL`] nodes).
    pub fn stop(&self) {
        self.inner.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed)
    }

    /// The nodes the search had expanded when it last looked.
    pub fn nodes(&self) -> u64 {
        self.inner.nodes.load(Ordering::Relaxed)
    }

    /// The share of the table in use when the search last looked, in permille.
    pub fn hashfull(&self) -> u32 {
        self.inner.permille.load(Ordering::Relaxed)
    }

    /// What a search does every [`CHECK_INTERVAL`] nodes with its control, if it has one:
    /// publishes its progress, and says whether a stop was asked for. Out of line, since it
    /// runs so rarely.
    #[cold]
    #[inline(never)]
    pub(crate) fn look(control: &Option<SearchControl>, nodes: u64, fill: f64) -> bool {
        control.as_ref().is_some_and(|c| {
            c.publish(nodes, fill);
            c.is_stopped()
        })
    }

    /// Publishes the search's progress.
    pub(crate) fn publish(&self, nodes: u64, fill: f64) {
        self.inner.nodes.store(nodes, Ordering::Relaxed);
        let permille = (fill * 1000.0).round().clamp(0.0, 1000.0) as u32;
        self.inner.permille.store(permille, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clones share one state: a stop asked through one is seen by the search's look through
    /// another, with the progress it publishes; the fill is reported in permille, clamped.
    #[test]
    fn clones_share_the_stop_and_the_progress() {
        let ui = SearchControl::new();
        let search = Some(ui.clone());
        assert!(!SearchControl::look(&search, 2048, 0.25));
        assert_eq!((ui.nodes(), ui.hashfull()), (2048, 250));
        ui.stop();
        assert!(SearchControl::look(&search, 4096, 1.7));
        assert_eq!((ui.nodes(), ui.hashfull()), (4096, 1000));
        ui.publish(1, -0.5);
        assert_eq!(ui.hashfull(), 0);
        // A search without a control never stops.
        assert!(!SearchControl::look(&None, 1 << 40, 0.5));
        assert!(CHECK_INTERVAL.is_power_of_two());
    }
}
