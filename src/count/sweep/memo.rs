//! The sweep's memo: each residual problem's count under its packed key (on a random 25x25
//! picture, two words and a one-word count: see [`CountTable`]), within a memory budget that
//! the sweeps of one count share.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::super::count_table::CountTable;
use super::super::key::Key;
use super::super::tally::Tally;

/// The memory that the memos of a count's sweeps may take together, in bytes, as they estimate
/// it.
#[derive(Debug)]
pub(in crate::count) struct MemoBudget {
    /// Bytes taken.
    taken: AtomicUsize,
    /// The most bytes taken at once so far.
    peak: AtomicUsize,
    /// The most bytes they may take.
    limit: usize,
}

impl MemoBudget {
    /// A budget of `limit` bytes.
    pub(in crate::count) fn new(limit: usize) -> Self {
        MemoBudget {
            taken: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            limit,
        }
    }

    /// The most bytes the memos took at once so far, and the most they may take.
    pub(in crate::count) fn use_and_limit(&self) -> (usize, usize) {
        (self.peak.load(Ordering::Relaxed), self.limit)
    }

    /// Takes `bytes` from the budget, or returns `false` if that would exceed it.
    fn take(&self, bytes: usize) -> bool {
        let taken = self
            .taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |taken| {
                let after = taken.saturating_add(bytes);
                (after <= self.limit).then_some(after)
            });
        match taken {
            Ok(before) => {
                self.peak.fetch_max(before + bytes, Ordering::Relaxed);
                true
            }
            Err(_) => false,
        }
    }

    /// Gives `bytes` back.
    fn give_back(&self, bytes: usize) {
        self.taken.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// The counts of residual problems, keyed by `K`, in counts of type `T`, within a budget.
pub(super) struct SweepMemo<'b, K, T> {
    table: CountTable<K, T>,
    /// Bytes taken from `budget`.
    taken: AtomicUsize,
    /// About the memory a count takes in the narrow table, and in both.
    narrow_bytes: usize,
    wide_bytes: usize,
    budget: &'b MemoBudget,
}

impl<'b, K: Key, T: Tally> SweepMemo<'b, K, T> {
    /// An empty memo taking its memory from `budget`; `fields` is the number of classes a key
    /// holds (which sizes a boxed key).
    pub(super) fn new(budget: &'b MemoBudget, fields: usize) -> Self {
        // An entry, with the table's slack (half as much again on average), and a boxed key's
        // allocation.
        let boxed = if K::PACKED { 0 } else { 16 + 2 * fields };
        let (narrow, wide) = CountTable::<K, T>::entry_bytes();
        SweepMemo {
            table: CountTable::new(),
            taken: AtomicUsize::new(0),
            narrow_bytes: 3 * narrow / 2 + boxed,
            wide_bytes: 3 * wide / 2 + 2 * boxed,
            budget,
        }
    }

    /// The count kept for `key`, if any.
    pub(super) fn get(&self, key: &K) -> Option<T> {
        self.table.get(key)
    }

    /// Keeps `count` for `key`; `false` (keeping nothing) if the budget has no room for it.
    pub(super) fn insert(&self, key: K, count: &T) -> bool {
        let bytes = if CountTable::<K, T>::is_wide(count) {
            self.wide_bytes
        } else {
            self.narrow_bytes
        };
        if !self.budget.take(bytes) {
            return false;
        }
        self.taken.fetch_add(bytes, Ordering::Relaxed);
        self.table.insert(key, count);
        true
    }
}

impl<K, T> Drop for SweepMemo<'_, K, T> {
    fn drop(&mut self) {
        self.budget.give_back(self.taken.load(Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_budget_keeps_nothing_a_dropped_memo_gives_its_bytes_back_and_the_peak_stays() {
        let budget = MemoBudget::new(100);
        let peak = {
            let memo = SweepMemo::<u64, u128>::new(&budget, 1);
            let mut kept = 0;
            while memo.insert(kept, &5) {
                kept += 1;
            }
            assert_eq!(kept as usize, 100 / memo.narrow_bytes);
            assert!(!memo.insert(kept, &u128::MAX), "no room for a wide one");
            assert_eq!(memo.get(&kept), None);
            assert_eq!(memo.table.len(), (kept as usize, 0));
            kept as usize * memo.narrow_bytes
        };
        assert_eq!(budget.taken.load(Ordering::Relaxed), 0);
        assert_eq!(
            budget.use_and_limit(),
            (peak, 100),
            "the most taken at once"
        );
    }
}
