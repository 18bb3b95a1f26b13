//! Tests of the entry point: reading, counting (by either palette's exact counter, per cell,
//! cancelled), deciding and listing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;

use super::*;
use crate::count::{CountLimits, ExactMethod};
use crate::flow::Flow;
use crate::search::{SolveError, SolverOptions};
use crate::test_strategies::{colour_bands, permutations};

const PERM3: &str = "3 3\n1\n1\n1\n1\n1\n1\n";

#[test]
fn counting_listing_and_deciding_agree() {
    let puzzle = AnyPuzzle::parse(PERM3).expect("a puzzle");
    assert_eq!(puzzle.count().expect("counts"), BigUint::from(6u8));
    let mut all: Vec<Vec<String>> = puzzle.solutions().map(|s| s.rows()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 6);
    assert!(
        all.iter()
            .all(|rows| rows.iter().all(|r| r.matches('#').count() == 1))
    );
    assert!(matches!(
        puzzle.solve().expect("decides"),
        Verdict::Multiple(..)
    ));
    assert!(puzzle.first_solutions(0).expect("finds").is_empty());
    assert_eq!(puzzle.first_solutions(4).expect("finds").len(), 4);
}

#[test]
fn a_dropped_iterator_stops_the_search() {
    let text = format!("9 9\n{}", "1\n".repeat(18));
    let puzzle = AnyPuzzle::parse(&text).expect("a puzzle");
    let mut solutions = puzzle.solutions();
    assert!(solutions.next().is_some());
    drop(solutions);
}

#[test]
fn colour_puzzles_are_decided_and_counted() {
    use crate::color::{Color, ColorPuzzle};
    let palette = vec![
        Color::new("white", [255, 255, 255], '.'),
        Color::new("red", [255, 0, 0], 'r'),
        Color::new("blue", [0, 0, 255], 'b'),
    ];
    let picture = ColorPuzzle::from_picture(palette, 2, 2, &[1, 2, 2, 1]).expect("valid");
    let puzzle = AnyPuzzle::Color(picture);
    let Verdict::Unique(only) = puzzle.solve().expect("decides") else {
        panic!("the picture is unique");
    };
    assert_eq!(only.rows(), vec!["rb", "br"]);
    assert_eq!(only.get(0, 1), 2);
    assert_eq!(puzzle.count().expect("counts"), BigUint::from(1u8));
}

#[test]
fn colour_puzzles_are_counted_by_profiles_or_components() {
    // (3!)^3 solutions.
    let puzzle = AnyPuzzle::Color(colour_bands(3, 3));
    assert_eq!(puzzle.count().expect("counts"), BigUint::from(216u16));
    let count_with = |limits: CountLimits| {
        let options = CountOptions {
            threads: 2,
            limits,
            ..CountOptions::default()
        };
        let ExactOutcome::Counted(exact) = puzzle.counter(options).run().expect("counts") else {
            panic!("a colour puzzle is counted without enumerating");
        };
        assert_eq!(exact.count, BigUint::from(216u16));
        assert!(exact.unknown_cells > 0);
        exact.method
    };
    let method = count_with(CountLimits::default());
    assert!(matches!(method, ExactMethod::Profiles { .. }), "{method:?}");
    let no_profiles_or_sweep = CountLimits {
        max_profiles: 0,
        sweep_memory: 0,
        ..CountLimits::default()
    };
    let method = count_with(no_profiles_or_sweep);
    assert!(
        matches!(method, ExactMethod::Components { .. }),
        "{method:?}"
    );
    let too_many = CountOptions {
        threads: crate::search::MAX_THREADS + 1,
        ..CountOptions::default()
    };
    let refused = puzzle.counter(too_many).run();
    assert!(
        matches!(
            refused,
            Err(CountFailure::Search(SolveError::Threads { .. }))
        ),
        "{refused:?}"
    );
}

#[test]
fn black_and_white_is_counted_exactly_or_per_cell_by_profiles() {
    let puzzle = AnyPuzzle::Bw(permutations(4));
    let ExactOutcome::Counted(exact) = puzzle
        .counter(CountOptions::default())
        .run()
        .expect("counts")
    else {
        panic!("counted");
    };
    assert_eq!(exact.count, BigUint::from(24u8));
    assert!(matches!(exact.method, ExactMethod::Profiles { .. }));

    let per_cell = CountOptions {
        per_cell: true,
        ..CountOptions::default()
    };
    // Each cell is filled in 3! of the 4! solutions.
    let expected = ExactOutcome::CountedPerCell {
        count: BigUint::from(24u8),
        per_cell: vec![vec![BigUint::from(6u8); 4]; 4],
    };
    assert_eq!(
        puzzle.counter(per_cell.clone()).run().expect("counts"),
        expected
    );

    // No solution (the first column's 2 would cross the empty middle row): no cell filled
    // in any.
    let none = AnyPuzzle::parse("3 3\n1 1\n0\n1\n2\n0\n1\n").expect("a puzzle");
    let expected = ExactOutcome::CountedPerCell {
        count: BigUint::ZERO,
        per_cell: vec![vec![BigUint::ZERO; 3]; 3],
    };
    assert_eq!(none.counter(per_cell).run().expect("counts"), expected);
}

/// The solutions of `puzzle` and, row by row and cell by cell, in how many each cell holds
/// each palette index, by enumerating them on one thread.
fn per_colour_enumerated(puzzle: &AnyPuzzle, colours: usize) -> (BigUint, Vec<Vec<Vec<u64>>>) {
    let options = SolverOptions {
        threads: 1,
        ..SolverOptions::default()
    };
    let mut counts = Vec::new();
    let outcome = puzzle
        .solver(options)
        .run(|grid| {
            let width = grid.width();
            counts.resize(grid.height(), vec![vec![0u64; colours]; width]);
            for (i, value) in grid.to_cells().into_iter().enumerate() {
                counts[i / width][i % width][usize::from(value)] += 1;
            }
            Flow::Continue
        })
        .expect("runs");
    assert!(outcome.exhausted);
    (BigUint::from(outcome.solutions), counts)
}

#[test]
fn colour_is_counted_per_cell_by_profiles_as_enumeration_counts_it() {
    let per_cell = CountOptions {
        per_cell: true,
        ..CountOptions::default()
    };
    // Three colours in bands of 1s, and a small picture whose blocks of two colours touch.
    let picture = "Touching blocks\n#d\n   0:   #FFFFFF   white\n   r:*  #FF0000   red\n\
        \x20  u:@  #0000FF   blue\n: rows\n1r 2u\n1r 1u\n2u 1r\n1u 1r\n\
        : columns\n1r 1u\n1r 2u\n2u 1r\n1u 1r\n";
    let puzzles = [
        AnyPuzzle::Color(colour_bands(3, 3)),
        AnyPuzzle::parse(picture).expect("a colour puzzle"),
    ];
    for puzzle in &puzzles {
        let AnyPuzzle::Color(p) = puzzle else {
            panic!("colour");
        };
        let (total, enumerated) = per_colour_enumerated(puzzle, p.colors.len());
        assert!(total > BigUint::from(1u8), "{total}");
        let ExactOutcome::CountedPerColour { count, per_colour } =
            puzzle.counter(per_cell.clone()).run().expect("counts")
        else {
            panic!("counted per colour");
        };
        assert_eq!(count, total);
        let big = |rows: &Vec<Vec<Vec<u64>>>| -> Vec<Vec<Vec<BigUint>>> {
            rows.iter()
                .map(|row| {
                    row.iter()
                        .map(|cell| cell.iter().map(|&n| BigUint::from(n)).collect())
                        .collect()
                })
                .collect()
        };
        assert_eq!(per_colour, big(&enumerated));
    }
}

#[test]
fn per_cell_counts_past_their_profiles_need_an_enumeration() {
    // 6 x 6 permutations: 2^6 = 64 profiles in all, over 8 x 4.
    let options = CountOptions {
        per_cell: true,
        limits: CountLimits {
            max_profiles: 4,
            ..CountLimits::default()
        },
        ..CountOptions::default()
    };
    let outcome = AnyPuzzle::Bw(permutations(6))
        .counter(options.clone())
        .run();
    assert_eq!(
        outcome.expect("counts"),
        ExactOutcome::NeedsEnumeration(EnumerationNeeded::TooManyProfiles { limit: 32 })
    );
}

#[test]
fn a_raised_cancel_flag_cancels_the_count() {
    let raised = || Arc::new(AtomicBool::new(true));
    let puzzles = [
        AnyPuzzle::Bw(permutations(9)),
        AnyPuzzle::Color(colour_bands(3, 4)),
    ];
    for per_cell in [false, true] {
        for puzzle in &puzzles {
            let options = CountOptions {
                per_cell,
                ..CountOptions::default()
            };
            let outcome = puzzle
                .counter(options)
                .with_cancel_flag(raised())
                .run()
                .expect("stops");
            assert!(
                matches!(outcome, ExactOutcome::Cancelled { .. }),
                "per cell {per_cell}: {outcome:?}"
            );
        }
    }
}

#[test]
fn one_solver_runs_either_palette() {
    for (puzzle, solutions) in [
        (AnyPuzzle::Bw(permutations(4)), 24),
        (AnyPuzzle::Color(colour_bands(2, 3)), 36),
    ] {
        let solver = puzzle.solver(SolverOptions::default());
        let mut seen = 0;
        let outcome = solver
            .run(|grid| {
                let cells = grid.to_cells();
                assert_eq!(cells.len(), grid.width() * grid.height());
                match (grid, &puzzle) {
                    (AnyGrid::Bw(_), AnyPuzzle::Bw(_)) => {}
                    (AnyGrid::Color(_, p), AnyPuzzle::Color(q)) => assert_eq!(p, q),
                    _ => panic!("a grid of the other palette"),
                }
                seen += 1;
                Flow::Continue
            })
            .expect("runs");
        assert_eq!((outcome.solutions, seen), (solutions, solutions));
        assert!(outcome.exhausted);
        assert_eq!(solver.stats().snapshot().solutions, solutions);

        let cancelled = puzzle
            .solver(SolverOptions::default())
            .with_cancel_flag(Arc::new(AtomicBool::new(true)))
            .run(|_| Flow::Continue)
            .expect("runs");
        assert!(!cancelled.exhausted);
    }
}

#[test]
fn a_missing_file_is_named() {
    let error = AnyPuzzle::read("no/such/file.txt").expect_err("missing file");
    assert!(
        error.to_string().starts_with("no/such/file.txt: "),
        "{error}"
    );
}

#[test]
fn reading_a_file_stops_at_the_input_cap() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let small = dir.path().join("perm3.txt");
    std::fs::write(&small, PERM3).expect("write");
    assert!(AnyPuzzle::read(&small).is_ok());
    if std::path::Path::new("/dev/zero").exists() {
        let error = AnyPuzzle::read("/dev/zero").expect_err("endless");
        assert!(matches!(error, ReadError::TooLarge { .. }), "{error}");
        assert!(error.to_string().contains("larger than 64 MiB"), "{error}");
    }
}
