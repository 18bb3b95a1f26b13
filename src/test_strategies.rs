//! Proptest strategies and puzzles shared by the unit tests of several modules.

use proptest::prelude::*;

use crate::color::{Block, Color, ColorClue, ColorPuzzle};
use crate::puzzle::{Clue, Given, Puzzle};

/// Cases a fuzzing target runs: `NONOENUM_FUZZ_CASES`, or `default` (what the suite runs).
pub(crate) fn fuzz_cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("NONOENUM_FUZZ_CASES").ok();
    ProptestConfig::with_cases(cases.and_then(|n| n.parse().ok()).unwrap_or(default))
}

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

/// The clues of random black-and-white pictures, `min` to `max` cells a side, each cell black
/// with chance `density`.
pub(crate) fn bw_picture(min: usize, max: usize, density: f64) -> impl Strategy<Value = Puzzle> {
    (min..=max, min..=max).prop_flat_map(move |(h, w)| {
        proptest::collection::vec(proptest::bool::weighted(density), h * w)
            .prop_map(move |cells| Puzzle::from_picture(h, w, &cells).expect("valid"))
    })
}

/// A random picture of `h` x `w` cells, about 40% filled, from a fixed seed.
pub(crate) fn seeded_picture(h: usize, w: usize, seed: u64) -> Puzzle {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let cells: Vec<bool> = (0..h * w)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % 100 < 40
        })
        .collect();
    Puzzle::from_picture(h, w, &cells).expect("valid")
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

/// A grid of `k` x `k` squares of 2x2 cells, a row and a column given empty between them,
/// every line's clue `k` blocks of 1: each square holds one of its diagonals.
pub(crate) fn grid_of_squares(k: usize) -> Puzzle {
    let n = 3 * k - 1;
    let line = |i: usize| {
        if i % 3 == 2 {
            "0".to_string()
        } else {
            vec!["1"; k].join(" ")
        }
    };
    let lines: Vec<String> = (0..n).map(line).collect();
    let text = format!("{n} {n}\n{}\n{}\n", lines.join("\n"), lines.join("\n"));
    crate::format::nin::parse(&text).expect("parses")
}

/// The background and `colors` more.
pub(crate) fn palette(colors: usize) -> Vec<Color> {
    let mut palette = vec![Color::new("white", [255; 3], '.')];
    let chars = ('a'..='z').chain('A'..='Z');
    for (i, ch) in (1..=colors).zip(chars) {
        palette.push(Color::new(format!("c{i}"), [4 * i as u8, 0, 0], ch));
    }
    palette
}

/// `k` bands of `m` rows over `m` columns: each row of band `c` holds one cell of colour
/// `c + 1`, and each column one cell of every colour, in band order. Each band is an `m` x `m`
/// permutation, independent of the others: `(m!)^k` solutions.
pub(crate) fn colour_bands(k: usize, m: usize) -> ColorPuzzle {
    let one = |c: usize| Block {
        len: 1,
        color: c as u8 + 1,
    };
    let rows = (0..k * m).map(|r| ColorClue(vec![one(r / m)])).collect();
    let cols = (0..m)
        .map(|_| ColorClue((0..k).map(one).collect()))
        .collect();
    ColorPuzzle::new(palette(k), rows, cols).expect("valid")
}

/// A picture of 2 to `max` rows and columns with 2 to 4 colours, the background included.
pub(crate) fn colour_picture(max: usize) -> impl Strategy<Value = ColorPuzzle> {
    (2..=max, 2..=max, 2usize..=4).prop_flat_map(|(h, w, n)| {
        proptest::collection::vec(0..n as u8, h * w).prop_map(move |cells| {
            ColorPuzzle::from_picture(palette(n - 1), h, w, &cells).expect("valid")
        })
    })
}
