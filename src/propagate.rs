//! Propagation: run the line solver on dirty lines until nothing changes.
//!
//! A line is dirty when one of its cells changed since it was last solved. Solving a line may
//! fix cells, which dirties the crossing lines; the loop ends when no line is dirty (a fixpoint:
//! every line agrees with what its clue forces) or a line has no placement left (the branch is
//! dead). Because every line is solved again after its last change, a complete grid at the
//! fixpoint satisfies every clue.

use std::collections::VecDeque;

use crate::domain::Domain;
pub(crate) use crate::domain::line_index;
use crate::line::Contradiction;
use crate::puzzle::{LineId, Puzzle};

/// Reusable state for propagation over puzzles of domain `P`: the line solver's buffers and
/// the queue of dirty lines. One per thread. [`Propagator`] (black and white) is the default.
#[derive(Debug)]
pub(crate) struct Propagator<P: Domain = Puzzle> {
    lines: P::Lines,
    dirty: DirtyLines,
    /// The lines solved by the last propagation, as [`line_index`]es, each once.
    footprint: Vec<u32>,
    in_footprint: Vec<bool>,
    /// Line-solver calls made so far (including those the cache answered).
    pub line_solves: u64,
    /// The address of the puzzle the line cache serves (0: none yet).
    cache_owner: usize,
}

/// The queue of lines to solve, each at most once.
#[derive(Debug, Default)]
struct DirtyLines {
    queue: VecDeque<LineId>,
    row_queued: Vec<bool>,
    col_queued: Vec<bool>,
}

impl DirtyLines {
    #[inline]
    fn push(&mut self, line: LineId) {
        let queued = match line {
            LineId::Row(r) => &mut self.row_queued[r],
            LineId::Col(c) => &mut self.col_queued[c],
        };
        if !*queued {
            *queued = true;
            self.queue.push_back(line);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<LineId> {
        let line = self.queue.pop_front()?;
        match line {
            LineId::Row(r) => self.row_queued[r] = false,
            LineId::Col(c) => self.col_queued[c] = false,
        }
        Some(line)
    }
}

/// Lines solved between two questions to the stop flag of [`Propagator::propagate_all_until`]:
/// a line of 4,096 cells takes tens of microseconds.
const LINES_BETWEEN_STOP_CHECKS: u32 = 16;

impl<P: Domain> Default for Propagator<P> {
    fn default() -> Self {
        Propagator {
            lines: P::Lines::default(),
            dirty: DirtyLines::default(),
            footprint: Vec::new(),
            in_footprint: Vec::new(),
            line_solves: 0,
            cache_owner: 0,
        }
    }
}

impl<P: Domain> Propagator<P> {
    /// A propagator with empty buffers.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// A propagator that caches line-solver results (see [`crate::line::LineCache`] and
    /// [`crate::color::cache`]). The cache is cleared whenever the propagator is handed a
    /// puzzle at another address, so a puzzle must not be changed, or replaced at the same
    /// address, while such a propagator serves it. Crate-private for that reason: only the
    /// search's per-thread propagators use it, on threads that serve one search, and the exact
    /// counters, which own their propagators for one count (`count::propagators`; a
    /// thread-local one outlived its puzzle in the global pool, and a new puzzle at the same
    /// address met a stale cache).
    pub(crate) fn with_line_cache() -> Self {
        Propagator {
            lines: P::lines_with_cache(),
            ..Self::default()
        }
    }

    /// Lookups in the line cache and how many it answered.
    pub(crate) fn cache_counts(&self) -> (u64, u64) {
        P::cache_counts(&self.lines)
    }

    /// Makes the cache serve `puzzle`, clearing it if it served another.
    fn claim_cache(&mut self, puzzle: &P) {
        let address = std::ptr::from_ref(puzzle) as usize;
        if self.cache_owner != address {
            puzzle.configure_cache(&mut self.lines);
            self.cache_owner = address;
        }
    }

    fn reset(&mut self, puzzle: &P) {
        let (height, width) = puzzle.size();
        self.claim_cache(puzzle);
        let dirty = &mut self.dirty;
        dirty.queue.clear();
        dirty.row_queued.clear();
        dirty.row_queued.resize(height, false);
        dirty.col_queued.clear();
        dirty.col_queued.resize(width, false);
        for &line in &self.footprint {
            self.in_footprint[line as usize] = false;
        }
        self.footprint.clear();
        self.in_footprint.resize(height + width, false);
    }

    /// The lines that the last propagation solved (read, and perhaps changed), as
    /// [`line_index`]es, each once. The propagation's outcome depends on these lines only: run
    /// again on a grid where they are the same, it does the same.
    pub(crate) fn footprint(&self) -> &[u32] {
        &self.footprint
    }

    /// Propagates from scratch: every line is dirty.
    pub(crate) fn propagate_all(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
    ) -> Result<(), Contradiction> {
        self.mark_all(puzzle);
        self.run(puzzle, grid)
    }

    /// [`Propagator::propagate_all`] that asks `stopped` every few lines, and returns `None`
    /// when it says so (the grid then holds what the lines fixed so far, all of it sound).
    pub(crate) fn propagate_all_until(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Result<(), Contradiction>> {
        self.mark_all(puzzle);
        self.run_until(puzzle, grid, stopped)
    }

    /// Propagates after cell (`row`, `col`) changed: its row and column are dirty.
    pub(crate) fn propagate_cell(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
        row: usize,
        col: usize,
    ) -> Result<(), Contradiction> {
        self.propagate_cells(puzzle, grid, [(row, col)])
    }

    /// [`Propagator::propagate_cell`] that asks `stopped` every few lines, and returns `None`
    /// when it says so.
    pub(crate) fn propagate_cell_until(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
        cell: (usize, usize),
        stopped: &dyn Fn() -> bool,
    ) -> Option<Result<(), Contradiction>> {
        self.mark_cells(puzzle, [cell]);
        self.run_until(puzzle, grid, stopped)
    }

    /// Propagates after several cells changed: their rows and columns are dirty.
    pub(crate) fn propagate_cells(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<(), Contradiction> {
        self.mark_cells(puzzle, cells);
        self.run(puzzle, grid)
    }

    /// A fresh start with every line dirty.
    fn mark_all(&mut self, puzzle: &P) {
        self.reset(puzzle);
        for r in 0..puzzle.size().0 {
            self.dirty.push(LineId::Row(r));
        }
        for c in 0..puzzle.size().1 {
            self.dirty.push(LineId::Col(c));
        }
    }

    /// A fresh start with the rows and columns of `cells` dirty.
    fn mark_cells(&mut self, puzzle: &P, cells: impl IntoIterator<Item = (usize, usize)>) {
        self.reset(puzzle);
        for (row, col) in cells {
            self.dirty.push(LineId::Row(row));
            self.dirty.push(LineId::Col(col));
        }
    }

    fn run(&mut self, puzzle: &P, grid: &mut P::Grid) -> Result<(), Contradiction> {
        self.run_until(puzzle, grid, &|| false).unwrap_or(Ok(()))
    }

    /// Solves the dirty lines until none is left, asking `stopped` every
    /// [`LINES_BETWEEN_STOP_CHECKS`] lines; `None` when it said so.
    fn run_until(
        &mut self,
        puzzle: &P,
        grid: &mut P::Grid,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Result<(), Contradiction>> {
        let height = puzzle.size().0;
        let mut until_check = LINES_BETWEEN_STOP_CHECKS;
        while let Some(line) = self.dirty.pop() {
            until_check -= 1;
            if until_check == 0 {
                until_check = LINES_BETWEEN_STOP_CHECKS;
                if stopped() {
                    self.dirty.queue.clear();
                    return None;
                }
            }
            let index = line_index(height, line);
            if !self.in_footprint[index as usize] {
                self.in_footprint[index as usize] = true;
                self.footprint.push(index);
            }
            self.line_solves += 1;
            let dirty = &mut self.dirty;
            let solved = puzzle.solve_line(&mut self.lines, grid, line, index, |i| match line {
                LineId::Row(_) => dirty.push(LineId::Col(i)),
                LineId::Col(_) => dirty.push(LineId::Row(i)),
            });
            if let Err(contradiction) = solved {
                self.dirty.queue.clear();
                return Some(Err(contradiction));
            }
        }
        Some(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;
    use crate::color::{Color, ColorPuzzle};
    use crate::domain::DomainGrid;

    /// A cell guess: row, column, value (a palette index; in black and white 1 is filled).
    type Guess = (usize, usize, u8);

    /// Probing-like use: several values of guessed cells are propagated from the same grid,
    /// so line states recur and the cache answers; its answers must be the solver's.
    /// `picture` holds each cell's value, of `values` values in all.
    fn check_cache<P: Domain>(
        puzzle: &P,
        values: u8,
        picture: &[u8],
        guesses: &[Guess],
    ) -> Result<(), TestCaseError> {
        let cols = puzzle.size().1;
        let mut cached = Propagator::<P>::with_line_cache();
        let mut plain = Propagator::<P>::new();
        let mut grid = puzzle.blank_grid();
        let mut same = grid.clone();
        prop_assert!(cached.propagate_all(puzzle, &mut grid).is_ok());
        prop_assert!(plain.propagate_all(puzzle, &mut same).is_ok());
        prop_assert_eq!(&grid, &same);
        for &(row, col, guess) in guesses {
            if grid.values(row, col).count_ones() < 2 {
                continue;
            }
            for value in [guess, (guess + 1) % values, guess] {
                let (mut a, mut b) = (grid.clone(), grid.clone());
                let narrowed = a.restrict(row, col, 1 << value).is_ok();
                prop_assert_eq!(narrowed, b.restrict(row, col, 1 << value).is_ok());
                if !narrowed {
                    continue;
                }
                let with_cache = cached.propagate_cell(puzzle, &mut a, row, col);
                let without = plain.propagate_cell(puzzle, &mut b, row, col);
                prop_assert_eq!(with_cache.is_ok(), without.is_ok());
                if with_cache.is_ok() {
                    prop_assert_eq!(&a, &b);
                }
            }
            // Go on from the picture's own value, which never contradicts.
            let own = picture[row * cols + col];
            prop_assert!(grid.restrict(row, col, 1 << own).is_ok());
            prop_assert!(cached.propagate_cell(puzzle, &mut grid, row, col).is_ok());
        }
        let (lookups, hits) = cached.cache_counts();
        prop_assert!(hits <= lookups);
        Ok(())
    }

    /// A random picture of `values` values (up to `max_rows` x `max_cols`) and cell guesses.
    fn case(
        values: std::ops::Range<u8>,
        max_rows: usize,
        max_cols: usize,
    ) -> impl Strategy<Value = (u8, usize, usize, Vec<u8>, Vec<Guess>)> {
        (values, 1..max_rows, 1..max_cols).prop_flat_map(|(values, rows, cols)| {
            (
                Just(values),
                Just(rows),
                Just(cols),
                vec(0..values, rows * cols),
                vec((0..rows, 0..cols, 0..values), 1..25),
            )
        })
    }

    fn palette(colors: u8) -> Vec<Color> {
        (0..colors)
            .map(|i| Color::new(format!("c{i}"), [i, i, i], char::from(b'a' + i)))
            .collect()
    }

    proptest! {
        /// Black and white, up to 40 columns, so that both layouts of the cache (lines up to
        /// 32 cells and up to 64) are exercised.
        #[test]
        fn the_line_cache_changes_no_result(
            (values, rows, cols, picture, guesses) in case(2..3, 10, 40)
        ) {
            let filled: Vec<bool> = picture.iter().map(|&v| v == 1).collect();
            let puzzle = Puzzle::from_picture(rows, cols, &filled).expect("valid picture");
            check_cache(&puzzle, values, &picture, &guesses)?;
        }

        /// Colour: 2 to 5 colours, background included.
        #[test]
        fn the_colour_line_cache_changes_no_result(
            (values, rows, cols, picture, guesses) in case(2..6, 8, 12)
        ) {
            let puzzle = ColorPuzzle::from_picture(palette(values), rows, cols, &picture)
                .expect("valid picture");
            check_cache(&puzzle, values, &picture, &guesses)?;
        }
    }
}
