//! Wilk's `.nin` format: `WIDTH HEIGHT`, then one line per row clue, then one per column clue.
//!
//! The same as the [plain](super::plain) format with the header's numbers the other way round
//! (Olšák's `.mk`, `HEIGHT WIDTH`, rows, a `#` line, columns, is read as plain).

use super::error::{ParseError, ParseErrorKind};
use super::plain::{parse_header, read_clues};
use super::text::{LineMap, check_size_at, eof_line, is_comment, numbered_lines, snippet};
use crate::puzzle::Puzzle;

/// Parses a `.nin` file.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let eof = eof_line(text);
    let mut lines = numbered_lines(text).filter(|(_, l)| !is_comment(l));
    let Some((size_line, header)) = lines.find(|(_, l)| !l.trim().is_empty()) else {
        let kind = ParseErrorKind::MissingLine {
            expected: "the `WIDTH HEIGHT` header".into(),
            found: "end of file".into(),
        };
        return Err(ParseError::new(eof, kind));
    };
    let (cols, rows) = parse_header(header).map_err(|kind| ParseError::new(size_line, kind))?;
    check_size_at(rows, cols, size_line)?;
    let mut map = LineMap {
        size: size_line,
        ..LineMap::default()
    };
    let row_clues = read_clues(&mut lines, rows, "row", &mut map.rows, eof)?;
    let col_clues = read_clues(&mut lines, cols, "column", &mut map.cols, eof)?;
    if let Some((line, extra)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        let kind = ParseErrorKind::Unexpected {
            found: snippet(extra.trim()),
            context: "after the last column clue",
        };
        return Err(ParseError::new(line, kind));
    }
    map.check(Puzzle {
        title: None,
        row_clues,
        col_clues,
        givens: Vec::new(),
        metadata: Vec::new(),
        goal: None,
    })
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
