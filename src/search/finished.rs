//! The subtrees near the root that an enumeration has finished, so that the estimator's
//! probes size only the part of the tree still open (the estimator "converges": what is done
//! is counted exactly, and only the open frontier is sampled).
//!
//! A subtree is known by a 64-bit fingerprint of the grid at its root (a node's grid at its
//! propagation fixpoint, which the probes reach choosing as the search does). The search
//! records a node once its subtree is done, when the node is
//! at most [`DEEPEST`] levels down; at most [`MOST`] nodes are kept, so the memory stays
//! bounded on trees of any size. A fingerprint that two grids share (one chance in 2^64 per
//! pair) could only hide an open subtree from the probes, making the estimate low.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};

use dashmap::DashSet;

use crate::domain::{DomainGrid, fingerprint};

/// The deepest level whose finished subtrees are recorded: a level of the tree near its root
/// holds few nodes, and what lies below an unrecorded level is sampled instead.
const DEEPEST: u32 = 20;

/// The most subtrees recorded (about 16 bytes each).
const MOST: usize = 1 << 20;

/// Finished subtrees of one search, recorded only while an estimator asks for them.
#[derive(Debug, Default)]
pub(crate) struct Finished {
    recording: AtomicBool,
    roots: DashSet<u64>,
    kept: AtomicUsize,
    /// How far down the run's whole tree the search's root lies (a checkpoint's part), which
    /// counts toward [`DEEPEST`].
    root_depth: AtomicU32,
}

impl Finished {
    /// Starts recording (the estimator calls this before its first probe).
    pub(crate) fn record(&self) {
        self.recording.store(true, Relaxed);
    }

    /// Notes that the searches recording from now on start `depth` levels down the run's
    /// whole tree: a checkpoint's parts, searched one after another, are recorded as deep
    /// into that tree as one search of it would be.
    pub(crate) fn root_at(&self, depth: u32) {
        self.root_depth.store(depth, Relaxed);
    }

    /// The key under which the subtree of a node at `depth` (below the search's root) with
    /// `grid` would be recorded, or `None` when it would not be.
    pub(crate) fn key_at<G: DomainGrid>(&self, grid: &G, depth: u32) -> Option<u64> {
        let depth = depth.saturating_add(self.root_depth.load(Relaxed));
        (depth <= DEEPEST && self.recording.load(Relaxed) && self.kept.load(Relaxed) < MOST)
            .then(|| fingerprint(grid))
    }

    /// Records that the subtree with `key` is finished.
    pub(crate) fn finish(&self, key: u64) {
        if self.roots.insert(key) {
            let _ = self.kept.fetch_add(1, Relaxed);
        }
    }

    /// Whether the subtree whose root holds `grid` is finished.
    pub(crate) fn holds<G: DomainGrid>(&self, grid: &G) -> bool {
        self.kept.load(Relaxed) > 0 && self.roots.contains(&fingerprint(grid))
    }

    /// Forgets every subtree recorded: a search that restarts explores them again.
    pub(crate) fn forget(&self) {
        self.roots.clear();
        self.kept.store(0, Relaxed);
    }

    /// Subtrees recorded.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.kept.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn a_finished_subtree_is_found_by_its_grid_and_no_other() {
        let finished = Finished::default();
        let mut a = Grid::new(4, 5);
        assert_eq!(finished.key_at(&a, 0), None, "not recording yet");
        finished.record();
        let key = finished
            .key_at(&a, DEEPEST)
            .expect("recorded at this depth");
        assert_eq!(finished.key_at(&a, DEEPEST + 1), None);
        finished.finish(key);
        finished.finish(key);
        assert_eq!(finished.len(), 1);
        assert!(finished.holds(&a));
        a.decide(1, 2, 1);
        assert!(!finished.holds(&a), "a narrower grid is another subtree");
    }

    #[test]
    fn a_part_s_subtrees_are_recorded_by_their_depth_in_the_whole_tree() {
        let finished = Finished::default();
        finished.record();
        let grid = Grid::new(3, 3);
        finished.root_at(5);
        assert_eq!(
            finished.key_at(&grid, DEEPEST - 5),
            Some(fingerprint(&grid))
        );
        assert_eq!(finished.key_at(&grid, DEEPEST - 4), None);
        finished.root_at(u32::MAX);
        assert_eq!(finished.key_at(&grid, 0), None, "past the deepest level");
    }
}
