//! The backbone of a puzzle: the cells that take the same value in every solution. Fixing
//! them changes no count, and on a picture whose ambiguity lies in a few regions it leaves
//! far fewer unknown cells than propagation and probing do, since what makes a cell certain
//! there is the whole grid, not one line or one probe.
//!
//! One learning search ([`CompletionChecker`]) finds a solution `S`, then, cell by cell, asks
//! for a solution that differs from `S` there. One that exists marks every cell where it
//! differs as not in the backbone, so each such answer rules out many cells at once; a cell
//! whose other value has no completion is fixed to its value in `S`, and the grid propagated,
//! which fixes more. The checks share one search, so what it learns serves every later check.

use std::sync::atomic::{AtomicU64, Ordering};

use super::components::unknown_cells;
use super::stop::Stop;
use crate::grid::{Cell, Grid};
use crate::learn::{Completion, CompletionChecker};
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;

/// What a backbone search did, live.
#[derive(Debug, Default)]
pub struct BackboneStats {
    /// Checks made (one to find the first solution, then one per cell tried).
    pub checks: AtomicU64,
    /// Cells found in the backbone and fixed, those propagation fixed after them included.
    pub fixed: AtomicU64,
}

/// The result of a backbone search.
#[derive(Debug)]
pub(super) enum Backbone {
    /// The puzzle has no solution that extends the root.
    NoSolution,
    /// The root with the backbone cells found fixed, at a propagation fixpoint. Every cell
    /// fixed is in the backbone; a search stopped early leaves some backbone cells unknown.
    Reduced(Grid),
}

/// Fixes the backbone cells of the unknown cells of `root` (a propagated grid of `puzzle`),
/// spending at most `max_conflicts` conflicts of the learning search in all. Stops early,
/// with the cells found so far, when `stop` is raised.
pub(super) fn fix_backbone(
    puzzle: &Puzzle,
    root: &Grid,
    max_conflicts: u64,
    stop: Stop<'_>,
    stats: &BackboneStats,
) -> Backbone {
    let mut checker = CompletionChecker::new(puzzle, root);
    let conflicts_left =
        |checker: &CompletionChecker| max_conflicts.saturating_sub(checker.stats().conflicts);
    let candidates = unknown_cells(root);
    stats.checks.fetch_add(1, Ordering::Relaxed);
    let budget = conflicts_left(&checker);
    let first = match checker.check(root, &candidates, budget, || stop.raised()) {
        Completion::Found(solution) => solution,
        // Every unknown cell was checked, so no other cell's completion is assumed.
        Completion::Impossible => return Backbone::NoSolution,
        Completion::Unknown => return Backbone::Reduced(root.clone()),
    };
    let width = root.width();
    let mut varies = vec![false; root.height() * width];
    let mut grid = root.clone();
    let mut propagator = Propagator::new();
    for (row, col) in candidates {
        let (row, col) = (row as usize, col as usize);
        if grid.cell(row, col) != Cell::Unknown || varies[row * width + col] {
            continue;
        }
        let budget = conflicts_left(&checker);
        if budget == 0 || stop.raised() {
            break;
        }
        let value = first.cell(row, col) == Cell::Filled;
        let mut other = grid.clone();
        other.set_unknown(row, col, !value);
        let in_backbone = if propagator
            .propagate_cell(puzzle, &mut other, row, col)
            .is_err()
        {
            true
        } else {
            stats.checks.fetch_add(1, Ordering::Relaxed);
            let cells = unknown_cells(&other);
            match checker.check(&other, &cells, budget, || stop.raised()) {
                Completion::Found(solution) => {
                    for r in 0..grid.height() {
                        for c in 0..width {
                            if solution.cell(r, c) != first.cell(r, c) {
                                varies[r * width + c] = true;
                            }
                        }
                    }
                    false
                }
                Completion::Impossible => true,
                Completion::Unknown => break,
            }
        };
        if in_backbone {
            let mut fixed = grid.clone();
            fixed.set_unknown(row, col, value);
            // The first solution extends `fixed`, so propagation cannot fail; if it did, the
            // cells fixed so far would still be sound: keep them and stop.
            if propagator
                .propagate_cell(puzzle, &mut fixed, row, col)
                .is_err()
            {
                debug_assert!(false, "the backbone contradicts a solution");
                break;
            }
            let newly = grid.unknown_count() - fixed.unknown_count();
            stats.fixed.fetch_add(newly as u64, Ordering::Relaxed);
            grid = fixed;
        }
    }
    Backbone::Reduced(grid)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use proptest::prelude::*;

    use super::*;
    use crate::count::probed_root;
    use crate::search::{Flow, Solver, SolverOptions};
    use crate::test_strategies::random_clues;

    /// Every solution of `puzzle`, by the probing search.
    fn solutions(puzzle: &Puzzle) -> Vec<Grid> {
        let options = SolverOptions {
            threads: 1,
            ..SolverOptions::default()
        };
        let mut found = Vec::new();
        let outcome = Solver::new(puzzle, options)
            .run(|grid| {
                found.push(grid.clone());
                Flow::Continue
            })
            .expect("search runs");
        assert!(outcome.exhausted);
        found
    }

    /// With conflicts enough, the cells fixed are exactly those equal in every solution, and
    /// "no solution" exactly when there is none.
    fn fixes_exactly_the_backbone(puzzle: &Puzzle) -> Result<(), TestCaseError> {
        let all = solutions(puzzle);
        let Some(root) = probed_root(puzzle).expect("valid") else {
            prop_assert!(all.is_empty());
            return Ok(());
        };
        let (cancel, stats) = (AtomicBool::new(false), BackboneStats::default());
        match fix_backbone(puzzle, &root, u64::MAX, Stop::from(&cancel), &stats) {
            Backbone::NoSolution => prop_assert!(all.is_empty()),
            Backbone::Reduced(grid) => {
                prop_assert!(!all.is_empty());
                for row in 0..grid.height() {
                    for col in 0..grid.width() {
                        let constant = all
                            .iter()
                            .all(|s| s.cell(row, col) == all[0].cell(row, col));
                        let known = grid.cell(row, col) != Cell::Unknown;
                        prop_assert_eq!(known, constant, "cell ({}, {})", row, col);
                        if known {
                            prop_assert_eq!(grid.cell(row, col), all[0].cell(row, col));
                        }
                    }
                }
                let fixed = stats.fixed.load(Ordering::Relaxed) as usize;
                prop_assert_eq!(fixed, root.unknown_count() - grid.unknown_count());
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_cells_fixed_are_the_backbone_of_random_pictures(
            (h, w, cells) in (1..=9usize, 1..=9usize).prop_flat_map(|(h, w)| {
                (Just(h), Just(w), proptest::collection::vec(proptest::bool::weighted(0.4), h * w))
            })
        ) {
            fixes_exactly_the_backbone(&Puzzle::from_picture(h, w, &cells).expect("valid"))?;
        }

        #[test]
        fn the_cells_fixed_are_the_backbone_of_random_clues(puzzle in random_clues(7)) {
            fixes_exactly_the_backbone(&puzzle)?;
        }
    }

    /// A search out of conflicts, or stopped, fixes only backbone cells: never a cell that
    /// varies, even when it stops in the middle.
    #[test]
    fn a_search_stopped_early_fixes_backbone_cells_only() {
        let puzzle = crate::count::tests::seeded_picture(12, 12, 5);
        let all = solutions(&puzzle);
        let root = probed_root(&puzzle).expect("valid").expect("a solution");
        let cancel = AtomicBool::new(false);
        for budget in [0, 1, 10, 100, 1_000] {
            let stats = BackboneStats::default();
            let Backbone::Reduced(grid) =
                fix_backbone(&puzzle, &root, budget, Stop::from(&cancel), &stats)
            else {
                panic!("the picture has a solution");
            };
            for row in 0..grid.height() {
                for col in 0..grid.width() {
                    if grid.cell(row, col) != Cell::Unknown {
                        assert!(all.iter().all(|s| s.cell(row, col) == grid.cell(row, col)));
                    }
                }
            }
        }
        let raised = AtomicBool::new(true);
        let stats = BackboneStats::default();
        let Backbone::Reduced(grid) =
            fix_backbone(&puzzle, &root, u64::MAX, Stop::from(&raised), &stats)
        else {
            panic!("a stopped search says nothing");
        };
        assert_eq!(grid.unknown_count(), root.unknown_count());
    }
}
