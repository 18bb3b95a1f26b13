//! The learning search's colour domain: one variable per cell and colour ("this cell has this
//! colour"), with the colour line solver as the propagator.
//!
//! A colour line deduction rules colours out of cells; its reason is explained lazily, as in
//! black and white, from the line's facts ("cell i is colour k", "cell i is not colour k") set
//! before it. A cell has exactly one colour: that rule propagates like a clause of its own
//! ([`LearnDomain::cell_rule`]). A decision sets one variable, so it either gives a cell a
//! colour or rules one out, and its saved phase says which.

use super::assign::{Assignment, CellValues};
use super::domain::{LearnDomain, LineAt};
use super::explain::{Deduction, Fact, LineCheck, zeroed};
use super::lit::{Lit, lit, value, var_of};
use crate::color::cache::ColorLineCache;
use crate::color::{Block, ColorGrid, ColorLineSolver, ColorPuzzle};
use crate::flow::Flow;
use crate::puzzle::LineId;

/// `chosen` of a cell with no true variable.
const NO_COLOR: u8 = u8::MAX;

/// Each cell's colours not ruled out yet (what the colour line solver reads) and its colour
/// said true, if any.
#[derive(Debug)]
pub(crate) struct ColorCells {
    colors: usize,
    /// Each cell's colours whose variable is not false.
    sets: Vec<u64>,
    /// Each cell's colour whose variable is true, or [`NO_COLOR`].
    chosen: Vec<u8>,
}

impl ColorCells {
    fn cell_color(&self, lit: Lit) -> (usize, usize) {
        let var = var_of(lit) as usize;
        (var / self.colors, var % self.colors)
    }
}

impl CellValues for ColorCells {
    fn set(&mut self, lit: Lit) {
        let (cell, color) = self.cell_color(lit);
        if value(lit) {
            self.chosen[cell] = color as u8;
        } else {
            self.sets[cell] &= !(1u64 << color);
        }
    }

    fn unset(&mut self, lit: Lit) {
        let (cell, color) = self.cell_color(lit);
        if value(lit) {
            self.chosen[cell] = NO_COLOR;
        } else {
            self.sets[cell] |= 1u64 << color;
        }
    }
}

/// One search's colour line solver, line-result cache and buffers.
#[derive(Debug, Default)]
pub(crate) struct ColorLines {
    solver: ColorLineSolver,
    cache: ColorLineCache,
    /// The last line solved, before and after.
    line_in: Vec<u64>,
    line_out: Vec<u64>,
    facts: FactLine,
}

/// A line under explanation: per cell, the colours ruled out and the colours said true by the
/// facts in the line now, and what the line solver reads of them.
#[derive(Debug, Default)]
struct FactLine {
    all: u64,
    ruled_out: Vec<u64>,
    said: Vec<u64>,
    cells: Vec<u64>,
}

impl LearnDomain for ColorPuzzle {
    type Cells = ColorCells;
    type LearnLines = ColorLines;
    const CELL_RULE: bool = true;

    fn vars_per_cell(&self) -> usize {
        self.colors.len()
    }

    fn new_cells(&self) -> ColorCells {
        let cells = self.height() * self.width();
        ColorCells {
            colors: self.colors.len(),
            sets: vec![self.all_colors(); cells],
            chosen: vec![NO_COLOR; cells],
        }
    }

    fn new_lines(&self) -> ColorLines {
        let mut lines = ColorLines::default();
        let (height, width) = (self.height(), self.width());
        let all = self.all_colors();
        lines
            .cache
            .configure(height + width, height.max(width), all);
        lines.facts.all = all;
        lines
    }

    fn known_lits(&self, grid: &ColorGrid, out: &mut Vec<Lit>) {
        let colors = self.colors.len();
        for (cell, &set) in grid.cells().iter().enumerate() {
            for color in 0..colors {
                let var = (cell * colors + color) as u32;
                if set & (1 << color) == 0 {
                    out.push(lit(var, false));
                } else if set.is_power_of_two() {
                    out.push(lit(var, true));
                }
            }
        }
    }

    /// A ruled-out colour changes a cell; a true one only through the others it rules out.
    fn changes_lines(lit: Lit) -> bool {
        !value(lit)
    }

    fn solve_line(
        &self,
        lines: &mut ColorLines,
        cells: &ColorCells,
        line: LineId,
        index: usize,
    ) -> bool {
        let shape = self.shape();
        let len = shape.len(line);
        lines.line_in.clear();
        lines
            .line_in
            .extend((0..len).map(|i| cells.sets[shape.cell(line, i)]));
        lines.line_out.resize(len, 0);
        let clue = self.clue(line).blocks();
        lines
            .cache
            .solve(
                &mut lines.solver,
                index,
                clue,
                &lines.line_in,
                &mut lines.line_out,
            )
            .is_ok()
    }

    fn forced(&self, lines: &ColorLines, line: LineId, mut set: impl FnMut(Lit)) {
        let (shape, colors) = (self.shape(), self.colors.len());
        for (i, (&before, &after)) in lines.line_in.iter().zip(&lines.line_out).enumerate() {
            let mut ruled_out = before & !after;
            let first = shape.cell(line, i) * colors;
            while ruled_out != 0 {
                set(lit(
                    (first + ruled_out.trailing_zeros() as usize) as u32,
                    false,
                ));
                ruled_out &= ruled_out - 1;
            }
        }
    }

    fn line_check<'l>(&'l self, lines: &'l mut ColorLines, at: LineAt) -> impl LineCheck + 'l {
        let ((line, _), len) = (at, self.shape().len(at.0));
        let fl = &mut lines.facts;
        zeroed([&mut fl.ruled_out, &mut fl.said], len);
        fl.cells.clear();
        fl.cells.resize(len, fl.all);
        Check {
            facts: fl,
            solver: &mut lines.solver,
            clue: self.clue(line).blocks(),
        }
    }

    fn report(&self, cells: &ColorCells, on_solution: &mut impl FnMut(&ColorGrid) -> Flow) -> Flow {
        let (height, width) = (self.height(), self.width());
        let mut grid = ColorGrid::new(height, width, self.all_colors());
        for (cell, &set) in cells.sets.iter().enumerate() {
            // A complete assignment leaves every cell one colour.
            let _ = grid.narrow(cell / width, cell % width, set);
        }
        on_solution(&grid)
    }

    fn cache_stats(lines: &ColorLines) -> (u64, u64) {
        (lines.cache.lookups, lines.cache.hits)
    }

    /// One colour per cell: a true variable rules out the cell's other colours; a cell left
    /// with one possible colour takes it.
    fn cell_rule(
        &self,
        a: &Assignment<ColorCells>,
        l: Lit,
        forced: &mut Vec<Lit>,
    ) -> Option<usize> {
        let (cell, color) = a.cells.cell_color(l);
        let first = cell * a.cells.colors;
        if value(l) {
            for other in (0..a.cells.colors).filter(|&other| other != color) {
                let var = (first + other) as u32;
                if a.is_true(lit(var, false)) {
                    continue;
                }
                if a.is_true(lit(var, true)) {
                    return Some(cell);
                }
                forced.push(lit(var, false));
            }
            return None;
        }
        if a.cells.chosen[cell] != NO_COLOR {
            return None;
        }
        let set = a.cells.sets[cell];
        if set == 0 {
            return Some(cell);
        }
        if set.is_power_of_two() {
            forced.push(lit((first + set.trailing_zeros() as usize) as u32, true));
        }
        None
    }

    fn cell_antecedents(&self, a: &Assignment<ColorCells>, var: u32, out: &mut Vec<Lit>) {
        let (cell, color) = a.cells.cell_color(lit(var, true));
        let first = cell * a.cells.colors;
        if a.is_true(lit(var, true)) {
            // Every other colour of the cell was ruled out.
            for other in (0..a.cells.colors).filter(|&c| c != color) {
                out.push(lit((first + other) as u32, false));
            }
        } else {
            // The cell's true colour ruled this one out.
            let chosen = a.cells.chosen[cell] as usize;
            out.push(lit((first + chosen) as u32, true));
        }
    }

    fn cell_conflict(&self, a: &Assignment<ColorCells>, cell: usize, out: &mut Vec<Lit>) {
        let first = cell * a.cells.colors;
        let vars = (first..first + a.cells.colors).map(|v| v as u32);
        let chosen: Vec<u32> = vars.clone().filter(|&v| a.is_true(lit(v, true))).collect();
        if chosen.len() >= 2 {
            out.extend(chosen[..2].iter().map(|&v| lit(v, true)));
        } else {
            out.extend(vars.map(|v| lit(v, false)));
        }
    }
}

/// One colour line under explanation, with its clue.
struct Check<'a> {
    facts: &'a mut FactLine,
    solver: &'a mut ColorLineSolver,
    clue: &'a [Block],
}

impl LineCheck for Check<'_> {
    /// Also recomputes the fact's cell.
    fn toggle(&mut self, fact: &Fact) {
        let fl = &mut *self.facts;
        let i = fact.index() as usize;
        let bit = 1u64 << fact.sub();
        if fact.value() {
            fl.said[i] ^= bit;
        } else {
            fl.ruled_out[i] ^= bit;
        }
        let said = match fl.said[i] {
            0 => fl.all,
            one if one.is_power_of_two() => one,
            _ => 0,
        };
        fl.cells[i] = fl.all & !fl.ruled_out[i] & said;
    }

    /// Whether the line has no placement with the deduction the other way: as the line
    /// solver is exact, that is whether the facts in the line still make it.
    fn still_holds(&mut self, deduction: Deduction) -> bool {
        let fl = &mut *self.facts;
        if fl.cells.contains(&0) {
            return true;
        }
        let Deduction::Forces { index, sub, value } = deduction else {
            return !self.solver.feasible(self.clue, &fl.cells);
        };
        let i = index as usize;
        let kept = fl.cells[i];
        let colour = 1u64 << sub;
        let other_way = if value { kept & !colour } else { kept & colour };
        if other_way == 0 {
            return true;
        }
        fl.cells[i] = other_way;
        let holds = !self.solver.feasible(self.clue, &fl.cells);
        fl.cells[i] = kept;
        holds
    }
}
