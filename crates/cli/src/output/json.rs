//! Machine-readable output (`--to jsonl`): one JSON object per line. Each solution is a
//! `solution` line; each puzzle ends with a `result` line that says which puzzle and givens it
//! belongs to, how many solutions were found and whether the search was complete. `nonoenum
//! merge` reads these lines back. `--to json` writes the same objects as one JSON array
//! ([`JsonArray`]).

use std::io::{self, Write};

use nonoenum::count::BigUint;
use serde::{Deserialize, Serialize};

/// One object of `--to jsonl` (or `json`) output.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub(crate) enum JsonLine {
    /// A solution, as rows of `#` and `.`.
    Solution {
        /// The rows, top to bottom.
        rows: Vec<String>,
    },
    /// The end of one puzzle's run.
    Result(RunResult),
}

/// What one run found, and for which puzzle.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RunResult {
    /// The command: `solve`, `count` or `list`.
    pub(crate) command: String,
    /// The puzzle's label (its title, or `puzzle N`).
    pub(crate) label: String,
    /// [`nonoenum::split::clue_checksum`] of the puzzle.
    pub(crate) puzzle: String,
    /// [`nonoenum::split::givens_checksum`] of the puzzle with every given applied.
    pub(crate) givens: String,
    /// Solutions found (for `solve`, at most 2), written as a decimal string so that no JSON
    /// reader rounds a large count.
    #[serde(with = "decimal")]
    pub(crate) count: BigUint,
    /// Whether the search covered the whole tree, so that `count` is exact.
    pub(crate) complete: bool,
    /// Why an incomplete search stopped: `interrupted`, `time limit reached` or `solution
    /// limit reached` (absent when complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stopped: Option<String>,
    /// Wall-clock seconds of the search.
    pub(crate) seconds: f64,
    /// With `count --per-cell`: for each cell, row by row, in how many of the `count`
    /// solutions it is filled, each a decimal string like `count`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_rows"
    )]
    pub(crate) per_cell: Option<Vec<Vec<BigUint>>>,
    /// With `count --per-cell` on a colour puzzle: for each colour of the palette, the
    /// background first, in how many of the `count` solutions each cell has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) per_color: Option<Vec<ColorCells>>,
}

/// One colour's per-cell counts (`count --per-cell --to json` on a colour puzzle).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct ColorCells {
    /// The colour's name.
    pub(crate) color: String,
    /// Its character in text output.
    pub(crate) char: String,
    /// For each cell, row by row, in how many solutions it has this colour, each a decimal
    /// string like `count`.
    pub(crate) rows: Vec<Vec<String>>,
}

/// The rows of a grid as strings of `#` and `.`.
/// The rows of a solution of either kind.
pub(crate) fn picture_rows(picture: nonoenum::AnyGrid<'_>) -> Vec<String> {
    super::picture_text_rows(picture)
}

/// Writes one JSON line.
pub(crate) fn write_line(out: &mut (impl Write + ?Sized), line: &JsonLine) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// Turns JSON lines written through it into one JSON array: `[` before the first object, a
/// comma at the end of each line but the last, `]` at the end ([`JsonArray::finish`]). The
/// objects hold no raw newline (serde_json escapes them), so each newline ends an object.
pub(crate) struct JsonArray<'w, W: Write> {
    out: &'w mut W,
    /// Whether an object has been started.
    started: bool,
    /// Whether the last object's newline is held back, for a comma to go before it.
    pending_newline: bool,
}

impl<'w, W: Write> JsonArray<'w, W> {
    /// An array written to `out`.
    pub(crate) fn new(out: &'w mut W) -> Self {
        JsonArray {
            out,
            started: false,
            pending_newline: false,
        }
    }

    /// Closes the array (an empty one if nothing was written).
    pub(crate) fn finish(self) -> io::Result<()> {
        let end: &[u8] = match (self.started, self.pending_newline) {
            (false, _) => b"[]\n",
            (true, true) => b"\n]\n",
            (true, false) => b"]\n",
        };
        self.out.write_all(end)?;
        self.out.flush()
    }
}

impl<W: Write> Write for JsonArray<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            if self.pending_newline {
                self.out.write_all(b",\n")?;
                self.pending_newline = false;
            } else if !self.started {
                self.out.write_all(b"[")?;
                self.started = true;
            }
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.out.write_all(&rest[..end])?;
                    self.pending_newline = true;
                    rest = &rest[end + 1..];
                }
                None => {
                    self.out.write_all(rest)?;
                    rest = &[];
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Reads what `--to jsonl` or `--to json` wrote: one object a line, or one array of them.
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
    use nonoenum::count::BigUint;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

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
    use nonoenum::count::BigUint;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_one_array() {
        for (lines, array) in [
            ("", "[]\n"),
            ("{\"a\":1}\n", "[{\"a\":1}\n]\n"),
            (
                "{\"a\":1}\n{\"b\":\"x\\ny\"}\n",
                "[{\"a\":1},\n{\"b\":\"x\\ny\"}\n]\n",
            ),
        ] {
            let mut out = Vec::new();
            let mut json = JsonArray::new(&mut out);
            // Written in pieces, as serde_json writes.
            for piece in lines.as_bytes().chunks(3) {
                json.write_all(piece).expect("write");
            }
            json.finish().expect("finish");
            let text = String::from_utf8(out).expect("UTF-8");
            assert_eq!(text, array);
            let _: serde_json::Value = serde_json::from_str(&text).expect("one document");
        }
    }
}
