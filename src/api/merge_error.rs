//! Why a split folder could not be merged: the manifest's problems ([`MergeError`]) and each
//! part's ([`PartError`]), with messages that name the file and what is wrong.

use std::io;

use thiserror::Error;

use super::split_folder::MANIFEST_FORMAT;
use crate::count::BigUint;
use crate::files::Capped;
use crate::format::MAX_INPUT_BYTES;

/// Why a split folder could not be merged (or opened).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MergeError {
    /// The manifest could not be read, or is too large.
    #[error(transparent)]
    Manifest(FileError),
    /// The manifest is not one.
    #[error("{path}: not a nonoenum split manifest")]
    NotManifest {
        /// The manifest.
        path: String,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// The manifest is of a format this version does not read.
    #[error("{path}: format `{format}`, expected `{MANIFEST_FORMAT}`")]
    Format {
        /// The manifest.
        path: String,
        /// Its format.
        format: String,
    },
    /// The manifest lists no parts.
    #[error("{path}: the manifest lists no parts")]
    NoParts {
        /// The manifest.
        path: String,
    },
    /// The manifest lists a part twice.
    #[error("{path}: the manifest lists {file} twice")]
    Twice {
        /// The manifest.
        path: String,
        /// The part's file.
        file: String,
    },
    /// The manifest's parts differ from those the split listed (its parts checksum).
    #[error(
        "{path}: the parts listed do not match the manifest's checksum (a part removed, added or edited)"
    )]
    PartsEdited {
        /// The manifest.
        path: String,
    },
    /// A part is not a file of the split folder (`../x`, `/x`, `a/b`).
    #[error("{path}: part `{file}` is not a file name in the split folder")]
    Outside {
        /// The manifest.
        path: String,
        /// The part's file.
        file: String,
    },
    /// Some parts have no usable result: nothing was merged.
    #[error("{}", parts_message(.folder, .problems, *.parts))]
    Parts {
        /// The split folder.
        folder: String,
        /// The parts in the manifest.
        parts: usize,
        /// What is wrong with each part that has no usable result, in manifest order.
        problems: Vec<PartProblem>,
    },
    /// A part's result could not be read again for its solutions.
    #[error(transparent)]
    Part(#[from] PartError),
    /// Handing a solution over failed.
    #[error(transparent)]
    Output(#[from] io::Error),
}

/// Why a file of a split folder (its manifest, a part's result) could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError {
    /// The system could not read it.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// It is larger than [`MAX_INPUT_BYTES`].
    #[error("{path}: larger than {} MiB, the most nonoenum reads of one input", MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: String,
    },
}

impl FileError {
    /// The error of a capped read of `path`.
    pub(crate) fn capped(path: &str, error: Capped) -> Self {
        let path = path.to_string();
        match error {
            Capped::Io(source) => FileError::Read { path, source },
            Capped::TooLarge => FileError::TooLarge { path },
        }
    }
}

/// A part without a usable result, and why.
#[derive(Debug)]
pub struct PartProblem {
    /// The part's file, as the manifest names it.
    pub file: String,
    /// What is wrong.
    pub error: PartError,
}

/// Why a part's result is not usable.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PartError {
    /// The manifest names the part by more than a plain file name.
    #[error("not a plain file name in the manifest")]
    NotPlainName,
    /// The result file is missing (or cannot be opened).
    #[error("no result ({path})")]
    NoResult {
        /// The result file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// The result file could not be read, or is a JSON document too large.
    #[error(transparent)]
    File(FileError),
    /// A JSON document that is not UTF-8.
    #[error("{path}: not UTF-8 text")]
    NotUtf8 {
        /// The result file.
        path: String,
        /// Where it is not.
        source: std::string::FromUtf8Error,
    },
    /// A JSON document (an array) that does not hold results.
    #[error("{path}:{line}: not a nonoenum JSON document")]
    NotJsonDocument {
        /// The result file.
        path: String,
        /// The line, from 1.
        line: usize,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// A JSON line that is not a result or a solution.
    #[error("{path}:{line}: not a nonoenum JSON line")]
    NotJsonLine {
        /// The result file.
        path: String,
        /// The line, from 1.
        line: usize,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// A line of a compact listing that cannot be read.
    #[error("{path}:{line}: {problem}")]
    Listing {
        /// The result file.
        path: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// A compact listing of grids of another size.
    #[error("a listing of {rows}x{cols} grids, but the puzzle is {puzzle_rows}x{puzzle_cols}")]
    Size {
        /// Rows of the listing's grids.
        rows: usize,
        /// Their columns.
        cols: usize,
        /// Rows of the puzzle.
        puzzle_rows: usize,
        /// Its columns.
        puzzle_cols: usize,
    },
    /// A compact listing of another puzzle.
    #[error("listing of another puzzle ({found}, expected {expected})")]
    ListingOfAnotherPuzzle {
        /// The listing's clue checksum.
        found: String,
        /// The manifest's.
        expected: String,
    },
    /// A compact listing of another part.
    #[error("listing of another part (givens {givens})")]
    ListingOfAnotherPart {
        /// The listing's givens checksum.
        givens: String,
    },
    /// No `result` object: the run did not finish.
    #[error("no result line (the run did not finish)")]
    NoResultLine,
    /// A result of another puzzle.
    #[error("result of another puzzle ({found}, expected {expected})")]
    AnotherPuzzle {
        /// The result's clue checksum.
        found: String,
        /// The manifest's.
        expected: String,
    },
    /// A result of another part of the puzzle.
    #[error("result of another part (givens {givens})")]
    AnotherPart {
        /// The result's givens checksum.
        givens: String,
    },
    /// A result of another command (`solve`, or `count` where a listing is merged).
    #[error("result of `{found}`, but merging `{merging}` results")]
    Command {
        /// The result's command.
        found: String,
        /// The merge's ([`MergeCommand::name`](crate::MergeCommand::name)).
        merging: &'static str,
    },
    /// A result of a search that was stopped.
    #[error("incomplete result (the search was stopped)")]
    Incomplete,
    /// Not one result per subtree of the part.
    #[error(
        "{lines} result lines for {subtrees} subtrees ({} than the part's puzzles; the run did \
         not finish, or ran another file)",
        if lines > subtrees { "more" } else { "fewer" }
    )]
    Lines {
        /// The results.
        lines: usize,
        /// The part's subtrees.
        subtrees: usize,
    },
    /// A listing whose solutions are not as many as its results count.
    #[error("{solutions} solution lines but a count of {count}")]
    Solutions {
        /// The solutions listed.
        solutions: u128,
        /// The count of the results.
        count: BigUint,
    },
}

/// At most this many parts' problems are named in [`MergeError::Parts`].
const SHOWN: usize = 5;

/// [`MergeError::Parts`] on one line: the first few problems, each with its causes.
fn parts_message(folder: &str, problems: &[PartProblem], parts: usize) -> String {
    let named: Vec<String> = problems
        .iter()
        .take(SHOWN)
        .map(|p| format!("{}: {}", p.file, with_causes(&p.error)))
        .collect();
    let more = match problems.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!("; and {n} more"),
    };
    format!(
        "{folder}: {} of {parts} parts have no usable result, nothing merged: {}{more}",
        problems.len(),
        named.join("; ")
    )
}

/// An error and its causes, joined by `: `.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text += &format!(": {e}");
        cause = e.source();
    }
    text
}
