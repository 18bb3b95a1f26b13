//! Propagation: run the line solver on dirty lines until nothing changes.
//!
//! A line is dirty when one of its cells changed since it was last solved. Solving a line may
//! fix cells, which dirties the crossing lines; the loop ends when no line is dirty (a fixpoint:
//! every line agrees with what its clue forces) or a line has no placement left (the branch is
//! dead). Because every line is solved again after its last change, a complete grid at the
//! fixpoint satisfies every clue.

use std::collections::VecDeque;

use crate::grid::Grid;
use crate::line::{BitLineSolver, Contradiction, LineCache, LineSolver};
use crate::puzzle::{LineId, Puzzle};

/// Reusable state for propagation: the line solver's buffers and the queue of dirty lines.
/// One per thread.
#[derive(Debug, Default)]
pub struct Propagator {
    solver: BitLineSolver,
    queue: VecDeque<LineId>,
    row_queued: Vec<bool>,
    col_queued: Vec<bool>,
    out_filled: Vec<u64>,
    out_empty: Vec<u64>,
    /// The lines solved by the last propagation, as [`line_index`]es, each once.
    footprint: Vec<u32>,
    in_footprint: Vec<bool>,
    /// Line-solver calls made so far (including those the cache answered).
    pub line_solves: u64,
    /// Results of one-word lines, with the address of the puzzle they belong to.
    cache: Option<(Box<LineCache>, usize)>,
}

impl Propagator {
    /// A propagator with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// A propagator that caches line-solver results for lines of up to 64 cells (see
    /// [`LineCache`]). The cache is cleared whenever the propagator is handed a puzzle at
    /// another address, so a puzzle must not be changed, or replaced at the same address,
    /// while such a propagator serves it. Crate-private for that reason: only the search's
    /// per-thread propagators use it, on threads that serve one search, and the exact
    /// counters, which own their propagators for one count (`count::propagators`; a
    /// thread-local one outlived its puzzle in the global pool, and a new puzzle at the same
    /// address met a stale cache).
    pub(crate) fn with_line_cache() -> Self {
        Propagator {
            cache: Some((Box::default(), 0)),
            ..Self::default()
        }
    }

    /// Lookups in the line cache and how many it answered.
    pub fn cache_counts(&self) -> (u64, u64) {
        self.cache
            .as_ref()
            .map_or((0, 0), |(cache, _)| (cache.lookups, cache.hits))
    }

    /// Makes the cache serve `puzzle`, clearing it if it served another.
    fn claim_cache(&mut self, puzzle: &Puzzle) {
        if let Some((cache, owner)) = &mut self.cache {
            let address = std::ptr::from_ref(puzzle) as usize;
            if *owner != address {
                let longest = puzzle.height().max(puzzle.width());
                cache.configure(puzzle.height() + puzzle.width(), longest);
                *owner = address;
            }
        }
    }

    fn reset(&mut self, grid: &Grid) {
        self.queue.clear();
        self.row_queued.clear();
        self.row_queued.resize(grid.height(), false);
        self.col_queued.clear();
        self.col_queued.resize(grid.width(), false);
        for &line in &self.footprint {
            self.in_footprint[line as usize] = false;
        }
        self.footprint.clear();
        self.in_footprint
            .resize(grid.height() + grid.width(), false);
    }

    /// The lines that the last propagation solved (read, and perhaps changed), as
    /// [`line_index`]es, each once. The propagation's outcome depends on these lines only: run
    /// again on a grid where they are the same, it does the same.
    pub fn footprint(&self) -> &[u32] {
        &self.footprint
    }

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

    /// Propagates from scratch: every line is dirty.
    pub fn propagate_all(&mut self, puzzle: &Puzzle, grid: &mut Grid) -> Result<(), Contradiction> {
        self.claim_cache(puzzle);
        self.reset(grid);
        for r in 0..grid.height() {
            self.push(LineId::Row(r));
        }
        for c in 0..grid.width() {
            self.push(LineId::Col(c));
        }
        self.run(puzzle, grid)
    }

    /// Propagates after cell (`row`, `col`) changed: its row and column are dirty.
    pub fn propagate_cell(
        &mut self,
        puzzle: &Puzzle,
        grid: &mut Grid,
        row: usize,
        col: usize,
    ) -> Result<(), Contradiction> {
        self.claim_cache(puzzle);
        self.reset(grid);
        self.push(LineId::Row(row));
        self.push(LineId::Col(col));
        self.run(puzzle, grid)
    }

    /// Propagates after several cells changed: their rows and columns are dirty.
    pub fn propagate_cells(
        &mut self,
        puzzle: &Puzzle,
        grid: &mut Grid,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<(), Contradiction> {
        self.claim_cache(puzzle);
        self.reset(grid);
        for (row, col) in cells {
            self.push(LineId::Row(row));
            self.push(LineId::Col(col));
        }
        self.run(puzzle, grid)
    }

    fn run(&mut self, puzzle: &Puzzle, grid: &mut Grid) -> Result<(), Contradiction> {
        while let Some(line) = self.queue.pop_front() {
            match line {
                LineId::Row(r) => self.row_queued[r] = false,
                LineId::Col(c) => self.col_queued[c] = false,
            }
            let index = line_index(grid, line);
            if !self.in_footprint[index as usize] {
                self.in_footprint[index as usize] = true;
                self.footprint.push(index);
            }
            if let Err(contradiction) = self.solve_line(puzzle, grid, line) {
                self.queue.clear();
                return Err(contradiction);
            }
        }
        Ok(())
    }

    /// Solves one line and writes what it fixed into the grid, queueing the crossing lines.
    fn solve_line(
        &mut self,
        puzzle: &Puzzle,
        grid: &mut Grid,
        line: LineId,
    ) -> Result<(), Contradiction> {
        self.line_solves += 1;
        let len = grid.line_len(line);
        let (filled, empty) = grid.line(line);
        let words = filled.len();
        self.out_filled.resize(words, 0);
        self.out_empty.resize(words, 0);
        let (solver, out_filled, out_empty) =
            (&mut self.solver, &mut self.out_filled, &mut self.out_empty);
        let mut solve = || {
            let clue = puzzle.clue(line).blocks();
            solver.solve(clue, len, filled, empty, out_filled, out_empty)
        };
        match &mut self.cache {
            Some((cache, _)) if words == 1 => {
                let index = line_index(grid, line);
                let (f, e) = (filled[0], empty[0]);
                let result = match cache.get(index, f, e) {
                    Some(result) => result,
                    None => {
                        let result = solve().map(|()| (self.out_filled[0], self.out_empty[0]));
                        cache.put(index, f, e, result);
                        result
                    }
                };
                (self.out_filled[0], self.out_empty[0]) = result?;
            }
            _ => solve()?,
        }
        for w in 0..words {
            let (filled, empty) = grid.line(line);
            let new_filled = self.out_filled[w] & !filled[w];
            let new_empty = self.out_empty[w] & !empty[w];
            self.apply(grid, line, w, new_filled, true);
            self.apply(grid, line, w, new_empty, false);
        }
        Ok(())
    }

    fn apply(&mut self, grid: &mut Grid, line: LineId, word: usize, mut bits: u64, filled: bool) {
        while bits != 0 {
            let i = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match line {
                LineId::Row(r) => {
                    grid.set_unknown(r, i, filled);
                    self.push(LineId::Col(i));
                }
                LineId::Col(c) => {
                    grid.set_unknown(i, c, filled);
                    self.push(LineId::Row(i));
                }
            }
        }
    }
}

/// A line as one number: rows are `0..height`, columns follow.
pub fn line_index(grid: &Grid, line: LineId) -> u32 {
    match line {
        LineId::Row(r) => r as u32,
        LineId::Col(c) => (grid.height() + c) as u32,
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;
    use crate::grid::Cell;

    /// A cell guess: row, column, value.
    type Guess = (usize, usize, bool);

    /// A random picture (its clues make the puzzle) and a sequence of cell guesses.
    fn case() -> impl Strategy<Value = (usize, usize, Vec<bool>, Vec<Guess>)> {
        // Up to 40 columns, so that both layouts of the cache (lines up to 32 cells and up
        // to 64) are exercised.
        (1usize..10, 1usize..40).prop_flat_map(|(rows, cols)| {
            (
                Just(rows),
                Just(cols),
                vec(prop::bool::weighted(0.55), rows * cols),
                vec((0..rows, 0..cols, any::<bool>()), 1..25),
            )
        })
    }

    proptest! {
        /// Probing-like use: both values of guessed cells are propagated from the same grid,
        /// so line states recur and the cache answers; its answers must be the solver's.
        #[test]
        fn the_line_cache_changes_no_result((rows, cols, picture, guesses) in case()) {
            let puzzle = Puzzle::from_picture(rows, cols, &picture).expect("valid picture");
            let mut cached = Propagator::with_line_cache();
            let mut plain = Propagator::new();
            let mut grid = Grid::new(rows, cols);
            let mut same = grid.clone();
            prop_assert!(cached.propagate_all(&puzzle, &mut grid).is_ok());
            prop_assert!(plain.propagate_all(&puzzle, &mut same).is_ok());
            prop_assert_eq!(&grid, &same);
            for (row, col, value) in guesses {
                if grid.cell(row, col) != Cell::Unknown {
                    continue;
                }
                for filled in [value, !value, value] {
                    let (mut a, mut b) = (grid.clone(), grid.clone());
                    a.set_unknown(row, col, filled);
                    b.set_unknown(row, col, filled);
                    let with_cache = cached.propagate_cell(&puzzle, &mut a, row, col);
                    let without = plain.propagate_cell(&puzzle, &mut b, row, col);
                    prop_assert_eq!(with_cache.is_ok(), without.is_ok());
                    if with_cache.is_ok() {
                        prop_assert_eq!(&a, &b);
                    }
                }
                // Go on from the picture's own value, which never contradicts.
                let filled = picture[row * cols + col];
                grid.set_unknown(row, col, filled);
                prop_assert!(cached.propagate_cell(&puzzle, &mut grid, row, col).is_ok());
            }
            let (lookups, hits) = cached.cache_counts();
            prop_assert!(hits <= lookups);
        }
    }
}
