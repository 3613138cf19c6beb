//! The table's garbage collection, run while every thread that uses the table waits
//! ([`crate::slots::Gate`]).

use super::shared::{Shared, TOMBSTONE};
use crate::slots::Entry;
use std::sync::atomic::Ordering::Relaxed;

/// Makes room in the table `shared`, of generation `generation`, whose live entries number
/// `used` (as the handle that collects counts them): removes the tombstones and, if live
/// entries fill half the table or more, the least searched of them until a quarter of the
/// slots are used, then re-places the survivors so that every run is whole again. Proofs
/// and disproofs are removed like the others: losing one costs time (the search finds it
/// again), never soundness. Runs alone: no other thread reads or writes the slots
/// meanwhile.
pub(super) fn collect(shared: &Shared, generation: u16, used: usize) {
    let counts = &shared.counts;
    // Every handle's changes to the counts not yet added are void from here on.
    counts.collections.fetch_add(1, Relaxed);
    let n = shared.capacity();
    let half = n / 2;
    let live = |e: &Entry| e.generation == generation && e.key != 0 && e.key != TOMBSTONE;
    if used >= half {
        // The amount below which entries go, from a histogram of log2(amount + 1):
        // buckets from the least searched up, until at least `used - half / 2` entries
        // are counted (so that a quarter of the table is left at most).
        let mut buckets = [0usize; BUCKETS];
        for s in shared.entries.iter() {
            let e = s.load();
            if live(&e) {
                buckets[bucket(e.amount)] += 1;
            }
        }
        // Every entry of the buckets below `cut` goes, and of bucket `cut` as many as
        // are still needed (the first ones met): `used - half / 2` in all, so that a
        // quarter of the table stays in use.
        let mut need = used - half / 2;
        let mut cut = 0;
        while cut + 1 < BUCKETS && buckets[cut] < need {
            need -= buckets[cut];
            cut += 1;
        }
        let mut replaced = 0;
        for s in shared.entries.iter() {
            let e = s.load();
            if !live(&e) {
                continue;
            }
            let b = bucket(e.amount);
            if b < cut || (b == cut && need > 0) {
                if b == cut {
                    need -= 1;
                }
                s.store(Entry::default());
                replaced += 1;
            }
        }
        counts.replaced.fetch_add(replaced, Relaxed);
    }
    let mut kept = 0;
    for s in shared.entries.iter() {
        let e = s.load();
        if e.key == TOMBSTONE || e.generation != generation {
            s.store(Entry::default());
        } else if e.key != 0 {
            kept += 1;
        }
    }
    // Recounted: threads storing at once can have left the counts a little off.
    counts.used.store(kept, Relaxed);
    counts.tombstones.store(0, Relaxed);
    // Re-place every entry, in slot order from an empty slot on: each lands on its home
    // slot or the first empty one after it, which is at most where it stood.
    let Some(start) = (0..n).find(|&i| shared.load(i).key == 0) else {
        return;
    };
    for k in 1..=n {
        let i = (start + k) % n;
        let e = shared.load(i);
        if e.key == 0 {
            continue;
        }
        shared.entries[i].store(Entry::default());
        let mut j = shared.home(e.key);
        while shared.load(j).key != 0 {
            j = shared.next(j);
        }
        shared.entries[j].store(e);
    }
}

/// The collection's measure of search effort: `log2(amount + 1)` in quarters (the octave
/// and the two bits after the leading one), so that entries of one bucket differ by less
/// than a fifth in their effort.
pub(super) fn bucket(amount: u32) -> usize {
    let a = u64::from(amount) + 1;
    let octave = (u64::BITS - a.leading_zeros() - 1) as usize;
    let quarter = if octave >= 2 {
        ((a >> (octave - 2)) & 3) as usize
    } else {
        ((a << (2 - octave)) & 3) as usize
    };
    octave * 4 + quarter
}

/// The number of [`bucket`]s.
pub(super) const BUCKETS: usize = 33 * 4;
