//! Wilk's `.nin` format: `WIDTH HEIGHT`, then one line per row clue, then one per column clue.
//!
//! The same as the [plain](super::plain) format with the header's numbers the other way round
//! (Olšák's `.mk`, `HEIGHT WIDTH`, rows, a `#` line, columns, is read as plain).

use super::error::{ParseError, ParseErrorKind};
use super::plain::read_header_and_clues;
use super::text::{eof_line, is_comment, numbered_lines, snippet};
use crate::puzzle::Puzzle;

/// Parses a `.nin` file.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let eof = eof_line(text);
    let mut lines = numbered_lines(text).filter(|(_, l)| !is_comment(l));
    let (row_clues, col_clues, map) = read_header_and_clues(&mut lines, eof, true)?;
    if let Some((line, extra)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        let kind = ParseErrorKind::Unexpected {
            found: snippet(extra.trim()),
            context: "after the last column clue",
        };
        return Err(ParseError::new(line, kind));
    }
    map.check(Puzzle::unchecked(row_clues, col_clues))
}

/// Writes a puzzle in `.nin` form.
pub fn write(puzzle: &Puzzle) -> String {
    let mut out = format!("{} {}\n", puzzle.width(), puzzle.height());
    for clue in puzzle.row_clues.iter().chain(&puzzle.col_clues) {
        out.push_str(&format!("{clue}\n"));
    }
    out
}

/// Writes a puzzle in Olšák's `.mk` form: `HEIGHT WIDTH`, rows, `#`, columns.
pub fn write_mk(puzzle: &Puzzle) -> String {
    let mut out = format!("{} {}\n", puzzle.height(), puzzle.width());
    for clue in &puzzle.row_clues {
        out.push_str(&format!("{clue}\n"));
    }
    out.push_str("#\n");
    for clue in &puzzle.col_clues {
        out.push_str(&format!("{clue}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_width_first_and_round_trips() {
        let p = parse("3 2\n1 1\n3\n2\n1\n2\n").unwrap();
        assert_eq!((p.height(), p.width()), (2, 3));
        assert_eq!(parse(&write(&p)).unwrap(), p);
        let mk = super::super::plain::parse(&write_mk(&p)).unwrap();
        assert_eq!(mk, p);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("3 2\n1 1\n3\n2\nx\n2\n").unwrap_err();
        assert_eq!(err.to_string(), "line 5: `x` is not a number");
        let err = parse("3 2\n1 1\n3\n2\n1\n").unwrap_err();
        assert_eq!(err.line, 6);
    }
}
