//! Exact counting without enumerating: the number of solutions of puzzles with far too many to
//! visit one by one, as an arbitrary-precision integer.
//!
//! The root grid is propagated and probed. Then [`ProfileProblem`] counts by dynamic
//! programming over rows (or columns), where each column's residual problem is reduced to its
//! class in a minimal automaton ([`dfa`]), so that equal residual problems meet in one table
//! entry; it suits puzzles whose ambiguity runs through every line, such as permutations. When
//! a layer outgrows its limit, a sweep (`sweep.rs`) decides the cells in that fixed order, each
//! branch propagated, and memoises the count of every node under the classes it leaves, so that
//! equal residual problems meet while dead ends die early. The sweep starts from the grid
//! with its backbone fixed (`backbone.rs`: the cells equal in every solution). How long a
//! sweep takes depends above all on the side of the grid it starts from, so sweeps from all
//! four sides take turns (`turns.rs`), each keeping its memo between turns, the one that has
//! counted most (after equal time, once each has had some seconds) given the most time
//! (`whole.rs`). [`ComponentCounter`] races it (the first to finish stops the other;
//! [`Stop`]), goes on alone when the sweep's memo outgrows its limit, and counts alone when no component holds half the unknown cells: it splits the
//! unknown cells into independent components (lines fall apart into independent segments),
//! counts each by branching with probing, and caches the count of every residual problem, as
//! exact model counters do. Counts are kept in `u128` and redone in [`BigUint`] if they
//! outgrow it.

mod backbone;
mod checkers;
mod components;
mod count_table;
mod countable;
pub(crate) mod dfa;
mod key;
mod profile;
mod progress;
mod propagators;
mod segments;
mod stop;
mod sweep;
mod tally;
mod turns;
mod whole;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use backbone::BackboneStats;
pub(crate) use checkers::ThreadCheckers;
pub(crate) use components::{CompletionChecks, ComponentCounter};
pub use components::{ComponentError, ComponentStats};
pub(crate) use components::{ComponentSearch, Unlisted, component_cells, unknown_cells};
pub use countable::Countable;
pub use num_bigint::BigUint;
pub use profile::Orientation;
pub(crate) use profile::{
    LayerLimit, LayerProgress, ProfileError, count_by_profiles, count_per_colour_by_profiles,
};
#[cfg(test)]
pub(crate) use profile::{ProfileProblem, count_per_cell_by_profiles};
pub use progress::{CountPhase, CountProgress, CountSnapshot};
pub(crate) use stop::Stop;
use sweep::MemoBudget;
#[cfg(test)]
use sweep::SweepCounter;
pub(crate) use sweep::SweepError;
pub use sweep::SweepStats;
pub use tally::Overflow;
pub(crate) use tally::Tally;
use whole::{QuickTry, WholeSweep};

use crate::domain::{Domain, DomainGrid};
use crate::puzzle::PuzzleError;

/// Default limit on the profiles of one layer (each costs a few dozen bytes plus its count)
/// before the sweep takes over.
pub(crate) const DEFAULT_MAX_PROFILES: usize = 1 << 18;

/// How many times [`CountLimits::max_profiles`] the layers of per-cell counts by profiles may
/// hold together (they are all kept, see `count_per_cell_by_profiles`): about 2 million
/// profiles by default, some 100 to 300 MB.
pub const PER_CELL_LAYERS: usize = 8;

/// Default limit on the sweep's memo, in bytes, before counting by components takes over.
pub(crate) const DEFAULT_SWEEP_MEMORY: usize = 1 << 30;

/// Default time the sweep's trials from each side of the probed root take in all before it
/// stops to fix the backbone and starts again (see [`CountLimits::backbone_after`]): none, the
/// backbone comes first: a sweep quick enough to finish within trials is about as quick after
/// the backbone (docs/tuning.md, "Constants").
pub(crate) const DEFAULT_BACKBONE_AFTER: Duration = Duration::ZERO;

/// The most conflicts the learning searches may spend on the backbone, per thread.
const BACKBONE_CONFLICTS: u64 = 1_000_000;

/// The shortest trial of the sweep from one side.
const MIN_TRIAL: Duration = Duration::from_millis(500);

/// How far each method of `count_exact` may grow before the next one takes over: profiles,
/// then the sweep, then components (which have no limit). A limit of 0 skips its method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountLimits {
    /// The most profiles one layer of the dynamic program may hold in its first try. A count
    /// whose layer outgrew it tries profiles again in the race of the sweep and components,
    /// with layers held by memory instead (see `WholeSweep::race_profiles`). `0`: no profiles.
    pub max_profiles: usize,
    /// About the most bytes the sweep's memo may take.
    pub sweep_memory: usize,
    /// About the most bytes the components' cache may take: once half of it is full, the
    /// older half of the cache is dropped (the count stays exact; it may take longer).
    pub cache_memory: usize,
    /// Whether the sweep and components race (the first to finish wins) rather than take
    /// turns (components when the sweep's memo is full).
    pub race: bool,
    /// Whether components check large residual problems for a completion before counting
    /// them (see `ComponentCounter::completion_checks`).
    pub completion_checks: bool,
    /// How long the sweep's trials (a quarter of it from each side of the grid, at least
    /// half a second each) run before it stops, fixes the backbone (the cells equal in every
    /// solution, found by a learning search) and counts again from the reduced grid, from the
    /// side that went furthest first; 0 (the default) fixes the backbone before the trials;
    /// `None` never fixes it.
    pub backbone_after: Option<Duration>,
    /// The only side the sweep starts from, or `None` to let sweeps from every side take
    /// turns, the most promising first.
    pub sweep_from: Option<Orientation>,
}

impl Default for CountLimits {
    fn default() -> Self {
        CountLimits {
            max_profiles: DEFAULT_MAX_PROFILES,
            sweep_memory: DEFAULT_SWEEP_MEMORY,
            cache_memory: components::DEFAULT_CACHE_MEMORY,
            race: true,
            completion_checks: true,
            backbone_after: Some(DEFAULT_BACKBONE_AFTER),
            sweep_from: None,
        }
    }
}

/// Why counting by profiles failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The puzzle is not well formed.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A layer outgrew the profile limit.
    #[error("more than {limit} distinct profiles in a layer")]
    TooManyProfiles {
        /// The limit.
        limit: usize,
    },
    /// A line is longer than the automaton handles, or the lines' automata together are
    /// too large.
    #[error("the lines are too long for counting by profiles")]
    LineTooLong,
    /// The cancel flag was raised.
    #[error("cancelled")]
    Cancelled,
    /// The components' search paths outgrew their memory (`CountLimits::cache_memory`), on a
    /// grid too large for them, and no other method counted it.
    #[error("counting without enumerating would outgrow its memory")]
    OutOfMemory,
}

/// The root grid of `puzzle`, its givens applied, propagated and probed to a fixpoint, or
/// `None` when that proves there is no solution.
#[cfg(test)]
pub(crate) fn probed_root<P: Domain>(puzzle: &P) -> Result<Option<P::Grid>, PuzzleError> {
    crate::choose::probed_root(puzzle)
}

/// How an exact count was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactMethod {
    /// Propagation and probing decided every cell (or found no solution).
    Propagation,
    /// Dynamic programming over profiles.
    Profiles {
        /// How the puzzle was walked.
        orientation: Orientation,
        /// The most profiles a layer held.
        widest: usize,
    },
    /// A propagated sweep with a memo of residual problems.
    Sweep {
        /// The order the sweep that counted decided the lines in.
        orientation: Orientation,
        /// Nodes counted by branching (memo misses).
        branched: u64,
        /// Nodes whose count came from the memo.
        memo_hits: u64,
        /// The most bytes the memos took at once (as their budget estimates them), and their
        /// budget in bytes.
        memo_bytes: (u64, u64),
        /// Cells fixed as the backbone before the sweep that counted (0 if none).
        backbone: u64,
        /// Wall time the backbone search took, in milliseconds.
        backbone_millis: u64,
    },
    /// Components and a cache of residual problems.
    Components {
        /// Components counted by branching.
        branched: u64,
        /// Components whose count came from the cache.
        cache_hits: u64,
        /// Probes run.
        probes: u64,
        /// Completion checks that found a completion, proved there is none, and gave up.
        checks: [u64; 3],
    },
}

/// An exact count and how it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactCount {
    /// The number of solutions.
    pub count: BigUint,
    /// How it was counted.
    pub method: ExactMethod,
    /// Unknown cells after propagation and probing at the root.
    pub unknown_cells: usize,
}

/// Enters [`CountPhase::Root`] and propagates and probes at the root of an exact count: the
/// root grid and its number of undecided cells, or `Err` with the count when that settles the
/// puzzle (no solution, or every cell decided).
fn open_root<P: Domain>(
    puzzle: &P,
    progress: &CountProgress,
    cancel: &AtomicBool,
) -> Result<Result<(P::Grid, usize), ExactCount>, CountError> {
    progress.enter(CountPhase::Root);
    let settled = |solutions: u8| {
        Ok(Err(ExactCount {
            count: BigUint::from(solutions),
            method: ExactMethod::Propagation,
            unknown_cells: 0,
        }))
    };
    let stopped = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let Ok(root) = crate::choose::probed_root_until(puzzle, &stopped)? else {
        return Err(CountError::Cancelled);
    };
    let Some(root) = root else {
        return settled(0);
    };
    let unknown_cells = root.undecided();
    if unknown_cells == 0 {
        return settled(1);
    }
    Ok(Ok((root, unknown_cells)))
}

/// Counts the solutions of `puzzle`, black and white or colour, exactly without visiting them
/// one by one, in the current rayon pool: by profiles while a layer holds at most
/// `limits.max_profiles`, else by a sweep while its memo fits `limits.sweep_memory`, else by
/// components (racing, profiles again among them if a layer outgrew the limit). `progress` is kept up to date for a display that reads it from another thread.
pub(crate) fn count_exact<P: Countable>(
    puzzle: &P,
    limits: CountLimits,
    cancel: &AtomicBool,
    progress: &CountProgress,
) -> Result<ExactCount, CountError> {
    count_exact_trying(puzzle, limits, whole::QUICK_TRY, cancel, progress)
}

/// [`count_exact`], whose sweep alone gets `quick_try` before a race that profiles join
/// (none if zero).
fn count_exact_trying<P: Countable>(
    puzzle: &P,
    limits: CountLimits,
    quick_try: Duration,
    cancel: &AtomicBool,
    progress: &CountProgress,
) -> Result<ExactCount, CountError> {
    crate::fault::inject("count");
    let (root, unknown_cells) = match open_root(puzzle, progress, cancel)? {
        Ok(open) => open,
        Err(settled) => return Ok(settled),
    };
    let done = |(count, method)| ExactCount {
        count,
        method,
        unknown_cells,
    };
    let orientation = orientations(puzzle)[0];
    // Layers that outgrew the first limit may still fit in memory: profiles race again,
    // unless the layers of the first try already grew too fast for them.
    let mut profiles_race = false;
    if limits.max_profiles > 0 {
        match try_profiles(puzzle, &root, orientation, limits, cancel, progress)? {
            FirstTry::Counted(counted) => return Ok(done(counted)),
            FirstTry::TooMany { grew_slowly } => profiles_race = grew_slowly,
            FirstTry::TooLong => {}
        }
    }
    // The sweep's frontier crosses every line, so it holds the product of the states of the
    // independent parts it cuts through: leave a grid that falls apart to components.
    let whole = limits.sweep_memory > 0
        && components::largest_component(puzzle, &root, &|| cancel.load(Ordering::Relaxed))
            .is_some_and(|(unknown, largest)| 2 * largest >= unknown);
    let sweep = WholeSweep {
        puzzle,
        root: &root,
        limits,
        orientation,
        budget: MemoBudget::new(limits.sweep_memory),
        progress,
        swept_as: std::sync::Mutex::new(orientation),
        profiles_race,
        quick_try,
    };
    if limits.sweep_memory > 0 && whole && limits.race {
        if !profiles_race {
            return sweep.race_components(cancel).map(done);
        }
        let reduced = match sweep.quick_try(cancel) {
            QuickTry::Counted(count, method) => return Ok(done((count, method))),
            QuickTry::NotCounted(None) => return sweep.race_components(cancel).map(done),
            QuickTry::NotCounted(Some(reduced)) => reduced,
        };
        // The race starts from the cells the quick try fixed, and looks no further for
        // backbone cells if it found them all.
        let backbone_after = if reduced.complete {
            None
        } else {
            limits.backbone_after
        };
        let from_backbone = WholeSweep {
            root: &reduced.grid,
            limits: CountLimits {
                backbone_after,
                ..limits
            },
            ..sweep
        };
        return from_backbone.race_components(cancel).map(done);
    }
    if limits.sweep_memory > 0 && whole {
        progress.enter(CountPhase::Sweep);
        match sweep.count(Stop::from(cancel)) {
            Ok(count) => return Ok(done((count, sweep.method()))),
            Err(SweepError::Cancelled) => return Err(CountError::Cancelled),
            Err(SweepError::MemoFull | SweepError::LineTooLong | SweepError::Overflow) => {}
        }
    }
    progress.enter(CountPhase::Components);
    let count = count_by_components(
        puzzle,
        &root,
        limits,
        Stop::from(cancel),
        &progress.components,
    )?;
    Ok(done((count, components_method(&progress.components))))
}

/// Whether layers of `sizes` profiles, one after the other, grew within the bound of the
/// profiles that race (see `whole::RACE_LIMIT`): if not, those would give up where the
/// first try's layers did, and do not race.
fn grew_slowly(sizes: &[usize]) -> bool {
    !sizes
        .windows(2)
        .any(|pair| whole::RACE_LIMIT.outgrown(pair[0], pair[1]))
}

/// What the first count by profiles gave.
enum FirstTry {
    /// The count, and how it was made.
    Counted((BigUint, ExactMethod)),
    /// A layer outgrew `limits.max_profiles`; the layers before it grew within the racing
    /// profiles' bound, or not (see `whole::RACE_LIMIT`).
    TooMany { grew_slowly: bool },
    /// A line is too long for profiles.
    TooLong,
}

/// Counts by profiles from `root`, each layer within `limits.max_profiles`.
fn try_profiles<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    orientation: Orientation,
    limits: CountLimits,
    cancel: &AtomicBool,
    progress: &CountProgress,
) -> Result<FirstTry, CountError> {
    progress.enter(CountPhase::Profiles);
    // Each layer's profiles, from the start's one.
    let mut sizes = vec![1];
    let layer = |p: LayerProgress| {
        sizes.push(p.profiles);
        progress.layer(p.done, p.total, p.profiles);
    };
    let counted = count_by_profiles(
        puzzle,
        root,
        orientation,
        LayerLimit::at_most(limits.max_profiles),
        Stop::from(cancel),
        layer,
    );
    match counted {
        Ok((count, widest)) => Ok(FirstTry::Counted((
            count,
            ExactMethod::Profiles {
                orientation,
                widest,
            },
        ))),
        Err(CountError::TooManyProfiles { .. }) => Ok(FirstTry::TooMany {
            grew_slowly: grew_slowly(&sizes),
        }),
        Err(CountError::LineTooLong) => Ok(FirstTry::TooLong),
        Err(e) => Err(e),
    }
}

/// Counts the solutions of `puzzle`, black and white or colour, exactly by components alone
/// (the last method of [`count_exact`], without profiles or the sweep), in the current rayon
/// pool: the root is propagated and probed, then [`ComponentCounter`] counts what is left, in
/// `u128` and again in big integers if that overflows. Only `limits.completion_checks`
/// matters here. When cancelled, the solutions it had counted for certain are in `progress`
/// ([`CountProgress::at_least`]).
#[cfg(test)]
pub(crate) fn count_by_components_alone<P: Countable>(
    puzzle: &P,
    limits: CountLimits,
    cancel: &AtomicBool,
    progress: &CountProgress,
) -> Result<ExactCount, CountError> {
    let limits = CountLimits {
        max_profiles: 0,
        sweep_memory: 0,
        ..limits
    };
    count_exact(puzzle, limits, cancel, progress)
}

/// How a count by components went, from its counters.
fn components_method(stats: &ComponentStats) -> ExactMethod {
    let load = |n: &std::sync::atomic::AtomicU64| n.load(std::sync::atomic::Ordering::Relaxed);
    ExactMethod::Components {
        branched: load(&stats.branched),
        cache_hits: load(&stats.cache_hits),
        probes: load(&stats.probes),
        checks: [
            load(&stats.checks_completed),
            load(&stats.checks_impossible),
            load(&stats.checks_undecided),
        ],
    }
}

impl CountError {
    /// The error of building a walk by profiles: cancelled, or a line too long.
    pub(crate) fn from_building(error: ProfileError) -> Self {
        match error {
            ProfileError::Cancelled => CountError::Cancelled,
            _ => CountError::LineTooLong,
        }
    }
}

impl From<ComponentError> for CountError {
    fn from(e: ComponentError) -> Self {
        match e {
            ComponentError::Cancelled => CountError::Cancelled,
            // Only u128 counts overflow, and they are redone in big integers.
            ComponentError::Overflow => CountError::Cancelled,
            ComponentError::PathMemory => CountError::OutOfMemory,
        }
    }
}

/// Counts the completions of `root` (a probed grid of `puzzle`) by components, in `u128` and
/// again in big integers if that overflows.
fn count_by_components<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    limits: CountLimits,
    stop: Stop,
    stats: &ComponentStats,
) -> Result<BigUint, CountError> {
    let checks = limits.completion_checks.then(CompletionChecks::default);
    match ComponentCounter::<u128, P>::new(puzzle, stop, stats)
        .completion_checks(checks)
        .cache_memory(limits.cache_memory)
        .path_memory(limits.cache_memory.max(components::LEAST_PATH_MEMORY))
        .count(root)
    {
        Err(ComponentError::Overflow) => {
            Ok(ComponentCounter::<BigUint, P>::new(puzzle, stop, stats)
                .completion_checks(checks)
                .cache_memory(limits.cache_memory)
                .path_memory(limits.cache_memory.max(components::LEAST_PATH_MEMORY))
                .count(root)?)
        }
        other => Ok(other?.to_big()),
    }
}

/// The orientations to try, the more promising first: the one tracking fewer lines.
fn orientations<P: Domain>(puzzle: &P) -> [Orientation; 2] {
    let [rows, _, columns, _] = Orientation::ALL;
    let (height, width) = puzzle.size();
    if width <= height {
        [rows, columns]
    } else {
        [columns, rows]
    }
}

#[cfg(test)]
mod color_tests;
#[cfg(test)]
mod race_tests;
#[cfg(test)]
mod stop_tests;
#[cfg(test)]
mod tests;
