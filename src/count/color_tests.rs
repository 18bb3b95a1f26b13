//! Counting colour puzzles by profiles, by the sweep and by components: counts known by
//! construction far past enumeration, the same counts as enumeration on random pictures, and
//! lower bounds when cancelled.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use super::*;
use crate::color::{Block, ColorClue, ColorPuzzle};
use crate::test_strategies::{colour_bands, colour_picture, palette};

use super::tests::{CHECKING, component_count_checking, profile_count, sweep_count};

/// `2n` rows alternately of colours 1 and 2, each holding one cell, over `n` columns each
/// holding one cell of colour 1 above one of colour 2: one component.
fn colour_pairs(n: usize) -> ColorPuzzle {
    let one = |color: u8| Block { len: 1, color };
    let rows = (0..2 * n)
        .map(|r| ColorClue(vec![one(r as u8 % 2 + 1)]))
        .collect();
    let cols = (0..n).map(|_| ColorClue(vec![one(1), one(2)])).collect();
    ColorPuzzle::new(palette(2), rows, cols).expect("valid")
}

fn factorial(n: u32) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

/// The count by components alone, which must finish.
fn by_components(puzzle: &ColorPuzzle) -> ExactCount {
    let progress = CountProgress::default();
    let limits = CountLimits::default();
    count_by_components_alone(puzzle, limits, &AtomicBool::new(false), &progress).expect("counts")
}

/// The number of solutions, by the test-only enumeration.
fn enumerated(puzzle: &ColorPuzzle) -> u64 {
    crate::test_enumeration::count(puzzle)
}

#[test]
fn colour_bands_have_m_factorial_to_the_k_solutions() {
    for (k, m) in [(2, 1), (2, 3), (3, 4), (4, 5), (2, 6)] {
        let puzzle = colour_bands(k, m);
        let counted = by_components(&puzzle);
        assert_eq!(
            counted.count,
            factorial(m as u32).pow(k as u32),
            "k {k}, m {m}"
        );
        // One solution is found by propagation alone.
        let components = matches!(counted.method, ExactMethod::Components { .. });
        assert_eq!(components, m > 1, "{:?}", counted.method);
    }
    // Small enough to enumerate: the same.
    let puzzle = colour_bands(2, 3);
    assert_eq!(enumerated(&puzzle), 36);
}

/// The bands split apart: each column falls into one segment per colour, whose blocks touch
/// without a gap.
#[test]
fn colour_bands_fall_apart_into_one_component_per_band() {
    let puzzle = colour_bands(3, 4);
    let root = crate::choose::probed_root(&puzzle)
        .expect("valid")
        .expect("solvable");
    assert_eq!(
        components::largest_component(&puzzle, &root, &|| false),
        Some((48, 16))
    );
}

/// Profiles and the sweep count the bands as components do, and `count_exact` counts them by
/// profiles.
#[test]
fn colour_bands_are_counted_by_profiles_and_by_the_sweep() {
    for (k, m) in [(2, 1), (2, 3), (3, 4), (4, 5), (2, 6)] {
        let puzzle = colour_bands(k, m);
        let expected = factorial(m as u32).pow(k as u32);
        assert_eq!(profile_count(&puzzle), expected, "profiles, k {k}, m {m}");
        assert_eq!(sweep_count(&puzzle), expected, "sweep, k {k}, m {m}");
        let progress = CountProgress::default();
        let counted = count_exact(
            &puzzle,
            CountLimits::default(),
            &AtomicBool::new(false),
            &progress,
        )
        .expect("counts");
        assert_eq!(counted.count, expected, "k {k}, m {m}");
        let profiles = matches!(counted.method, ExactMethod::Profiles { .. });
        assert_eq!(profiles, m > 1, "{:?}", counted.method);
    }
}

/// Blocks of different colours touch in every column of the pairs: profiles and the sweep
/// count them as enumeration does.
#[test]
fn touching_colours_are_counted_by_profiles_and_by_the_sweep() {
    for n in 1..=5 {
        let puzzle = colour_pairs(n);
        let expected = BigUint::from(enumerated(&puzzle));
        assert_eq!(profile_count(&puzzle), expected, "profiles, n {n}");
        assert_eq!(sweep_count(&puzzle), expected, "sweep, n {n}");
    }
}

#[test]
fn colour_counts_past_u128_switch_to_big_integers() {
    // (3!)^50, about 8.1e38.
    let puzzle = colour_bands(50, 3);
    let expected = factorial(3).pow(50);
    assert!(expected > BigUint::from(u128::MAX));
    assert_eq!(by_components(&puzzle).count, expected);
    assert_eq!(profile_count(&puzzle), expected);
    assert_eq!(sweep_count(&puzzle), expected);
}

#[test]
fn cancelled_colour_counts_give_a_lower_bound() {
    let puzzle = colour_pairs(6);
    let expected = BigUint::from(enumerated(&puzzle));
    let root = crate::choose::probed_root(&puzzle)
        .expect("valid")
        .expect("solvable");
    let (cancelled, bounded) =
        super::stop_tests::cancel_components_ever_later(&puzzle, &root, &expected, "colour pairs");
    assert!(cancelled > 0, "no count was cancelled part way");
    assert!(bounded > 0, "no cancelled count had counted a solution");
    // A raised flag stops the whole count, marked as cancelled.
    let progress = CountProgress::default();
    let limits = CountLimits::default();
    let error = count_by_components_alone(&puzzle, limits, &AtomicBool::new(true), &progress)
        .expect_err("cancelled");
    assert_eq!(error, CountError::Cancelled);
}

/// The solutions and, row by row and cell by cell, in how many each cell holds each colour,
/// by enumerating them.
fn per_colour_enumerated(puzzle: &ColorPuzzle) -> (BigUint, Vec<Vec<Vec<BigUint>>>) {
    let colours = puzzle.colors.len() - 1;
    let mut counts = vec![vec![vec![0u64; colours]; puzzle.width()]; puzzle.height()];
    let mut total = 0u64;
    crate::test_enumeration::each_solution(puzzle, |grid| {
        total += 1;
        for (row, cells) in counts.iter_mut().enumerate() {
            for (col, cell) in cells.iter_mut().enumerate() {
                let value = grid.cell(row, col).trailing_zeros() as usize;
                if value > 0 {
                    cell[value - 1] += 1;
                }
            }
        }
        true
    });
    let big = |cell: Vec<u64>| cell.into_iter().map(BigUint::from).collect();
    let rows = counts
        .into_iter()
        .map(|row| row.into_iter().map(big).collect())
        .collect();
    (BigUint::from(total), rows)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Per-colour counts by profiles are those of enumeration.
    #[test]
    fn per_colour_counts_of_colour_pictures_are_those_of_enumeration(
        puzzle in colour_picture(6),
    ) {
        let root = crate::choose::probed_root(&puzzle).expect("valid").expect("a solution");
        let cancel = AtomicBool::new(false);
        let counted = count_per_colour_by_profiles(&puzzle, &root, 1 << 20, &cancel)
            .expect("counts");
        prop_assert_eq!(counted, per_colour_enumerated(&puzzle));
    }

    #[test]
    fn components_count_colour_pictures_as_enumeration_does(puzzle in colour_picture(6)) {
        let counted = by_components(&puzzle).count;
        prop_assert!(counted >= BigUint::from(1u8));
        prop_assert_eq!(counted, BigUint::from(enumerated(&puzzle)));
    }

    /// Completion checks of every set of cells (colour learning searches) change no count.
    #[test]
    fn components_count_colour_pictures_alike_with_and_without_completion_checks(
        puzzle in colour_picture(6),
    ) {
        let expected = BigUint::from(enumerated(&puzzle));
        for checks in CHECKING {
            prop_assert_eq!(component_count_checking(&puzzle, checks), expected.clone());
        }
    }

    /// Profiles, the sweep, components and enumeration agree.
    #[test]
    fn every_method_counts_colour_pictures_as_enumeration_does(puzzle in colour_picture(6)) {
        let enumerated = BigUint::from(enumerated(&puzzle));
        prop_assert_eq!(&profile_count(&puzzle), &enumerated);
        prop_assert_eq!(&sweep_count(&puzzle), &enumerated);
        prop_assert_eq!(&by_components(&puzzle).count, &enumerated);
    }
}
