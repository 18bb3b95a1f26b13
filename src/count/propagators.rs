//! One propagator per thread of the rayon pool, each with its line-result cache, owned by one
//! count so that the caches serve its puzzle only.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::domain::Domain;
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;

/// A propagator for each thread of the current pool, and one for a caller outside it.
pub(super) struct ThreadPropagators<P: Domain = Puzzle>(Vec<Mutex<Propagator<P>>>);

impl<P: Domain> ThreadPropagators<P> {
    /// Propagators for the threads of the current rayon pool.
    pub(super) fn new() -> Self {
        ThreadPropagators(
            (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(Propagator::with_line_cache()))
                .collect(),
        )
    }

    /// The calling thread's propagator. Drop the guard before running rayon tasks: one
    /// stolen onto this thread would ask for it again.
    pub(super) fn get(&self) -> MutexGuard<'_, Propagator<P>> {
        let slot = rayon::current_thread_index()
            .unwrap_or(usize::MAX)
            .min(self.0.len() - 1);
        // A thread that panicked while holding it left nothing half done that matters: the
        // propagator resets its buffers at each call.
        self.0[slot].lock().unwrap_or_else(PoisonError::into_inner)
    }
}
