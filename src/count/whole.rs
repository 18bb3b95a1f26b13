//! The sweep of a count over the whole grid: the backbone, a trial from each side, then the
//! sides in turns (`turns.rs`), and its race with components, each on half the threads.

use std::sync::atomic::AtomicBool;

use super::backbone::{Backbone, fix_backbone};
use super::turns::{SideSweeps, Sides};
use super::*;

/// The sweep of an exact count over the whole grid, from each side in turn, and the side
/// that counted.
pub(super) struct WholeSweep<'a, P: Countable> {
    pub(super) puzzle: &'a P,
    pub(super) root: &'a P::Grid,
    pub(super) limits: CountLimits,
    /// The side tried first, unless `limits.sweep_from` names one.
    pub(super) orientation: Orientation,
    pub(super) budget: MemoBudget,
    pub(super) progress: &'a CountProgress,
    /// The orientation of the sweep that counted, if one did.
    pub(super) swept_as: std::sync::Mutex<Orientation>,
}

impl<P: Countable> WholeSweep<'_, P> {
    /// The backbone, trials from each side, then turns, the most promising side first. (With
    /// `backbone_after` above 0, the trials come first, then the backbone, and the sweeps
    /// start again: a sweep's memo, keyed by the automata of its grid, cannot carry over.)
    pub(super) fn count(&self, stop: Stop<'_>) -> Result<BigUint, SweepError> {
        let mut sides = self
            .limits
            .sweep_from
            .map_or_else(|| Sides::new(self.orientation), Sides::only);
        let mut grid = self.root.clone();
        // The time the trials take in all, if the backbone waits for them.
        let mut trials = Duration::ZERO;
        match self.limits.backbone_after {
            Some(after) if after.is_zero() => {
                grid = match self.backbone(&grid, stop) {
                    Ok(reduced) => reduced,
                    Err(done) => return done,
                };
            }
            Some(after) => trials = after,
            None => {}
        }
        let trial = (trials / 4).max(MIN_TRIAL);
        let sweep = &self.progress.sweep;
        let sweep_progress = || (sweep.counted(), sweep.explored());
        let mut sweeps = SideSweeps::new(self.puzzle, grid, &self.budget, sweep);
        let by = |side, stop| self.sweep_by(&sweeps, side, stop);
        if let Some(done) = sides.round(trial, trial, stop, by, sweep_progress) {
            return done;
        }
        if !trials.is_zero() {
            let reduced = match self.backbone(sweeps.grid(), stop) {
                Ok(reduced) => reduced,
                Err(done) => return done,
            };
            sweeps = SideSweeps::new(self.puzzle, reduced, &self.budget, sweep);
        }
        let by = |side, stop| self.sweep_by(&sweeps, side, stop);
        sides.take_turns(4 * trial, stop, by, sweep_progress)
    }

    /// `grid` with its backbone fixed, or the sweep's result when that settles it.
    fn backbone(
        &self,
        grid: &P::Grid,
        stop: Stop<'_>,
    ) -> Result<P::Grid, Result<BigUint, SweepError>> {
        let fixed = fix_backbone(
            self.puzzle,
            grid,
            BACKBONE_CONFLICTS,
            stop,
            &self.progress.backbone,
        );
        match fixed {
            Backbone::NoSolution => Err(Ok(BigUint::ZERO)),
            Backbone::Reduced(_) if stop.raised() => Err(Err(SweepError::Cancelled)),
            Backbone::Reduced(reduced) => Ok(reduced),
        }
    }

    /// A sweep from `side`, noting the side when it counts.
    fn sweep_by(
        &self,
        sweeps: &SideSweeps<'_, P>,
        side: Orientation,
        stop: Stop<'_>,
    ) -> Result<BigUint, SweepError> {
        let counted = sweeps.count(side, stop);
        if counted.is_ok() {
            *self
                .swept_as
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = side;
        }
        counted
    }

    /// How the sweep went, from its counters.
    pub(super) fn method(&self) -> ExactMethod {
        let load = |n: &std::sync::atomic::AtomicU64| n.load(std::sync::atomic::Ordering::Relaxed);
        let (stats, progress) = (&self.progress.sweep, self.progress);
        ExactMethod::Sweep {
            orientation: *self
                .swept_as
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
            branched: load(&stats.branched),
            memo_hits: load(&stats.memo_hits),
            backbone: load(&progress.backbone.fixed),
            backbone_millis: progress.backbone.millis(),
        }
    }

    /// Neither the sweep nor components is reliably the faster (the sweep counts some random
    /// pictures a hundred times faster, and fills its memo with dead ends on others), and
    /// neither can tell early: races them, the first to finish stopping the other.
    pub(super) fn race_components(
        &self,
        cancel: &AtomicBool,
    ) -> Result<(BigUint, ExactMethod), CountError> {
        let progress = self.progress;
        progress.enter(CountPhase::Race);
        let (sweep_done, components_done) = (AtomicBool::new(false), AtomicBool::new(false));
        let finish = |done: &AtomicBool| done.store(true, std::sync::atomic::Ordering::Relaxed);
        let (swept, by_components) = race_apart(
            self.puzzle,
            || {
                let swept = self.count(Stop::new(cancel, Some(&components_done)));
                if swept.is_ok() {
                    finish(&sweep_done);
                }
                swept
            },
            || {
                let stop = Stop::new(cancel, Some(&sweep_done));
                let counted = count_by_components(
                    self.puzzle,
                    self.root,
                    self.limits,
                    stop,
                    &progress.components,
                );
                if counted.is_ok() {
                    finish(&components_done);
                }
                counted
            },
        );
        match (swept, by_components) {
            (Ok(count), _) => Ok((count, self.method())),
            (_, Ok(count)) => Ok((count, components_method(&progress.components))),
            (_, Err(e)) => Err(e),
        }
    }
}

/// Runs `sweep` and `components` at once, each on its own pool of half the current pool's
/// threads (the sweep gets the odd one), so that each keeps its share of the threads
/// whatever its tasks are like: in one pool, the threads that steal the component counter's
/// long tasks keep them, and on 4 to 8 threads the sweep, starved, took twice as long as on
/// one. On one thread, or if a pool cannot be built, both run in the current pool
/// (`rayon::join`: on one thread, the sweep first).
fn race_apart<P: Domain, A, B, RA, RB>(puzzle: &P, sweep: A, components: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let threads = rayon::current_num_threads();
    let pool = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(crate::stack::stack_size(puzzle))
            .build()
            .ok()
    };
    let pools = if threads >= 2 {
        pool(threads.div_ceil(2)).zip(pool(threads / 2))
    } else {
        None
    };
    let Some((sweep_pool, components_pool)) = pools else {
        return rayon::join(sweep, components);
    };
    std::thread::scope(|scope| {
        let swept = scope.spawn(|| sweep_pool.install(sweep));
        let counted = components_pool.install(components);
        let swept = swept
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (swept, counted)
    })
}
