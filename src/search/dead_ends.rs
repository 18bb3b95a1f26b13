//! Completion checks in the probing search: a learning search asked, at large nodes, whether
//! any solution lies below. A node without one is not explored; a solution found orders the
//! children of every node that agrees with it, so that the search goes where solutions are.
//!
//! A probing search can spend minutes in a large subtree without a solution (the colour survey's
//! *Web* lists nothing in 20 s without the checks, over a million solutions in 10 s with
//! them). The checks start at the root, and later whenever many nodes have passed without a
//! solution; they take at most a share of the search's time, so a search that is not stuck
//! runs about as before.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::count::{Countable, ThreadCheckers, unknown_cells};
use crate::domain::DomainGrid;
use crate::learn::Completion;

/// The most variables (cells in black and white) a puzzle may have for its probing search to
/// make checks: a check's first propagation on a random 1000x1000 picture took six seconds,
/// between two questions to the stop flag (docs/tuning.md).
pub(crate) const MOST_CHECKED_VARS: usize = 40_000;

/// When the probing search checks its nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CheckPolicy {
    /// Probing nodes expanded without a solution (all threads together) after which they are
    /// checked.
    pub barren_nodes: u64,
    /// The fewest unknown cells a checked node has: smaller subtrees cost less to explore.
    pub min_cells: usize,
    /// The conflicts one check may spend before it gives up (the node is then explored).
    pub max_conflicts: u64,
    /// Checks take at most `1 / share` of the time of the search's threads; 0: no bound.
    pub share: u32,
}

impl Default for CheckPolicy {
    /// 256 barren nodes, 64 cells, 1,000 conflicts, a quarter of the time (docs/tuning.md).
    fn default() -> Self {
        CheckPolicy {
            barren_nodes: 256,
            min_cells: 64,
            max_conflicts: 1_000,
            share: 4,
        }
    }
}

/// What a node's check, or the last solution a check found, says of the node.
pub(crate) enum Verdict {
    /// No solution lies below: the node is not explored.
    Dead,
    /// A solution below gives the branching cell these values: that child goes first.
    Prefer(u64),
    /// Nothing known.
    Open,
}

/// What the search asks of its [`DeadEnds`], behind a reference that does not fix the
/// lifetime of their checkers (which would tie every search context to it).
pub(crate) trait CutDeadEnds<G>: Sync {
    /// Counts a probing node expanded (plain nodes are not counted: a shared counter would
    /// cost them more than they are worth).
    fn node(&self);
    /// Counts a solution found: the search is no longer barren.
    fn solution(&self);
    /// What is known of `grid`, a node at a propagation fixpoint the search would branch on
    /// at `cell`, checking it if the policy says so.
    fn verdict(&self, grid: &G, cell: (usize, usize), stopped: &dyn Fn() -> bool) -> Verdict;
}

/// The completion checkers of one search, when they run, and what they found.
pub(crate) struct DeadEnds<'p, P: Countable> {
    checkers: ThreadCheckers<'p, P>,
    policy: CheckPolicy,
    /// Probing nodes expanded since the last solution, by every thread.
    barren: AtomicU64,
    /// The last solution a check found.
    guide: Mutex<Option<Arc<P::Grid>>>,
    /// When the search started, and its threads: the time that checks take a share of.
    started: Instant,
    threads: u32,
    /// Nanoseconds spent in checks, by every thread.
    checking: AtomicU64,
    /// Checks that proved a node dead.
    pub(crate) cut: AtomicU64,
    /// Checks that found a solution below their node.
    pub(crate) found: AtomicU64,
}

impl<'p, P: Countable> DeadEnds<'p, P> {
    /// Checkers for the search of `puzzle` from `root` on up to `threads` threads, each built
    /// at its thread's first check.
    pub(crate) fn new(puzzle: &'p P, root: &P::Grid, threads: usize, policy: CheckPolicy) -> Self {
        let checkers = ThreadCheckers::for_threads(puzzle, threads);
        checkers.set_root(root);
        DeadEnds {
            checkers,
            policy,
            // The root is checked first: a solution found there guides the first descent.
            barren: AtomicU64::new(policy.barren_nodes),
            guide: Mutex::new(None),
            started: Instant::now(),
            threads: threads as u32,
            checking: AtomicU64::new(0),
            cut: AtomicU64::new(0),
            found: AtomicU64::new(0),
        }
    }

    /// Whether the checks so far leave time for one more.
    fn time_left(&self) -> bool {
        let spent = u128::from(self.checking.load(Ordering::Relaxed));
        let time = self.started.elapsed().as_nanos() * u128::from(self.threads);
        self.policy.share == 0 || spent * u128::from(self.policy.share) <= time
    }

    /// Checks `grid`: whether it has a completion, within the policy's conflicts.
    fn check(&self, grid: &P::Grid, stopped: &dyn Fn() -> bool) -> Completion<P::Grid> {
        let start = Instant::now();
        let answer = match self.checkers.get() {
            Some(mut guard) => match guard.as_mut() {
                Some(checker) => {
                    let cells = unknown_cells(grid);
                    P::check(checker, grid, &cells, self.policy.max_conflicts, stopped)
                }
                None => Completion::Unknown,
            },
            None => Completion::Unknown,
        };
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.checking.fetch_add(nanos, Ordering::Relaxed);
        answer
    }
}

impl<P: Countable> CutDeadEnds<P::Grid> for DeadEnds<'_, P> {
    fn node(&self) {
        self.barren.fetch_add(1, Ordering::Relaxed);
    }

    fn solution(&self) {
        // Read first: a store on every solution would bounce the line between threads.
        if self.barren.load(Ordering::Relaxed) != 0 {
            self.barren.store(0, Ordering::Relaxed);
        }
    }

    fn verdict(
        &self,
        grid: &P::Grid,
        (row, col): (usize, usize),
        stopped: &dyn Fn() -> bool,
    ) -> Verdict {
        if grid.undecided() < self.policy.min_cells {
            return Verdict::Open;
        }
        let guide = self.guide.lock().ok().and_then(|guide| guide.clone());
        if let Some(solution) = guide.filter(|solution| agrees(grid, solution)) {
            return Verdict::Prefer(solution.values(row, col));
        }
        if self.barren.load(Ordering::Relaxed) < self.policy.barren_nodes || !self.time_left() {
            return Verdict::Open;
        }
        match self.check(grid, stopped) {
            // The check assumed every unknown cell of the grid: none is left outside it
            // whose lack of a completion could make this answer wrong.
            Completion::Impossible => {
                self.cut.fetch_add(1, Ordering::Relaxed);
                Verdict::Dead
            }
            Completion::Found(solution) => {
                self.found.fetch_add(1, Ordering::Relaxed);
                let values = solution.values(row, col);
                if let Ok(mut guide) = self.guide.lock() {
                    *guide = Some(Arc::new(solution));
                }
                Verdict::Prefer(values)
            }
            Completion::Unknown => Verdict::Open,
        }
    }
}

/// Whether every cell of `grid` may take its value in `solution`.
fn agrees<G: DomainGrid>(grid: &G, solution: &G) -> bool {
    (0..grid.height())
        .all(|r| (0..grid.width()).all(|c| grid.values(r, c) & solution.values(r, c) != 0))
}
