//! A table of counts that all threads share, for the sweep's memo and the components' cache.
//!
//! A count that fits in a `u64` (on random pictures, all of them) is stored as one, so that
//! keys of whole 64-bit words make entries without padding: a key of two words and its count
//! take 24 bytes, where a `u128` count, 16-byte aligned, made them 32 or 48. A count too wide
//! goes to a second table, and the first holds [`WIDE`] for it.

use std::hash::Hash;

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::tally::Tally;

/// What the narrow table holds for a count kept in the wide one.
const WIDE: u64 = u64::MAX;

/// Counts of type `T` under keys `K`.
pub(super) struct CountTable<K, T> {
    /// Counts below [`WIDE`], and [`WIDE`] for the others.
    narrow: DashMap<K, u64, FxBuildHasher>,
    /// Counts of [`WIDE`] or more.
    wide: DashMap<K, T, FxBuildHasher>,
}

impl<K: Clone + Eq + Hash, T: Tally> CountTable<K, T> {
    pub(super) fn new() -> Self {
        CountTable {
            narrow: DashMap::with_hasher(FxBuildHasher),
            wide: DashMap::with_hasher(FxBuildHasher),
        }
    }

    /// About the memory an entry takes, without the table's slack: `(narrow, wide)`, a wide
    /// count taking an entry of each table.
    pub(super) fn entry_bytes() -> (usize, usize) {
        let narrow = size_of::<(K, u64)>() + 1;
        (narrow, narrow + size_of::<(K, T)>() + 1)
    }

    /// Whether `count` would take an entry of the wide table too.
    pub(super) fn is_wide(count: &T) -> bool {
        count.to_u64().is_none_or(|c| c == WIDE)
    }

    /// The count kept under `key`, if any.
    pub(super) fn get(&self, key: &K) -> Option<T> {
        let narrow = *self.narrow.get(key)?;
        if narrow != WIDE {
            return Some(T::from_u64(narrow));
        }
        self.wide.get(key).map(|count| count.clone())
    }

    /// Keeps `count` under `key`.
    pub(super) fn insert(&self, key: K, count: &T) {
        match count.to_u64().filter(|&c| c != WIDE) {
            Some(narrow) => {
                self.narrow.insert(key, narrow);
            }
            None => {
                // Into the wide table first: a thread that finds WIDE finds the count.
                self.wide.insert(key.clone(), count.clone());
                self.narrow.insert(key, WIDE);
            }
        }
    }

    /// Empties the table, keeping its memory for what comes next.
    pub(super) fn clear(&self) {
        self.narrow.clear();
        self.wide.clear();
    }

    /// The counts kept, and those of them in the wide table.
    #[cfg(test)]
    pub(super) fn len(&self) -> (usize, usize) {
        (self.narrow.len(), self.wide.len())
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;

    #[test]
    fn counts_of_any_width_come_back() {
        let table = CountTable::<[u64; 2], BigUint>::new();
        let counts = [
            BigUint::ZERO,
            BigUint::from(7u8),
            BigUint::from(u64::MAX - 1),
            BigUint::from(u64::MAX),
            BigUint::from(u64::MAX) * 3u8,
        ];
        for (i, count) in counts.iter().enumerate() {
            table.insert([i as u64, 1], count);
        }
        for (i, count) in counts.iter().enumerate() {
            assert_eq!(table.get(&[i as u64, 1]).as_ref(), Some(count));
            let wide = CountTable::<[u64; 2], BigUint>::is_wide(count);
            assert_eq!(wide, i >= 3, "{count}");
        }
        assert_eq!(table.get(&[9, 1]), None);
        assert_eq!(table.len(), (5, 2), "u64::MAX and beyond are wide");
        table.clear();
        assert_eq!((table.len(), table.get(&[1, 1])), ((0, 0), None));
        let (narrow, wide) = CountTable::<[u64; 2], u128>::entry_bytes();
        assert_eq!((narrow, wide), (25, 25 + 33));
    }
}
