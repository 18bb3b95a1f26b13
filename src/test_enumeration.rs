//! Test-only enumeration: every solution of a small puzzle, by propagation to a fixpoint and
//! branching on the first undecided cell. Built only on `domain` and `propagate`, it is the
//! oracle of the tests below the search (count, learn), which then need not import the search.

use crate::domain::{Domain, DomainGrid, each_value};
use crate::propagate::Propagator;
use crate::puzzle::PuzzleError;

/// The root every search starts from: the givens applied and every line propagated to a
/// fixpoint; `None` when that contradicts. `Err` for a puzzle that is not well formed.
pub(crate) fn root<P: Domain>(puzzle: &P) -> Result<Option<P::Grid>, PuzzleError> {
    puzzle.validate()?;
    let Some(mut grid) = puzzle.given_grid() else {
        return Ok(None);
    };
    Ok(Propagator::new()
        .propagate_all(puzzle, &mut grid)
        .ok()
        .map(|()| grid))
}

/// Calls `found` on each solution of the valid `puzzle`, depth first, until it returns `false`;
/// returns whether every solution was visited.
pub(crate) fn each_solution<P: Domain>(
    puzzle: &P,
    mut found: impl FnMut(&P::Grid) -> bool,
) -> bool {
    let Some(root) = root(puzzle).expect("a valid puzzle") else {
        return true;
    };
    branch(puzzle, root, &mut Propagator::new(), &mut found)
}

/// Visits the solutions below `grid`, which is at a fixpoint.
fn branch<P: Domain>(
    puzzle: &P,
    grid: P::Grid,
    prop: &mut Propagator<P>,
    found: &mut dyn FnMut(&P::Grid) -> bool,
) -> bool {
    let (height, width) = grid.size();
    let undecided = (0..height)
        .flat_map(|row| (0..width).map(move |col| (row, col)))
        .find(|&(row, col)| grid.values(row, col).count_ones() > 1);
    let Some((row, col)) = undecided else {
        return found(&grid);
    };
    for value in each_value::<P>(grid.values(row, col)) {
        let mut child = grid.clone();
        child.decide(row, col, value);
        if prop.propagate_cell(puzzle, &mut child, row, col).is_ok()
            && !branch(puzzle, child, prop, found)
        {
            return false;
        }
    }
    true
}

/// Every solution of the valid `puzzle`.
pub(crate) fn solutions<P: Domain>(puzzle: &P) -> Vec<P::Grid> {
    let mut all = Vec::new();
    each_solution(puzzle, |grid| {
        all.push(grid.clone());
        true
    });
    all
}

/// Up to `limit` (at least 1) solutions of the valid `puzzle`, and whether the enumeration
/// went to its end (it stops as soon as it has `limit`).
pub(crate) fn first_solutions<P: Domain>(puzzle: &P, limit: usize) -> (Vec<P::Grid>, bool) {
    let mut first = Vec::new();
    let exhausted = each_solution(puzzle, |grid| {
        first.push(grid.clone());
        first.len() < limit
    });
    (first, exhausted)
}

/// The number of solutions of the valid `puzzle`.
pub(crate) fn count<P: Domain>(puzzle: &P) -> u64 {
    let mut total = 0;
    each_solution(puzzle, |_| {
        total += 1;
        true
    });
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_strategies::{colour_bands, diagonal_squares, permutations};

    #[test]
    fn counts_puzzles_of_known_counts() {
        assert_eq!(count(&permutations(5)), 120);
        assert_eq!(count(&diagonal_squares(4)), 16);
        assert_eq!(count(&colour_bands(2, 3)), 36);
    }

    #[test]
    fn stops_at_a_limit() {
        let (first, exhausted) = first_solutions(&permutations(4), 2);
        assert_eq!(first.len(), 2);
        assert!(!exhausted);
        let (all, exhausted) = first_solutions(&permutations(3), 7);
        assert_eq!(all.len(), 6);
        assert!(exhausted);
    }
}
