//! The learning search against the probing search: the same solutions, each once, on random
//! pictures and random clues; and stopping after a limit.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use crate::test_strategies::random_clues;

use super::*;
use crate::puzzle::Clue;
use crate::search::{Solver, SolverOptions};

/// Every solution the learning search reports, rendered, and whether it said it was done.
fn learned_solutions(puzzle: &Puzzle) -> (Vec<String>, bool) {
    let solver = Solver::new(puzzle, SolverOptions::default());
    let Some(root) = solver.root().expect("valid") else {
        return (Vec::new(), true);
    };
    let mut found = Vec::new();
    let outcome = learn_search(puzzle, &root, &AtomicBool::new(false), |grid| {
        assert!(grid.is_complete());
        assert!(
            puzzle.check_grid(&grid.to_cells()).is_ok(),
            "{}",
            grid.render()
        );
        found.push(grid.render());
        Flow::Continue
    });
    assert_eq!(outcome.stats.solutions, found.len() as u64);
    (found, outcome.exhausted)
}

/// Every solution of the probing search, rendered and sorted.
fn enumerated(puzzle: &Puzzle) -> BTreeSet<String> {
    let options = SolverOptions {
        threads: 1,
        ..SolverOptions::default()
    };
    let (grids, outcome) = Solver::new(puzzle, options)
        .find(u64::MAX)
        .expect("search runs");
    assert!(outcome.exhausted);
    grids.iter().map(Grid::render).collect()
}

fn assert_same_solutions(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let (found, exhausted) = learned_solutions(puzzle);
    prop_assert!(exhausted);
    let distinct: BTreeSet<String> = found.iter().cloned().collect();
    prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
    prop_assert_eq!(distinct, enumerated(puzzle));
    Ok(())
}

/// Both searches racing, listing every solution: each is reported once, and the run ends
/// exhausted with the same set as the probing search alone.
fn assert_race_lists_every_solution_once(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let options = SolverOptions {
        threads: 2,
        engine: crate::search::Engine::Both,
        ..SolverOptions::default()
    };
    let (grids, outcome) = Solver::new(puzzle, options)
        .find(u64::MAX)
        .expect("search runs");
    prop_assert!(outcome.exhausted);
    prop_assert_eq!(outcome.solutions, grids.len() as u64);
    let rendered: BTreeSet<String> = grids.iter().map(Grid::render).collect();
    prop_assert_eq!(rendered.len(), grids.len(), "a solution was reported twice");
    prop_assert_eq!(rendered, enumerated(puzzle));
    Ok(())
}

fn picture(max: usize) -> impl Strategy<Value = Puzzle> {
    (1..=max, 1..=max).prop_flat_map(|(h, w)| {
        proptest::collection::vec(proptest::bool::weighted(0.45), h * w)
            .prop_map(move |cells| Puzzle::from_picture(h, w, &cells).expect("valid"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn finds_every_solution_of_random_pictures_once(puzzle in picture(10)) {
        assert_same_solutions(&puzzle)?;
    }

    #[test]
    fn finds_every_solution_of_random_clues_once(puzzle in random_clues(7)) {
        assert_same_solutions(&puzzle)?;
    }

    #[test]
    fn racing_searches_report_each_solution_once(puzzle in picture(9)) {
        assert_race_lists_every_solution_once(&puzzle)?;
    }
}

#[test]
fn permutation_puzzles_list_every_permutation() {
    let ones = || (0..6).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    let (found, exhausted) = learned_solutions(&puzzle);
    assert!(exhausted);
    assert_eq!(found.len(), 720);
    assert_eq!(found.iter().collect::<BTreeSet<_>>().len(), 720);
}

#[test]
fn stops_when_told_and_says_it_is_not_done() {
    let ones = || (0..5).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    let root = Grid::new(5, 5);
    let mut seen = 0;
    let outcome = learn_search(&puzzle, &root, &AtomicBool::new(false), |_| {
        seen += 1;
        if seen == 2 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    assert_eq!(seen, 2);
    assert!(!outcome.exhausted);
}

#[test]
fn a_raised_cancel_flag_stops_at_once() {
    let ones = || (0..8).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    let outcome = learn_search(&puzzle, &Grid::new(8, 8), &AtomicBool::new(true), |_| {
        Flow::Continue
    });
    assert!(!outcome.exhausted);
    assert_eq!(outcome.stats.solutions, 0);
}
