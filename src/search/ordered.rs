//! The ordered parallel search: solutions reach the collector in the order the sequential
//! search finds them (depth first, the filled child before the empty one), whatever the number
//! of threads, so a listing is the same byte for byte.
//!
//! The tree is searched as in the unordered search, each node offering its second (empty)
//! child to idle workers through [`rayon::join`]. When the second child starts while the first
//! is still running (it was stolen), it gets a [`Sink`] of its own that *buffers* its solutions.
//! When the first child finishes, its thread *opens* the sink: it forwards what was buffered to
//! the parent's route and, from then on, the second child's solutions pass straight through.
//! When the second child starts after the first has finished (the common case: nobody stole it),
//! it simply uses its parent's route. A solution therefore reaches the channel only when every
//! subtree before it has finished, and the collector sees exactly the sequential order. When
//! solutions go out as bytes ([`Solver::run_batched`](super::Solver::run_batched)), a sink holds
//! them written, by the thread that found them, which also frees their grids: grids that one
//! thread allocates and another frees contend for the allocator's locks.
//!
//! Memory is bounded: once the buffered solutions pass a budget (64 MiB of grids, a written
//! solution weighing as many grids as its bytes fill), a worker that
//! would only add to a buffer does not explore its node but *defers* it, storing the node itself
//! (its grid and probe memo) in the buffer, in order. Deferring unwinds the worker quickly (one
//! stored node per pending sibling), and it then helps the search at the front, whose solutions
//! stream to the collector. The thread that opens a sink explores its deferred nodes in their
//! turn. Buffered solutions never exceed the budget by more than one per worker.
//!
//! When the search stops early (a limit, a signal, the collector's [`Flow::Stop`]), a sink whose
//! first sibling did not finish is never opened: what it holds is dropped, so the collector has
//! received a prefix of the full ordered listing.
//!
//! [`Flow::Stop`]: super::Flow::Stop

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::batch::{BATCH_BYTES, Batch};
use super::product::{Odometer, Product};
use super::tree::{SearchCx, Step, WALK_JOINS, small};
use crate::choose::SealedMemo;
use crate::count::Countable;
use crate::domain::DomainGrid;
use crate::puzzle::Puzzle;

/// How much buffered solutions may hold, in bytes of grids, before workers defer nodes.
const BUFFER_BYTES: usize = 64 << 20;

/// The buffered-solution budget for grids like `grid` (at least 64 solutions).
pub(crate) fn default_budget<G: DomainGrid>(grid: &G) -> usize {
    (BUFFER_BYTES / grid_bytes(grid)).max(64)
}

/// The bytes a held-back grid like `grid` takes.
fn grid_bytes<G: DomainGrid>(grid: &G) -> usize {
    grid.heap_bytes() + std::mem::size_of::<G>() + 16
}

/// A subtree kept for later: explored when its sink opens.
struct Pending<G> {
    grid: G,
    depth: u32,
    rest: Rest<G>,
}

/// What a pending subtree is.
enum Rest<G> {
    /// A node, with its parent's probe memo.
    Node(Option<Arc<SealedMemo<G>>>),
    /// Part of a product's walk (see [`SearchCx`]'s `walk`), with the levels of joins it
    /// may still make.
    Walk {
        product: Arc<Product>,
        index: usize,
        range: Range<usize>,
        joins_left: u32,
    },
    /// The rest of a product's walk in one grid, from the solution the grid holds.
    Odometer {
        product: Arc<Product>,
        odometer: Odometer,
    },
}

/// What a sink holds, in search order.
enum Item<G> {
    Solution(G),
    /// Solutions written as bytes where the search writes them (see [`SearchCx::write_held`]),
    /// on the thread that found them.
    Written(Held),
    Deferred(Pending<G>),
}

/// Solutions written ahead of their turn, and what they weigh against the budget: a
/// solution as many grids as its bytes would fill, and at least one (text can take four times
/// a grid's bytes). A sink holds them in batches of about [`BATCH_BYTES`], each sent on as it
/// is, so that none is copied or grown far.
#[derive(Default)]
struct Held {
    batch: Batch,
    weight: usize,
}

/// Where a subtree's solutions go: straight to the collector's channel (`None`), or into a sink.
pub(crate) struct Route<G>(Option<Arc<Sink<G>>>);

impl<G> Default for Route<G> {
    fn default() -> Self {
        Route(None)
    }
}

impl<G> Clone for Route<G> {
    fn clone(&self) -> Self {
        Route(self.0.clone())
    }
}

/// The solutions (and deferred nodes) of a second child whose first sibling is still running.
struct Sink<G> {
    /// Where the items go once the sink is open.
    parent: Route<G>,
    state: Mutex<SinkState<G>>,
    /// Set once `state.open` is: an open sink is passed without its lock.
    opened: AtomicBool,
}

struct SinkState<G> {
    /// Everything before this sink's subtree has finished: items pass through.
    open: bool,
    /// Items received while closed, oldest first.
    items: VecDeque<Item<G>>,
}

impl<G> Default for SinkState<G> {
    fn default() -> Self {
        SinkState {
            open: false,
            items: VecDeque::new(),
        }
    }
}

impl<G> Sink<G> {
    fn lock(&self) -> MutexGuard<'_, SinkState<G>> {
        // A worker that panicked leaves the state whole (every update is one push or pop); the
        // panic itself is re-raised when the search thread is joined.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How the second child of a node is doing with respect to the first.
enum Sibling<G> {
    /// The first child is running and the second has not started.
    Running,
    /// The first child finished: the second may use the parent's route.
    Finished,
    /// The first child was cut short: the second must not run.
    Stopped,
    /// The second child started while the first was running, into this sink.
    Waiting(Arc<Sink<G>>),
}

/// The ordered parallel search over one tree.
pub(crate) struct Ordered<'a, P: Countable = Puzzle> {
    pub(crate) cx: &'a SearchCx<'a, P>,
    /// Solutions sitting in closed sinks. `Relaxed` is enough: it only decides whether to
    /// defer, and a stale value costs one node explored or deferred too many.
    buffered: AtomicUsize,
    budget: usize,
    /// The bytes of one held-back grid, which a written solution's bytes are weighed in.
    grid_bytes: usize,
}

impl<'a, P: Countable> Ordered<'a, P> {
    /// The ordered search of trees whose grids are like `grid`.
    pub(crate) fn new(cx: &'a SearchCx<'a, P>, budget: usize, grid: &P::Grid) -> Self {
        Ordered {
            cx,
            buffered: AtomicUsize::new(0),
            budget,
            grid_bytes: grid_bytes(grid),
        }
    }

    /// What the closed sinks hold, weighed against the budget: nothing once a search that
    /// was not stopped has ended.
    pub(crate) fn held(&self) -> usize {
        self.buffered.load(Ordering::Relaxed)
    }

    /// Explores the subtree of `grid`, its solutions going to `route`.
    pub(crate) fn explore(
        &self,
        grid: P::Grid,
        depth: u32,
        memo: Option<&Arc<SealedMemo<P::Grid>>>,
        route: &Route<P::Grid>,
    ) {
        if self.cx.stopped() {
            return;
        }
        let Some(grid) = self.defer(grid, depth, || Rest::Node(memo.cloned()), route) else {
            return;
        };
        match self.cx.expand(grid, depth, memo.map(|m| &**m)) {
            Step::Done => {}
            Step::Solution(grid) => {
                self.cx.count_solution(depth);
                self.forward(grid, route);
            }
            Step::Branch { children, memo, .. } => {
                self.children(children, depth, memo.as_ref(), route)
            }
            Step::Product { grid, product } => {
                let all = (0, product.solutions(0));
                self.walk(grid, &Arc::new(product), all, (depth, WALK_JOINS), route);
            }
        }
    }

    /// Stores the subtree of `grid` in the first closed sink of `route` when the buffers are
    /// over budget, and returns `None`; returns the grid when it is to be explored now.
    fn defer(
        &self,
        grid: P::Grid,
        depth: u32,
        rest: impl FnOnce() -> Rest<P::Grid>,
        route: &Route<P::Grid>,
    ) -> Option<P::Grid> {
        if self.buffered.load(Ordering::Relaxed) < self.budget {
            return Some(grid);
        }
        let pending = Pending {
            grid,
            depth,
            rest: rest(),
        };
        match self.deliver(Item::Deferred(pending), route) {
            // Every sink on the way is open: this subtree is at the front, explore it.
            Some(Item::Deferred(pending)) => Some(pending.grid),
            _ => None,
        }
    }

    /// Walks part of a product in order (as [`SearchCx`]'s own walk does, each half of a
    /// range a branch for `joins_left` levels, then the rest in one grid).
    fn walk(
        &self,
        grid: P::Grid,
        product: &Arc<Product>,
        (index, range): (usize, Range<usize>),
        (depth, joins_left): (u32, u32),
        route: &Route<P::Grid>,
    ) {
        if self.cx.stopped() {
            return;
        }
        let rest = || Rest::Walk {
            product: Arc::clone(product),
            index,
            range: range.clone(),
            joins_left,
        };
        let Some(mut grid) = self.defer(grid, depth, rest, route) else {
            return;
        };
        if index == product.len() {
            self.cx.poll();
            self.cx.count_solution(depth);
            self.forward(grid, route);
            return;
        }
        match range.len() {
            0 => self.cx.stats.finish_subtree(depth),
            _ if joins_left == 0 => {
                let Some(odometer) = Odometer::start(product, &mut grid, (index, range), depth)
                else {
                    return;
                };
                self.walk_in_place(grid, product, odometer, route);
            }
            1 => {
                product.write(&mut grid, index, range.start);
                let next = (index + 1, product.solutions(index + 1));
                self.walk(grid, product, next, (depth, joins_left), route);
            }
            n => {
                let middle = range.start + n / 2;
                let first = grid.clone();
                let below = (depth + 1, joins_left - 1);
                self.branch(
                    |route| self.walk(first, product, (index, range.start..middle), below, route),
                    |route| self.walk(grid, product, (index, middle..range.end), below, route),
                    route,
                );
            }
        }
    }

    /// Walks the rest of a product in `grid`, which holds the solution `odometer` is at,
    /// deferring what is left of it when the buffers are full.
    fn walk_in_place(
        &self,
        mut grid: P::Grid,
        product: &Arc<Product>,
        mut odometer: Odometer,
        route: &Route<P::Grid>,
    ) {
        loop {
            if self.cx.stopped() {
                return;
            }
            let rest = || Rest::Odometer {
                product: Arc::clone(product),
                odometer: odometer.clone(),
            };
            let Some(written) = self.defer(grid, odometer.depth(), rest, route) else {
                return;
            };
            grid = written;
            self.cx.poll();
            self.cx.count_solution(odometer.depth());
            self.forward(grid.clone(), route);
            if !odometer.advance(product, &mut grid) {
                return;
            }
        }
    }

    /// Sends a solution along `route`: into the first closed sink, or to the channel.
    fn forward(&self, grid: P::Grid, route: &Route<P::Grid>) {
        if let Some(Item::Solution(grid)) = self.deliver(Item::Solution(grid), route) {
            self.cx.send(grid);
        }
    }

    /// Puts `item` at the end of the first closed sink on `route`. Returns it when every sink
    /// on the way is open: the caller then sends or explores it at once.
    fn deliver(&self, item: Item<P::Grid>, route: &Route<P::Grid>) -> Option<Item<P::Grid>> {
        let mut route = route;
        while let Some(sink) = &route.0 {
            if !sink.opened.load(Ordering::Acquire) {
                let mut state = sink.lock();
                if !state.open {
                    self.hold(item, &mut state.items);
                    return None;
                }
            }
            route = &sink.parent;
        }
        Some(item)
    }

    /// Adds `item` to a closed sink's `items`: a solution written into the last batch of
    /// written ones when solutions go out as bytes, so that one thread allocates and frees it.
    fn hold(&self, item: Item<P::Grid>, items: &mut VecDeque<Item<P::Grid>>) {
        let item = match (item, items.back_mut()) {
            (Item::Solution(grid), Some(Item::Written(last)))
                if last.batch.bytes_len() < BATCH_BYTES =>
            {
                match self.write(grid, last) {
                    None => return,
                    Some(grid) => Item::Solution(grid),
                }
            }
            (Item::Solution(grid), _) => {
                let mut held = Held::default();
                match self.write(grid, &mut held) {
                    None => {
                        items.push_back(Item::Written(held));
                        return;
                    }
                    Some(grid) => Item::Solution(grid),
                }
            }
            (Item::Written(held), Some(Item::Written(last)))
                if last.batch.bytes_len() + held.batch.bytes_len() <= BATCH_BYTES =>
            {
                let _ = self.buffered.fetch_add(held.weight, Ordering::Relaxed);
                last.batch.append(&held.batch);
                last.weight += held.weight;
                return;
            }
            (item, _) => item,
        };
        let weight = match &item {
            Item::Solution(_) => 1,
            Item::Written(held) => held.weight,
            Item::Deferred(_) => 0,
        };
        let _ = self.buffered.fetch_add(weight, Ordering::Relaxed);
        items.push_back(item);
    }

    /// Writes a held-back solution at the end of `held` and adds its weight to it and to the
    /// buffered total; returns the grid instead when solutions go out as grids.
    fn write(&self, grid: P::Grid, held: &mut Held) -> Option<P::Grid> {
        let before = held.batch.bytes_len();
        if let Some(grid) = self.cx.write_held(grid, &mut held.batch) {
            return Some(grid);
        }
        let weight = (held.batch.bytes_len() - before).div_ceil(self.grid_bytes);
        held.weight += weight.max(1);
        let _ = self.buffered.fetch_add(weight.max(1), Ordering::Relaxed);
        None
    }

    /// Explores children that together stand for `2^-depth` of the tree, in order, as a
    /// binary tree of branches (see [`SearchCx`]'s own).
    fn children(
        &self,
        mut children: Vec<P::Grid>,
        depth: u32,
        memo: Option<&Arc<SealedMemo<P::Grid>>>,
        route: &Route<P::Grid>,
    ) {
        match children.len() {
            0 => self.cx.stats.finish_subtree(depth),
            1 => {
                if let Some(only) = children.pop() {
                    self.explore(only, depth, memo, route);
                }
            }
            n => {
                let together = small(&children);
                let second = children.split_off(n / 2);
                if together {
                    // Small subtrees: one after the other, without a join or a sink.
                    self.children(children, depth + 1, memo, route);
                    if !self.cx.stopped() {
                        self.children(second, depth + 1, memo, route);
                    }
                    return;
                }
                self.branch(
                    |route| self.children(children, depth + 1, memo, route),
                    |route| self.children(second, depth + 1, memo, route),
                    route,
                );
            }
        }
    }

    /// Runs two subtrees, the first streaming into `route`, the second buffered while the
    /// first runs (see the module documentation).
    fn branch(
        &self,
        first_subtree: impl FnOnce(&Route<P::Grid>) + Send,
        second_subtree: impl FnOnce(&Route<P::Grid>) + Send,
        route: &Route<P::Grid>,
    ) {
        let sibling = Mutex::new(Sibling::Running);
        let lock = || sibling.lock().unwrap_or_else(PoisonError::into_inner);
        let first = || {
            first_subtree(route);
            let finished = !self.cx.stopped();
            let next = if finished {
                Sibling::Finished
            } else {
                Sibling::Stopped
            };
            let waiting = std::mem::replace(&mut *lock(), next);
            if let Sibling::Waiting(sink) = waiting
                && finished
            {
                self.open(&sink);
            }
        };
        let second = || {
            let own = {
                let mut state = lock();
                match &*state {
                    Sibling::Running => {
                        let sink = Arc::new(Sink {
                            parent: route.clone(),
                            state: Mutex::default(),
                            opened: AtomicBool::new(false),
                        });
                        *state = Sibling::Waiting(Arc::clone(&sink));
                        Some(Route(Some(sink)))
                    }
                    Sibling::Finished => None,
                    Sibling::Stopped | Sibling::Waiting(_) => return,
                }
            };
            second_subtree(own.as_ref().unwrap_or(route));
        };
        let ((), ()) = rayon::join(first, second);
    }

    /// Opens a sink whose first sibling has finished: forwards its items in order (exploring
    /// deferred nodes in their turn), then lets later items pass through. Stops, leaving the
    /// sink closed, when the search stops: what it still holds is then dropped.
    fn open(&self, sink: &Sink<P::Grid>) {
        loop {
            // All the items at once: the second sibling may be adding to them meanwhile.
            let items = {
                let mut state = sink.lock();
                if state.items.is_empty() {
                    state.open = true;
                    sink.opened.store(true, Ordering::Release);
                    return;
                }
                std::mem::take(&mut state.items)
            };
            for item in items {
                if self.cx.stopped() {
                    return;
                }
                self.resume(item, &sink.parent);
            }
        }
    }

    /// Forwards an item of a sink just opened to `route`, exploring a deferred node.
    fn resume(&self, item: Item<P::Grid>, route: &Route<P::Grid>) {
        match item {
            Item::Solution(grid) => {
                let _ = self.buffered.fetch_sub(1, Ordering::Relaxed);
                self.forward(grid, route);
            }
            Item::Written(held) => {
                let _ = self.buffered.fetch_sub(held.weight, Ordering::Relaxed);
                if let Some(Item::Written(held)) = self.deliver(Item::Written(held), route) {
                    self.cx.send_written(held.batch);
                }
            }
            Item::Deferred(Pending { grid, depth, rest }) => match rest {
                Rest::Node(memo) => self.explore(grid, depth, memo.as_ref(), route),
                Rest::Walk {
                    product,
                    index,
                    range,
                    joins_left,
                } => {
                    let below = (depth, joins_left);
                    self.walk(grid, &product, (index, range), below, route);
                }
                Rest::Odometer { product, odometer } => {
                    self.walk_in_place(grid, &product, odometer, route);
                }
            },
        }
    }
}

#[cfg(test)]
#[path = "ordered_tests.rs"]
mod tests;
