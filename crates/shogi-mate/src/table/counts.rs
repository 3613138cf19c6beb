//! The table's counts of live entries and tombstones, which decide when to collect: each
//! handle keeps its changes and adds them to the shared counts now and then, so that
//! threads storing at once do not pass one cache line to and fro at every store.

use super::Table;
use std::sync::atomic::{AtomicIsize, AtomicU64, Ordering::Relaxed};

/// Changes to the counts of live entries and tombstones, which a handle adds to the shared
/// counts every [`Counts::FLUSH`] changes.
#[derive(Clone, Copy, Default)]
pub(super) struct Counts {
    pub used: isize,
    pub tombstones: isize,
    pub collections: u64,
}

impl Counts {
    const FLUSH: isize = 256;
}

/// The counts of a table, less the changes its handles have not added yet, on a cache line
/// of their own.
#[repr(align(64))]
#[derive(Default)]
pub(super) struct SharedCounts {
    /// Live entries of the current generation.
    pub used: AtomicIsize,
    /// Tombstones of the current generation.
    pub tombstones: AtomicIsize,
    /// Entries removed by collections, and collections run, since the last clear.
    pub replaced: AtomicU64,
    pub collections: AtomicU64,
}

impl Table {
    /// This handle's changes to the counts, voided if a collection has recounted since.
    #[inline(always)]
    pub(super) fn own(&mut self) -> &mut Counts {
        let seen = self.shared.counts.collections.load(Relaxed);
        if seen != self.own.collections {
            self.own = Counts {
                collections: seen,
                ..Counts::default()
            };
        }
        &mut self.own
    }

    /// Adds this handle's changes to the shared counts once there are enough of them.
    #[inline(always)]
    pub(super) fn flush(&mut self) {
        let own = &mut self.own;
        if own.used.abs() + own.tombstones.abs() >= Counts::FLUSH {
            let counts = &self.shared.counts;
            counts.used.fetch_add(own.used, Relaxed);
            counts.tombstones.fetch_add(own.tombstones, Relaxed);
            own.used = 0;
            own.tombstones = 0;
        }
    }

    /// Live entries and tombstones of the current generation: exact for a table with one
    /// handle; with more, the other handles' changes not yet added are missing.
    #[inline(always)]
    pub(super) fn counts(&self) -> (usize, usize) {
        let counts = &self.shared.counts;
        let (mut used, mut tombstones) = (self.own.used, self.own.tombstones);
        if self.shared.counts.collections.load(Relaxed) == self.own.collections {
            used += counts.used.load(Relaxed);
            tombstones += counts.tombstones.load(Relaxed);
        } else {
            (used, tombstones) = (counts.used.load(Relaxed), counts.tombstones.load(Relaxed));
        }
        let cap = self.capacity() as isize;
        (
            used.clamp(0, cap) as usize,
            tombstones.clamp(0, cap) as usize,
        )
    }
}
