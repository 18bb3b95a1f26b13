//! Proptest strategies and puzzles shared by the unit tests of several modules.

use proptest::prelude::*;

use crate::puzzle::{Clue, Given, Puzzle};

/// Random clues (most of them contradictory) for a grid of 2 to `max` rows and columns: each
/// line gets blocks of 1 to 3 cells that fit it, whatever the crossing lines say.
pub(crate) fn random_clues(max: usize) -> impl Strategy<Value = Puzzle> {
    let line = |len: usize| {
        proptest::collection::vec(1u32..=3, 0..=len.div_ceil(2)).prop_filter_map(
            "fits",
            move |blocks| {
                let need = blocks.iter().sum::<u32>() as usize + blocks.len().saturating_sub(1);
                (need <= len).then_some(Clue(blocks))
            },
        )
    };
    (2..=max, 2..=max).prop_flat_map(move |(h, w)| {
        (
            proptest::collection::vec(line(w), h),
            proptest::collection::vec(line(h), w),
        )
            .prop_filter_map("valid", |(rows, cols)| Puzzle::new(rows, cols).ok())
    })
}

/// The n x n puzzle whose every clue is `1`: n! solutions.
pub(crate) fn permutations(n: usize) -> Puzzle {
    let ones = || (0..n).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    Puzzle::new(ones(), ones()).expect("valid")
}

/// `squares` independent 2x2 squares on the diagonal, each holding one of its two diagonals:
/// 2^squares solutions. Every cell off the squares is given empty, or the clues (all `1`)
/// would allow (2 x squares)!.
pub(crate) fn diagonal_squares(squares: usize) -> Puzzle {
    let n = 2 * squares;
    let mut cells = vec![false; n * n];
    for s in 0..squares {
        cells[2 * s * n + 2 * s] = true;
        cells[(2 * s + 1) * n + 2 * s + 1] = true;
    }
    let mut puzzle = Puzzle::from_picture(n, n, &cells).expect("valid");
    for row in 0..n {
        for col in (0..n).filter(|&col| col / 2 != row / 2) {
            puzzle.givens.push(Given {
                row,
                col,
                filled: false,
            });
        }
    }
    puzzle
}

/// A colour puzzle whose count is known by construction: `colors` colours and `m` columns over
/// `colors * m` rows. Each row holds one cell, of its band's colour (rows `c * m ..` hold colour
/// `c + 1`), and each column holds one cell of each colour, in band order: `(m!)^colors`
/// solutions.
pub(crate) fn colour_bands(colors: u8, m: usize) -> crate::color::ColorPuzzle {
    use crate::color::{Block, Color, ColorClue, ColorPuzzle};
    let mut palette = vec![Color::new("white", [255; 3], '.')];
    palette.extend((1..=colors).map(|c| Color::new(format!("c{c}"), [c; 3], char::from(b'a' + c))));
    let block = |color: u8| Block { len: 1, color };
    let rows = (0..usize::from(colors) * m)
        .map(|r| ColorClue(vec![block((r / m) as u8 + 1)]))
        .collect();
    let cols = (0..m)
        .map(|_| ColorClue((1..=colors).map(block).collect()))
        .collect();
    ColorPuzzle::new(palette, rows, cols).expect("valid")
}
