//! Steve Simpson's `.non` format, with the `goal` extension of Wolter's pbnsolve.
//!
//! ```text
//! title "Two by three"
//! by "Someone"
//! width 3
//! height 2
//!
//! rows
//! 1,1
//! 1
//!
//! columns
//! 2
//! 0
//! 1
//!
//! goal "101100"
//! ```
//!
//! One `key value` per line. `width` and `height` must come before `rows` (followed by exactly
//! `height` clue lines) and `columns` (exactly `width` lines); in a section a lone `0` or a
//! blank line is an empty clue. `goal` is the designer's solution, row-major, `1` = filled,
//! and must match the clues. `title` becomes the title; every other key is kept, in order, in
//! the metadata, quotes stripped. A bare word that is not a known key is an unknown section.

use std::fmt::Write as _;

use super::error::{ParseError, ParseErrorKind};
use super::text::{
    LineMap, bad_dimension, check_size_at, numbered_lines, parse_clue, parse_usize, snippet,
};
use crate::puzzle::{Clue, Puzzle, counted};

/// Keys that may stand alone on their line (with an empty value) without opening a section.
const BARE_KEYS: [&str; 5] = ["by", "copyright", "catalogue", "license", "maxrule"];

/// What has been read so far.
#[derive(Default)]
struct NonFile {
    /// `(value, line)` of `width`.
    width: Option<(usize, usize)>,
    /// `(value, line)` of `height`.
    height: Option<(usize, usize)>,
    rows: Option<Vec<Clue>>,
    cols: Option<Vec<Clue>>,
    goal: Option<Vec<bool>>,
    title: Option<String>,
    metadata: Vec<(String, String)>,
    map: LineMap,
}

/// Parses a puzzle in the `.non` format and checks it (the goal included).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let lines: Vec<&str> = numbered_lines(text).map(|(_, line)| line.trim()).collect();
    let mut file = NonFile::default();
    let mut pos = 0;
    while let Some(&line) = lines.get(pos) {
        pos += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = match line.split_once(char::is_whitespace) {
            Some((key, value)) => (key, value.trim()),
            None => (line, ""),
        };
        let consumed = file
            .key(key, value, &lines, pos)
            .map_err(|e| at_line(e, pos))?;
        pos += consumed;
    }
    file.finish(lines.len() + 1)
}

/// Gives an error without a line the line of the key.
fn at_line(mut error: ParseError, line: usize) -> ParseError {
    if error.line == 0 {
        error.line = line;
    }
    error
}

/// An error without a line yet (the key's line is filled in by [`at_line`]).
fn here(kind: ParseErrorKind) -> ParseError {
    ParseError::new(0, kind)
}

impl NonFile {
    /// Handles the `key value` line numbered `pos` (1-based); returns how many further lines
    /// the key consumed.
    fn key(
        &mut self,
        key: &str,
        value: &str,
        lines: &[&str],
        pos: usize,
    ) -> Result<usize, ParseError> {
        match key.to_ascii_lowercase().as_str() {
            "width" => set_size(&mut self.width, "width", value, pos).map(|()| 0),
            "height" => set_size(&mut self.height, "height", value, pos).map(|()| 0),
            "rows" => self.section(true, value, lines, pos),
            "columns" => self.section(false, value, lines, pos),
            "goal" => self.goal(value, pos).map(|()| 0),
            "title" if self.title.is_some() => Err(here(duplicate("title"))),
            "title" => {
                self.title = Some(unquote(value).to_string());
                Ok(0)
            }
            _ if !key.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                let context = "where a `key value` line should be";
                Err(here(ParseErrorKind::Unexpected {
                    found: snippet(key),
                    context,
                }))
            }
            lower if value.is_empty() && !BARE_KEYS.contains(&lower) => {
                Err(here(ParseErrorKind::UnknownSection(snippet(key))))
            }
            _ => {
                self.metadata
                    .push((key.to_string(), unquote(value).to_string()));
                Ok(0)
            }
        }
    }

    /// The checked size `(width, height)`, required before a section or the goal.
    fn size(&self, key: &'static str) -> Result<(usize, usize), ParseError> {
        let (Some((width, wline)), Some((height, hline))) = (self.width, self.height) else {
            return Err(here(ParseErrorKind::MissingSize { key }));
        };
        let line = if bad_dimension(height) { hline } else { wline };
        check_size_at(height, width, line)?;
        Ok((width, height))
    }

    /// Reads the clue lines after `rows` or `columns`.
    fn section(
        &mut self,
        rows: bool,
        value: &str,
        lines: &[&str],
        pos: usize,
    ) -> Result<usize, ParseError> {
        let key = if rows { "rows" } else { "columns" };
        if !value.is_empty() {
            let found = snippet(&format!("{key} {value}"));
            let expected = "the clues on the next lines";
            return Err(here(ParseErrorKind::BadHeader { expected, found }));
        }
        if (if rows { &self.rows } else { &self.cols }).is_some() {
            return Err(here(duplicate(key)));
        }
        let (width, height) = self.size(key)?;
        if rows {
            let (clues, numbers) = read_clues(lines, pos, height, "row")?;
            (self.rows, self.map.rows) = (Some(clues), numbers);
            Ok(height)
        } else {
            let (clues, numbers) = read_clues(lines, pos, width, "column")?;
            (self.cols, self.map.cols) = (Some(clues), numbers);
            Ok(width)
        }
    }

    /// `goal "0101..."`: the picture, row-major, `1` = filled.
    fn goal(&mut self, value: &str, pos: usize) -> Result<(), ParseError> {
        if self.goal.is_some() {
            return Err(here(duplicate("goal")));
        }
        let (width, height) = self.size("goal")?;
        let picture = unquote(value);
        if let Some(bad) = picture.chars().find(|&c| c != '0' && c != '1') {
            let message = format!("`{}` is not 0 or 1", snippet(&bad.to_string()));
            return Err(here(ParseErrorKind::BadGoal(message)));
        }
        let cells: Vec<bool> = picture.chars().map(|c| c == '1').collect();
        if cells.len() != width * height {
            let found = counted(cells.len(), "cell");
            let message = format!("{found}, expected {width} x {height}");
            return Err(here(ParseErrorKind::BadGoal(message)));
        }
        (self.goal, self.map.goal) = (Some(cells), pos);
        Ok(())
    }

    /// Builds and checks the puzzle once every line is read.
    fn finish(self, eof: usize) -> Result<Puzzle, ParseError> {
        let missing = |section: &str| {
            let kind = ParseErrorKind::MissingLine {
                expected: format!("a `{section}` section"),
                found: "end of file".into(),
            };
            ParseError::new(eof, kind)
        };
        let row_clues = self.rows.ok_or_else(|| missing("rows"))?;
        let col_clues = self.cols.ok_or_else(|| missing("columns"))?;
        let mut map = self.map;
        map.size = self.height.map_or(0, |(_, line)| line);
        map.check(Puzzle {
            title: self.title,
            colors: Default::default(),
            row_clues,
            col_clues,
            givens: Vec::new(),
            metadata: self.metadata,
            goal: self.goal,
        })
    }
}

/// Reads the `count` clue lines after line `pos` (1-based), with their line numbers.
fn read_clues(
    lines: &[&str],
    pos: usize,
    count: usize,
    what: &str,
) -> Result<(Vec<Clue>, Vec<usize>), ParseError> {
    let (mut clues, mut numbers) = (Vec::new(), Vec::new());
    for k in 1..=count {
        let line = pos + k;
        let found = match lines.get(line - 1) {
            None => "end of file".to_string(),
            Some(t) if t.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                format!("`{}`", snippet(t))
            }
            Some(t) => {
                clues.push(parse_clue(t).map_err(|kind| ParseError::new(line, kind))?);
                numbers.push(line);
                continue;
            }
        };
        let expected = format!("{what} clue {k} of {count}");
        return Err(ParseError::new(
            line,
            ParseErrorKind::MissingLine { expected, found },
        ));
    }
    Ok((clues, numbers))
}

/// Reads `width N` or `height N` once.
fn set_size(
    slot: &mut Option<(usize, usize)>,
    key: &'static str,
    value: &str,
    line: usize,
) -> Result<(), ParseError> {
    if slot.is_some() {
        return Err(here(duplicate(key)));
    }
    if value.is_empty() || value.contains(char::is_whitespace) {
        let found = snippet(format!("{key} {value}").trim());
        let expected = ["`height N`", "`width N`"][usize::from(key == "width")];
        return Err(here(ParseErrorKind::BadHeader { expected, found }));
    }
    *slot = Some((parse_usize(value).map_err(here)?, line));
    Ok(())
}

fn duplicate(key: &str) -> ParseErrorKind {
    ParseErrorKind::DuplicateSection(key.to_string())
}

/// A value without its surrounding double quotes, if it has both.
fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
}

/// Writes a puzzle in the `.non` format: title, metadata, size, clues, goal.
///
/// Givens are not part of the format and are left out.
pub fn write(puzzle: &Puzzle) -> String {
    let quote = |v: &str| format!("\"{}\"", v.replace(['\n', '\r'], " "));
    let mut out = String::new();
    if let Some(title) = &puzzle.title {
        let _ = writeln!(out, "title {}", quote(title));
    }
    for (key, value) in &puzzle.metadata {
        // A key that would not read back as the same metadata is left out.
        let reserved = ["width", "height", "rows", "columns", "goal", "title"];
        let readable = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && !key.contains(char::is_whitespace)
            && !reserved.iter().any(|r| key.eq_ignore_ascii_case(r));
        if readable {
            let _ = writeln!(out, "{key} {}", quote(value));
        }
    }
    let _ = writeln!(out, "width {}\nheight {}", puzzle.width(), puzzle.height());
    for (name, clues) in [("rows", &puzzle.row_clues), ("columns", &puzzle.col_clues)] {
        let _ = writeln!(out, "\n{name}");
        for clue in clues {
            // `Clue` displays as `1 2 3`, or `0` when empty.
            let _ = writeln!(out, "{}", clue.to_string().replace(' ', ","));
        }
    }
    if let Some(goal) = &puzzle.goal {
        let cells: String = goal.iter().map(|&f| if f { '1' } else { '0' }).collect();
        let _ = writeln!(out, "\ngoal \"{cells}\"");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "title \"Two by three\"\nby \"Someone\"\nlicense\nwidth 3\nheight 2\n\n\
                        rows\n1,1\n1\n\ncolumns\n2\n0\n1\n\ngoal \"101100\"\n";

    #[test]
    fn parses_good_inputs() {
        let crlf = GOOD.replace('\n', "\r\n");
        let blank_clue = GOOD.replace("\n0\n", "\n\n");
        let columns_first = "width 3\nheight 2\ncolumns\n2\n0\n1\nrows\n1 1\n1\n";
        for text in [GOOD, &crlf, &blank_clue, columns_first] {
            let puzzle = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(puzzle.row_clues, [Clue(vec![1, 1]), Clue(vec![1])]);
            assert_eq!(
                puzzle.col_clues,
                [Clue(vec![2]), Clue(vec![]), Clue(vec![1])]
            );
        }
        let puzzle = parse(GOOD).expect("valid");
        assert_eq!(puzzle.title.as_deref(), Some("Two by three"));
        let metadata = [("by", "Someone"), ("license", "")].map(|(k, v)| (k.into(), v.into()));
        assert_eq!(puzzle.metadata, metadata);
        let goal = [true, false, true, true, false, false];
        assert_eq!(puzzle.goal.as_deref(), Some(&goal[..]));
    }

    /// Each case edits [`GOOD`] (replacing a string) and expects an error at a line, whose kind
    /// prints (with `{:?}`) starting with the given text.
    #[test]
    fn reports_bad_inputs_with_their_line() {
        #[rustfmt::skip]
        let cases = [
            ("1\n\ncolumns", "columns", 9, "MissingLine { expected: \"row clue 2 of 2\""),
            ("\n1\n\ngoal \"101100\"\n", "", 14, "MissingLine { expected: \"column clue 3"),
            ("1,1", "1,x", 8, "NotANumber(\"x\")"),
            ("1,1", "2,2", 8, "Puzzle(ClueTooLong { line: Row(0), clue: Clue([2, 2])"),
            ("columns\n2", "columns\n1", 14, "Puzzle(TotalsDisagree { rows: 3, cols: 2 })"),
            ("101100", "100101", 16, "Puzzle(GoalMismatch { line: Row(0) })"),
            ("101100", "10110", 16, "BadGoal(\"5 cells, expected 3 x 2\")"),
            ("101100", "10110x", 16, "BadGoal(\"`x` is not 0 or 1\")"),
            ("height 2", "height 2\nwidth 3", 6, "DuplicateSection(\"width\")"),
            ("width 3", "width", 4, "BadHeader { expected: \"`width N`\", found: \"width\" }"),
            ("width 3", "width three", 4, "NotANumber(\"three\")"),
            ("width 3", "width 5000", 4, "Puzzle(TooLarge { rows: 2, cols: 5000 })"),
            ("height 2", "height 0", 5, "Puzzle(EmptyGrid { rows: 0, cols: 3 })"),
            ("width 3\n", "", 6, "MissingSize { key: \"rows\" }"),
            ("license", "colours", 3, "UnknownSection(\"colours\")"),
            ("\ngoal", "1,2\ngoal", 15, "Unexpected { found: \"1,2\""),
            ("rows\n1,1\n1\n", "", 14, "MissingLine { expected: \"a `rows` section\""),
            ("title", "title \"a\"\ntitle", 2, "DuplicateSection(\"title\")"),
            ("rows\n", "rows 2\n", 7, "BadHeader { expected: \"the clues on the next lines\""),
        ];
        crate::format::assert_edits_fail(parse, GOOD, &cases);
    }

    #[test]
    fn rejects_huge_sizes_at_once() {
        let err = parse("width 1000000000\nheight 1000000000\nrows\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(format!("{:?}", err.kind).starts_with("Puzzle(TooLarge"));
    }

    #[test]
    fn writes_what_it_reads() {
        let puzzle = parse(GOOD).expect("valid");
        assert_eq!(parse(&write(&puzzle)).expect("round trip"), puzzle);
        let no_goal = Puzzle {
            goal: None,
            title: None,
            ..puzzle
        };
        assert_eq!(parse(&write(&no_goal)).expect("round trip"), no_goal);
    }
}
