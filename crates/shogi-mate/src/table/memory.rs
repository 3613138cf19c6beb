//! The table's memory: an anonymous mapping, which the operating system hands out zeroed and
//! commits a page at a time as searches first touch it.
//!
//! Why not a `Vec`: a slot is aligned to 32 bytes, and the allocator zeroes such memory by
//! writing it, so that a 4 GiB table cost 1.7 s of page faults, all taken by one thread
//! before the search began, even for a mate in three. Mapped memory costs only the pages a
//! search uses, and the threads of a parallel search take their faults side by side. (Huge
//! pages were tried and left out: docs/BENCHMARKS.md, "The table's memory".)

use crate::slots::Slot;
use memmap2::MmapMut;
use std::io;

/// Zeroed memory for `len` slots, read and written through atomics only.
pub(crate) struct Slots {
    map: MmapMut,
    len: usize,
}

impl Slots {
    /// `len` empty slots (an all-zero slot is the empty entry of no generation), or the
    /// system's refusal; a size past `usize` is refused as out of memory.
    pub(crate) fn zeroed(len: usize) -> io::Result<Slots> {
        let bytes = len
            .checked_mul(core::mem::size_of::<Slot>())
            .ok_or_else(|| io::Error::new(io::ErrorKind::OutOfMemory, "size past usize"))?;
        let map = MmapMut::map_anon(bytes.max(1))?;
        Ok(Slots { map, len })
    }
}

impl core::ops::Deref for Slots {
    type Target = [Slot];

    #[inline(always)]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[Slot] {
        // SAFETY: the mapping starts on a page boundary, which satisfies `Slot`'s alignment
        // of 32, and holds `len * size_of::<Slot>()` bytes (`zeroed`), which the system
        // zeroed; four zero words are a valid `Slot` (`AtomicU64` has `u64`'s
        // representation). The slice borrows `self`, so it cannot outlive the mapping, and
        // it is written only through the atomics' interior mutability, never through
        // `&mut`.
        unsafe { core::slice::from_raw_parts(self.map.as_ptr().cast::<Slot>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::Entry;

    #[test]
    fn new_slots_are_empty_and_hold_what_is_stored() {
        let slots = Slots::zeroed(100_000).unwrap();
        assert_eq!(slots.len(), 100_000);
        assert_eq!(slots.as_ptr() as usize % core::mem::align_of::<Slot>(), 0);
        assert!(slots.iter().all(|s| s.load() == Entry::default()));
        let e = Entry {
            key: 0x1234_5678_9abc_def0,
            pn: 3,
            dn: 7,
            generation: 1,
            ..Entry::default()
        };
        slots[99_999].store(e);
        assert_eq!(slots[99_999].load(), e);
    }

    #[test]
    fn a_size_past_the_address_space_is_an_error() {
        assert!(Slots::zeroed(usize::MAX / 8).is_err());
        assert!(Slots::zeroed(usize::MAX / 64).is_err());
    }
}
