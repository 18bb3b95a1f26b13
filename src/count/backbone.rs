//! The backbone of a puzzle: the cells that take the same value in every solution. Fixing
//! them changes no count, and on a picture whose ambiguity lies in a few regions it leaves
//! far fewer unknown cells than propagation and probing do, since what makes a cell certain
//! there is the whole grid, not one line or one probe.
//!
//! A learning search (the domain's completion checker, see [`Countable::checker`]) finds a
//! solution `S`, then, cell by cell, asks for a solution that differs from `S` there. One that exists marks every cell where it
//! differs as not in the backbone, so each such answer rules out many cells at once; a cell
//! whose other value has no completion is fixed to its value in `S`, and the grid propagated,
//! which fixes more. The cells are checked on every thread of the pool, each with a learning
//! search of its own that serves all its later checks: a check is sound against any grid that
//! fixes only backbone cells, so the threads share the grid and what they rule out, and which
//! thread checks which cell changes what is found when, never what is fixed.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::components::unknown_cells;
use super::countable::Countable;
use super::stop::Stop;
use crate::domain::DomainGrid;
use crate::learn::Completion;
use crate::propagate::Propagator;

/// What a backbone search did, live.
#[derive(Debug, Default)]
pub struct BackboneStats {
    /// Checks made (one to find the first solution, then one per cell tried).
    pub checks: AtomicU64,
    /// Cells found in the backbone and fixed, those propagation fixed after them included.
    pub fixed: AtomicU64,
    /// Wall time spent, in nanoseconds.
    pub nanos: AtomicU64,
    /// Whether a backbone search is running now.
    running: AtomicBool,
    /// Cells the running search has taken to check, and cells it has to check (0 while it
    /// looks for its first solution).
    taken: AtomicU64,
    cells: AtomicU64,
}

impl BackboneStats {
    /// Wall time spent, in milliseconds.
    pub fn millis(&self) -> u64 {
        self.nanos.load(Ordering::Relaxed) / 1_000_000
    }

    /// Adds the checks, fixed cells and time of `other`, a search that handed its grid on.
    pub(super) fn add(&self, other: &BackboneStats) {
        for (mine, theirs) in [
            (&self.checks, &other.checks),
            (&self.fixed, &other.fixed),
            (&self.nanos, &other.nanos),
        ] {
            mine.fetch_add(theirs.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    /// While a backbone search runs, the cells it has taken to check and the cells it has to
    /// check (`(0, 0)` while it looks for its first solution); `None` otherwise.
    pub fn checking(&self) -> Option<(u64, u64)> {
        self.running.load(Ordering::Relaxed).then(|| {
            let cells = self.cells.load(Ordering::Relaxed);
            (self.taken.load(Ordering::Relaxed).min(cells), cells)
        })
    }
}

/// The result of a backbone search.
#[derive(Debug)]
pub(super) enum Backbone<G> {
    /// The puzzle has no solution that extends the root.
    NoSolution,
    /// The root with the backbone cells found fixed, at a propagation fixpoint. Every cell
    /// fixed is in the backbone; a search stopped early leaves some backbone cells unknown.
    Reduced(G),
}

/// Marks a backbone search running from its making to its drop, and adds the time between
/// to its wall time.
struct Running<'a> {
    started: std::time::Instant,
    stats: &'a BackboneStats,
}

impl<'a> Running<'a> {
    fn new(stats: &'a BackboneStats) -> Self {
        stats.taken.store(0, Ordering::Relaxed);
        stats.cells.store(0, Ordering::Relaxed);
        stats.running.store(true, Ordering::Relaxed);
        Running {
            started: std::time::Instant::now(),
            stats,
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let nanos = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.stats.nanos.fetch_add(nanos, Ordering::Relaxed);
        self.stats.running.store(false, Ordering::Relaxed);
    }
}

/// Fixes the backbone cells of the unknown cells of `root` (a propagated grid of `puzzle`),
/// on every thread of the current pool, spending at most `max_conflicts` conflicts of the
/// learning searches per thread. Stops early, with the cells found so far, when `stop` is
/// raised. A domain without a completion checker fixes nothing.
pub(super) fn fix_backbone<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    max_conflicts: u64,
    stop: Stop<'_>,
    stats: &BackboneStats,
) -> Backbone<P::Grid> {
    let _running = Running::new(stats);
    let Some(mut checker) = puzzle.checker(root) else {
        return Backbone::Reduced(root.clone());
    };
    let candidates = unknown_cells(root);
    stats.checks.fetch_add(1, Ordering::Relaxed);
    let first = match P::check(&mut checker, root, &candidates, max_conflicts, || {
        stop.raised()
    }) {
        Completion::Found(solution) => solution,
        // Every unknown cell was checked, so no other cell's completion is assumed.
        Completion::Impossible => return Backbone::NoSolution,
        Completion::Unknown => return Backbone::Reduced(root.clone()),
    };
    stats
        .cells
        .store(candidates.len() as u64, Ordering::Relaxed);
    // The threads' searches learn apart, so together they take more conflicts than one
    // would: each thread gets the budget, so that running out takes about as long on any
    // number of threads.
    let workers = rayon::current_num_threads().clamp(1, candidates.len().max(1));
    let checks = CellChecks {
        puzzle,
        root,
        first,
        candidates,
        next: AtomicUsize::new(0),
        spent: AtomicU64::new(P::conflicts(&checker)),
        max_conflicts: max_conflicts.saturating_mul(workers as u64),
        out: AtomicBool::new(false),
        stop,
        stats,
        shared: Mutex::new(Shared {
            varies: vec![false; root.height() * root.width()],
            grid: root.clone(),
        }),
        first_checker: Mutex::new(Some(checker)),
    };
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| checks.run());
        }
    });
    Backbone::Reduced(lock(&checks.shared).grid.clone())
}

/// What the threads checking cells share, under a lock: the grid with the backbone cells found
/// so far fixed, and which cells are known to vary.
struct Shared<G> {
    grid: G,
    /// Cells where some solution differs from the first one (row-major).
    varies: Vec<bool>,
}

/// The checks of one backbone search, taken cell by cell by the threads.
struct CellChecks<'a, 'p, P: Countable> {
    puzzle: &'p P,
    root: &'a P::Grid,
    /// The first solution found: a cell is in the backbone iff no solution differs from it
    /// there.
    first: P::Grid,
    /// The cells to check, in order.
    candidates: Vec<(u32, u32)>,
    /// The index of the next candidate to take.
    next: AtomicUsize,
    /// Conflicts spent by all the learning searches.
    spent: AtomicU64,
    /// The most conflicts they may spend in all.
    max_conflicts: u64,
    /// Raised when a check ran out of conflicts: the search stops with what it has.
    out: AtomicBool,
    stop: Stop<'a>,
    stats: &'a BackboneStats,
    shared: Mutex<Shared<P::Grid>>,
    /// The learning search that found the first solution, for the first thread to take it.
    first_checker: Mutex<Option<P::Checker<'p>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<P: Countable> CellChecks<'_, '_, P> {
    /// Whether the checks are to stop.
    fn stopped(&self) -> bool {
        self.out.load(Ordering::Relaxed) || self.stop.raised()
    }

    /// Takes candidates and checks them until none is left or the search stops.
    fn run(&self) {
        let width = self.root.width();
        let mut checker = None;
        let mut propagator = Propagator::<P>::new();
        while !self.stopped() {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(row, col)) = self.candidates.get(index) else {
                break;
            };
            self.stats
                .taken
                .fetch_max(index as u64 + 1, Ordering::Relaxed);
            let (row, col) = (row as usize, col as usize);
            let mut other = {
                let shared = lock(&self.shared);
                let decided = shared.grid.values(row, col).is_power_of_two();
                if decided || shared.varies[row * width + col] {
                    continue;
                }
                shared.grid.clone()
            };
            let budget = self
                .max_conflicts
                .saturating_sub(self.spent.load(Ordering::Relaxed));
            if budget == 0 {
                self.out.store(true, Ordering::Relaxed);
                break;
            }
            // A solution with another value there?
            let value = self.first.values(row, col);
            if other.restrict(row, col, !value).is_err() {
                continue;
            }
            let in_backbone = if propagator
                .propagate_cell(self.puzzle, &mut other, row, col)
                .is_err()
            {
                true
            } else {
                self.stats.checks.fetch_add(1, Ordering::Relaxed);
                if checker.is_none() {
                    checker = lock(&self.first_checker)
                        .take()
                        .or_else(|| self.puzzle.checker(self.root));
                }
                let Some(checker) = checker.as_mut() else {
                    break;
                };
                let before = P::conflicts(checker);
                let cells = unknown_cells(&other);
                let result = P::check(checker, &other, &cells, budget, || self.stopped());
                let used = P::conflicts(checker).saturating_sub(before);
                self.spent.fetch_add(used, Ordering::Relaxed);
                match result {
                    Completion::Found(solution) => {
                        let mut shared = lock(&self.shared);
                        for r in 0..self.root.height() {
                            for c in 0..width {
                                if solution.values(r, c) != self.first.values(r, c) {
                                    shared.varies[r * width + c] = true;
                                }
                            }
                        }
                        false
                    }
                    Completion::Impossible => true,
                    Completion::Unknown => {
                        self.out.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            };
            if in_backbone {
                self.fix(&mut propagator, row, col, value);
            }
        }
    }

    /// Fixes the backbone cell (`row`, `col`) to `value` (a one-bit set) in the shared grid
    /// and propagates.
    fn fix(&self, propagator: &mut Propagator<P>, row: usize, col: usize, value: u64) {
        let mut shared = lock(&self.shared);
        if shared.grid.values(row, col).is_power_of_two() {
            return;
        }
        let mut fixed = shared.grid.clone();
        fixed.decide(row, col, value);
        // The first solution extends `fixed`, so propagation cannot fail; if it did, the
        // cells fixed so far would still be sound: keep them and stop.
        if propagator
            .propagate_cell(self.puzzle, &mut fixed, row, col)
            .is_err()
        {
            debug_assert!(false, "the backbone contradicts a solution");
            self.out.store(true, Ordering::Relaxed);
            return;
        }
        let newly = shared.grid.undecided() - fixed.undecided();
        self.stats.fixed.fetch_add(newly as u64, Ordering::Relaxed);
        shared.grid = fixed;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use proptest::prelude::*;

    use super::*;
    use crate::count::probed_root;
    use crate::grid::Cell;
    use crate::puzzle::Puzzle;
    use crate::test_strategies::{colour_picture, random_clues};

    /// Every solution of `puzzle`, by the test-only enumeration.
    fn solutions<P: Countable>(puzzle: &P) -> Vec<P::Grid> {
        crate::test_enumeration::solutions(puzzle)
    }

    /// With conflicts enough, the cells fixed are exactly those equal in every solution, and
    /// "no solution" exactly when there is none.
    fn fixes_exactly_the_backbone<P: Countable>(puzzle: &P) -> Result<(), TestCaseError> {
        let all = solutions(puzzle);
        let Some(root) = probed_root(puzzle).expect("valid") else {
            prop_assert!(all.is_empty());
            return Ok(());
        };
        let (cancel, stats) = (AtomicBool::new(false), BackboneStats::default());
        match fix_backbone(puzzle, &root, u64::MAX, Stop::from(&cancel), &stats) {
            Backbone::NoSolution => prop_assert!(all.is_empty()),
            Backbone::Reduced(grid) => {
                prop_assert!(!all.is_empty());
                for row in 0..grid.height() {
                    for col in 0..grid.width() {
                        let first = all[0].values(row, col);
                        let constant = all.iter().all(|s| s.values(row, col) == first);
                        let known = grid.values(row, col).is_power_of_two();
                        prop_assert_eq!(known, constant, "cell ({}, {})", row, col);
                        if known {
                            prop_assert_eq!(grid.values(row, col), first);
                        }
                    }
                }
                let fixed = stats.fixed.load(Ordering::Relaxed) as usize;
                prop_assert_eq!(fixed, root.undecided() - grid.undecided());
            }
        }
        Ok(())
    }

    /// The clues of random pictures of 0.4 density, `min` to `max` cells a side.
    fn random_pictures(min: usize, max: usize) -> impl Strategy<Value = Puzzle> {
        crate::test_strategies::bw_picture(min, max, 0.4)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_cells_fixed_are_the_backbone_of_random_pictures(puzzle in random_pictures(1, 9)) {
            fixes_exactly_the_backbone(&puzzle)?;
        }

        #[test]
        fn the_cells_fixed_are_the_backbone_of_random_clues(puzzle in random_clues(7)) {
            fixes_exactly_the_backbone(&puzzle)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// Colour pictures, each check a colour learning search's.
        #[test]
        fn the_cells_fixed_are_the_backbone_of_colour_pictures(puzzle in colour_picture(7)) {
            fixes_exactly_the_backbone(&puzzle)?;
        }

        /// Four threads check cells at once (on any machine: the pool is built with four),
        /// and still fix exactly the backbone.
        #[test]
        fn four_threads_fix_exactly_the_backbone(puzzle in random_pictures(4, 10)) {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("pool");
            pool.install(|| fixes_exactly_the_backbone(&puzzle))?;
        }
    }

    /// A search out of conflicts, or stopped, fixes only backbone cells: never a cell that
    /// varies, even when it stops in the middle.
    #[test]
    fn a_search_stopped_early_fixes_backbone_cells_only() {
        let puzzle = crate::test_strategies::seeded_picture(12, 12, 5);
        let all = solutions(&puzzle);
        let root = probed_root(&puzzle).expect("valid").expect("a solution");
        let cancel = AtomicBool::new(false);
        for budget in [0, 1, 10, 100, 1_000] {
            let stats = BackboneStats::default();
            let Backbone::Reduced(grid) =
                fix_backbone(&puzzle, &root, budget, Stop::from(&cancel), &stats)
            else {
                panic!("the picture has a solution");
            };
            for row in 0..grid.height() {
                for col in 0..grid.width() {
                    if grid.cell(row, col) != Cell::Unknown {
                        assert!(all.iter().all(|s| s.cell(row, col) == grid.cell(row, col)));
                    }
                }
            }
        }
        let raised = AtomicBool::new(true);
        let stats = BackboneStats::default();
        let Backbone::Reduced(grid) =
            fix_backbone(&puzzle, &root, u64::MAX, Stop::from(&raised), &stats)
        else {
            panic!("a stopped search says nothing");
        };
        assert_eq!(grid.unknown_count(), root.unknown_count());
    }

    /// A search says it checks while it runs, from `(0, 0)` (no first solution yet) to its
    /// cells taken of those to check, and nothing once it returns.
    #[test]
    fn a_search_says_how_far_it_checked_while_it_runs() {
        let stats = BackboneStats::default();
        assert_eq!(stats.checking(), None);
        {
            let _running = Running::new(&stats);
            assert_eq!(stats.checking(), Some((0, 0)));
            stats.cells.store(40, Ordering::Relaxed);
            stats.taken.store(41, Ordering::Relaxed);
            // Threads take one index past the last cell each as they finish.
            assert_eq!(stats.checking(), Some((40, 40)));
        }
        assert_eq!(stats.checking(), None);
        let puzzle = crate::test_strategies::seeded_picture(12, 12, 5);
        let root = probed_root(&puzzle).expect("valid").expect("a solution");
        let cancel = AtomicBool::new(false);
        fix_backbone(&puzzle, &root, u64::MAX, Stop::from(&cancel), &stats);
        assert_eq!(stats.checking(), None);
        let (taken, cells) = (
            stats.taken.load(Ordering::Relaxed),
            stats.cells.load(Ordering::Relaxed),
        );
        assert_eq!(cells, root.unknown_count() as u64);
        assert!(taken >= cells.min(1), "{taken} of {cells}");
    }
}
