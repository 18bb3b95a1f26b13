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
//! each finding its lines' segments in its own way.

use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::checkers::ThreadCheckers;
use super::countable::Countable;
use super::propagators::ThreadPropagators;
use super::segments::Segment;
use super::stop::Stop;
use super::tally::{LowerBound, Overflow, Tally};
use crate::choose::{Choice, ProbeCounts, SealedMemo, choose_probing};
use crate::domain::DomainGrid;
use crate::learn::Completion;
use crate::puzzle::LineId;
use num_bigint::BigUint;

/// Why a component count stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentError {
    /// The cancel flag was raised.
    Cancelled,
    /// The count outgrew the number type.
    Overflow,
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

/// Counts the puzzles of domain `P` by components, sharing one cache between threads.
pub(crate) struct ComponentCounter<'p, T, P: Countable = crate::Puzzle> {
    puzzle: &'p P,
    cache: DashMap<u128, T, FxBuildHasher>,
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
}

impl<'p, T: Tally, P: Countable> ComponentCounter<'p, T, P> {
    /// A counter for `puzzle`, stopping when `stop` is raised (a cancel flag, or a [`Stop`]),
    /// keeping its counters in `stats`.
    pub(crate) fn new(puzzle: &'p P, stop: impl Into<Stop<'p>>, stats: &'p ComponentStats) -> Self {
        ComponentCounter {
            puzzle,
            cache: DashMap::with_hasher(FxBuildHasher),
            stop: stop.into(),
            stats,
            propagators: ThreadPropagators::new(),
            checkers: ThreadCheckers::new(puzzle),
            checks: Some(CompletionChecks::default()),
        }
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

    /// Counts the solutions that extend `grid`, a grid at a propagation fixpoint. If it is
    /// cancelled, the solutions it had counted are offered to the stats' lower bound.
    pub(crate) fn count(&self, grid: &P::Grid) -> Result<T, ComponentError> {
        let unknown = unknown_cells(grid);
        self.checkers.set_root(grid);
        self.count_cells(grid, &unknown, None, Liveness::OutsideCompletes)
            .map_err(|halt| {
                if halt.error == ComponentError::Cancelled {
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
            components
                .parts
                .par_iter()
                .map(|part| self.count_component(grid, part, memo, liveness))
                .collect()
        };
        // A component without a completion leaves none, whatever the others counted.
        if counts.iter().any(|c| c.as_ref().is_ok_and(Tally::is_zero)) {
            return Ok(T::zero());
        }
        if counts.iter().any(Halt::overflowed) {
            return Err(Halt::from(Overflow));
        }
        if counts.iter().any(Result::is_err) {
            return Err(Halt::cancelled(counts.iter().map(Halt::at_least).product()));
        }
        let mut product = T::one();
        for count in counts.into_iter().flatten() {
            product = product.mul(&count)?;
        }
        Ok(product)
    }

    /// Counts one component, from the cache or by branching on one of its cells.
    fn count_component(
        &self,
        grid: &P::Grid,
        part: &Part,
        memo: Option<&SealedMemo<P::Grid>>,
        liveness: Liveness<'_, P::Grid>,
    ) -> Result<T, Halt> {
        if self.stop.raised() {
            return Err(Halt::cancelled(BigUint::ZERO));
        }
        let key = part.digest(grid);
        if let Some(hit) = self.cache.get(&key) {
            self.stats.cache_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(hit.clone());
        }
        self.stats.branched.fetch_add(1, Ordering::Relaxed);
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
        self.cache.insert(key, total.clone());
        Ok(total)
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
                let left: Vec<(u32, u32)> = part
                    .cells
                    .iter()
                    .copied()
                    .filter(|&(r, c)| child.values(r as usize, c as usize).count_ones() > 1)
                    .collect();
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
            (first, rest) => Err(Halt::cancelled(
                Halt::at_least(&first) + Halt::at_least(&rest),
            )),
        }
    }
}

/// The number of unknown cells of `grid` (a propagated grid of `puzzle`) and of them the
/// most that one component holds, or `None` if a line has no placement or `stopped` said so.
pub(super) fn largest_component<P: Countable>(
    puzzle: &P,
    grid: &P::Grid,
    stopped: &dyn Fn() -> bool,
) -> Option<(usize, usize)> {
    let unknown = unknown_cells(grid);
    let components = Components::find(puzzle, grid, &unknown, usize::MAX, stopped)?;
    let largest = components.parts.iter().map(|p| p.cells.len()).max();
    Some((unknown.len(), largest.unwrap_or(0)))
}

/// The unknown cells of `grid` (a propagated grid of `puzzle`) in their components, each
/// row-major, the components in the order of their first cell; `None` if a line has no
/// placement, a component has more than `max_cells` cells (found out as soon as it has, so
/// a huge grid of one component costs little), or if `stopped` said stop first.
pub(crate) fn component_cells<P: Countable>(
    puzzle: &P,
    grid: &P::Grid,
    max_cells: usize,
    stopped: &dyn Fn() -> bool,
) -> Option<Vec<Vec<(u32, u32)>>> {
    let unknown = unknown_cells(grid);
    let components = Components::find(puzzle, grid, &unknown, max_cells, stopped)?;
    Some(components.parts.into_iter().map(|p| p.cells).collect())
}

/// The unknown cells of a grid, row-major.
pub(super) fn unknown_cells<G: DomainGrid>(grid: &G) -> Vec<(u32, u32)> {
    let mut cells = Vec::with_capacity(grid.undecided());
    for r in 0..grid.height() {
        for c in 0..grid.width() {
            if grid.values(r, c).count_ones() > 1 {
                cells.push((r as u32, c as u32));
            }
        }
    }
    cells
}

/// One component: its unknown cells and the segments they lie in.
struct Part {
    cells: Vec<(u32, u32)>,
    /// `(line index, segment)`, sorted.
    segments: Vec<(u32, Segment)>,
}

impl Part {
    /// A 128-bit digest of the component's residual problem: each segment's line, blocks and
    /// cells, with the known ones. Equal problems have equal digests; unequal ones collide
    /// with probability about 2^-128 per pair.
    fn digest<G: DomainGrid>(&self, grid: &G) -> u128 {
        let halves = [0x9e37_79b9_7f4a_7c15_u64, 0xc2b2_ae3d_27d4_eb4f].map(|seed| {
            let mut h = FxBuildHasher.build_hasher();
            seed.hash(&mut h);
            for &(line, seg) in &self.segments {
                (line, seg).hash(&mut h);
                let height = grid.height() as u32;
                for i in seg.start..=seg.last {
                    let (r, c) = if line < height {
                        (line, i)
                    } else {
                        (i, line - height)
                    };
                    grid.values(r as usize, c as usize).hash(&mut h);
                }
                h.write_u64(seed.rotate_left(17));
            }
            h.finish()
        });
        u128::from(halves[0]) << 64 | u128::from(halves[1])
    }
}

/// Cells between two questions to the stop flag of [`Components::find`].
const CELLS_BETWEEN_STOP_CHECKS: usize = 4096;

/// The components of a set of unknown cells.
struct Components {
    parts: Vec<Part>,
}

impl Components {
    /// Splits `cells` (unknown in `grid`) into components, or `None` if a line through them
    /// has no placement, a component grows past `max_cells` cells, or `stopped`, asked every
    /// [`CELLS_BETWEEN_STOP_CHECKS`] cells, says so.
    fn find<P: Countable>(
        puzzle: &P,
        grid: &P::Grid,
        cells: &[(u32, u32)],
        max_cells: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Self> {
        let (h, w) = (grid.height(), grid.width());
        // The segments of every line through the cells.
        let mut rows: Vec<Option<Vec<Segment>>> = vec![None; h];
        let mut cols: Vec<Option<Vec<Segment>>> = vec![None; w];
        let mut solver = P::SegmentSolver::default();
        let stop_at = |i: usize| i.is_multiple_of(CELLS_BETWEEN_STOP_CHECKS) && stopped();
        for (i, &(r, c)) in cells.iter().enumerate() {
            if stop_at(i) {
                return None;
            }
            for (line, slot) in [
                (LineId::Row(r as usize), &mut rows[r as usize]),
                (LineId::Col(c as usize), &mut cols[c as usize]),
            ] {
                if slot.is_none() {
                    *slot = Some(puzzle.segments(&mut solver, grid, line)?);
                }
            }
        }
        let joined = Self::join(&rows, &cols, cells, max_cells, stopped)?;
        let mut parent = joined.parent;
        let mut part_of_root = vec![u32::MAX; cells.len()];
        let mut parts: Vec<Part> = Vec::new();
        for (i, &cell) in cells.iter().enumerate() {
            if stop_at(i) {
                return None;
            }
            let r = root(&mut parent, i as u32) as usize;
            if part_of_root[r] == u32::MAX {
                part_of_root[r] = parts.len() as u32;
                parts.push(Part {
                    cells: Vec::new(),
                    segments: Vec::new(),
                });
            }
            let part = &mut parts[part_of_root[r] as usize];
            part.cells.push(cell);
            for (line, k) in joined.keys[i] {
                let segs = if line < h as u32 {
                    rows[line as usize].as_deref()
                } else {
                    cols[(line - h as u32) as usize].as_deref()
                };
                if let Some(seg) = segs.and_then(|s| s.get(k as usize)) {
                    part.segments.push((line, *seg));
                }
            }
        }
        for part in &mut parts {
            if stopped() {
                return None;
            }
            part.segments
                .sort_unstable_by_key(|&(line, seg)| (line, seg.start));
            part.segments.dedup();
        }
        Some(Components { parts })
    }

    /// Joins `cells` into components through the line segments they share (`rows` and
    /// `cols` hold the segments of every line through them): a union-find forest, and each
    /// cell's segment in its row and its column. `None` if a component grows past
    /// `max_cells` cells, or if `stopped` says so.
    fn join(
        rows: &[Option<Vec<Segment>>],
        cols: &[Option<Vec<Segment>>],
        cells: &[(u32, u32)],
        max_cells: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Joined> {
        let h = rows.len();
        // The segment of a line holding position `i`.
        let segment_of = |segs: &[Segment], i: u32| {
            let k = segs.partition_point(|s| s.last < i);
            debug_assert!(
                k < segs.len() && segs[k].start <= i,
                "unknown cell outside spans"
            );
            k.min(segs.len().saturating_sub(1))
        };
        // Each line's segments numbered densely, so that a segment is an index.
        let mut first_slot = vec![0usize; rows.len() + cols.len() + 1];
        for (line, segs) in rows.iter().chain(cols).enumerate() {
            first_slot[line + 1] = first_slot[line] + segs.as_ref().map_or(0, Vec::len);
        }
        // Union-find over cells, joined through the first cell seen in each segment.
        let mut parent: Vec<u32> = (0..cells.len() as u32).collect();
        let mut size = vec![1u32; cells.len()];
        let mut first_in = vec![u32::MAX; first_slot[rows.len() + cols.len()]];
        let mut keys = Vec::with_capacity(cells.len());
        for (i, &(r, c)) in cells.iter().enumerate() {
            if i.is_multiple_of(CELLS_BETWEEN_STOP_CHECKS) && stopped() {
                return None;
            }
            let row_seg = segment_of(rows[r as usize].as_deref().unwrap_or(&[]), c);
            let col_seg = segment_of(cols[c as usize].as_deref().unwrap_or(&[]), r);
            let cell_keys = [(r, row_seg as u32), (h as u32 + c, col_seg as u32)];
            for (line, k) in cell_keys {
                let slot = &mut first_in[first_slot[line as usize] + k as usize];
                if *slot == u32::MAX {
                    *slot = i as u32;
                }
                let (a, b) = (root(&mut parent, i as u32), root(&mut parent, *slot));
                if a != b {
                    parent[a as usize] = b;
                    size[b as usize] += size[a as usize];
                    if size[b as usize] as usize > max_cells {
                        return None;
                    }
                }
            }
            keys.push(cell_keys);
        }
        Some(Joined { parent, keys })
    }
}

/// Cells joined into components by [`Components::join`].
struct Joined {
    /// The union-find forest over the cells.
    parent: Vec<u32>,
    /// Each cell's row and column, each as its line number and the number of its segment.
    keys: Vec<[(u32, u32); 2]>,
}

/// The root of cell `x` in the union-find forest `parent`, halving the path to it.
fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}
