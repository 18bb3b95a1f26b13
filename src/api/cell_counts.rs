//! Per-cell counts by enumeration: in how many of the solutions seen each cell is filled
//! (black and white) or has each colour (colour), for when profiles cannot count them
//! ([`EnumerationNeeded`](super::EnumerationNeeded)), in the shapes of
//! [`ExactOutcome::CountedPerCell`](super::ExactOutcome::CountedPerCell) and
//! [`ExactOutcome::CountedPerColour`](super::ExactOutcome::CountedPerColour).

use std::sync::Arc;

use num_bigint::BigUint;

use super::solver::{AnyGrid, AnySolver};
use super::{CountFailure, Counter, ExactOutcome};
use crate::color::AnyPuzzle;
use crate::flow::Flow;
use crate::search::{Outcome, SolveError, SolverOptions};

/// Per-cell counts over the solutions added, for either palette.
///
/// ```
/// use nonoenum::{AnyPuzzle, CellCounts, Flow, SolverOptions};
///
/// let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?; // the two diagonals
/// let mut counts = CellCounts::new(&puzzle);
/// puzzle.solver(SolverOptions::default()).run(|grid| {
///     counts.add(grid);
///     Flow::Continue
/// })?;
/// assert_eq!(counts.solutions(), 2);
/// assert_eq!(counts.per_cell(), Some(vec![vec![1u32.into(); 2]; 2]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CellCounts {
    width: usize,
    /// Palette indices a cell can hold: 2 in black and white (0 empty, 1 filled).
    values: usize,
    /// Whether the puzzle is a colour one.
    colour: bool,
    /// Cell by cell, row-major, one count per palette index.
    counts: Vec<u64>,
    solutions: u64,
}

impl CellCounts {
    /// No solution counted yet, for `puzzle`'s grid and palette.
    pub fn new(puzzle: &AnyPuzzle) -> Self {
        let (height, width, values, colour) = match puzzle {
            AnyPuzzle::Bw(p) => (p.height(), p.width(), 2, false),
            AnyPuzzle::Color(p) => (p.height(), p.width(), p.colors.len(), true),
        };
        CellCounts {
            width,
            values,
            colour,
            counts: vec![0; height * width * values],
            solutions: 0,
        }
    }

    /// Adds one solution of the puzzle (every cell decided).
    pub fn add(&mut self, solution: AnyGrid<'_>) {
        self.add_cells(&solution.to_cells());
    }

    /// Adds one solution given as its cells' palette indices, row-major.
    fn add_cells(&mut self, cells: &[u8]) {
        for (i, &value) in cells.iter().enumerate() {
            if let Some(count) = self.counts.get_mut(i * self.values + usize::from(value)) {
                *count += 1;
            }
        }
        self.solutions += 1;
    }

    /// Runs `solver`, a search of `puzzle`, adding each solution it finds, until it has
    /// found them all, more than `limit` of them (if given), or its cancel flag is raised.
    /// The tally holds at most `limit` solutions; the search looks for one more, so that
    /// [`Outcome::exhausted`] is true when exactly `limit` exist.
    pub fn enumerate(
        puzzle: &AnyPuzzle,
        solver: &AnySolver<'_>,
        limit: Option<u64>,
    ) -> Result<(Outcome, CellCounts), SolveError> {
        let mut counts = CellCounts::new(puzzle);
        let cells = counts.counts.len() / counts.values.max(1);
        let max = limit.unwrap_or(u64::MAX);
        // Each solution's cells, one byte each, written on the thread that found it.
        let writer = |grid: AnyGrid<'_>, out: &mut Vec<u8>| out.extend(grid.to_cells());
        let past_limit = limit.map(|n| n.saturating_add(1));
        let mut outcome = solver.run_batched(&writer, past_limit, |bytes, solutions| {
            for i in 0..solutions.min(max - counts.solutions) as usize {
                counts.add_cells(bytes.get(i * cells..(i + 1) * cells).unwrap_or_default());
            }
            Flow::Continue
        })?;
        outcome.exhausted &= outcome.solutions <= max;
        outcome.solutions = counts.solutions;
        Ok((outcome, counts))
    }

    /// The solutions added.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }

    /// Black and white: row by row, in how many solutions each cell is filled; `None` for a
    /// colour puzzle.
    pub fn per_cell(&self) -> Option<Vec<Vec<BigUint>>> {
        (!self.colour).then(|| self.rows(|cell| BigUint::from(cell[1])))
    }

    /// Colour: row by row and cell by cell, in how many solutions the cell has each palette
    /// index, the background first; `None` for a black-and-white puzzle.
    pub fn per_colour(&self) -> Option<Vec<Vec<Vec<BigUint>>>> {
        self.colour
            .then(|| self.rows(|cell| cell.iter().map(|&n| BigUint::from(n)).collect()))
    }

    /// Each cell's counts through `f`, row by row.
    fn rows<T>(&self, f: impl Fn(&[u64]) -> T) -> Vec<Vec<T>> {
        let row = |cells: &[u64]| cells.chunks(self.values).map(&f).collect();
        self.counts
            .chunks(self.values * self.width.max(1))
            .map(row)
            .collect()
    }
}

impl Counter<'_> {
    /// Counts as [`Counter::run`] does; where only an enumeration answers
    /// ([`ExactOutcome::NeedsEnumeration`]: per-cell counts that need too many profiles), it
    /// enumerates the solutions, on the same threads and cancel flag, and tallies the per-cell
    /// counts with [`CellCounts`] (the policy of [`CountMethod::Auto`](super::CountMethod)).
    pub fn run_or_enumerate(&self) -> Result<ExactOutcome, CountFailure> {
        match self.run()? {
            ExactOutcome::NeedsEnumeration(_) => self.enumerate(),
            outcome => Ok(outcome),
        }
    }

    /// The count and the per-cell counts, by enumerating the solutions.
    fn enumerate(&self) -> Result<ExactOutcome, CountFailure> {
        let options = SolverOptions {
            threads: self.options.threads,
            ..SolverOptions::default()
        };
        let solver = self
            .puzzle
            .solver(options)
            .with_cancel_flag(Arc::clone(&self.cancel));
        let (outcome, counts) = CellCounts::enumerate(self.puzzle, &solver, None)?;
        let count = BigUint::from(outcome.solutions);
        if !outcome.exhausted {
            return Ok(ExactOutcome::Cancelled { at_least: count });
        }
        // Only per-cell counts need an enumeration: the outcome is per cell or per colour.
        Ok(match counts.per_cell() {
            Some(per_cell) => ExactOutcome::CountedPerCell { count, per_cell },
            None => ExactOutcome::CountedPerColour {
                count,
                per_colour: counts.per_colour().unwrap_or_default(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::Flow;
    use crate::search::SolverOptions;
    use crate::test_strategies::{colour_bands, permutations};
    use crate::{CountOptions, ExactOutcome};

    /// Per-cell counts by enumeration, and the brute-force sum over the solutions' cells.
    fn enumerated(puzzle: &AnyPuzzle) -> (CellCounts, Vec<Vec<u8>>) {
        let mut counts = CellCounts::new(puzzle);
        let mut all = Vec::new();
        let _ = puzzle
            .solver(SolverOptions::default())
            .run(|grid| {
                counts.add(grid);
                all.push(grid.to_cells());
                Flow::Continue
            })
            .expect("enumerates");
        (counts, all)
    }

    /// Options that count per cell, by profiles where they can.
    fn per_cell_options() -> CountOptions {
        CountOptions {
            per_cell: true,
            ..CountOptions::default()
        }
    }

    /// The per-cell count of `puzzle` by profiles.
    fn counted_by_profiles(puzzle: &AnyPuzzle) -> ExactOutcome {
        puzzle.counter(per_cell_options()).run().expect("counts")
    }

    #[test]
    fn black_and_white_counts_are_the_sums_over_the_solutions_and_the_profiles_counts() {
        let puzzle = AnyPuzzle::Bw(permutations(4));
        let (counts, all) = enumerated(&puzzle);
        assert_eq!(counts.solutions(), 24);
        let per_cell = counts.per_cell().expect("black and white");
        for (r, row) in per_cell.iter().enumerate() {
            for (c, count) in row.iter().enumerate() {
                let filled = all.iter().filter(|cells| cells[r * 4 + c] == 1).count();
                assert_eq!(*count, BigUint::from(filled));
            }
        }
        assert_eq!(counts.per_colour(), None);
        match counted_by_profiles(&puzzle) {
            ExactOutcome::CountedPerCell {
                per_cell: exact, ..
            } => assert_eq!(per_cell, exact),
            other => panic!("counted per cell by profiles: {other:?}"),
        }
    }

    #[test]
    fn an_enumeration_with_a_limit_tallies_that_many_solutions() {
        let puzzle = AnyPuzzle::Bw(permutations(4));
        let solver = puzzle.solver(SolverOptions::default());
        let (outcome, counts) = CellCounts::enumerate(&puzzle, &solver, Some(5)).expect("runs");
        assert_eq!((outcome.solutions, counts.solutions()), (5, 5));
        assert!(!outcome.exhausted);
        let filled: BigUint = counts.per_cell().expect("black and white")[0].iter().sum();
        assert_eq!(
            filled,
            BigUint::from(5u32),
            "one filled cell a row in each solution"
        );
    }

    #[test]
    fn an_enumeration_limited_to_the_count_is_complete() {
        let puzzle = AnyPuzzle::Bw(permutations(4));
        let solver = puzzle.solver(SolverOptions::default());
        for (limit, exhausted) in [(23, false), (24, true), (25, true)] {
            let (outcome, counts) =
                CellCounts::enumerate(&puzzle, &solver, Some(limit)).expect("runs");
            let found = limit.min(24);
            assert_eq!((outcome.solutions, counts.solutions()), (found, found));
            assert_eq!(outcome.exhausted, exhausted, "limit {limit}");
        }
    }

    #[test]
    fn per_cell_counts_fall_back_to_an_enumeration_when_profiles_cannot() {
        let puzzle = AnyPuzzle::Bw(permutations(5));
        let tiny = CountOptions {
            limits: crate::count::CountLimits {
                max_profiles: 1,
                ..Default::default()
            },
            ..per_cell_options()
        };
        let counter = puzzle.counter(tiny);
        assert!(matches!(
            counter.run().expect("counts"),
            ExactOutcome::NeedsEnumeration(_)
        ));
        let by_enumeration = counter.run_or_enumerate().expect("enumerates");
        let by_profiles = puzzle
            .counter(per_cell_options())
            .run_or_enumerate()
            .expect("counts");
        assert!(matches!(by_profiles, ExactOutcome::CountedPerCell { .. }));
        assert_eq!(by_enumeration, by_profiles);
    }

    #[test]
    fn colour_counts_are_the_sums_over_the_solutions_and_the_profiles_counts() {
        let puzzle = AnyPuzzle::Color(colour_bands(2, 3));
        let (counts, all) = enumerated(&puzzle);
        let per_colour = counts.per_colour().expect("colour");
        let width = 3;
        for (r, row) in per_colour.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                for (value, count) in cell.iter().enumerate() {
                    let n = all
                        .iter()
                        .filter(|cells| usize::from(cells[r * width + c]) == value)
                        .count();
                    assert_eq!(*count, BigUint::from(n));
                }
            }
        }
        match counted_by_profiles(&puzzle) {
            ExactOutcome::CountedPerColour {
                per_colour: exact, ..
            } => assert_eq!(per_colour, exact),
            other => panic!("counted per colour by profiles: {other:?}"),
        }
    }
}
