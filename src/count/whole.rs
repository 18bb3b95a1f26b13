//! The sweep of a count over the whole grid: the backbone, a trial from each side, then the
//! sides in turns (`turns.rs`), and its race with components, each on half the threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Whether profiles race too, their layers bounded by memory rather than by
    /// `limits.max_profiles`, which a layer outgrew (see [`WholeSweep::race_profiles`]).
    pub(super) profiles_race: bool,
    /// How long the sweep alone may try before a race that profiles join (see
    /// [`WholeSweep::quick_try`]).
    pub(super) quick_try: Duration,
}

/// The most profiles a layer of the profiles that race may hold, and about the most bytes
/// they may take: 7 million narrow profiles (a 24x24 permutation puzzle's widest layer holds
/// 2.7 million), a hundred thousand of a grid 2,000 cells wide (docs/tuning.md,
/// "Constants").
const RACE_PROFILES: usize = 8 << 20;
const RACE_LAYER_BYTES: usize = 384 << 20;

/// The layers of the profiles that race: held by memory, and by growth.
pub(super) const RACE_LIMIT: LayerLimit = LayerLimit {
    profiles: RACE_PROFILES,
    bytes: RACE_LAYER_BYTES,
    growth: Some(RACE_GROWTH),
};

/// How long the sweep and components wait, in a race that profiles have joined, for the
/// profiles to finish or give up: they give up within 0.2 s on random pictures (1.3 s at most
/// of 44), and count a 21x21 permutation puzzle in 4 to 6 s with the cores to themselves,
/// against 10 s sharing them (docs/tuning.md, "Constants").
const PROFILES_HEAD_START: Duration = Duration::from_secs(4);

/// How long the sweep alone (its backbone first) may try, on every thread, before profiles
/// race with their head start: taai2011 #200's profiles grow slowly but wide (470 MB of
/// layers), and waiting for them took 4.3 s where the sweep counts its 240 solutions in
/// 0.03 s (docs/tuning.md, "Constants").
pub(super) const QUICK_TRY: Duration = Duration::from_millis(500);

/// How many times the profiles of the layer before a layer of the profiles that race may
/// hold (see [`LayerLimit::growth`]): a permutation puzzle's layers grow at most 4.2 times
/// once they hold 16,384 profiles (n = 25), a random picture's ten times and more.
const RACE_GROWTH: usize = 5;

/// How the sweep's quick try before a race ended (see [`WholeSweep::quick_try`]).
pub(super) enum QuickTry<G> {
    /// It counted: the count and how it was made.
    Counted(BigUint, ExactMethod),
    /// It did not finish in time, or was not tried; what its backbone search fixed, if it ran.
    NotCounted(Option<Reduced<G>>),
}

/// The root with the backbone cells a search fixed, at a propagation fixpoint.
pub(super) struct Reduced<G> {
    pub(super) grid: G,
    /// Whether the search ended on its own, every cell checked or its conflicts spent, so that
    /// the race need not search again (else the quick try's time ran out first).
    pub(super) complete: bool,
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
        let sweep_progress = |side: Orientation| (sweep.counted(), sweep.kept_by(side.index()));
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
            memo_bytes: stats.memo_bytes(),
            backbone: load(&progress.backbone.fixed),
            backbone_millis: progress.backbone.millis(),
        }
    }

    /// The sweep alone, for at most `self.quick_try` ([`QUICK_TRY`] by default), before a race
    /// that profiles join, its backbone first (unless `limits.backbone_after` says otherwise).
    /// It keeps counters of its own, so what it counted without finishing never adds to the
    /// race's lower bounds; if it does not finish, the cells its backbone search fixed are
    /// handed on, so that the race need not find them again.
    pub(super) fn quick_try(&self, cancel: &AtomicBool) -> QuickTry<P::Grid> {
        if self.quick_try.is_zero() {
            return QuickTry::NotCounted(None);
        }
        let progress = CountProgress::default();
        let stop = Stop::from(cancel).with_deadline(Instant::now() + self.quick_try);
        let backbone_first = self.limits.backbone_after == Some(Duration::ZERO);
        let quick = |root, backbone_after| WholeSweep {
            root,
            limits: CountLimits {
                backbone_after,
                ..self.limits
            },
            budget: MemoBudget::new(self.limits.sweep_memory),
            progress: &progress,
            swept_as: std::sync::Mutex::new(self.orientation),
            profiles_race: false,
            ..*self
        };
        if !backbone_first {
            let sweep = quick(self.root, self.limits.backbone_after);
            return match sweep.count(stop) {
                Ok(count) => QuickTry::Counted(count, sweep.method()),
                Err(_) => QuickTry::NotCounted(None),
            };
        }
        let backbone = &progress.backbone;
        let reduced = match fix_backbone(self.puzzle, self.root, BACKBONE_CONFLICTS, stop, backbone)
        {
            Backbone::NoSolution => {
                return QuickTry::Counted(BigUint::ZERO, quick(self.root, None).method());
            }
            Backbone::Reduced(grid) if stop.raised() => {
                self.progress.backbone.add(backbone);
                return QuickTry::NotCounted(Some(Reduced {
                    grid,
                    complete: false,
                }));
            }
            Backbone::Reduced(grid) => grid,
        };
        let sweep = quick(&reduced, None);
        match sweep.count(stop) {
            Ok(count) => QuickTry::Counted(count, sweep.method()),
            Err(_) => {
                self.progress.backbone.add(backbone);
                QuickTry::NotCounted(Some(Reduced {
                    grid: reduced,
                    complete: true,
                }))
            }
        }
    }

    /// Neither the sweep nor components is reliably the faster (the sweep counts some random
    /// pictures a hundred times faster, and fills its memo with dead ends on others), and
    /// neither can tell early: races them, the first to finish stopping the others. Profiles
    /// join the race if `profiles_race` says so, and have the cores to themselves until they
    /// finish, give up, or have had [`PROFILES_HEAD_START`].
    pub(super) fn race_components(
        &self,
        cancel: &AtomicBool,
    ) -> Result<(BigUint, ExactMethod), CountError> {
        let progress = self.progress;
        progress.enter(CountPhase::Race);
        // The first try's layers are over; racing profiles show their own.
        progress.layer(0, 0, 0);
        // Raised by the first method to finish: the others stop.
        let done = AtomicBool::new(false);
        let stop = Stop::new(cancel, Some(&done));
        // Raised once the profiles are over (or if they do not race).
        let profiles_over = AtomicBool::new(!self.profiles_race);
        let head_start = Instant::now() + PROFILES_HEAD_START;
        let wait_for_profiles = || {
            while !profiles_over.load(Ordering::Relaxed)
                && !stop.raised()
                && Instant::now() < head_start
            {
                std::thread::sleep(Duration::from_millis(2));
            }
        };
        let (swept, by_components, by_profiles) = race_apart(
            self.puzzle,
            || {
                wait_for_profiles();
                let counted = self.count(stop);
                if matches!(counted, Err(ref e) if *e != SweepError::Cancelled) {
                    progress.sweep.give_up();
                }
                finished(counted, &done)
            },
            || {
                wait_for_profiles();
                let components = &progress.components;
                let counted =
                    count_by_components(self.puzzle, self.root, self.limits, stop, components);
                finished(counted, &done)
            },
            self.profiles_race.then_some(|| {
                let counted = self.race_profiles(stop);
                profiles_over.store(true, Ordering::Relaxed);
                finished(counted, &done)
            }),
        );
        match (swept, by_components, by_profiles) {
            (_, _, Some(Ok(counted))) => Ok(counted),
            (Ok(count), _, _) => Ok((count, self.method())),
            (_, Ok(count), _) => Ok((count, components_method(&progress.components))),
            (_, Err(e), _) => Err(e),
        }
    }

    /// Counts by profiles again, their layers bounded by memory ([`RACE_PROFILES`],
    /// [`RACE_LAYER_BYTES`]) and by their growth ([`RACE_GROWTH`]): layers that outgrew the
    /// first limit by a few times and grow slowly (permutation puzzles of 21 to 24 lines) are
    /// counted, where the sweep and components are lost; layers that grow tenfold a line
    /// (random pictures) are given up within a layer or two. The layers show in `progress`
    /// while the profiles run, and after them if they counted.
    fn race_profiles(&self, stop: Stop<'_>) -> Result<(BigUint, ExactMethod), CountError> {
        let progress = self.progress;
        let layer = |p: LayerProgress| progress.layer(p.done, p.total, p.profiles);
        let counted = count_by_profiles(
            self.puzzle,
            self.root,
            self.orientation,
            RACE_LIMIT,
            stop,
            layer,
        );
        if counted.is_err() {
            // Gone from the race: its layers no longer say how far the count is.
            progress.layer(0, 0, 0);
        }
        let (count, widest) = counted?;
        let orientation = self.orientation;
        Ok((
            count,
            ExactMethod::Profiles {
                orientation,
                widest,
            },
        ))
    }
}

/// Runs `sweep` and `components` at once, each on its own pool of half the current pool's
/// threads (the sweep gets the odd one), so that each keeps its share of the threads
/// whatever its tasks are like: in one pool, the threads that steal the component counter's
/// long tasks keep them, and on 4 to 8 threads the sweep, starved, took twice as long as on
/// one. `profiles`, if given, runs beside them on a pool of its own of every thread (the
/// others wait for it a while, see [`WholeSweep::race_components`]). On one thread, or if a
/// pool cannot be built, all run in the current pool, one after the other: profiles, the
/// sweep, then components.
fn race_apart<P: Domain, A, B, C, RA, RB, RC>(
    puzzle: &P,
    sweep: A,
    components: B,
    profiles: Option<C>,
) -> (RA, RB, Option<RC>)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    C: FnOnce() -> RC + Send,
    RA: Send,
    RB: Send,
    RC: Send,
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
        let profiles_pool = profiles.as_ref().map(|_| pool(threads));
        pool(threads.div_ceil(2))
            .zip(pool(threads / 2))
            .zip(profiles_pool.map_or(Some(None), |built| built.map(Some)))
    } else {
        None
    };
    let Some(((sweep_pool, components_pool), profiles_pool)) = pools else {
        let profiled = profiles.map(|profiles| profiles());
        let (swept, counted) = rayon::join(sweep, components);
        return (swept, counted, profiled);
    };
    std::thread::scope(|scope| {
        let profiled = profiles
            .zip(profiles_pool)
            .map(|(profiles, pool)| scope.spawn(move || pool.install(profiles)));
        let swept = scope.spawn(|| sweep_pool.install(sweep));
        let counted = components_pool.install(components);
        (joined(swept), counted, profiled.map(joined))
    })
}

/// `result`, having raised `done` if it is a count: the first method of a race to finish
/// stops the others.
fn finished<T, E>(result: Result<T, E>, done: &AtomicBool) -> Result<T, E> {
    if result.is_ok() {
        done.store(true, Ordering::Relaxed);
    }
    result
}

/// What a scoped thread returned, its panic passed on.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
