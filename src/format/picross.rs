//! The text format of the picross-solver project: puzzles after `GRID NAME` lines, each with
//! a `ROWS` and a `COLUMNS` section of clues in brackets.
//!
//! ```text
//! # A trivial puzzle
//! GRID Note
//! ROWS
//! [ 3 ]
//! [ 1 1 ]
//! COLUMNS
//! [ ]
//! [ 2 ]
//! [ 1 ]
//! ```
//!
//! `[ ]` or `[ 0 ]` is an empty clue. Blank lines and `#` comments are skipped. A file may hold
//! several grids, each a puzzle titled by its name; the keywords are read in any case.

use super::error::{ParseError, ParseErrorKind};
use super::text::{LineMap, check_size_at, numbered_lines, parse_clue, snippet};
use crate::puzzle::{Clue, Puzzle};

/// The sections of one grid: its clue lines, with their line numbers.
#[derive(Default)]
struct Section<'a> {
    /// The line of the section's keyword; 0 while the grid has no such section.
    line: usize,
    clues: Vec<(usize, &'a str)>,
}

/// One `GRID` of a file, as read.
struct Grid<'a> {
    name: Option<&'a str>,
    line: usize,
    rows: Section<'a>,
    cols: Section<'a>,
    /// Whether clue lines go to `rows` (or to `cols`); `None` before either keyword.
    in_rows: Option<bool>,
}

/// Whether `line` is the keyword `word`, in any case.
fn is_keyword(line: &str, word: &str) -> bool {
    line.eq_ignore_ascii_case(word)
}

/// The name after a `GRID` keyword (`Some("")` for a bare `GRID`), or `None` if the line is
/// not a `GRID` line.
pub(super) fn grid_name(line: &str) -> Option<&str> {
    let head = line.get(..4)?;
    let rest = line.get(4..)?;
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    (head.eq_ignore_ascii_case("GRID") && separated).then(|| rest.trim())
}

/// Splits a file into its grids, skipping blank lines and comments; stops at a line that
/// belongs nowhere, with the grids read until then and the error.
fn split_grids(text: &str) -> (Vec<Grid<'_>>, Result<(), ParseError>) {
    let mut grids = Vec::new();
    let read = read_grids(text, &mut grids);
    (grids, read)
}

/// [`split_grids`], pushing each grid to `grids` as it starts.
fn read_grids<'a>(text: &'a str, grids: &mut Vec<Grid<'a>>) -> Result<(), ParseError> {
    for (number, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = grid_name(line) {
            grids.push(Grid {
                name: (!name.is_empty()).then_some(name),
                line: number,
                rows: Section::default(),
                cols: Section::default(),
                in_rows: None,
            });
            continue;
        }
        let unexpected = |context| {
            let found = snippet(line);
            ParseError::new(number, ParseErrorKind::Unexpected { found, context })
        };
        let Some(grid) = grids.last_mut() else {
            return Err(unexpected("before the first `GRID` line"));
        };
        let keyword = [("ROWS", true), ("COLUMNS", false)]
            .into_iter()
            .find(|(word, _)| is_keyword(line, word));
        if let Some((word, rows)) = keyword {
            let section = if rows { &mut grid.rows } else { &mut grid.cols };
            if section.line != 0 {
                let kind = ParseErrorKind::DuplicateSection(word.to_string());
                return Err(ParseError::new(number, kind));
            }
            section.line = number;
            grid.in_rows = Some(rows);
        } else if line.starts_with('[') {
            let section = match grid.in_rows {
                Some(true) => &mut grid.rows,
                Some(false) => &mut grid.cols,
                None => return Err(unexpected("before `ROWS` or `COLUMNS`")),
            };
            section.clues.push((number, line));
        } else {
            return Err(unexpected(
                "where a `GRID` line, `ROWS`, `COLUMNS` or a clue in brackets should be",
            ));
        }
    }
    Ok(())
}

/// The clue of a line `[ 1 2 ]`.
fn bracketed_clue(number: usize, line: &str) -> Result<Clue, ParseError> {
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(|| {
            let message = format!(
                "a clue is written in brackets, `[ 2 1 ]`, not `{}`",
                snippet(line)
            );
            ParseError::new(number, ParseErrorKind::Invalid(message))
        })?;
    parse_clue(inner).map_err(|kind| ParseError::new(number, kind))
}

/// Parses every grid of a file and checks each. An error in any grid fails the whole file, and
/// the first in the file is the one reported: a grid before a line that belongs nowhere is
/// checked before that line is reported.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let (grids, read) = split_grids(text);
    // The grid the stray line is in may be cut short by it: only those before are whole.
    let whole = match read {
        Ok(()) => grids.len(),
        Err(_) => grids.len().saturating_sub(1),
    };
    let puzzles = grids[..whole]
        .iter()
        .map(parse_grid)
        .collect::<Result<Vec<_>, _>>()?;
    read?;
    if puzzles.is_empty() {
        return Err(ParseError::new(0, ParseErrorKind::Empty));
    }
    Ok(puzzles)
}

/// One grid's puzzle.
fn parse_grid(grid: &Grid<'_>) -> Result<Puzzle, ParseError> {
    let clues = |section: &Section<'_>| -> Result<Vec<Clue>, ParseError> {
        (section.clues.iter())
            .map(|&(number, line)| bracketed_clue(number, line))
            .collect()
    };
    let (row_clues, col_clues) = (clues(&grid.rows)?, clues(&grid.cols)?);
    for (section, word) in [(&row_clues, "ROWS"), (&col_clues, "COLUMNS")] {
        if section.is_empty() {
            let name = grid
                .name
                .map_or(String::new(), |n| format!(" `{}`", snippet(n)));
            let message = format!("the grid{name} has no {word} clues");
            return Err(ParseError::new(grid.line, ParseErrorKind::Invalid(message)));
        }
    }
    check_size_at(row_clues.len(), col_clues.len(), grid.line)?;
    let lines = |section: &Section<'_>| section.clues.iter().map(|&(n, _)| n).collect();
    let map = LineMap {
        size: grid.line,
        rows: lines(&grid.rows),
        cols: lines(&grid.cols),
        goal: 0,
    };
    map.check(Puzzle {
        title: grid.name.map(str::to_string),
        colors: Default::default(),
        row_clues,
        col_clues,
        givens: Vec::new(),
        metadata: Vec::new(),
        goal: None,
    })
}

/// Writes a puzzle as one grid, named by its title (on one line).
pub fn write(puzzle: &Puzzle) -> String {
    let mut out = String::from("GRID");
    if let Some(title) = &puzzle.title {
        out.push(' ');
        out.push_str(&title.replace(['\r', '\n'], " "));
    }
    for (word, clues) in [("ROWS", &puzzle.row_clues), ("COLUMNS", &puzzle.col_clues)] {
        out.push('\n');
        out.push_str(word);
        for clue in clues {
            out.push_str("\n[ ");
            for block in clue.blocks() {
                out.push_str(&format!("{block} "));
            }
            out.push(']');
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "# A trivial puzzle\nGRID Note\nROWS\n[ 3 ]\n[ 1 1 ]\n[ 0 ]\n\
                        COLUMNS\n[ 2 ]\n[ 1 ]\n[ 2 ]\n";

    #[test]
    fn reads_grids_with_their_names_and_round_trips() {
        let two = format!("{NOTE}\ngrid\nrows\n[ 1 ]\n[ ]\ncolumns\n[ 1 ]\n");
        let puzzles = parse(&two).unwrap();
        assert_eq!(puzzles.len(), 2);
        let note = &puzzles[0];
        assert_eq!(note.title.as_deref(), Some("Note"));
        assert_eq!((note.height(), note.width()), (3, 3));
        assert_eq!(note.row_clues[1].blocks(), [1, 1]);
        assert!(note.row_clues[2].blocks().is_empty());
        assert_eq!(puzzles[1].title, None);
        for puzzle in &puzzles {
            assert_eq!(parse(&write(puzzle)).unwrap(), std::slice::from_ref(puzzle));
        }
    }

    #[test]
    fn a_grid_line_is_the_keyword_and_a_name() {
        assert_eq!(grid_name("GRID Fish"), Some("Fish"));
        assert_eq!(grid_name("Grid"), Some(""));
        assert_eq!(grid_name("GRIDS"), None);
        assert_eq!(grid_name("width 5"), None);
        assert_eq!(grid_name("GRÏD"), None);
    }
}
