//! Counting by components and a cache of residual problems, as exact model counters do, with
//! nonogram propagation in place of unit propagation.
//!
//! After propagation every line falls into independent [`segments`]; unknown cells that share
//! a segment of their row or of their column are connected, and the connected *components* do
//! not constrain each other: the count is the product of their counts. A component is counted
//! by branching on one of its cells (both values, each propagated), splitting what is left into
//! components again. Two components with the same residual problem (the same segments, with the
//! same blocks and the same known cells) have the same count, so each count is cached under a
//! 128-bit digest of that problem, in a table all threads share.
//!
//! The counter is generic over the [`Countable`] domain: black and white and colour share it,
//! each finding its lines' segments in its own way. The components themselves are found in
//! [`partition`].

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::checkers::ThreadCheckers;
use super::countable::Countable;
use super::propagators::ThreadPropagators;
use super::stop::Stop;
use super::tally::{LowerBound, Overflow, Tally};
use crate::choose::{Choice, ProbeCounts, SealedMemo, choose_probing};
use crate::domain::DomainGrid;
use crate::learn::Completion;
use num_bigint::BigUint;

mod cache;
mod listing;
mod partition;

use cache::ComponentCache;
pub(crate) use listing::{ComponentSearch, Unlisted};

pub(crate) use partition::component_cells;
pub(super) use partition::largest_component;
pub(crate) use partition::unknown_cells;
use partition::{Components, Part};

/// The most unknown cells a component may have to be counted by listing its solutions in a
/// copy of the grid that serves every component of a node, rather than by probing and
/// branching, which copy the whole grid at each probe: on a huge grid of tiny components
/// those copies are nearly all the work.
const LISTED_CELLS: usize = 16;

/// The most nodes the listing of a small component may visit before it is counted by
/// branching instead.
const LISTED_NODES: usize = 256;

/// Why a component count stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentError {
    /// The cancel flag was raised.
    Cancelled,
    /// The count outgrew the number type.
    Overflow,
    /// Its search paths outgrew the memory they were given (the cache's).
    PathMemory,
}

impl From<Overflow> for ComponentError {
    fn from(_: Overflow) -> Self {
        ComponentError::Overflow
    }
}

/// A count of a set of cells that stopped before it finished, with the completions it had
/// counted for certain.
struct Halt {
    error: ComponentError,
    /// A lower bound on the count: the sum over branches and the product over components of
    /// what each had counted (exact for those that finished).
    at_least: BigUint,
}

impl Halt {
    /// Cancelled, with `at_least` counted.
    fn cancelled(at_least: BigUint) -> Self {
        Halt {
            error: ComponentError::Cancelled,
            at_least,
        }
    }

    /// What a count, finished or stopped part way, had counted.
    fn at_least<T: Tally>(counted: &Result<T, Halt>) -> BigUint {
        match counted {
            Ok(count) => count.to_big(),
            Err(halt) => halt.at_least.clone(),
        }
    }

    /// Gave up: the search paths outgrew their memory.
    fn gave_up() -> Self {
        Halt {
            error: ComponentError::PathMemory,
            at_least: BigUint::ZERO,
        }
    }

    /// Why some of `counts` stopped, if any did: the paths' memory before a cancel, so
    /// that a count that gave up says so.
    fn error_of<'a, T: 'a>(
        counts: impl IntoIterator<Item = &'a Result<T, Halt>>,
    ) -> Option<ComponentError> {
        let errors = counts.into_iter().filter_map(|c| c.as_ref().err());
        errors
            .map(|halt| halt.error)
            .max_by_key(|e| *e == ComponentError::PathMemory)
    }

    /// Whether a count stopped because its number type overflowed (it is redone in a wider
    /// one, so what it had counted does not matter).
    fn overflowed<T>(counted: &Result<T, Halt>) -> bool {
        matches!(
            counted,
            Err(Halt {
                error: ComponentError::Overflow,
                ..
            })
        )
    }
}

impl From<Overflow> for Halt {
    fn from(_: Overflow) -> Self {
        Halt {
            error: ComponentError::Overflow,
            at_least: BigUint::ZERO,
        }
    }
}

/// What the component counter did, updated live.
#[derive(Debug, Default)]
pub struct ComponentStats {
    /// Components counted by branching (cache misses).
    pub branched: AtomicU64,
    /// Components whose count came from the cache.
    pub cache_hits: AtomicU64,
    /// The most components one node split into.
    pub widest_split: AtomicU64,
    /// Probes run.
    pub probes: AtomicU64,
    /// Completion checks that found a completion.
    pub checks_completed: AtomicU64,
    /// Completion checks that proved there is none (each saves a subtree).
    pub checks_impossible: AtomicU64,
    /// Completion checks that gave up.
    pub checks_undecided: AtomicU64,
    /// The most solutions a count that was cancelled had counted for certain.
    pub(super) at_least: LowerBound,
}

impl ComponentStats {
    /// The most solutions a count that was cancelled had counted for certain, exactly: a lower
    /// bound on the count.
    pub fn at_least(&self) -> BigUint {
        self.at_least.get()
    }
}

/// When the component counter checks that a set of unknown cells can be completed before it
/// counts them (see [`ComponentCounter::completion_checks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CompletionChecks {
    /// The fewest unknown cells a set needs to be checked: smaller ones are counted at once.
    pub min_cells: usize,
    /// The conflicts one check may spend before it gives up (the subtree is then counted
    /// without checks).
    pub max_conflicts: u64,
}

impl Default for CompletionChecks {
    /// Sets of 100 cells or more, 200,000 conflicts: on random pictures of 24x24 and 25x25 the
    /// time hardly changes between 50 and 200 cells, nor between 200,000 and a million
    /// conflicts; 2,000 or 20,000 leave the first check (of the whole grid, the hardest)
    /// undecided, which turns every check off.
    fn default() -> Self {
        CompletionChecks {
            min_cells: 100,
            max_conflicts: 200_000,
        }
    }
}

/// What the counter knows about whether a set of unknown cells can be completed, and about
/// the unknown cells outside it (which must have a completion for a check to be sound: see
/// [`crate::learn::CompletionChecker::check`]).
enum Liveness<'g, G> {
    /// This grid completes the cells, and the cells outside them have a completion.
    Completed(&'g G),
    /// The cells outside have a completion; these are not checked yet.
    OutsideCompletes,
    /// Nothing is known: no check is sound here.
    Unchecked,
}

// Not derived: that would ask `G: Copy`.
impl<G> Clone for Liveness<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Liveness<'_, G> {}

/// About the most bytes the components' cache takes unless told otherwise
/// ([`ComponentCounter::cache_memory`]).
pub(crate) const DEFAULT_CACHE_MEMORY: usize = 1 << 30;

/// The least memory the component counter's search paths are given, however small the cache:
/// a path through a grid of a few hundred cells a side holds a few megabytes.
pub(crate) const LEAST_PATH_MEMORY: usize = 64 << 20;

/// Counts the puzzles of domain `P` by components, sharing one cache between threads.
pub(crate) struct ComponentCounter<'p, T, P: Countable = crate::Puzzle> {
    puzzle: &'p P,
    cache: ComponentCache<T>,
    stop: Stop<'p>,
    /// What it did.
    stats: &'p ComponentStats,
    /// A propagator (buffers and line-result cache) for each thread of the pool, and one for
    /// a caller outside it, owned by the counter so that their caches serve its puzzle only.
    propagators: ThreadPropagators<P>,
    /// A completion checker for each thread, learning across the checks it makes.
    checkers: ThreadCheckers<'p, P>,
    /// When sets of cells are checked for a completion before they are counted, if ever.
    checks: Option<CompletionChecks>,
    /// What its search paths hold.
    paths: PathMemory,
}

/// The bytes the counter's search paths hold at once, and the most they may: at each level a
/// path keeps its node's grid and children and the lists of its component's cells, which on
/// a 2000x2000 grid take tens of megabytes, and the paths may be as deep as there are cells.
struct PathMemory {
    held: AtomicUsize,
    limit: usize,
    /// Raised when a path would have passed the limit: the whole count then gives up.
    outgrown: AtomicBool,
}

impl PathMemory {
    /// Holds `bytes` until the guard is dropped; `None` if that would pass the limit.
    fn hold(&self, bytes: usize) -> Option<HeldBytes<'_>> {
        let before = self.held.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.held.fetch_sub(bytes, Ordering::Relaxed);
            self.outgrown.store(true, Ordering::Relaxed);
            return None;
        }
        Some(HeldBytes { paths: self, bytes })
    }
}

/// Bytes a level of a search path holds, given back when it returns.
struct HeldBytes<'m> {
    paths: &'m PathMemory,
    bytes: usize,
}

impl Drop for HeldBytes<'_> {
    fn drop(&mut self) {
        self.paths.held.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

impl<'p, T: Tally, P: Countable> ComponentCounter<'p, T, P> {
    /// A counter for `puzzle`, stopping when `stop` is raised (a cancel flag, or a [`Stop`]),
    /// keeping its counters in `stats`.
    pub(crate) fn new(puzzle: &'p P, stop: impl Into<Stop<'p>>, stats: &'p ComponentStats) -> Self {
        ComponentCounter {
            puzzle,
            cache: ComponentCache::new(DEFAULT_CACHE_MEMORY),
            stop: stop.into(),
            stats,
            propagators: ThreadPropagators::new(),
            checkers: ThreadCheckers::new(puzzle),
            checks: Some(CompletionChecks::default()),
            paths: PathMemory {
                held: AtomicUsize::new(0),
                limit: usize::MAX,
                outgrown: AtomicBool::new(false),
            },
        }
    }

    /// About the most bytes its search paths may hold at once; past that the count gives up
    /// with [`ComponentError::PathMemory`]. Unbounded by default.
    pub(crate) fn path_memory(mut self, bytes: usize) -> Self {
        self.paths.limit = bytes;
        self
    }

    /// About the most bytes its cache may take (see [`ComponentCache`]); by default
    /// [`DEFAULT_CACHE_MEMORY`].
    pub(crate) fn cache_memory(mut self, bytes: usize) -> Self {
        self.cache = ComponentCache::new(bytes);
        self
    }

    /// Whether (and when) to check, with a learning search, that a large set of unknown
    /// cells has a completion before counting it (by default, as [`CompletionChecks`] says).
    /// Most of the large residual problems the branching meets on random pictures have
    /// none; probing alone needs thousands of nodes to find that out, where a search that
    /// learns across checks needs a few dozen conflicts.
    pub(crate) fn completion_checks(mut self, on: Option<CompletionChecks>) -> Self {
        self.checks = on;
        self
    }

    /// The bytes its search paths hold now.
    #[cfg(test)]
    pub(crate) fn path_bytes_held(&self) -> usize {
        self.paths.held.load(Ordering::Relaxed)
    }

    /// Counts the solutions that extend `grid`, a grid at a propagation fixpoint. If it is
    /// cancelled, the solutions it had counted are offered to the stats' lower bound.
    pub(crate) fn count(&self, grid: &P::Grid) -> Result<T, ComponentError> {
        let unknown = unknown_cells(grid);
        self.checkers.set_root(grid);
        self.count_cells(grid, &unknown, None, Liveness::OutsideCompletes)
            .map_err(|halt| {
                if halt.error != ComponentError::Overflow {
                    self.stats.at_least.offer(halt.at_least);
                }
                halt.error
            })
    }

    /// Checks whether the unknown `cells` of `grid` can be completed (sound only if its other
    /// unknown cells can).
    fn check(&self, grid: &P::Grid, cells: &[(u32, u32)]) -> Completion<P::Grid> {
        let Some(mut checker) = self.checkers.get() else {
            return Completion::Unknown;
        };
        let Some(checker) = checker.as_mut() else {
            return Completion::Unknown;
        };
        let max_conflicts = self.checks.map_or(0, |c| c.max_conflicts);
        let answer = P::check(checker, grid, cells, max_conflicts, || self.stop.raised());
        let counter = match answer {
            Completion::Found(_) => &self.stats.checks_completed,
            Completion::Impossible => &self.stats.checks_impossible,
            Completion::Unknown => &self.stats.checks_undecided,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        answer
    }

    /// The number of ways to complete the unknown `cells` of `grid` (a propagated grid in which
    /// they are closed under segments), as a product over their components.
    fn count_cells(
        &self,
        grid: &P::Grid,
        cells: &[(u32, u32)],
        memo: Option<&SealedMemo<P::Grid>>,
        liveness: Liveness<'_, P::Grid>,
    ) -> Result<T, Halt> {
        if cells.is_empty() {
            return Ok(T::one());
        }
        let completion;
        let liveness = match liveness {
            Liveness::OutsideCompletes
                if self.checks.is_some_and(|c| cells.len() >= c.min_cells) =>
            {
                match self.check(grid, cells) {
                    Completion::Impossible => return Ok(T::zero()),
                    Completion::Found(grid) => {
                        completion = grid;
                        Liveness::Completed(&completion)
                    }
                    Completion::Unknown => Liveness::Unchecked,
                }
            }
            Liveness::OutsideCompletes => Liveness::Unchecked,
            known => known,
        };
        let stopped = || self.stop.raised();
        let Some(components) = Components::find(self.puzzle, grid, cells, usize::MAX, &stopped)
        else {
            if stopped() {
                return Err(Halt::cancelled(BigUint::ZERO));
            }
            return Ok(T::zero());
        };
        self.stats
            .widest_split
            .fetch_max(components.parts.len() as u64, Ordering::Relaxed);
        let counts: Vec<Result<T, Halt>> = {
            use rayon::prelude::*;
            // Each task lists small components in a copy of `grid` of its own, made once.
            components
                .parts
                .par_iter()
                .map_init(
                    || None,
                    |copy, part| self.count_component(grid, part, (memo, copy), liveness),
                )
                .collect()
        };
        // A component without a completion leaves none, whatever the others counted.
        if counts.iter().any(|c| c.as_ref().is_ok_and(Tally::is_zero)) {
            return Ok(T::zero());
        }
        if counts.iter().any(Halt::overflowed) {
            return Err(Halt::from(Overflow));
        }
        if let Some(error) = Halt::error_of(&counts) {
            let at_least = counts.iter().map(Halt::at_least).product();
            return Err(Halt { error, at_least });
        }
        let mut product = T::one();
        for count in counts.into_iter().flatten() {
            product = product.mul(&count)?;
        }
        Ok(product)
    }

    /// Counts one component, from the cache, by listing its solutions if it is small (in
    /// `copy`, a copy of `grid` made when first needed), or by branching on one of its cells.
    fn count_component(
        &self,
        grid: &P::Grid,
        part: &Part,
        (memo, copy): (Option<&SealedMemo<P::Grid>>, &mut Option<P::Grid>),
        liveness: Liveness<'_, P::Grid>,
    ) -> Result<T, Halt> {
        if self.stop.raised() {
            return Err(Halt::cancelled(BigUint::ZERO));
        }
        if self.paths.outgrown.load(Ordering::Relaxed) {
            return Err(Halt::gave_up());
        }
        let key = part.digest(grid);
        if let Some(hit) = self.cache.get(key) {
            self.stats.cache_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(hit);
        }
        self.stats.branched.fetch_add(1, Ordering::Relaxed);
        if part.cells.len() <= LISTED_CELLS {
            let copy = copy.get_or_insert_with(|| grid.clone());
            debug_assert!(copy == grid, "a listing left its copy changed");
            if let Some(count) = self.count_by_listing(copy, part)? {
                self.cache.insert(key, &count);
                return Ok(count);
            }
        }
        let mut grid = grid.clone();
        let mut probes = ProbeCounts::default();
        // The guard is dropped before the branches run, which may be stolen onto this
        // thread and ask for its propagator again.
        let choice = choose_probing(
            self.puzzle,
            &mut grid,
            &mut self.propagators.get(),
            &mut probes,
            memo,
            Some(&part.cells),
            &|| self.stop.raised(),
        );
        self.stats
            .probes
            .fetch_add(probes.probes, Ordering::Relaxed);
        let total = match choice {
            Choice::Interrupted => return Err(Halt::cancelled(BigUint::ZERO)),
            Choice::Dead => T::zero(),
            Choice::Solved => T::one(),
            Choice::Branch {
                cell: (row, col),
                children,
                memo,
            } => {
                // The part's lists, and those of its unknown cells that each branch makes.
                let cell_lists =
                    part.heap_bytes() + part.cells.len() * std::mem::size_of::<(u32, u32)>();
                let grids = (1 + children.len()) * grid.heap_bytes();
                let probes = memo.as_ref().map_or(0, |m| m.heap_bytes());
                let held = self.paths.hold(cell_lists + grids + probes);
                let _held = held.ok_or_else(Halt::gave_up)?;
                let memo = memo.as_deref();
                // A known completion goes down the branch it agrees with; in the others, the
                // cells outside the component still have one, so those branches may be checked.
                let known = match liveness {
                    Liveness::Completed(completion) => Some(completion.values(row, col)),
                    _ => None,
                };
                let branches: Vec<_> = children
                    .into_iter()
                    .map(|child| {
                        let liveness = match known {
                            Some(value) if value.count_ones() == 1 => {
                                if child.values(row, col) == value {
                                    liveness
                                } else {
                                    Liveness::OutsideCompletes
                                }
                            }
                            _ => Liveness::Unchecked,
                        };
                        (child, liveness)
                    })
                    .collect();
                self.count_branches(part, &branches, memo)?
            }
        };
        self.cache.insert(key, &total);
        Ok(total)
    }

    /// The solutions of a small component, listed in `grid` (which the listing leaves as it
    /// found it): `None` if it needs more than [`LISTED_NODES`] nodes.
    fn count_by_listing(&self, grid: &mut P::Grid, part: &Part) -> Result<Option<T>, Halt> {
        let stopped = || self.stop.raised();
        let mut search = ComponentSearch {
            puzzle: self.puzzle,
            prop: &mut self.propagators.get(),
            cells: &part.cells,
            nodes_left: LISTED_NODES,
            stopped: &stopped,
        };
        let mut solutions = 0u64;
        match search.run(grid, &mut |_| {
            solutions += 1;
            true
        }) {
            Ok(()) => {
                // At most `LISTED_NODES` solutions: adding them one by one costs nothing.
                let mut count = T::zero();
                for _ in 0..solutions {
                    count.add(&T::one())?;
                }
                Ok(Some(count))
            }
            Err(Unlisted::Large) => Ok(None),
            // The solutions listed so far are counted for certain.
            Err(Unlisted::Stopped) => Err(Halt::cancelled(BigUint::from(solutions))),
        }
    }

    /// The sum of the counts of `branches` (the children of a branching cell of `part`, each
    /// with what is known about its completions), two halves at a time in parallel: in black
    /// and white, the filled child on this thread and the empty one on another.
    fn count_branches(
        &self,
        part: &Part,
        branches: &[(P::Grid, Liveness<'_, P::Grid>)],
        memo: Option<&SealedMemo<P::Grid>>,
    ) -> Result<T, Halt> {
        let (first, rest) = match branches {
            [] => return Ok(T::zero()),
            [(child, liveness)] => {
                let mut left: Vec<(u32, u32)> = part
                    .cells
                    .iter()
                    .copied()
                    .filter(|&(r, c)| child.values(r as usize, c as usize).count_ones() > 1)
                    .collect();
                // It lives as long as the branch; the path's memory counts it at its length.
                left.shrink_to_fit();
                return self.count_cells(child, &left, memo, *liveness);
            }
            _ => branches.split_at(branches.len() / 2),
        };
        let (first, rest) = rayon::join(
            || self.count_branches(part, first, memo),
            || self.count_branches(part, rest, memo),
        );
        match (first, rest) {
            (Ok(mut total), Ok(rest)) => {
                total.add(&rest)?;
                Ok(total)
            }
            (first, rest) if Halt::overflowed(&first) || Halt::overflowed(&rest) => {
                Err(Halt::from(Overflow))
            }
            (first, rest) => Err(Halt {
                error: Halt::error_of([&first, &rest]).unwrap_or(ComponentError::Cancelled),
                at_least: Halt::at_least(&first) + Halt::at_least(&rest),
            }),
        }
    }
}
