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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::PackedHand;
    use crate::slots::Slot;

    #[test]
    fn buckets_grow_with_the_amount_in_quarter_octaves() {
        let b: Vec<usize> = [0u32, 1, 2, 3, 4, 5, 6, 7, 8, 1000, u32::MAX]
            .map(bucket)
            .to_vec();
        assert!(b.windows(2).all(|w| w[0] <= w[1]), "{b:?}");
        assert_eq!(b[0], 0);
        assert!(b[10] < BUCKETS);
        assert_ne!(bucket(1 << 20), bucket((1 << 20) + (1 << 19)));
    }

    /// A collection of a table with room to spare removes the tombstones and the entries
    /// of older generations, keeps every live entry, and leaves each findable from its home
    /// slot: no empty slot between its home and where it stands.
    #[test]
    fn a_collection_keeps_live_entries_in_whole_runs() {
        let mut slots = Vec::new();
        slots.resize_with(16, Slot::default);
        let shared = Shared::new(slots);
        let entry = |key: u64, generation: u16| Entry {
            key,
            hand: PackedHand::EMPTY,
            pn: 1,
            dn: 1,
            generation,
            amount: 1,
            ..Entry::default()
        };
        // Keys of one home slot (3 of 16: they differ above the mask's bits), a tombstone
        // among them and one entry of an older generation.
        let home = |i: u64| (i << 7) | 1;
        shared.entries[3].store(entry(home(3), 2));
        shared.entries[4].store(entry(TOMBSTONE, 2));
        shared.entries[5].store(entry(home(3) + 2048, 2));
        shared.entries[6].store(entry(home(3) + 4096, 1));
        shared.entries[7].store(entry(home(3) + 6144, 2));
        collect(&shared, 2, 3);
        let live: Vec<u64> = (0..16)
            .map(|i| shared.load(i))
            .filter(|e| e.key != 0)
            .map(|e| e.key)
            .collect();
        assert_eq!(live, [home(3), home(3) + 2048, home(3) + 6144]);
        assert_eq!(
            shared.load(5).key,
            home(3) + 6144,
            "moved up to close the run"
        );
        for i in 0..16 {
            let e = shared.load(i);
            if e.key != 0 {
                let mut j = shared.home(e.key);
                while j != i {
                    assert_ne!(shared.load(j).key, 0, "a gap before slot {i}");
                    j = shared.next(j);
                }
            }
        }
        assert_eq!(shared.counts.used.load(Relaxed), 3);
        assert_eq!(shared.counts.tombstones.load(Relaxed), 0);
        assert_eq!(shared.counts.collections.load(Relaxed), 1);
    }
}
