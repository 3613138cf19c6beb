//! The table's counts of live entries and tombstones, which decide when to collect: each
//! handle keeps its changes and adds them to the shared counts now and then, so that
//! threads storing at once do not pass one cache line to and fro at every store.

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

    /// These changes, voided if a collection has recounted `shared` since.
    #[inline(always)]
    pub(super) fn current(&mut self, shared: &SharedCounts) -> &mut Counts {
        let seen = shared.collections.load(Relaxed);
        if seen != self.collections {
            *self = Counts {
                collections: seen,
                ..Counts::default()
            };
        }
        self
    }

    /// Adds these changes to `shared` once there are enough of them.
    #[inline(always)]
    pub(super) fn flush(&mut self, shared: &SharedCounts) {
        if self.used.abs() + self.tombstones.abs() >= Counts::FLUSH {
            shared.used.fetch_add(self.used, Relaxed);
            shared.tombstones.fetch_add(self.tombstones, Relaxed);
            self.used = 0;
            self.tombstones = 0;
        }
    }
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

impl SharedCounts {
    /// Live entries and tombstones of the current generation in a table of `capacity`
    /// slots, with the changes `own` of one handle: exact for a table with one handle;
    /// with more, the other handles' changes not yet added are missing.
    #[inline(always)]
    pub(super) fn with(&self, own: &Counts, capacity: usize) -> (usize, usize) {
        let (mut used, mut tombstones) = (own.used, own.tombstones);
        if self.collections.load(Relaxed) == own.collections {
            used += self.used.load(Relaxed);
            tombstones += self.tombstones.load(Relaxed);
        } else {
            (used, tombstones) = (self.used.load(Relaxed), self.tombstones.load(Relaxed));
        }
        let cap = capacity as isize;
        (
            used.clamp(0, cap) as usize,
            tombstones.clamp(0, cap) as usize,
        )
    }

    /// Every count back to zero, as for an empty table.
    pub(super) fn reset(&self) {
        self.used.store(0, Relaxed);
        self.tombstones.store(0, Relaxed);
        self.replaced.store(0, Relaxed);
        self.collections.store(0, Relaxed);
    }
}
