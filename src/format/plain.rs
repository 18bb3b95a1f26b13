//! The plain text format: `ROWS COLS`, then one line per row clue, then one per column clue.
//!
//! ```text
//! # a comment
//! 2 3
//! 1 1
//! 1
//! 2
//! 0
//! 1
//! ```
//!
//! Numbers are separated by spaces, tabs and/or commas. A blank line or a lone `0` is an empty
//! clue. Lines starting with `#` are comments, wherever they are; blank lines before the header
//! and after the last clue are ignored, but a blank line among the clues is an empty clue.
//! Every clue line must be there: a file that ends early is an error naming the missing clue.
//!
//! After the column clues, a line `givens` may start a section of cells known in advance, one
//! per line in the syntax of a [givens file](super::givens) (`ROW COL [VALUE]`, 1-based). This is
//! how `nonoenum split` writes its parts: the puzzle and the decisions that select one part.

use std::fmt::Write as _;

use super::error::{ParseError, ParseErrorKind};
use super::givens::{add_givens, parse_given};
use super::text::{
    LineMap, check_size_at, eof_line, is_comment, numbered_lines, parse_clue, parse_usize, snippet,
    tokens,
};
use crate::puzzle::{Clue, Puzzle};

/// Parses a puzzle in the plain format and checks it. A second `givens` section is refused:
/// [`parse_all`] reads it as another puzzle.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let mut puzzles = parse_sections(text, false)?;
    Ok(puzzles.swap_remove(0))
}

/// Parses a plain text that may hold several `givens` sections: one puzzle per section, each
/// the clues with that section's givens (one puzzle without givens if there is no section).
/// This is how `nonoenum split` writes a part made of several subtrees.
pub fn parse_all(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    parse_sections(text, true)
}

fn parse_sections(text: &str, many: bool) -> Result<Vec<Puzzle>, ParseError> {
    let eof = eof_line(text);
    let mut lines = numbered_lines(text).filter(|(_, l)| !is_comment(l));
    let (row_clues, col_clues, map) = read_header_and_clues(&mut lines, eof, false)?;
    let mut sections: Vec<Vec<_>> = Vec::new();
    for (number, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let heading = line.trim().eq_ignore_ascii_case("givens");
        match sections.last_mut() {
            Some(givens) if !(heading && many) => {
                let given =
                    parse_given(line.trim()).map_err(|kind| ParseError::new(number, kind))?;
                givens.push((number, given));
            }
            None if !heading => {
                let kind = ParseErrorKind::Unexpected {
                    found: snippet(line.trim()),
                    context: "after the last column clue (expected `givens` or the end)",
                };
                return Err(ParseError::new(number, kind));
            }
            _ => sections.push(Vec::new()),
        }
    }
    let puzzle = map.check(Puzzle::unchecked(row_clues, col_clues))?;
    if sections.is_empty() {
        return Ok(vec![puzzle]);
    }
    sections
        .iter()
        .map(|givens| {
            let mut one = puzzle.clone();
            add_givens(&mut one, givens)?;
            Ok(one)
        })
        .collect()
}

/// `ROWS COLS`: exactly two numbers.
pub(super) fn parse_header(line: &str) -> Result<(usize, usize), ParseErrorKind> {
    let words: Vec<&str> = tokens(line).collect();
    let [rows, cols] = words.as_slice() else {
        return Err(ParseErrorKind::BadHeader {
            expected: "`ROWS COLS`",
            found: snippet(line.trim()),
        });
    };
    Ok((parse_usize(rows)?, parse_usize(cols)?))
}

/// Reads the header and the clue lines of a plain or `.nin` text, which `lines` yields without
/// comments; the lines after the last column clue are left in `lines`. The header is
/// `WIDTH HEIGHT` if `width_first` (`.nin`), else `ROWS COLS`. Returns the row clues, the
/// column clues and the lines they were read from.
pub(super) fn read_header_and_clues<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    eof: usize,
    width_first: bool,
) -> Result<(Vec<Clue>, Vec<Clue>, LineMap), ParseError> {
    let header_name = if width_first {
        "WIDTH HEIGHT"
    } else {
        "ROWS COLS"
    };
    let Some((size_line, header)) = lines.find(|(_, l)| !l.trim().is_empty()) else {
        let kind = ParseErrorKind::MissingLine {
            expected: format!("the `{header_name}` header"),
            found: "end of file".into(),
        };
        return Err(ParseError::new(eof, kind));
    };
    let (first, second) = parse_header(header).map_err(|kind| ParseError::new(size_line, kind))?;
    let (rows, cols) = if width_first {
        (second, first)
    } else {
        (first, second)
    };
    check_size_at(rows, cols, size_line)?;
    let mut map = LineMap {
        size: size_line,
        ..LineMap::default()
    };
    let row_clues = read_clues(lines, rows, "row", &mut map.rows, eof)?;
    let col_clues = read_clues(lines, cols, "column", &mut map.cols, eof)?;
    Ok((row_clues, col_clues, map))
}

/// Reads `count` clue lines, recording the line number of each.
fn read_clues<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    count: usize,
    what: &str,
    line_numbers: &mut Vec<usize>,
    eof: usize,
) -> Result<Vec<Clue>, ParseError> {
    let mut clues = Vec::new();
    for k in 1..=count {
        let Some((line, text)) = lines.next() else {
            let kind = ParseErrorKind::MissingLine {
                expected: format!("{what} clue {k} of {count}"),
                found: "end of file".into(),
            };
            return Err(ParseError::new(eof, kind));
        };
        clues.push(parse_clue(text).map_err(|kind| ParseError::new(line, kind))?);
        line_numbers.push(line);
    }
    Ok(clues)
}

/// Writes a puzzle in the plain format (the title as a comment, an empty clue as `0`, the
/// givens in a `givens` section).
///
/// Metadata and the goal are not part of the format and are left out.
pub fn write(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    if let Some(title) = &puzzle.title {
        let _ = writeln!(out, "# {}", title.replace(['\n', '\r'], " "));
    }
    let _ = writeln!(out, "{} {}", puzzle.height(), puzzle.width());
    for clue in puzzle.row_clues.iter().chain(&puzzle.col_clues) {
        let _ = writeln!(out, "{clue}");
    }
    if !puzzle.givens.is_empty() {
        let _ = writeln!(out, "givens");
        write_givens(&mut out, puzzle);
    }
    out
}

/// Writes puzzles that share their clues in one plain text: the first [`write()`] would write,
/// then a `givens` section for each further puzzle (every puzzle has its section, also an empty
/// one, when there are several). [`parse_all`] reads them back; the clues and title are the
/// first puzzle's.
pub fn write_all(puzzles: &[Puzzle]) -> String {
    let Some((first, rest)) = puzzles.split_first() else {
        return String::new();
    };
    let mut out = write(first);
    if rest.is_empty() {
        return out;
    }
    if first.givens.is_empty() {
        out.push_str("givens\n");
    }
    for puzzle in rest {
        out.push_str("givens\n");
        write_givens(&mut out, puzzle);
    }
    out
}

fn write_givens(out: &mut String, puzzle: &Puzzle) {
    for given in &puzzle.givens {
        let value = if given.filled { '#' } else { '.' };
        let _ = writeln!(out, "{} {} {value}", given.row + 1, given.col + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{LineId, PuzzleError};

    fn clues(puzzle: &Puzzle) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let get = |c: &[Clue]| c.iter().map(|c| c.0.clone()).collect();
        (get(&puzzle.row_clues), get(&puzzle.col_clues))
    }

    #[test]
    fn parses_good_inputs() {
        let expected = (vec![vec![1, 1], vec![1]], vec![vec![2], vec![], vec![1]]);
        let inputs = [
            "2 3\n1 1\n1\n2\n0\n1\n",
            "2 3\r\n1 1\r\n1\r\n2\r\n\r\n1\r\n",
            "# comment\n\n2,3\n1,1\n# another\n1\n2\n0\n1",
            "2 3\n1\t1\n1\n2\n\n 1 \n\n\n# trailing comment\n",
        ];
        for text in inputs {
            let puzzle = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(clues(&puzzle), expected, "{text:?}");
        }
    }

    #[test]
    fn reports_bad_inputs_with_their_line() {
        use ParseErrorKind as K;
        let too_long = PuzzleError::ClueTooLong {
            line: LineId::Col(1),
            clue: Clue(vec![1, 1]),
            needed: 3,
            len: 2,
        };
        let missing = |what: &str| K::MissingLine {
            expected: what.into(),
            found: "end of file".into(),
        };
        let total = K::Puzzle(PuzzleError::TotalsDisagree { rows: 1, cols: 2 });
        let zero = K::Puzzle(PuzzleError::ZeroBlock {
            line: LineId::Row(0),
        });
        let huge = PuzzleError::TooLarge {
            rows: 1_000_000_000,
            cols: 1_000_000_000,
        };
        let block_too_long = PuzzleError::ClueTooLong {
            line: LineId::Row(0),
            clue: Clue(vec![5000]),
            needed: 5000,
            len: 1,
        };
        let after = "after the last column clue (expected `givens` or the end)";
        #[rustfmt::skip]
        let cases = [
            ("2 x\n", 1, K::NotANumber("x".into())),
            ("2 2 2\n", 1, K::BadHeader { expected: "`ROWS COLS`", found: "2 2 2".into() }),
            ("# only a comment\n", 2, missing("the `ROWS COLS` header")),
            ("1 1\n1\nq\n", 3, K::NotANumber("q".into())),
            ("2 2\n1\n1\n2\n1 1\n", 5, K::Puzzle(too_long)),
            ("1 2\n1\n1\n1\n", 4, total),
            ("2 2\n1\n# c\n1\n1\n", 6, missing("column clue 2 of 2")),
            ("2 2\n1\n", 3, missing("row clue 2 of 2")),
            ("1 1\n1\n1\n2\n", 4, K::Unexpected { found: "2".into(), context: after }),
            ("1 1\n0 1\n1\n", 2, zero),
            ("1 1\n99999999999\n1\n", 2, K::NumberTooLarge("99999999999".into())),
            ("0 3\n", 1, K::Puzzle(PuzzleError::EmptyGrid { rows: 0, cols: 3 })),
            ("1000000000 1000000000\n", 1, K::Puzzle(huge)),
            ("2 99999999999999999999999\n", 1, K::NumberTooLarge("99999999999999999999999".into())),
            ("1 1\n5000\n1\n", 2, K::Puzzle(block_too_long)),
        ];
        for (text, line, kind) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!((err.line, &err.kind), (line, &kind), "{text:?}: {err}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        let text = "2 3\n1 1\n1\n2\n0\n1\n";
        let puzzle = parse(text).expect("valid");
        assert_eq!(write(&puzzle), text);
        let titled = Puzzle {
            title: Some("t".into()),
            ..puzzle.clone()
        };
        assert_eq!(
            parse(&write(&titled)).expect("valid").row_clues,
            puzzle.row_clues
        );
    }

    #[test]
    fn reads_and_writes_a_givens_section() {
        let text = "2 2\n1\n1\n1\n1\ngivens\n1 1 #\n# a comment\n\n2 1 .\n";
        let puzzle = parse(text).expect("valid");
        let givens: Vec<(usize, usize, bool)> = puzzle
            .givens
            .iter()
            .map(|g| (g.row, g.col, g.filled))
            .collect();
        assert_eq!(givens, [(0, 0, true), (1, 0, false)]);
        let written = write(&puzzle);
        assert_eq!(written, "2 2\n1\n1\n1\n1\ngivens\n1 1 #\n2 1 .\n");
        assert_eq!(parse(&written).expect("valid").givens, puzzle.givens);
    }

    #[test]
    fn several_givens_sections_are_several_puzzles() {
        let text = "2 2\n1\n1\n1\n1\ngivens\n1 1 #\ngivens\n\ngivens\n1 1 .\n2 2 #\n";
        let puzzles = parse_all(text).expect("valid");
        let givens: Vec<Vec<(usize, usize, bool)>> = puzzles
            .iter()
            .map(|p| p.givens.iter().map(|g| (g.row, g.col, g.filled)).collect())
            .collect();
        assert_eq!(
            givens,
            [
                vec![(0, 0, true)],
                vec![],
                vec![(0, 0, false), (1, 1, true)]
            ]
        );
        assert_eq!(write_all(&puzzles), text.replace("\n\n", "\n"));
        assert_eq!(parse_all(&write_all(&puzzles)).expect("valid"), puzzles);
        assert_eq!(parse_all("1 1\n1\n1\n").expect("valid").len(), 1);
        // One puzzle without givens first: its section is written, empty.
        let mut swapped = puzzles.clone();
        swapped.swap(0, 1);
        assert_eq!(parse_all(&write_all(&swapped)).expect("valid"), swapped);
        // `parse` reads one puzzle: a second section is a malformed given there.
        assert_eq!(parse(text).unwrap_err().line, 8);
    }

    #[test]
    fn bad_givens_in_the_section_name_their_line() {
        let outside = parse("1 1\n1\n1\ngivens\n\n2 1\n").unwrap_err();
        assert_eq!(outside.line, 6, "{outside}");
        assert!(matches!(
            outside.kind,
            ParseErrorKind::Puzzle(PuzzleError::GivenOutside { .. })
        ));
        let garbage = parse("1 1\n1\n1\nGIVENS\n1 x\n").unwrap_err();
        assert_eq!(
            (garbage.line, garbage.kind),
            (5, ParseErrorKind::NotANumber("x".into()))
        );
        let disagree = parse("1 1\n1\n1\ngivens\n1 1 #\n1 1 .\n").unwrap_err();
        assert_eq!(disagree.line, 6, "{disagree}");
    }
}
