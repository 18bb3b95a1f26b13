//! The search: propagation at the root, then a depth-first search split into rayon tasks,
//! streaming every solution through a bounded channel to one collector.
//!
//! The search is written once for every [`Domain`]: black and white ([`Solver`]) and colour
//! ([`ColorSolver`]). Branches give one cell each of its possible values (filled and empty, or
//! each colour), so subtrees are disjoint and every solution is found exactly once. With one thread the plain sequential
//! search runs on a dedicated thread; with more, each node offers its second child to idle
//! workers ([`rayon::join`]), so the tree is split near the top and wherever a thread is idle.

pub(crate) mod batch;
#[cfg(test)]
mod batch_tests;
#[cfg(test)]
mod color_tests;
mod dead_ends;
#[cfg(test)]
mod dead_ends_tests;
pub(crate) mod duty;
pub(crate) mod estimate;
mod finished;
mod held;
mod in_place;
mod ordered;
mod probe;
pub(crate) use probe::probe_parts;
pub(crate) mod product;
#[cfg(test)]
mod product_tests;
#[cfg(test)]
mod race_tests;
mod restart;
mod run;
mod stats;
pub(crate) mod strata;
mod tree;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

/// Kept here, where it was first public; it lives below search and count alike.
pub(crate) use crate::stack::stack_size;
use batch::Batcher;
use batch::Collected;
pub use batch::SolutionWriter;
pub use stats::{SearchStats, StatsSnapshot};
use tree::Outlet;

use crate::choose::SealedMemo;
use crate::color::{ColorGrid, ColorPuzzle};
use crate::count::Countable;
use crate::domain::{Domain, DomainGrid};
use crate::grid::Grid;
use crate::learn::{LearnOutcome, LearnStats, Racer};
use crate::propagate::Propagator;
use crate::puzzle::{Puzzle, PuzzleError};

/// A domain the whole search handles: the probing search, and the learning search beside it.
pub trait Searchable: Countable {
    /// Whether the learning search, racing the probing one, takes one of the threads asked
    /// for (black and white) or runs as one thread more (colour: on one thread the colour
    /// probing search fails where two threads decide at once, #4445 Pinup taking over 30 s
    /// against 0.4 s, the second thread taking the root's other child; in black and white,
    /// taking a thread from the probing search costs less than adding one, icga2017).
    const LEARNER_TAKES_A_THREAD: bool;

    /// Whether the learning search starts from the root probed to a fixpoint (black and
    /// white) or only propagated (colour, where probing the root delays the learner more than
    /// it helps: #2257 0.08 s from the propagated root against 0.27 s from the probed one).
    const LEARNER_PROBES_THE_ROOT: bool;

    /// Whether the probing search, racing the learning search on one thread for a first
    /// solution or two, gives its thread to a second learning search when its first nodes
    /// find nothing (black and white; not colour, whose probing search is the stronger one
    /// and whose learning search is more sensitive to its settings).
    const PROBING_HANDS_OVER: bool;

    /// The variables of its learning search: one a cell in black and white, one a colour of a
    /// cell in colour.
    fn learner_vars(&self) -> usize;

    /// Runs the learning search from `root`, calling `on_solution` with each
    /// solution until it says stop, every solution has been reported, or `stopped` (called
    /// with the counters from time to time) says so. `racer` says how it differs from the
    /// other learning searches of the run, and what it shares with them.
    fn learn_search<'p>(
        &'p self,
        root: &Self::Grid,
        racer: Racer<'p>,
        stopped: impl FnMut(&LearnStats) -> bool,
        on_solution: impl FnMut(&Self::Grid) -> Flow,
    ) -> LearnOutcome;
}

impl Searchable for Puzzle {
    const LEARNER_TAKES_A_THREAD: bool = true;
    const LEARNER_PROBES_THE_ROOT: bool = true;
    const PROBING_HANDS_OVER: bool = true;

    fn learner_vars(&self) -> usize {
        self.height() * self.width()
    }

    fn learn_search<'p>(
        &'p self,
        root: &Grid,
        racer: Racer<'p>,
        stopped: impl FnMut(&LearnStats) -> bool,
        on_solution: impl FnMut(&Grid) -> Flow,
    ) -> LearnOutcome {
        crate::learn::learn_search_until(self, root, racer, stopped, on_solution)
    }
}

impl Searchable for ColorPuzzle {
    const LEARNER_TAKES_A_THREAD: bool = false;
    const LEARNER_PROBES_THE_ROOT: bool = false;
    const PROBING_HANDS_OVER: bool = false;

    fn learner_vars(&self) -> usize {
        self.height() * self.width() * self.colors.len()
    }

    fn learn_search<'p>(
        &'p self,
        root: &ColorGrid,
        racer: Racer<'p>,
        stopped: impl FnMut(&LearnStats) -> bool,
        on_solution: impl FnMut(&ColorGrid) -> Flow,
    ) -> LearnOutcome {
        crate::learn::learn_search_until(self, root, racer, stopped, on_solution)
    }
}

/// The search over colour puzzles: the one [`Solver`].
pub type ColorSolver<'p> = Solver<'p, ColorPuzzle>;

/// The most worker threads a run takes: far beyond any machine's cores, where a mistyped count
/// would spend its time starting threads (and memory for each). More is refused as
/// [`SolveError::Threads`].
pub const MAX_THREADS: usize = 1024;

/// [`SolveError::Threads`] for more than [`MAX_THREADS`] threads: the check of every pool the
/// library starts, searches and counts alike.
pub(crate) fn check_thread_count(threads: usize) -> Result<(), SolveError> {
    if threads > MAX_THREADS {
        let reason = format!("at most {MAX_THREADS} are taken");
        return Err(SolveError::Threads { threads, reason });
    }
    Ok(())
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// Worker threads; `0` (the default) means one per available core, `1` runs the plain
    /// sequential search; at most [`MAX_THREADS`].
    pub threads: usize,
    /// When nodes probe every unknown cell before branching (default
    /// [`Probing::Adaptive`]: while probing finds something). Probing is slower per node, and
    /// far fewer nodes on hard puzzles.
    pub probing: Probing,
    /// Hand solutions over in the order of the sequential search, whatever the number of
    /// threads (default `false`: in the order they are found). The parallel search then holds
    /// back solutions found ahead of their turn, within a memory budget, and stays as fast
    /// unless their turn is long in coming; with one thread it only turns off the completion
    /// checks (see [`Solver::with_completion_checks`]), which reorder children.
    pub ordered: bool,
    /// Until the first solution is found, search in bounded attempts that each explore the
    /// tree in a different order (default `false`). Cuts the unlucky tail of some puzzles but
    /// costs up to 10x on puzzles whose first solution comes only after most of the tree (see
    /// the README); once a solution is found the search goes on as without restarts, so
    /// counts and lists are the same. Ignored with `ordered`.
    pub restarts: bool,
    /// Which search runs (default [`Engine::Probe`]).
    pub engine: Engine,
}

/// Which search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The probing search alone, on every thread (the default).
    #[default]
    Probe,
    /// The clause-learning search alone, on one thread. `ordered` and `restarts`
    /// do not apply.
    Learn,
    /// Both at once, each exploring in its own way: the learning search on one thread, the
    /// probing search on the others (on one thread if only one is asked for; colour puzzles:
    /// on every thread, the learning search being one more). The first to
    /// finish ends the run, and a solution both find is reported once. For runs that stop
    /// after a few solutions: the collector remembers every solution reported. `ordered`
    /// turns it off. In black and white, a run for one or two solutions ([`Solver::find`],
    /// [`Solver::with_solution_limit`], a `limit` of [`Solver::run_batched`]) runs learning
    /// searches on every thread but one, each deciding in an order of its own and all sharing
    /// short learned clauses, and gives the probing search on the last thread 64 nodes to find
    /// one; if they do not, its thread runs one more learning search.
    Both,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            threads: 0,
            probing: Probing::Adaptive,
            ordered: false,
            restarts: false,
            engine: Engine::Probe,
        }
    }
}

pub use crate::choose::Probing;
pub use crate::flow::Flow;

/// Why a search could not run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The puzzle is not well formed.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the system said.
        reason: String,
    },
    /// A worker thread panicked (a bug): the run stopped, and this is what the panic said.
    #[error("internal error: {0}")]
    Internal(String),
    /// The cancel flag stopped work that has no partial answer to give, such as a
    /// `split`: nothing was returned. (A cancelled search returns what it
    /// found instead, with [`Outcome::exhausted`] false.)
    #[error("cancelled")]
    Cancelled,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Solutions the collector received.
    pub solutions: u64,
    /// `true` when the whole tree was explored, so `solutions` is the exact count; `false`
    /// when the search stopped early (the collector said stop, or it was cancelled).
    pub exhausted: bool,
    /// The counters at the end.
    pub stats: StatsSnapshot,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// A search over one puzzle, black and white (the default) or colour.
#[derive(Debug)]
pub struct Solver<'p, P: Searchable = Puzzle> {
    puzzle: &'p P,
    options: SolverOptions,
    stats: Arc<SearchStats>,
    cancel: Arc<AtomicBool>,
    /// Solutions the ordered search may hold back before deferring nodes; `None` for the
    /// default (see [`ordered`]).
    buffer_budget: Option<usize>,
    /// Nodes in one unit of a restart budget (see [`restart`]).
    restart_unit: u64,
    /// Estimate the tree's size by random probes while searching (see [`estimate`]).
    estimate: bool,
    /// The most solutions the caller takes, if it said (see [`Solver::with_solution_limit`]).
    solution_limit: Option<u64>,
    /// When the probing search checks nodes for a completion, if ever (see
    /// [`Solver::with_completion_checks`]).
    checks: Option<dead_ends::CheckPolicy>,
    /// Where the search starts instead of the propagated root (see [`Solver::starting_at`]).
    start: Option<P::Grid>,
    /// The probes of the parent of `start`.
    start_memo: Option<Arc<SealedMemo<P::Grid>>>,
    /// Whether `start` is the rest of a product, walked as one.
    walk_start: bool,
}

/// Capacity of the solution channel: enough to keep workers busy while the collector writes.
const CHANNEL_CAPACITY: usize = 256;

/// Capacity of the batch channel (see [`Solver::run_batched`]): a few batches per worker.
const BATCH_CAPACITY: usize = 64;

impl<'p, P: Searchable> Solver<'p, P> {
    /// A solver for `puzzle` (which must pass [`Puzzle::check`]).
    pub fn new(puzzle: &'p P, options: SolverOptions) -> Self {
        Solver {
            puzzle,
            options,
            stats: Arc::default(),
            cancel: Arc::default(),
            buffer_budget: None,
            restart_unit: restart::NODE_UNIT,
            estimate: false,
            solution_limit: None,
            checks: Some(dead_ends::CheckPolicy::default()),
            start: None,
            start_memo: None,
            walk_start: false,
        }
    }

    /// Starts the search at `grid`, a propagated grid of the puzzle that holds every solution
    /// of its root, with `memo`, the probes of its parent: a part of a checkpoint, rebuilt as
    /// the whole search reached it. (A node probes within a budget of work, and the probes its
    /// memo answers cost less of it, so without the memo it could choose another cell.) With
    /// `walk`, `grid` is what is left of a product once its first components were written into
    /// it, and the search walks the rest of that product, in its order.
    pub(crate) fn starting_at(
        mut self,
        grid: P::Grid,
        memo: Option<Arc<SealedMemo<P::Grid>>>,
        walk: bool,
    ) -> Self {
        (self.start, self.start_memo, self.walk_start) = (Some(grid), memo, walk);
        self
    }

    /// Whether the probing search asks a learning search, at large nodes, if a solution lies
    /// below (default `true`; never in an ordered search, nor where learning searches race it
    /// for one or two solutions): once many nodes have passed without a solution, a node
    /// without one is left unexplored, and a solution found goes first. The solutions are the
    /// same either way; only their order and the time change.
    pub fn with_completion_checks(mut self, on: bool) -> Self {
        self.checks = on.then(dead_ends::CheckPolicy::default);
        self
    }

    /// Sets when the probing search checks its nodes (tests check every one).
    #[cfg(test)]
    pub(crate) fn with_check_policy(mut self, policy: dead_ends::CheckPolicy) -> Self {
        self.checks = Some(policy);
        self
    }

    /// Tells the search that its caller stops after `limit` solutions ([`Solver::run`]'s
    /// `on_solution` still has to say [`Flow::Stop`]), as `solve` does after two. A run for a
    /// first solution or two may then use its threads differently: two learning searches
    /// instead of the probing search and one (see [`Engine::Both`]).
    pub fn with_solution_limit(mut self, limit: u64) -> Self {
        self.solution_limit = Some(limit);
        self
    }

    /// Estimates the size of the search tree while it runs, by Knuth's random probes on one
    /// thread more (steadily for the first seconds or until the probes agree, then a tenth of
    /// the time), for [`SearchStats::estimate`]. Worth it for a progress display of a long enumeration.
    pub fn with_estimate(mut self, estimate: bool) -> Self {
        self.estimate = estimate;
        self.stats.set_estimating(estimate);
        self
    }

    /// Sets the ordered search's budget of held-back solutions (tests use tiny ones).
    #[cfg(test)]
    pub(crate) fn with_buffer_budget(mut self, solutions: usize) -> Self {
        self.buffer_budget = Some(solutions);
        self
    }

    /// Sets the restart budget unit (tests use tiny ones, so that attempts are abandoned).
    #[cfg(test)]
    pub(crate) fn with_restart_unit(mut self, nodes: u64) -> Self {
        self.restart_unit = nodes;
        self
    }

    /// Uses `flag` as the cancel flag (see [`Solver::cancel_flag`]), so that one flag, set by a
    /// signal handler say, can cancel several solvers.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = flag;
        self
    }

    /// Counts into `stats` instead of counters of its own: a run that searches disjoint
    /// subtrees one after another, a solver each (a checkpoint's parts), keeps one set of
    /// counters, and its estimator ([`probe::probe_parts`]) sees every part's finished
    /// subtrees. The subtree searched lies `depth` levels down the run's tree; the run's
    /// solvers must be made each just before it searches.
    pub(crate) fn with_stats(mut self, stats: Arc<SearchStats>, depth: usize) -> Self {
        stats
            .finished
            .root_at(u32::try_from(depth).unwrap_or(u32::MAX));
        self.stats = stats;
        self
    }

    /// The live counters, for a progress display.
    pub fn stats(&self) -> Arc<SearchStats> {
        Arc::clone(&self.stats)
    }

    /// A flag that cancels the search promptly when set (for example from a Ctrl-C handler).
    /// The search then returns what it found, with [`Outcome::exhausted`] false.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// The root grid: givens applied and propagated. `None` if that already contradicts.
    pub fn root(&self) -> Result<Option<P::Grid>, SolveError> {
        self.puzzle.validate()?;
        let Some(mut grid) = self.puzzle.given_grid() else {
            return Ok(None);
        };
        let mut prop = Propagator::new();
        Ok(prop
            .propagate_all(self.puzzle, &mut grid)
            .ok()
            .map(|()| grid))
    }

    /// [`Solver::root`], or `Err` when the cancel flag stops the propagation first.
    fn root_until_cancelled(
        &self,
    ) -> Result<Result<Option<P::Grid>, crate::choose::Interrupted>, SolveError> {
        let cancelled = || self.cancel.load(Ordering::Relaxed);
        Ok(propagated_root_until(self.puzzle, &cancelled)?)
    }

    /// Runs the search, calling `on_solution` (on the calling thread) with each solution as
    /// it is found, until the tree is exhausted or `on_solution` returns [`Flow::Stop`].
    pub fn run(&self, on_solution: impl FnMut(&P::Grid) -> Flow) -> Result<Outcome, SolveError> {
        self.run_for(self.limit_with(None), on_solution)
    }

    /// The fewer of `limit` and the caller's [`Solver::with_solution_limit`], if either.
    fn limit_with(&self, limit: Option<u64>) -> Option<u64> {
        match (limit, self.solution_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// [`Solver::run`] for a caller that stops after `limit` solutions, if given (which
    /// search runs may depend on it).
    fn run_for(
        &self,
        limit: Option<u64>,
        mut on_solution: impl FnMut(&P::Grid) -> Flow,
    ) -> Result<Outcome, SolveError> {
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        // The collector owns the receiver and drops it when it returns: a worker blocked on
        // a full channel then wakes (its send fails) instead of waiting forever.
        self.search(Outlet::Grids(tx), limit, move |racing| {
            // With both searches racing, a solution both find is reported once.
            let mut reported: Option<HashSet<Box<[u64]>>> = racing.then(HashSet::new);
            let mut collected = Collected::default();
            for grid in rx {
                if let Some(reported) = &mut reported
                    && !reported.insert(grid.key())
                {
                    continue;
                }
                collected.received += 1;
                if on_solution(&grid) == Flow::Stop {
                    collected.stopped = true;
                    break;
                }
            }
            collected
        })
    }

    /// Runs the search with every solution written as bytes by `writer` on the thread that
    /// found it, and hands `on_bytes` (on the calling thread) whole solutions in batches of
    /// about 64 KiB: their bytes, separated by [`SolutionWriter::separator`], and how
    /// many solutions they hold. The collector then only writes and counts, so it keeps up
    /// with every thread.
    ///
    /// Stops after exactly `limit` solutions when given (the last batch is cut), when the
    /// tree is exhausted, or when `on_bytes` returns [`Flow::Stop`]. With
    /// [`SolverOptions::ordered`] the bytes come in the order of the sequential search. A
    /// batch waits at most a tick (0.1 s) plus one node of its thread before it is handed
    /// over, so a slow search still shows its solutions as they come.
    pub fn run_batched<W: SolutionWriter<P::Grid>>(
        &self,
        writer: &W,
        limit: Option<u64>,
        on_bytes: impl FnMut(&[u8], u64) -> Flow,
    ) -> Result<Outcome, SolveError> {
        if limit == Some(0) {
            return Ok(self.outcome(0, false, Instant::now()));
        }
        self.check_threads()?;
        let plan = self.plan(limit);
        let batcher = Batcher::new(
            writer,
            plan.probe_threads,
            self.options.ordered,
            plan.racing,
            limit,
        );
        let (tx, rx) = crossbeam_channel::bounded(BATCH_CAPACITY);
        let outlet = Outlet::Bytes {
            tx,
            batcher: &batcher,
            lane: batch::PROBE_LANE,
        };
        let separator = batcher.separator().len();
        let batcher = &batcher;
        self.search(outlet, self.limit_with(limit), move |_| {
            batch::collect(rx, separator, limit, || batcher.tick(), on_bytes)
        })
    }

    /// Counts every solution, in batches and without copying any (see [`Solver::run_batched`]).
    pub fn count(&self) -> Result<Outcome, SolveError> {
        let nothing = |_: &P::Grid, _: &mut Vec<u8>| {};
        self.run_batched(&nothing, None, |_, _| Flow::Continue)
    }

    /// Finds up to `limit` solutions.
    pub fn find(&self, limit: u64) -> Result<(Vec<P::Grid>, Outcome), SolveError> {
        let mut found = Vec::new();
        if limit == 0 {
            return Ok((found, self.outcome(0, false, Instant::now())));
        }
        let outcome = self.run_for(self.limit_with(Some(limit)), |grid| {
            found.push(grid.clone());
            if found.len() as u64 >= limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })?;
        Ok((found, outcome))
    }

    /// [`SolveError::Threads`] for more than [`MAX_THREADS`] threads.
    fn check_threads(&self) -> Result<(), SolveError> {
        check_thread_count(self.options.threads)
    }

    fn thread_count(&self) -> usize {
        match self.options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    fn build_pool(&self, threads: usize) -> Result<rayon::ThreadPool, SolveError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(stack_size(self.puzzle))
            .thread_name(|i| format!("nonoenum-worker-{i}"))
            .build()
            .map_err(|e| SolveError::Threads {
                threads,
                reason: e.to_string(),
            })
    }

    fn outcome(&self, solutions: u64, exhausted: bool, start: Instant) -> Outcome {
        if exhausted {
            self.stats.mark_complete();
        }
        Outcome {
            solutions,
            exhausted,
            stats: self.stats.snapshot(),
            elapsed: start.elapsed(),
        }
    }
}

/// The root grid of `puzzle`: givens applied and propagated, `None` if that already
/// contradicts; `Err(Interrupted)` when `stopped` ends the propagation first.
pub(crate) fn propagated_root_until<P: Domain>(
    puzzle: &P,
    stopped: &dyn Fn() -> bool,
) -> Result<Result<Option<P::Grid>, crate::choose::Interrupted>, PuzzleError> {
    puzzle.validate()?;
    let Some(mut grid) = puzzle.given_grid() else {
        return Ok(Ok(None));
    };
    Ok(
        match Propagator::new().propagate_all_until(puzzle, &mut grid, stopped) {
            None => Err(crate::choose::Interrupted),
            Some(propagated) => Ok(propagated.ok().map(|()| grid)),
        },
    )
}
