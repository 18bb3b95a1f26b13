//! The components' cache of counted residual problems, bounded in memory. Half an hour of
//! *Nature* cached 55.7 million of them, and a count left for hours would outgrow the machine, so
//! the cache keeps two generations: once the young one holds its half of the budget, the old
//! one is emptied and becomes the young one. A count stays exact, as the cache only saves
//! work; a residual problem found in the old generation moves back to the young one.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::count::count_table::CountTable;
use crate::count::tally::Tally;

/// A digest as a key of two words, so that an entry with a one-word count has no padding.
type Digest = [u64; 2];

/// The two words of a 128-bit digest.
fn digest(key: u128) -> Digest {
    [key as u64, (key >> 64) as u64]
}

/// Counts of residual problems under their digests, in two generations.
pub(crate) struct ComponentCache<T> {
    generations: [CountTable<Digest, T>; 2],
    /// Which of `generations` is the young one.
    young_at: AtomicUsize,
    /// Entries put in the young generation since it was made.
    young: AtomicUsize,
    /// The most entries a generation holds.
    per_generation: usize,
}

/// How many times its key and count an entry takes, at most: a hash table of a power of two
/// of buckets, at most 7/8 full, takes up to 16/7 of its entries' bytes just after doubling.
/// (Counts too wide for a `u64`, which take more, are rare enough not to count.)
const SLACK: usize = 3;

/// The fewest entries a generation holds, whatever the budget.
const FEWEST: usize = 1 << 10;

impl<T: Tally> ComponentCache<T> {
    /// An empty cache whose entries take about `bytes` at most.
    pub(crate) fn new(bytes: usize) -> Self {
        let entry = SLACK * CountTable::<Digest, T>::entry_bytes().0;
        ComponentCache {
            generations: [CountTable::new(), CountTable::new()],
            young_at: AtomicUsize::new(0),
            young: AtomicUsize::new(0),
            per_generation: (bytes / 2 / entry).max(FEWEST),
        }
    }

    /// The count cached under `key`, if any.
    pub(crate) fn get(&self, key: u128) -> Option<T> {
        let (young, key) = (self.young_at.load(Ordering::Relaxed) & 1, digest(key));
        if let Some(count) = self.generations[young].get(&key) {
            return Some(count);
        }
        let count = self.generations[1 - young].get(&key)?;
        self.keep(key, &count);
        Some(count)
    }

    /// Caches `count` under `key`; the insert that fills the young generation turns the
    /// generations over: the old one is emptied (its tables kept) and becomes the young one.
    /// A thread that still inserts into the generation just made old loses nothing.
    pub(crate) fn insert(&self, key: u128, count: &T) {
        self.keep(digest(key), count);
    }

    /// [`Self::insert`], under the digest's words.
    fn keep(&self, key: Digest, count: &T) {
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
        let cache = ComponentCache::<u128>::new(0);
        assert_eq!(cache.per_generation, FEWEST);
        let n = FEWEST as u128;
        for key in 0..n {
            cache.insert(key, &(key * 2));
        }
        // The first generation is old now: still found, and key 5 moves back to the young.
        assert_eq!(cache.get(5), Some(10));
        assert_eq!(cache.get(n), None);
        for key in n..2 * n - 1 {
            cache.insert(key, &0);
        }
        // The second generation filled: the first is gone, but for key 5.
        assert_eq!(cache.get(4), None);
        assert_eq!(cache.get(5), Some(10));
        assert_eq!(cache.get(n), Some(0));
        // A budget gives a generation its half, at a few times an entry's bytes each.
        let entry = SLACK * (size_of::<([u64; 2], u64)>() + 1);
        assert_eq!(
            ComponentCache::<u128>::new(1 << 30).per_generation,
            (1 << 29) / entry
        );
    }
}
