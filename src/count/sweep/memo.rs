//! The sweep's memo: each residual problem's count under its packed key, within a memory
//! budget that the sweeps of one count share.
//!
//! Counts that fit in a `u64` (on random pictures, all of them) are stored as one, so that an
//! entry of a 25x25 picture, whose key takes two words, takes three words and no padding
//! (a `u128` count took five words and one of padding). A count too wide for a `u64` goes to a
//! second table, and the first holds [`WIDE`] for it.

use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::super::key::Key;
use super::super::tally::Tally;

/// The memory that the memos of a count's sweeps may take together, in bytes, as they estimate
/// it.
#[derive(Debug)]
pub(in crate::count) struct MemoBudget {
    /// Bytes taken.
    taken: AtomicUsize,
    /// The most bytes they may take.
    limit: usize,
}

impl MemoBudget {
    /// A budget of `limit` bytes.
    pub(in crate::count) fn new(limit: usize) -> Self {
        MemoBudget {
            taken: AtomicUsize::new(0),
            limit,
        }
    }

    /// Takes `bytes` from the budget, or returns `false` if that would exceed it.
    fn take(&self, bytes: usize) -> bool {
        self.taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |taken| {
                let after = taken.saturating_add(bytes);
                (after <= self.limit).then_some(after)
            })
            .is_ok()
    }

    /// Gives `bytes` back.
    fn give_back(&self, bytes: usize) {
        self.taken.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// What the narrow table holds for a count kept in the wide one.
const WIDE: u64 = u64::MAX;

/// The counts of residual problems, keyed by `K`, in counts of type `T`.
pub(super) struct SweepMemo<'b, K, T> {
    /// Counts below [`WIDE`], and [`WIDE`] for the others.
    narrow: DashMap<K, u64, FxBuildHasher>,
    /// Counts of [`WIDE`] or more.
    wide: DashMap<K, T, FxBuildHasher>,
    /// Bytes taken from `budget`.
    taken: AtomicUsize,
    /// About the memory an entry of each table takes.
    narrow_bytes: usize,
    wide_bytes: usize,
    budget: &'b MemoBudget,
}

impl<'b, K: Key, T: Tally> SweepMemo<'b, K, T> {
    /// An empty memo taking its memory from `budget`; `fields` is the number of classes a key
    /// holds (which sizes a boxed key).
    pub(super) fn new(budget: &'b MemoBudget, fields: usize) -> Self {
        // An entry: the key and count, a control byte, the table's slack (half as much again
        // on average), and a boxed key's allocation.
        let boxed = if K::PACKED { 0 } else { 16 + 2 * fields };
        SweepMemo {
            narrow: DashMap::with_hasher(FxBuildHasher),
            wide: DashMap::with_hasher(FxBuildHasher),
            taken: AtomicUsize::new(0),
            narrow_bytes: 3 * (size_of::<(K, u64)>() + 1) / 2 + boxed,
            wide_bytes: 3 * (size_of::<(K, T)>() + 1) / 2 + boxed,
            budget,
        }
    }

    /// The count kept for `key`, if any.
    pub(super) fn get(&self, key: &K) -> Option<T> {
        let narrow = *self.narrow.get(key)?;
        if narrow != WIDE {
            return Some(T::from_u64(narrow));
        }
        self.wide.get(key).map(|count| count.clone())
    }

    /// Keeps `count` for `key`; `false` (keeping nothing) if the budget has no room for it.
    pub(super) fn insert(&self, key: K, count: &T) -> bool {
        match count.to_u64().filter(|&c| c != WIDE) {
            Some(narrow) => {
                if !self.take(self.narrow_bytes) {
                    return false;
                }
                self.narrow.insert(key, narrow);
            }
            None => {
                if !self.take(self.narrow_bytes + self.wide_bytes) {
                    return false;
                }
                // Into the wide table first: a thread that finds WIDE finds the count.
                self.wide.insert(key.clone(), count.clone());
                self.narrow.insert(key, WIDE);
            }
        }
        true
    }

    fn take(&self, bytes: usize) -> bool {
        let took = self.budget.take(bytes);
        if took {
            self.taken.fetch_add(bytes, Ordering::Relaxed);
        }
        took
    }
}

impl<K, T> Drop for SweepMemo<'_, K, T> {
    fn drop(&mut self) {
        self.budget.give_back(self.taken.load(Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;

    #[test]
    fn counts_of_any_width_come_back() {
        let budget = MemoBudget::new(1 << 20);
        let memo = SweepMemo::<[u64; 2], BigUint>::new(&budget, 3);
        let wide = BigUint::from(u64::MAX) * 3u8;
        let counts = [
            BigUint::ZERO,
            BigUint::from(7u8),
            BigUint::from(u64::MAX - 1),
            BigUint::from(u64::MAX),
            wide,
        ];
        for (i, count) in counts.iter().enumerate() {
            assert!(memo.insert([i as u64, 1], count));
        }
        for (i, count) in counts.iter().enumerate() {
            assert_eq!(memo.get(&[i as u64, 1]).as_ref(), Some(count));
        }
        assert_eq!(memo.get(&[9, 1]), None);
        assert_eq!(memo.wide.len(), 2, "u64::MAX and beyond");
    }

    #[test]
    fn a_full_budget_keeps_nothing_and_a_dropped_memo_gives_its_bytes_back() {
        let budget = MemoBudget::new(100);
        {
            let memo = SweepMemo::<u64, u128>::new(&budget, 1);
            let mut kept = 0;
            while memo.insert(kept, &5) {
                kept += 1;
            }
            assert_eq!(kept as usize, 100 / memo.narrow_bytes);
            assert!(!memo.insert(kept, &u128::MAX), "no room for a wide one");
            assert_eq!(memo.get(&kept), None);
            assert_eq!(memo.narrow.len(), kept as usize);
        }
        assert_eq!(budget.taken.load(Ordering::Relaxed), 0);
    }
}
