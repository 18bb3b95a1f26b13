//! The ordered search's tests: the sequential order for any number of threads, a limit's
//! first solutions, and a cancelled search's prefix.

use crate::puzzle::{Clue, Puzzle};
use crate::search::{Flow, Probing, Solver, SolverOptions};

/// Every clue `1` on an `n` x `n` grid: the `n!` permutation matrices.
fn perm(n: usize) -> Puzzle {
    let clues = || vec![Clue(vec![1]); n];
    Puzzle::new(clues(), clues()).expect("valid")
}

/// A picture of 2x2 diagonal pairs and blocks, for a tree less regular than `perm`'s.
fn mixed() -> Puzzle {
    let rows = [
        "#..#.##.", ".##..##.", "#...#..#", "......#.", "##.#..#.", "##..#...", "...#.#.#",
        "#.#...#.",
    ];
    let cells: Vec<bool> = rows
        .iter()
        .flat_map(|r| r.bytes().map(|b| b == b'#'))
        .collect();
    Puzzle::from_picture(8, 8, &cells).expect("valid")
}

/// Ordered probing on `threads` threads, without restarts.
fn ordered_options(threads: usize) -> SolverOptions {
    SolverOptions {
        threads,
        probing: Probing::Always,
        ordered: true,
        restarts: false,
        engine: Default::default(),
    }
}

/// The first `limit` solutions, rendered, in the order the collector received them.
fn listing(puzzle: &Puzzle, threads: usize, budget: Option<usize>, limit: usize) -> Vec<String> {
    let mut solver = Solver::new(puzzle, ordered_options(threads));
    if let Some(budget) = budget {
        solver = solver.with_buffer_budget(budget);
    }
    let mut found = Vec::new();
    let outcome = solver
        .run(|grid| {
            found.push(grid.render());
            if found.len() >= limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })
        .expect("runs");
    assert_eq!(outcome.solutions, found.len() as u64);
    found
}

#[test]
fn every_thread_count_lists_in_the_sequential_order() {
    for puzzle in [perm(6), mixed()] {
        let sequential = listing(&puzzle, 1, None, usize::MAX);
        assert!(sequential.len() > 1, "{}", sequential.len());
        for threads in [2, 3, 8] {
            // A budget of one solution makes workers defer nodes all the time.
            for budget in [None, Some(1), Some(5)] {
                let ordered = listing(&puzzle, threads, budget, usize::MAX);
                assert!(
                    ordered == sequential,
                    "{threads} threads, budget {budget:?}: {} solutions, order differs",
                    ordered.len()
                );
            }
        }
    }
}

#[test]
fn a_limit_keeps_the_first_solutions_in_order() {
    let puzzle = perm(6);
    let sequential = listing(&puzzle, 1, None, usize::MAX);
    for limit in [1, 2, 37, 500] {
        for (threads, budget) in [(2, None), (4, Some(3)), (8, Some(1))] {
            assert_eq!(
                listing(&puzzle, threads, budget, limit),
                sequential[..limit],
                "{threads} threads, budget {budget:?}, limit {limit}"
            );
        }
    }
}

#[test]
fn a_cancelled_search_has_handed_over_a_prefix() {
    let puzzle = perm(6);
    let sequential = listing(&puzzle, 1, None, usize::MAX);
    for (threads, budget) in [(2, None), (8, Some(2))] {
        let solver =
            Solver::new(&puzzle, ordered_options(threads)).with_buffer_budget(budget.unwrap_or(64));
        let cancel = solver.cancel_flag();
        let mut found = Vec::new();
        let outcome = solver
            .run(|grid| {
                found.push(grid.render());
                if found.len() == 100 {
                    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                Flow::Continue
            })
            .expect("runs");
        assert!(!outcome.exhausted);
        assert!(found.len() >= 100 && found.len() < 720, "{}", found.len());
        assert_eq!(found, sequential[..found.len()], "{threads} threads");
    }
}
