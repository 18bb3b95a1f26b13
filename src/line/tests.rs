//! Table-driven cases for both line solvers, and the property that they always agree.

use proptest::prelude::*;

use super::{
    BitLineSolver, Contradiction, DpLineSolver, LineIn, LineOut, LineSolver, NaiveLineSolver, bit,
    set_bit,
};

/// Parses a line drawn with `#` (filled), `.` (empty) and `?` (unknown) into bitsets.
pub(super) fn parse(line: &str) -> (usize, Vec<u64>, Vec<u64>) {
    let len = line.len();
    let words = len.div_ceil(64).max(1);
    let (mut filled, mut empty) = (vec![0; words], vec![0; words]);
    for (i, ch) in line.chars().enumerate() {
        match ch {
            '#' => set_bit(&mut filled, i),
            '.' => set_bit(&mut empty, i),
            _ => {}
        }
    }
    (len, filled, empty)
}

fn draw(len: usize, filled: &[u64], empty: &[u64]) -> String {
    (0..len)
        .map(|i| match (bit(filled, i), bit(empty, i)) {
            (true, _) => '#',
            (_, true) => '.',
            _ => '?',
        })
        .collect()
}

pub(super) fn run(
    solver: &mut dyn LineSolver,
    clue: &[u32],
    line: &str,
) -> Result<String, Contradiction> {
    let (len, filled, empty) = parse(line);
    let (mut of, mut oe) = (vec![0; filled.len()], vec![0; filled.len()]);
    let line = LineIn {
        clue,
        len,
        filled: &filled,
        empty: &empty,
    };
    solver.solve(
        line,
        LineOut {
            filled: &mut of,
            empty: &mut oe,
        },
    )?;
    Ok(draw(len, &of, &oe))
}

/// (clue, known line, expected line or None for a contradiction)
fn cases() -> Vec<(&'static [u32], &'static str, Option<&'static str>)> {
    vec![
        (&[], "????", Some("....")),
        (&[], "??#?", None),
        (&[4], "????", Some("####")),
        (&[3], "????", Some("?##?")),
        (&[1, 1], "???", Some("#.#")),
        (&[2, 1], "?????", Some("?#???")),
        (&[8], "??????????", Some("??######??")),
        (&[1], "?#??", Some(".#..")),
        (&[2], "?#??", Some("?#?.")),
        (&[1, 1], "??#??", Some("?.#.?")),
        (&[3], "#???????", Some("###.....")),
        (&[1, 2], "?.??.", Some("#.##.")),
        (&[1], "....", None),
        (&[2, 2], "#.#.?", None),
        (&[5], "????", None),
        (&[1, 3], "??#?#??", Some("?.#?#??")),
        (&[3, 1], "???????.#", Some("???????.#")),
        (&[2], "#?#", None),
        (&[1, 1, 1], "?????", Some("#.#.#")),
        (&[2, 3], "????.????", Some("????.?##?")),
    ]
}

#[test]
fn table_cases_fast_and_naive() {
    for (clue, line, expected) in cases() {
        let expected = expected.map(str::to_string).ok_or(Contradiction);
        assert_eq!(
            run(&mut DpLineSolver::new(), clue, line),
            expected,
            "dp {clue:?} {line}"
        );
        assert_eq!(
            run(&mut BitLineSolver::new(), clue, line),
            expected,
            "bits {clue:?} {line}"
        );
        assert_eq!(
            run(&mut NaiveLineSolver, clue, line),
            expected,
            "naive {clue:?} {line}"
        );
    }
}

/// The bit-parallel solver switches word size at 62 and 126 cells and hands longer lines to the
/// array DP: check lines on both sides of each boundary against the DP, whose own agreement with
/// the naive solver is tested on short lines.
#[test]
fn bit_solver_matches_dp_at_word_boundaries() {
    for len in [1, 2, 61, 62, 63, 64, 65, 100, 125, 126, 127, 128, 200] {
        for clue in [
            vec![],
            vec![1],
            vec![len as u32],
            vec![len as u32 / 2, 1],
            vec![3, 1, 2],
        ] {
            if crate::puzzle::Clue(clue.clone()).min_len() > len as u64 {
                continue;
            }
            for known in ["", "#", ".#", "?#.", "..#"] {
                let line: String = known
                    .chars()
                    .chain(std::iter::repeat('?'))
                    .take(len)
                    .collect();
                assert_eq!(
                    run(&mut BitLineSolver::new(), &clue, &line),
                    run(&mut DpLineSolver::new(), &clue, &line),
                    "len {len} clue {clue:?} line {line}"
                );
            }
        }
    }
}

#[test]
fn long_line_spans_several_words() {
    let line = "?".repeat(200);
    let got = run(&mut DpLineSolver::new(), &[150, 40], &line).unwrap();
    let expected = [
        "?".repeat(9),
        "#".repeat(141),
        "?".repeat(10),
        "#".repeat(31),
        "?".repeat(9),
    ]
    .concat();
    assert_eq!(got.len(), 200);
    assert_eq!(got, expected);
}

/// A random clue that fits a line of `len` cells, with random partial knowledge drawn from a
/// random full line (so the knowledge may or may not be consistent with the clue).
fn line_and_clue() -> impl Strategy<Value = (Vec<u32>, String)> {
    (1usize..=14).prop_flat_map(|len| {
        (
            proptest::collection::vec(any::<bool>(), len),
            proptest::collection::vec(0u8..4, len),
            proptest::collection::vec(any::<bool>(), len),
            any::<bool>(),
        )
            .prop_map(|(picture, reveal, noise, consistent)| {
                let clue = crate::puzzle::blocks_of(picture.iter().copied());
                let source = if consistent { &picture } else { &noise };
                (clue, revealed(source, &reveal).collect())
            })
    })
}

/// The cells of `picture` as `#`/`.` where `reveal` is 0, and `?` elsewhere.
fn revealed<'a>(picture: &'a [bool], reveal: &'a [u8]) -> impl Iterator<Item = char> + 'a {
    picture.iter().zip(reveal).map(|(&f, &r)| match (r, f) {
        (0, true) => '#',
        (0, false) => '.',
        _ => '?',
    })
}

/// Checks that both feasibility paths ([`BitLineSolver::feasible`] and, where the line fits
/// one, [`super::WordLine::feasible`]) say `feasible` of `line` with `clue`.
fn check_feasibility(clue: &[u32], line: &str, feasible: bool) -> Result<(), TestCaseError> {
    let (len, filled, empty) = parse(line);
    let answer = BitLineSolver::new().feasible(clue, len, &filled, &empty);
    prop_assert_eq!(answer, feasible, "feasible: clue {:?} line {}", clue, line);
    if let Some(word) = super::WordLine::of(clue, len) {
        let answer = word.feasible(clue, len, &filled, &empty);
        prop_assert_eq!(
            answer,
            feasible,
            "{:?}: clue {:?} line {}",
            word,
            clue,
            line
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fast_solvers_equal_naive((clue, line) in line_and_clue()) {
        let naive = run(&mut NaiveLineSolver, &clue, &line);
        let dp = run(&mut DpLineSolver::new(), &clue, &line);
        prop_assert_eq!(&dp, &naive, "dp: clue {:?} line {}", clue, line);
        let bits = run(&mut BitLineSolver::new(), &clue, &line);
        prop_assert_eq!(bits, naive.clone(), "bits: clue {:?} line {}", clue, line);
        check_feasibility(&clue, &line, naive.is_ok())?;
    }
}

/// Like [`line_and_clue`], for lines of up to 140 cells (both word sizes and the long-line path),
/// with sparse knowledge so that consistent lines stay common.
fn long_line_and_clue() -> impl Strategy<Value = (Vec<u32>, String)> {
    (40usize..=140).prop_flat_map(|len| {
        (
            proptest::collection::vec(0u8..3, len),
            proptest::collection::vec(0u8..8, len),
            any::<bool>(),
        )
            .prop_map(|(picture, reveal, flip_one)| {
                let picture: Vec<bool> = picture.iter().map(|&p| p == 0).collect();
                let clue = crate::puzzle::blocks_of(picture.iter().copied());
                let mut line: Vec<char> = revealed(&picture, &reveal).collect();
                if flip_one && let Some(c) = line.iter_mut().find(|c| **c != '?') {
                    *c = if *c == '#' { '.' } else { '#' };
                }
                (clue, line.into_iter().collect())
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The DP is the reference on long lines, where enumerating placements is too slow.
    #[test]
    fn bit_solver_equals_dp_on_long_lines((clue, line) in long_line_and_clue()) {
        let dp = run(&mut DpLineSolver::new(), &clue, &line);
        let bits = run(&mut BitLineSolver::new(), &clue, &line);
        prop_assert_eq!(bits, dp.clone(), "clue {:?} line {}", clue, line);
        check_feasibility(&clue, &line, dp.is_ok())?;
    }
}
