//! The probing search with a completion check at every node: the same solutions, each once,
//! as without checks, in black and white and colour, on one thread and on several; and the
//! checks do cut dead nodes and find solutions.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::dead_ends::CheckPolicy;
use super::{Engine, Flow, Outcome, Probing, Searchable, Solver, SolverOptions};
use crate::domain::DomainGrid;

/// A check at every node that probes (every node here), however small, as long as it takes.
const EVERY_NODE: CheckPolicy = CheckPolicy {
    barren_nodes: 0,
    min_cells: 1,
    max_conflicts: u64::MAX,
    share: 0,
};

/// Every solution the probing search lists on `threads` threads, probing at every node, with
/// `checks` or none; fails if one is listed twice.
fn listed<P: Searchable>(
    puzzle: &P,
    threads: usize,
    checks: Option<CheckPolicy>,
) -> (BTreeSet<Box<[u64]>>, Outcome) {
    let options = SolverOptions {
        threads,
        probing: Probing::Always,
        ..SolverOptions::default()
    };
    let solver = Solver::new(puzzle, options);
    let solver = match checks {
        Some(policy) => solver.with_check_policy(policy),
        None => solver.with_completion_checks(false),
    };
    let mut keys = BTreeSet::new();
    let outcome = solver
        .run(|grid| {
            assert!(keys.insert(grid.key()), "a solution was listed twice");
            Flow::Continue
        })
        .expect("search runs");
    assert!(outcome.exhausted);
    (keys, outcome)
}

/// The checks change neither the solutions nor their number, on one thread or three.
fn assert_same_solutions<P: Searchable>(puzzle: &P) -> Result<(), TestCaseError> {
    let (plain, _) = listed(puzzle, 1, None);
    for threads in [1, 3] {
        let (checked, outcome) = listed(puzzle, threads, Some(EVERY_NODE));
        prop_assert_eq!(outcome.solutions, plain.len() as u64);
        prop_assert_eq!(&checked, &plain);
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::test_strategies::fuzz_cases(96))]

    #[test]
    fn checks_keep_every_black_and_white_solution(
        puzzle in crate::test_strategies::bw_picture(2, 9, 0.45)
    ) {
        assert_same_solutions(&puzzle)?;
    }

    #[test]
    fn checks_keep_every_colour_solution(puzzle in crate::test_strategies::colour_picture(6)) {
        assert_same_solutions(&puzzle)?;
    }
}

/// On random 12x12 pictures whose probing misses dead nodes (seeds found by trying 200), checks
/// at every node cut some and find solutions below others, and the solutions stay the same.
#[test]
fn checks_cut_dead_nodes_and_find_solutions() {
    let (mut cuts, mut found) = (0, 0);
    for seed in [10, 83, 111] {
        let puzzle = crate::test_strategies::seeded_picture(12, 12, seed);
        let (checked, outcome) = listed(&puzzle, 1, Some(EVERY_NODE));
        assert_eq!(checked, listed(&puzzle, 1, None).0);
        cuts += outcome.stats.completion_cuts;
        found += outcome.stats.completion_found;
    }
    assert!(cuts > 0, "no check cut a node");
    assert!(found > 0, "no check found a solution");
}

/// A probing search that learning searches race for one or two solutions makes no checks
/// (the learners find those); alone, it does.
#[test]
fn no_checks_where_learners_race_for_two_solutions() {
    let puzzle = crate::test_strategies::seeded_picture(12, 12, 10);
    let checks = |engine: Engine, limit: u64| {
        let options = SolverOptions {
            threads: 2,
            engine,
            ..SolverOptions::default()
        };
        let solver = Solver::new(&puzzle, options).with_check_policy(EVERY_NODE);
        let (_, outcome) = solver.find(limit).expect("search runs");
        outcome.stats.completion_cuts + outcome.stats.completion_found
    };
    assert_eq!(checks(Engine::Both, 2), 0);
    assert!(
        checks(Engine::Probe, 2) > 0,
        "a search alone is not checked"
    );
}
