//! The learning search's black-and-white domain: one variable per cell, "the cell is filled",
//! the bit-parallel line solver with its one-word line cache as the propagator, and
//! explanations checked by the forward half of that solver (a third of a whole solve), on one
//! machine word without the solver's dispatch for lines of up to 126 cells.

use super::assign::CellValues;
use super::domain::{LearnDomain, LineAt};
use super::explain::{Deduction, Fact, LineCheck, zeroed};
use super::lit::{Lit, lit, value, var_of};
use super::order::FirstGuess;
use crate::domain::Domain;
use crate::flow::Flow;
use crate::grid::{Cell, Grid};
use crate::line::{BitLineSolver, WordLine};
use crate::puzzle::{LineId, Puzzle};

/// The fewest cells of a grid that a racing search tries decimation on, 80x80: on smaller ones
/// the first guess's dives reach the solutions of most puzzles, and decimation (a second of
/// one core on a random 100x100 picture when it fails) would be paid puzzle after puzzle. Tried
/// before the first decision, it failed on *Meow* (75x50) and made a run 0.5 -> 0.77 s.
const DECIMATION_GRID: usize = 6400;

impl CellValues for Grid {
    fn set(&mut self, lit: Lit) {
        let (at, width) = (var_of(lit) as usize, self.width());
        self.set_unknown(at / width, at % width, value(lit));
    }

    fn unset(&mut self, lit: Lit) {
        let (at, width) = (var_of(lit) as usize, self.width());
        self.clear_cell(at / width, at % width);
    }
}

impl LearnDomain for Puzzle {
    type Cells = Grid;
    type LearnLines = BwLines;
    const CELL_RULE: bool = false;
    const TARGET_PHASES: bool = true;
    const BLOCK_BY_CELLS: bool = true;

    fn vars_per_cell(&self) -> usize {
        1
    }

    fn new_cells(&self) -> Grid {
        Grid::new(self.height(), self.width())
    }

    fn new_lines(&self) -> BwLines {
        let mut solving = Puzzle::lines_with_cache();
        self.configure_cache(&mut solving);
        BwLines {
            solving,
            planes: Planes::default(),
        }
    }

    fn known_lits(&self, grid: &Grid, out: &mut Vec<Lit>) {
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                let filled = match grid.cell(row, col) {
                    Cell::Unknown => continue,
                    Cell::Filled => true,
                    Cell::Empty => false,
                };
                out.push(lit((row * grid.width() + col) as u32, filled));
            }
        }
    }

    fn first_guess(&self, root: &Grid, stop: &mut dyn FnMut() -> bool) -> Option<FirstGuess> {
        super::beliefs::first_guess(self, root, stop)
    }

    /// Decimation (see `beliefs`'s `decimation`), on grids of [`DECIMATION_GRID`] cells or
    /// more only.
    fn decimated_guess(
        &self,
        root: &Grid,
        first: Option<&FirstGuess>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<FirstGuess> {
        (root.height() * root.width() >= DECIMATION_GRID)
            .then(|| super::beliefs::decimated_guess(self, root, first, stop))
            .flatten()
    }

    fn changes_lines(_: Lit) -> bool {
        true
    }

    fn solve_line(&self, lines: &mut BwLines, grid: &Grid, line: LineId, index: usize) -> bool {
        let solving = &mut lines.solving;
        if solving.solve(self, grid, line, index as u32).is_err() {
            return false;
        }
        let (filled, empty) = grid.line(line);
        let words = filled.len();
        // Keep only the cells this solve fixed.
        for w in 0..words {
            solving.out_filled[w] &= !filled[w];
            solving.out_empty[w] &= !empty[w];
        }
        true
    }

    fn forced(&self, lines: &BwLines, line: LineId, mut set: impl FnMut(Lit)) {
        let shape = self.shape();
        for (w, (&filled, &empty)) in lines
            .solving
            .out_filled
            .iter()
            .zip(&lines.solving.out_empty)
            .enumerate()
        {
            for (mut bits, value) in [(filled, true), (empty, false)] {
                while bits != 0 {
                    let cell = shape.cell(line, w * 64 + bits.trailing_zeros() as usize);
                    set(lit(cell as u32, value));
                    bits &= bits - 1;
                }
            }
        }
    }

    fn known_planes(cells: &Grid, line: LineId) -> Option<(&[u64], &[u64])> {
        Some(cells.line(line))
    }

    fn line_check<'l>(&'l self, lines: &'l mut BwLines, at: LineAt) -> impl LineCheck + 'l {
        let (line, _) = at;
        let len = self.shape().len(line);
        let planes = &mut lines.planes;
        zeroed(
            [&mut planes.filled, &mut planes.empty],
            len.div_ceil(64).max(1),
        );
        let clue = self.clue(line).blocks();
        Check {
            planes,
            clue,
            len,
            word: WordLine::of(clue, len),
        }
    }

    fn report(&self, grid: &Grid, on_solution: &mut impl FnMut(&Grid) -> Flow) -> Flow {
        on_solution(grid)
    }

    fn cache_stats(lines: &BwLines) -> (u64, u64) {
        Puzzle::cache_counts(&lines.solving)
    }
}

/// One search's line solver with its line-result cache (line states recur after every jump
/// back), whose buffers hold the cells the last solve fixed that were unknown before it, and
/// the explanation's buffers.
#[derive(Debug)]
pub(crate) struct BwLines {
    solving: <Puzzle as Domain>::Lines,
    planes: Planes,
}

/// A line under explanation: the feasibility solver and the facts in the line now.
#[derive(Debug, Default)]
struct Planes {
    solver: BitLineSolver,
    filled: Vec<u64>,
    empty: Vec<u64>,
}

/// One line under explanation, with its clue.
struct Check<'a> {
    planes: &'a mut Planes,
    clue: &'a [u32],
    len: usize,
    /// The word the line's cells fit in, if they fit in one.
    word: Option<WordLine>,
}

impl Check<'_> {
    /// Whether the line has a placement with the facts in it now.
    fn feasible(&mut self) -> bool {
        let planes = &mut *self.planes;
        if let Some(word) = self.word {
            word.feasible(self.clue, self.len, &planes.filled, &planes.empty)
        } else {
            planes
                .solver
                .feasible(self.clue, self.len, &planes.filled, &planes.empty)
        }
    }
}

impl LineCheck for Check<'_> {
    fn toggle(&mut self, fact: &Fact) {
        let plane = if fact.value() {
            &mut self.planes.filled
        } else {
            &mut self.planes.empty
        };
        let index = fact.index();
        plane[index as usize / 64] ^= 1u64 << (index % 64);
    }

    /// As the line solver is exact, whether no placement has the deduced cell the other way
    /// (or none at all): only that feasibility is computed, not the whole line. (The line
    /// cache answered under a tenth of these questions, which cost more to ask than it saved.)
    fn still_holds(&mut self, deduction: Deduction) -> bool {
        match deduction {
            Deduction::Contradiction => !self.feasible(),
            Deduction::Forces { index, value, .. } => {
                // Put the deduced cell the other way, ask, and take it out again.
                let other = Fact::new(0, index, 0, !value);
                self.toggle(&other);
                let feasible = self.feasible();
                self.toggle(&other);
                !feasible
            }
        }
    }
}
