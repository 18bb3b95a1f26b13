//! The JSON puzzles of thomasr's solver: `{"columns": [[..], ..], "rows": [[..], ..]}`, each
//! clue a list of block lengths, `[0]` or `[]` for an empty line. Read with `serde_json`.
//!
//! Errors in a clue name the line where the clue is, and the clue's number; a missing or
//! malformed list names the line of its key.

use serde_json::Value;

use super::error::{ParseError, ParseErrorKind};
use super::text::{LineMap, last_line, parser_message, snippet};
use crate::puzzle::{Clue, Puzzle};

/// Parses a JSON puzzle.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let line = if e.is_eof() {
            last_line(text)
        } else {
            e.line().max(1)
        };
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message);
        let message = format!("not valid JSON: {}", parser_message(message));
        ParseError::new(line, ParseErrorKind::Invalid(message))
    })?;
    let place = |key: &str| Place::find(text, key);
    let clues = |key: &str| -> Result<Vec<Clue>, ParseError> {
        let at = place(key);
        let Some(list) = value.get(key).and_then(Value::as_array) else {
            let message = format!("expected a \"{key}\" list of clues");
            return Err(ParseError::new(at.key, ParseErrorKind::Invalid(message)));
        };
        let mut out = Vec::with_capacity(list.len());
        for (i, clue) in list.iter().enumerate() {
            let bad = || {
                let message = format!(
                    "\"{key}\" clue {} is not a list of block lengths: {}",
                    i + 1,
                    snippet(&clue.to_string())
                );
                ParseError::new(at.clue(i), ParseErrorKind::Invalid(message))
            };
            let blocks = clue.as_array().ok_or_else(bad)?;
            let mut lengths = Vec::with_capacity(blocks.len());
            for b in blocks {
                let n = b
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(bad)?;
                lengths.push(n);
            }
            if lengths == [0] {
                lengths.clear();
            }
            out.push(Clue(lengths));
        }
        Ok(out)
    };
    let row_clues = clues("rows")?;
    let col_clues = clues("columns")?;
    let (rows_at, cols_at) = (place("rows"), place("columns"));
    let map = LineMap {
        size: rows_at.key,
        rows: (0..row_clues.len()).map(|i| rows_at.clue(i)).collect(),
        cols: (0..col_clues.len()).map(|i| cols_at.clue(i)).collect(),
        goal: 0,
    };
    map.check(Puzzle::unchecked(row_clues, col_clues))
}

/// Where a top-level key and the elements of its list are in a valid JSON text: 1-based lines.
#[derive(Debug, Default, PartialEq, Eq)]
struct Place {
    /// The line of the key (its last occurrence, the one `serde_json` keeps); 1 if absent.
    key: usize,
    /// The line where each element of the key's list starts.
    elements: Vec<usize>,
}

impl Place {
    /// Scans `text` (valid JSON) for the top-level `key`.
    fn find(text: &str, key: &str) -> Place {
        let bytes = text.as_bytes();
        let mut place = Place {
            key: 1,
            elements: Vec::new(),
        };
        let (mut line, mut depth, mut i) = (1, 0usize, 0);
        // `pending`: the key was just read; `in_list`: inside its list; `want`: an element next.
        let (mut pending, mut in_list, mut want) = (false, false, false);
        while let Some(&b) = bytes.get(i) {
            if want && !b.is_ascii_whitespace() && b != b']' {
                place.elements.push(line);
                want = false;
            }
            match b {
                b'\n' => line += 1,
                b'"' => {
                    let start = i + 1;
                    i = start;
                    while let Some(&c) = bytes.get(i) {
                        match c {
                            b'\\' => i += 1,
                            b'"' => break,
                            _ => {}
                        }
                        i += 1;
                    }
                    let rest = text.get(i + 1..).unwrap_or_default().trim_start();
                    pending =
                        depth == 1 && text.get(start..i) == Some(key) && rest.starts_with(':');
                    if pending {
                        place = Place {
                            key: line,
                            elements: Vec::new(),
                        };
                    }
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth == 2 && pending && b == b'[' {
                        (in_list, want) = (true, true);
                    }
                    pending = false;
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    in_list &= depth >= 2;
                    want = false;
                }
                b',' => want = in_list && depth == 2,
                b':' => {}
                _ if b.is_ascii_whitespace() => {}
                _ => pending = false,
            }
            i += 1;
        }
        place
    }

    /// The line of element `i`, or of the key if the scan did not find it.
    fn clue(&self, i: usize) -> usize {
        self.elements.get(i).copied().unwrap_or(self.key)
    }
}

/// Writes a puzzle in this JSON form, one clue per line.
pub fn write(puzzle: &Puzzle) -> String {
    let list = |clues: &[Clue]| -> String {
        let lines: Vec<String> = clues
            .iter()
            .map(|c| {
                let blocks: Vec<String> = c.blocks().iter().map(u32::to_string).collect();
                if blocks.is_empty() {
                    "    [0]".to_string()
                } else {
                    format!("    [{}]", blocks.join(", "))
                }
            })
            .collect();
        lines.join(",\n")
    };
    format!(
        "{{\n  \"columns\": [\n{}\n  ],\n  \"rows\": [\n{}\n  ]\n}}\n",
        list(&puzzle.col_clues),
        list(&puzzle.row_clues)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_round_trips() {
        let p = parse("{\"columns\": [[1], [0], [1]], \"rows\": [[1, 1]]}").unwrap();
        assert_eq!((p.height(), p.width()), (1, 3));
        assert!(p.col_clues[1].blocks().is_empty());
        assert_eq!(parse(&write(&p)).unwrap(), p);
    }

    #[test]
    fn errors_name_the_line() {
        let text = "{\n  \"columns\": [\n    [1],\n    [\"x\"]\n  ],\n  \"rows\": [[1, 1]]\n}";
        let err = parse(text).unwrap_err();
        assert_eq!(err.line, 4, "{err}");
        assert!(err.to_string().contains("column"), "{err}");
        let err = parse("{\n\"rows\": [[1]],\n").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
    }

    /// The parser's message is whole, without its own place; one at the end of the file names
    /// the last line.
    #[test]
    fn parser_messages_are_whole() {
        let cases = [
            (
                "{\"columns\": [[1],[1]], \"rows\": [[1],",
                1,
                "EOF while parsing a value",
            ),
            (
                "{\"columns\": [[1]],\n\"rows\": [\n[1]\n",
                3,
                "EOF while parsing a list",
            ),
            (
                "{\"columns\": [[1]], \"rows\": [[1]]} x",
                1,
                "trailing characters",
            ),
            (
                "{\"columns\": [[1]], \"rows\": [[1]]}\n{}",
                2,
                "trailing characters",
            ),
            ("{\n\"rows\": [[1],]}", 2, "trailing comma"),
        ];
        for (text, line, message) in cases {
            let err = parse(text).unwrap_err();
            assert_eq!(err.line, line, "{err}");
            assert_eq!(
                err.kind,
                ParseErrorKind::Invalid(format!("not valid JSON: {message}"))
            );
        }
    }

    /// Clues are placed on their own lines however the file is laid out, and on line 1 of a
    /// one-line file.
    #[test]
    fn errors_name_the_clue_s_own_line() {
        let cases = [
            ("{\"columns\": [[1],[2]], \"rows\": [[1],[1]]}", 1),
            ("{\"columns\": [[1],[1]], \"rows\": [[1,1],[1]]}", 1),
            ("{\"columns\": [[1],[1]],\n \"rows\": [[1,1],\n [1]]}", 2),
            ("{\"columns\": [[1],[1]],\n \"rows\": [[1],\n [1,\n1]]}", 3),
            (
                "{\"rows\": \"x\", \"columns\": [[1]],\n\"rows\": [[1],\n[1]]}",
                3,
            ),
            (
                "{\"columns\": [[1],[1]], \"x\": {\"rows\": [[5]]},\n\"rows\": [\n[1],\n[2]]}",
                4,
            ),
            ("{\"columns\": [[1],\n[\"]\"]], \"rows\": [[1,1]]}", 2),
        ];
        for (text, line) in cases {
            let err = parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text}: {err}");
        }
        let place = Place::find("{\"a\\\"rows\": 1,\n\"rows\":\n[ [1],\n\n[] ]}", "rows");
        assert_eq!(
            place,
            Place {
                key: 2,
                elements: vec![3, 5]
            }
        );
    }
}
