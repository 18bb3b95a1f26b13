//! The puzzle's tests: clues and pictures checked, givens outside the grid refused, and the
//! messages of bad ones.

use super::*;

fn clues(lines: &[&[u32]]) -> Vec<Clue> {
    lines.iter().map(|l| Clue(l.to_vec())).collect()
}

#[test]
fn blocks_of_counts_runs() {
    assert_eq!(blocks_of([true, true, false, true]), vec![2, 1]);
    assert_eq!(blocks_of([false, false]), Vec::<u32>::new());
    assert_eq!(blocks_of([true]), vec![1]);
}

#[test]
fn rejects_clue_too_long_and_bad_totals() {
    let err = Puzzle::new(clues(&[&[2, 1]]), clues(&[&[1], &[1], &[1]])).unwrap_err();
    assert!(matches!(
        err,
        PuzzleError::ClueTooLong {
            line: LineId::Row(0),
            needed: 4,
            ..
        }
    ));
    let err = Puzzle::new(clues(&[&[1]]), clues(&[&[1], &[1]])).unwrap_err();
    assert_eq!(err, PuzzleError::TotalsDisagree { rows: 1, cols: 2 });
    let err = Puzzle::new(clues(&[&[0, 1]]), clues(&[&[1], &[]])).unwrap_err();
    assert_eq!(
        err,
        PuzzleError::ZeroBlock {
            line: LineId::Row(0)
        }
    );
    // A lone 0, as files write an empty line, is the empty clue.
    let zero = Puzzle::new(clues(&[&[0], &[1]]), clues(&[&[1]])).unwrap();
    assert_eq!(zero.row_clues, clues(&[&[], &[1]]));
}

#[test]
fn pictures_of_the_wrong_size_are_refused() {
    let size = |cells| PuzzleError::PictureSize {
        cells,
        rows: 2,
        cols: 2,
    };
    assert_eq!(Puzzle::from_picture(2, 2, &[true; 3]), Err(size(3)));
    let mut puzzle = Puzzle::from_picture(2, 2, &[true; 4]).unwrap();
    assert_eq!(puzzle.check_grid(&[true; 5]), Err(size(5)));
    puzzle.goal = Some(vec![true; 2]);
    assert_eq!(puzzle.check(), Err(size(2)));
    assert_eq!(size(1).to_string(), "a picture of 1 cell for a 2 x 2 grid");
}

#[test]
fn messages_count_in_singular_and_plural() {
    let cases = [
        (
            PuzzleError::TotalsDisagree { rows: 1, cols: 2 },
            "row clues fill 1 cell but column clues fill 2",
        ),
        (
            PuzzleError::TotalsDisagree { rows: 3, cols: 1 },
            "row clues fill 3 cells but column clues fill 1",
        ),
        (
            PuzzleError::EmptyGrid { rows: 1, cols: 0 },
            "the grid has no cells (1 row x 0 columns)",
        ),
        (
            PuzzleError::EmptyGrid { rows: 0, cols: 1 },
            "the grid has no cells (0 rows x 1 column)",
        ),
        (
            PuzzleError::ClueTooLong {
                line: LineId::Col(0),
                clue: Clue(vec![1]),
                needed: 1,
                len: 0,
            },
            "column 1: clue \"1\" needs 1 cell but the line has only 0",
        ),
        (
            PuzzleError::ClueTooLong {
                line: LineId::Row(0),
                clue: Clue((1..=10).collect()),
                needed: 64,
                len: 5,
            },
            "row 1: clue \"1 2 3 4 5 6 7 8 9 10\" needs 64 cells but the line has only 5",
        ),
        (
            PuzzleError::ClueTooLong {
                line: LineId::Row(0),
                clue: Clue(vec![1; 3000]),
                needed: 5999,
                len: 5,
            },
            "row 1: clue \"1 1 1 1 1 1 1 1 …\" (3000 blocks) needs 5999 cells but the line has \
             only 5",
        ),
    ];
    for (error, expected) in cases {
        assert_eq!(error.to_string(), expected);
    }
    assert_eq!(counted(0usize, "cell"), "0 cells");
    assert_eq!(counted(1u64, "clue line"), "1 clue line");
}

#[test]
fn givens_far_outside_the_grid_are_refused_without_overflow() {
    let mut puzzle = Puzzle::new(clues(&[&[1]]), clues(&[&[1]])).unwrap();
    puzzle.givens.push(Given {
        row: usize::MAX,
        col: 0,
        filled: true,
    });
    assert!(matches!(
        puzzle.check(),
        Err(PuzzleError::GivenOutside {
            row: usize::MAX,
            col: 1,
            ..
        })
    ));
}

#[test]
fn from_picture_round_trips_through_check_grid() {
    let cells = [true, false, true, true, true, false];
    let puzzle = Puzzle::from_picture(2, 3, &cells).unwrap();
    assert_eq!(puzzle.row_clues, clues(&[&[1, 1], &[2]]));
    assert_eq!(puzzle.col_clues, clues(&[&[2], &[1], &[1]]));
    assert!(puzzle.check_grid(&cells).is_ok());
    let wrong = [true, false, true, true, false, true];
    assert!(puzzle.check_grid(&wrong).is_err());
}
