//! The learning search's first guess in black and white: a phase for each cell and an order
//! for the first decisions, from belief propagation between the rows and the columns.
//!
//! Each line's placements (those that agree with the cells known at the root) are weighted by
//! what the crossing lines say of each of their cells (a *message*: the chance that the cell
//! is filled) and summed by a dynamic program, forwards and backwards; each cell gets the
//! weighted share of them that fill it. A line's message to a cell is that share with the
//! cell's own incoming message divided out (what the line says beyond what it was told). Rows
//! and columns take turns, each round's messages half the old and half the new, until the
//! beliefs settle, the likeliest grid satisfies every clue, the grid's rounds have run (more
//! on larger grids) or the work bound is spent. The first round is the plain count of
//! placements, rows and columns as independent witnesses.
//!
//! A cell starts with the value its belief favours, and the first decisions take the cells the
//! beliefs are surest of, least sure last: the search heads straight for the grid the lines
//! agree on and meets the doubtful cells when most of their lines are known. One learning
//! search on *Knotty* meets 1 conflict before its two solutions, and two racing decide
//! *Knotty*, *Meow* and *Faase* in under a second each (a random 100x100 picture at density 0.5
//! in four of ten within a few seconds), where from the first round alone they took minutes or
//! stayed undecided.

mod decimation;
mod shares;

pub(super) use decimation::decimated_guess;

use std::sync::Arc;

use super::order::{FirstGuess, Settled};
use crate::grid::{Cell, Grid};
use crate::puzzle::{LineId, Puzzle};
use shares::LineShares;

/// Lines' `(blocks + 1) x (length + 1)` summed over the grid, above which no first guess is
/// made (cells start empty, in variable order): it bounds the cost of one round. The figures
/// behind this and the next constants are in docs/tuning.md, "Constants".
const ROUND_LIMIT: usize = 1 << 24;
/// The same summed over all the rounds, which stop when it would be passed.
const WORK_LIMIT: usize = 1 << 27;
/// The most rounds, for grids of `MAX_ROUNDS x CELLS_PER_ROUND` cells (80x80) or more.
const MAX_ROUNDS: usize = 200;
/// Smaller grids get a round for every this many cells: their searches need fewer conflicts
/// than the rounds would cost.
const CELLS_PER_ROUND: usize = 32;
/// The fewest rounds, for the smallest grids (25x25 and below).
const MIN_ROUNDS: usize = 20;
/// Lines of a round between two questions to the stop flag.
const LINES_BETWEEN_STOP_CHECKS: usize = 64;
/// Beliefs that no round moves by more than this have settled.
const SETTLED: f64 = 1e-4;
/// How far a message may go towards certainty before it weighs placements (see
/// [`message_floor`]).
const FLOOR: f64 = 0.01;

/// The first guess for a search from `root`, or `None` when the grid's lines are too many and
/// too long for one round of the bound above, or when `stop`, asked before each round, says
/// so (the search is ending).
pub(super) fn first_guess(
    puzzle: &Puzzle,
    root: &Grid,
    stop: &mut dyn FnMut() -> bool,
) -> Option<FirstGuess> {
    guess_within(puzzle, root, max_rounds(root), stop)
}

/// The most rounds the beliefs get on `root`'s grid: one for every [`CELLS_PER_ROUND`] cells,
/// from [`MIN_ROUNDS`] to [`MAX_ROUNDS`].
fn max_rounds(root: &Grid) -> usize {
    (root.height() * root.width() / CELLS_PER_ROUND).clamp(MIN_ROUNDS, MAX_ROUNDS)
}

/// [`first_guess`] after at most `max_rounds` rounds.
fn guess_within(
    puzzle: &Puzzle,
    root: &Grid,
    max_rounds: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Option<FirstGuess> {
    let mut beliefs = Beliefs::new(puzzle, root)?;
    beliefs.settle(root, max_rounds, stop);
    // Stopped: no guess, whose sort would cost a huge grid a good part of a second.
    if stop() {
        return None;
    }
    Some(beliefs.guess(root))
}

impl<'p> Beliefs<'p> {
    /// The guess these beliefs make on `root`: each cell the value they favour, the surest
    /// cells first; with the messages, for decimation to go on from.
    fn guess(&self, root: &Grid) -> FirstGuess {
        let mut order: Vec<u32> = (0..self.belief.len() as u32).collect();
        // Stable: among equally sure cells, variable order.
        order.sort_by(|&a, &b| {
            let sureness = |c: u32| self.sureness(c as usize);
            sureness(b).total_cmp(&sureness(a))
        });
        FirstGuess {
            phases: self.favoured_grid(root),
            order,
            settled: Some(Arc::new(Settled {
                from_rows: self.from_rows.clone(),
                from_cols: self.from_cols.clone(),
                belief: self.belief.clone(),
                spent: self.spent,
            })),
        }
    }

    /// Beliefs that go on from `settled` on `root`; `None` as for [`Beliefs::new`].
    fn resume(puzzle: &'p Puzzle, root: &Grid, settled: &Settled) -> Option<Self> {
        let mut beliefs = Beliefs::new(puzzle, root)?;
        beliefs.from_rows.clone_from(&settled.from_rows);
        beliefs.from_cols.clone_from(&settled.from_cols);
        beliefs.belief.clone_from(&settled.belief);
        beliefs.spent = settled.spent;
        Some(beliefs)
    }
}

/// Messages between the lines and their cells, with the beliefs they give and the work they
/// took.
struct Beliefs<'p> {
    puzzle: &'p Puzzle,
    width: usize,
    lines: Vec<(LineId, usize)>,
    /// The chance that each cell (row-major) is filled, by its row.
    from_rows: Vec<f64>,
    /// The chance that each cell is filled, by its column.
    from_cols: Vec<f64>,
    /// The chance that each cell is filled, by both.
    belief: Vec<f64>,
    /// Work of the rounds so far (see [`WORK_LIMIT`]).
    spent: usize,
    cells: Vec<Cell>,
    prior: Vec<f64>,
    shares: LineShares,
}

impl<'p> Beliefs<'p> {
    /// No opinion yet; `None` when one round would pass [`ROUND_LIMIT`].
    fn new(puzzle: &'p Puzzle, root: &Grid) -> Option<Self> {
        let (height, width) = (root.height(), root.width());
        let lines: Vec<(LineId, usize)> = (0..height)
            .map(|row| (LineId::Row(row), width))
            .chain((0..width).map(|col| (LineId::Col(col), height)))
            .collect();
        let beliefs = Beliefs {
            puzzle,
            width,
            lines,
            from_rows: vec![0.5; height * width],
            from_cols: vec![0.5; height * width],
            belief: vec![0.5; height * width],
            spent: 0,
            cells: Vec::new(),
            prior: Vec::new(),
            shares: LineShares::default(),
        };
        (beliefs.work(root) <= ROUND_LIMIT).then_some(beliefs)
    }

    /// The work of one round on `grid`: `(blocks + 1) x (length + 1)` summed over its lines
    /// that have an unknown cell.
    fn work(&self, grid: &Grid) -> usize {
        self.lines
            .iter()
            .filter(|&&(line, len)| {
                let (filled, empty) = grid.line(line);
                (0..len).any(|i| (filled[i / 64] | empty[i / 64]) >> (i % 64) & 1 == 0)
            })
            .map(|&(line, len)| (self.puzzle.clue(line).blocks().len() + 1) * (len + 1))
            .sum()
    }

    /// How sure the beliefs are of cell `c`: 0 (no idea) to 0.5 (certain).
    fn sureness(&self, c: usize) -> f64 {
        (self.belief[c] - 0.5).abs()
    }

    /// The value the beliefs favour for cell `c`.
    fn favours(&self, c: usize) -> bool {
        self.belief[c] > 0.5
    }

    /// Runs rounds on `grid` until the beliefs settle, the likeliest grid satisfies every
    /// clue, `max_rounds` have run, the next round would pass [`WORK_LIMIT`] or `stop` says
    /// so.
    fn settle(&mut self, grid: &Grid, max_rounds: usize, stop: &mut dyn FnMut() -> bool) {
        let work = self.work(grid);
        for _ in 0..max_rounds {
            if self.spent > 0 && self.spent + work > WORK_LIMIT || stop() {
                return;
            }
            self.spent += work;
            let Some(moved) = self.round(grid, stop) else {
                return;
            };
            if moved < SETTLED || self.puzzle.check_grid(&self.favoured_grid(grid)).is_ok() {
                return;
            }
        }
    }

    /// One round: every row, then every column, sends its cells new messages. Returns the
    /// most any belief moved, or `None` when `stop`, asked every [`LINES_BETWEEN_STOP_CHECKS`]
    /// lines (a round of a 2000x2000 grid takes a third of a second), says so.
    fn round(&mut self, grid: &Grid, stop: &mut dyn FnMut() -> bool) -> Option<f64> {
        let width = self.width;
        let cell_of = |line: LineId, i: usize| match line {
            LineId::Row(row) => row * width + i,
            LineId::Col(col) => i * width + col,
        };
        for (index, &(line, len)) in self.lines.iter().enumerate() {
            if index % LINES_BETWEEN_STOP_CHECKS == LINES_BETWEEN_STOP_CHECKS - 1 && stop() {
                return None;
            }
            let (to, from) = match line {
                LineId::Row(_) => (&mut self.from_rows, &self.from_cols),
                LineId::Col(_) => (&mut self.from_cols, &self.from_rows),
            };
            let cells = &mut self.cells;
            cells.clear();
            cells.extend((0..len).map(|i| {
                let c = cell_of(line, i);
                grid.cell(c / width, c % width)
            }));
            if !cells.contains(&Cell::Unknown) {
                continue;
            }
            let floor = message_floor(len);
            let prior = &mut self.prior;
            prior.clear();
            prior.extend((0..len).map(|i| from[cell_of(line, i)].clamp(floor, 1.0 - floor)));
            let blocks = self.puzzle.clue(line).blocks();
            let Some(shares) = self.shares.compute(blocks, cells, prior) else {
                continue;
            };
            for (i, (&share, &p)) in shares.iter().zip(prior.iter()).enumerate() {
                let told = share / p;
                let untold = (1.0 - share) / (1.0 - p);
                let message = told / (told + untold);
                let at = cell_of(line, i);
                to[at] = 0.5 * to[at] + 0.5 * message;
            }
        }
        let mut moved = 0.0f64;
        for (c, b) in self.belief.iter_mut().enumerate() {
            let new = match grid.cell(c / width, c % width) {
                Cell::Filled => 1.0,
                Cell::Empty => 0.0,
                Cell::Unknown => {
                    let (r, k) = (self.from_rows[c], self.from_cols[c]);
                    let filled = r * k;
                    let new = filled / (filled + (1.0 - r) * (1.0 - k));
                    if new.is_finite() { new } else { 0.5 }
                }
            };
            moved = moved.max((new - *b).abs());
            *b = new;
        }
        Some(moved)
    }

    /// The values the beliefs favour, row-major, known cells as they are in `grid`.
    fn favoured_grid(&self, grid: &Grid) -> Vec<bool> {
        let width = self.width;
        (0..self.belief.len())
            .map(|c| match grid.cell(c / width, c % width) {
                Cell::Filled => true,
                Cell::Empty => false,
                Cell::Unknown => self.favours(c),
            })
            .collect()
    }
}

/// The least chance a message may give a value in a line of `len` cells: a placement's weight
/// is a product of one factor per cell, each at least `floor / (1 - floor)`, which must stay
/// above 1e-200, far from the smallest `f64` (1e-308). Always below one half, so that the
/// clamp between it and `1 - floor` has a range, for lines of any length.
fn message_floor(len: usize) -> f64 {
    // The least factor a line of `len` cells allows, then the chance that gives it.
    let factor = 10f64.powf(-200.0 / len.max(1) as f64);
    FLOOR.max(factor / (1.0 + factor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_floors_leave_a_range_at_every_length() {
        // Lines of 665 cells and more once had a floor above one half, and `clamp` panicked.
        for len in 0..=8192 {
            let floor = message_floor(len);
            assert!((FLOOR..0.5).contains(&floor), "{len}: {floor}");
            let least_product = (floor / (1.0 - floor)).powi(len.max(1) as i32);
            assert!(least_product >= 1e-201, "{len}: {least_product:e}");
            assert_eq!(0.5f64.clamp(floor, 1.0 - floor), 0.5);
        }
    }

    #[test]
    fn long_lines_get_a_first_guess() {
        // Two solutions in 2 rows of 665 and 4,096 cells (the first two columns `1`), and one
        // row of 4,096 with a block every other cell: the guess must satisfy its lines' sums.
        for width in [665, 4096] {
            let mut picture = vec![false; 2 * width];
            picture[0] = true;
            picture[width + 1] = true;
            let puzzle = Puzzle::from_picture(2, width, &picture).expect("a picture");
            let guess = first_guess(&puzzle, &Grid::new(2, width), &mut || false);
            let guess = guess.expect("a small puzzle");
            assert_eq!(guess.phases.len(), 2 * width);
            assert!(guess.phases[2..width].iter().all(|&filled| !filled));
        }
        let picture: Vec<bool> = (0..4096).map(|i| i % 2 == 0).collect();
        let puzzle = Puzzle::from_picture(1, 4096, &picture).expect("a picture");
        let guess = first_guess(&puzzle, &Grid::new(1, 4096), &mut || false).expect("a guess");
        assert_eq!(guess.phases, picture);
    }

    #[test]
    fn phases_follow_rows_and_columns() {
        // Rows `2` and `0`, columns `1` and `1`: only the top row is filled.
        let puzzle = Puzzle::from_picture(2, 2, &[true, true, false, false]).expect("a picture");
        let guess = first_guess(&puzzle, &Grid::new(2, 2), &mut || false).expect("a small puzzle");
        assert_eq!(guess.phases, vec![true, true, false, false]);
        let mut order = guess.order.clone();
        order.sort_unstable();
        assert_eq!(order, [0, 1, 2, 3], "every cell once");
    }

    #[test]
    fn known_cells_keep_their_values() {
        // Row `1` over 2 cells: either cell; the root says the second.
        let puzzle = Puzzle::from_picture(1, 2, &[false, true]).expect("a picture");
        let mut root = Grid::new(1, 2);
        root.set_unknown(0, 1, true);
        root.set_unknown(0, 0, false);
        let guess = first_guess(&puzzle, &root, &mut || false).expect("a small puzzle");
        assert_eq!(guess.phases, vec![false, true]);
    }

    #[test]
    fn rounds_find_the_grid_the_first_count_misses() {
        // Random pictures of 12x12 whose clues have a single solution (8 of these 20): after
        // the first round (independent witnesses) the likeliest grid is wrong in places in
        // every one; the rounds that follow reach the solution in all 8.
        let mut rng = crate::rng::SplitMix(11);
        let (mut unique, mut reached, mut reached_first) = (0, 0, 0);
        for _ in 0..20 {
            let picture: Vec<bool> = (0..144).map(|_| rng.chance(1, 2)).collect();
            let puzzle = Puzzle::from_picture(12, 12, &picture).expect("a picture");
            let root = Grid::new(12, 12);
            let (grids, exhausted) = crate::test_enumeration::first_solutions(&puzzle, 2);
            if !(grids.len() == 1 && exhausted) {
                continue;
            }
            unique += 1;
            let guess = first_guess(&puzzle, &root, &mut || false).expect("a small puzzle");
            reached += usize::from(guess.phases == picture);
            let first = guess_within(&puzzle, &root, 1, &mut || false).expect("a small puzzle");
            reached_first += usize::from(first.phases == picture);
        }
        assert!(
            unique >= 5 && reached * 4 >= unique * 3 && reached_first < reached,
            "of {unique} unique pictures, {reached} reached, {reached_first} after one round"
        );
    }
}
