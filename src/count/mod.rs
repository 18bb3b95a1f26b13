//! Exact counting without enumerating: the number of solutions of puzzles with far too many to
//! visit one by one, as an arbitrary-precision integer.
//!
//! The root grid is propagated and probed. Then [`ProfileProblem`] counts by dynamic
//! programming over rows (or columns), where each column's residual problem is reduced to its
//! class in a minimal automaton ([`dfa`]), so that equal residual problems meet in one table
//! entry; it suits puzzles whose ambiguity runs through every line, such as permutations. When
//! a layer outgrows its limit, [`ComponentCounter`] takes over: it splits the unknown cells into
//! independent components (lines fall apart into independent segments), counts each by
//! branching with probing, and caches the count of every residual problem, as exact model
//! counters do. Counts are kept in `u128` and redone in [`BigUint`] if they outgrow it.

mod components;
pub mod dfa;
mod key;
mod profile;
mod segments;
mod tally;

use std::sync::atomic::AtomicBool;

pub use components::{ComponentCounter, ComponentError, ComponentStats};
pub use num_bigint::BigUint;
pub use profile::{LayerProgress, Orientation, ProfileError, ProfileProblem};
pub use tally::{Overflow, Tally};

use crate::choose::{Choice, ProbeCounts, choose_probing};
use crate::grid::Grid;
use crate::propagate::Propagator;
use crate::puzzle::{Puzzle, PuzzleError};

/// Default limit on the profiles of one layer (each costs a few dozen bytes plus its count)
/// before counting by components takes over.
pub const DEFAULT_MAX_PROFILES: usize = 1 << 20;

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
    /// A line is longer than the automaton handles.
    #[error("a line is too long for counting by profiles")]
    LineTooLong,
    /// The cancel flag was raised.
    #[error("cancelled")]
    Cancelled,
}

/// The root grid of `puzzle`, its givens applied, propagated and probed to a fixpoint, or
/// `None` when that proves there is no solution.
pub fn probed_root(puzzle: &Puzzle) -> Result<Option<Grid>, PuzzleError> {
    puzzle.check()?;
    let mut grid = Grid::new(puzzle.height(), puzzle.width());
    for g in &puzzle.givens {
        if grid.set(g.row, g.col, g.filled).is_err() {
            return Ok(None);
        }
    }
    let mut prop = Propagator::new();
    if prop.propagate_all(puzzle, &mut grid).is_err() {
        return Ok(None);
    }
    let mut counts = ProbeCounts::default();
    Ok(
        match choose_probing(puzzle, &mut grid, &mut prop, &mut counts, None) {
            Choice::Dead => None,
            Choice::Solved | Choice::Branch { .. } => Some(grid),
        },
    )
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
    /// Components and a cache of residual problems.
    Components {
        /// Components counted by branching.
        branched: u64,
        /// Components whose count came from the cache.
        cache_hits: u64,
        /// Probes run.
        probes: u64,
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

/// Counts the solutions of `puzzle` exactly without visiting them one by one, in the current
/// rayon pool: by profiles while a layer holds at most `max_profiles` (`progress` hears after
/// each layer), else by components.
pub fn count_exact(
    puzzle: &Puzzle,
    max_profiles: usize,
    cancel: &AtomicBool,
    progress: impl FnMut(LayerProgress),
) -> Result<ExactCount, CountError> {
    let Some(root) = probed_root(puzzle)? else {
        return Ok(ExactCount {
            count: BigUint::ZERO,
            method: ExactMethod::Propagation,
            unknown_cells: 0,
        });
    };
    let unknown_cells = root.unknown_count();
    if unknown_cells == 0 {
        return Ok(ExactCount {
            count: BigUint::from(1u8),
            method: ExactMethod::Propagation,
            unknown_cells,
        });
    }
    if max_profiles > 0 {
        let orientation = orientations(puzzle)[0];
        match count_by_profiles(puzzle, &root, orientation, max_profiles, cancel, progress) {
            Ok((count, widest)) => {
                return Ok(ExactCount {
                    count,
                    method: ExactMethod::Profiles {
                        orientation,
                        widest,
                    },
                    unknown_cells,
                });
            }
            Err(CountError::TooManyProfiles { .. } | CountError::LineTooLong) => {}
            Err(e) => return Err(e),
        }
    }
    let (count, stats) = match count_by_components::<u128>(puzzle, &root, cancel) {
        Err(ComponentError::Overflow) => count_by_components::<BigUint>(puzzle, &root, cancel)?,
        other => {
            let (n, stats) = other?;
            (n.to_big(), stats)
        }
    };
    let load = |n: &std::sync::atomic::AtomicU64| n.load(std::sync::atomic::Ordering::Relaxed);
    Ok(ExactCount {
        count,
        method: ExactMethod::Components {
            branched: load(&stats.branched),
            cache_hits: load(&stats.cache_hits),
            probes: load(&stats.probes),
        },
        unknown_cells,
    })
}

impl From<ComponentError> for CountError {
    fn from(e: ComponentError) -> Self {
        match e {
            ComponentError::Cancelled => CountError::Cancelled,
            // Only u128 counts overflow, and they are redone in big integers.
            ComponentError::Overflow => CountError::Cancelled,
        }
    }
}

/// Counts the completions of `root` (a probed grid of `puzzle`) by components.
fn count_by_components<T: Tally>(
    puzzle: &Puzzle,
    root: &Grid,
    cancel: &AtomicBool,
) -> Result<(T, ComponentStats), ComponentError> {
    let counter = ComponentCounter::<T>::new(puzzle, cancel);
    let count = counter.count(root)?;
    Ok((count, counter.stats))
}

/// Counts the completions of `root` (a probed grid of `puzzle`) by profiles walked as
/// `orientation` says, with at most `max_profiles` per layer. Returns the count and the
/// widest layer.
pub fn count_by_profiles(
    puzzle: &Puzzle,
    root: &Grid,
    orientation: Orientation,
    max_profiles: usize,
    cancel: &AtomicBool,
    mut progress: impl FnMut(LayerProgress),
) -> Result<(BigUint, usize), CountError> {
    let problem =
        ProfileProblem::new(puzzle, root, orientation).map_err(|_| CountError::LineTooLong)?;
    let mut widest = 1;
    let mut track = |p: LayerProgress| {
        widest = widest.max(p.profiles);
        progress(p);
    };
    let result = match problem.count::<u128>(max_profiles, cancel, &mut track) {
        Err(ProfileError::Overflow) => problem.count::<BigUint>(max_profiles, cancel, &mut track),
        other => other.map(|n| n.to_big()),
    };
    match result {
        Ok(count) => Ok((count, widest)),
        Err(ProfileError::TooManyProfiles { .. }) => Err(CountError::TooManyProfiles {
            limit: max_profiles,
        }),
        Err(ProfileError::LineTooLong) => Err(CountError::LineTooLong),
        Err(ProfileError::Cancelled | ProfileError::Overflow) => Err(CountError::Cancelled),
    }
}

/// The orientations to try, the more promising first: the one tracking fewer lines.
fn orientations(puzzle: &Puzzle) -> [Orientation; 2] {
    let [rows, _, columns, _] = Orientation::ALL;
    if puzzle.width() <= puzzle.height() {
        [rows, columns]
    } else {
        [columns, rows]
    }
}

#[cfg(test)]
mod tests;
