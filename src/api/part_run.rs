//! Running one part of a split folder in-process: read its puzzles (one per subtree), count
//! each exactly, and write the `result` objects where [`SplitFolder::merge`] reads them.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use thiserror::Error;

use super::ReadError;
use super::counter::CountFailure;
use super::results::{JsonLine, RunResult};
use super::split_folder::{RESULTS, SplitFolder};
use crate::color::AnyPuzzle;
use crate::files::{shown_path, write_atomically};
use crate::format::read_any_puzzles;
use crate::split::{clue_checksum, givens_checksum};

/// Why a part could not be run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PartRunError {
    /// The manifest has no part of this index.
    #[error("no part {index}: the split has {parts} parts")]
    NoPart {
        /// The index asked for, from 0.
        index: usize,
        /// The parts of the split.
        parts: usize,
    },
    /// The part file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A subtree could not be counted.
    #[error(transparent)]
    Count(#[from] CountFailure),
    /// The results could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The results file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
}

impl SplitFolder {
    /// The path of part `index` (from 0, in manifest order).
    pub fn part_path(&self, index: usize) -> Result<PathBuf, PartRunError> {
        Ok(self.dir.join(&self.part(index)?.file))
    }

    /// Where the results of part `index` go: `results/part-NNN.json`.
    pub fn result_path(&self, index: usize) -> Result<PathBuf, PartRunError> {
        Ok(self.result_path_of(&self.part(index)?.file))
    }

    /// The puzzles of part `index`: one per subtree, in manifest order.
    pub fn part_puzzles(&self, index: usize) -> Result<Vec<AnyPuzzle>, PartRunError> {
        let path = self.part_path(index)?;
        Ok(read_all(&path)?)
    }

    /// Counts each subtree of part `index` exactly, as `count` does, and returns a `result`
    /// object for each, in order ([`SplitFolder::write_results`] stores them).
    pub fn count_part(&self, index: usize) -> Result<Vec<RunResult>, PartRunError> {
        let puzzles = self.part_puzzles(index)?;
        let mut results = Vec::new();
        for (i, puzzle) in puzzles.iter().enumerate() {
            let start = Instant::now();
            let count = puzzle.count()?;
            let (clues, givens) = checksums(puzzle);
            results.push(RunResult {
                command: "count".into(),
                label: puzzle
                    .title()
                    .map_or_else(|| format!("puzzle {}", i + 1), str::to_string),
                puzzle: clues,
                givens,
                count,
                complete: true,
                stopped: None,
                seconds: start.elapsed().as_secs_f64(),
                per_cell: None,
                per_color: None,
            });
        }
        Ok(results)
    }

    /// Writes `results` as the results of part `index`, one JSON object a line (as `count
    /// --to jsonl` does), creating the `results` folder if needed.
    pub fn write_results(&self, index: usize, results: &[RunResult]) -> Result<(), PartRunError> {
        let path = self.result_path(index)?;
        let mut text = Vec::new();
        for result in results {
            serde_json::to_writer(&mut text, &JsonLine::Result(result.clone()))
                .map_err(io::Error::from)
                .map_err(|source| write_error(&path, source))?;
            text.push(b'\n');
        }
        std::fs::create_dir_all(self.dir.join(RESULTS))
            .and_then(|()| write_atomically(&path, &text))
            .map_err(|source| write_error(&path, source))
    }

    /// Part `index` of the manifest.
    fn part(&self, index: usize) -> Result<&super::split_folder::ManifestPart, PartRunError> {
        let parts = self.manifest.parts.len();
        self.manifest
            .parts
            .get(index)
            .ok_or(PartRunError::NoPart { index, parts })
    }
}

fn write_error(path: &Path, source: io::Error) -> PartRunError {
    PartRunError::Write {
        path: shown_path(path),
        source,
    }
}

/// The clue and givens checksums of a puzzle of either palette.
pub(crate) fn checksums(puzzle: &AnyPuzzle) -> (String, String) {
    match puzzle {
        AnyPuzzle::Bw(p) => (clue_checksum(p), givens_checksum(p)),
        AnyPuzzle::Color(p) => p.checksums(),
    }
}

/// Every puzzle of the file at `path` (of at most [`crate::format::MAX_INPUT_BYTES`]).
fn read_all(path: &Path) -> Result<Vec<AnyPuzzle>, ReadError> {
    let name = shown_path(path);
    let bytes = super::read_puzzle_file(path, &name)?;
    read_any_puzzles(&bytes, None, Some(path)).map_err(|source| ReadError::Parse {
        path: name.clone(),
        source,
    })
}
