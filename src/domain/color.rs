//! Colour, the general case: cells that are sets of palette colours and the colour line
//! solver, whose results are cached.

use super::{Domain, DomainGrid, same_in_every_domain, same_in_every_grid};
use crate::color::cache::ColorLineCache;
use crate::color::{ColorGiven, ColorGrid, ColorLineSolver, ColorPuzzle};
use crate::grid::Conflict;
use crate::line::Contradiction;
use crate::puzzle::LineId;

/// A thread's colour line-solving state.
#[derive(Debug, Default)]
pub struct ColorLines {
    solver: ColorLineSolver,
    line_in: Vec<u64>,
    line_out: Vec<u64>,
    cache: Option<Box<ColorLineCache>>,
}

impl DomainGrid for ColorGrid {
    same_in_every_grid!();

    #[inline]
    fn values(&self, row: usize, col: usize) -> u64 {
        self.cell(row, col)
    }

    #[inline]
    fn restrict(&mut self, row: usize, col: usize, values: u64) -> Result<bool, Conflict> {
        self.narrow(row, col, values)
    }

    #[inline]
    fn decide(&mut self, row: usize, col: usize, value: u64) {
        debug_assert!(self.cell(row, col) & value != 0);
        // The value is one of the cell's, so something is left.
        let _ = self.narrow(row, col, value);
    }

    fn reset(&mut self, row: usize, col: usize, values: u64) {
        debug_assert_ne!(values, 0);
        self.set_cell(row, col, values);
    }

    fn undecided_in(&self, line: LineId) -> usize {
        let undecided = |c: u64| c.count_ones() > 1;
        match line {
            LineId::Row(r) => (0..self.width())
                .filter(|&c| undecided(self.cell(r, c)))
                .count(),
            LineId::Col(c) => (0..self.height())
                .filter(|&r| undecided(self.cell(r, c)))
                .count(),
        }
    }

    fn key(&self) -> Box<[u64]> {
        self.cells().into()
    }

    fn heap_bytes(&self) -> usize {
        8 * self.cells().len()
    }

    fn line_differs(&self, other: &Self, line: LineId) -> bool {
        match line {
            LineId::Row(r) => {
                let w = self.width();
                self.cells()[r * w..][..w] != other.cells()[r * w..][..w]
            }
            LineId::Col(c) => (0..self.height()).any(|r| self.cell(r, c) != other.cell(r, c)),
        }
    }

    fn storage(&self) -> &[u64] {
        ColorGrid::storage(self)
    }

    fn storage_mut(&mut self) -> (&mut [u64], &mut usize) {
        ColorGrid::storage_mut(self)
    }

    fn common_narrowing(&self, children: &[Self], out: &mut Vec<(usize, usize, u64)>) {
        let w = self.width();
        for (i, &cell) in self.cells().iter().enumerate() {
            let union = children.iter().fold(0, |u, child| u | child.cells()[i]);
            if union != cell {
                out.push((i / w, i % w, union));
            }
        }
    }
}

impl Domain for ColorPuzzle {
    type Grid = ColorGrid;
    type Lines = ColorLines;

    const HIGH_VALUE_FIRST: bool = false;

    fn all_values(&self) -> u64 {
        self.all_colors()
    }

    /// The mean of `ln(1 + cells fixed)` over the children (the log of their geometric mean):
    /// for two colours, the same order as the black-and-white score `(1 + a) * (1 + b)`.
    fn branch_score(&self, fixed: &[u64]) -> f64 {
        let m = fixed.len().max(1) as f64;
        fixed.iter().map(|&f| (f as f64 + 1.0).ln()).sum::<f64>() / m
    }

    fn blank_grid(&self) -> ColorGrid {
        ColorGrid::new(self.height(), self.width(), self.all_colors())
    }

    type Given = ColorGiven;

    fn given(row: usize, col: usize, value: u64) -> ColorGiven {
        ColorGiven {
            row,
            col,
            color: value.trailing_zeros() as u8,
        }
    }

    fn given_value(given: &ColorGiven) -> u64 {
        1 << given.color
    }

    fn checksums(&self) -> (String, String) {
        ColorPuzzle::checksums(self)
    }

    fn configure_cache(&self, lines: &mut ColorLines) {
        if let Some(cache) = &mut lines.cache {
            let (height, width) = (self.height(), self.width());
            cache.configure(height + width, height.max(width), self.all_colors());
        }
    }

    fn solve_line(
        &self,
        lines: &mut ColorLines,
        grid: &mut ColorGrid,
        line: LineId,
        index: u32,
        mut changed: impl FnMut(usize),
    ) -> Result<(), Contradiction> {
        grid.read_line(line, &mut lines.line_in);
        lines.line_out.resize(lines.line_in.len(), 0);
        let clue = self.clue(line).blocks();
        match &mut lines.cache {
            Some(cache) => cache.solve(
                &mut lines.solver,
                index as usize,
                clue,
                &lines.line_in,
                &mut lines.line_out,
            )?,
            None => lines
                .solver
                .solve(clue, &lines.line_in, &mut lines.line_out)?,
        }
        for (i, (&old, &new)) in lines.line_in.iter().zip(&lines.line_out).enumerate() {
            if new == old {
                continue;
            }
            let (row, col) = match line {
                LineId::Row(r) => (r, i),
                LineId::Col(c) => (i, c),
            };
            grid.narrow(row, col, new).map_err(|_| Contradiction)?;
            changed(i);
        }
        Ok(())
    }

    same_in_every_domain!();
}
