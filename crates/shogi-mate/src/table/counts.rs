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

#[cfg(test)]
mod tests {
    use super::*;

    /// A handle's changes reach the shared counts in batches, and a collection, which
    /// recounts, voids the changes made before it.
    #[test]
    fn changes_are_added_in_batches_and_voided_by_a_collection() {
        let shared = SharedCounts::default();
        let mut own = Counts::default();
        own.current(&shared).used += Counts::FLUSH - 1;
        own.flush(&shared);
        assert_eq!(shared.used.load(Relaxed), 0, "not enough changes yet");
        assert_eq!(shared.with(&own, 1000), (Counts::FLUSH as usize - 1, 0));
        own.current(&shared).tombstones += 1;
        own.flush(&shared);
        assert_eq!(shared.used.load(Relaxed), Counts::FLUSH - 1);
        assert_eq!(shared.tombstones.load(Relaxed), 1);
        own.current(&shared).used += 5;
        // A collection recounts: the shared counts are the truth, the 5 are void.
        shared.collections.fetch_add(1, Relaxed);
        shared.used.store(40, Relaxed);
        assert_eq!(shared.with(&own, 1000), (40, 1));
        assert_eq!(own.current(&shared).used, 0);
    }

    /// Counts a handle sees are clamped to the table: other handles' changes not yet added
    /// can leave the sum below zero or above the capacity for a while.
    #[test]
    fn counts_seen_stay_within_the_table() {
        let shared = SharedCounts::default();
        let own = Counts {
            used: -7,
            tombstones: 99,
            collections: 0,
        };
        assert_eq!(shared.with(&own, 64), (0, 64));
        shared.reset();
        assert_eq!(shared.with(&Counts::default(), 64), (0, 0));
    }
}
