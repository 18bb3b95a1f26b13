//! The plan of a run: which searches race, on how many threads.

use super::*;
use crate::search::SolverOptions;
use crate::test_strategies::permutations;

/// The plan of a black-and-white run racing both searches on `threads` threads for
/// `limit` solutions on permutations(`n`): probing threads, learners, whether it is a
/// portfolio (sharing clauses), whether its probing search hands over.
fn plan_of(n: usize, threads: usize, limit: Option<u64>) -> (usize, usize, bool, bool) {
    let puzzle = permutations(n);
    let options = SolverOptions {
        threads,
        engine: Engine::Both,
        ..SolverOptions::default()
    };
    let plan = Solver::new(&puzzle, options).plan(limit);
    assert!(plan.racing);
    (
        plan.probe_threads,
        plan.learners,
        plan.portfolio,
        plan.hands_over,
    )
}

#[test]
fn a_race_for_one_or_two_solutions_is_a_portfolio_of_learners() {
    assert_eq!(plan_of(4, 1, Some(2)), (1, 1, true, true));
    assert_eq!(plan_of(4, 2, Some(2)), (1, 1, true, true));
    assert_eq!(plan_of(4, 3, Some(1)), (1, 2, true, true));
    assert_eq!(plan_of(4, 4, Some(2)), (1, 3, true, true));
    assert_eq!(plan_of(4, 16, Some(2)), (1, 15, true, true));
    // A longer listing is the probing search's, beside one learner that shares nothing.
    assert_eq!(plan_of(4, 16, Some(3)), (15, 1, false, false));
    assert_eq!(plan_of(4, 16, None), (15, 1, false, false));
}

/// The learners of a race on a large grid are as many as fit in the memory budget, and
/// the probing search runs (and hands over) only if one more fits.
#[test]
fn a_race_on_a_large_grid_starts_the_learners_that_fit() {
    assert!(learners_that_fit(0) > 1000);
    assert_eq!(learners_that_fit(usize::MAX), 1);
    assert_eq!(learners_that_fit(1000 * 1000), 4);
    assert_eq!(plan_of(1000, 16, Some(1)), (0, 4, true, false));
    assert_eq!(plan_of(1000, 4, Some(1)), (1, 3, true, true));
    assert_eq!(plan_of(2000, 16, Some(1)), (0, 1, true, false));
    assert_eq!(plan_of(2000, 2, Some(1)), (0, 1, true, false));
}
