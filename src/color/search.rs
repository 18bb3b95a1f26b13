//! The colour search: propagation at the root, then a depth-first search over binary colour
//! branches, split into rayon tasks, every solution streamed through a bounded channel to one
//! collector — the same semantics as the black-and-white [`crate::Solver`].

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::Sender;

use super::choose::{ColorChoice, ColorProbeCounts, choose_plain, choose_probing};
use super::grid::ColorGrid;
use super::memo::ColorMemo;
use super::propagate::ColorPropagator;
use super::puzzle::ColorPuzzle;
use crate::learn::LearnStats;
use crate::learn::color::color_learn_search_until;
use crate::search::{Engine, Flow, Outcome, SearchStats, SolveError, SolverOptions, spawn_search};

/// Capacity of the solution channel.
const CHANNEL_CAPACITY: usize = 256;

thread_local! {
    static PROPAGATOR: std::cell::RefCell<ColorPropagator> =
        std::cell::RefCell::new(ColorPropagator::with_line_cache());
}

/// A search over one colour puzzle.
#[derive(Debug)]
pub struct ColorSolver<'p> {
    puzzle: &'p ColorPuzzle,
    options: SolverOptions,
    stats: Arc<SearchStats>,
    cancel: Arc<AtomicBool>,
}

impl<'p> ColorSolver<'p> {
    /// A solver for `puzzle` (which must pass [`ColorPuzzle::check`]).
    pub fn new(puzzle: &'p ColorPuzzle, options: SolverOptions) -> Self {
        ColorSolver {
            puzzle,
            options,
            stats: Arc::default(),
            cancel: Arc::default(),
        }
    }

    /// Uses `flag` as the cancel flag.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = flag;
        self
    }

    /// The live counters.
    pub fn stats(&self) -> Arc<SearchStats> {
        Arc::clone(&self.stats)
    }

    /// A flag that cancels the search when set.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// The root grid: givens applied and propagated; `None` if that contradicts.
    pub fn root(&self) -> Result<Option<ColorGrid>, SolveError> {
        let p = self.puzzle;
        p.check()?;
        let mut grid = ColorGrid::new(p.height(), p.width(), p.all_colors());
        for g in &p.givens {
            if grid.narrow(g.row, g.col, 1 << g.color).is_err() {
                return Ok(None);
            }
        }
        let mut prop = ColorPropagator::new();
        Ok(prop.propagate_all(p, &mut grid).ok().map(|()| grid))
    }

    /// Runs the search, calling `on_solution` on the calling thread with each solution, until
    /// the tree is exhausted or `on_solution` returns [`Flow::Stop`].
    pub fn run(
        &self,
        mut on_solution: impl FnMut(&ColorGrid) -> Flow,
    ) -> Result<Outcome, SolveError> {
        let start = Instant::now();
        let outcome = |solutions, exhausted| Outcome {
            solutions,
            exhausted,
            stats: self.stats.snapshot(),
            elapsed: start.elapsed(),
        };
        let root = self.root()?;
        self.stats.set_root_time(start.elapsed());
        let Some(root) = root else {
            return Ok(outcome(0, true));
        };
        let threads = match self.options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let engine = self.options.engine;
        let probe_threads = match engine {
            Engine::Probe => threads,
            Engine::Learn => 0,
            // The learner runs as one thread more. On one thread the colour probing search
            // fails where two threads decide at once (#4445 Pinup: over 30 s against 0.4 s:
            // the second thread takes the root's other child); in black and white, taking a
            // thread from the probing search costs less than adding one (icga2017).
            Engine::Both => threads,
        };
        let cells = self.puzzle.height() * self.puzzle.width();
        let stack = (cells * 1024).clamp(64 << 20, 1 << 30);
        let pool = (probe_threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(probe_threads)
                    .stack_size(stack)
                    .thread_name(|i| format!("nonoenum-color-{i}"))
                    .build()
                    .map_err(|e| SolveError::Threads {
                        threads,
                        reason: e.to_string(),
                    })
            })
            .transpose()?;
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        let stop = AtomicBool::new(false);
        let cx = Cx {
            puzzle: self.puzzle,
            probing: self.options.probing,
            parallel: pool.is_some(),
            stats: &self.stats,
            stop: &stop,
            cancel: &self.cancel,
            solutions: tx,
        };
        // With both searches, the first to finish its whole tree ends the other, and the
        // collector drops the solutions the second one finds again.
        let racing = engine == Engine::Both;
        let learner_cx = (engine != Engine::Probe).then(|| Cx {
            solutions: cx.solutions.clone(),
            ..cx
        });
        let cx = (probe_threads > 0).then_some(cx);
        let mut reported: Option<HashSet<Box<[u64]>>> = racing.then(HashSet::new);
        let mut received = 0u64;
        let mut stopped = false;
        std::thread::scope(|scope| -> Result<(), SolveError> {
            let spawn = |name: &str, work| spawn_search(scope, name, stack, threads, work);
            let learner_root = root.clone();
            let learner = learner_cx
                .map(|cx| {
                    spawn(
                        "nonoenum-color-learn",
                        Box::new(move || cx.learn(&learner_root, racing)),
                    )
                })
                .transpose()?;
            let search = cx
                .map(|cx| {
                    spawn(
                        "nonoenum-color-search",
                        Box::new(move || {
                            match pool {
                                None => cx.explore(root, 0, None),
                                Some(pool) => pool.install(|| cx.explore(root, 0, None)),
                            }
                            if racing && !cx.stopped() {
                                cx.stop.store(true, Ordering::Relaxed);
                            }
                        }),
                    )
                })
                .transpose()
                .inspect_err(|_| {
                    // The learner may be running: it must not outlive a failed start.
                    stop.store(true, Ordering::Relaxed);
                })?;
            for grid in &rx {
                if let Some(reported) = &mut reported
                    && !reported.insert(grid.cells().into())
                {
                    continue;
                }
                received += 1;
                if on_solution(&grid) == Flow::Stop {
                    stopped = true;
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            drop(rx);
            for thread in [learner, search].into_iter().flatten() {
                if let Err(panic) = thread.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            Ok(())
        })?;
        let exhausted = !stopped && !self.cancel.load(Ordering::Relaxed);
        Ok(outcome(received, exhausted))
    }

    /// Counts every solution.
    pub fn count(&self) -> Result<Outcome, SolveError> {
        self.run(|_| Flow::Continue)
    }

    /// Finds up to `limit` solutions.
    pub fn find(&self, limit: u64) -> Result<(Vec<ColorGrid>, Outcome), SolveError> {
        let mut found = Vec::new();
        if limit == 0 {
            let outcome = self.run(|_| Flow::Stop)?;
            return Ok((found, outcome));
        }
        let outcome = self.run(|grid| {
            found.push(grid.clone());
            if found.len() as u64 >= limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })?;
        Ok((found, outcome))
    }
}

/// What every node of one search shares.
struct Cx<'a> {
    puzzle: &'a ColorPuzzle,
    probing: bool,
    parallel: bool,
    stats: &'a SearchStats,
    stop: &'a AtomicBool,
    cancel: &'a AtomicBool,
    solutions: Sender<ColorGrid>,
}

impl Cx<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.cancel.load(Ordering::Relaxed)
    }

    fn explore(&self, mut grid: ColorGrid, depth: u32, memo: Option<&ColorMemo>) {
        if self.stopped() {
            return;
        }
        self.stats.add_node();
        if grid.is_complete() {
            return self.emit(grid, depth);
        }
        let started = Instant::now();
        let choice = PROPAGATOR.with_borrow_mut(|prop| {
            let before = prop.line_solves;
            let (lookups, hits) = prop.cache_counts();
            let mut counts = ColorProbeCounts::default();
            let choice = if self.probing {
                choose_probing(self.puzzle, &mut grid, prop, &mut counts, memo)
            } else {
                choose_plain(self.puzzle, &grid, prop)
            };
            self.stats.add_work(
                prop.line_solves - before,
                counts.probes,
                counts.fixed,
                counts.reused,
            );
            let (lookups_after, hits_after) = prop.cache_counts();
            self.stats
                .add_cache(lookups_after - lookups, hits_after - hits);
            choice
        });
        self.stats.add_choose_time(started.elapsed());
        match choice {
            ColorChoice::Solved => self.emit(grid, depth),
            ColorChoice::Dead => self.stats.finish_subtree(depth),
            ColorChoice::Branch { children, memo, .. } => {
                self.children(children, depth, memo.as_deref());
            }
        }
    }

    /// Explores children that together stand for `2^-depth` of the tree, as a binary tree of
    /// joins: the first half below one arm and the rest below the other, so that the explored
    /// fraction of [`SearchStats`] stays exact and idle workers can steal either arm.
    fn children(&self, mut children: Vec<ColorGrid>, depth: u32, memo: Option<&ColorMemo>) {
        match children.len() {
            0 => self.stats.finish_subtree(depth),
            1 => {
                let only = children.pop().expect("one child");
                self.explore(only, depth, memo);
            }
            n => {
                let second = children.split_off(n / 2);
                let a = || self.children(children, depth + 1, memo);
                let b = || self.children(second, depth + 1, memo);
                if self.parallel {
                    let ((), ()) = rayon::join(a, b);
                } else {
                    a();
                    b();
                }
            }
        }
    }

    /// Runs the learning search from `root`, sending its solutions. When `racing`, a finished
    /// search ends the run (the probing search beside it stops).
    fn learn(&self, root: &ColorGrid, racing: bool) {
        // The live counters follow the search: each poll adds what it did since the last.
        let mut reported = LearnStats::default();
        let mut report = |now: &LearnStats| {
            self.stats.add_learning(&now.since(&reported));
            reported = *now;
        };
        let outcome = color_learn_search_until(
            self.puzzle,
            root,
            |now| {
                report(now);
                self.stopped()
            },
            |grid| {
                self.stats.add_solution();
                if self.solutions.send(grid.clone()).is_err() || self.stopped() {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            },
        );
        report(&outcome.stats);
        if racing && outcome.exhausted {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    fn emit(&self, grid: ColorGrid, depth: u32) {
        self.stats.add_solution();
        self.stats.finish_subtree(depth);
        if self.solutions.send(grid).is_err() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}
