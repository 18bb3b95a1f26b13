//! One run of the search: the threads it starts (the probing search, in a pool or alone, the
//! learning search, the estimator), and the collector on the calling thread, whatever the
//! solutions travel as (grids for [`Solver::run`], batches of bytes for
//! [`Solver::run_batched`]).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::batch::Collected;
use super::dead_ends::{CheckPolicy, CutDeadEnds, DeadEnds, MOST_CHECKED_VARS};
use super::held::{Hold, hold_memo};
use super::ordered::{self, Ordered, Route};
use super::restart::Attempt;
use super::tree::{Outlet, Parallel, SearchCx, Sequential};
use super::{Engine, Outcome, Searchable, SolveError, Solver, stack_size};
use crate::choose::SealedMemo;
use crate::count::Countable;
use crate::domain::DomainGrid;
use crate::fault::Fault;
use crate::learn::{ClauseExchange, Racer, SharedGuess};
use learners::{LearnerRoot, learn};

mod learners;

/// What the threads of a run are.
#[derive(Clone, Copy)]
pub(super) struct Plan {
    /// Threads asked for.
    pub(super) threads: usize,
    /// The search that runs (`Both` turned off by `ordered`).
    pub(super) engine: Engine,
    /// Threads of the probing search (0: it does not run; 1: no pool).
    pub(super) probe_threads: usize,
    /// Learning searches that start with the run, each on a thread of its own.
    pub(super) learners: usize,
    /// A portfolio: the learning searches share their short learned clauses, and the probing
    /// search runs on one thread.
    pub(super) portfolio: bool,
    /// The portfolio's probing search runs, and hands its thread over to one more learning
    /// search if its first nodes find nothing (see [`probe_then_learn`]): unless the
    /// learners' memory budget has no room for one more, when the learners race alone.
    pub(super) hands_over: bool,
    /// Both searches run, and the first to finish ends the other: a solution may be found
    /// twice, and is reported once.
    pub(super) racing: bool,
}

/// The most solutions a run may ask for to let its probing search hand over (see
/// [`probe_then_learn`]): a first solution, or the two that decide uniqueness. A longer list
/// is the probing search's work.
const HAND_OVER_LIMIT: u64 = 2;

/// The memory the learning searches of one race may take together, at least one of them: each
/// takes about [`LEARNER_BYTES_PER_VAR`] bytes per variable (a cell in black and white), so a
/// 2000x2000 grid has room for one, and a 1000x1000 for four.
const RACE_LEARNER_MEMORY: usize = 512 << 20;

/// The bytes a learning search takes per variable, its grid, assignment, watches and order
/// (docs/tuning.md, "Constants").
const LEARNER_BYTES_PER_VAR: usize = 110;

/// How many learning searches of `vars` variables fit in [`RACE_LEARNER_MEMORY`]: at least one.
fn learners_that_fit(vars: usize) -> usize {
    (RACE_LEARNER_MEMORY / vars.saturating_mul(LEARNER_BYTES_PER_VAR).max(1)).max(1)
}

/// The nodes the probing search visits, racing the learning search on two threads, before it
/// hands its thread over (about 20 to 30 ms on a 25x25 tournament puzzle). One in the unit
/// tests, so that their races take the hand-over path.
const HAND_OVER_NODES: u64 = if cfg!(test) { 1 } else { 64 };

/// The seed of the second learning search's first decision order; the learning searches
/// after it take the seeds that follow.
const SECOND_LEARNER_SEED: u64 = 0x5eed;
/// The conflicts the learning search that takes over from the probing search meets before it
/// tries decimation (see `learn`'s `Racer`) on a large grid: decimation costs a second or more,
/// so only a puzzle that holds out gets it (measurements: docs/tuning.md, "Constants").
const DECIMATE_AFTER_CONFLICTS: u64 = 20_000;

impl<P: Searchable> Solver<'_, P> {
    /// The threads of a run that stops after `limit` solutions, if given.
    ///
    /// A race for a first solution or two (`solve`, `list --limit 2`) in black and white runs
    /// a portfolio: learning searches on every thread but one, each deciding in an order of
    /// its own and all sharing their short learned clauses, and the probing search on the
    /// last, which it hands over to one more learning search if it finds nothing at once (see
    /// [`probe_then_learn`]). On a hard puzzle a learning search's time varies widely with its
    /// path (one learner decides Knotty within 300 s about once in seven draws of its first
    /// decisions' order), so several decide sooner than one. On 16 cores, sixteen learners
    /// learned from twice the conflicts of eight beside eight probing threads in 90 s of
    /// Knotty, and a tournament set of 1,000 puzzles took 11.8 s instead of 14.3 s.
    pub(super) fn plan(&self, limit: Option<u64>) -> Plan {
        let threads = self.thread_count();
        let engine = match self.options.engine {
            Engine::Both if self.options.ordered => Engine::Probe,
            engine => engine,
        };
        let portfolio = engine == Engine::Both
            && P::PROBING_HANDS_OVER
            && P::LEARNER_TAKES_A_THREAD
            && !self.options.restarts
            && limit.is_some_and(|n| n <= HAND_OVER_LIMIT);
        let fit = learners_that_fit(self.puzzle.learner_vars());
        let (probe_threads, learners) = match engine {
            Engine::Probe => (threads, 0),
            Engine::Learn => (0, 1),
            Engine::Both if portfolio => {
                let learners = threads.saturating_sub(1).clamp(1, fit);
                // Without room for the hand-over's learner, the learners race alone.
                (usize::from(learners < fit), learners)
            }
            Engine::Both if P::LEARNER_TAKES_A_THREAD => (threads.saturating_sub(1).max(1), 1),
            Engine::Both => (threads, 1),
        };
        Plan {
            threads,
            engine,
            probe_threads,
            learners,
            portfolio,
            hands_over: portfolio && probe_threads > 0,
            racing: engine == Engine::Both,
        }
    }

    /// Runs the search, its solutions going to `outlet`, while `collect` (on the calling
    /// thread, told whether two searches race) takes them from the other end until every
    /// sender has gone, it has `limit` solutions or it stops. `collect` must drop its receiver
    /// when it returns.
    pub(super) fn search(
        &self,
        outlet: Outlet<'_, P::Grid>,
        limit: Option<u64>,
        collect: impl FnOnce(bool) -> Collected,
    ) -> Result<Outcome, SolveError> {
        self.check_threads()?;
        let start = Instant::now();
        let root = match &self.start {
            Some(grid) => {
                self.puzzle.validate()?;
                Some(grid.clone())
            }
            None => match self.root_until_cancelled()? {
                Ok(root) => root,
                Err(_) => return Ok(self.outcome(0, false, start)),
            },
        };
        self.stats.set_root_time(start.elapsed());
        let Some(root) = root else {
            return Ok(self.outcome(0, true, start));
        };
        let stop = AtomicBool::new(false);
        let plan = self.plan(limit);
        let dead_ends = self
            .check_policy(plan, limit)
            .map(|policy| DeadEnds::new(self.puzzle, &root, self.thread_count(), policy));
        let cx = SearchCx {
            puzzle: self.puzzle,
            probing: self.options.probing,
            stats: &self.stats,
            stop: &stop,
            cancel: &self.cancel,
            attempt: None,
            solutions: outlet,
            dead_ends: dead_ends.as_ref().map(|d| d as &dyn CutDeadEnds<P::Grid>),
            walk_root: self.walk_start,
        };
        if root.complete() {
            let collected = self.solved_at_root(cx, root, collect);
            return Ok(self.outcome(collected.received, true, start));
        }
        let crew = Crew {
            plan,
            start_memo: self.start_memo.as_ref(),
            learner_root: &LearnerRoot::new(root.clone()),
            // The learning searches of a portfolio share their short learned clauses.
            exchange: &ClauseExchange::new(),
            // And the first guess of their decisions, worked out once; only the hand-over
            // learner decimates.
            guess: &SharedGuess::new(plan.hands_over),
        };
        let collected = self.run_threads(cx, root, crew, collect)?;
        if let Some(checks) = &dead_ends {
            self.stats.add_checks(&checks.cut, &checks.found);
        }
        let exhausted = !collected.stopped && !self.cancel.load(Ordering::Relaxed);
        Ok(self.outcome(collected.received, exhausted, start))
    }

    /// Propagation solved the puzzle: sends the one solution, without starting a search (whose
    /// learner would build its clauses for every cell of the grid), and collects it.
    fn solved_at_root(
        &self,
        cx: SearchCx<'_, P>,
        root: P::Grid,
        collect: impl FnOnce(bool) -> Collected,
    ) -> Collected {
        self.stats.add_node();
        self.stats.add_solution();
        self.stats.finish_subtree(0);
        cx.send(root);
        cx.flush_all();
        drop(cx);
        collect(false)
    }

    /// When the probing search checks its nodes for a completion, if it does: not in an
    /// ordered search (the checks reorder children), nor where learning searches race it for
    /// at most [`HAND_OVER_LIMIT`] solutions (they find those, and the root's check would only
    /// hold the probing search back), nor on puzzles of more than [`MOST_CHECKED_VARS`]
    /// variables, nor where a learning search for each thread would not fit in
    /// [`RACE_LEARNER_MEMORY`].
    fn check_policy(&self, plan: Plan, limit: Option<u64>) -> Option<CheckPolicy> {
        let vars = self.puzzle.learner_vars();
        let fit = vars <= MOST_CHECKED_VARS && learners_that_fit(vars) >= self.thread_count();
        let raced = plan.racing && limit.is_some_and(|n| n <= HAND_OVER_LIMIT);
        self.checks
            .filter(|_| fit && !self.options.ordered && !raced)
    }

    /// Starts the threads of the run from `root` (the estimator, the learning searches, the
    /// probing search), collects on the calling thread, and joins them all.
    fn run_threads<'p>(
        &'p self,
        cx: SearchCx<'p, P>,
        root: P::Grid,
        crew: Crew<'p, P::Grid>,
        collect: impl FnOnce(bool) -> Collected,
    ) -> Result<Collected, SolveError> {
        let Plan {
            threads,
            engine,
            probe_threads,
            racing,
            ..
        } = crew.plan;
        let stop = cx.stop;
        let ordered = self.options.ordered;
        let pool = (probe_threads > 1)
            .then(|| self.build_pool(probe_threads))
            .transpose()?;
        let stack = stack_size(self.puzzle);
        let probing = Probing {
            budget: self
                .buffer_budget
                .unwrap_or_else(|| ordered::default_budget(&root)),
            restarts: (self.options.restarts && !ordered).then_some(self.restart_unit),
            ordered,
        };
        let learner_cx = (engine != Engine::Probe).then(|| SearchCx {
            solutions: cx.solutions.on_lane(super::batch::LEARN_LANE),
            ..cx
        });
        let cx = (probe_threads > 0).then_some(cx);
        let mut collected = Collected::default();
        // Ends the estimator once the search is over.
        let searched = AtomicBool::new(false);
        // A panic on any thread of the run stops the others and becomes the run's error.
        let fault = Fault::default();
        let (fault_slot, searched) = (&fault, &searched);
        std::thread::scope(|scope| -> Result<(), SolveError> {
            let spawn = |name: &str, work| {
                let contain = Contain {
                    fault: fault_slot,
                    stop,
                };
                spawn_search(scope, name, stack, threads, contain, work)
            };
            let estimator = (self.estimate && probe_threads > 0)
                .then(|| {
                    let beside = probe_threads + crew.plan.learners;
                    spawn(
                        "nonoenum-estimate",
                        self.estimator(root.clone(), beside, searched, stop),
                    )
                })
                .transpose()?;
            let mut learner_threads = Vec::with_capacity(crew.plan.learners);
            // `base` goes at the end of this block: the collector ends when every sender of
            // solutions has gone.
            if let Some(base) = learner_cx {
                for index in 0..crew.plan.learners {
                    let thread =
                        spawn("nonoenum-learn", learner(&base, index, crew)).inspect_err(|_| {
                            // The learners started must not outlive a failed start.
                            stop.store(true, Ordering::Relaxed);
                        })?;
                    learner_threads.push(thread);
                }
            }
            let search = cx
                .map(|cx| {
                    let work = move || probe(&cx, root, pool, probing, crew);
                    spawn("nonoenum-search", Box::new(work))
                })
                .transpose()
                .inspect_err(|_| {
                    // The learners may be running: they must not outlive a failed start.
                    stop.store(true, Ordering::Relaxed);
                })?;
            collected = collect(racing);
            if collected.stopped {
                stop.store(true, Ordering::Relaxed);
            }
            // Each thread catches its own panic (above), so the joins cannot fail.
            for thread in learner_threads.into_iter().chain(search) {
                let _ = thread.join();
            }
            searched.store(true, Ordering::Relaxed);
            if let Some(estimator) = estimator {
                let _ = estimator.join();
            }
            Ok(())
        })?;
        if let Some(message) = fault.take() {
            return Err(SolveError::Internal(message));
        }
        Ok(collected)
    }

    /// The estimator's work: probes of the tree from `root` until the search is over
    /// (`searched`), stopped or cancelled, beside a search on `threads` threads.
    fn estimator<'w>(
        &'w self,
        root: P::Grid,
        threads: usize,
        searched: &'w AtomicBool,
        stop: &'w AtomicBool,
    ) -> Box<dyn FnOnce() + Send + 'w> {
        let stats = &*self.stats;
        // Before the search starts, so that the probes see every subtree it finishes.
        stats.finished.record();
        let stopped = move || {
            searched.load(Ordering::Relaxed)
                || stop.load(Ordering::Relaxed)
                || self.cancel.load(Ordering::Relaxed)
        };
        Box::new(move || {
            let probing = self.options.probing;
            let done = || stats.done();
            let record = (&stats.samples, &stats.finished);
            stats.duty.begin(threads);
            let duty = &stats.duty;
            let roots = &mut || Some(vec![root.clone()]);
            super::probe::run_probes(self.puzzle, roots, probing, record, duty, &done, &stopped);
        })
    }
}

/// What the threads of a run share, besides their [`SearchCx`].
struct Crew<'p, G> {
    plan: Plan,
    /// The probes of the parent of a root that is not the puzzle's (see `Solver::starting_at`).
    start_memo: Option<&'p Arc<SealedMemo<G>>>,
    /// Where the learning searches start.
    learner_root: &'p LearnerRoot<G>,
    exchange: &'p ClauseExchange,
    guess: &'p SharedGuess,
}

impl<G> Clone for Crew<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Crew<'_, G> {}

/// How the probing search runs, beside the pool it may have.
#[derive(Clone, Copy)]
struct Probing {
    /// The buffer budget of an ordered search.
    budget: usize,
    /// The unit of a search with restarts, if it restarts.
    restarts: Option<u64>,
    /// Solutions in the order of a sequential search.
    ordered: bool,
}

/// The work of learning search number `index` of a run. Learning search 0 decides in cell
/// order; the others (numbers 2 and on: the probing search's hand-over takes 1) each in an
/// order of their own.
fn learner<'p, P: Searchable>(
    base: &SearchCx<'p, P>,
    index: usize,
    crew: Crew<'p, P::Grid>,
) -> Box<dyn FnOnce() + Send + 'p> {
    let cx = SearchCx {
        solutions: base.solutions.clone(),
        ..*base
    };
    let id = if index == 0 { 0 } else { index + 1 };
    Box::new(move || {
        let racer = Racer {
            seed: (id > 0).then(|| SECOND_LEARNER_SEED + id as u64 - 1),
            exchange: crew.plan.portfolio.then_some((crew.exchange, id as u32)),
            guess: Some(crew.guess),
            decimate_after: None,
        };
        learn(&cx, crew.learner_root, crew.plan.racing, racer);
        cx.flush_all();
    })
}

/// The probing search's thread: alone or in `pool`, with restarts, ordered or handing over to
/// a learning search as `probing` and the plan say. Ends a race it finishes.
fn probe<'p, P: Searchable>(
    cx: &SearchCx<'p, P>,
    root: P::Grid,
    pool: Option<rayon::ThreadPool>,
    probing: Probing,
    crew: Crew<'p, P::Grid>,
) {
    match (pool, probing.restarts) {
        (None, Some(unit)) => with_restarts(cx, root, unit, |cx, root| {
            cx.explore::<Sequential>(root, 0, None);
        }),
        (None, None) if crew.plan.hands_over => probe_then_learn(cx, root, crew),
        (None, None) => {
            let hold = hold_memo(crew.start_memo.cloned());
            cx.explore::<Sequential>(root, 0, hold.as_ref().map(Hold::slot));
            if let Some(hold) = hold {
                hold.release();
            }
        }
        (Some(pool), _) if probing.ordered => pool.install(|| {
            let ordered = Ordered::new(cx, probing.budget, &root);
            ordered.explore(root, 0, crew.start_memo, &Route::default());
            debug_assert!(cx.stopped() || ordered.held() == 0, "held back for ever");
        }),
        (Some(pool), Some(unit)) => pool.install(|| {
            with_restarts(cx, root, unit, |cx, root| {
                cx.explore::<Parallel>(root, 0, None);
            });
        }),
        (Some(pool), None) => pool.install(|| {
            let hold = hold_memo(crew.start_memo.cloned());
            cx.explore::<Parallel>(root, 0, hold.as_ref().map(Hold::slot));
            if let Some(hold) = hold {
                hold.release();
            }
        }),
    }
    // Every worker is done: what their batches hold goes now.
    cx.flush_all();
    if crew.plan.racing && !cx.stopped() {
        cx.stop.store(true, Ordering::Relaxed);
    }
}

/// Where a thread of the search scope puts its panic, and the flag that stops the others.
#[derive(Clone, Copy)]
struct Contain<'a> {
    fault: &'a Fault,
    stop: &'a AtomicBool,
}

/// A thread of the search scope (a search thread needs a deep stack), whose panic `contain`
/// keeps while the run stops.
fn spawn_search<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: &str,
    stack: usize,
    threads: usize,
    contain: Contain<'scope>,
    work: Box<dyn FnOnce() + Send + 'scope>,
) -> Result<std::thread::ScopedJoinHandle<'scope, ()>, SolveError> {
    let contained = move || {
        if let Err(panic) = std::panic::catch_unwind(AssertUnwindSafe(work)) {
            contain.fault.record(&*panic);
            contain.stop.store(true, Ordering::Relaxed);
        }
    };
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(stack)
        .spawn_scoped(scope, contained)
        .map_err(|e| SolveError::Threads {
            threads,
            reason: e.to_string(),
        })
}

/// The probing search on one thread, racing the learning search for a first solution or two:
/// if its first [`HAND_OVER_NODES`] nodes find no solution, it gives its thread to a second
/// learning search whose decisions start in another order (and which, on a large grid that
/// holds it up for [`DECIMATE_AFTER_CONFLICTS`], follows the solution decimation reaches if it
/// reaches one: see `learn`'s `Racer`).
///
/// The probing search wins the race on the easy puzzles, at once; on the hard ones the
/// learning search usually does, and its time varies a lot with the order of its first
/// decisions, so two of them in different orders beat one and the probing search together.
/// On the 190 puzzles of the tournament set taai2011 that take the learning search over
/// 0.05 s, one learning search took 42.6 s (summed, one thread each, first solution), the
/// faster of it and the probing search 30.9 s, and the faster of it and a second one seeded
/// otherwise 26.5 s. An attempt that finds a solution in its budget runs to the end, as a
/// search without hand-over; one abandoned has handed over no solution.
fn probe_then_learn<'p, P: Searchable>(
    cx: &SearchCx<'p, P>,
    root: P::Grid,
    crew: Crew<'p, P::Grid>,
) {
    let attempt = Attempt::numbered(0, HAND_OVER_NODES);
    let bounded = SearchCx {
        attempt: Some(&attempt),
        solutions: cx.solutions.clone(),
        ..*cx
    };
    bounded.explore::<Sequential>(root.clone(), 0, None);
    if attempt.abandoned() && !cx.stopped() {
        let racer = Racer {
            seed: Some(SECOND_LEARNER_SEED),
            exchange: Some((crew.exchange, 1)),
            guess: Some(crew.guess),
            decimate_after: Some(DECIMATE_AFTER_CONFLICTS),
        };
        learn(cx, crew.learner_root, true, racer);
    }
}

/// Runs `explore` from `root` in attempts (see [`super::restart`]) until one is not abandoned.
fn with_restarts<P: Countable>(
    cx: &SearchCx<'_, P>,
    root: P::Grid,
    unit: u64,
    explore: impl Fn(&SearchCx<'_, P>, P::Grid),
) {
    for index in 0.. {
        let attempt = Attempt::numbered(index, unit);
        let bounded = SearchCx {
            attempt: Some(&attempt),
            solutions: cx.solutions.clone(),
            ..*cx
        };
        explore(&bounded, root.clone());
        if !attempt.abandoned() || cx.stopped() {
            return;
        }
        cx.stats.restart();
    }
}

#[cfg(test)]
mod tests;
