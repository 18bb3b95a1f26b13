//! Property tests of the whole search: random pictures, brute-force counts, thread counts.

use std::collections::HashSet;

use nonoenum::{Flow, Grid, Probing, Puzzle, Solver, SolverOptions};
use proptest::prelude::*;

/// The block lengths of a line of cells (`true` = filled).
fn blocks_of(cells: impl IntoIterator<Item = bool>) -> Vec<u32> {
    let mut blocks = Vec::new();
    let mut run = 0u32;
    for filled in cells.into_iter().chain([false]) {
        if filled {
            run += 1;
        } else if run > 0 {
            blocks.push(run);
            run = 0;
        }
    }
    blocks
}

/// Every solution of a small puzzle, by brute force: each row takes one of the placements of
/// its clue; a combination is kept when every column clue matches.
fn brute_force_count(puzzle: &Puzzle) -> u64 {
    let (h, w) = (puzzle.height(), puzzle.width());
    let row_options: Vec<Vec<Vec<bool>>> = puzzle
        .row_clues
        .iter()
        .map(|clue| {
            (0u32..1 << w)
                .map(|bits| (0..w).map(|c| bits >> c & 1 == 1).collect::<Vec<_>>())
                .filter(|row| blocks_of(row.iter().copied()) == clue.0)
                .collect()
        })
        .collect();
    let mut count = 0;
    let mut chosen: Vec<&Vec<bool>> = Vec::with_capacity(h);
    fn walk<'a>(
        puzzle: &Puzzle,
        options: &'a [Vec<Vec<bool>>],
        chosen: &mut Vec<&'a Vec<bool>>,
        count: &mut u64,
    ) {
        let r = chosen.len();
        if r == options.len() {
            let ok = (0..puzzle.width())
                .all(|c| blocks_of(chosen.iter().map(|row| row[c])) == puzzle.col_clues[c].0);
            *count += u64::from(ok);
            return;
        }
        for row in &options[r] {
            chosen.push(row);
            walk(puzzle, options, chosen, count);
            let _ = chosen.pop();
        }
    }
    walk(puzzle, &row_options, &mut chosen, &mut count);
    count
}

fn solutions(puzzle: &Puzzle, threads: usize, probing: Probing) -> Vec<Vec<bool>> {
    let options = SolverOptions {
        threads,
        probing,
        ordered: false,
        restarts: true,
        engine: Default::default(),
    };
    let mut found = Vec::new();
    let outcome = Solver::new(puzzle, options)
        .run(|grid: &Grid| {
            found.push(grid.to_cells());
            Flow::Continue
        })
        .expect("search runs");
    assert!(outcome.exhausted);
    assert_eq!(outcome.solutions, found.len() as u64);
    found
}

fn picture(max: usize) -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
    (1..=max, 1..=max).prop_flat_map(|(h, w)| {
        (
            Just(h),
            Just(w),
            proptest::collection::vec(proptest::bool::weighted(0.45), h * w),
        )
    })
}

/// Probing at every node, at none, or where it pays (nodes with more than 64 unknown cells).
fn probing() -> impl Strategy<Value = Probing> {
    prop_oneof![
        Just(Probing::Always),
        Just(Probing::Never),
        Just(Probing::Adaptive)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn small_counts_equal_brute_force((h, w, cells) in picture(5), threads in 1usize..=3, probing in probing()) {
        let puzzle = Puzzle::from_picture(h, w, &cells).unwrap();
        let found = solutions(&puzzle, threads, probing);
        prop_assert_eq!(found.len() as u64, brute_force_count(&puzzle));
    }

    #[test]
    fn picture_is_among_solutions((h, w, cells) in picture(12), threads in 1usize..=4, probing in probing()) {
        let puzzle = Puzzle::from_picture(h, w, &cells).unwrap();
        let found = solutions(&puzzle, threads, probing);
        prop_assert!(found.contains(&cells), "the picture itself was not found");
        let distinct: HashSet<&Vec<bool>> = found.iter().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution was listed twice");
        for solution in &found {
            prop_assert!(puzzle.check_grid(solution).is_ok(), "a solution breaks a clue");
        }
    }
}

#[test]
fn thread_counts_agree_on_a_permutation_puzzle() {
    let ones = || (0..6).map(|_| nonoenum::Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).unwrap();
    for threads in [1, 2, 3, 8] {
        for probing in [Probing::Always, Probing::Never, Probing::Adaptive] {
            let outcome = Solver::new(
                &puzzle,
                SolverOptions {
                    threads,
                    probing,
                    ordered: false,
                    restarts: true,
                    engine: Default::default(),
                },
            )
            .count()
            .unwrap();
            assert_eq!(
                outcome.solutions, 720,
                "threads {threads} probing {probing:?}"
            );
        }
    }
}
