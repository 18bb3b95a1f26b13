//! The nodes a split has measured, kept so that measuring them again costs a lookup.
//!
//! A split sizes each new open node by a breadth-first search and samples below it, and the
//! open nodes lie inside the subtrees sized before them: on a random 16x16 picture, 72% of the
//! line solves of sizing went to nodes already measured, nearly all of them nodes that probe.
//! So the nodes that probe (the costly ones) are kept, with their choice and cost. A node's
//! choice and cost follow from its grid and the memo its parent hands down, which is the key;
//! a node found here gives what measuring it again would, so the parts and their estimates do
//! not change, for any number of threads.
//!
//! The split moves down the tree, and the nodes it measured long ago lie above the open
//! nodes it still sizes. So the kept nodes are two generations: when the young one outgrows
//! half of [`BUDGET_BYTES`], the old one is dropped and the young one becomes old; a node
//! found in the old generation moves back to the young one.
//!
//! The split's own work (the nodes it measured, each one plus its line solves, a node that
//! probes counted once, even if dropped and measured again) is added up here too: set against
//! the size of the tree, it tells how much the split costs beside the search it splits. The
//! keys of the nodes counted are kept for that (16 bytes each), so the sum does not depend on
//! the threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

use dashmap::{DashMap, DashSet};

use crate::choose::{Choice, SealedMemo};
use crate::domain::{DomainGrid, fingerprint};

/// The most bytes the kept nodes take (their children's grids and the memos they hand down):
/// a random 16x16 picture split into 1,024 subtrees keeps 36,000 nodes of 4.5 KB, all of them
/// within this budget; at 64 MiB, 41% of its measures of nodes that probe were repeats.
const BUDGET_BYTES: usize = 256 << 20;

/// One node's choice and its cost (one, plus its line solves).
pub(super) type Measure<G> = (Choice<G>, f64);

/// A kept node's measure and the bytes it takes.
type Kept<G> = Arc<(Measure<G>, usize)>;

/// Fingerprints of a node's grid and of the memo its parent handed down.
type Key = (u64, u64);

/// Measured nodes of one split, young generation first.
pub(super) struct Measured<G> {
    generations: RwLock<[DashMap<Key, Kept<G>>; 2]>,
    young_bytes: AtomicUsize,
    /// The keys of the nodes that probe whose cost is in `work`.
    counted: DashSet<Key>,
    /// The split's work so far (see the module's comment).
    work: AtomicU64,
}

impl<G: DomainGrid> Measured<G> {
    pub(super) fn new() -> Self {
        Measured {
            generations: RwLock::new([DashMap::new(), DashMap::new()]),
            young_bytes: AtomicUsize::new(0),
            counted: DashSet::new(),
            work: AtomicU64::new(0),
        }
    }

    /// Adds the cost of a node measured to the split's work: a node that probes (`key`) only
    /// the first time, so that the work does not depend on the threads.
    pub(super) fn add_work(&self, key: Option<Key>, cost: f64) {
        if key.is_none_or(|key| self.counted.insert(key)) {
            self.work.fetch_add(cost as u64, Relaxed);
        }
    }

    /// The split's work so far.
    pub(super) fn work(&self) -> f64 {
        self.work.load(Relaxed) as f64
    }

    /// The key of the node with `grid` whose parent handed down `memo`.
    pub(super) fn key(grid: &G, memo: Option<&SealedMemo<G>>) -> Key {
        (fingerprint(grid), memo.map_or(0, |m| fingerprint(m.base())))
    }

    /// The node's choice and cost, if it is kept.
    pub(super) fn get(&self, key: Key) -> Option<Measure<G>> {
        let old = {
            let generations = self.generations.read().ok()?;
            if let Some(young) = generations[0].get(&key) {
                return Some(young.0.clone());
            }
            Arc::clone(generations[1].get(&key)?.value())
        };
        let measure = old.0.clone();
        self.insert(key, old);
        Some(measure)
    }

    /// Keeps a node's choice and cost; an interrupted choice is not kept, as it says nothing
    /// of the node.
    pub(super) fn keep(&self, key: Key, measure: &Measure<G>) {
        let bytes = match &measure.0 {
            Choice::Interrupted => return,
            Choice::Branch { children, memo, .. } => {
                children.iter().map(|g| g.heap_bytes()).sum::<usize>()
                    + memo.as_ref().map_or(0, |m| m.heap_bytes())
            }
            Choice::Solved | Choice::Dead => 0,
        } + std::mem::size_of::<(Measure<G>, usize)>();
        self.insert(key, Arc::new((measure.clone(), bytes)));
    }

    /// Puts `kept` in the young generation, and turns the generations over when it is full.
    fn insert(&self, key: Key, kept: Kept<G>) {
        let bytes = kept.1;
        if let Ok(generations) = self.generations.read() {
            generations[0].insert(key, kept);
        }
        if self.young_bytes.fetch_add(bytes, Relaxed) + bytes <= BUDGET_BYTES / 2 {
            return;
        }
        if let Ok(mut generations) = self.generations.write() {
            // Another thread may have turned them over while this one waited.
            if self.young_bytes.load(Relaxed) > BUDGET_BYTES / 2 {
                let young = std::mem::take(&mut generations[0]);
                generations[1] = young;
                self.young_bytes.store(0, Relaxed);
            }
        }
    }
}
