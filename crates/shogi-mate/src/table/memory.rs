//! The slots' memory, committed a step at a time: writing the slots is what takes the time
//! (the system hands out pages as they are first written: 32 s for 4 GiB on a busy virtual
//! machine), so a caller that must answer by a deadline, or at a `stop`, commits a step,
//! looks at its clock, and may resume later ([`crate::TableBuilder`]).
//!
//! A mapping that the system commits as searches touch it was tried and measured slower on
//! an idle machine (docs/BENCHMARKS.md, "The table's memory (tried and reverted)").

use crate::slots::Slot;
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
    pub(super) fn grow(&mut self, mut go_on: impl FnMut() -> bool) -> bool {
        while self.entries.len() < self.slots {
            if !go_on() {
                return false;
            }
            let n = (self.slots - self.entries.len()).min(Self::STEP);
            self.entries
                .resize_with(self.entries.len() + n, Slot::default);
        }
        true
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
    pub(super) fn whole(mut self) -> Vec<Slot> {
        self.grow(|| true);
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
        assert!(!m.grow(|| {
            steps += 1;
            steps <= 2
        }));
        assert_eq!(m.progress().0, 2 * Memory::STEP * size);
        let Err(mut m) = m.into_slots() else {
            panic!("half written, yet given out");
        };
        let mut asked = 0;
        assert!(m.grow(|| {
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
        assert_eq!(Memory::reserve(100).unwrap().whole().len(), 100);
    }
}
