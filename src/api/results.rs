//! The JSON results of a run (`count --to jsonl`, `list --to json` and the like): one object a
//! line, or one array of them. Each solution is a `solution` object; each puzzle ends with a
//! `result` object that says which puzzle and givens it belongs to, how many solutions were
//! found and whether the search was complete. Merging a split folder reads them back.

use serde::{Deserialize, Serialize};

use crate::count::BigUint;

/// One object of a run's JSON results.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum JsonLine {
    /// A solution, as rows of `#` and `.` (or the palette's characters).
    Solution {
        /// The rows, top to bottom.
        rows: Vec<String>,
    },
    /// The end of one puzzle's run.
    Result(RunResult),
}

/// What one run found, and for which puzzle.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    /// The command: `solve`, `count` or `list`.
    pub command: String,
    /// The puzzle's label (its title, or `puzzle N`).
    pub label: String,
    /// The checksum of the puzzle's clues (the first of [`AnyPuzzle::checksums`](crate::AnyPuzzle::checksums)).
    pub puzzle: String,
    /// The checksum of the givens of the puzzle with every given applied (the second of
    /// [`AnyPuzzle::checksums`](crate::AnyPuzzle::checksums)).
    pub givens: String,
    /// Solutions found (for `solve`, at most 2), written as a decimal string so that no JSON
    /// reader rounds a large count.
    #[serde(with = "decimal")]
    pub count: BigUint,
    /// Whether the search covered the whole tree, so that `count` is exact.
    pub complete: bool,
    /// Why an incomplete search stopped: `interrupted`, `time limit reached` or `solution
    /// limit reached` (absent when complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
    /// With per-cell counts: for each cell, row by row, in how many of the `count` solutions
    /// it is filled, each a decimal string like `count`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_rows"
    )]
    pub per_cell: Option<Vec<Vec<BigUint>>>,
    /// With per-cell counts of a colour puzzle: for each colour of the palette, the
    /// background first, in how many of the `count` solutions each cell has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_color: Option<Vec<ColorCells>>,
}

/// One colour's per-cell counts (in a [`RunResult`] of a colour puzzle).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ColorCells {
    /// The colour's name.
    pub color: String,
    /// Its character in text output.
    pub char: String,
    /// For each cell, row by row, in how many solutions it has this colour, each a decimal
    /// string like `count`.
    pub rows: Vec<Vec<String>>,
}

/// Reads JSON results: one object a line, or one array of them. A failure gives the line
/// (1-based) it is on.
pub(crate) fn read_lines(text: &str) -> Result<Vec<JsonLine>, (usize, serde_json::Error)> {
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text).map_err(|e| (e.line(), e));
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| (i + 1, e)))
        .collect()
}

/// Rows of counts as arrays of decimal strings.
mod decimal_rows {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::count::BigUint;

    pub(super) fn serialize<S: Serializer>(
        rows: &Option<Vec<Vec<BigUint>>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let text: Option<Vec<Vec<String>>> = rows.as_ref().map(|rows| {
            rows.iter()
                .map(|row| row.iter().map(ToString::to_string).collect())
                .collect()
        });
        serde::Serialize::serialize(&text, serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<Vec<BigUint>>>, D::Error> {
        let text: Option<Vec<Vec<String>>> = Option::deserialize(deserializer)?;
        text.map(|rows| {
            rows.iter()
                .map(|row| {
                    row.iter()
                        .map(|n| {
                            n.parse()
                                .map_err(|_| D::Error::custom(format!("`{n}` is not a count")))
                        })
                        .collect()
                })
                .collect()
        })
        .transpose()
    }
}

/// A count as a decimal string in JSON.
mod decimal {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::count::BigUint;

    pub(super) fn serialize<S: Serializer>(
        count: &BigUint,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(count)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BigUint, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("`{text}` is not a count")))
    }
}
