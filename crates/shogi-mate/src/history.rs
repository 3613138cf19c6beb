//! The positions on the current path of a search, for graph-history interaction
//! (docs/METHOD.md §11.2): a position met again on the path is a repetition, which never
//! mates, and a disproof that rests on such a repetition above its node holds only where
//! the positions it rested on are on the path again.
//!
//! Such a disproof is kept apart from the table, keyed by its position and by the part of
//! the path it rested on: the shallowest repeated position (the anchor) and every position
//! from it down to the node's parent, as an order-free hash (the sum of their keys). It is
//! reused only where the anchor is on the path and the positions from it down to the parent
//! are the same. Every repetition it used is then there again (each was of a position at or
//! below the anchor, on that part of the path or below the node, where the search makes it
//! again), and a repetition only ever helps the defender, so the disproof holds. Keyed by
//! the anchor alone, as it was, a disproof that also used a deeper repetition was reused on
//! paths that lacked it: a false no-mate by construction.

use crate::keys::{KeyHasher, KeyMap};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A disproof that rests on a repetition above its node (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RepEntry {
    /// The key of the shallowest repeated position the disproof used.
    pub anchor: u64,
    /// The sum of the keys of the positions from the anchor down to the node's parent.
    pub segment: u64,
    /// The disproof's depth bound (as in the table).
    pub bound: u16,
}

/// How many path-dependent disproofs are kept per position. One was too few: in a cycle of
/// checks the same positions are met again deeper, each meeting rests on another part of
/// the path, and with one slot the deeper disproof replaced the shallower one that the
/// search above still needed, so two siblings could search each other's replacements in
/// turn for ever (a position of `testdata/mate/shogi_random.tsv` ran 30 million nodes).
const REP_WAYS: usize = 4;

/// The path-dependent disproofs of a search, by the position's full key: up to
/// [`REP_WAYS`] per position, each with the part of the path it rests on, the oldest
/// replaced first.
#[derive(Default)]
pub(crate) struct RepTable {
    map: HashMap<u64, RepSlots, BuildHasherDefault<KeyHasher>>,
}

#[derive(Clone, Copy)]
struct RepSlots {
    entries: [RepEntry; REP_WAYS],
    len: u8,
    /// The slot the next new entry replaces once all are used.
    next: u8,
}

impl RepTable {
    /// The most positions held before the table is emptied (a bound on its memory).
    const MAX_POSITIONS: usize = 1 << 20;

    /// Forgets every disproof.
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// Keeps the disproof `e` of the position `key`; for an entry resting on the same part
    /// of the path, the larger depth bound (both disproofs hold).
    pub fn insert(&mut self, key: u64, e: RepEntry) {
        if self.map.len() >= Self::MAX_POSITIONS && !self.map.contains_key(&key) {
            self.map.clear();
        }
        let slots = self.map.entry(key).or_insert(RepSlots {
            entries: [e; REP_WAYS],
            len: 0,
            next: 0,
        });
        let used = &mut slots.entries[..slots.len as usize];
        if let Some(same) = used
            .iter_mut()
            .find(|x| x.anchor == e.anchor && x.segment == e.segment)
        {
            same.bound = same.bound.max(e.bound);
        } else if (slots.len as usize) < REP_WAYS {
            slots.entries[slots.len as usize] = e;
            slots.len += 1;
        } else {
            slots.entries[slots.next as usize] = e;
            slots.next = (slots.next + 1) % REP_WAYS as u8;
        }
    }

    /// A disproof of the position `key`, as a child of the node at depth `parent` of
    /// `history`, that holds there with at least `remaining` plies left: the depth of its
    /// anchor and its bound.
    pub fn find(
        &self,
        key: u64,
        history: &History,
        parent: u32,
        remaining: u16,
    ) -> Option<(u32, u16)> {
        let slots = self.map.get(&key)?;
        slots.entries[..slots.len as usize]
            .iter()
            .filter(|e| remaining <= e.bound)
            .find_map(|e| Some((history.holds(e, parent)?, e.bound)))
    }
}

/// The current path: each position's depth (the root is at depth 1) and running sums of
/// the keys by depth.
#[derive(Default)]
pub(crate) struct History {
    depth_of: KeyMap,
    /// `keys[d - 1]`: the key of the position at depth `d` (entries past the current
    /// node's depth are stale until overwritten).
    keys: Vec<u64>,
    /// `sums[d]`: the sum of `keys[..d]`, so that `sums.len() == keys.len() + 1`.
    sums: Vec<u64>,
}

impl History {
    /// An empty path.
    pub fn new() -> History {
        History {
            depth_of: KeyMap::default(),
            keys: Vec::with_capacity(256),
            sums: vec![0],
        }
    }

    /// Forgets the path.
    pub fn clear(&mut self) {
        self.depth_of.clear();
        self.keys.clear();
        self.sums.truncate(1);
    }

    /// Starts a search at depth `depth` below a path of unknown positions: they stand for
    /// nothing that can repeat (key 0).
    pub fn pad_to(&mut self, depth: u32) {
        self.clear();
        self.keys.resize(depth as usize - 1, 0);
        self.sums.resize(depth as usize, 0);
    }

    /// The position `key` is the node at depth `depth` of the path.
    pub fn enter(&mut self, key: u64, depth: u32) {
        let d = depth as usize;
        self.depth_of.insert(key, depth);
        self.keys.truncate(d - 1);
        self.keys.push(key);
        self.sums.truncate(d);
        let below = self.sums[d - 1];
        self.sums.push(below.wrapping_add(key));
    }

    /// The search has left the position `key`.
    pub fn leave(&mut self, key: u64) {
        self.depth_of.remove(&key);
    }

    /// The depth of `key` on the path, if it is on it: a repetition.
    pub fn depth(&self, key: u64) -> Option<u32> {
        self.depth_of.get(&key).copied()
    }

    /// The entry for a disproof of the node at depth `depth` that rests on the repeated
    /// position at depth `rep` (`1 <= rep < depth`), with depth bound `bound`.
    pub fn rest_on(&self, rep: u32, depth: u32, bound: u16) -> RepEntry {
        let (r, d) = (rep as usize, depth as usize);
        RepEntry {
            anchor: self.keys[r - 1],
            segment: self.sums[d - 1].wrapping_sub(self.sums[r - 1]),
            bound,
        }
    }

    /// Whether `e` holds for a child of the node at depth `parent`: the depth of its anchor
    /// on the path when the positions from the anchor down to `parent` are those it rested
    /// on, else `None`.
    pub fn holds(&self, e: &RepEntry, parent: u32) -> Option<u32> {
        let a = self.depth(e.anchor)?;
        let p = parent as usize;
        if a > parent || self.sums.len() <= p {
            return None;
        }
        let segment = self.sums[p].wrapping_sub(self.sums[a as usize - 1]);
        (segment == e.segment).then_some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks `keys` down from the root, the last one the node whose parent asks.
    fn path(keys: &[u64]) -> History {
        let mut h = History::new();
        for (i, &k) in keys.iter().enumerate() {
            h.enter(k, i as u32 + 1);
        }
        h
    }

    /// The case the anchor alone got wrong: a disproof of N found below A, X, B, resting on
    /// repetitions of A and of B, is keyed by its anchor A; on the path A, Y, B it holds
    /// again only if the positions from A down are the same.
    #[test]
    fn a_disproof_holds_only_where_its_repetitions_are_on_the_path() {
        let (a, x, y, b) = (11, 22, 33, 44);
        // Found at depth 4 (N below A, X, B), resting on A at depth 1.
        let found = path(&[a, x, b]);
        let e = found.rest_on(1, 4, u16::MAX);
        assert_eq!(e.anchor, a);
        // The same path: it holds, anchored at depth 1.
        assert_eq!(path(&[a, x, b]).holds(&e, 3), Some(1));
        // A path that has A but not X: the disproof may have used a repetition of X (or B):
        // not reused. The old keying (the anchor on the path) reused it here.
        let other = path(&[a, y, b]);
        assert!(other.depth(a).is_some());
        assert_eq!(other.holds(&e, 3), None);
        // Deeper, with the same part from A down: it holds, anchored where A now is.
        assert_eq!(path(&[y, a, x, b]).holds(&e, 4), Some(2));
        // A above the parent no longer (left the path): not reused.
        let mut left = path(&[a, x, b]);
        left.leave(a);
        assert_eq!(left.holds(&e, 3), None);
    }

    /// The same position's disproofs on two parts of the path are both kept: the one the
    /// search above needs is not replaced by one found deeper.
    #[test]
    fn a_position_keeps_its_disproofs_for_several_paths() {
        let (a, x, b, y, n) = (11, 22, 44, 55, 99);
        let shallow = path(&[a, x]);
        let deep = path(&[a, x, b, y]);
        let mut t = RepTable::default();
        t.insert(n, shallow.rest_on(1, 3, u16::MAX));
        t.insert(n, deep.rest_on(3, 5, 7));
        // On the deep path both hold (the first one found is returned); on the shallow one
        // only the first.
        assert_eq!(t.find(n, &shallow, 2, 100), Some((1, u16::MAX)));
        assert_eq!(t.find(n, &path(&[x, b, y]), 3, 7), Some((2, 7)));
        // The deeper one's bound is 7: not with more plies left.
        assert_eq!(t.find(n, &path(&[x, b, y]), 3, 8), None);
        assert_eq!(t.find(n, &path(&[x, b]), 2, 0), None);
        // The same part of the path again: one entry, with the larger bound.
        t.insert(n, deep.rest_on(3, 5, 9));
        assert_eq!(t.find(n, &path(&[x, b, y]), 3, 9), Some((2, 9)));
        // Once REP_WAYS more are kept, the oldest goes.
        for k in 0..REP_WAYS as u64 {
            t.insert(n, path(&[100 + k, 200 + k]).rest_on(1, 3, u16::MAX));
        }
        assert_eq!(t.find(n, &shallow, 2, 0), None);
        assert_eq!(t.find(n, &path(&[100, 200]), 2, 0), Some((1, u16::MAX)));
    }

    #[test]
    fn the_sums_follow_the_path_as_it_changes() {
        let mut h = path(&[1, 2, 3, 4]);
        // Back up to depth 2 and down another way: the stale depths are replaced.
        h.leave(4);
        h.leave(3);
        h.enter(7, 3);
        let e = h.rest_on(2, 4, 9);
        assert_eq!(e.segment, 2 + 7);
        assert_eq!(e.bound, 9);
        assert_eq!(h.holds(&e, 3), Some(2));
        // A padded path: unknown positions above, none of which repeats.
        let mut p = History::new();
        p.pad_to(5);
        p.enter(2, 5);
        p.enter(7, 6);
        assert_eq!(p.holds(&e, 6), Some(5));
        assert_eq!(p.depth(0), None);
    }
}
