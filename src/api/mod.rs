//! The library's entry point for both palettes: read a puzzle, then count, list or decide it.
//!
//! [`AnyPuzzle`] is a black-and-white or colour puzzle as the readers return it. Its methods
//! pick the engine's instance for the palette and build the thread pool with the stack the
//! search needs. [`AnyPuzzle::counter`] counts without visiting the solutions, by
//! [`crate::count::count_exact`] (profiles, a sweep or components) for both palettes; where only an enumeration can give what was asked
//! (some per-cell counts) it says so ([`ExactOutcome::NeedsEnumeration`]), and
//! [`AnyPuzzle::solver`] enumerates. The `nonoenum` command is built on the same calls.
//!
//! ```
//! use nonoenum::{AnyPuzzle, CountOptions, ExactOutcome, Verdict};
//!
//! // Two 1-blocks in a 2x2 grid: the two diagonals.
//! let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?;
//! assert_eq!(puzzle.count()?, 2u32.into());
//! assert!(matches!(puzzle.solve()?, Verdict::Multiple(..)));
//! let first = puzzle.solutions().next().expect("a solution");
//! assert_eq!(first.rows(), vec!["#.", ".#"]);
//!
//! // In how many solutions each cell is filled, on two threads.
//! let options = CountOptions { threads: 2, per_cell: true, ..CountOptions::default() };
//! let ExactOutcome::CountedPerCell { count, per_cell } = puzzle.counter(options).run()? else {
//!     panic!("a 2x2 grid is counted per cell by profiles");
//! };
//! assert_eq!(count, 2u32.into());
//! assert_eq!(per_cell, vec![vec![1u32.into(); 2]; 2]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cell_counts;
mod checkpoint;
mod count_policy;
mod count_run;
mod counter;
mod input;
mod json_array;
mod listing;
mod merge;
mod merge_error;
mod outcome_words;
mod pace;
mod part_run;
mod per_cell;
mod picture;
mod progress;
mod progress_fit;
#[cfg(test)]
mod progress_tests;
mod progress_words;
mod results;
mod seconds;
mod side_count;
mod solve;
mod solver;
mod split_folder;
#[cfg(test)]
mod tests;
mod uniqueness;

use std::path::Path;

use thiserror::Error;

use crate::color::AnyPuzzle;
use crate::format::{Format, ParseError, read_any_puzzles};

pub use cell_counts::CellCounts;
pub use checkpoint::{
    CHECKPOINT_FORMAT, Checkpoint, CheckpointEnd, CheckpointError, CheckpointEvent,
    CheckpointOptions, CheckpointProgress, CheckpointSettings, CheckpointSnapshot,
};
pub use count_policy::{CountMethod, CountRefusal, default_sweep_memory};
pub use counter::{CountFailure, CountOptions, Counter, EnumerationNeeded, ExactOutcome};
pub use listing::{Listing, ListingError, ListingItem, read_listing};
pub use progress::{Learning, ProgressKind, ProgressMeter, ProgressReport};
pub use side_count::{SIDE_COUNT_START_AFTER, SIDE_COUNT_TIME_FLOOR, SideCount};
pub use solve::{Solution, Solutions, Verdict};
pub use solver::{AnyGrid, AnySolutionWriter, AnySolver, LEARN_ALONE_LIMIT, RACE_LIMIT};

// Split folders: cut a search into part files, run them, merge their results.
#[cfg(test)]
mod split_folder_tests;
pub use json_array::JsonArray;
pub use merge::{MergeCommand, Merged, merge};
pub use merge_error::{FileError, MergeError, PartError, PartProblem};
pub use part_run::PartRunError;
// Pictures and puzzles, and how much a puzzle's clues leave open (issue 68).
pub use count_run::MethodError;
pub use input::{InputError, ReadOptions, input_name, read_input, read_labelled};
pub use per_cell::{PerCell, write_count_rows};
pub use picture::{CELL_PIXELS, MAX_IMAGE_SIDE, Picture, PictureError, cell_pixels, svg_image};
pub use results::{ColorCells, JsonLine, RunResult};
pub use seconds::{MAX_SECONDS, SecondsError, parse_seconds};
pub use split_folder::{
    Manifest, ManifestPart, ManifestSubtree, SplitError, SplitFolder, SplitOptions,
};
pub use uniqueness::Uniqueness;

/// Why a puzzle could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The text is not a puzzle.
    #[error("{path}: {source}")]
    Parse {
        /// The file (`-` for text given directly).
        path: String,
        /// What is wrong, and where.
        source: ParseError,
    },
    /// The file is larger than [`crate::format::MAX_INPUT_BYTES`].
    #[error("{path}: larger than {} MiB, the most nonoenum reads of one input", crate::format::MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: String,
    },
    /// The file holds several puzzles (a tournament file, say): read it with
    /// [`read_any_puzzles`].
    #[error("{path}: holds {count} puzzles, not one")]
    Several {
        /// The file.
        path: String,
        /// How many it holds.
        count: usize,
    },
}

/// The bytes of the puzzle file `path`, named `name` in errors, of at most
/// [`crate::format::MAX_INPUT_BYTES`].
fn read_puzzle_file(path: &Path, name: &str) -> Result<Vec<u8>, ReadError> {
    use crate::files::{Capped, read_file_capped};
    read_file_capped(path, crate::format::MAX_INPUT_BYTES).map_err(|e| match e {
        Capped::Io(source) => ReadError::Io {
            path: name.to_string(),
            source,
        },
        Capped::TooLarge => ReadError::TooLarge {
            path: name.to_string(),
        },
    })
}

impl AnyPuzzle {
    /// Reads the one puzzle of a file, in any format the readers know (told by the file's
    /// name and content), of at most [`crate::format::MAX_INPUT_BYTES`].
    pub fn read(path: impl AsRef<Path>) -> Result<AnyPuzzle, ReadError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = read_puzzle_file(path, &name)?;
        Self::one(read_any_puzzles(&bytes, None, Some(path)), name)
    }

    /// Parses the one puzzle of `text`, in any format the readers know.
    pub fn parse(text: &str) -> Result<AnyPuzzle, ReadError> {
        Self::one(read_any_puzzles(text.as_bytes(), None, None), "-".into())
    }

    /// Parses the one puzzle of `text`, in `format`.
    pub fn parse_as(text: &str, format: Format) -> Result<AnyPuzzle, ReadError> {
        Self::one(
            read_any_puzzles(text.as_bytes(), Some(format), None),
            "-".into(),
        )
    }

    fn one(read: Result<Vec<AnyPuzzle>, ParseError>, path: String) -> Result<AnyPuzzle, ReadError> {
        let mut puzzles = read.map_err(|source| ReadError::Parse {
            path: path.clone(),
            source,
        })?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0)),
            count => Err(ReadError::Several { path, count }),
        }
    }
}
