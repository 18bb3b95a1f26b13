//! The colour learning search against the colour probing search: the same solutions, each
//! once and each satisfying the clues, on random colour pictures; stopping when asked.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::ColorSolver;
use crate::color::Color;
use crate::search::SolverOptions;

fn palette(n: usize) -> Vec<Color> {
    (0..n)
        .map(|i| {
            Color::new(
                format!("c{i}"),
                [i as u8 * 50, 0, 0],
                char::from(b'a' + i as u8),
            )
        })
        .collect()
}

/// Every solution the learning search reports, and whether it said it was done.
fn learned(puzzle: &ColorPuzzle) -> (Vec<Vec<u8>>, bool) {
    let solver = ColorSolver::new(puzzle, SolverOptions::default());
    let Some(root) = solver.root().expect("valid") else {
        return (Vec::new(), true);
    };
    let mut found = Vec::new();
    let outcome = color_learn_search_until(
        puzzle,
        &root,
        |_| false,
        |grid| {
            assert!(grid.is_complete());
            found.push(grid.to_colors());
            Flow::Continue
        },
    );
    assert_eq!(outcome.stats.solutions, found.len() as u64);
    (found, outcome.exhausted)
}

/// Every solution of the probing search, on one thread.
fn enumerated(puzzle: &ColorPuzzle) -> BTreeSet<Vec<u8>> {
    let options = SolverOptions {
        threads: 1,
        ..SolverOptions::default()
    };
    let (grids, outcome) = ColorSolver::new(puzzle, options)
        .find(u64::MAX)
        .expect("search runs");
    assert!(outcome.exhausted);
    grids.iter().map(ColorGrid::to_colors).collect()
}

fn picture(h: usize, w: usize, colors: u8) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0..colors, h * w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On random colour pictures up to 8x8 with up to 4 colours besides the background, the
    /// learning search reports every solution of the probing search, each once, each valid,
    /// the picture among them, and ends exhausted.
    #[test]
    fn learns_the_same_solutions_as_the_probing_search(
        (h, w, colors, cells) in (1usize..9, 1usize..9, 2u8..6)
            .prop_flat_map(|(h, w, c)| (Just(h), Just(w), Just(c), picture(h, w, c)))
    ) {
        let puzzle = ColorPuzzle::from_picture(palette(colors.into()), h, w, &cells)?;
        let (found, exhausted) = learned(&puzzle);
        prop_assert!(exhausted);
        for s in &found {
            prop_assert!(puzzle.check_grid(s).is_ok(), "invalid solution {:?}", s);
        }
        let distinct: BTreeSet<Vec<u8>> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
        prop_assert!(distinct.contains(&cells));
        prop_assert_eq!(distinct, enumerated(&puzzle));
    }
}

#[test]
fn stops_when_asked() {
    // Two same-coloured diagonals in each of three 2x2 blocks along the diagonal... simpler: a
    // 3x3 picture whose every clue is one cell of colour 1 has 3! = 6 solutions.
    let cells = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    let puzzle = ColorPuzzle::from_picture(palette(2), 3, 3, &cells).expect("valid");
    assert_eq!(learned(&puzzle).0.len(), 6);
    let root = ColorSolver::new(&puzzle, SolverOptions::default())
        .root()
        .expect("valid")
        .expect("solvable");
    let mut seen = 0;
    let outcome = color_learn_search_until(
        &puzzle,
        &root,
        |_| false,
        |_| {
            seen += 1;
            if seen == 2 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        },
    );
    assert_eq!(seen, 2);
    assert!(!outcome.exhausted);
    let outcome = color_learn_search_until(&puzzle, &root, |_| true, |_| Flow::Continue);
    assert!(!outcome.exhausted, "stopped before the end");
}
