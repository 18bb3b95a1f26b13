//! Counting by a propagated sweep with a memo of residual problems keyed by line classes.
//!
//! The cells are decided in a fixed order, one line after another (rows top to bottom, or
//! columns left to right), each branch propagated, so that dead ends die early, as in the
//! search. What is left to decide after the first `p` cells of the sweep is determined by `p`,
//! the class of the line being swept and the classes of the crossing lines (see
//! [`super::dfa`]): two partial grids with the same classes have the same number of
//! completions, whatever their cells. So every node's count is memoised under that key, in a
//! table all threads share, and a residual problem is counted once however many partial grids
//! lead to it. Unlike the forward dynamic program over profiles ([`super::profile`]), the sweep
//! never stores a residual problem that propagation refutes, which on random pictures is most
//! of them.

use std::sync::atomic::Ordering;

use super::countable::Countable;
use super::dfa::{DEAD, LineDfa, Successors};
use super::key::{Key, Layout, bits_for, with_narrowest_key};
use super::profile::{Orientation, ProfileError, ProfileProblem};
use super::propagators::ThreadPropagators;
use super::stop::Stop;
use super::tally::{Overflow, Tally};
use crate::domain::{DomainGrid, each_value};
pub(super) use memo::MemoBudget;
use memo::SweepMemo;
use num_bigint::BigUint;
pub use stats::SweepStats;

mod memo;
mod stats;

/// Why a sweep count stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SweepError {
    /// The cancel flag was raised.
    Cancelled,
    /// The count outgrew the number type.
    Overflow,
    /// The memo reached its size limit.
    MemoFull,
    /// A line's automaton is too large.
    LineTooLong,
}

impl From<Overflow> for SweepError {
    fn from(_: Overflow) -> Self {
        SweepError::Overflow
    }
}

/// The weight of the whole tree in the explored fraction: a node's weight is shared among its
/// children, down to units of one.
pub(super) const WHOLE_TREE: u64 = 1 << 60;

/// How much more a child with one more unknown cell weighs, as a power of two: children weigh
/// `2^(UNKNOWN_CELL_WEIGHT x unknown cells)`, after propagation.
const UNKNOWN_CELL_WEIGHT: f64 = 0.1;

/// Where a node of the sweep stands: cells decided so far and the classes they leave.
#[derive(Clone, Debug)]
struct Frontier<K> {
    /// Cells of the sweep order decided.
    done: usize,
    /// The class of the line being swept, before its next cell.
    swept: u16,
    /// The class of every crossing line.
    crossing: K,
}

/// A sweep over one probed grid of a puzzle, with its memo.
pub(super) struct SweepCounter<'p, K: Key, T, P: Countable> {
    puzzle: &'p P,
    /// The sweep goes column by column (the crossing lines are the rows).
    transposed: bool,
    /// The sweep goes from the last line to the first (bottom to top, or right to left).
    reversed: bool,
    /// The lines swept, in order, as automata with the root's known cells folded in.
    swept: Vec<LineDfa<P::Successors>>,
    /// The crossing lines likewise.
    crossing: Vec<LineDfa<P::Successors>>,
    layout: Layout,
    /// Counts under keys of the crossing lines' classes, the swept line's and the cells done.
    memo: SweepMemo<'p, K, T>,
    /// A propagator (buffers and line-result cache) for each thread of the pool, and one for
    /// a caller outside it. Owned by the counter, so that their caches serve its puzzle only.
    propagators: ThreadPropagators<P>,
    /// What it did, live.
    stats: &'p SweepStats,
    /// In the current count, the solutions of the finished subtrees whose parent did not
    /// finish (it was stopped, or its memo was full). They are disjoint, and every finished
    /// subtree is in one of them or within a finished parent, so once the count stops their
    /// sum is exactly the solutions it had counted.
    unfinished: std::sync::Mutex<BigUint>,
}

/// The automata of a sweep's lines, and the layout of its keys: what a [`SweepCounter`] is
/// built from, whatever its key type.
pub(super) struct SweepLines<S> {
    transposed: bool,
    reversed: bool,
    swept: Vec<LineDfa<S>>,
    crossing: Vec<LineDfa<S>>,
    layout: Layout,
}

impl<S: Successors> SweepLines<S> {
    /// The lines of a sweep of `puzzle` from `root` (a propagated grid), line by line as
    /// `orientation` says: each automaton reads its cells in the order the sweep decides them.
    pub(super) fn new<P: Countable<Successors = S>>(
        puzzle: &P,
        root: &P::Grid,
        orientation: Orientation,
        stop: Stop,
    ) -> Result<Self, SweepError> {
        // The lines of a walk by profiles, in the same order.
        let lines = ProfileProblem::new(puzzle, root, orientation, &|| stop.raised()).map_err(
            |e| match e {
                ProfileError::Cancelled => SweepError::Cancelled,
                _ => SweepError::LineTooLong,
            },
        )?;
        // After the crossing lines' classes, a key holds the swept line's class and the cells
        // done, the latter in two fields of at most 16 bits.
        let swept = lines.steps.iter().map(|l| bits_for(l.widest())).max();
        let done = bits_for(lines.steps.len() * lines.tracked.len());
        let fields = [swept.unwrap_or(0), done.min(16), done.saturating_sub(16)];
        Ok(SweepLines {
            transposed: orientation.transposed,
            reversed: orientation.reversed,
            layout: Layout::new(&lines.tracked).with_fields(&fields),
            swept: lines.steps,
            crossing: lines.tracked,
        })
    }
}

impl<'p, K: Key, T: Tally, P: Countable> SweepCounter<'p, K, T, P> {
    /// A sweep of `puzzle` from `root` (a propagated grid), line by line as `orientation`
    /// says, whose memo takes its memory from `budget`, with keys of type `K` (which must hold
    /// its classes: [`new_sweep`] picks the type).
    #[cfg(test)]
    pub(super) fn new(
        puzzle: &'p P,
        root: &P::Grid,
        orientation: Orientation,
        budget: &'p MemoBudget,
        stats: &'p SweepStats,
    ) -> Result<Self, SweepError> {
        let never = std::sync::atomic::AtomicBool::new(false);
        let lines = SweepLines::new(puzzle, root, orientation, Stop::from(&never))?;
        Ok(Self::with_lines(puzzle, lines, budget, stats))
    }

    /// A sweep of `puzzle` over `lines`, whose memo takes its memory from `budget`.
    pub(super) fn with_lines(
        puzzle: &'p P,
        lines: SweepLines<P::Successors>,
        budget: &'p MemoBudget,
        stats: &'p SweepStats,
    ) -> Self {
        let SweepLines {
            transposed,
            reversed,
            swept,
            crossing,
            layout,
        } = lines;
        SweepCounter {
            memo: SweepMemo::new(budget, layout.fields()),
            puzzle,
            transposed,
            reversed,
            swept,
            crossing,
            layout,
            propagators: ThreadPropagators::new(),
            stats,
            unfinished: std::sync::Mutex::new(BigUint::ZERO),
        }
    }

    /// Counts the solutions that extend `root`, the grid the counter was built from, until
    /// `stop` is raised. The memo stays: counting again goes on where the last count stopped.
    /// If it stops first, the solutions it had counted are offered to the stats' lower bound.
    pub(super) fn count(&self, root: &P::Grid, stop: Stop) -> Result<T, SweepError> {
        let side = Orientation {
            transposed: self.transposed,
            reversed: self.reversed,
        };
        self.stats.restart(side.index() as u32);
        *self.lock_unfinished() = BigUint::ZERO;
        let counted = self.count_from_root(root, stop);
        if counted.is_err() {
            let at_least = std::mem::take(&mut *self.lock_unfinished());
            self.stats.offer_at_least(at_least);
        }
        counted
    }

    fn lock_unfinished(&self) -> std::sync::MutexGuard<'_, BigUint> {
        self.unfinished
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds a finished subtree whose parent did not finish to [`Self::unfinished`].
    fn keep_unfinished(&self, finished: &T) {
        if !finished.is_zero() {
            *self.lock_unfinished() += finished.to_big();
        }
    }

    /// [`Self::count`], without its lower bound.
    fn count_from_root(&self, root: &P::Grid, stop: Stop) -> Result<T, SweepError> {
        let mut crossing = K::blank(self.layout.fields());
        for (t, line) in self.crossing.iter().enumerate() {
            if line.start() == DEAD {
                self.stats.finish(WHOLE_TREE, 0.0);
                return Ok(T::zero());
            }
            crossing.set(&self.layout, t, line.start());
        }
        let Some(first) = self.swept.first() else {
            self.stats.finish(WHOLE_TREE, 1.0);
            return Ok(T::one());
        };
        if first.start() == DEAD {
            self.stats.finish(WHOLE_TREE, 0.0);
            return Ok(T::zero());
        }
        let start = Frontier {
            done: 0,
            swept: first.start(),
            crossing,
        };
        self.count_node(root, start, WHOLE_TREE, &stop)
    }

    /// The cell at `index` of the sweep order, as (row, column).
    fn cell_at(&self, index: usize) -> (usize, usize) {
        let across = self.crossing.len();
        let (mut line, pos) = (index / across, index % across);
        if self.reversed {
            line = self.swept.len() - 1 - line;
        }
        if self.transposed {
            (pos, line)
        } else {
            (line, pos)
        }
    }

    /// Moves `at` over the cells of `grid` already known, or `None` if they break a line.
    fn advance(&self, grid: &P::Grid, mut at: Frontier<K>) -> Option<Frontier<K>> {
        let across = self.crossing.len();
        let total = self.swept.len() * across;
        while at.done < total {
            let (r, c) = self.cell_at(at.done);
            let values = grid.values(r, c);
            if !values.is_power_of_two() {
                break;
            }
            let value = values.trailing_zeros() as usize;
            let (line, pos) = (at.done / across, at.done % across);
            at.swept = self.swept[line].class(pos, at.swept).after(value);
            let crossing = self.crossing[pos]
                .class(line, at.crossing.get(&self.layout, pos))
                .after(value);
            if at.swept == DEAD || crossing == DEAD {
                return None;
            }
            at.crossing.set(&self.layout, pos, crossing);
            at.done += 1;
            if pos + 1 == across
                && let Some(next) = self.swept.get(line + 1)
            {
                at.swept = next.start();
            }
        }
        Some(at)
    }

    /// The number of completions of `grid` (propagated, consistent with `at`), a node of
    /// `weight` in the explored fraction.
    fn count_node(
        &self,
        grid: &P::Grid,
        at: Frontier<K>,
        weight: u64,
        stop: &Stop,
    ) -> Result<T, SweepError> {
        if stop.raised() {
            return Err(SweepError::Cancelled);
        }
        let Some(at) = self.advance(grid, at) else {
            self.stats.finish(weight, 0.0);
            return Ok(T::zero());
        };
        if at.done == self.swept.len() * self.crossing.len() {
            self.stats.finish(weight, 1.0);
            return Ok(T::one());
        }
        let key = self.memo_key(&at);
        if let Some(hit) = self.memo.get(&key) {
            self.stats.memo_hits.fetch_add(1, Ordering::Relaxed);
            self.stats.finish(weight, hit.approx());
            return Ok(hit);
        }
        self.stats.branched.fetch_add(1, Ordering::Relaxed);
        let mut children = self.children(grid, at.done);
        let kept = share_among_children(&mut children, weight);
        let total = self.count_children(&children, &at, stop)?;
        self.stats.finish(kept, 0.0);
        if !self.memo.insert(key, &total) {
            self.keep_unfinished(&total);
            return Err(SweepError::MemoFull);
        }
        Ok(total)
    }

    /// The memo's key for `at`: the crossing lines' classes, then the swept line's class and
    /// the cells done (see [`SweepLines::new`]).
    fn memo_key(&self, at: &Frontier<K>) -> K {
        let fields = self.crossing.len();
        let mut key = at.crossing.clone();
        key.set(&self.layout, fields, at.swept);
        key.set(&self.layout, fields + 1, at.done as u16);
        key.set(&self.layout, fields + 2, (at.done >> 16) as u16);
        key
    }

    /// The children of `grid` that propagation leaves alive, one for each value of the cell at
    /// `index` of the sweep order, in the order domain `P` tries values (their weights 0).
    fn children(&self, grid: &P::Grid, index: usize) -> Children<P::Grid> {
        let (row, col) = self.cell_at(index);
        let mut children = Children::new();
        for value in each_value::<P>(grid.values(row, col)) {
            let mut child = grid.clone();
            child.decide(row, col, value);
            let propagated =
                self.propagators
                    .get()
                    .propagate_cell(self.puzzle, &mut child, row, col);
            if propagated.is_ok() {
                children.push(Child {
                    unknown: child.undecided(),
                    grid: child,
                    weight: 0,
                });
            }
        }
        children
    }

    /// The sum of the counts of `children` (nodes after `at`), split in halves, the first
    /// holding the children domain `P` tries first, and run by [`rayon::join`]: in black and
    /// white, filled beside empty. A finished half beside a stopped one is kept as unfinished.
    fn count_children(
        &self,
        children: &[Child<P::Grid>],
        at: &Frontier<K>,
        stop: &Stop,
    ) -> Result<T, SweepError> {
        match children {
            [] => return Ok(T::zero()),
            [child] => return self.count_node(&child.grid, at.clone(), child.weight, stop),
            _ => {}
        }
        let (first, second) = children.split_at(children.len().div_ceil(2));
        match rayon::join(
            || self.count_children(first, at, stop),
            || self.count_children(second, at, stop),
        ) {
            (Ok(mut total), Ok(second)) => {
                total.add(&second)?;
                Ok(total)
            }
            (Ok(finished), Err(e)) | (Err(e), Ok(finished)) => {
                self.keep_unfinished(&finished);
                Err(e)
            }
            (Err(e), Err(_)) => Err(e),
        }
    }
}

/// A child of a sweep's node: its grid, decided and propagated, its unknown cells, and its
/// weight in the explored fraction.
pub(super) struct Child<G> {
    pub(super) grid: G,
    pub(super) unknown: usize,
    pub(super) weight: u64,
}

/// The children of a sweep's node (two in black and white).
type Children<G> = smallvec::SmallVec<[Child<G>; 2]>;

/// Shares a node's `weight` in the explored fraction among its `children` alive after
/// propagation, and returns what is left for the node to count when it finishes (all of it
/// when none is alive, and what rounding left). A child weighs in proportion to
/// `2^(UNKNOWN_CELL_WEIGHT x its unknown cells)`, so that a child that propagation settled
/// further, which is likely to finish sooner, takes less; weighing by depth alone, the
/// subtrees near the root that die a line or two down made the fraction run far ahead of the
/// work.
pub(super) fn share_among_children<G>(children: &mut [Child<G>], weight: u64) -> u64 {
    let most = children.iter().map(|c| c.unknown).max().unwrap_or(0);
    let odds =
        |child: &Child<G>| (UNKNOWN_CELL_WEIGHT * (child.unknown as f64 - most as f64)).exp2();
    let sum: f64 = children.iter().map(odds).sum();
    let mut left = weight;
    for child in children.iter_mut() {
        child.weight = ((weight as f64 * odds(child) / sum) as u64).min(left);
        left -= child.weight;
    }
    left
}

/// A sweep of one grid that can count again, going on where it stopped, whatever its key and
/// number types.
pub(super) trait ResumableSweep<G>: Send + Sync {
    /// Counts the solutions that extend the grid the sweep was built from (`root`), until
    /// `stop` is raised.
    fn count_big(&self, root: &G, stop: Stop) -> Result<BigUint, SweepError>;
}

impl<K: Key, T: Tally, P: Countable> ResumableSweep<P::Grid> for SweepCounter<'_, K, T, P> {
    fn count_big(&self, root: &P::Grid, stop: Stop) -> Result<BigUint, SweepError> {
        self.count(root, stop).map(|n| n.to_big())
    }
}

/// A sweep of `puzzle` from `root` line by line as `orientation` says, with the narrowest key
/// type that holds its classes and counts of type `T`.
pub(super) fn new_sweep<'p, T: Tally, P: Countable>(
    puzzle: &'p P,
    root: &P::Grid,
    orientation: Orientation,
    budget: &'p MemoBudget,
    stats: &'p SweepStats,
    stop: Stop,
) -> Result<Box<dyn ResumableSweep<P::Grid> + 'p>, SweepError> {
    fn typed<'p, K: Key, T: Tally, P: Countable>(
        puzzle: &'p P,
        lines: SweepLines<P::Successors>,
        budget: &'p MemoBudget,
        stats: &'p SweepStats,
    ) -> Box<dyn ResumableSweep<P::Grid> + 'p> {
        Box::new(SweepCounter::<K, T, P>::with_lines(
            puzzle, lines, budget, stats,
        ))
    }
    let lines = SweepLines::new(puzzle, root, orientation, stop)?;
    Ok(with_narrowest_key!(&lines.layout, K => {
        typed::<K, T, P>(puzzle, lines, budget, stats)
    }))
}
