//! Whether some unknown cells of a grid can be completed: the question an exact counter asks
//! before it spends a subtree on cells that may have no completion at all.
//!
//! A [`CompletionChecker`] is one learning search kept for many checks. Each check assumes the
//! known cells of its grid and decides only the cells it is given; what it learns holds for
//! every grid of the puzzle, so later checks, of other grids, start from it. The saved phases
//! carry over as well: the values of the last completion found are tried first, which finds a
//! completion of a nearby grid at once more often than not.

use super::engine::{Assumed, Engine};
use super::schedule::{self, Schedule};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::search::Flow;

/// The answer of a check, a completion being a grid of type `G`.
#[derive(Debug)]
pub enum Completion<G = Grid> {
    /// A completion: the grid with every checked cell set (other unknown cells may be set too,
    /// by propagation).
    Found(G),
    /// The checked cells have no completion that agrees with the grid's known cells, given
    /// that the grid's other unknown cells have one.
    Impossible,
    /// Not decided within the conflict budget, or stopped.
    Unknown,
}

/// A learning search that checks grid after grid of one puzzle.
pub struct CompletionChecker<'p> {
    engine: Engine<'p>,
    schedule: Schedule,
}

impl<'p> CompletionChecker<'p> {
    /// A checker for grids of `puzzle` that extend `root` (a grid at a propagation fixpoint).
    pub fn new(puzzle: &'p Puzzle, root: &Grid) -> Self {
        CompletionChecker {
            engine: Engine::new(puzzle, root),
            schedule: Schedule::default(),
        }
    }

    /// Whether the unknown `cells` of `grid` (a grid that extends the root, at a propagation
    /// fixpoint, in which no line ties them to its other unknown cells) can be completed.
    /// Gives up after `max_conflicts` conflicts, or when `stopped` says so (it is asked every
    /// 64 conflicts and 256 decisions).
    ///
    /// The answer [`Completion::Impossible`] is sound only if the other unknown cells of
    /// `grid` have a completion: a learned clause may hold only because they have none.
    pub fn check(
        &mut self,
        grid: &Grid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        mut stopped: impl FnMut() -> bool,
    ) -> Completion {
        let answer = match self.engine.assume(grid, cells) {
            Assumed::Contradiction => Completion::Impossible,
            Assumed::Ready => {
                let start = self.engine.stats.conflicts;
                let mut found = None;
                let exhausted = schedule::run_on(
                    &mut self.engine,
                    &mut self.schedule,
                    |stats| stats.conflicts - start >= max_conflicts || stopped(),
                    |grid| {
                        found = Some(grid.clone());
                        Flow::Stop
                    },
                );
                match found {
                    Some(grid) => Completion::Found(grid),
                    None if exhausted => Completion::Impossible,
                    None => Completion::Unknown,
                }
            }
        };
        self.engine.release();
        answer
    }

    /// The counters of every check so far.
    pub fn stats(&self) -> super::LearnStats {
        self.engine.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::grid::Cell;
    use crate::puzzle::Given;
    use crate::search::{Solver, SolverOptions};

    fn picture(max: usize) -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
        (2..=max, 2..=max).prop_flat_map(|(h, w)| {
            (
                Just(h),
                Just(w),
                proptest::collection::vec(proptest::bool::weighted(0.4), h * w),
            )
        })
    }

    fn unknown_cells(grid: &Grid) -> Vec<(u32, u32)> {
        let mut cells = Vec::new();
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                if grid.cell(row, col) == Cell::Unknown {
                    cells.push((row as u32, col as u32));
                }
            }
        }
        cells
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// One checker asked about grid after grid (the puzzle with a few cells given, each
        /// time others): it finds a solution that extends the grid exactly when one exists,
        /// what it learned from earlier grids notwithstanding.
        #[test]
        fn a_checker_finds_a_completion_exactly_when_there_is_one(
            (h, w, cells) in picture(8),
            givens in proptest::collection::vec(
                proptest::collection::vec((0usize..64, any::<bool>()), 1..5),
                1..6,
            ),
        ) {
            let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
            let options = SolverOptions { threads: 1, ..SolverOptions::default() };
            let root = Solver::new(&puzzle, options.clone())
                .root()
                .expect("valid")
                .expect("a picture has a solution");
            let mut checker = CompletionChecker::new(&puzzle, &root);
            for given in givens {
                let mut constrained = puzzle.clone();
                for (at, filled) in given {
                    let (row, col) = ((at / w) % h, at % w);
                    constrained.givens.push(Given { row, col, filled });
                }
                let solver = Solver::new(&constrained, options.clone());
                let Ok(Some(grid)) = solver.root() else {
                    continue;
                };
                let solutions = solver.count().expect("search runs").solutions;
                let unknown = unknown_cells(&grid);
                match checker.check(&grid, &unknown, u64::MAX, || false) {
                    Completion::Found(found) => {
                        prop_assert!(solutions > 0);
                        prop_assert!(found.is_complete(), "{}", found.render());
                        prop_assert!(puzzle.check_grid(&found.to_cells()).is_ok());
                        for row in 0..h {
                            for col in 0..w {
                                let known = grid.cell(row, col);
                                prop_assert!(
                                    known == Cell::Unknown || known == found.cell(row, col)
                                );
                            }
                        }
                    }
                    Completion::Impossible => prop_assert_eq!(solutions, 0),
                    Completion::Unknown => prop_assert!(false, "an unlimited check decides"),
                }
            }
        }
    }
}
