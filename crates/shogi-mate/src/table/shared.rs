//! What the handles of one table share: its slots, its generation, the pause for a
//! collection and the counts; and the way along the slots (a key's home slot, the slot
//! after), which look-ups, stores and the collection all take.

use super::counts::SharedCounts;
use crate::slots::{Entry, Gate, Slot};
use std::sync::atomic::AtomicU16;

/// The key of a tombstone: a slot whose entry was removed and whose run goes on. Board keys
/// are odd (the search sets their lowest bit), so no board has it; 0 is an empty slot.
pub(super) const TOMBSTONE: u64 = 2;

/// What the handles of one table share.
pub(super) struct Shared {
    pub entries: Vec<Slot>,
    /// The number of slots less one when it is a power of two (the home slot is then a
    /// mask of the key), else 0.
    mask: usize,
    pub generation: AtomicU16,
    /// The pause of the threads for a collection.
    pub gate: Gate,
    /// The counts the handles write, on a cache line of their own.
    pub counts: SharedCounts,
}

impl Shared {
    /// The state of a table on `entries`, of generation 1 (empty slots are of none).
    pub(super) fn new(entries: Vec<Slot>) -> Shared {
        Shared {
            mask: if entries.len().is_power_of_two() {
                entries.len() - 1
            } else {
                0
            },
            entries,
            generation: AtomicU16::new(1),
            gate: Gate::default(),
            counts: SharedCounts::default(),
        }
    }

    /// The number of slots.
    #[inline(always)]
    pub(super) fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The slot where the run of `key`'s entries may begin.
    #[inline(always)]
    pub(super) fn home(&self, key: u64) -> usize {
        // The key is a sum of random 64-bit values: any bits will do. Other sizes than
        // powers of two map the 57 bits left onto the slots by a multiplication, not a
        // division (Lemire's fast range).
        let mask = self.mask;
        if mask != 0 {
            (key >> 7) as usize & mask
        } else {
            ((u128::from(key >> 7) * self.capacity() as u128) >> 57) as usize
        }
    }

    /// The slot after `i`, round the end.
    #[inline(always)]
    pub(super) fn next(&self, i: usize) -> usize {
        let j = i + 1;
        if j == self.capacity() {
            0
        } else {
            j
        }
    }

    /// The entry in slot `i`.
    #[inline(always)]
    pub(super) fn load(&self, i: usize) -> Entry {
        self.entries[i].load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(n: usize) -> Shared {
        let mut slots = Vec::new();
        slots.resize_with(n, Slot::default);
        Shared::new(slots)
    }

    /// Home slots fall inside the table whatever its size, spread over all of it, and the
    /// slot after the last is the first.
    #[test]
    fn home_slots_cover_a_table_of_any_size() {
        for n in [64, 100, 1 << 10, 1000] {
            let s = shared(n);
            let mut seen = vec![false; n];
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..20 * n {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let h = s.home(x | 1);
                assert!(h < n);
                seen[h] = true;
            }
            assert!(
                seen.iter().all(|&b| b),
                "every slot of {n} is some key's home"
            );
            assert_eq!(s.next(n - 1), 0);
            assert_eq!(s.next(0), 1);
        }
        // The top of the key range lands in the last slot.
        assert_eq!(shared(100).home(u64::MAX), 99);
        assert_eq!(shared(64).home(u64::MAX), 63);
    }
}
