//! The transposition table: indexed by the board alone, answering look-ups by superiority.
//!
//! A stored proof holds the proof pieces in place of the hand and answers every position
//! with the same board whose attacker hand contains them; a stored disproof holds the
//! disproof pieces and answers every position whose attacker hand they contain
//! (docs/METHOD.md §12). Other entries hold the exact hand and the current proof and
//! disproof numbers. Entries live in fixed clusters of one cache-friendly block each: the
//! table never allocates after it is made, and "clearing" it between searches is a
//! generation bump.

use crate::hand::PackedHand;
use std::collections::TryReserveError;

/// An infinite proof or disproof number: proved nodes have `(0, INF)`, disproved `(INF, 0)`.
pub const INF: u32 = u32::MAX;

/// Entries per cluster: one board key's hands share a cluster, and eight entries of 32
/// bytes are four cache lines.
const CLUSTER: usize = 8;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The board key (never 0: 0 marks an empty slot).
    key: u64,
    /// Proof pieces (proved), disproof pieces (disproved) or the exact hand (open).
    hand: PackedHand,
    pn: u32,
    dn: u32,
    /// Plies of the mate found (proved entries).
    len: u16,
    generation: u16,
    /// Nodes searched below this entry: the cheaper entry is replaced first.
    amount: u32,
}

impl Entry {
    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

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
    /// Entries overwritten to make room.
    pub replaced: u64,
}

/// The transposition table of the mate search.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u16,
    superiority: bool,
    stats: TableStats,
    /// Slots of the current generation in use.
    used: usize,
}

impl Table {
    /// A table of at least `entries` entries (rounded up to a power of two, at least one
    /// cluster). With `superiority` off, look-ups match exact hands only and proofs and
    /// disproofs store the hand itself: the ablation that shows what proof pieces buy.
    pub fn new(entries: usize, superiority: bool) -> Table {
        let clusters = (entries.max(CLUSTER) / CLUSTER).next_power_of_two();
        Table {
            entries: vec![Entry::default(); clusters * CLUSTER],
            mask: clusters - 1,
            generation: 1,
            superiority,
            stats: TableStats::default(),
            used: 0,
        }
    }

    /// [`Table::new`], but an allocation the process cannot get (an address-space limit,
    /// a size past `usize`) is an error rather than an abort.
    pub fn try_new(entries: usize, superiority: bool) -> Result<Table, TryReserveError> {
        // Past `usize`, the reservation fails as any request too large does.
        let slots = Table::slots(entries).unwrap_or(usize::MAX);
        let mut v = Vec::new();
        v.try_reserve_exact(slots)?;
        v.resize(slots, Entry::default());
        Ok(Table {
            entries: v,
            mask: slots / CLUSTER - 1,
            generation: 1,
            superiority,
            stats: TableStats::default(),
            used: 0,
        })
    }

    /// The bytes a table of at least `entries` entries allocates (`None` past `usize`): to
    /// check that tables fit in memory before making them.
    pub fn bytes_for(entries: usize) -> Option<usize> {
        Table::slots(entries)?.checked_mul(core::mem::size_of::<Entry>())
    }

    /// The entries of a table asked for `entries`: whole clusters, a power of two of them.
    fn slots(entries: usize) -> Option<usize> {
        (entries.max(CLUSTER) / CLUSTER)
            .checked_next_power_of_two()?
            .checked_mul(CLUSTER)
    }

    /// The number of entries.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Whether look-ups use superiority.
    pub fn superiority(&self) -> bool {
        self.superiority
    }

    /// Forgets every entry (in constant time: entries of older generations are empty) and
    /// the counters.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The counter wrapped: entries 65,536 generations old would look current.
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
        self.stats = TableStats::default();
        self.used = 0;
    }

    /// The counters since the last [`Table::clear`].
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// The share of entries in use by the current generation.
    pub fn fill(&self) -> f64 {
        self.used as f64 / self.entries.len() as f64
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> core::ops::Range<usize> {
        // The low bits pick the cluster; the key is a sum of random 64-bit values.
        let start = ((key >> 7) as usize & self.mask) * CLUSTER;
        start..start + CLUSTER
    }

    /// Looks up the position with board key `key` and attacker hand `hand`, `remaining`
    /// plies from the depth limit: a disproof stored with a depth bound (in its `len`)
    /// answers only when at most that many plies remain.
    #[inline]
    pub fn probe(&mut self, key: u64, hand: PackedHand, remaining: u16) -> Probe {
        let mut exact: Option<Entry> = None;
        for e in &self.entries[self.cluster(key)] {
            if e.key != key || e.generation != self.generation {
                continue;
            }
            let answers = if !self.superiority {
                e.hand == hand
            } else if e.pn == 0 {
                hand.contains(e.hand)
            } else if e.dn == 0 {
                e.hand.contains(hand)
            } else {
                false
            };
            if e.dn == 0 && remaining > e.len {
                continue;
            }
            if answers && e.is_final() {
                if e.hand == hand {
                    self.stats.exact_hits += 1;
                } else {
                    self.stats.superior_hits += 1;
                }
                return Probe {
                    pn: e.pn,
                    dn: e.dn,
                    pieces: e.hand,
                    len: e.len,
                    hit: if e.hand == hand {
                        Hit::Exact
                    } else {
                        Hit::Superior
                    },
                };
            }
            if !e.is_final() && e.hand == hand {
                exact = Some(*e);
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

    /// Stores a result for board key `key`: for a proof (`pn == 0`) `hand` must be the
    /// proof pieces and `len` the mate's length, for a disproof (`dn == 0`) the disproof
    /// pieces and `len` its depth bound (`u16::MAX`: none), else the exact hand.
    /// Entries the new one makes redundant (open entries it answers, proofs with more
    /// pieces, disproofs with fewer) are dropped.
    pub fn store(&mut self, key: u64, hand: PackedHand, pn: u32, dn: u32, len: u16, amount: u64) {
        let generation = self.generation;
        let superiority = self.superiority;
        let range = self.cluster(key);
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            len,
            generation,
            amount: amount.min(u32::MAX as u64) as u32,
        };
        let new_final = pn == 0 || dn == 0;
        let mut slot = None;
        for i in range.clone() {
            let e = &mut self.entries[i];
            if e.key == 0 || e.generation != generation {
                slot.get_or_insert(i);
                continue;
            }
            if e.key != key {
                continue;
            }
            let drop = if !new_final || !superiority {
                if e.hand == hand && e.is_final() {
                    // A final result for the same hand stays (an open one never overwrites
                    // it; without superiority a second proof or disproof adds nothing),
                    // except a disproof that holds only near the depth limit: a proof, or
                    // a disproof with a wider bound, found where more plies were left
                    // replaces it (kept, it would hide them from every look-up with more
                    // plies left, and they would be searched again each time).
                    let bounded = e.dn == 0 && e.len != u16::MAX;
                    if !(new_final && bounded && (pn == 0 || len > e.len)) {
                        return;
                    }
                }
                e.hand == hand
            } else if pn == 0 {
                if e.pn == 0 && hand.contains(e.hand) {
                    // A proof with fewer pieces already answers all this one would.
                    return;
                }
                // Open entries it answers, and proofs with more pieces.
                e.dn != 0 && e.hand.contains(hand)
            } else {
                // `len` is a disproof's depth bound: a wider one is the stronger.
                if e.dn == 0 && e.hand.contains(hand) && e.len >= len {
                    return;
                }
                // Open entries it answers, and disproofs with fewer pieces and no wider bound.
                e.pn != 0 && e.dn != 0 && hand.contains(e.hand)
                    || e.dn == 0 && hand.contains(e.hand) && len >= e.len
            };
            if drop {
                *e = Entry::default();
                self.used -= 1;
                slot.get_or_insert(i);
            }
        }
        let i = match slot {
            Some(i) => {
                self.used += 1;
                i
            }
            None => {
                self.stats.replaced += 1;
                // The least searched open entry goes first, then the least searched.
                range
                    .min_by_key(|&i| {
                        let e = &self.entries[i];
                        (e.is_final(), e.amount)
                    })
                    .expect("a cluster has entries")
            }
        };
        self.entries[i] = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hand::packed as hand;

    #[test]
    fn a_table_too_large_is_an_error_and_sizes_are_known_before() {
        assert!(Table::try_new(usize::MAX, true).is_err());
        assert!(Table::try_new(usize::MAX / 64, false).is_err());
        assert_eq!(Table::bytes_for(usize::MAX), None);
        let t = Table::try_new(1000, true).expect("a small table");
        assert_eq!(t.capacity(), 1024);
        assert_eq!(
            Table::bytes_for(1000),
            Some(1024 * core::mem::size_of::<Entry>())
        );
        assert_eq!(Table::new(1000, true).capacity(), t.capacity());
    }

    #[test]
    fn a_proof_answers_superior_hands_and_a_disproof_inferior_ones() {
        let mut t = Table::new(1 << 10, true);
        let gold = hand([0, 0, 0, 0, 1, 0, 0]);
        t.store(77, gold, 0, INF, 1, 5);
        let rich = hand([3, 0, 0, 1, 2, 0, 1]);
        let p = t.probe(77, rich, u16::MAX);
        assert_eq!((p.pn, p.dn, p.pieces, p.hit), (0, INF, gold, Hit::Superior));
        assert_eq!(t.probe(77, gold, u16::MAX).hit, Hit::Exact);
        assert_eq!(
            t.probe(77, hand([3, 0, 0, 1, 0, 0, 1]), u16::MAX).hit,
            Hit::Miss
        );
        assert_eq!(t.probe(78, rich, u16::MAX).hit, Hit::Miss);

        let d = hand([2, 0, 0, 0, 0, 0, 0]);
        t.store(99, d, INF, 0, u16::MAX, 5);
        assert_eq!(t.probe(99, hand([1, 0, 0, 0, 0, 0, 0]), u16::MAX).dn, 0);
        assert_eq!(t.probe(99, PackedHand::EMPTY, u16::MAX).dn, 0);
        assert_eq!(
            t.probe(99, hand([1, 0, 0, 0, 0, 0, 1]), u16::MAX).hit,
            Hit::Miss
        );
        let stats = t.stats();
        assert_eq!((stats.exact_hits, stats.superior_hits), (1, 3));
    }

    /// A disproof that rests on the depth limit answers only as deep or deeper.
    #[test]
    fn a_bounded_disproof_answers_only_within_its_bound() {
        let mut t = Table::new(64, true);
        let h = hand([1, 0, 0, 0, 0, 0, 0]);
        t.store(9, h, INF, 0, 5, 1);
        assert_eq!(t.probe(9, h, 5).dn, 0);
        assert_eq!(t.probe(9, h, 3).dn, 0);
        assert_eq!(t.probe(9, h, 6).hit, Hit::Miss);
        // An unbounded disproof replaces it; a bounded one never replaces an unbounded.
        t.store(9, h, INF, 0, u16::MAX, 1);
        assert_eq!(t.probe(9, h, 100).dn, 0);
        t.store(9, h, INF, 0, 2, 1);
        assert_eq!(t.probe(9, h, 100).dn, 0);
    }

    #[test]
    fn without_superiority_only_the_exact_hand_answers() {
        let mut t = Table::new(64, false);
        let gold = hand([0, 0, 0, 0, 1, 0, 0]);
        t.store(77, gold, 0, INF, 1, 5);
        assert_eq!(
            t.probe(77, hand([0, 0, 0, 0, 2, 0, 0]), u16::MAX).hit,
            Hit::Miss
        );
        assert_eq!(t.probe(77, gold, u16::MAX).pn, 0);
    }

    #[test]
    fn open_entries_update_and_never_overwrite_a_final_one() {
        let mut t = Table::new(64, true);
        let h = hand([1, 0, 0, 0, 0, 0, 0]);
        t.store(5, h, 3, 4, 0, 1);
        assert_eq!(
            (t.probe(5, h, u16::MAX).pn, t.probe(5, h, u16::MAX).dn),
            (3, 4)
        );
        t.store(5, h, 6, 2, 0, 2);
        assert_eq!(
            (t.probe(5, h, u16::MAX).pn, t.probe(5, h, u16::MAX).dn),
            (6, 2)
        );
        t.store(5, h, 0, INF, 3, 9);
        t.store(5, h, 7, 7, 0, 1);
        assert_eq!(t.probe(5, h, u16::MAX).pn, 0);
        t.clear();
        assert_eq!(t.probe(5, h, u16::MAX).hit, Hit::Miss);
    }

    /// Without superiority, a proof or a wider disproof replaces a disproof bounded by the
    /// depth limit for the same hand; an unbounded disproof or a proof stays.
    #[test]
    fn a_bounded_disproof_gives_way_to_a_proof_or_a_wider_one() {
        let mut t = Table::new(64, false);
        let h = hand([1, 0, 0, 0, 0, 0, 0]);
        t.store(5, h, INF, 0, 2, 1);
        t.store(5, h, INF, 0, 1, 1);
        assert_eq!(t.probe(5, h, 2).dn, 0, "a narrower bound does not replace");
        t.store(5, h, INF, 0, 4, 1);
        assert_eq!(t.probe(5, h, 4).dn, 0, "a wider bound replaces");
        t.store(5, h, 0, INF, 7, 1);
        let p = t.probe(5, h, u16::MAX);
        assert_eq!((p.pn, p.len), (0, 7), "a proof replaces a bounded disproof");
        t.store(5, h, INF, 0, 6, 1);
        assert_eq!(
            t.probe(5, h, 3).pn,
            0,
            "a bounded disproof does not replace a proof"
        );
        t.store(6, h, INF, 0, u16::MAX, 1);
        t.store(6, h, 0, INF, 3, 1);
        assert_eq!(t.probe(6, h, u16::MAX).dn, 0, "an unbounded disproof stays");
    }

    #[test]
    fn a_full_cluster_replaces_the_least_searched_open_entry() {
        let mut t = Table::new(8, true);
        for n in 0..8u8 {
            t.store(1, hand([n, 0, 0, 0, 0, 0, 0]), 2, 2, 0, 100 + n as u64);
        }
        t.store(1, hand([0, 1, 0, 0, 0, 0, 0]), 2, 2, 0, 50);
        assert_eq!(
            t.probe(1, hand([0, 0, 0, 0, 0, 0, 0]), u16::MAX).hit,
            Hit::Miss
        );
        assert_eq!(
            t.probe(1, hand([1, 0, 0, 0, 0, 0, 0]), u16::MAX).hit,
            Hit::Exact
        );
        assert_eq!(t.stats().replaced, 1);
    }
}
