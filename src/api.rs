//! The library's entry point for both palettes: read a puzzle, then count, list or decide it.
//!
//! [`AnyPuzzle`] is a black-and-white or colour puzzle as the readers return it. Its methods
//! pick the engine's instance for the palette, build the thread pool with the stack the search
//! needs, and (for [`AnyPuzzle::count`]) choose how to count: the exact counter where it
//! applies, enumeration where it does not. The `nonoenum` command is built on the same calls.
//!
//! ```
//! use nonoenum::{AnyPuzzle, Verdict};
//!
//! // Two 1-blocks in a 2x2 grid: the two diagonals.
//! let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?;
//! assert_eq!(puzzle.count()?, 2u32.into());
//! assert!(matches!(puzzle.solve()?, Verdict::Multiple(..)));
//! let first = puzzle.solutions().next().expect("a solution");
//! assert_eq!(first.rows(), vec!["#.", ".#"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::Receiver;
use num_bigint::BigUint;
use thiserror::Error;

use crate::color::{AnyPuzzle, ColorGrid};
use crate::count::{CountError, CountLimits, CountProgress, count_exact};
use crate::domain::DomainGrid;
use crate::flow::Flow;
use crate::format::{Format, ParseError, read_any_puzzles};
use crate::grid::{Cell, Grid};
use crate::search::{Searchable, SolveError, Solver, SolverOptions, stack_size};

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
    /// The thread pool could not be built.
    #[error("cannot start the counting threads: {0}")]
    Threads(String),
}

/// One solution: a palette index per cell (in black and white, 1 is filled, 0 empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    width: usize,
    cells: Vec<u8>,
    /// The character of each palette index, for [`Solution::rows`].
    chars: Arc<[char]>,
}

impl Solution {
    /// The palette index of every cell, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The palette index of cell (`row`, `col`).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.width + col]
    }

    /// The rows drawn with one character per cell: `#` and `.` in black and white, the
    /// palette's characters in colour.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width.max(1))
            .map(|row| {
                row.iter()
                    .map(|&c| self.chars.get(usize::from(c)).copied().unwrap_or('?'))
                    .collect()
            })
            .collect()
    }
}

/// What [`AnyPuzzle::solve`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No grid satisfies the clues.
    None,
    /// Exactly one does.
    Unique(Solution),
    /// Two or more do: the first two found.
    Multiple(Solution, Solution),
}

/// The solutions of a puzzle, as the search finds them (see [`AnyPuzzle::solutions`]).
/// Dropping the iterator stops the search.
#[derive(Debug)]
pub struct Solutions {
    receiver: Option<Receiver<Solution>>,
    cancel: Arc<AtomicBool>,
    search: Option<JoinHandle<Result<(), SolveError>>>,
    error: Option<SolveError>,
}

impl Solutions {
    /// Why the search failed, once the iterator has ended (`None` if it ran to the end).
    pub fn error(&mut self) -> Option<&SolveError> {
        self.finish();
        self.error.as_ref()
    }

    fn finish(&mut self) {
        if let Some(search) = self.search.take() {
            self.receiver = None;
            match search.join() {
                Ok(Ok(())) => {}
                Ok(Err(error)) => self.error = Some(error),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }
}

impl Iterator for Solutions {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        let next = self.receiver.as_ref()?.recv().ok();
        if next.is_none() {
            self.finish();
        }
        next
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.receiver = None;
        if let Some(search) = self.search.take() {
            // A panic in the search was already reported on its thread.
            let _ = search.join();
        }
    }
}

/// A grid turned into a [`Solution`].
trait ToSolution {
    fn to_solution(&self, chars: &Arc<[char]>) -> Solution;
}

impl ToSolution for Grid {
    fn to_solution(&self, chars: &Arc<[char]>) -> Solution {
        let cells = (0..self.height())
            .flat_map(|r| (0..self.width()).map(move |c| (r, c)))
            .map(|(r, c)| u8::from(self.cell(r, c) == Cell::Filled))
            .collect();
        Solution {
            width: self.width(),
            cells,
            chars: Arc::clone(chars),
        }
    }
}

impl ToSolution for ColorGrid {
    fn to_solution(&self, chars: &Arc<[char]>) -> Solution {
        Solution {
            width: DomainGrid::width(self),
            cells: self.to_colors(),
            chars: Arc::clone(chars),
        }
    }
}

impl AnyPuzzle {
    /// Reads the one puzzle of a file, in any format the readers know (told by the file's
    /// name and content).
    pub fn read(path: impl AsRef<Path>) -> Result<AnyPuzzle, ReadError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
            path: name.clone(),
            source,
        })?;
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

    /// The character of each palette index: `.` and `#`, or the palette's own.
    fn chars(&self) -> Arc<[char]> {
        match self {
            AnyPuzzle::Bw(_) => Arc::from(['.', '#']),
            AnyPuzzle::Color(p) => p.colors.iter().map(|c| c.ch).collect(),
        }
    }

    /// The exact number of solutions, on every core. Black and white is counted without
    /// visiting the solutions where the exact counter applies (see [`crate::count`]); colour
    /// puzzles are enumerated.
    pub fn count(&self) -> Result<BigUint, CountFailure> {
        match self {
            AnyPuzzle::Bw(puzzle) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .stack_size(stack_size(puzzle))
                    .build()
                    .map_err(|e| CountFailure::Threads(e.to_string()))?;
                let (cancel, progress) = (AtomicBool::new(false), CountProgress::default());
                let limits = CountLimits::default();
                let counted = pool.install(|| count_exact(puzzle, limits, &cancel, &progress))?;
                Ok(counted.count)
            }
            AnyPuzzle::Color(puzzle) => {
                let outcome = Solver::new(puzzle, SolverOptions::default()).count()?;
                Ok(BigUint::from(outcome.solutions))
            }
        }
    }

    /// Decides the puzzle: no solution, a unique one, or several (the first two found).
    pub fn solve(&self) -> Result<Verdict, SolveError> {
        let mut found = self.first_solutions(2)?.into_iter();
        Ok(match (found.next(), found.next()) {
            (None, _) => Verdict::None,
            (Some(only), None) => Verdict::Unique(only),
            (Some(a), Some(b)) => Verdict::Multiple(a, b),
        })
    }

    /// Up to `limit` solutions, found on every core.
    pub fn first_solutions(&self, limit: u64) -> Result<Vec<Solution>, SolveError> {
        fn find<P: Searchable>(
            puzzle: &P,
            limit: u64,
            chars: &Arc<[char]>,
        ) -> Result<Vec<Solution>, SolveError>
        where
            P::Grid: ToSolution,
        {
            let (grids, _) = Solver::new(puzzle, SolverOptions::default()).find(limit)?;
            Ok(grids.iter().map(|g| g.to_solution(chars)).collect())
        }
        let chars = self.chars();
        match self {
            AnyPuzzle::Bw(p) => find(p, limit, &chars),
            AnyPuzzle::Color(p) => find(p, limit, &chars),
        }
    }

    /// Every solution, streamed as the search finds them on every core (in no set order).
    /// The search runs in the background while the iterator is alive; dropping the iterator
    /// stops it.
    pub fn solutions(&self) -> Solutions {
        fn spawn<P: Searchable + Clone + Send>(
            puzzle: &P,
            chars: Arc<[char]>,
            cancel: &Arc<AtomicBool>,
        ) -> (Receiver<Solution>, JoinHandle<Result<(), SolveError>>)
        where
            P::Grid: ToSolution,
        {
            let (sender, receiver) = crossbeam_channel::bounded(64);
            let puzzle = puzzle.clone();
            let cancel = Arc::clone(cancel);
            let search = std::thread::spawn(move || {
                let solver =
                    Solver::new(&puzzle, SolverOptions::default()).with_cancel_flag(cancel);
                solver.run(|grid| match sender.send(grid.to_solution(&chars)) {
                    Ok(()) => Flow::Continue,
                    Err(_) => Flow::Stop,
                })?;
                Ok(())
            });
            (receiver, search)
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let chars = self.chars();
        let (receiver, search) = match self {
            AnyPuzzle::Bw(p) => spawn(p, chars, &cancel),
            AnyPuzzle::Color(p) => spawn(p, chars, &cancel),
        };
        Solutions {
            receiver: Some(receiver),
            cancel,
            search: Some(search),
            error: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERM3: &str = "3 3\n1\n1\n1\n1\n1\n1\n";

    #[test]
    fn counting_listing_and_deciding_agree() {
        let puzzle = AnyPuzzle::parse(PERM3).expect("a puzzle");
        assert_eq!(puzzle.count().expect("counts"), BigUint::from(6u8));
        let mut all: Vec<Vec<String>> = puzzle.solutions().map(|s| s.rows()).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 6);
        assert!(
            all.iter()
                .all(|rows| rows.iter().all(|r| r.matches('#').count() == 1))
        );
        assert!(matches!(
            puzzle.solve().expect("decides"),
            Verdict::Multiple(..)
        ));
    }

    #[test]
    fn a_dropped_iterator_stops_the_search() {
        let text = format!("9 9\n{}", "1\n".repeat(18));
        let puzzle = AnyPuzzle::parse(&text).expect("a puzzle");
        let mut solutions = puzzle.solutions();
        assert!(solutions.next().is_some());
        drop(solutions);
    }

    #[test]
    fn colour_puzzles_are_decided_and_counted() {
        use crate::color::{Color, ColorPuzzle};
        let palette = vec![
            Color::new("white", [255, 255, 255], '.'),
            Color::new("red", [255, 0, 0], 'r'),
            Color::new("blue", [0, 0, 255], 'b'),
        ];
        let picture = ColorPuzzle::from_picture(palette, 2, 2, &[1, 2, 2, 1]).expect("valid");
        let puzzle = AnyPuzzle::Color(picture);
        let Verdict::Unique(only) = puzzle.solve().expect("decides") else {
            panic!("the picture is unique");
        };
        assert_eq!(only.rows(), vec!["rb", "br"]);
        assert_eq!(only.get(0, 1), 2);
        assert_eq!(puzzle.count().expect("counts"), BigUint::from(1u8));
    }

    #[test]
    fn a_missing_file_is_named() {
        let error = AnyPuzzle::read("no/such/file.txt").expect_err("missing file");
        assert!(
            error.to_string().starts_with("no/such/file.txt: "),
            "{error}"
        );
    }
}
