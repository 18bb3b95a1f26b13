//! The TAAI/TCGA/ICGA computer-tournament format: many square puzzles in one file.
//!
//! ```text
//! $1
//! 1 1
//! 2
//! 1
//! 2
//! 1
//! 1 1
//! $2
//! ...
//! ```
//!
//! Each puzzle starts with a `$N` line (its title), followed by its column clues, then as many
//! row clues: the size is inferred as half the number of clue lines, so the puzzles are always
//! square (the published sets are all 25x25). Numbers are separated by tabs (spaces and commas
//! are accepted too); a lone `0` is an empty clue. Blank lines and `#` comments are skipped, so
//! an empty clue must be written `0`. A file without any `$` line is one untitled puzzle.
//!
//! The solution files of the tournaments have the same layout, with `N` lines of `N` tab-separated
//! `0`/`1` cells after each `$N`: see [`parse_solutions`].

use super::error::{ParseError, ParseErrorKind};
use super::text::{LineMap, check_size_at, numbered_lines, parse_clue, snippet, tokens};
use crate::puzzle::{Puzzle, counted};

/// One `$N` section: its title, the line of the title, and its content lines.
struct Block<'a> {
    title: Option<&'a str>,
    line: usize,
    lines: Vec<(usize, &'a str)>,
}

/// Splits a file at its `$` lines, skipping blank lines and comments.
fn split_blocks(text: &str) -> Result<Vec<Block<'_>>, ParseError> {
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut loose = Vec::new();
    for (number, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('$') {
            let title = Some(line);
            blocks.push(Block {
                title,
                line: number,
                lines: Vec::new(),
            });
        } else if let Some(block) = blocks.last_mut() {
            block.lines.push((number, line));
        } else {
            loose.push((number, line));
        }
    }
    match (blocks.is_empty(), loose.first()) {
        (true, Some(&(line, _))) => Ok(vec![Block {
            title: None,
            line,
            lines: loose,
        }]),
        (false, Some(&(line, found))) => {
            let found = snippet(found);
            let kind = ParseErrorKind::Unexpected {
                found,
                context: "before the first `$` line",
            };
            Err(ParseError::new(line, kind))
        }
        (_, None) => Ok(blocks),
    }
}

/// Parses every puzzle of a tournament file and checks each.
///
/// An error in any puzzle fails the whole file; a file with no clue lines at all is
/// [`ParseErrorKind::Empty`].
pub fn parse(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let blocks = split_blocks(text)?;
    if blocks.is_empty() {
        return Err(ParseError::new(0, ParseErrorKind::Empty));
    }
    blocks.iter().map(parse_block).collect()
}

/// One puzzle: `2N` clue lines, columns first.
fn parse_block(block: &Block<'_>) -> Result<Puzzle, ParseError> {
    let count = block.lines.len();
    if !count.is_multiple_of(2) {
        let kind = ParseErrorKind::OddClueCount { lines: count };
        return Err(ParseError::new(block.line, kind));
    }
    let size = count / 2;
    check_size_at(size, size, block.line)?;
    let mut clues = Vec::new();
    for &(line, text) in &block.lines {
        clues.push(parse_clue(text).map_err(|kind| ParseError::new(line, kind))?);
    }
    let row_clues = clues.split_off(size);
    let numbers: Vec<usize> = block.lines.iter().map(|&(line, _)| line).collect();
    let map = LineMap {
        size: block.line,
        cols: numbers.get(..size).unwrap_or_default().to_vec(),
        rows: numbers.get(size..).unwrap_or_default().to_vec(),
        goal: 0,
    };
    map.check(Puzzle {
        title: block.title.map(str::to_string),
        colors: Default::default(),
        row_clues,
        col_clues: clues,
        givens: Vec::new(),
        metadata: Vec::new(),
        goal: None,
    })
}

/// Parses a tournament solution file: for each `$N`, the title and the picture, row-major,
/// `true` = filled.
///
/// Rows are lines of `0`/`1` cells separated by tabs, spaces or commas; every row of a picture
/// must have as many cells as the first, and the picture must be within the size limits.
/// Whether a picture fits its puzzle is for the caller to check (set it as the puzzle's `goal`
/// and run [`Puzzle::check`]).
pub fn parse_solutions(text: &str) -> Result<Vec<(String, Vec<bool>)>, ParseError> {
    let blocks = split_blocks(text)?;
    if blocks.is_empty() {
        return Err(ParseError::new(0, ParseErrorKind::Empty));
    }
    blocks.iter().map(parse_picture).collect()
}

/// One picture of a solution file.
fn parse_picture(block: &Block<'_>) -> Result<(String, Vec<bool>), ParseError> {
    let bad =
        |line: usize, message: String| ParseError::new(line, ParseErrorKind::BadGoal(message));
    let width = block
        .lines
        .first()
        .map_or(0, |&(_, text)| tokens(text).count());
    check_size_at(block.lines.len(), width, block.line)?;
    let mut cells = Vec::new();
    for &(line, text) in &block.lines {
        let before = cells.len();
        for token in tokens(text) {
            match token {
                "0" => cells.push(false),
                "1" => cells.push(true),
                _ => return Err(bad(line, format!("`{}` is not 0 or 1", snippet(token)))),
            }
        }
        let found = cells.len() - before;
        if found != width {
            return Err(bad(
                line,
                format!("a row of {}, expected {width}", counted(found, "cell")),
            ));
        }
    }
    Ok((block.title.unwrap_or_default().to_string(), cells))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Clue;

    /// Two 2x2 puzzles: the first has columns `2`, `1` and rows `2`, `1`.
    const GOOD: &str = "$1\n2\n1\n2\n1\n$2\n1\n1\n1\n1\n";

    #[test]
    fn parses_good_inputs() {
        let crlf = GOOD.replace('\n', "\r\n");
        let spaced = format!("# comment\n\n{}\n\n", GOOD.replace("$2", "\n$2"));
        for text in [GOOD, &crlf, &spaced] {
            let puzzles = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(puzzles.len(), 2);
            assert_eq!(puzzles[0].title.as_deref(), Some("$1"));
            assert_eq!(puzzles[0].col_clues, [Clue(vec![2]), Clue(vec![1])]);
            assert_eq!(puzzles[0].row_clues, [Clue(vec![2]), Clue(vec![1])]);
            assert_eq!(puzzles[1].title.as_deref(), Some("$2"));
        }
        let untitled = parse("1\t1\n0\n0\n0\n2\n0\n").expect("valid");
        assert_eq!(untitled[0].title, None);
        assert_eq!(untitled[0].col_clues[0], Clue(vec![1, 1]));
    }

    /// Each case edits [`GOOD`] and expects an error at a line, whose kind prints (with `{:?}`)
    /// starting with the given text.
    #[test]
    fn reports_bad_inputs_with_their_line() {
        #[rustfmt::skip]
        let cases = [
            ("$2\n1\n", "$2\n", 6, "OddClueCount { lines: 3 }"),
            ("$1\n2\n1\n2", "$1\n2\n1\nx", 4, "NotANumber(\"x\")"),
            ("$1\n2\n1\n2\n1", "$1\n2\n1\n2\n2", 5, "Puzzle(TotalsDisagree"),
            ("$1\n2", "$1\n1\t1", 2, "Puzzle(ClueTooLong { line: Col(0)"),
            ("$1", "7\n$1", 1, "Unexpected { found: \"7\", context: \"before the first `$` line\""),
            ("$2\n1\n1\n1\n1\n", "$2\n", 6, "Puzzle(EmptyGrid"),
        ];
        crate::format::assert_edits_fail(parse, GOOD, &cases);
        let err = parse("# nothing\n\n").unwrap_err();
        assert_eq!((err.line, err.kind), (0, ParseErrorKind::Empty));
    }

    #[test]
    fn huge_puzzle_is_rejected_before_parsing_clues() {
        let text = format!("$1\n{}", "1\n".repeat(2 * 5000));
        let err = parse(&text).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(format!("{:?}", err.kind).starts_with("Puzzle(TooLarge"));
    }

    #[test]
    fn parses_solutions() {
        let text = "$1\n1\t1\n1\t0\n$2\r\n0 1\r\n1 0\r\n";
        let solutions = parse_solutions(text).expect("valid");
        let expected = [
            ("$1", [true, true, true, false]),
            ("$2", [false, true, true, false]),
        ];
        for ((title, cells), (want_title, want_cells)) in solutions.iter().zip(expected) {
            assert_eq!(
                (title.as_str(), cells.as_slice()),
                (want_title, &want_cells[..])
            );
        }
        #[rustfmt::skip]
        let cases = [
            ("$1\n1\t1\n1\n", 3, "BadGoal(\"a row of 1 cell, expected 2\")"),
            ("$1\n1\t2\n", 2, "BadGoal(\"`2` is not 0 or 1\")"),
            ("$1\n", 1, "Puzzle(EmptyGrid"),
        ];
        for (text, line, kind) in cases {
            let err = parse_solutions(text).expect_err(text);
            let got = format!("{:?}", err.kind);
            assert!(
                err.line == line && got.starts_with(kind),
                "{text:?}: {err}, {got}"
            );
        }
    }
}
