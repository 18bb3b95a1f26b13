//! Per-cell counts by profiles: in how many solutions each cell is filled (in colour: holds
//! each colour), without visiting the solutions. A forward pass keeps every layer of the
//! dynamic program (profile -> partial grids leading to it); a backward pass gives each profile
//! its number of completions. A placement of step line `s` from profile `P` to `P'` then lies
//! in `ways(P) x completions(P')` solutions, and adds that to every cell it fills.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::aside::drop_aside;
use super::{
    Key, LayerLimit, Layout, NARROW_PROFILE_BYTES, ProfileError, ProfileProblem, Scratch,
    with_narrowest_key, within_bytes,
};
use crate::count::Stop;
use crate::count::countable::Countable;
use crate::count::dfa::{DEAD, Successors};
use crate::count::tally::Tally;
use crate::count::{BigUint, CountError, orientations};
#[cfg(test)]
use crate::grid::Grid;
#[cfg(test)]
use crate::puzzle::Puzzle;

/// The most bytes the layers of a per-cell count may take together (every layer is kept):
/// the default limit's 2 million profiles of a random picture take some 100 to 300 MB, and a
/// profile of a grid 2,000 cells wide 4 KB.
const PER_CELL_BYTES: usize = 1 << 30;

/// The solutions of a grid, and in how many of them each cell is filled (holds each colour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CellCounts<T> {
    /// The number of solutions.
    pub total: T,
    /// For each step line, in the order the walk fixes them, each of its cells and each
    /// colour (values 1 and up; black and white has one, filled): in how many solutions the
    /// cell holds the colour, at `cell * colours + colour - 1`.
    pub filled: Vec<Vec<T>>,
}

impl<S: Successors> ProfileProblem<S> {
    /// In how many grids that satisfy every line each cell is filled, by step line (see
    /// [`CellCounts`]). Keeps every layer, so gives up when the layers together hold more than
    /// `max_profiles` profiles.
    pub(crate) fn count_per_cell<T: Tally>(
        &self,
        max_profiles: usize,
        cancel: &AtomicBool,
    ) -> Result<CellCounts<T>, ProfileError> {
        let layout = Layout::new(&self.tracked);
        with_narrowest_key!(&layout, K => {
            self.count_per_cell_with::<K, T>(&layout, max_profiles, cancel)
        })
    }

    fn count_per_cell_with<K: Key, T: Tally>(
        &self,
        layout: &Layout,
        max_profiles: usize,
        cancel: &AtomicBool,
    ) -> Result<CellCounts<T>, ProfileError> {
        let width = self.tracked.len();
        let none = CellCounts {
            total: T::zero(),
            filled: vec![vec![T::zero(); width * (self.values - 1)]; self.steps.len()],
        };
        let mut start = K::blank(width);
        for (t, line) in self.tracked.iter().enumerate() {
            if line.start() == DEAD {
                return Ok(none);
            }
            start.set(layout, t, line.start());
        }
        if self.steps.iter().any(|s| s.start() == DEAD) {
            return Ok(none);
        }
        // Forward: every layer, each profile with the partial grids leading to it.
        let bytes = PER_CELL_BYTES.max(max_profiles.saturating_mul(NARROW_PROFILE_BYTES));
        let max_profiles = within_bytes::<K, T>(max_profiles, width, bytes);
        let mut layers: Vec<Vec<(K, T)>> = vec![vec![(start, T::one())]];
        let mut kept = 1;
        for step in 0..self.steps.len() {
            let left = max_profiles.saturating_sub(kept);
            let limit = LayerLimit::at_most(left);
            let next = match self.next_layer(layout, step, &layers[step], limit, Stop::from(cancel))
            {
                Ok(next) => next,
                Err(e) => {
                    drop_aside(layers, kept);
                    return Err(match e {
                        ProfileError::TooManyProfiles { layer, .. } => {
                            ProfileError::TooManyProfiles {
                                layer,
                                profiles: kept,
                                limit: max_profiles,
                            }
                        }
                        other => other,
                    });
                }
            };
            if next.is_empty() {
                return Ok(none);
            }
            kept += next.len();
            layers.push(next.into_iter().collect());
        }
        // Backward: the completions of each profile, layer by layer from the last (whose
        // profiles are complete grids), and what each step's placements add to its cells.
        let mut completions: FxHashMap<K, T> = layers
            .pop()
            .unwrap_or_default()
            .into_iter()
            .map(|(profile, _)| (profile, T::one()))
            .collect();
        let mut filled = Vec::with_capacity(self.steps.len());
        for step in (0..self.steps.len()).rev() {
            let entries = layers.pop().unwrap_or_default();
            let (counts, cells) = match self.step_back(layout, step, &entries, &completions, cancel)
            {
                Ok(stepped) => stepped,
                Err(e) => {
                    drop_aside((layers, entries, completions), kept);
                    return Err(e);
                }
            };
            completions = entries
                .into_iter()
                .zip(counts)
                .map(|((profile, _), count)| (profile, count))
                .collect();
            filled.push(cells);
        }
        filled.reverse();
        let total = completions.into_values().next().unwrap_or_else(T::zero);
        Ok(CellCounts { total, filled })
    }

    /// For each profile of `entries` (the layer before step line `step`, each with its partial
    /// grids), its completions, given those of the next layer's profiles (`later`); and, for
    /// each cell of the step line and each colour, the solutions in which its placements give
    /// the cell the colour (see [`CellCounts::filled`]).
    fn step_back<K: Key, T: Tally>(
        &self,
        layout: &Layout,
        step: usize,
        entries: &[(K, T)],
        later: &FxHashMap<K, T>,
        cancel: &AtomicBool,
    ) -> Result<(Vec<T>, Vec<T>), ProfileError> {
        let (width, colours) = (self.tracked.len(), self.values - 1);
        let overflow = AtomicBool::new(false);
        let add = |sum: &mut T, more: &T| {
            if sum.add(more).is_err() {
                overflow.store(true, Ordering::Relaxed);
            }
        };
        let per_profile: Vec<(T, Vec<T>)> = entries
            .par_iter()
            .map_init(
                || Scratch::new(&self.steps[step], width),
                |scratch, (profile, ways)| {
                    // Completions through each cell and colour the placements give it, then
                    // in all.
                    let mut through = vec![T::zero(); width * colours];
                    let mut count = T::zero();
                    if cancel.load(Ordering::Relaxed) || overflow.load(Ordering::Relaxed) {
                        return (count, through);
                    }
                    self.expand(layout, step, profile, scratch, |successor, placement| {
                        if let Some(after) = later.get(successor) {
                            add(&mut count, after);
                            for (cell, &value) in placement.iter().enumerate() {
                                if value != 0 {
                                    add(
                                        &mut through[cell * colours + usize::from(value) - 1],
                                        after,
                                    );
                                }
                            }
                        }
                        !overflow.load(Ordering::Relaxed)
                    });
                    for sum in &mut through {
                        match ways.mul(sum) {
                            Ok(product) => *sum = product,
                            Err(_) => overflow.store(true, Ordering::Relaxed),
                        }
                    }
                    (count, through)
                },
            )
            .collect();
        if cancel.load(Ordering::Relaxed) {
            return Err(ProfileError::Cancelled);
        }
        let mut cells = vec![T::zero(); width * colours];
        let mut counts = Vec::with_capacity(per_profile.len());
        for (count, through) in per_profile {
            for (sum, more) in cells.iter_mut().zip(&through) {
                add(sum, more);
            }
            counts.push(count);
        }
        if overflow.load(Ordering::Relaxed) {
            return Err(ProfileError::Overflow);
        }
        Ok((counts, cells))
    }
}

/// The completions of `root` (a probed grid of `puzzle`) and, row by row, in how many of them
/// each cell is filled, by profiles (rows fixed one by one, or columns where there are fewer),
/// keeping at most `max_profiles` in all layers together.
#[cfg(test)]
pub(crate) fn count_per_cell_by_profiles(
    puzzle: &Puzzle,
    root: &Grid,
    max_profiles: usize,
    cancel: &AtomicBool,
) -> Result<(BigUint, Vec<Vec<BigUint>>), CountError> {
    let (total, rows) = count_per_colour_by_profiles(puzzle, root, max_profiles, cancel)?;
    let filled = rows
        .into_iter()
        .map(|row| row.into_iter().flatten().collect())
        .collect();
    Ok((total, filled))
}

/// The completions of `root` (a probed grid of `puzzle`, black and white or colour) and, row
/// by row and cell by cell, in how many of them the cell holds each colour (values 1 and up:
/// black and white has one, filled), by profiles (rows fixed one by one, or columns where
/// there are fewer), keeping at most `max_profiles` in all layers together.
#[allow(
    clippy::type_complexity,
    reason = "the count, then rows of cells of colours"
)]
pub(crate) fn count_per_colour_by_profiles<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    max_profiles: usize,
    cancel: &AtomicBool,
) -> Result<(BigUint, Vec<Vec<Vec<BigUint>>>), CountError> {
    let orientation = orientations(puzzle)[0];
    let stopped = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let problem = ProfileProblem::new(puzzle, root, orientation, &stopped)
        .map_err(CountError::from_building)?;
    let result = match problem.count_per_cell::<u128>(max_profiles, cancel) {
        Err(ProfileError::Overflow) => problem.count_per_cell::<BigUint>(max_profiles, cancel),
        other => other.map(|counts| CellCounts {
            total: counts.total.to_big(),
            filled: counts
                .filled
                .iter()
                .map(|line| line.iter().map(Tally::to_big).collect())
                .collect(),
        }),
    };
    let counts = result.map_err(ProfileError::into_count_error)?;
    let colours = puzzle.all_values().count_ones() as usize - 1;
    // Step lines are rows, or columns when the walk is transposed.
    let rows = (0..puzzle.size().0)
        .map(|row| {
            (0..puzzle.size().1)
                .map(|col| {
                    let (line, cell) = match orientation.transposed {
                        false => (row, col),
                        true => (col, row),
                    };
                    counts.filled[line][cell * colours..][..colours].to_vec()
                })
                .collect()
        })
        .collect();
    Ok((counts.total, rows))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use num_bigint::BigUint;
    use proptest::prelude::*;

    use crate::count::{CountError, count_per_cell_by_profiles, probed_root};
    use crate::grid::Cell;
    use crate::puzzle::{Given, Puzzle};
    use crate::test_strategies::{diagonal_squares, permutations, random_clues};

    /// The number of solutions and, row by row, in how many each cell is filled, by
    /// enumerating them.
    fn enumerated(puzzle: &Puzzle) -> (BigUint, Vec<Vec<BigUint>>) {
        let (h, w) = (puzzle.height(), puzzle.width());
        let mut filled = vec![vec![0u64; w]; h];
        let mut total = 0u64;
        crate::test_enumeration::each_solution(puzzle, |grid| {
            total += 1;
            for (row, counts) in filled.iter_mut().enumerate() {
                for (col, count) in counts.iter_mut().enumerate() {
                    *count += u64::from(grid.cell(row, col) == Cell::Filled);
                }
            }
            true
        });
        let big = |rows: Vec<Vec<u64>>| {
            rows.into_iter()
                .map(|row| row.into_iter().map(BigUint::from).collect())
                .collect()
        };
        (BigUint::from(total), big(filled))
    }

    /// By profiles, from the probed root; `None` for a puzzle without solutions.
    fn by_profiles(puzzle: &Puzzle, max_profiles: usize) -> Option<(BigUint, Vec<Vec<BigUint>>)> {
        let root = probed_root(puzzle).expect("valid")?;
        let cancel = AtomicBool::new(false);
        Some(count_per_cell_by_profiles(puzzle, &root, max_profiles, &cancel).expect("counts"))
    }

    fn agrees_with_enumeration(puzzle: &Puzzle) -> Result<(), TestCaseError> {
        let (total, filled) = enumerated(puzzle);
        match by_profiles(puzzle, 1 << 20) {
            Some(counted) => prop_assert_eq!(counted, (total, filled)),
            None => prop_assert_eq!(total, BigUint::ZERO),
        }
        Ok(())
    }

    /// The clues of random pictures of 0.4 density, up to `max` cells a side, with some
    /// cells given (taken from the picture, so that it stays a solution).
    fn pictures_with_givens(max: usize) -> impl Strategy<Value = Puzzle> {
        (1..=max, 1..=max).prop_flat_map(|(h, w)| {
            (
                proptest::collection::vec(proptest::bool::weighted(0.4), h * w),
                proptest::collection::vec(0..h * w, 0..3),
            )
                .prop_map(move |(cells, given)| {
                    let mut puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
                    for at in given {
                        let (row, col, filled) = (at / w, at % w, cells[at]);
                        puzzle.givens.push(Given { row, col, filled });
                    }
                    puzzle
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Wide pictures are walked column by column, tall ones row by row: both agree.
        #[test]
        fn per_cell_counts_of_random_pictures_are_those_of_enumeration(
            puzzle in pictures_with_givens(8),
        ) {
            agrees_with_enumeration(&puzzle)?;
        }

        #[test]
        fn per_cell_counts_of_random_clues_are_those_of_enumeration(puzzle in random_clues(7)) {
            agrees_with_enumeration(&puzzle)?;
        }
    }

    /// In the n x n puzzle whose every clue is `1`, each cell is filled in (n - 1)! of the n!
    /// solutions.
    #[test]
    fn each_cell_of_a_permutation_puzzle_is_filled_in_a_nth_of_the_solutions() {
        let factorial = |n: u32| (1..=n).map(BigUint::from).product::<BigUint>();
        for n in [1, 2, 5, 9, 20] {
            let (total, filled) = by_profiles(&permutations(n), 1 << 21).expect("solutions");
            assert_eq!(total, factorial(n as u32), "n = {n}");
            let each = factorial(n as u32 - 1);
            assert!(
                filled.iter().flatten().all(|count| *count == each),
                "n = {n}"
            );
        }
    }

    #[test]
    fn counts_past_u128_are_exact() {
        // 130 independent 2x2 squares on the diagonal, each with its two diagonals: 2^130
        // solutions, each cell of a square filled in half of them.
        let squares = 130;
        let puzzle = diagonal_squares(squares);
        let (total, filled) = by_profiles(&puzzle, 1 << 20).expect("solutions");
        assert_eq!(total, BigUint::from(2u8).pow(squares as u32));
        let half = BigUint::from(2u8).pow(squares as u32 - 1);
        for (row, counts) in filled.iter().enumerate() {
            for (col, count) in counts.iter().enumerate() {
                let expected = if col / 2 == row / 2 {
                    &half
                } else {
                    &BigUint::ZERO
                };
                assert_eq!(count, expected, "({row}, {col})");
            }
        }
    }

    #[test]
    fn the_layers_together_are_held_to_the_limit() {
        let puzzle = permutations(12);
        let root = probed_root(&puzzle).expect("valid").expect("solutions");
        let cancel = AtomicBool::new(false);
        // 2^12 = 4,096 profiles in all: within 5,000, not within 3,000.
        assert!(count_per_cell_by_profiles(&puzzle, &root, 5_000, &cancel).is_ok());
        assert!(matches!(
            count_per_cell_by_profiles(&puzzle, &root, 3_000, &cancel),
            Err(CountError::TooManyProfiles { limit: 3_000 })
        ));
    }
}
