//! Black and white, the fast case: a grid of bit planes and the bit-parallel line solver, whose
//! results on lines of up to 256 cells are cached.

use super::{
    BW_VALUES, Domain, DomainGrid, EMPTY, FILLED, same_in_every_domain, same_in_every_grid,
};
use crate::checksum::{clue_checksum, givens_checksum};
use crate::grid::{Cell, Conflict, Grid};
use crate::line::{BitLineSolver, Contradiction, LineCache, LineIn, LineOut, LineSolver};
use crate::puzzle::{Given, LineId, Puzzle};

/// A thread's black-and-white line-solving state.
#[derive(Debug, Default)]
pub struct BwLines {
    solver: BitLineSolver,
    /// The cells known after the last solve.
    pub(crate) out_filled: Vec<u64>,
    pub(crate) out_empty: Vec<u64>,
    pub(crate) cache: Option<Box<LineCache>>,
}

impl BwLines {
    /// Solves `line` of `grid` (the puzzle's line number `index`), through the cache if there
    /// is one: the cells known afterwards are left in `out_filled` and `out_empty`.
    #[inline]
    pub(crate) fn solve(
        &mut self,
        puzzle: &Puzzle,
        grid: &Grid,
        line: LineId,
        index: u32,
    ) -> Result<(), Contradiction> {
        let (filled, empty) = grid.line(line);
        self.out_filled.resize(filled.len(), 0);
        self.out_empty.resize(filled.len(), 0);
        let known = || LineIn {
            clue: puzzle.clue(line).blocks(),
            len: grid.line_len(line),
            filled,
            empty,
        };
        let out = LineOut {
            filled: &mut self.out_filled,
            empty: &mut self.out_empty,
        };
        match &mut self.cache {
            Some(cache) => cache.solve(&mut self.solver, index, (filled, empty), known, out),
            None => self.solver.solve(known(), out),
        }
    }
}

impl DomainGrid for Grid {
    same_in_every_grid!();

    #[inline]
    fn values(&self, row: usize, col: usize) -> u64 {
        match self.cell(row, col) {
            Cell::Unknown => BW_VALUES,
            Cell::Filled => FILLED,
            Cell::Empty => EMPTY,
        }
    }

    #[inline]
    fn restrict(&mut self, row: usize, col: usize, values: u64) -> Result<bool, Conflict> {
        match values & BW_VALUES {
            0 => Err(Conflict),
            BW_VALUES => Ok(false),
            value => self.set(row, col, value == FILLED),
        }
    }

    #[inline]
    fn decide(&mut self, row: usize, col: usize, value: u64) {
        self.set_unknown(row, col, value == FILLED);
    }

    fn reset(&mut self, row: usize, col: usize, values: u64) {
        if self.values(row, col) == values {
            return;
        }
        if self.cell(row, col) != Cell::Unknown {
            self.clear_cell(row, col);
        }
        if values != BW_VALUES {
            self.set_unknown(row, col, values == FILLED);
        }
    }

    fn undecided_in(&self, line: LineId) -> usize {
        let (f, e) = self.line(line);
        let known: u32 = f.iter().zip(e).map(|(f, e)| (f | e).count_ones()).sum();
        self.line_len(line) - known as usize
    }

    fn most_constrained_cell(&self) -> Option<(usize, usize)> {
        Grid::most_constrained_cell(self)
    }

    fn key(&self) -> Box<[u64]> {
        let (filled, empty) = self.row_planes();
        filled.iter().chain(empty).copied().collect()
    }

    fn heap_bytes(&self) -> usize {
        let (height, width) = (self.height(), self.width());
        8 * (2 * height * width.div_ceil(64) + 2 * width * height.div_ceil(64))
    }

    #[inline]
    fn line_differs(&self, other: &Self, line: LineId) -> bool {
        self.line(line) != other.line(line)
    }

    fn storage(&self) -> &[u64] {
        Grid::storage(self)
    }

    fn storage_mut(&mut self) -> (&mut [u64], &mut usize) {
        Grid::storage_mut(self)
    }

    fn mark_opposed(&self, a: &Self, b: &Self, after: (usize, usize), marks: &mut [u64]) -> bool {
        let (gf, ge) = self.row_planes();
        let ((af, ae), (bf, be)) = (a.row_planes(), b.row_planes());
        let row_words = gf.len() / self.height().max(1);
        let start = after.0 * row_words + after.1 / 64;
        let mut any = false;
        for w in start..gf.len() {
            let mut bits = (af[w] & be[w] | ae[w] & bf[w]) & !(gf[w] | ge[w]);
            if w == start {
                // Only the cells after `after` in its word.
                bits &= u64::MAX << (after.1 % 64) << 1;
            }
            marks[w] |= bits;
            any |= bits != 0;
        }
        any
    }

    fn common_narrowing(&self, children: &[Self], out: &mut Vec<(usize, usize, u64)>) {
        let (gf, ge) = self.row_planes();
        let row_words = gf.len() / self.height().max(1);
        // Cells every child fixed the same way that the grid leaves unknown, word by word, in
        // one pass; probing gives two children (filled and empty), which is the fast case.
        let mut push_word = |w: usize, all_filled: u64, all_empty: u64| {
            let (row, first_col) = (w / row_words, w % row_words * 64);
            for (mut bits, value) in [(all_filled, FILLED), (all_empty, EMPTY)] {
                while bits != 0 {
                    out.push((row, first_col + bits.trailing_zeros() as usize, value));
                    bits &= bits - 1;
                }
            }
        };
        if let [a, b] = children {
            let ((af, ae), (bf, be)) = (a.row_planes(), b.row_planes());
            let n = gf.len();
            let (ge, af, ae, bf, be) = (&ge[..n], &af[..n], &ae[..n], &bf[..n], &be[..n]);
            for w in 0..n {
                let all_filled = af[w] & bf[w] & !gf[w];
                let all_empty = ae[w] & be[w] & !ge[w];
                if all_filled | all_empty != 0 {
                    push_word(w, all_filled, all_empty);
                }
            }
            return;
        }
        for w in 0..gf.len() {
            let (all_filled, all_empty) =
                children.iter().fold((!gf[w], !ge[w]), |(f, e), child| {
                    let (cf, ce) = child.row_planes();
                    (f & cf[w], e & ce[w])
                });
            if all_filled | all_empty != 0 {
                push_word(w, all_filled, all_empty);
            }
        }
    }
}

impl Domain for Puzzle {
    type Grid = Grid;
    type Lines = BwLines;

    const HIGH_VALUE_FIRST: bool = true;

    fn all_values(&self) -> u64 {
        BW_VALUES
    }

    /// `(1 + a) * (1 + b)`: both branches should shrink the problem.
    fn branch_score(&self, fixed: &[u64]) -> f64 {
        // In floating point: a product of counts cannot overflow.
        fixed.iter().map(|&f| f as f64 + 1.0).product()
    }

    fn blank_grid(&self) -> Grid {
        Grid::new(self.height(), self.width())
    }

    type Given = Given;

    fn given(row: usize, col: usize, value: u64) -> Given {
        Given {
            row,
            col,
            filled: value == FILLED,
        }
    }

    fn given_value(given: &Given) -> u64 {
        if given.filled { FILLED } else { EMPTY }
    }

    fn checksums(&self) -> (String, String) {
        (clue_checksum(self), givens_checksum(self))
    }

    fn configure_cache(&self, lines: &mut BwLines) {
        if let Some(cache) = &mut lines.cache {
            let longest = self.height().max(self.width());
            cache.configure(self.height() + self.width(), longest);
        }
    }

    #[inline]
    fn solve_line(
        &self,
        lines: &mut BwLines,
        grid: &mut Grid,
        line: LineId,
        index: u32,
        mut changed: impl FnMut(usize),
    ) -> Result<(), Contradiction> {
        lines.solve(self, grid, line, index)?;
        let (out_filled, out_empty) = (&lines.out_filled, &lines.out_empty);
        let words = out_filled.len();
        for w in 0..words {
            let (filled, empty) = grid.line(line);
            let new_filled = out_filled[w] & !filled[w];
            let new_empty = out_empty[w] & !empty[w];
            for (mut bits, value) in [(new_filled, true), (new_empty, false)] {
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    match line {
                        LineId::Row(r) => grid.set_unknown(r, i, value),
                        LineId::Col(c) => grid.set_unknown(i, c, value),
                    }
                    changed(i);
                }
            }
        }
        Ok(())
    }

    same_in_every_domain!();
}
