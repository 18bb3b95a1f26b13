//! What a checkpointed run has done so far, for a progress display on another thread: the
//! run updates [`CheckpointProgress`] as it splits, finds and commits, and a
//! [`ProgressMeter`](crate::ProgressMeter) reads it.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::search::SearchStats;

/// The counters of a checkpointed run ([`Checkpoint::progress`](super::Checkpoint::progress)),
/// read and written whole, so that a reading never counts a part both as found and as
/// committed.
#[derive(Debug, Default)]
pub struct CheckpointProgress {
    counters: Mutex<CheckpointSnapshot>,
    /// The counters of the parts' searches in the run that estimates its size, which its
    /// estimator's probes go to ([`CheckpointOptions::estimate`](super::CheckpointOptions)).
    search: Mutex<Option<Arc<SearchStats>>>,
}

/// A reading of a [`CheckpointProgress`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckpointSnapshot {
    /// Solutions in committed parts, this run's and earlier runs'.
    pub committed: u128,
    /// Solutions the part in progress has found so far: they count once it commits.
    pub in_part: u64,
    /// Solutions this run has found, committed or not (the run's rate is of these).
    pub found_here: u64,
    /// The parts the search was cut into; 0 until it has been.
    pub parts: usize,
    /// The parts committed, this run's and earlier runs'.
    pub parts_done: usize,
}

impl CheckpointProgress {
    /// Reads the counters.
    pub fn snapshot(&self) -> CheckpointSnapshot {
        *self.lock()
    }

    fn lock(&self) -> MutexGuard<'_, CheckpointSnapshot> {
        self.counters
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The search counters of the run in progress, or of the last, where it estimates.
    pub(crate) fn search(&self) -> Option<Arc<SearchStats>> {
        let search = self.search.lock();
        search.unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Fresh search counters for a run that estimates its size; none for one that does not.
    pub(super) fn begin_search(&self, estimate: bool) -> Option<Arc<SearchStats>> {
        let stats = estimate.then(Arc::default);
        let mut search = self.search.lock().unwrap_or_else(|p| p.into_inner());
        search.clone_from(&stats);
        stats
    }

    /// The solutions found before this run: committed by earlier runs.
    pub(crate) fn found_before(&self) -> u64 {
        let now = self.lock();
        let found = now.committed + u128::from(now.in_part);
        let before = found.saturating_sub(u128::from(now.found_here));
        u64::try_from(before).unwrap_or(u64::MAX)
    }

    /// The split and the commits as the checkpoint's state records them, between parts.
    pub(super) fn set_parts(&self, committed: u128, parts: usize, open: usize) {
        let mut now = self.lock();
        (now.committed, now.in_part) = (committed, 0);
        (now.parts, now.parts_done) = (parts, parts.saturating_sub(open));
    }

    /// `solutions` more found by the part in progress.
    pub(super) fn found(&self, solutions: u64) {
        let mut now = self.lock();
        now.in_part = now.in_part.saturating_add(solutions);
        now.found_here = now.found_here.saturating_add(solutions);
    }
}
