//! A set of exact keys with a deterministic hash, so that runs repeat exactly.

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

/// A deterministic 64-bit mix of a key (no random state: runs must repeat exactly).
#[inline]
fn hash_key(k: u128) -> u64 {
    let mut x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Exact keys in a hash table, stored inline (a probe touches the table only, not a table
/// slot and then a separate key array), in 8 bytes when the material allows.
pub(crate) enum Keys {
    Narrow(HashTable<u64>),
    Wide(HashTable<u128>),
}

impl Keys {
    pub(crate) fn new(bits: u32) -> Self {
        if bits <= 64 {
            Keys::Narrow(HashTable::new())
        } else {
            Keys::Wide(HashTable::new())
        }
    }

    pub(crate) fn contains(&self, key: u128) -> bool {
        match self {
            Keys::Narrow(t) => t.find(hash_key(key), |&k| u128::from(k) == key).is_some(),
            Keys::Wide(t) => t.find(hash_key(key), |&k| k == key).is_some(),
        }
    }

    /// Adds a key; `false` if it was already there.
    pub(crate) fn insert(&mut self, key: u128) -> bool {
        let hash = hash_key(key);
        match self {
            Keys::Narrow(t) => {
                let rehash = |&k: &u64| hash_key(u128::from(k));
                match t.entry(hash, |&k| u128::from(k) == key, rehash) {
                    Entry::Occupied(_) => false,
                    Entry::Vacant(v) => {
                        v.insert(key as u64);
                        true
                    }
                }
            }
            Keys::Wide(t) => match t.entry(hash, |&k| k == key, |&k| hash_key(k)) {
                Entry::Occupied(_) => false,
                Entry::Vacant(v) => {
                    v.insert(key);
                    true
                }
            },
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Keys::Narrow(t) => t.len(),
            Keys::Wide(t) => t.len(),
        }
    }

    /// Every key, in the table's order (fixed by the insertion sequence, since the hash
    /// has no random state).
    pub(crate) fn iter(&self) -> impl Iterator<Item = u128> + '_ {
        let (narrow, wide) = match self {
            Keys::Narrow(t) => (Some(t.iter().map(|&k| u128::from(k))), None),
            Keys::Wide(t) => (None, Some(t.iter().copied())),
        };
        narrow
            .into_iter()
            .flatten()
            .chain(wide.into_iter().flatten())
    }
}
