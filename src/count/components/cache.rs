//! The components' cache of counted residual problems, bounded in memory. Half an hour of
//! *Nature* cached 55.7 million of them, and a count left for hours would outgrow the machine, so
//! the cache keeps two generations: once the young one holds its half of the budget, the old
//! one is emptied and becomes the young one. A count stays exact, as the cache only saves
//! work; a residual problem found in the old generation moves back to the young one.

use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

/// Counts of residual problems under their digests, in two generations.
pub(crate) struct ComponentCache<T> {
    generations: [DashMap<u128, T, FxBuildHasher>; 2],
    /// Which of `generations` is the young one.
    young_at: AtomicUsize,
    /// Entries put in the young generation since it was made.
    young: AtomicUsize,
    /// The most entries a generation holds.
    per_generation: usize,
}

/// How many times its key and count an entry takes, at most: a hash table of a power of two
/// of buckets, at most 7/8 full, takes up to 16/7 of its entries' bytes just after doubling.
const SLACK: usize = 3;

/// The fewest entries a generation holds, whatever the budget.
const FEWEST: usize = 1 << 10;

impl<T: Clone> ComponentCache<T> {
    /// An empty cache whose entries take about `bytes` at most.
    pub(crate) fn new(bytes: usize) -> Self {
        let entry = SLACK * (size_of::<(u128, T)>() + 1);
        ComponentCache {
            generations: [DashMap::default(), DashMap::default()],
            young_at: AtomicUsize::new(0),
            young: AtomicUsize::new(0),
            per_generation: (bytes / 2 / entry).max(FEWEST),
        }
    }

    /// The count cached under `key`, if any.
    pub(crate) fn get(&self, key: u128) -> Option<T> {
        let young = self.young_at.load(Ordering::Relaxed) & 1;
        if let Some(count) = self.generations[young].get(&key) {
            return Some(count.clone());
        }
        let count = self.generations[1 - young].get(&key)?.clone();
        self.insert(key, count.clone());
        Some(count)
    }

    /// Caches `count` under `key`; the insert that fills the young generation turns the
    /// generations over: the old one is emptied (its tables kept) and becomes the young one.
    /// A thread that still inserts into the generation just made old loses nothing.
    pub(crate) fn insert(&self, key: u128, count: T) {
        let young = self.young_at.load(Ordering::Relaxed) & 1;
        self.generations[young].insert(key, count);
        if self.young.fetch_add(1, Ordering::Relaxed) + 1 == self.per_generation {
            self.generations[1 - young].clear();
            self.young_at.store(1 - young, Ordering::Relaxed);
            self.young.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_the_last_two_generations_and_what_was_used_again() {
        let cache = ComponentCache::<u64>::new(0);
        assert_eq!(cache.per_generation, FEWEST);
        let n = FEWEST as u128;
        for key in 0..n {
            cache.insert(key, key as u64 * 2);
        }
        // The first generation is old now: still found, and key 5 moves back to the young.
        assert_eq!(cache.get(5), Some(10));
        assert_eq!(cache.get(n), None);
        for key in n..2 * n - 1 {
            cache.insert(key, 0);
        }
        // The second generation filled: the first is gone, but for key 5.
        assert_eq!(cache.get(4), None);
        assert_eq!(cache.get(5), Some(10));
        assert_eq!(cache.get(n), Some(0));
        // A budget gives a generation its half, at a few times an entry's bytes each.
        let entry = SLACK * (size_of::<(u128, u128)>() + 1);
        assert_eq!(
            ComponentCache::<u128>::new(1 << 30).per_generation,
            (1 << 29) / entry
        );
    }
}
