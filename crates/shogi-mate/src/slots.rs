//! The table's slots, shared by the threads that search one problem (docs/METHOD.md
//! §11.8): each entry is four atomic words read and written without a lock, and a pause
//! under which one thread rearranges them while the others wait.
//!
//! An entry is written as four 64-bit words, the first the board key XORed with the other
//! three (the "lockless hashing" of chess programs): a reader that meets a half-written
//! entry, words of two writers, decodes a key no board has, so it sees a foreign entry, never
//! a wrong answer for its own board. (A mate found all the same is verified before it is
//! answered: docs/METHOD.md §11.3.) Two threads storing into one slot at once lose one of the
//! entries, which costs time, never soundness.
//!
//! The collection moves entries, which no thread may then read: a thread that finds the
//! table full asks for a pause, every searching thread waits at its next look-up or store,
//! and the last one to arrive collects. Alone, a thread collects at once, where it would have
//! collected without the pause.

use crate::hand::PackedHand;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};

/// A table entry, as the table reads and writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The board key (odd); 0 for an empty slot, the table's tombstone (2) for a removed
    /// one.
    pub key: u64,
    /// Proof pieces (proved), disproof pieces (disproved) or the exact hand (open).
    pub hand: PackedHand,
    pub pn: u32,
    pub dn: u32,
    /// Plies of the mate found (proved entries), or a disproof's depth bound.
    pub len: u16,
    pub generation: u16,
    /// Nodes searched below this entry: the garbage collection keeps the most searched.
    pub amount: u32,
}

impl Entry {
    /// Whether the entry is a proof or a disproof.
    #[inline(always)]
    pub fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// The three words after the first.
    #[inline(always)]
    fn words(&self) -> [u64; 3] {
        [
            u64::from(self.hand.bits()) | u64::from(self.amount) << 32,
            u64::from(self.pn) | u64::from(self.dn) << 32,
            u64::from(self.len) | u64::from(self.generation) << 16,
        ]
    }
}

/// One slot: an entry in four words, the first checked against the others. Aligned to its
/// size, so that an entry never straddles two cache lines.
#[repr(align(32))]
#[derive(Default)]
pub(crate) struct Slot([AtomicU64; 4]);

impl Slot {
    /// The entry in the slot (an empty one reads as the default entry).
    #[inline(always)]
    pub fn load(&self) -> Entry {
        let [w0, w1, w2, w3] = [0, 1, 2, 3].map(|i| self.0[i].load(Relaxed));
        Entry {
            key: w0 ^ w1 ^ w2 ^ w3,
            hand: PackedHand::from_bits(w1 as u32),
            amount: (w1 >> 32) as u32,
            pn: w2 as u32,
            dn: (w2 >> 32) as u32,
            len: w3 as u16,
            generation: (w3 >> 16) as u16,
        }
    }

    /// Writes `e` into the slot.
    #[inline(always)]
    pub fn store(&self, e: Entry) {
        let [w1, w2, w3] = e.words();
        self.0[1].store(w1, Relaxed);
        self.0[2].store(w2, Relaxed);
        self.0[3].store(w3, Relaxed);
        self.0[0].store(e.key ^ w1 ^ w2 ^ w3, Relaxed);
    }

    /// Gives entry `e`, read from this slot, the key `key`, writing the first word only (a
    /// tombstone keeps the rest). If another thread wrote the slot since, the slot decodes
    /// to a key no board has.
    #[inline(always)]
    pub fn rekey(&self, e: &Entry, key: u64) {
        let [w1, w2, w3] = e.words();
        self.0[0].store(key ^ w1 ^ w2 ^ w3, Relaxed);
    }
}

/// The pause for the collection: how many threads search, how many wait.
#[derive(Debug)]
pub(crate) struct Gate {
    /// A collection is asked for: threads that see it wait at their next table call.
    pending: AtomicBool,
    state: Mutex<GateState>,
    wake: Condvar,
}

#[derive(Debug)]
struct GateState {
    /// The threads that use the table (its first handle's, and one for each share).
    active: usize,
    /// Of those, the ones waiting for the collection.
    waiting: usize,
    /// Collections finished: a waiting thread goes on when it changes.
    round: u64,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            pending: AtomicBool::new(false),
            state: Mutex::new(GateState {
                active: 1,
                waiting: 0,
                round: 0,
            }),
            wake: Condvar::new(),
        }
    }
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, GateState> {
        // A thread that panicked holding the lock left counters only: go on.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a collection waits for this thread.
    #[inline(always)]
    pub fn pending(&self) -> bool {
        self.pending.load(Relaxed)
    }

    /// Waits at the pause (with `ask`, asks for it first); the last thread to arrive runs
    /// `collect` while the others wait, and all go on after it.
    #[cold]
    pub fn pause(&self, ask: bool, collect: impl FnOnce()) {
        let mut s = self.lock();
        if ask {
            self.pending.store(true, Relaxed);
        } else if !self.pending() {
            return;
        }
        s.waiting += 1;
        if s.waiting >= s.active {
            self.finish(s, collect);
        } else {
            let round = s.round;
            while s.round == round {
                s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// One more thread uses the table (after any collection under way).
    pub fn join(&self) {
        let mut s = self.lock();
        while self.pending() {
            s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.active += 1;
    }

    /// One thread fewer uses the table; if the others all wait for a collection, it runs
    /// `collect` for them.
    pub fn leave(&self, collect: impl FnOnce()) {
        let mut s = self.lock();
        s.active -= 1;
        if self.pending() && s.waiting >= s.active {
            self.finish(s, collect);
        }
    }

    fn finish(&self, mut s: MutexGuard<'_, GateState>, collect: impl FnOnce()) {
        collect();
        s.waiting = 0;
        s.round += 1;
        self.pending.store(false, Relaxed);
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::packed as hand;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    fn entry(key: u64) -> Entry {
        Entry {
            key,
            hand: hand([1, 0, 2, 0, 0, 0, 1]),
            pn: 7,
            dn: 3,
            len: 9,
            generation: 4,
            amount: 1 << 20,
        }
    }

    #[test]
    fn an_entry_reads_back_as_written_and_a_default_slot_is_empty() {
        let s = Slot::default();
        assert_eq!(s.load(), Entry::default());
        s.store(entry(0x1234_5679));
        assert_eq!(s.load(), entry(0x1234_5679));
        let e = s.load();
        s.rekey(&e, 2);
        assert_eq!(s.load(), Entry { key: 2, ..e });
        assert_eq!(core::mem::size_of::<Slot>(), 32);
    }

    /// Words of two writers decode to neither key.
    #[test]
    fn a_torn_entry_has_a_foreign_key() {
        let (a, b) = (Slot::default(), Slot::default());
        a.store(entry(0xaaaa_aaab));
        b.store(Entry {
            pn: 0,
            dn: u32::MAX,
            ..entry(0xaaaa_aaab)
        });
        a.0[2].store(b.0[2].load(Relaxed), Relaxed);
        assert_ne!(a.load().key, 0xaaaa_aaab);
    }

    /// Two threads write and read one slot over and over: every read is one of the two
    /// entries written or has a key that is neither.
    #[test]
    fn concurrent_writes_never_read_as_a_mixed_entry_of_a_key() {
        let slot = Arc::new(Slot::default());
        let a = entry(0x5555_5555);
        let b = Entry {
            hand: hand([0, 3, 0, 0, 1, 0, 0]),
            pn: 0,
            dn: 123,
            ..entry(0x5555_5555)
        };
        std::thread::scope(|sc| {
            for e in [a, b] {
                let slot = &slot;
                sc.spawn(move || {
                    for _ in 0..100_000 {
                        slot.store(e);
                        let r = slot.load();
                        assert!(r == a || r == b || r.key != a.key, "{r:?}");
                    }
                });
            }
        });
    }

    /// Three threads ask for collections while a fourth leaves: each collection runs once,
    /// with the others waiting, and no thread is left waiting.
    #[test]
    fn the_pause_runs_each_collection_once_with_all_waiting() {
        let gate = Arc::new(Gate::default());
        let inside = AtomicUsize::new(0);
        let runs = AtomicUsize::new(0);
        for _ in 0..3 {
            gate.join();
        }
        std::thread::scope(|sc| {
            for t in 0..4 {
                let (gate, inside, runs) = (&gate, &inside, &runs);
                sc.spawn(move || {
                    for i in 0..200 {
                        inside.fetch_add(1, Relaxed);
                        inside.fetch_sub(1, Relaxed);
                        gate.pause(i % 7 == t, || {
                            assert_eq!(inside.load(Relaxed), 0);
                            runs.fetch_add(1, Relaxed);
                        });
                        if t == 3 && i == 100 {
                            break;
                        }
                    }
                    gate.leave(|| {
                        runs.fetch_add(1, Relaxed);
                    });
                });
            }
        });
        assert!(runs.load(Relaxed) > 0);
        assert!(!gate.pending());
    }
}
