//! The transposition table: indexed by the board alone, answering look-ups by superiority.
//!
//! A stored proof holds the proof pieces in place of the hand and answers every position
//! with the same board whose attacker hand contains them; a stored disproof holds the
//! disproof pieces and answers every position whose attacker hand they contain
//! (docs/METHOD.md §12). Other entries hold the exact hand and the current proof and
//! disproof numbers.
//!
//! Entries are found by linear probing from the board's home slot, in the manner of
//! KomoringHeights: every hand of one board lies in the run of occupied slots that starts at
//! or before its home slot, so any number of them live side by side, and a look-up scans
//! the run for a superior or inferior hand. (A fixed cluster a board thrashes as soon as
//! more of its hands are live than the cluster has slots, however empty the table is.)
//! Entries an entry makes redundant become tombstones, which keep the runs whole. When live
//! entries and tombstones fill three quarters of the table, a garbage collection removes
//! the tombstones and, if live entries fill half of it, the least searched entries (by the
//! nodes searched below them) down to a quarter, then re-places the survivors: the table
//! never allocates after it is made, and its memory is the limit of the search. "Clearing"
//! it between searches is a generation bump.
//!
//! The parts build upwards, none using one above it: [`memory`] (the slots' memory,
//! committed a step at a time), [`counts`] (the counts of live entries and tombstones),
//! [`shared`] (what the handles share, and the way along the slots), [`collect`] (the
//! garbage collection), and here the [`Table`] handle with its look-ups and stores.

use crate::hand::PackedHand;
use crate::slots::{Entry, Slot};
use std::collections::TryReserveError;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

mod collect;
mod counts;
mod memory;
mod shared;
use counts::Counts;
use memory::Memory;
use shared::{Shared, TOMBSTONE};

/// The smallest table, in entries.
const MIN_ENTRIES: usize = 64;

/// What a look-up found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Proof pieces of a proof, disproof pieces of a disproof, else the hand asked for.
    pub pieces: PackedHand,
    /// Plies of the stored mate (proofs only).
    pub len: u16,
    /// How the answer was found.
    pub hit: Hit,
}

/// How a look-up was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Nothing stored for this position.
    Miss,
    /// An entry for exactly this hand.
    Exact,
    /// A proof or disproof of another hand, by superiority.
    Superior,
}

/// Look-up and store counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Look-ups answered by an entry for exactly the hand asked for.
    pub exact_hits: u64,
    /// Look-ups answered by the proof or disproof of another hand, by superiority.
    pub superior_hits: u64,
    /// Look-ups that found nothing.
    pub misses: u64,
    /// Entries removed to make room (by the garbage collections).
    pub replaced: u64,
    /// Garbage collections run.
    pub collections: u64,
}

/// The transposition table of the mate search: a handle on slots that the threads
/// searching one problem share ([`Table::share`]), with its own counters.
pub struct Table {
    shared: Arc<Shared>,
    /// The current generation (as in [`Shared::generation`], copied for speed).
    generation: u16,
    superiority: bool,
    /// This handle's look-up counters (the collections' are shared).
    stats: TableStats,
    /// This handle's changes to the counts of live entries and tombstones, not yet added to
    /// the shared ones (two threads adding to one count at every store would pass its cache
    /// line to and fro), and the collections it has seen: a collection recounts, and voids
    /// the changes.
    own: Counts,
}

impl Table {
    /// A table of `entries` entries (at least 64).
    /// With `superiority` off, look-ups match exact hands only and proofs and disproofs
    /// store the hand itself: the ablation that shows what proof pieces buy.
    pub fn new(entries: usize, superiority: bool) -> Table {
        let mut v = Vec::new();
        v.resize_with(Table::slots(entries), Slot::default);
        Table::with_entries(v, superiority)
    }

    /// [`Table::new`], but an allocation the process cannot get (an address-space limit,
    /// a size past `usize`) is an error rather than an abort.
    pub fn try_new(entries: usize, superiority: bool) -> Result<Table, TryReserveError> {
        Table::try_new_on(entries, superiority, 1)
    }

    /// [`Table::try_new`], the slots written by `writers` threads at once: for a search on
    /// that many threads, which would otherwise wait for one core to take the page faults
    /// of the whole table.
    pub fn try_new_on(
        entries: usize,
        superiority: bool,
        writers: usize,
    ) -> Result<Table, TryReserveError> {
        let memory = Memory::reserve(Table::slots(entries))?;
        Ok(Table::with_entries(memory.whole(writers), superiority))
    }

    /// A table of at least `entries` entries to be filled in by [`TableBuilder::grow`], a
    /// step at a time: the address space is reserved here, at once, and the memory is
    /// committed as the steps write it, so that a caller that must answer by
    /// a deadline, or at a `stop`, can grow it between looks at its clock and resume later.
    pub fn builder(entries: usize, superiority: bool) -> Result<TableBuilder, TryReserveError> {
        Ok(TableBuilder {
            memory: Memory::reserve(Table::slots(entries))?,
            superiority,
            writers: 1,
        })
    }

    /// A table on the slots `entries`, all empty.
    fn with_entries(entries: Vec<Slot>, superiority: bool) -> Table {
        Table {
            shared: Arc::new(Shared::new(entries)),
            generation: 1,
            superiority,
            stats: TableStats::default(),
            own: Counts::default(),
        }
    }

    /// Another handle on this table's slots, for one more thread searching the same
    /// problem: what either stores, the other finds. A handle counts its own look-ups; it
    /// takes part in every collection until it is dropped: a collection waits until every
    /// handle's thread makes a look-up or a store, so a thread that waits for another
    /// holder of a handle steps out first ([`Table::step_out`]). Clear the table only while
    /// no other handle is alive.
    pub fn share(&self) -> Table {
        self.shared.gate.join();
        Table {
            shared: Arc::clone(&self.shared),
            generation: self.generation,
            superiority: self.superiority,
            stats: TableStats::default(),
            own: Counts {
                collections: self.shared.counts.collections.load(Relaxed),
                ..Counts::default()
            },
        }
    }

    /// This handle's thread stops using the table for a while (it waits for the threads of
    /// other handles to end, say): collections no longer wait for it, and it must make no
    /// look-up or store until [`Table::step_in`].
    pub fn step_out(&self) {
        self.shared.gate.leave(|| self.collect());
    }

    /// The thread of this handle uses the table again, after [`Table::step_out`].
    pub fn step_in(&self) {
        self.shared.gate.join();
    }

    /// The entries of a table of `bytes` bytes: a table of `USI_Hash N` or `--table-mb N`
    /// holds `entries_in(N << 20)`, and allocates N MiB.
    pub const fn entries_in(bytes: usize) -> usize {
        bytes / core::mem::size_of::<Slot>()
    }

    /// The bytes a table of at least `entries` entries allocates (`None` past `usize`): to
    /// check that tables fit in memory before making them.
    pub fn bytes_for(entries: usize) -> Option<usize> {
        Table::slots(entries).checked_mul(core::mem::size_of::<Slot>())
    }

    /// The slots of a table asked for `entries`: as many, at least [`MIN_ENTRIES`]. Any
    /// number will do, so that a table takes the memory it is given (`USI_Hash 100` is
    /// 100 MiB, not 128).
    fn slots(entries: usize) -> usize {
        entries.max(MIN_ENTRIES)
    }

    /// The number of entries.
    pub fn capacity(&self) -> usize {
        self.shared.capacity()
    }

    /// Whether look-ups use superiority.
    pub fn superiority(&self) -> bool {
        self.superiority
    }

    /// Forgets every entry (in constant time: entries of older generations are empty) and
    /// the counters. Only while no other handle shares the table.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        let shared = &self.shared;
        if self.generation == 0 {
            // The counter wrapped: entries 65,536 generations old would look current.
            shared
                .entries
                .iter()
                .for_each(|e| e.store(Entry::default()));
            self.generation = 1;
        }
        shared.generation.store(self.generation, Relaxed);
        self.stats = TableStats::default();
        self.own = Counts::default();
        shared.counts.reset();
    }

    /// The counters since the last [`Table::clear`]: this handle's look-ups, and the
    /// collections of the table.
    pub fn stats(&self) -> TableStats {
        TableStats {
            replaced: self.shared.counts.replaced.load(Relaxed),
            collections: self.shared.counts.collections.load(Relaxed),
            ..self.stats
        }
    }

    /// Live entries and tombstones of the current generation: exact for a table with one
    /// handle; with more, the other handles' changes not yet added are missing.
    #[inline(always)]
    fn counts(&self) -> (usize, usize) {
        self.shared.counts.with(&self.own, self.capacity())
    }

    /// Live entries of the current generation ([`Table::counts`]).
    fn used(&self) -> usize {
        self.counts().0
    }

    /// This handle's changes to the counts, voided if a collection has recounted since.
    #[inline(always)]
    fn own(&mut self) -> &mut Counts {
        self.own.current(&self.shared.counts)
    }

    /// Adds this handle's changes to the shared counts once there are enough of them.
    #[inline(always)]
    fn flush(&mut self) {
        self.own.flush(&self.shared.counts);
    }

    /// The garbage collection ([`collect::collect`]), by this handle's count of the live
    /// entries. Runs alone: every other handle's thread waits at the pause.
    fn collect(&self) {
        collect::collect(&self.shared, self.generation, self.used());
    }

    /// The share of entries in use by the current generation.
    pub fn fill(&self) -> f64 {
        self.used() as f64 / self.capacity() as f64
    }

    /// Asks the processor to bring the home slot of `key` into its cache, so that a probe
    /// soon after does not wait for memory: a node's children are looked up one after
    /// another, each in a random place of a table far larger than the cache.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = self
                .shared
                .entries
                .as_ptr()
                .wrapping_add(self.shared.home(key));
            // SAFETY: a prefetch is a hint to the cache: it never faults and reads nothing
            // into the program, whatever the address (here always inside the table). It
            // needs SSE, which every x86-64 processor has.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    slot.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Whether entry `e` is nothing of the current generation (no entry, no tombstone):
    /// the end of a run.
    #[inline(always)]
    fn is_empty(&self, e: &Entry) -> bool {
        e.key == 0 || e.generation != self.generation
    }

    /// Waits at the pause for a collection (asking for one with `ask`), which runs once
    /// every thread using the table waits.
    #[cold]
    fn pause(&self, ask: bool) {
        self.shared.gate.pause(ask, || self.collect());
    }

    /// Whether an entry for hand `a` speaks for hand `b` in the order of superiority
    /// (`a` holds at least what `b` holds); without superiority, only for the same hand.
    #[inline(always)]
    fn covers(&self, a: PackedHand, b: PackedHand) -> bool {
        if self.superiority {
            a.contains(b)
        } else {
            a == b
        }
    }

    /// Whether entry `e` answers a look-up of `hand` with `remaining` plies left to the
    /// depth limit: a proof of a mate in `len` plies when at least that many remain and
    /// the hand holds its proof pieces, a disproof with depth bound `len` when at most
    /// that many remain and its disproof pieces hold the hand.
    #[inline(always)]
    fn answers(&self, e: &Entry, hand: PackedHand, remaining: u16) -> bool {
        if e.pn == 0 {
            e.len <= remaining && self.covers(hand, e.hand)
        } else if e.dn == 0 {
            remaining <= e.len && self.covers(e.hand, hand)
        } else {
            false
        }
    }

    /// Looks up the position with board key `key` and attacker hand `hand`, `remaining`
    /// plies from the depth limit. A stored proof answers only when its mate is no longer
    /// than the plies left, and a disproof stored with a depth bound (in its `len`) only
    /// when at most that many plies remain: so results found under one depth limit serve a
    /// search under another, as the shortest-mate search needs ([`crate::Solver::solve_shortest`]).
    /// Otherwise the open entry of exactly this hand, if any.
    #[inline]
    pub fn probe(&mut self, key: u64, hand: PackedHand, remaining: u16) -> Probe {
        if self.shared.gate.pending() {
            self.pause(false);
        }
        let mut exact: Option<Entry> = None;
        let mut i = self.shared.home(key);
        // Every entry of `key` lies between its home slot and the first empty slot after
        // it; the table is never full (the collection keeps a quarter of it empty).
        loop {
            let e = self.shared.load(i);
            if self.is_empty(&e) {
                break;
            }
            i = self.shared.next(i);
            if e.key != key {
                continue;
            }
            if self.answers(&e, hand, remaining) {
                let hit = if e.hand == hand {
                    self.stats.exact_hits += 1;
                    Hit::Exact
                } else {
                    self.stats.superior_hits += 1;
                    Hit::Superior
                };
                return Probe {
                    pn: e.pn,
                    dn: e.dn,
                    pieces: e.hand,
                    len: e.len,
                    hit,
                };
            }
            if !e.is_final() && e.hand == hand {
                exact = Some(e);
            }
        }
        match exact {
            Some(e) => {
                self.stats.exact_hits += 1;
                Probe {
                    pn: e.pn,
                    dn: e.dn,
                    pieces: hand,
                    len: 0,
                    hit: Hit::Exact,
                }
            }
            None => {
                self.stats.misses += 1;
                Probe {
                    pn: 1,
                    dn: 1,
                    pieces: hand,
                    len: 0,
                    hit: Hit::Miss,
                }
            }
        }
    }

    /// The length of the shortest stored mate that answers `hand` at any depth (`None`:
    /// no proof is stored): [`Table::probe`] gives the first answering proof, which need not
    /// be the shortest when proofs of several lengths are stored, as after searches under
    /// decreasing depth limits. Counted in no statistic.
    pub fn shortest_proof(&self, key: u64, hand: PackedHand) -> Option<u16> {
        if self.shared.gate.pending() {
            self.pause(false);
        }
        let mut best: Option<u16> = None;
        let mut i = self.shared.home(key);
        loop {
            let e = self.shared.load(i);
            if self.is_empty(&e) {
                break;
            }
            i = self.shared.next(i);
            if e.key == key && e.pn == 0 && self.covers(hand, e.hand) {
                best = Some(best.map_or(e.len, |b| b.min(e.len)));
            }
        }
        best
    }

    /// Stores a result for board key `key`: for a proof (`pn == 0`) `hand` must be the
    /// proof pieces and `len` the mate's length, for a disproof (`dn == 0`) the disproof
    /// pieces and `len` its depth bound (`u16::MAX`: none), else the exact hand.
    /// A proof or disproof that one stored answers wherever the new one would (fewer proof
    /// pieces and no longer a mate; more disproof pieces and no narrower a bound) makes it
    /// redundant, and it is not stored; the entries the new one makes redundant so are
    /// removed, with the open entries it answers at some depth. An open entry replaces
    /// the open entry of the same hand and is stored beside final ones: they may not
    /// answer at the depth where it was found.
    pub fn store(&mut self, key: u64, hand: PackedHand, pn: u32, dn: u32, len: u16, amount: u64) {
        debug_assert!(key & 1 == 1, "board keys are odd");
        if self.shared.gate.pending() {
            self.pause(false);
        }
        let (used, tombstones) = self.counts();
        if (used + tombstones + 1) * 4 > self.capacity() * 3 {
            self.pause(true);
        }
        let generation = self.generation;
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            len,
            generation: self.generation,
            amount: amount.min(u32::MAX as u64) as u32,
        };
        // The first slot of the run that a new entry may take (a tombstone or the empty
        // slot that ends the run).
        let mut free = None;
        let mut i = self.shared.home(key);
        loop {
            let e = self.shared.load(i);
            if self.is_empty(&e) {
                free.get_or_insert(i);
                break;
            }
            if e.key == TOMBSTONE {
                free.get_or_insert(i);
                i = self.shared.next(i);
                continue;
            }
            if e.key != key {
                i = self.shared.next(i);
                continue;
            }
            let open = !e.is_final();
            let (redundant, drop) = if pn == 0 {
                (
                    e.pn == 0 && self.covers(hand, e.hand) && e.len <= len,
                    (open || e.pn == 0 && e.len >= len) && self.covers(e.hand, hand),
                )
            } else if dn == 0 {
                (
                    e.dn == 0 && self.covers(e.hand, hand) && e.len >= len,
                    (open || e.dn == 0 && e.len <= len) && self.covers(hand, e.hand),
                )
            } else {
                (false, open && e.hand == hand)
            };
            // An entry the new one would have removed is answered by the one that makes the
            // new one redundant too, so nothing is lost if both happen in one scan.
            if redundant {
                return;
            }
            if drop {
                self.shared.entries[i].rekey(&e, TOMBSTONE);
                let own = self.own();
                own.used -= 1;
                own.tombstones += 1;
                free.get_or_insert(i);
            }
            i = self.shared.next(i);
        }
        let i = free.expect("a run ends at an empty slot");
        let old = self.shared.load(i);
        let own = self.own();
        if old.key == TOMBSTONE && old.generation == generation {
            own.tombstones -= 1;
        }
        own.used += 1;
        self.shared.entries[i].store(new);
        self.flush();
    }
}

impl Drop for Table {
    /// The handle's thread no longer takes part in collections.
    fn drop(&mut self) {
        self.step_out();
    }
}

/// A [`Table`] being allocated a step at a time ([`Table::builder`]).
pub struct TableBuilder {
    memory: Memory,
    superiority: bool,
    /// Threads that write each step at once.
    writers: usize,
}

impl TableBuilder {
    /// Fills in the table until it is whole, or until `go_on` (asked before each step of
    /// 2 MiB, 16 MiB a writer with several) answers `false`; whether it is whole. A builder
    /// stopped this way can grow again.
    pub fn grow(&mut self, go_on: impl FnMut() -> bool) -> bool {
        self.memory.grow(self.writers, go_on)
    }

    /// The builder, its steps written by `writers` threads at once (at least one): for a
    /// search on that many threads ([`Table::try_new_on`]).
    pub fn writers(self, writers: usize) -> TableBuilder {
        TableBuilder {
            writers: writers.max(1),
            ..self
        }
    }

    /// The bytes written so far and the bytes of the whole table.
    pub fn progress(&self) -> (usize, usize) {
        self.memory.progress()
    }

    /// The table, once [`TableBuilder::grow`] has made it whole; else the builder back.
    pub fn finish(self) -> Result<Table, TableBuilder> {
        let (superiority, writers) = (self.superiority, self.writers);
        match self.memory.into_slots() {
            Ok(slots) => Ok(Table::with_entries(slots, superiority)),
            Err(memory) => Err(TableBuilder {
                memory,
                superiority,
                writers,
            }),
        }
    }
}

#[cfg(test)]
mod tests;
