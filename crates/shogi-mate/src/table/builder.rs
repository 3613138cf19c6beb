//! A table allocated a step at a time, so that a search that must answer by a deadline
//! can stop while its memory is committed ([`Table::builder`]).

use super::Table;
use crate::slots::Slot;

/// A [`Table`] being allocated a step at a time ([`Table::builder`]).
pub struct TableBuilder {
    pub(super) entries: Vec<Slot>,
    pub(super) slots: usize,
    pub(super) superiority: bool,
}

impl TableBuilder {
    /// Entries written between two questions to the caller: 2 MiB, a millisecond or two of
    /// page faults even on a slow machine, so that a stop waits no longer than that.
    const STEP: usize = 1 << 16;

    /// Fills in the table until it is whole, or until `go_on` (asked before each step)
    /// answers `false`; whether it is whole. A builder stopped this way can grow again.
    pub fn grow(&mut self, mut go_on: impl FnMut() -> bool) -> bool {
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

    /// The bytes written so far and the bytes of the whole table.
    pub fn progress(&self) -> (usize, usize) {
        let size = core::mem::size_of::<Slot>();
        (self.entries.len() * size, self.slots * size)
    }

    /// The table, once [`TableBuilder::grow`] has made it whole; else the builder back.
    pub fn finish(self) -> Result<Table, TableBuilder> {
        if self.entries.len() == self.slots {
            Ok(Table::with_entries(self.entries, self.superiority))
        } else {
            Err(self)
        }
    }
}
