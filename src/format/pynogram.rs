//! The puzzle files of pynogram and nonogrid: a `[clues]` section with `columns =` and
//! `rows =` lists, and for colour a `[colors]` section.
//!
//! ```text
//! [colors]
//! r = (red) %
//! g = (0, 204, 0) *
//!
//! [clues]
//! columns = 1r 1, 2g
//!     1
//! rows =
//!     "1r 1"    # a clue may be quoted
//!     2g, 1
//! ```
//!
//! Clues are separated by commas and/or line ends; `0` is an empty clue, and `#` or `;` starts
//! a comment. A block's colour is the name of a `[colors]` entry after its length (`2g`); a
//! block without one is black. An entry is `NAME = (COLOUR) CHAR`, the colour a name
//! (`red`), `R, G, B` or hexadecimal `FF0000`. nonogrid's TOML spelling is read too: the
//! entries as quoted strings in `defs = [ ... ]`, and the lists in `"""` quotes.

use super::error::{ParseError, ParseErrorKind};
use super::palette::{name_of, parse_rgb};
use super::text::{LineMap, check_size_at, eof_line, numbered_lines, parse_number, snippet};
use crate::color::{AnyPuzzle, Block, Color, ColorClue, ColorPuzzle, MAX_COLORS};

/// One colour of the `[colors]` section: its name in clues, and the colour.
struct Entry {
    name: String,
    color: Color,
}

/// Where lines go while reading.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    Colors,
    Rows,
    Columns,
    /// In `[clues]`, before `rows =` or `columns =`.
    Clues,
}

/// What a file holds, as read: the colours, and each list's clues with their lines.
#[derive(Default)]
struct Read<'a> {
    entries: Vec<Entry>,
    rows: Vec<(usize, &'a str)>,
    columns: Vec<(usize, &'a str)>,
}

/// A line without its comment (from `#` or `;` on).
fn uncommented(line: &str) -> &str {
    line.split(['#', ';']).next().unwrap_or_default().trim()
}

/// Whether `text` has a `[clues]` line: how the format is told from others.
pub(super) fn has_clues_section(text: &str) -> bool {
    numbered_lines(text).any(|(_, line)| uncommented(line).eq_ignore_ascii_case("[clues]"))
}

/// Parses a file into a puzzle: black and white, unless `[colors]` names a colour.
pub fn parse(text: &str) -> Result<AnyPuzzle, ParseError> {
    let read = read_sections(text)?;
    let eof = eof_line(text);
    for (list, word) in [(&read.rows, "rows"), (&read.columns, "columns")] {
        if list.is_empty() {
            let kind = ParseErrorKind::MissingLine {
                expected: format!("`{word} =` and its clues in `[clues]`"),
                found: "end of file".into(),
            };
            return Err(ParseError::new(eof, kind));
        }
    }
    let first = read.rows.first().map_or(0, |&(n, _)| n);
    check_size_at(read.rows.len(), read.columns.len(), first)?;
    let mut colors = vec![Color::new("background", [255, 255, 255], '.')];
    colors.push(Color::new("black", [0, 0, 0], '#'));
    colors.extend(read.entries.iter().map(|e| e.color.clone()));
    if colors.len() > MAX_COLORS {
        let message = format!("{} colours; at most {}", colors.len() - 1, MAX_COLORS - 1);
        return Err(ParseError::new(first, ParseErrorKind::Invalid(message)));
    }
    let clues = |list: &[(usize, &str)]| -> Result<Vec<ColorClue>, ParseError> {
        (list.iter())
            .map(|&(n, clue)| parse_clue(clue, &read.entries).map_err(|k| ParseError::new(n, k)))
            .collect()
    };
    let (row_clues, col_clues) = (clues(&read.rows)?, clues(&read.columns)?);
    let map = LineMap {
        size: first,
        rows: read.rows.iter().map(|&(n, _)| n).collect(),
        cols: read.columns.iter().map(|&(n, _)| n).collect(),
        goal: 0,
    };
    map.check_color(ColorPuzzle::unchecked(colors, row_clues, col_clues))
}

/// Reads the sections of a file, line by line.
fn read_sections(text: &str) -> Result<Read<'_>, ParseError> {
    let mut read = Read::default();
    let mut section = Section::None;
    for (number, raw) in numbered_lines(text) {
        let line = uncommented(raw);
        if line.is_empty() {
            continue;
        }
        let header = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
        if let Some(name) = header.filter(|n| n.chars().all(|c| c.is_ascii_alphabetic())) {
            section = match name.to_ascii_lowercase().as_str() {
                "colors" | "colours" => Section::Colors,
                "clues" => Section::Clues,
                _ => {
                    let kind = ParseErrorKind::UnknownSection(snippet(name));
                    return Err(ParseError::new(number, kind));
                }
            };
            continue;
        }
        if section == Section::Colors {
            read_entries(number, line, &mut read.entries)?;
            continue;
        }
        let mut content = line;
        if let Some((key, rest)) = line.split_once('=') {
            let list = match key.trim().to_ascii_lowercase().as_str() {
                "rows" => Some(Section::Rows),
                "columns" => Some(Section::Columns),
                _ => None,
            };
            if let Some(list) = list.filter(|_| section != Section::None) {
                let seen = if list == Section::Rows {
                    &read.rows
                } else {
                    &read.columns
                };
                if !seen.is_empty() {
                    let kind = ParseErrorKind::DuplicateSection(key.trim().to_string());
                    return Err(ParseError::new(number, kind));
                }
                section = list;
                content = rest;
            }
        }
        let list = match section {
            Section::Rows => &mut read.rows,
            Section::Columns => &mut read.columns,
            _ => {
                let context = "where `[clues]`, `rows =` or `columns =` should be";
                let found = snippet(line);
                return Err(ParseError::new(
                    number,
                    ParseErrorKind::Unexpected { found, context },
                ));
            }
        };
        let items = (content.split(',')).map(unquoted).filter(|i| !i.is_empty());
        list.extend(items.map(|item| (number, item)));
    }
    Ok(read)
}

/// A clue without the quotes around it.
fn unquoted(item: &str) -> &str {
    item.trim().trim_matches(['"', '\'']).trim()
}

/// Reads the colour entries of one `[colors]` line: `NAME = (COLOUR) CHAR`, or nonogrid's
/// quoted entries in `defs = [ ... ]`.
fn read_entries(number: usize, line: &str, entries: &mut Vec<Entry>) -> Result<(), ParseError> {
    let quoted: Vec<&str> = line.split(['\'', '"']).skip(1).step_by(2).collect();
    let line = line
        .trim_start_matches("defs")
        .trim_start_matches([' ', '=']);
    let defs = if quoted.is_empty() && !matches!(line, "[" | "]" | "[]" | "") {
        vec![line]
    } else {
        quoted
    };
    for def in defs {
        let entry = parse_entry(def).ok_or_else(|| {
            let message = format!(
                "a colour is written `NAME = (red) CHAR`, `NAME = (255, 0, 0) CHAR` or `NAME = \
                 (FF0000) CHAR`, not `{}`",
                snippet(def)
            );
            ParseError::new(number, ParseErrorKind::Invalid(message))
        })?;
        if entries.iter().any(|e| e.name == entry.name) {
            let kind = ParseErrorKind::DuplicateSection(entry.name);
            return Err(ParseError::new(number, kind));
        }
        entries.push(entry);
    }
    Ok(())
}

/// One colour entry, `NAME = (COLOUR) CHAR` (the character may be left out).
fn parse_entry(def: &str) -> Option<Entry> {
    let (name, rest) = def.split_once('=')?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let (value, ch) = rest.trim().strip_prefix('(')?.split_once(')')?;
    let numbers: Vec<&str> = value.split(',').map(str::trim).collect();
    let rgb = match numbers[..] {
        [r, g, b] => [r.parse().ok()?, g.parse().ok()?, b.parse().ok()?],
        _ => parse_rgb(value)?,
    };
    let ch = ch.trim().chars().next().unwrap_or(' ');
    Some(Entry {
        name: name.to_string(),
        color: Color::new(name_of(rgb), rgb, ch),
    })
}

/// One clue: blocks `LEN` (black) or `LENNAME`, separated by spaces; `0` alone is empty.
fn parse_clue(clue: &str, entries: &[Entry]) -> Result<ColorClue, ParseErrorKind> {
    let mut blocks = Vec::new();
    for token in clue.split_whitespace() {
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (len, name) = token.split_at(digits);
        let too_large = || ParseErrorKind::NumberTooLarge(snippet(token));
        let len = parse_number(len).map_err(|e| match e {
            ParseErrorKind::NumberTooLarge(_) => too_large(),
            _ => ParseErrorKind::NotANumber(snippet(token)),
        })?;
        let len = u32::try_from(len).map_err(|_| too_large())?;
        let color = match name {
            "" => 1,
            name => match entries.iter().position(|e| e.name == name) {
                // Palette index: the background, black, then the entries.
                Some(i) => u8::try_from(i + 2).unwrap_or(u8::MAX),
                None => {
                    let message = format!("colour `{}` is not in `[colors]`", snippet(name));
                    return Err(ParseErrorKind::Invalid(message));
                }
            },
        };
        if len > 0 {
            blocks.push(Block { len, color });
        } else if clue.split_whitespace().count() > 1 {
            return Err(ParseErrorKind::Invalid(format!(
                "a block of 0 cells in `{}`",
                snippet(clue)
            )));
        }
    }
    Ok(ColorClue(blocks))
}

/// Writes a black-and-white puzzle: `[clues]`, then `columns =` and `rows =`, a clue a line.
pub fn write(puzzle: &crate::puzzle::Puzzle) -> String {
    let mut out = String::new();
    if let Some(title) = &puzzle.title {
        out.push_str(&format!("# {}\n", title.replace(['\r', '\n'], " ")));
    }
    out.push_str("[clues]");
    for (word, clues) in [("columns", &puzzle.col_clues), ("rows", &puzzle.row_clues)] {
        out.push_str(&format!("\n{word} =\n"));
        for clue in clues {
            let blocks: Vec<String> = clue.blocks().iter().map(u32::to_string).collect();
            let text = if blocks.is_empty() {
                "0".to_string()
            } else {
                blocks.join(" ")
            };
            out.push_str(&format!("    {text}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bw(text: &str) -> crate::puzzle::Puzzle {
        match parse(text) {
            Ok(AnyPuzzle::Bw(p)) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_the_compact_and_the_verbose_forms() {
        let compact = bw("[clues]\ncolumns=3 1,1 1 1,1 1 1,1 3\nrows=4,1,4,1,4\n");
        let verbose = bw(
            "# The '5'\n[clues]\ncolumns =\n  3 1\n  '1 1 1'\n\n  \"1 1 1\" ; x\n  \
                          1 3,\nrows =\n  4  ; upper\n  1\n  4  # middle\n  1\n  4\n",
        );
        assert_eq!(compact, verbose);
        assert_eq!((compact.height(), compact.width()), (5, 4));
        let empty = bw("[clues]\ncolumns = 1, 0\nrows = 1\n");
        assert!(empty.col_clues[1].blocks().is_empty());
        assert_eq!(bw(&write(&compact)), compact);
    }

    /// A length past any number is too large, as one past 2^32 is (and as other formats say).
    #[test]
    fn huge_lengths_are_too_large() {
        for len in ["4294967296", "99999999999999999999"] {
            let err = parse(&format!("[clues]\ncolumns = 1, 1\nrows = {len}, 1\n")).unwrap_err();
            assert_eq!(
                err.kind,
                ParseErrorKind::NumberTooLarge(len.into()),
                "{err}"
            );
            assert_eq!(err.line, 3);
        }
        let err = parse("[clues]\ncolumns = 1, 1\nrows = x1, 1\n").unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::NotANumber("x1".into()), "{err}");
    }

    #[test]
    fn reads_colours_in_both_spellings() {
        let pynogram = "[colors]\nr = (red) %\ng=(0, 204, 0) *\n[clues]\n\
                        columns = 1r 1, 1g\nrows = 1r, 1 1g\n";
        let nonogrid = "[colors]\ndefs = [\n    'r = (FF0000) %',\n    'g = (0, 204, 0) *',\n]\n\
                        [clues]\ncolumns = \"\"\"\n1r 1\n1g\n\"\"\"\nrows = \"\"\"\n1r\n1 1g\n\"\"\"\n";
        for text in [pynogram, nonogrid] {
            let Ok(AnyPuzzle::Color(p)) = parse(text) else {
                panic!("{text}");
            };
            let colours: Vec<(&str, char)> =
                p.colors.iter().map(|c| (c.name.as_str(), c.ch)).collect();
            assert_eq!(
                colours,
                [
                    ("background", '.'),
                    ("black", '#'),
                    ("red", '%'),
                    ("#00CC00", '*')
                ]
            );
            let blocks = |c: &ColorClue| c.blocks().iter().map(|b| (b.len, b.color)).collect();
            let rows: Vec<Vec<(u32, u8)>> = p.row_clues.iter().map(blocks).collect();
            assert_eq!(rows, [vec![(1, 2)], vec![(1, 1), (1, 3)]]);
        }
        // Black only where a block has no colour.
        let Ok(AnyPuzzle::Color(p)) = parse(
            "[colors]\nr = (red) %\ng = (green) *\n[clues]\ncolumns = 1r, 1g\nrows = 1r 1g\n",
        ) else {
            panic!("colour");
        };
        let names: Vec<&str> = p.colors.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["background", "red", "green"]);
        assert_eq!(p.row_clues[0].blocks()[1].color, 2);
    }
}
