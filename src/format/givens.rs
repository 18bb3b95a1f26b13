//! Givens files: cells whose value is known before solving.
//!
//! ```text
//! # GCHQ 2015: (row, column), 1-based, cells known to be filled
//! 4 4
//! 4 5
//! 9 7 #
//! 10 3 empty
//! ```
//!
//! One given per line: `ROW COL` (1-based; the cell is filled) or `ROW COL VALUE`, where VALUE
//! is `#`, `1` or `filled` for a filled cell and `.`, `0` or `empty` for an empty one, or the
//! name or character of one of the puzzle's two colours (`black` and `white` unless its file
//! named others, see [`read_numbered_givens_in`]). Numbers
//! may be separated by spaces, tabs or commas. Blank lines and lines starting with `#` are
//! skipped (a `#` after the numbers is a value, not a comment). Whether the cells lie inside
//! the grid, and agree with each other, is checked against a puzzle by [`add_givens`], whose
//! errors name the line of the given at fault.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::error::{ParseError, ParseErrorKind};
use super::text::{decode_utf8, numbered_lines, parse_usize, snippet, tokens};
use crate::puzzle::{Color, Given, Puzzle, PuzzleError, bw_palette};

/// Reads a givens file: decodes UTF-8, then [`parse_givens`].
pub fn read_givens(bytes: &[u8]) -> Result<Vec<Given>, ParseError> {
    parse_givens(decode_utf8(bytes)?)
}

/// Parses a givens file into 0-based givens, in file order. A file with no givens is valid.
pub fn parse_givens(text: &str) -> Result<Vec<Given>, ParseError> {
    let numbered = parse_numbered_givens(text)?;
    Ok(numbered.into_iter().map(|(_, given)| given).collect())
}

/// Reads a givens file like [`read_givens`], keeping the 1-based line of each given, for
/// [`add_givens`].
pub fn read_numbered_givens(bytes: &[u8]) -> Result<Vec<(usize, Given)>, ParseError> {
    parse_numbered_givens(decode_utf8(bytes)?)
}

/// Reads a givens file like [`read_numbered_givens`] for a puzzle whose two colours are
/// `palette` (the background first, as [`crate::TwoColors::palette`] gives them): a value may
/// also be either colour's name or character, as a black-and-white puzzle read from a colour
/// file (one colour besides the background) is given.
pub fn read_numbered_givens_in(
    bytes: &[u8],
    palette: &[Color],
) -> Result<Vec<(usize, Given)>, ParseError> {
    parse_numbered_givens_in(decode_utf8(bytes)?, palette)
}

/// Parses a givens file like [`parse_givens`], into `(line, given)` pairs (1-based lines).
pub fn parse_numbered_givens(text: &str) -> Result<Vec<(usize, Given)>, ParseError> {
    parse_numbered_givens_in(text, &bw_palette())
}

/// [`parse_numbered_givens`], the values resolved against `palette` (see
/// [`read_numbered_givens_in`]).
fn parse_numbered_givens_in(
    text: &str,
    palette: &[Color],
) -> Result<Vec<(usize, Given)>, ParseError> {
    let mut givens = Vec::new();
    for (number, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let given = parse_given_in(line, palette).map_err(|kind| ParseError::new(number, kind))?;
        givens.push((number, given));
    }
    Ok(givens)
}

/// Checks `(line, given)` pairs against a puzzle, then adds them to its givens.
///
/// A given outside the grid is [`PuzzleError::GivenOutside`], one that contradicts an earlier
/// given of the same cell [`ParseErrorKind::GivensDisagree`]; both name the given's line.
/// (Repeating a given with the same value is allowed.) A given that contradicts one the puzzle
/// already had is reported without a line. On error the puzzle is left unchanged.
pub fn add_givens(puzzle: &mut Puzzle, givens: &[(usize, Given)]) -> Result<(), ParseError> {
    let (rows, cols) = (puzzle.height(), puzzle.width());
    let mut seen: HashMap<(usize, usize), (bool, usize)> = HashMap::new();
    for &(line, given) in givens {
        let (row, col) = (given.row, given.col);
        if row >= rows || col >= cols {
            let (row, col) = (row.saturating_add(1), col.saturating_add(1));
            let error = PuzzleError::GivenOutside {
                row,
                col,
                rows,
                cols,
            };
            return Err(ParseError::new(line, error.into()));
        }
        match seen.entry((row, col)) {
            Entry::Occupied(entry) => {
                let (filled, earlier_line) = *entry.get();
                if filled != given.filled {
                    let kind = ParseErrorKind::GivensDisagree {
                        row: row + 1,
                        col: col + 1,
                        filled: given.filled,
                        earlier_line,
                    };
                    return Err(ParseError::new(line, kind));
                }
            }
            Entry::Vacant(entry) => {
                let _ = entry.insert((given.filled, line));
            }
        }
    }
    puzzle
        .add_givens(givens.iter().map(|&(_, given)| given))
        .map_err(|error| ParseError::new(0, error.into()))
}

/// One `ROW COL [VALUE]` line of a black-and-white puzzle.
pub(super) fn parse_given(line: &str) -> Result<Given, ParseErrorKind> {
    parse_given_in(line, &bw_palette())
}

/// One `ROW COL [VALUE]` line, VALUE also the name or character of a colour of `palette` (the
/// background, then the blocks' colour).
fn parse_given_in(line: &str, palette: &[Color]) -> Result<Given, ParseErrorKind> {
    let words: Vec<&str> = tokens(line).collect();
    let (row, col, value) = match words.as_slice() {
        [row, col] => (row, col, None),
        [row, col, value] => (row, col, Some(value)),
        _ => {
            let found = snippet(line);
            let message = format!("expected `ROW COL` or `ROW COL VALUE`, found `{found}`");
            return Err(ParseErrorKind::BadGiven(message));
        }
    };
    let filled = match value.map(|v| v.to_ascii_lowercase()).as_deref() {
        None | Some("#" | "1" | "filled") => true,
        Some("." | "0" | "empty") => false,
        Some(_) => {
            let value = value.map_or("", |v| v);
            let mut chars = value.chars();
            let one = chars.next().filter(|_| chars.next().is_none());
            let named = palette
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(value) || Some(c.ch) == one);
            let Some(index) = named else {
                let names: Vec<&str> = palette.iter().rev().map(|c| c.name.as_str()).collect();
                let found = snippet(value);
                let message = format!(
                    "`{found}` is not a cell value (# 1 filled . 0 empty, or {})",
                    names.join(", ")
                );
                return Err(ParseErrorKind::BadGiven(message));
            };
            index == 1
        }
    };
    Ok(Given {
        row: one_based(row)?,
        col: one_based(col)?,
        filled,
    })
}

/// A 1-based row or column number, made 0-based.
fn one_based(token: &str) -> Result<usize, ParseErrorKind> {
    match parse_usize(token)?.checked_sub(1) {
        Some(index) => Ok(index),
        None => Err(ParseErrorKind::BadGiven(
            "rows and columns count from 1, found 0".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(row: usize, col: usize, filled: bool) -> Given {
        Given { row, col, filled }
    }

    #[test]
    fn parses_good_inputs() {
        let text = "# comment\n4 4\r\n\n 4,5 \n9 7 #\n10 3 empty\n1 2 .\n2 1 FILLED\n3\t3\t0\n";
        let expected = [
            given(3, 3, true),
            given(3, 4, true),
            given(8, 6, true),
            given(9, 2, false),
            given(0, 1, false),
            given(1, 0, true),
            given(2, 2, false),
        ];
        assert_eq!(parse_givens(text), Ok(expected.to_vec()));
        assert_eq!(parse_givens(""), Ok(Vec::new()));
        assert_eq!(read_givens(b"1 1\n"), Ok(vec![given(0, 0, true)]));
        let numbered = read_numbered_givens(b"# c\n\n2 3 .\n").expect("valid");
        assert_eq!(numbered, [(3, given(1, 2, false))]);
    }

    #[test]
    fn values_may_name_the_puzzle_s_two_colours() {
        let numbered = parse_numbered_givens("1 1 black\n1 2 White\n").expect("valid");
        assert_eq!(numbered, [(1, given(0, 0, true)), (2, given(0, 1, false))]);
        // A puzzle read from a colour file with one colour besides the background.
        let palette = [
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], '*'),
        ];
        let text = b"1 1 red\n1 2 *\n2 1 white\n2 2 .\n3 3 RED\n";
        let numbered = read_numbered_givens_in(text, &palette).expect("valid");
        let filled: Vec<bool> = numbered.iter().map(|(_, g)| g.filled).collect();
        assert_eq!(filled, [true, true, false, false, true]);
        let err = read_numbered_givens_in(b"1 1 red\n2 2 blue\n", &palette).expect_err("blue");
        assert_eq!(err.line, 2);
        let message = "`blue` is not a cell value (# 1 filled . 0 empty, or red, white)";
        assert_eq!(err.kind.to_string(), format!("bad given: {message}"));
    }

    #[test]
    fn added_givens_are_checked_with_their_line() {
        let puzzle = || Puzzle::from_picture(2, 3, &[true; 6]).expect("a valid picture");
        let mut ok = puzzle();
        let numbered = parse_numbered_givens("1 1\n2 3 .\n1 1 #\n").expect("valid");
        assert_eq!(add_givens(&mut ok, &numbered), Ok(()));
        assert_eq!(ok.givens.len(), 3);
        #[rustfmt::skip]
        let cases = [
            ("1 1\n3 1\n", 2, "given at row 3, column 1 lies outside the 2 x 3 grid"),
            ("# c\n2 4 .\n", 2, "given at row 2, column 4 lies outside the 2 x 3 grid"),
            (
                "1 2\n2 2 #\n\n2 2 empty\n",
                4,
                "row 2, column 2 is given as empty here but as filled on line 2",
            ),
        ];
        for (text, line, message) in cases {
            let mut bad = puzzle();
            let numbered = parse_numbered_givens(text).expect("parses");
            let err = add_givens(&mut bad, &numbered).expect_err(text);
            assert_eq!(
                (err.line, err.kind.to_string()),
                (line, message.to_string())
            );
            assert!(bad.givens.is_empty(), "unchanged on error");
        }
        // Against a given the puzzle already had: no line to name.
        let mut had = puzzle();
        had.givens.push(given(0, 0, false));
        let err = add_givens(&mut had, &[(1, given(0, 0, true))]).expect_err("disagree");
        assert_eq!(err.line, 0);
        assert_eq!(had.givens.len(), 1);
    }

    #[test]
    fn reports_bad_inputs_with_their_line() {
        #[rustfmt::skip]
        let cases: [(&[u8], usize, &str); 7] = [
            (b"1 1\n2\n", 2, "BadGiven(\"expected `ROW COL` or `ROW COL VALUE`, found `2`\")"),
            (b"1 1 1 1\n", 1, "BadGiven(\"expected"),
            (b"# c\nx 1\n", 2, "NotANumber(\"x\")"),
            (b"1 1 maybe\n", 1, "BadGiven(\"`maybe` is not a cell value"),
            (b"0 1\n", 1, "BadGiven(\"rows and columns count from 1"),
            (b"1 99999999999999999999\n", 1, "NumberTooLarge"),
            (b"1 1\n\xff\n", 2, "InvalidUtf8"),
        ];
        for (bytes, line, kind) in cases {
            let err = read_givens(bytes).expect_err(&String::from_utf8_lossy(bytes));
            let got = format!("{:?}", err.kind);
            assert!(
                err.line == line && got.starts_with(kind),
                "{bytes:?}: {err}, {got}"
            );
        }
    }
}
