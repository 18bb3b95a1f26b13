//! What the learning search needs to know of a kind of puzzle: what a cell can hold (its
//! variables), how a line is solved and how a line's deduction is explained. Everything else,
//! the trail, clauses, conflict analysis, decisions, restarts and the search loop, is written
//! once in [`super::engine`] over this trait, which black and white ([`super::bw`]) and colour
//! ([`super::color`]) implement on their puzzle types. The engine is monomorphised for each.

use super::assign::{Assignment, CellValues};
use super::explain::LineCheck;
use super::lit::Lit;
use super::order::FirstGuess;
use crate::domain::Domain;
use crate::flow::Flow;
use crate::puzzle::LineId;

/// The lines of a grid: rows numbered from 0, then columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub(super) height: usize,
    pub(super) width: usize,
}

impl Shape {
    /// The number of lines.
    pub(super) fn lines(self) -> usize {
        self.height + self.width
    }

    /// The number of a line.
    pub(super) fn index(self, line: LineId) -> usize {
        match line {
            LineId::Row(r) => r,
            LineId::Col(c) => self.height + c,
        }
    }

    /// The line numbered `index` (see [`Shape::index`]).
    pub(super) fn line(self, index: u32) -> LineId {
        let index = index as usize;
        if index < self.height {
            LineId::Row(index)
        } else {
            LineId::Col(index - self.height)
        }
    }

    /// The cells in a line.
    pub(super) fn len(self, line: LineId) -> usize {
        match line {
            LineId::Row(_) => self.width,
            LineId::Col(_) => self.height,
        }
    }

    /// The cell (`row * width + col`) at index `i` of `line`.
    pub(super) fn cell(self, line: LineId, i: usize) -> usize {
        let (start, step) = self.start_and_step(line);
        start + i * step
    }

    /// The first cell of `line` and the step from each of its cells to the next.
    pub(super) fn start_and_step(self, line: LineId) -> (usize, usize) {
        match line {
            LineId::Row(r) => (r * self.width, 1),
            LineId::Col(c) => (c, self.width),
        }
    }

    /// The index of `cell` in `line`, which holds it.
    pub(super) fn index_in_line(self, line: LineId, cell: usize) -> usize {
        match line {
            LineId::Row(_) => cell % self.width,
            LineId::Col(_) => cell / self.width,
        }
    }
}

/// A line and its index (the rows from 0, then the columns).
pub(crate) type LineAt = (LineId, usize);

/// A kind of puzzle the learning search runs on, implemented on the puzzle type.
///
/// A cell has [`vars_per_cell`](Self::vars_per_cell) variables, numbered
/// `cell * vars_per_cell + k` (see [`super::lit`]). Line `index` numbers the lines: the rows
/// from 0, then the columns.
pub(crate) trait LearnDomain: Domain {
    /// The cells as the line solver reads them, kept in step with the variables.
    type Cells: CellValues;
    /// One search's line solver, line-result cache and explanation buffers.
    type LearnLines;
    /// Whether a cell's variables obey a rule of their own, propagated by
    /// [`cell_rule`](Self::cell_rule); `false` leaves the three `cell_` methods unused.
    const CELL_RULE: bool;

    /// Rows and columns.
    fn shape(&self) -> Shape {
        let (height, width) = self.size();
        Shape { height, width }
    }
    /// Variables per cell.
    fn vars_per_cell(&self) -> usize;
    /// The cells with nothing known.
    fn new_cells(&self) -> Self::Cells;
    /// Line-solving state for one search.
    fn new_lines(&self) -> Self::LearnLines;
    /// Appends the literals that `grid`'s known cells make true, cell by cell in row-major
    /// order.
    fn known_lits(&self, grid: &Self::Grid, out: &mut Vec<Lit>);
    /// Whether a search from the root follows target phases (see [`super::order`]); a domain
    /// opts in. Colour does not: with one variable per colour, the longest conflict-free trail
    /// mostly says which colours a cell does *not* have, and following it was slower
    /// (`webpbn-color-00672`: 0.54 s -> 13.9 s).
    const TARGET_PHASES: bool = false;
    /// Whether a solution is blocked by the cells of its rarer value when that clause is the
    /// shorter (see `Engine::block_by_cells`): in black and white, where each line's filled
    /// cells number the sum of its clue, the filled cells of a solution determine it, and so do
    /// its empty ones. A domain opts in.
    const BLOCK_BY_CELLS: bool = false;

    /// The value each variable (by number) is first tried with and the order of the first
    /// decisions, or `None` for false everywhere, in variable order. A guess that takes long
    /// asks `stop` from time to time, and cuts its work short when it says so.
    fn first_guess(
        &self,
        _root: &Self::Grid,
        _stop: &mut dyn FnMut() -> bool,
    ) -> Option<FirstGuess> {
        None
    }
    /// A second guess, for a search that races others taking
    /// [`first_guess`](Self::first_guess): one that solves the puzzle, found another way from
    /// `first` (the first guess of `root`, if there is one), which the search follows from then
    /// on (from its first decision, or from a restart once it has met many conflicts), or
    /// `None` (the search goes on as it was). Asks `stop` from time to time, as the first guess
    /// does.
    fn decimated_guess(
        &self,
        _root: &Self::Grid,
        _first: Option<&FirstGuess>,
        _stop: &mut dyn FnMut() -> bool,
    ) -> Option<FirstGuess> {
        None
    }
    /// Whether making `lit` true changes what the line solver reads of its cell.
    fn changes_lines(lit: Lit) -> bool;
    /// Solves `line` (line `index`) from `cells`; `false` if it has no placement. What it
    /// newly forces is then read with [`forced`](Self::forced).
    fn solve_line(
        &self,
        lines: &mut Self::LearnLines,
        cells: &Self::Cells,
        line: LineId,
        index: usize,
    ) -> bool;
    /// The known cells of `line` in `cells` as two bit planes, filled and empty (cell `i` of
    /// the line is bit `i % 64` of word `i / 64`), where the domain keeps them so (black and
    /// white, one variable per cell): explanations then visit only the known cells. `None`
    /// (the default) makes them read every variable of the line.
    fn known_planes(_cells: &Self::Cells, _line: LineId) -> Option<(&[u64], &[u64])> {
        None
    }
    /// Calls `set` with each literal the last [`solve_line`](Self::solve_line) of `line`
    /// forced that was not known before it.
    fn forced(&self, lines: &Self::LearnLines, line: LineId, set: impl FnMut(Lit));
    /// The line `at` with no fact in it, for [`shrink`](super::explain::shrink) to explain a
    /// deduction of the line with.
    fn line_check<'l>(&'l self, lines: &'l mut Self::LearnLines, at: LineAt)
    -> impl LineCheck + 'l;
    /// Calls `on_solution` with the grid of `cells`, every variable set.
    fn report(
        &self,
        cells: &Self::Cells,
        on_solution: &mut impl FnMut(&Self::Grid) -> Flow,
    ) -> Flow;
    /// The line-result cache's lookups and hits so far.
    fn cache_stats(lines: &Self::LearnLines) -> (u64, u64);

    /// Propagates the cell rule from `lit`, just made true: appends to `forced` the literals
    /// it forces and returns the cell it finds contradicted, if any (after the literals it
    /// forced before finding it).
    fn cell_rule(
        &self,
        _a: &Assignment<Self::Cells>,
        _lit: Lit,
        _forced: &mut Vec<Lit>,
    ) -> Option<usize> {
        None
    }
    /// Appends to `out` the true literals from which the cell rule forced `var`.
    fn cell_antecedents(&self, _a: &Assignment<Self::Cells>, _var: u32, _out: &mut Vec<Lit>) {}
    /// Appends to `out` true literals of `cell` that the cell rule forbids together.
    fn cell_conflict(&self, _a: &Assignment<Self::Cells>, _cell: usize, _out: &mut Vec<Lit>) {}
}
