//! The multi-word bit-parallel solver ([`LongLineSolver`]) against the array DP on long lines
//! (random ones, and ones whose blocks and known cells straddle word boundaries), against the
//! naive solver on short lines, and its block starts against the one-word solver's.

use proptest::prelude::*;

use super::tests::{parse, run};
use super::{BitLineSolver, DpLineSolver, LineIn, LongLineSolver, NaiveLineSolver};
use crate::rng::SplitMix;

/// A random line of `len` cells and a clue: a random picture (of random density) gives the
/// clue, and some of its cells, or of another picture's, are revealed. `mode` 0 reveals the
/// picture's own cells (solvable), 1 does so and flips one, 2 reveals another picture's cells
/// (often a contradiction when many are revealed), 3 gives a random clue that may not even
/// fit (though no block is longer than the line); 4 and 5 are 0 or 1 (at random) with a picture of one block (of any length), or of at
/// most one filled cell, so that clues of one block and of none are common.
fn random_line(seed: u64, len: usize, mode: u8) -> (Vec<u32>, String) {
    let mut rng = SplitMix(seed);
    let density = 1 + rng.next() % 9;
    let reveal = rng.next() % 12;
    let (start, block) = match mode {
        4 => {
            let block = 1 + rng.next() as usize % len;
            (rng.next() as usize % (len - block + 1), block)
        }
        _ => (rng.next() as usize % len, rng.next() as usize % 2),
    };
    let picture = |rng: &mut SplitMix| -> Vec<bool> {
        (0..len)
            .map(|i| match mode {
                4 | 5 => (start..start + block).contains(&i),
                _ => rng.chance(density, 10),
            })
            .collect()
    };
    let own = picture(&mut rng);
    let mut clue = crate::puzzle::blocks_of(own.iter().copied());
    let shown = if mode == 2 { picture(&mut rng) } else { own };
    let mut line: Vec<char> = shown
        .iter()
        .map(|&f| match (rng.chance(reveal, 20), f) {
            (true, true) => '#',
            (true, false) => '.',
            _ => '?',
        })
        .collect();
    if mode == 1 || (mode >= 4 && rng.chance(1, 2)) {
        let at = rng.next() as usize % len;
        line[at] = match line[at] {
            '#' => '.',
            _ => '#',
        };
    }
    if mode == 3 {
        let blocks = rng.next() % 8;
        // No block longer than the line (the one-word solver's shifts assume so; puzzles
        // with such a clue are refused when read), but their sum may be.
        let longest = len.min(200) as u64;
        clue = (0..blocks)
            .map(|_| 1 + (rng.next() % longest) as u32)
            .collect();
    }
    (clue, line.into_iter().collect())
}

/// The long solver's solve and feasibility, and the bit solver's (which hands lines over 126
/// cells to it), against the DP.
fn check_against_dp(clue: &[u32], line: &str) -> Result<(), TestCaseError> {
    let dp = run(&mut DpLineSolver::new(), clue, line);
    let long = run(&mut LongLineSolver::new(), clue, line);
    prop_assert_eq!(&long, &dp, "long: clue {:?} line {}", clue, line);
    let bits = run(&mut BitLineSolver::new(), clue, line);
    prop_assert_eq!(&bits, &dp, "bits: clue {:?} line {}", clue, line);
    let (len, filled, empty) = parse(line);
    let known = LineIn {
        clue,
        len,
        filled: &filled,
        empty: &empty,
    };
    let feasible = LongLineSolver::new().feasible(known);
    prop_assert_eq!(
        feasible,
        dp.is_ok(),
        "feasible: clue {:?} line {}",
        clue,
        line
    );
    let feasible = BitLineSolver::new().feasible(clue, len, &filled, &empty);
    prop_assert_eq!(
        feasible,
        dp.is_ok(),
        "bits feasible: clue {:?} line {}",
        clue,
        line
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn long_solver_equals_dp_on_random_long_lines(
        seed in any::<u64>(),
        len in 127usize..=700,
        mode in 0u8..6,
    ) {
        let (clue, line) = random_line(seed, len, mode);
        check_against_dp(&clue, &line)?;
    }

    /// On short lines (one or two words) the naive solver is the reference.
    #[test]
    fn long_solver_equals_naive_on_short_lines(
        seed in any::<u64>(),
        len in 1usize..=14,
        mode in 0u8..6,
    ) {
        let (clue, line) = random_line(seed, len, mode);
        let naive = run(&mut NaiveLineSolver, &clue, &line);
        let long = run(&mut LongLineSolver::new(), &clue, &line);
        prop_assert_eq!(long, naive, "clue {:?} line {}", clue, line);
    }

    /// Up to 126 cells the one-word solver's block starts are the reference.
    #[test]
    fn long_block_starts_equal_one_word_ones(
        seed in any::<u64>(),
        len in 1usize..=126,
        mode in 0u8..6,
    ) {
        let (clue, line) = random_line(seed, len, mode);
        let (len, filled, empty) = parse(&line);
        let mut expected = Vec::new();
        let one_word = BitLineSolver::new()
            .block_starts(&clue, len, &filled, &empty, &mut expected)
            .expect("no block of length 0");
        let known = LineIn { clue: &clue, len, filled: &filled, empty: &empty };
        let mut got = Vec::new();
        let long = LongLineSolver::new().block_starts(known, &mut got);
        prop_assert_eq!(long.is_ok(), one_word.is_ok(), "clue {:?} line {}", clue, line);
        if long.is_ok() {
            prop_assert_eq!(got, expected, "clue {:?} line {}", clue, line);
        }
    }
}

/// Lengths on both sides of word boundaries (positions `0..=len + 1` need `len + 2` bits).
const BOUNDARY_LENGTHS: [usize; 20] = [
    127, 128, 129, 190, 191, 192, 193, 254, 255, 256, 257, 258, 318, 319, 320, 321, 383, 384, 512,
    1000,
];

#[test]
fn long_solver_equals_dp_across_word_boundaries() {
    let mut rng = SplitMix(7);
    for len in BOUNDARY_LENGTHS {
        let n = len as u32;
        // Blocks that fill the line, or end at, start at or cross a word boundary.
        let clues = [
            vec![],
            vec![1],
            vec![n],
            vec![n - 1],
            vec![n - 2, 1],
            vec![63, 1, 62],
            vec![64, 64],
            vec![62, 1, 1, 60],
            vec![n / 2, n / 2 - 1],
            vec![1; len / 2],
            vec![1; len.div_ceil(2)],
            vec![2; len / 3],
            vec![65, 3, 64],
            vec![127],
        ];
        for clue in clues {
            if crate::puzzle::Clue(clue.clone()).min_len() > len as u64 {
                continue;
            }
            // Known cells around the word boundaries, and random ones.
            let mut lines = vec!["?".repeat(len)];
            for at in [62, 63, 64, 65, 126, 127, 128, 129, len - 2, len - 1] {
                for ch in ['#', '.'] {
                    let mut line: Vec<char> = "?".repeat(len).chars().collect();
                    if let Some(c) = line.get_mut(at) {
                        *c = ch;
                    }
                    lines.push(line.into_iter().collect());
                }
            }
            for _ in 0..6 {
                let line: String = (0..len)
                    .map(|_| match rng.next() % 40 {
                        0 => '#',
                        1 => '.',
                        _ => '?',
                    })
                    .collect();
                lines.push(line);
            }
            for line in lines {
                check_against_dp(&clue, &line).expect("the long solver agrees with the DP");
            }
        }
        for mode in 0..6 {
            for _ in 0..10 {
                let (clue, line) = random_line(rng.next(), len, mode);
                check_against_dp(&clue, &line).expect("the long solver agrees with the DP");
            }
        }
    }
}

/// Block starts past the first words: the same line behind a run of known empty cells starts
/// every block that much later.
#[test]
fn long_block_starts_shift_with_an_empty_prefix() {
    let mut rng = SplitMix(11);
    for prefix in [64, 130, 200, 640] {
        for mode in 0..6 {
            for _ in 0..20 {
                let (clue, line) = random_line(rng.next(), 1 + rng.next() as usize % 120, mode);
                let longer = ".".repeat(prefix) + &line;
                let starts = |line: &str| {
                    let (len, filled, empty) = parse(line);
                    let known = LineIn {
                        clue: &clue,
                        len,
                        filled: &filled,
                        empty: &empty,
                    };
                    let mut out = Vec::new();
                    LongLineSolver::new()
                        .block_starts(known, &mut out)
                        .map(|()| out)
                };
                let shifted = starts(&line).map(|out| {
                    out.iter()
                        .map(|&(a, b)| (a + prefix as u32, b + prefix as u32))
                        .collect::<Vec<_>>()
                });
                assert_eq!(starts(&longer), shifted, "clue {clue:?} line {line}");
            }
        }
    }
}

/// A line of no cells holds the empty clue only.
#[test]
fn long_solver_on_a_line_of_no_cells() {
    for clue in [vec![], vec![1], vec![2, 1]] {
        let expected = run(&mut DpLineSolver::new(), &clue, "");
        assert_eq!(
            run(&mut LongLineSolver::new(), &clue, ""),
            expected,
            "{clue:?}"
        );
        let (filled, empty) = ([0], [0]);
        let known = LineIn {
            clue: &clue,
            len: 0,
            filled: &filled,
            empty: &empty,
        };
        assert_eq!(LongLineSolver::new().feasible(known), expected.is_ok());
        let mut starts = Vec::new();
        let got = LongLineSolver::new().block_starts(known, &mut starts);
        assert_eq!(got.is_ok(), expected.is_ok(), "{clue:?}");
    }
}

/// One solver for many lines of different lengths: no state leaks from one solve to the next.
#[test]
fn long_solver_reused_across_lengths() {
    let mut rng = SplitMix(3);
    let mut solver = LongLineSolver::new();
    for _ in 0..200 {
        let len = 1 + rng.next() as usize % 400;
        let (clue, line) = random_line(rng.next(), len, (rng.next() % 6) as u8);
        let fresh = run(&mut DpLineSolver::new(), &clue, &line);
        assert_eq!(
            run(&mut solver, &clue, &line),
            fresh,
            "clue {clue:?} line {line}"
        );
    }
}

/// A line past eight words (where the passes keep to each block's window of words), mostly
/// known: a random picture with most of its cells shown, sometimes one of them flipped.
fn mostly_known_line(rng: &mut SplitMix) -> (Vec<u32>, String) {
    let len = 511 + rng.next() as usize % 800;
    let density = 2 + rng.next() % 7;
    let picture: Vec<bool> = (0..len).map(|_| rng.chance(density, 10)).collect();
    let clue = crate::puzzle::blocks_of(picture.iter().copied());
    let hidden = [1, 5, 20, 50][rng.next() as usize % 4];
    let mut line: Vec<char> = picture
        .iter()
        .map(|&f| match (rng.chance(hidden, 100), f) {
            (true, _) => '?',
            (false, true) => '#',
            (false, false) => '.',
        })
        .collect();
    if rng.chance(1, 4) {
        let at = rng.next() as usize % len;
        line[at] = if line[at] == '#' { '.' } else { '#' };
    }
    (clue, line.into_iter().collect())
}

/// Each block's earliest and latest start, by a dynamic program over cells and blocks as
/// plain as can be: block `j` starts at `s` when blocks `..j` fit before `s - 1`, its cells
/// can be filled, the cell after it can be empty and blocks `j + 1..` fit after that.
fn block_starts_by_cells(clue: &[u32], line: &str) -> Option<Vec<(u32, u32)>> {
    let cells: Vec<char> = line.chars().collect();
    let (len, k) = (cells.len(), clue.len());
    let can = |i: usize, c: char| cells[i] == '?' || cells[i] == c;
    let fits_at = |j: usize, s: usize| {
        let end = s + clue[j] as usize;
        end <= len && (s..end).all(|i| can(i, '#')) && (end == len || can(end, '.'))
    };
    // prefix[j][p]: blocks `..j` fit in cells `..p`; suffix[j][p]: blocks `j..` in `p..`.
    let mut prefix = vec![vec![false; len + 1]; k + 1];
    prefix[0][0] = true;
    for p in 1..=len {
        prefix[0][p] = prefix[0][p - 1] && can(p - 1, '.');
    }
    let mut suffix = vec![vec![false; len + 2]; k + 1];
    suffix[k][len] = true;
    suffix[k][len + 1] = true;
    for p in (0..len).rev() {
        suffix[k][p] = suffix[k][p + 1] && can(p, '.');
    }
    for j in 0..k {
        for p in 1..=len {
            let block = clue[j] as usize;
            let placed = p >= block && {
                let s = p - block;
                let before = if s == 0 {
                    j == 0
                } else {
                    prefix[j][s - 1] && can(s - 1, '.')
                };
                before && (s..p).all(|i| can(i, '#'))
            };
            prefix[j + 1][p] = placed || prefix[j + 1][p - 1] && can(p - 1, '.');
        }
    }
    for j in (0..k).rev() {
        for p in (0..=len).rev() {
            let here = fits_at(j, p) && suffix[j + 1][(p + clue[j] as usize + 1).min(len + 1)];
            suffix[j][p] = here || p < len && can(p, '.') && suffix[j][p + 1];
        }
    }
    let mut out = Vec::new();
    for j in 0..k {
        let block = clue[j] as usize;
        let mut starts = (0..len).filter(|&s| {
            let before = if s == 0 {
                j == 0
            } else {
                prefix[j][s - 1] && can(s - 1, '.')
            };
            before && fits_at(j, s) && suffix[j + 1][(s + block + 1).min(len + 1)]
        });
        let first = starts.next()?;
        let last = starts.next_back().unwrap_or(first);
        out.push((first as u32, last as u32));
    }
    (k > 0 || suffix[0][0]).then_some(out)
}

/// One solver for long, mostly known lines of many lengths, its solves, feasibility checks and
/// block starts taking turns: each agrees with the DP, and with the plain block starts above.
#[test]
fn long_solver_reused_on_mostly_known_lines() {
    let mut rng = SplitMix(11);
    let mut solver = LongLineSolver::new();
    let mut starts = Vec::new();
    for _ in 0..80 {
        let (clue, line) = mostly_known_line(&mut rng);
        let fresh = run(&mut DpLineSolver::new(), &clue, &line);
        assert_eq!(
            run(&mut solver, &clue, &line),
            fresh,
            "clue {clue:?} line {line}"
        );
        let (len, filled, empty) = parse(&line);
        let known = LineIn {
            clue: &clue,
            len,
            filled: &filled,
            empty: &empty,
        };
        assert_eq!(solver.feasible(known), fresh.is_ok(), "feasible: {line}");
        let expected = block_starts_by_cells(&clue, &line);
        let got = solver
            .block_starts(known, &mut starts)
            .map(|()| starts.clone());
        assert_eq!(
            got.ok(),
            expected,
            "block starts: clue {clue:?} line {line}"
        );
    }
}
