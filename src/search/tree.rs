//! The depth-first search over the tree of branching cells, written once for both the
//! sequential and the parallel search: a [`Joiner`] decides how the two children of a node run.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::Sender;

use super::batch::{Batch, Batcher};
use super::dead_ends::{CutDeadEnds, Verdict};
use super::held::{Hold, MemoSlot, Siblings, hold_memo};
use super::product::{Product, Split};
use super::restart::Attempt;
use super::stats::SearchStats;
use crate::choose::{Choice, ProbeCounts, Probing, SealedMemo, choose_by};
use crate::count::Countable;
use crate::domain::{Domain, DomainGrid};
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;

/// Runs the two children of a node.
pub(crate) trait Joiner {
    /// Runs `a` and `b`, in either order or at the same time, and returns when both are done.
    fn join<A: FnOnce() + Send, B: FnOnce() + Send>(a: A, b: B);

    /// The worker running the caller, where that can change between the two children.
    fn worker() -> Option<usize>;
}

/// The levels of joins a product's walk makes (see [`SearchCx::walk`]) before it walks the
/// rest in one grid: up to 4,096 pieces for idle workers to take, and as many copies of the
/// grid along a path. Two in the unit tests, so that their small products take both paths.
pub(super) const WALK_JOINS: u32 = if cfg!(test) { 2 } else { 12 };

/// Runs the children one after the other on the current thread.
pub(crate) struct Sequential;

impl Joiner for Sequential {
    fn join<A: FnOnce() + Send, B: FnOnce() + Send>(a: A, b: B) {
        a();
        b();
    }

    fn worker() -> Option<usize> {
        None
    }
}

/// Offers the second child to idle rayon workers (work stealing); runs it locally otherwise.
pub(crate) struct Parallel;

impl Joiner for Parallel {
    fn join<A: FnOnce() + Send, B: FnOnce() + Send>(a: A, b: B) {
        let ((), ()) = rayon::join(a, b);
    }

    fn worker() -> Option<usize> {
        rayon::current_thread_index()
    }
}

/// Children with at most this many undecided cells each run one after the other on the
/// current thread, even in a pool. Their subtrees are small (a 4 x 4 permutation block has 24
/// leaves, about 15 microseconds of work), and the nodes near the bottom of the tree, where an
/// enumeration spends its time, would otherwise each pay a join (a few tens of nanoseconds,
/// against a few hundred for a plain node) that no idle thread needs.
pub(crate) const JOIN_ABOVE: usize = 16;

/// Whether `children` are small enough to run on the current thread (see [`JOIN_ABOVE`]).
pub(crate) fn small<G: DomainGrid>(children: &[G]) -> bool {
    children.iter().all(|child| child.undecided() <= JOIN_ABOVE)
}

thread_local! {
    /// Each worker thread keeps its own propagator (line-solver buffers, queue and line-result
    /// cache), for the domain it last searched. Search threads are created for one search, so
    /// the cache serves one puzzle.
    static PROPAGATOR: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's propagator for domain `P`.
fn with_propagator<P: Domain, R>(f: impl FnOnce(&mut Propagator<P>) -> R) -> R {
    PROPAGATOR.with_borrow_mut(|slot| {
        if !slot.as_ref().is_some_and(|p| p.is::<Propagator<P>>()) {
            *slot = Some(Box::new(Propagator::<P>::with_line_cache()));
        }
        match slot
            .as_mut()
            .and_then(|p| p.downcast_mut::<Propagator<P>>())
        {
            Some(prop) => f(prop),
            None => unreachable!("the slot was just filled with this domain's propagator"),
        }
    })
}

/// What is left to do at a node once [`SearchCx::expand`] has visited it.
pub(crate) enum Step<G> {
    /// Nothing: the node is dead, or the search is stopping.
    Done,
    /// The node is a solution.
    Solution(G),
    /// Explore the children (one per value of the branching cell, in the order to try).
    Branch {
        /// The branching cell, as `row * width + col`.
        cell: usize,
        children: Vec<G>,
        memo: Option<Arc<SealedMemo<G>>>,
    },
    /// The node's solutions are a product of its components' (see [`super::product`]): each
    /// combination written into `grid`.
    Product { grid: G, product: Product },
}

/// Where the solutions of a search go.
pub(crate) enum Outlet<'a, G> {
    /// Each solution, as a grid, to the collector ([`Solver::run`](super::Solver::run)).
    Grids(Sender<G>),
    /// Written into the thread's slot of a [`Batcher`], batches to the collector
    /// ([`Solver::run_batched`](super::Solver::run_batched)). `lane` is the slot of the
    /// search's threads outside a pool.
    Bytes {
        tx: Sender<Batch>,
        batcher: &'a Batcher<'a, G>,
        lane: usize,
    },
}

impl<G> Clone for Outlet<'_, G> {
    fn clone(&self) -> Self {
        match self {
            Outlet::Grids(tx) => Outlet::Grids(tx.clone()),
            Outlet::Bytes { tx, batcher, lane } => Outlet::Bytes {
                tx: tx.clone(),
                batcher,
                lane: *lane,
            },
        }
    }
}

impl<G> Outlet<'_, G> {
    /// The same outlet for threads outside a pool on `lane` (the learning search's).
    pub(crate) fn on_lane(&self, lane: usize) -> Self {
        match self.clone() {
            Outlet::Bytes { tx, batcher, .. } => Outlet::Bytes { tx, batcher, lane },
            grids => grids,
        }
    }
}

/// What every node of one search shares.
pub(crate) struct SearchCx<'a, P: Countable = Puzzle> {
    pub(crate) puzzle: &'a P,
    pub(crate) probing: Probing,
    pub(crate) stats: &'a SearchStats,
    /// Set when the search must end early (limit reached, answer known, cancelled). Workers
    /// poll it with `Relaxed` loads: it guards no data, and a late read only costs one node.
    pub(crate) stop: &'a AtomicBool,
    /// Set from outside (Ctrl-C): read like `stop`.
    pub(crate) cancel: &'a AtomicBool,
    /// The attempt this search is, in a search with restarts (see [`super::restart`]).
    pub(crate) attempt: Option<&'a Attempt>,
    pub(crate) solutions: Outlet<'a, P::Grid>,
    /// Cuts dead subtrees by completion checks, if this search does.
    pub(crate) dead_ends: Option<&'a (dyn CutDeadEnds<P::Grid> + 'a)>,
    /// Whether the root is what is left of a product once its first components were written
    /// into its grid, which the search walks as that product's rest, whatever its size.
    pub(crate) walk_root: bool,
}

impl<P: Countable> SearchCx<'_, P> {
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.cancel.load(Ordering::Relaxed)
            || self.attempt.is_some_and(Attempt::abandoned)
    }

    /// Explores the subtree of a node whose grid is at a propagation fixpoint.
    /// `memo` holds the parent's probe results, unless the memory budget dropped them.
    pub(crate) fn explore<J: Joiner>(
        &self,
        grid: P::Grid,
        depth: u32,
        memo: Option<&MemoSlot<P::Grid>>,
    ) {
        crate::fault::inject("search");
        let key = self.stats.finished.key_at(&grid, depth);
        let parent = memo.and_then(MemoSlot::get);
        let step = self.expand(grid, depth, parent.as_deref());
        drop(parent);
        match step {
            Step::Done => {}
            Step::Solution(grid) => self.emit(grid, depth),
            Step::Branch {
                cell,
                children,
                memo,
            } => {
                let children = self.in_order(cell, children, depth);
                // The memo is held until both children are done, or until deeper frames of
                // this thread need its memory (see `held`).
                let hold = hold_memo(memo);
                let memo = hold.as_ref().map(Hold::slot);
                match Siblings::hold(&children) {
                    None => self.branch_in_place(children, depth, memo),
                    Some(_held) if small(&children) => {
                        self.children::<Sequential>(children, depth, memo)
                    }
                    Some(_held) => self.children::<J>(children, depth, memo),
                }
                if let Some(hold) = hold {
                    hold.release();
                }
            }
            Step::Product { grid, product } => {
                let all = (0, product.solutions(0));
                self.walk::<J>(grid, &product, all, depth, WALK_JOINS);
            }
        }
        if let Some(key) = key.filter(|_| !self.stopped()) {
            self.stats.finished.finish(key);
        }
    }

    /// Walks solutions `range` of component `index` of `product` and every combination of the
    /// components after it, written into `grid` (which holds a solution of each component
    /// before `index`), as a binary tree of joins over the range (as [`Self::children`] does)
    /// for [`WALK_JOINS`] levels, then in `grid` itself: each join holds a copy of the grid,
    /// and a product of a hundred thousand components would hold that many.
    pub(super) fn walk<J: Joiner>(
        &self,
        mut grid: P::Grid,
        product: &Product,
        (index, range): (usize, std::ops::Range<usize>),
        depth: u32,
        joins_left: u32,
    ) {
        if self.stopped() {
            return;
        }
        if index == product.len() {
            self.poll();
            self.emit(grid, depth);
            return;
        }
        match range.len() {
            0 => self.stats.finish_subtree(depth),
            _ if joins_left == 0 => {
                product.walk_in_place(&mut grid, index, range, depth, |solution, depth| {
                    self.poll();
                    self.emit(solution.clone(), depth);
                    !self.stopped()
                });
            }
            1 => {
                product.write(&mut grid, index, range.start);
                let next = (index + 1, product.solutions(index + 1));
                self.walk::<J>(grid, product, next, depth, joins_left);
            }
            n => {
                let middle = range.start + n / 2;
                let first = grid.clone();
                let left = joins_left - 1;
                self.join::<J>(
                    || {
                        self.walk::<J>(
                            first,
                            product,
                            (index, range.start..middle),
                            depth + 1,
                            left,
                        )
                    },
                    || self.walk::<J>(grid, product, (index, middle..range.end), depth + 1, left),
                );
            }
        }
    }

    /// Explores children that together stand for `2^-depth` of the tree, as a binary tree of
    /// joins: the first half below one arm and the rest below the other, so that the explored
    /// fraction of [`SearchStats`] stays exact and idle workers can steal either arm.
    fn children<J: Joiner>(
        &self,
        mut children: Vec<P::Grid>,
        depth: u32,
        memo: Option<&MemoSlot<P::Grid>>,
    ) {
        match children.len() {
            0 => self.stats.finish_subtree(depth),
            1 => {
                if let Some(only) = children.pop() {
                    self.explore::<J>(only, depth, memo);
                }
            }
            2 => {
                // The common case (black and white), without splitting the vector.
                let (Some(second), Some(first)) = (children.pop(), children.pop()) else {
                    return;
                };
                self.join::<J>(
                    || self.explore::<J>(first, depth + 1, memo),
                    || self.explore::<J>(second, depth + 1, memo),
                );
            }
            n => {
                let second = children.split_off(n / 2);
                self.join::<J>(
                    || self.children::<J>(children, depth + 1, memo),
                    || self.children::<J>(second, depth + 1, memo),
                );
            }
        }
    }

    /// Runs `a` and `b` as [`Joiner::join`] does. When `b` runs on another worker (it was
    /// stolen), each worker hands its written solutions to the collector when its part ends:
    /// the thief may go idle, and the first may wait for the thief a long time.
    fn join<J: Joiner>(&self, a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
        let here = J::worker();
        let stolen = AtomicBool::new(false);
        J::join(
            || {
                a();
                if stolen.load(Ordering::Relaxed) {
                    self.task_ended();
                }
            },
            || {
                let away = J::worker() != here;
                if away {
                    stolen.store(true, Ordering::Relaxed);
                }
                b();
                if away {
                    self.task_ended();
                }
            },
        );
    }

    /// Visits one node: counts it, probes or propagates, and says what is left to do.
    pub(crate) fn expand(
        &self,
        mut grid: P::Grid,
        depth: u32,
        memo: Option<&SealedMemo<P::Grid>>,
    ) -> Step<P::Grid> {
        if self.stopped() {
            return Step::Done;
        }
        self.poll();
        self.stats.add_node();
        if self.attempt.is_some_and(|a| !a.visit()) {
            return Step::Done;
        }
        if grid.complete() {
            return Step::Solution(grid);
        }
        let walk = self.walk_root && depth == 0;
        if walk || self.probing.lists_products(grid.undecided()) {
            // Before probing: each component's own search finds exactly its solutions, so
            // probing a product would only cost time.
            let split = with_propagator::<P, _>(|prop| {
                let before = prop.line_solves;
                let fewest = if walk { 1 } else { 2 };
                let stopped = || self.stopped();
                let split = Product::of_at_least(fewest, self.puzzle, &grid, prop, &stopped);
                self.stats.add_work(prop.line_solves - before, 0, 0, 0);
                split
            });
            match split {
                Split::No => {}
                Split::Product(product) => return Step::Product { grid, product },
                Split::Stopped => return Step::Done,
                Split::Dead => {
                    self.stats.finish_subtree(depth);
                    return Step::Done;
                }
            }
        }
        // Only nodes that probe are timed: reading the clock twice would cost a plain node
        // (a few hundred nanoseconds) a tenth of its time.
        let started = self.probing.probes(grid.undecided()).then(Instant::now);
        let choice = with_propagator::<P, _>(|prop| {
            let before = prop.line_solves;
            let (lookups, hits) = prop.cache_counts();
            let mut counts = ProbeCounts::default();
            let stopped = || self.stopped();
            let choice = choose_by(
                self.probing,
                self.puzzle,
                &mut grid,
                prop,
                &mut counts,
                memo,
                &stopped,
            );
            let solves = prop.line_solves - before;
            let (lookups_after, hits_after) = prop.cache_counts();
            self.stats
                .add_cache(lookups_after - lookups, hits_after - hits);
            self.stats
                .add_work(solves, counts.probes, counts.fixed, counts.reused);
            choice
        });
        if let Some(started) = started {
            self.stats.add_choose_time(started.elapsed());
        }
        match choice {
            // The search is stopping: the node's subtree is neither explored nor finished.
            Choice::Interrupted => Step::Done,
            Choice::Solved => Step::Solution(grid),
            Choice::Dead => {
                self.stats.finish_subtree(depth);
                Step::Done
            }
            Choice::Branch {
                cell: (row, col),
                mut children,
                memo,
            } => {
                // Only nodes that probe are checked: the others are too small to pay for it.
                if started.is_some() && self.cut_or_order(&grid, (row, col), &mut children) {
                    self.stats.finish_subtree(depth);
                    return Step::Done;
                }
                Step::Branch {
                    cell: row * self.puzzle.size().1 + col,
                    children,
                    memo,
                }
            }
        }
    }

    /// Whether the completion checks, if this search makes them, prove that `grid` (branching
    /// on `cell` into `children`) has no solution; else the child that holds a solution they
    /// know goes first (the others keep their order).
    fn cut_or_order(
        &self,
        grid: &P::Grid,
        (row, col): (usize, usize),
        children: &mut [P::Grid],
    ) -> bool {
        let Some(checks) = self.dead_ends else {
            return false;
        };
        checks.node();
        match checks.verdict(grid, (row, col), &|| self.stopped()) {
            Verdict::Dead => true,
            Verdict::Prefer(values) => {
                children.sort_by_key(|child| child.values(row, col) & values == 0);
                false
            }
            Verdict::Open => false,
        }
    }

    /// The `children` of a node branching on `cell` at `depth`, in the order this search
    /// tries them (an attempt of a search with restarts may swap them).
    pub(super) fn in_order(
        &self,
        cell: usize,
        mut children: Vec<P::Grid>,
        depth: u32,
    ) -> Vec<P::Grid> {
        if self.attempt.is_some_and(|a| a.swaps(cell, depth)) {
            children.reverse();
        }
        children
    }

    pub(super) fn emit(&self, grid: P::Grid, depth: u32) {
        if self.attempt.is_some_and(|a| !a.claim_solution()) {
            return;
        }
        self.count_solution(depth);
        if let Some(dead_ends) = self.dead_ends {
            dead_ends.solution();
        }
        self.send(grid);
    }

    /// Counts a solution found at `depth` (the end of its subtree).
    pub(crate) fn count_solution(&self, depth: u32) {
        self.stats.add_solution();
        self.stats.finish_subtree(depth);
    }

    /// Hands a solution to the collector (or writes it into this thread's batch).
    pub(crate) fn send(&self, grid: P::Grid) {
        let delivered = match &self.solutions {
            Outlet::Grids(tx) => tx.send(grid).is_ok(),
            Outlet::Bytes { tx, batcher, lane } => {
                self.guard_writer(|| batcher.put(&grid, *lane, tx))
            }
        };
        self.check_delivered(delivered);
    }

    /// Writes `grid` at the end of `held` when solutions go out as bytes (the ordered search
    /// holding back solutions found ahead of their turn); returns the grid when they go out
    /// as grids.
    pub(crate) fn write_held(&self, grid: P::Grid, held: &mut Batch) -> Option<P::Grid> {
        match &self.solutions {
            Outlet::Grids(_) => Some(grid),
            Outlet::Bytes { batcher, .. } => {
                let write = || batcher.write_into(&grid, held);
                self.guard_writer(write);
                None
            }
        }
    }

    /// Hands solutions written by [`SearchCx::write_held`] to the collector, in order.
    pub(crate) fn send_written(&self, held: Batch) {
        if let Outlet::Bytes { tx, batcher, lane } = &self.solutions {
            let delivered = self.guard_writer(|| batcher.put_written(held, *lane, tx));
            self.check_delivered(delivered);
        }
    }

    /// Runs `write`, which calls the caller's writer. A panic in it stops the run now:
    /// unwinding alone would wait for every sibling task to walk its subtree.
    fn guard_writer<T>(&self, write: impl FnOnce() -> T) -> T {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(write)).unwrap_or_else(|panic| {
            self.stop.store(true, Ordering::Relaxed);
            std::panic::resume_unwind(panic)
        })
    }

    /// Sends this thread's batch if it has waited since the collector's last tick.
    pub(crate) fn poll(&self) {
        if let Outlet::Bytes { tx, batcher, lane } = &self.solutions {
            let delivered = batcher.poll(*lane, tx);
            self.check_delivered(delivered);
        }
    }

    /// Sends this thread's batch: its task has ended.
    fn task_ended(&self) {
        if let Outlet::Bytes { tx, batcher, lane } = &self.solutions {
            let delivered = batcher.flush(*lane, tx);
            self.check_delivered(delivered);
        }
    }

    /// Sends every thread's batch: the search has ended.
    pub(crate) fn flush_all(&self) {
        if let Outlet::Bytes { tx, batcher, .. } = &self.solutions {
            let _ = batcher.flush_all(tx);
        }
    }

    fn check_delivered(&self, delivered: bool) {
        if !delivered {
            // The collector has gone: nobody wants more solutions.
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}
