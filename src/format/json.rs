//! The JSON puzzles of thomasr's solver: `{"columns": [[..], ..], "rows": [[..], ..]}`, each
//! clue a list of block lengths, `[0]` or `[]` for an empty line. Read with `serde_json`.
//!
//! Errors in a clue name the line where its list (`"rows"` or `"columns"`) starts, and the
//! clue's number; a clue that does not fit its line names the clue's own line when the file
//! has one clue per line (as [`write`](fn@write) writes it).

use serde_json::Value;

use super::error::{ParseError, ParseErrorKind};
use super::text::{LineMap, snippet};
use crate::puzzle::{Clue, Puzzle};

/// Parses a JSON puzzle.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let message = format!("not valid JSON: {e}");
        ParseError::new(e.line().max(1), ParseErrorKind::Invalid(snippet(&message)))
    })?;
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.contains(&format!("\"{key}\"")))
            .map_or(1, |i| i + 1)
    };
    let clues = |key: &str| -> Result<Vec<Clue>, ParseError> {
        let at = line_of(key);
        let Some(list) = value.get(key).and_then(Value::as_array) else {
            let message = format!("expected a \"{key}\" list of clues");
            return Err(ParseError::new(at, ParseErrorKind::Invalid(message)));
        };
        let mut out = Vec::with_capacity(list.len());
        for (i, clue) in list.iter().enumerate() {
            let bad = || {
                let message = format!(
                    "\"{key}\" clue {} is not a list of block lengths: {}",
                    i + 1,
                    snippet(&clue.to_string())
                );
                ParseError::new(at, ParseErrorKind::Invalid(message))
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
    let (rows_at, cols_at) = (line_of("rows"), line_of("columns"));
    let map = LineMap {
        size: rows_at,
        rows: (0..row_clues.len()).map(|i| rows_at + 1 + i).collect(),
        cols: (0..col_clues.len()).map(|i| cols_at + 1 + i).collect(),
        goal: 0,
    };
    map.check(Puzzle::unchecked(row_clues, col_clues))
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
        assert_eq!(err.line, 2, "{err}");
        assert!(err.to_string().contains("column"), "{err}");
        let err = parse("{\n\"rows\": [[1]],\n").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
    }
}
