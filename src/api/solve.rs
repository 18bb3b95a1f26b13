//! Deciding a puzzle and listing its solutions: [`Verdict`], [`Solution`] and the streaming
//! [`Solutions`], all on [`AnySolver`](super::AnySolver).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::Receiver;

use super::solver::AnyGrid;
use crate::color::AnyPuzzle;
use crate::flow::Flow;
use crate::search::{Engine, SolveError, SolverOptions};

/// One solution: a palette index per cell (in black and white, 1 is filled, 0 empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    width: usize,
    cells: Vec<u8>,
    /// The character of each palette index, for [`Solution::rows`].
    chars: Arc<[char]>,
}

impl Solution {
    /// `grid` as a solution, `chars` drawing its palette indices.
    fn new(grid: AnyGrid<'_>, chars: &Arc<[char]>) -> Self {
        Solution {
            width: grid.width(),
            cells: grid.to_cells(),
            chars: Arc::clone(chars),
        }
    }

    /// A solution of `width` columns with these cells (palette indices, row-major), drawn
    /// with `chars`.
    pub(crate) fn from_cells(width: usize, cells: Vec<u8>, chars: Arc<[char]>) -> Self {
        Solution {
            width,
            cells,
            chars,
        }
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

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
                Err(panic) => {
                    let message = crate::fault::panic_message(&*panic);
                    self.error = Some(SolveError::Internal(message));
                }
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

impl AnyPuzzle {
    /// The character of each palette index: `.` and `#`, or the palette's own.
    fn chars(&self) -> Arc<[char]> {
        match self {
            AnyPuzzle::Bw(_) => Arc::from(['.', '#']),
            AnyPuzzle::Color(p) => p.colors.iter().map(|c| c.ch).collect(),
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

    /// Up to `limit` solutions, found on every core by the search `solve` would run
    /// ([`Engine::for_run`]: on two cores or more, the learning and the probing searches race
    /// for up to [`RACE_LIMIT`](super::RACE_LIMIT) solutions).
    pub fn first_solutions(&self, limit: u64) -> Result<Vec<Solution>, SolveError> {
        let mut found = Vec::new();
        if limit == 0 {
            return Ok(found);
        }
        let chars = self.chars();
        let options = SolverOptions {
            engine: Engine::for_run(0, Some(limit), false),
            ..SolverOptions::default()
        };
        self.solver(options)
            .with_solution_limit(limit)
            .run(|grid| {
                found.push(Solution::new(grid, &chars));
                if found.len() as u64 >= limit {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            })?;
        Ok(found)
    }

    /// Every solution, streamed as the search finds them on every core (in no set order).
    /// The search runs in the background while the iterator is alive; dropping the iterator
    /// stops it.
    pub fn solutions(&self) -> Solutions {
        let (sender, receiver) = crossbeam_channel::bounded(64);
        let cancel = Arc::new(AtomicBool::new(false));
        let puzzle = self.clone();
        let flag = Arc::clone(&cancel);
        let search = std::thread::spawn(move || {
            let chars = puzzle.chars();
            let solver = puzzle
                .solver(SolverOptions::default())
                .with_cancel_flag(flag);
            solver.run(|grid| match sender.send(Solution::new(grid, &chars)) {
                Ok(()) => Flow::Continue,
                Err(_) => Flow::Stop,
            })?;
            Ok(())
        });
        Solutions {
            receiver: Some(receiver),
            cancel,
            search: Some(search),
            error: None,
        }
    }
}
