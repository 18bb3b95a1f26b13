//! Colour search tests (`Engine::Probe`, `Learn` and `Both`): every solution found is a real
//! one, counts equal brute force, and threads and probing do not change the answer.

use proptest::prelude::*;

use super::{ColorSolver, Engine, Flow, Probing, SolverOptions};
use crate::color::{Color, ColorGiven, ColorPuzzle};

fn palette(n: usize) -> Vec<Color> {
    let mut colors = vec![Color::new("white", [255; 3], '.')];
    for i in 1..n {
        let ch = char::from(b'a' + i as u8 - 1);
        colors.push(Color::new(
            format!("c{i}"),
            [(i as u8).wrapping_mul(40), 0, 0],
            ch,
        ));
    }
    colors
}

/// Every picture of the puzzle's size whose clues are the puzzle's, counted one by one.
fn brute_force_count(puzzle: &ColorPuzzle) -> u64 {
    let (h, w, n) = (puzzle.height(), puzzle.width(), puzzle.colors.len() as u64);
    let cells = h * w;
    let total = n.pow(cells as u32);
    let mut picture = vec![0u8; cells];
    let mut count = 0;
    for mut code in 0..total {
        for p in picture.iter_mut() {
            *p = (code % n) as u8;
            code /= n;
        }
        if puzzle.check_grid(&picture).is_ok() {
            count += 1;
        }
    }
    count
}

fn solutions(puzzle: &ColorPuzzle, threads: usize, probing: Probing) -> Vec<Vec<u8>> {
    solutions_by(puzzle, threads, probing, Engine::Probe)
}

/// Every solution `engine` reports, sorted; the run must end exhausted, each reported once.
fn solutions_by(
    puzzle: &ColorPuzzle,
    threads: usize,
    probing: Probing,
    engine: Engine,
) -> Vec<Vec<u8>> {
    let solver = ColorSolver::new(
        puzzle,
        SolverOptions {
            threads,
            probing,
            ordered: false,
            restarts: false,
            engine,
        },
    );
    let mut found = Vec::new();
    let outcome = solver
        .run(|g| {
            found.push(g.to_colors());
            Flow::Continue
        })
        .expect("valid puzzle");
    assert!(outcome.exhausted);
    assert_eq!(outcome.solutions, found.len() as u64);
    found.sort();
    found
}

fn picture(h: usize, w: usize, colors: u8) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0..colors, h * w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A random colour picture's clues have that picture among their solutions, every solution
    /// is distinct and satisfies the clues, and 1 or 2 threads, with or without probing, agree.
    #[test]
    fn random_pictures_are_among_their_solutions(
        (h, w, colors, cells) in (1usize..7, 1usize..7, 2u8..6)
            .prop_flat_map(|(h, w, c)| (Just(h), Just(w), Just(c), picture(h, w, c)))
    ) {
        let puzzle = ColorPuzzle::from_picture(palette(colors.into()), h, w, &cells)?;
        let found = solutions(&puzzle, 1, Probing::Always);
        prop_assert!(found.contains(&cells));
        prop_assert!(found.windows(2).all(|p| p[0] != p[1]));
        for s in &found {
            prop_assert!(puzzle.check_grid(s).is_ok());
        }
        prop_assert_eq!(&solutions(&puzzle, 2, Probing::Always), &found);
        prop_assert_eq!(&solutions(&puzzle, 2, Probing::Never), &found);
        prop_assert_eq!(&solutions(&puzzle, 2, Probing::Adaptive), &found);
        prop_assert_eq!(&solutions_by(&puzzle, 1, Probing::Always, Engine::Learn), &found);
        prop_assert_eq!(&solutions_by(&puzzle, 2, Probing::Always, Engine::Both), &found);
    }

    /// On pictures small enough to try every colouring, the count is exact.
    #[test]
    fn counts_equal_brute_force(
        (h, w, colors, cells) in prop_oneof![
            (Just(3usize), Just(3usize), Just(3u8)),
            (Just(2usize), Just(4usize), Just(4u8)),
            (Just(4usize), Just(2usize), Just(3u8)),
        ].prop_flat_map(|(h, w, c)| (Just(h), Just(w), Just(c), picture(h, w, c)))
    ) {
        let puzzle = ColorPuzzle::from_picture(palette(colors.into()), h, w, &cells)?;
        let count = solutions(&puzzle, 1, Probing::Always).len() as u64;
        prop_assert_eq!(count, brute_force_count(&puzzle));
        let learned = solutions_by(&puzzle, 1, Probing::Always, Engine::Learn).len() as u64;
        prop_assert_eq!(learned, count);
    }
}

#[test]
fn ambiguous_colour_puzzle_has_every_solution() {
    // Two colours on a 2x2 diagonal: the clues cannot tell the two diagonals apart only when
    // the colours match, so a same-colour diagonal has 2 solutions, a mixed one 1... check both.
    let same = ColorPuzzle::from_picture(palette(3), 2, 2, &[1, 0, 0, 1]).unwrap();
    assert_eq!(solutions(&same, 2, Probing::Always).len(), 2);
    let mixed = ColorPuzzle::from_picture(palette(3), 2, 2, &[1, 0, 0, 2]).unwrap();
    assert_eq!(
        solutions(&mixed, 2, Probing::Always),
        vec![vec![1, 0, 0, 2]]
    );
}

#[test]
fn givens_restrict_colour_solutions() {
    let mut puzzle = ColorPuzzle::from_picture(palette(3), 2, 2, &[1, 0, 0, 1]).unwrap();
    puzzle.givens.push(ColorGiven {
        row: 0,
        col: 1,
        color: 1,
    });
    assert_eq!(
        solutions(&puzzle, 1, Probing::Always),
        vec![vec![0, 1, 1, 0]]
    );
    puzzle.givens.push(ColorGiven {
        row: 0,
        col: 0,
        color: 1,
    });
    assert!(solutions(&puzzle, 1, Probing::Always).is_empty());
}

#[test]
fn stopping_after_a_limit_is_not_exhausted() {
    let puzzle = ColorPuzzle::from_picture(palette(2), 2, 2, &[1, 0, 0, 1]).unwrap();
    let (found, outcome) = ColorSolver::new(&puzzle, SolverOptions::default())
        .find(1)
        .unwrap();
    assert_eq!(found.len(), 1);
    assert!(!outcome.exhausted);
}

#[test]
fn many_colours_work() {
    // 40 colours besides the background, one row of touching single cells.
    let n = 41;
    let cells: Vec<u8> = (1..n as u8).collect();
    let puzzle = ColorPuzzle::from_picture(palette(n), 1, n - 1, &cells).unwrap();
    assert_eq!(solutions(&puzzle, 1, Probing::Always), vec![cells.clone()]);
    assert_eq!(
        solutions_by(&puzzle, 1, Probing::Always, Engine::Learn),
        vec![cells]
    );
}
