//! The slots' memory, committed a step at a time: writing the slots is what takes the time
//! (the system hands out pages as they are first written: 32 s for 4 GiB on a busy virtual
//! machine), so a caller that must answer by a deadline, or at a `stop`, commits a step,
//! looks at its clock, and may resume later ([`crate::TableBuilder`]).
//!
//! A mapping that the system commits as searches touch it was tried and measured slower on
//! an idle machine (docs/BENCHMARKS.md, "The table's memory (tried and reverted)").
//!
//! For a search on several threads the slots are written by as many threads at once: the
//! page faults run on every core instead of one, before a search that will use them all
//! (docs/BENCHMARKS.md, "One problem on two threads": "Why writing the table on two
//! threads").

use crate::slots::Slot;
use core::mem::MaybeUninit;
use std::collections::TryReserveError;

/// Memory for a number of slots, reserved at once and written a step at a time.
pub(super) struct Memory {
    entries: Vec<Slot>,
    slots: usize,
}

impl Memory {
    /// Slots written between two questions to the caller: 2 MiB, a millisecond or two of
    /// page faults even on a slow machine, so that a stop waits no longer than that.
    const STEP: usize = 1 << 16;

    /// The address space of `slots` slots, none written yet; an allocation the process
    /// cannot get (an address-space limit, a size past `usize`) is an error.
    pub(super) fn reserve(slots: usize) -> Result<Memory, TryReserveError> {
        let mut entries = Vec::new();
        entries.try_reserve_exact(slots)?;
        Ok(Memory { entries, slots })
    }

    /// Writes empty slots until all are written, or until `go_on` (asked before each step)
    /// answers `false`; whether all are written. Memory stopped this way can grow again.
    /// With `writers` above 1, each step is that many parts written by as many threads.
    pub(super) fn grow(&mut self, writers: usize, mut go_on: impl FnMut() -> bool) -> bool {
        // A step of several writers is larger, so that starting the threads costs little
        // beside the writing; a stop still waits for a few milliseconds at most.
        let step = if writers > 1 {
            Self::STEP * 8 * writers
        } else {
            Self::STEP
        };
        while self.entries.len() < self.slots {
            if !go_on() {
                return false;
            }
            let n = (self.slots - self.entries.len()).min(step);
            if writers > 1 {
                self.write_in_parts(n, writers);
            } else {
                self.entries
                    .resize_with(self.entries.len() + n, Slot::default);
            }
        }
        true
    }

    /// Writes the next `n` slots in `writers` parts, each on a thread of its own (a thread
    /// that cannot be started leaves its part to this one).
    #[allow(unsafe_code)]
    fn write_in_parts(&mut self, n: usize, writers: usize) {
        fn fill(part: &mut [MaybeUninit<Slot>]) {
            for slot in part {
                slot.write(Slot::default());
            }
        }
        let len = self.entries.len();
        let spare = &mut self.entries.spare_capacity_mut()[..n];
        let mut parts: Vec<Option<&mut [MaybeUninit<Slot>]>> =
            spare.chunks_mut(n.div_ceil(writers)).map(Some).collect();
        std::thread::scope(|s| {
            for part in parts.iter_mut() {
                // A thread that is not started drops its closure, and the part with it,
                // untouched: it is written below.
                let _ = std::thread::Builder::new().spawn_scoped(s, move || {
                    if let Some(p) = part.take() {
                        fill(p);
                    }
                });
            }
        });
        for part in parts.iter_mut() {
            if let Some(p) = part.take() {
                fill(p);
            }
        }
        // SAFETY: the `n` slots after the first `len` are the chunks of `spare`, and every
        // chunk was written above, by its thread (all joined when the scope ended) or, if
        // that thread never ran, here; `n` is within the capacity `reserve` made.
        unsafe { self.entries.set_len(len + n) };
    }

    /// The bytes written so far and the bytes of all the slots.
    pub(super) fn progress(&self) -> (usize, usize) {
        let size = core::mem::size_of::<Slot>();
        (self.entries.len() * size, self.slots * size)
    }

    /// The slots, once [`Memory::grow`] has written them all; else the memory back.
    pub(super) fn into_slots(self) -> Result<Vec<Slot>, Memory> {
        if self.entries.len() == self.slots {
            Ok(self.entries)
        } else {
            Err(self)
        }
    }

    /// All the slots, written now.
    pub(super) fn whole(mut self, writers: usize) -> Vec<Slot> {
        self.grow(writers, || true);
        self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::Entry;

    #[test]
    fn memory_grows_by_steps_until_stopped_and_resumes() {
        let slots = 3 * Memory::STEP + 5;
        let mut m = Memory::reserve(slots).unwrap();
        let size = core::mem::size_of::<Slot>();
        assert_eq!(m.progress(), (0, slots * size));
        let mut steps = 0;
        assert!(!m.grow(1, || {
            steps += 1;
            steps <= 2
        }));
        assert_eq!(m.progress().0, 2 * Memory::STEP * size);
        let Err(mut m) = m.into_slots() else {
            panic!("half written, yet given out");
        };
        let mut asked = 0;
        assert!(m.grow(1, || {
            asked += 1;
            true
        }));
        assert_eq!(asked, 2, "the two steps left, the last one short");
        let v = m.into_slots().ok().expect("all written");
        assert_eq!(v.len(), slots);
        assert!(v.iter().all(|s| s.load() == Entry::default()));
    }

    #[test]
    fn a_size_past_the_address_space_is_an_error() {
        assert!(Memory::reserve(usize::MAX / 8).is_err());
        assert_eq!(Memory::reserve(100).unwrap().whole(1).len(), 100);
    }

    /// Written by several threads, the slots are all there and all empty, whatever the
    /// parts: more writers than slots, a last part shorter than the others, a stop between
    /// steps.
    #[test]
    fn slots_written_in_parts_are_all_empty() {
        for (slots, writers) in [(3, 8), (1000, 3), (2 * Memory::STEP * 8 * 2 + 7, 2)] {
            let v = Memory::reserve(slots).unwrap().whole(writers);
            assert_eq!(v.len(), slots);
            assert!(v.iter().all(|s| s.load() == Entry::default()));
        }
        let slots = 3 * Memory::STEP * 8 * 2;
        let mut m = Memory::reserve(slots).unwrap();
        let mut steps = 0;
        assert!(!m.grow(2, || {
            steps += 1;
            steps <= 1
        }));
        assert_eq!(
            m.progress().0,
            Memory::STEP * 8 * 2 * core::mem::size_of::<Slot>()
        );
        assert!(m.grow(2, || true));
        let v = m.into_slots().ok().expect("all written");
        assert!(v.iter().all(|s| s.load() == Entry::default()));
    }
}
