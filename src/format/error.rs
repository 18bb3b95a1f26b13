//! The error every puzzle-file parser returns: a line number and what is wrong there.

use std::fmt;

use thiserror::Error;

use crate::puzzle::{PuzzleError, counted};

/// A problem in a puzzle file, with the line where it is.
///
/// Displays on one line as `line N: problem`, or just `problem` when it concerns the whole file
/// (`line == 0`). Callers that know the file name print `FILE:line N: problem`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line of the problem; 0 when it concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// An error at a 1-based line (0 for the whole file).
    pub fn new(line: usize, kind: ParseErrorKind) -> Self {
        ParseError { line, kind }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "line {}: {}", self.line, self.kind)
        }
    }
}

impl std::error::Error for ParseError {}

/// What is wrong in a puzzle file.
///
/// Strings held by the variants are excerpts of the input, already shortened and with control
/// characters escaped, so that every message stays on one line.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The file is empty, or holds only blank lines and comments.
    #[error(
        "the file contains no puzzle (it is empty, or holds only blank lines and `#` comments)"
    )]
    Empty,
    /// The file is not UTF-8 text (the line is where the first invalid byte is).
    #[error("the file is not valid UTF-8 text")]
    InvalidUtf8,
    /// The format could not be told from the file name or its content.
    #[error(
        "cannot tell the file's format (expected a `ROWS COLS` header, a .non file or a `$1` \
         tournament file); name the format explicitly"
    )]
    UnknownFormat,
    /// A token that should be a number is not one.
    #[error("`{0}` is not a number")]
    NotANumber(String),
    /// A number too large to mean anything here.
    #[error("number {0} is too large")]
    NumberTooLarge(String),
    /// A header line does not have the expected shape.
    #[error("expected {expected}, found `{found}`")]
    BadHeader {
        /// What the line should look like.
        expected: &'static str,
        /// The line as found.
        found: String,
    },
    /// A section that needs the puzzle's size comes before `width` and `height`.
    #[error("`{key}` needs the puzzle's size: put `width` and `height` before it")]
    MissingSize {
        /// The key that came too early.
        key: &'static str,
    },
    /// A line the format requires is missing.
    #[error("expected {expected}, found {found}")]
    MissingLine {
        /// What was expected, e.g. `row clue 7 of 10`.
        expected: String,
        /// What came instead: `end of file` or an excerpt in backquotes.
        found: String,
    },
    /// Content where none is allowed.
    #[error("unexpected `{found}` {context}")]
    Unexpected {
        /// An excerpt of the content.
        found: String,
        /// Where it was, e.g. `after the last column clue`.
        context: &'static str,
    },
    /// The clues do not make a well-formed puzzle (a clue longer than its line, totals that
    /// disagree, a goal that breaks a clue, ...).
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A section keyword this parser does not know.
    #[error("unknown section `{0}`")]
    UnknownSection(String),
    /// A key or section that may appear only once appears again.
    #[error("`{0}` appears twice")]
    DuplicateSection(String),
    /// A goal or solution picture is malformed (wrong size, a character other than 0 or 1).
    #[error("bad goal: {0}")]
    BadGoal(String),
    /// A tournament puzzle with an odd number of clue lines (it needs columns, then as many
    /// rows).
    #[error(
        "{}, expected an even number (columns, then as many rows)",
        counted(*.lines, "clue line")
    )]
    OddClueCount {
        /// Clue lines found.
        lines: usize,
    },
    /// A problem particular to one format (a colour that is not declared, a malformed XML
    /// element, ...), described in full.
    #[error("{0}")]
    Invalid(String),
    /// The puzzle has colours, and this part of the program handles black and white only.
    #[error("this is a colour puzzle, which {0} does not handle (black and white only)")]
    ColorUnsupported(&'static str),
    /// A line of a givens file is malformed.
    #[error("bad given: {0}")]
    BadGiven(String),
    /// A given sets a cell to the other value than an earlier given of the same cell.
    #[error(
        "row {row}, column {col} is given as {} here but as {} on line {earlier_line}",
        cell_value(*.filled),
        cell_value(!*.filled)
    )]
    GivensDisagree {
        /// Row, 1-based.
        row: usize,
        /// Column, 1-based.
        col: usize,
        /// The value given on this line (`true` = filled).
        filled: bool,
        /// The line of the earlier, contrary given.
        earlier_line: usize,
    },
}

/// `filled` or `empty`.
fn cell_value(filled: bool) -> &'static str {
    if filled { "filled" } else { "empty" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::LineId;

    #[test]
    fn displays_on_one_line_with_the_line_number() {
        let cases = [
            (
                ParseError::new(0, ParseErrorKind::Empty),
                "the file contains no puzzle (it is empty, or holds only blank lines and `#` \
                 comments)",
            ),
            (
                ParseError::new(3, ParseErrorKind::NotANumber("x1".into())),
                "line 3: `x1` is not a number",
            ),
            (
                ParseError::new(
                    12,
                    ParseErrorKind::MissingLine {
                        expected: "row clue 7 of 10".into(),
                        found: "end of file".into(),
                    },
                ),
                "line 12: expected row clue 7 of 10, found end of file",
            ),
            (
                ParseError::new(1, ParseErrorKind::OddClueCount { lines: 1 }),
                "line 1: 1 clue line, expected an even number (columns, then as many rows)",
            ),
            (
                ParseError::new(
                    3,
                    ParseErrorKind::GivensDisagree {
                        row: 1,
                        col: 2,
                        filled: false,
                        earlier_line: 1,
                    },
                ),
                "line 3: row 1, column 2 is given as empty here but as filled on line 1",
            ),
            (
                ParseError::new(
                    4,
                    PuzzleError::GoalMismatch {
                        line: LineId::Col(1),
                    }
                    .into(),
                ),
                "line 4: the goal picture does not match the clue of column 2",
            ),
        ];
        for (error, expected) in cases {
            assert_eq!(error.to_string(), expected);
        }
    }

    #[test]
    fn every_kind_displays_without_newlines() {
        let kinds = [
            ParseErrorKind::InvalidUtf8,
            ParseErrorKind::UnknownFormat,
            ParseErrorKind::NumberTooLarge("99999999999".into()),
            ParseErrorKind::BadHeader {
                expected: "`ROWS COLS`",
                found: "5".into(),
            },
            ParseErrorKind::MissingSize { key: "rows" },
            ParseErrorKind::Unexpected {
                found: "7".into(),
                context: "after the last clue",
            },
            ParseErrorKind::UnknownSection("colours".into()),
            ParseErrorKind::DuplicateSection("width".into()),
            ParseErrorKind::BadGoal("24 cells, expected 25".into()),
            ParseErrorKind::OddClueCount { lines: 49 },
            ParseErrorKind::BadGiven("row 0".into()),
            ParseErrorKind::GivensDisagree {
                row: 1,
                col: 2,
                filled: false,
                earlier_line: 1,
            },
        ];
        for kind in kinds {
            let text = ParseError::new(1, kind).to_string();
            assert!(
                text.starts_with("line 1: ") && !text.contains('\n'),
                "{text}"
            );
        }
    }
}
