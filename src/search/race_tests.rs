//! Both searches racing (`Engine::Both`) on black-and-white puzzles: every solution listed
//! once, the same set as the test-only enumeration, and uniqueness decided whatever the
//! threads and however the limit is told.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::{Engine, Flow, Outcome, Solver, SolverOptions};
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Every solution, rendered, by the test-only enumeration.
fn enumerated(puzzle: &Puzzle) -> BTreeSet<String> {
    crate::test_enumeration::solutions(puzzle)
        .iter()
        .map(Grid::render)
        .collect()
}

/// Up to `limit` solutions found by both searches racing on `threads` threads: by
/// [`Solver::find`], or by [`Solver::run`] told the limit when `told`.
fn race(puzzle: &Puzzle, threads: usize, limit: u64, told: bool) -> (Vec<Grid>, Outcome) {
    let options = SolverOptions {
        threads,
        engine: Engine::Both,
        ..SolverOptions::default()
    };
    let solver = Solver::new(puzzle, options);
    if !told {
        return solver.find(limit).expect("search runs");
    }
    let mut grids = Vec::new();
    let outcome = solver
        .with_solution_limit(limit)
        .run(|grid| {
            grids.push(grid.clone());
            if grids.len() as u64 == limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })
        .expect("search runs");
    (grids, outcome)
}

/// Both searches racing, listing every solution: each is reported once, and the run ends
/// exhausted with the same set as the test-only enumeration.
fn assert_race_lists_every_solution_once(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let (grids, outcome) = race(puzzle, 2, u64::MAX, false);
    prop_assert!(outcome.exhausted);
    prop_assert_eq!(outcome.solutions, grids.len() as u64);
    let rendered: BTreeSet<String> = grids.iter().map(Grid::render).collect();
    prop_assert_eq!(rendered.len(), grids.len(), "a solution was reported twice");
    prop_assert_eq!(rendered, enumerated(puzzle));
    Ok(())
}

/// Both searches racing for the two solutions that decide uniqueness: learning searches on
/// every thread but one (one to three of them here), and the probing search on the last,
/// which hands it over to one more learning search (at once in tests). The solutions are
/// distinct, among the puzzle's, two if it has two or more, and a unique puzzle's run ends
/// exhausted.
fn assert_race_decides_uniqueness(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let all = enumerated(puzzle);
    for (threads, told) in [(2, false), (2, true), (3, true), (4, false)] {
        let (grids, outcome) = race(puzzle, threads, 2, told);
        let rendered: BTreeSet<String> = grids.iter().map(Grid::render).collect();
        prop_assert_eq!(rendered.len(), grids.len(), "a solution was reported twice");
        prop_assert!(rendered.is_subset(&all));
        prop_assert_eq!(grids.len(), all.len().min(2));
        prop_assert_eq!(outcome.exhausted, all.len() < 2);
    }
    Ok(())
}

fn picture(max: usize) -> impl Strategy<Value = Puzzle> {
    crate::test_strategies::bw_picture(1, max, 0.45)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn racing_searches_report_each_solution_once_and_decide_uniqueness(puzzle in picture(10)) {
        assert_race_lists_every_solution_once(&puzzle)?;
        assert_race_decides_uniqueness(&puzzle)?;
    }
}
