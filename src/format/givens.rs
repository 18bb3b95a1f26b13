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
//! is `#`, `1` or `filled` for a filled cell and `.`, `0` or `empty` for an empty one. Numbers
//! may be separated by spaces, tabs or commas. Blank lines and lines starting with `#` are
//! skipped (a `#` after the numbers is a value, not a comment). Whether the cells lie inside
//! the grid is checked later, by [`Puzzle::check`](crate::Puzzle::check).

use super::error::{ParseError, ParseErrorKind};
use super::text::{decode_utf8, numbered_lines, parse_usize, snippet, tokens};
use crate::puzzle::Given;

/// Reads a givens file: decodes UTF-8, then [`parse_givens`].
pub fn read_givens(bytes: &[u8]) -> Result<Vec<Given>, ParseError> {
    parse_givens(decode_utf8(bytes)?)
}

/// Parses a givens file into 0-based givens, in file order. A file with no givens is valid.
pub fn parse_givens(text: &str) -> Result<Vec<Given>, ParseError> {
    let mut givens = Vec::new();
    for (number, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        givens.push(parse_given(line).map_err(|kind| ParseError::new(number, kind))?);
    }
    Ok(givens)
}

/// One `ROW COL [VALUE]` line.
fn parse_given(line: &str) -> Result<Given, ParseErrorKind> {
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
            let found = snippet(value.map_or("", |v| v));
            let message = format!("`{found}` is not a cell value (# 1 filled . 0 empty)");
            return Err(ParseErrorKind::BadGiven(message));
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
