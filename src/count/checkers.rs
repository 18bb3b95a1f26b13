//! One completion checker per thread of the rayon pool, built on first use from the count's
//! root grid, so that what each one learns serves every later check on its thread.

use std::sync::{Mutex, MutexGuard, OnceLock};

use super::countable::Countable;

/// A completion checker for each thread of the current pool, and one for a caller outside it.
pub(crate) struct ThreadCheckers<'p, P: Countable> {
    puzzle: &'p P,
    /// The grid every checked grid extends: level 0 of every checker.
    root: OnceLock<P::Grid>,
    slots: Vec<Mutex<Option<P::Checker<'p>>>>,
}

impl<'p, P: Countable> ThreadCheckers<'p, P> {
    /// No checkers yet, for the threads of the current rayon pool.
    pub(super) fn new(puzzle: &'p P) -> Self {
        Self::for_threads(puzzle, rayon::current_num_threads())
    }

    /// No checkers yet, for the threads of a pool of `threads` threads.
    pub(crate) fn for_threads(puzzle: &'p P, threads: usize) -> Self {
        ThreadCheckers {
            puzzle,
            root: OnceLock::new(),
            slots: (0..=threads).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Sets the root grid (a grid at a propagation fixpoint that every checked grid extends);
    /// only the first call counts.
    pub(crate) fn set_root(&self, root: &P::Grid) {
        let _ = self.root.get_or_init(|| root.clone());
    }

    /// The calling thread's checker, built at its first use; `None` before [`Self::set_root`]
    /// (the guard holds `None` where the domain has no checker). Drop the guard before running
    /// rayon tasks.
    pub(crate) fn get(&self) -> Option<MutexGuard<'_, Option<P::Checker<'p>>>> {
        let root = self.root.get()?;
        let slot = rayon::current_thread_index()
            .unwrap_or(usize::MAX)
            .min(self.slots.len() - 1);
        // A thread that panicked during a check leaves a search that may be half way through
        // one: start that thread's checker afresh.
        let mut guard = match self.slots[slot].lock() {
            Ok(guard) => guard,
            Err(poisoned) => {
                let mut guard = poisoned.into_inner();
                *guard = None;
                guard
            }
        };
        if guard.is_none() {
            *guard = self.puzzle.checker(root);
        }
        Some(guard)
    }
}
