//! Counting without visiting the solutions, for either palette: [`Counter`] builds the pool
//! with the stack the search needs and picks the exact counter for the palette, or says that
//! only an enumeration gives what was asked ([`ExactOutcome::NeedsEnumeration`]).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;
use num_traits::CheckedSub;
use thiserror::Error;

use crate::color::AnyPuzzle;
use crate::count::{
    CountError, CountLimits, CountProgress, Countable, ExactCount, PER_CELL_LAYERS, count_exact,
    count_per_colour_by_profiles,
};
use crate::domain::Domain;
use crate::search::{SolveError, SolverOptions};
use crate::stack::stack_size;

/// Why a count failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CountFailure {
    /// The exact counter failed.
    #[error(transparent)]
    Exact(#[from] CountError),
    /// The search could not run.
    #[error(transparent)]
    Search(#[from] SolveError),
    /// The system would not start the thread pool (too many threads are [`CountFailure::Search`]).
    #[error("cannot start the counting threads: {0}")]
    Threads(String),
    /// A counting thread panicked (a bug): this is what the panic said.
    #[error("internal error: {0}")]
    Internal(String),
}

/// How to count (see [`AnyPuzzle::counter`]).
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// Worker threads; `0` (the default) means one per available core; at most
    /// [`MAX_THREADS`](crate::MAX_THREADS).
    pub threads: usize,
    /// How far each exact method may grow (see [`CountLimits`]). Per-cell counts use only
    /// `max_profiles`: their layers, all kept, may hold [`PER_CELL_LAYERS`] times as many
    /// profiles together.
    pub limits: CountLimits,
    /// Also count, for each cell, the solutions that fill it (black and white,
    /// [`ExactOutcome::CountedPerCell`]) or give it each colour (colour,
    /// [`ExactOutcome::CountedPerColour`]), by profiles, without visiting the solutions.
    pub per_cell: bool,
}

/// What a [`Counter`] gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactOutcome {
    /// The exact count, and how it was made.
    Counted(ExactCount),
    /// The exact count and, row by row, in how many solutions each cell is filled (by
    /// profiles, [`CountOptions::per_cell`]).
    CountedPerCell {
        /// The number of solutions.
        count: BigUint,
        /// For each row, for each cell, the solutions that fill it.
        per_cell: Vec<Vec<BigUint>>,
    },
    /// The exact count of a colour puzzle and, row by row and cell by cell, in how many
    /// solutions the cell holds each colour of the palette, the background first (by
    /// profiles, [`CountOptions::per_cell`]).
    CountedPerColour {
        /// The number of solutions.
        count: BigUint,
        /// For each row, for each cell, for each palette index, the solutions that give the
        /// cell that colour; a cell's counts add up to `count`.
        per_colour: Vec<Vec<Vec<BigUint>>>,
    },
    /// The cancel flag was raised before the count was known.
    Cancelled {
        /// The solutions counted for certain by then (0 for per-cell counts).
        at_least: BigUint,
    },
    /// Only enumerating the solutions (with [`AnyPuzzle::solver`]) gives what was asked.
    NeedsEnumeration(EnumerationNeeded),
}

/// Why a count needs an enumeration of the solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EnumerationNeeded {
    /// Per-cell counts by profiles would hold more than `limit` profiles in all their layers
    /// ([`PER_CELL_LAYERS`] times [`CountLimits::max_profiles`]).
    #[error("per-cell counts by profiles need more than {limit} profiles")]
    TooManyProfiles {
        /// The limit.
        limit: usize,
    },
    /// The lines are too long for counting by profiles, or their automata together too large
    /// (a grid of some thousands of cells a side).
    #[error("the lines are too long for per-cell counts by profiles")]
    LinesTooLong,
    /// Counting without enumerating would outgrow its memory: the components' search, which
    /// keeps a copy of the grid at every level of its paths, outgrew
    /// [`CountLimits::cache_memory`] on a grid too large for it, and no sweep counted it.
    #[error("counting without enumerating would outgrow its memory")]
    OutOfMemory,
}

/// A count of one puzzle without visiting its solutions (see [`AnyPuzzle::counter`]).
#[derive(Debug)]
pub struct Counter<'p> {
    pub(super) puzzle: &'p AnyPuzzle,
    pub(super) options: CountOptions,
    pub(super) cancel: Arc<AtomicBool>,
    progress: Arc<CountProgress>,
}

impl AnyPuzzle {
    /// A count of this puzzle as `options` say; [`Counter::run`] runs it.
    pub fn counter(&self, options: CountOptions) -> Counter<'_> {
        Counter {
            puzzle: self,
            options,
            cancel: Arc::default(),
            progress: Arc::default(),
        }
    }

    /// The exact number of solutions, on every core, without visiting them (by
    /// `count_exact`: profiles, a sweep or components).
    pub fn count(&self) -> Result<BigUint, CountFailure> {
        match self.counter(CountOptions::default()).run()? {
            ExactOutcome::Counted(exact) => Ok(exact.count),
            ExactOutcome::CountedPerCell { count, .. }
            | ExactOutcome::CountedPerColour { count, .. } => Ok(count),
            ExactOutcome::Cancelled { .. } => Err(CountError::Cancelled.into()),
            // Only per-cell counts need it; enumerate should that ever change.
            ExactOutcome::NeedsEnumeration(_) => {
                let outcome = self.solver(SolverOptions::default()).count_up_to(None)?;
                Ok(outcome.solutions.into())
            }
        }
    }
}

impl Counter<'_> {
    /// Uses `flag` as the cancel flag: setting it stops the count promptly, and
    /// [`Counter::run`] returns [`ExactOutcome::Cancelled`].
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = flag;
        self
    }

    /// Where the count stands, kept up to date for a display that reads it from another
    /// thread (per-cell counts leave it as it is).
    pub fn progress(&self) -> Arc<CountProgress> {
        Arc::clone(&self.progress)
    }

    /// Counts, in a pool of [`CountOptions::threads`] with the stack the search needs, by
    /// `count_exact` (profiles, then a sweep, then components, as the limits allow); per cell
    /// by profiles, for either palette.
    pub fn run(&self) -> Result<ExactOutcome, CountFailure> {
        let (limits, cancel, progress) = (self.options.limits, &*self.cancel, &*self.progress);
        let counted = match self.puzzle {
            AnyPuzzle::Bw(p) if self.options.per_cell => {
                let filled = |count, rows: Vec<Vec<Vec<BigUint>>>| ExactOutcome::CountedPerCell {
                    count,
                    per_cell: rows
                        .into_iter()
                        .map(|row| row.into_iter().flatten().collect())
                        .collect(),
                };
                return self.in_pool(p, || per_cell(p, limits.max_profiles, cancel, filled))?;
            }
            AnyPuzzle::Color(p) if self.options.per_cell => {
                let colours = |count, rows| ExactOutcome::CountedPerColour {
                    per_colour: with_background(&count, rows),
                    count,
                };
                return self.in_pool(p, || per_cell(p, limits.max_profiles, cancel, colours))?;
            }
            AnyPuzzle::Bw(p) => self.in_pool(p, || count_exact(p, limits, cancel, progress))?,
            AnyPuzzle::Color(p) => self.in_pool(p, || count_exact(p, limits, cancel, progress))?,
        };
        let stopped = cancel.load(std::sync::atomic::Ordering::Relaxed);
        match counted {
            Ok(exact) => Ok(ExactOutcome::Counted(exact)),
            Err(CountError::OutOfMemory) if !stopped => Ok(ExactOutcome::NeedsEnumeration(
                EnumerationNeeded::OutOfMemory,
            )),
            Err(CountError::Cancelled | CountError::OutOfMemory) => Ok(ExactOutcome::Cancelled {
                at_least: progress.at_least(),
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// Runs `work` in a pool of the requested size with the stack `puzzle`'s search needs.
    fn in_pool<P: Domain, R: Send>(
        &self,
        puzzle: &P,
        work: impl FnOnce() -> R + Send,
    ) -> Result<R, CountFailure> {
        let threads = self.options.threads;
        crate::search::check_thread_count(threads)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(stack_size(puzzle))
            .build()
            .map_err(|e| CountFailure::Threads(e.to_string()))?;
        let counted = std::panic::catch_unwind(AssertUnwindSafe(|| pool.install(work)));
        counted.map_err(|panic| CountFailure::Internal(crate::fault::panic_message(&*panic)))
    }
}

/// Per-cell counts of `puzzle` by profiles, their layers holding at most [`PER_CELL_LAYERS`]
/// times `max_profiles` together (fewer where wide profiles would pass a gigabyte), handed to
/// `outcome` as the count and, row by row and cell by cell, the solutions giving the cell each
/// value from 1 up.
fn per_cell<P: Countable>(
    puzzle: &P,
    max_profiles: usize,
    cancel: &AtomicBool,
    outcome: impl FnOnce(BigUint, Vec<Vec<Vec<BigUint>>>) -> ExactOutcome,
) -> Result<ExactOutcome, CountFailure> {
    let limit = max_profiles.saturating_mul(PER_CELL_LAYERS);
    let stopped = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let root = crate::choose::probed_root_until(puzzle, &stopped).map_err(CountError::from)?;
    let Ok(root) = root else {
        return Ok(ExactOutcome::Cancelled {
            at_least: BigUint::ZERO,
        });
    };
    let counted = match root {
        // No solutions, and no cell given any value in any.
        None => {
            let ((height, width), values) = (puzzle.size(), puzzle.all_values().count_ones());
            let cell = vec![BigUint::ZERO; values as usize - 1];
            Ok((BigUint::ZERO, vec![vec![cell; width]; height]))
        }
        Some(root) => count_per_colour_by_profiles(puzzle, &root, limit, cancel),
    };
    match counted {
        Ok((count, rows)) => Ok(outcome(count, rows)),
        // The limit used: lower than asked where wide profiles would take too many bytes.
        Err(CountError::TooManyProfiles { limit }) => Ok(ExactOutcome::NeedsEnumeration(
            EnumerationNeeded::TooManyProfiles { limit },
        )),
        Err(CountError::LineTooLong) => Ok(ExactOutcome::NeedsEnumeration(
            EnumerationNeeded::LinesTooLong,
        )),
        Err(CountError::Cancelled) => Ok(ExactOutcome::Cancelled {
            at_least: BigUint::ZERO,
        }),
        Err(e) => Err(e.into()),
    }
}

/// Puts before each cell's counts of colours 1 and up those of the background: the solutions
/// that give the cell no other colour.
fn with_background(count: &BigUint, rows: Vec<Vec<Vec<BigUint>>>) -> Vec<Vec<Vec<BigUint>>> {
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .map(|colours| {
                    let others: BigUint = colours.iter().sum();
                    // Each solution gives the cell one colour, so the others never exceed it.
                    let background = count.checked_sub(&others).unwrap_or_default();
                    std::iter::once(background).chain(colours).collect()
                })
                .collect()
        })
        .collect()
}
