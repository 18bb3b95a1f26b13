//! Colour propagation: run the colour line solver on dirty lines until nothing changes.
//!
//! The same fixpoint loop as the black-and-white [`crate::propagate`]: narrowing a cell dirties
//! its crossing line; the loop ends when no line is dirty, or a line has no placement left.

use std::collections::VecDeque;

use super::cache::ColorLineCache;
use super::grid::ColorGrid;
use super::line::ColorLineSolver;
use super::puzzle::ColorPuzzle;
use crate::line::Contradiction;
use crate::puzzle::LineId;

/// Reusable propagation state: the line solver's buffers and the dirty-line queue. One per
/// thread.
#[derive(Debug, Default)]
pub struct ColorPropagator {
    solver: ColorLineSolver,
    queue: VecDeque<LineId>,
    row_queued: Vec<bool>,
    col_queued: Vec<bool>,
    line_in: Vec<u64>,
    line_out: Vec<u64>,
    /// The lines solved by the last propagation, as a bitset over [`line_index`]es.
    footprint: Vec<u64>,
    /// Line-solver calls made so far (including those the cache answered).
    pub line_solves: u64,
    /// Line-solver results, with the address of the puzzle they belong to.
    cache: Option<(Box<ColorLineCache>, usize)>,
}

impl ColorPropagator {
    /// A propagator with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// A propagator that caches line-solver results (see [`ColorLineCache`]). The cache is
    /// cleared whenever the propagator is handed a puzzle at another address, so a puzzle must
    /// not be changed, or replaced at the same address, while such a propagator serves it.
    /// Crate-private for that reason: only the search's per-thread propagators use it, and
    /// they live on threads that serve one search.
    pub(crate) fn with_line_cache() -> Self {
        ColorPropagator {
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
    fn claim_cache(&mut self, puzzle: &ColorPuzzle) {
        if let Some((cache, owner)) = &mut self.cache {
            let address = std::ptr::from_ref(puzzle) as usize;
            if *owner != address {
                let (height, width) = (puzzle.height(), puzzle.width());
                cache.configure(height + width, height.max(width), puzzle.all_colors());
                *owner = address;
            }
        }
    }

    fn reset(&mut self, grid: &ColorGrid) {
        self.queue.clear();
        self.row_queued.clear();
        self.row_queued.resize(grid.height(), false);
        self.col_queued.clear();
        self.col_queued.resize(grid.width(), false);
        self.footprint.clear();
        self.footprint
            .resize((grid.height() + grid.width()).div_ceil(64), 0);
    }

    /// The lines the last propagation solved (read, and perhaps changed), as a bitset over
    /// [`line_index`]es: run again on a grid where these lines are the same, it does the same.
    pub fn footprint(&self) -> &[u64] {
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
    pub fn propagate_all(
        &mut self,
        puzzle: &ColorPuzzle,
        grid: &mut ColorGrid,
    ) -> Result<(), Contradiction> {
        self.reset(grid);
        for r in 0..grid.height() {
            self.push(LineId::Row(r));
        }
        for c in 0..grid.width() {
            self.push(LineId::Col(c));
        }
        self.run(puzzle, grid)
    }

    /// Propagates after the given cells changed: their rows and columns are dirty.
    pub fn propagate_cells(
        &mut self,
        puzzle: &ColorPuzzle,
        grid: &mut ColorGrid,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<(), Contradiction> {
        self.reset(grid);
        for (row, col) in cells {
            self.push(LineId::Row(row));
            self.push(LineId::Col(col));
        }
        self.run(puzzle, grid)
    }

    fn run(&mut self, puzzle: &ColorPuzzle, grid: &mut ColorGrid) -> Result<(), Contradiction> {
        self.claim_cache(puzzle);
        while let Some(line) = self.queue.pop_front() {
            match line {
                LineId::Row(r) => self.row_queued[r] = false,
                LineId::Col(c) => self.col_queued[c] = false,
            }
            let index = line_index(grid, line);
            self.footprint[index / 64] |= 1 << (index % 64);
            if let Err(contradiction) = self.solve_line(puzzle, grid, line) {
                self.queue.clear();
                return Err(contradiction);
            }
        }
        Ok(())
    }

    fn solve_line(
        &mut self,
        puzzle: &ColorPuzzle,
        grid: &mut ColorGrid,
        line: LineId,
    ) -> Result<(), Contradiction> {
        self.line_solves += 1;
        grid.read_line(line, &mut self.line_in);
        self.line_out.resize(self.line_in.len(), 0);
        let clue = puzzle.clue(line).blocks();
        match &mut self.cache {
            Some((cache, _)) => cache.solve(
                &mut self.solver,
                line_index(grid, line),
                clue,
                &self.line_in,
                &mut self.line_out,
            )?,
            None => self.solver.solve(clue, &self.line_in, &mut self.line_out)?,
        }
        for i in 0..self.line_in.len() {
            let new = self.line_out[i];
            if new == self.line_in[i] {
                continue;
            }
            let (row, col, cross) = match line {
                LineId::Row(r) => (r, i, LineId::Col(i)),
                LineId::Col(c) => (i, c, LineId::Row(i)),
            };
            grid.narrow(row, col, new).map_err(|_| Contradiction)?;
            self.push(cross);
        }
        Ok(())
    }
}

/// A line as one number: rows are `0..height`, columns follow.
pub fn line_index(grid: &ColorGrid, line: LineId) -> usize {
    match line {
        LineId::Row(r) => r,
        LineId::Col(c) => grid.height() + c,
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;
    use crate::color::Color;

    fn palette(colors: u8) -> Vec<Color> {
        (0..colors)
            .map(|i| Color::new(format!("c{i}"), [i, i, i], char::from(b'a' + i)))
            .collect()
    }

    /// A cell guess: row, column, colour index.
    type Guess = (usize, usize, u8);

    /// A random colour picture (2 to 5 colours, background included) and cell guesses.
    fn case() -> impl Strategy<Value = (u8, usize, usize, Vec<u8>, Vec<Guess>)> {
        (2u8..6, 1usize..8, 1usize..12).prop_flat_map(|(colors, rows, cols)| {
            (
                Just(colors),
                Just(rows),
                Just(cols),
                vec(0..colors, rows * cols),
                vec((0..rows, 0..cols, 0..colors), 1..20),
            )
        })
    }

    proptest! {
        /// Every colour of guessed cells is propagated from the same grid, so line states
        /// recur and the cache answers; its answers must be the solver's.
        #[test]
        fn the_colour_line_cache_changes_no_result(
            (colors, rows, cols, picture, guesses) in case()
        ) {
            let puzzle = ColorPuzzle::from_picture(palette(colors), rows, cols, &picture)
                .expect("valid picture");
            let mut cached = ColorPropagator::with_line_cache();
            let mut plain = ColorPropagator::new();
            let mut grid = ColorGrid::new(rows, cols, puzzle.all_colors());
            let mut same = grid.clone();
            prop_assert!(cached.propagate_all(&puzzle, &mut grid).is_ok());
            prop_assert!(plain.propagate_all(&puzzle, &mut same).is_ok());
            prop_assert_eq!(&grid, &same);
            for (row, col, guess) in guesses {
                if grid.cell(row, col).count_ones() < 2 {
                    continue;
                }
                for color in [guess, (guess + 1) % colors, guess] {
                    let (mut a, mut b) = (grid.clone(), grid.clone());
                    let narrowed = a.narrow(row, col, 1 << color).is_ok();
                    prop_assert_eq!(narrowed, b.narrow(row, col, 1 << color).is_ok());
                    if !narrowed {
                        continue;
                    }
                    let with_cache = cached.propagate_cells(&puzzle, &mut a, [(row, col)]);
                    let without = plain.propagate_cells(&puzzle, &mut b, [(row, col)]);
                    prop_assert_eq!(with_cache.is_ok(), without.is_ok());
                    if with_cache.is_ok() {
                        prop_assert_eq!(&a, &b);
                    }
                }
                // Go on from the picture's own colour, which never contradicts.
                let own = picture[row * cols + col];
                prop_assert!(grid.narrow(row, col, 1 << own).is_ok());
                prop_assert!(cached.propagate_cells(&puzzle, &mut grid, [(row, col)]).is_ok());
            }
            let (lookups, hits) = cached.cache_counts();
            prop_assert!(hits <= lookups && lookups > 0);
        }
    }
}
