//! nonoenum: finds, counts and lists every solution of nonogram puzzles, on all cores.
//!
//! The pipeline: a [`Puzzle`] (read by [`format`](mod@format)) becomes a [`Grid`] of cells;
//! propagation runs the exact [`line`](mod@line) solver on every line until nothing changes;
//! the search branches on a cell chosen by probing (see [`Probing`]), in parallel with rayon,
//! and every solution streams through a bounded channel to one collector. For runs that stop
//! after a few solutions, a clause-learning search can race the probing search
//! ([`Engine::Both`]).
//!
//! [`AnyPuzzle`] is the entry point for both palettes: it reads a puzzle, counts it exactly,
//! decides it, or streams its solutions. [`AnyPuzzle::counter`] and [`AnyPuzzle::solver`],
//! which the `nonoenum` command is built on, take options, a cancel flag and a progress
//! display.
//!
//! ```
//! use nonoenum::{AnyPuzzle, Verdict};
//!
//! // Two 1-blocks in a 2x2 grid: the two diagonals (the plain text format).
//! let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?;
//! assert_eq!(puzzle.count()?, 2u32.into());
//! let Verdict::Multiple(first, second) = puzzle.solve()? else {
//!     panic!("two solutions");
//! };
//! assert_ne!(first, second);
//! assert_eq!(puzzle.solutions().count(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Underneath, one engine is generic over the cell [`Domain`]: [`Solver`] runs on a
//! black-and-white [`Puzzle`] (bit planes, the bit-parallel line solver) or a [`ColorPuzzle`].
//!
//! ```
//! use nonoenum::{Clue, Puzzle, Solver, SolverOptions};
//!
//! let clues = || vec![Clue(vec![1]), Clue(vec![1])];
//! let puzzle = Puzzle::new(clues(), clues())?;
//! let outcome = Solver::new(&puzzle, SolverOptions::default()).count()?;
//! assert_eq!(outcome.solutions, 2);
//! assert!(outcome.exhausted);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod api;
mod checksum;
pub(crate) mod choose;
pub(crate) mod color;
pub(crate) mod count;
pub(crate) mod domain;
mod fault;
pub mod files;
mod flow;
pub mod format;
pub(crate) mod grid;
pub(crate) mod learn;
pub mod line;
pub(crate) mod propagate;
pub(crate) mod puzzle;
mod rng;
pub(crate) mod search;
pub(crate) mod split;
mod stack;
#[cfg(test)]
mod test_enumeration;
#[cfg(test)]
mod test_strategies;

/// docs/library.md, whose Rust examples run as doc tests: a change that breaks one fails the
/// suite instead of leaving the document behind.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
mod library_md {}

pub use api::{
    AnyGrid, AnySolutionWriter, AnySolver, CountFailure, CountOptions, Counter, EnumerationNeeded,
    ExactOutcome, Listing, ListingError, ListingItem, ReadError, Solution, Solutions, Verdict,
    read_listing,
};
// Split folders (issue 68): kept apart from the list above so that branches merge cleanly.
pub use api::{
    CHECKPOINT_FORMAT, Checkpoint, CheckpointEnd, CheckpointError, CheckpointEvent,
    CheckpointOptions, CheckpointProgress, CheckpointSettings, CheckpointSnapshot,
};
pub use api::{CellCounts, SIDE_COUNT_START_AFTER, SIDE_COUNT_TIME_FLOOR, SideCount};
pub use api::{
    ColorCells, FileError, JsonLine, Manifest, ManifestPart, ManifestSubtree, MergeCommand,
    MergeError, Merged, PartError, PartProblem, PartRunError, RunResult, SplitError, SplitFolder,
    SplitOptions, merge,
};
pub use api::{CountMethod, CountRefusal, default_sweep_memory};
// Progress figures (issue 68): what a display shows of a running enumeration or count.
pub use api::{Learning, ProgressKind, ProgressMeter, ProgressReport};
// `--to json`: the results as one JSON array (issue 68).
pub use api::JsonArray;
// Pictures and puzzles (issue 68).
pub use api::{
    CELL_PIXELS, MAX_IMAGE_SIDE, Picture, PictureError, Uniqueness, cell_pixels, svg_image,
};
// Counts by a method, and per-cell counts as results (issue 68).
pub use api::{MethodError, PerCell, write_count_rows};
// Numbers of seconds as a command line gives them.
pub use api::{MAX_SECONDS, SecondsError, parse_seconds};
// Inputs as the command reads them, and the runs `--strategy auto` races (issue 68).
pub use api::{
    InputError, LEARN_ALONE_LIMIT, RACE_LIMIT, ReadOptions, input_name, read_input, read_labelled,
};
pub use color::{
    AnyPuzzle, Block, Color, ColorClue, ColorGiven, ColorGrid, ColorPuzzle, Colored, MAX_COLORS,
    bw_palette,
};
// What the command needs besides the above (issue 68): exact counts, their progress and limits,
// the search's estimate.
pub use count::{
    BigUint, CountLimits, CountPhase, CountProgress, CountSnapshot, ExactCount, ExactMethod,
    Orientation, PER_CELL_LAYERS,
};
// Named by the public signatures above (issue 68): the engine's trait for counting, the count's
// errors and each method's statistics.
pub use count::{
    BackboneStats, ComponentError, ComponentStats, CountError, Countable, Overflow, SweepStats,
};
pub use domain::{Domain, DomainGrid};
pub use grid::{Cell, Conflict, Grid};
pub use puzzle::{
    BlackWhite, Clue, Given, LineId, MAX_LINE_LEN, Nonogram, Puzzle, PuzzleError, PuzzleKind,
    TwoColors,
};
pub use search::estimate::{Done, Outlook, Spread, TreeEstimate};
pub use search::{
    ColorSolver, Engine, Flow, MAX_THREADS, Outcome, Probing, SearchStats, Searchable,
    SolutionWriter, SolveError, Solver, SolverOptions, StatsSnapshot,
};
