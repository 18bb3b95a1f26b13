//! `list` (and counting by enumeration) through [`AnySolver::run_batched`]: each worker
//! writes its solutions as bytes, in the chosen format, and the collector here only writes
//! the batches out and counts them, so it keeps up with every thread.

use std::io::{self, Write};

use nonoenum::format::compact::{CompactHeader, bits_for, encode_bw, encode_color};
use nonoenum::{AnyGrid, AnyPuzzle, AnySolutionWriter, AnySolver, Flow, Outcome};

use super::json::JsonLine;
use crate::cli::SolutionFormat;

/// How each solution of a listing is written, on the worker that found it.
pub(crate) enum ListWriter<'a> {
    /// Rows of `#` and `.` (or the palette's characters), a blank line between solutions.
    Text,
    /// A JSON `solution` line each (in `--to json`, the caller's `JsonArray` joins the lines
    /// into one array).
    Json,
    /// A line of the compact listing each, after its header.
    Compact {
        /// Bits per cell.
        bits: u32,
    },
    /// The puzzle with the solution as its goal, in this format (`non`, `xml`).
    Puzzle {
        format: SolutionFormat,
        puzzle: &'a AnyPuzzle,
    },
}

impl<'a> ListWriter<'a> {
    /// The writer for `format` (JSON when `json`: it goes with `--to text` only), or why
    /// `format` cannot write this puzzle's solutions.
    pub(crate) fn new(
        format: SolutionFormat,
        json: bool,
        puzzle: &'a AnyPuzzle,
    ) -> anyhow::Result<Self> {
        Ok(match format {
            SolutionFormat::Compact => ListWriter::Compact {
                bits: match puzzle {
                    AnyPuzzle::Bw(_) => 1,
                    AnyPuzzle::Color(p) => bits_for(p.colors.len()),
                },
            },
            _ if json => ListWriter::Json,
            SolutionFormat::Text => ListWriter::Text,
            // A colour puzzle's `.non` is refused before the search (`Run::search`).
            SolutionFormat::Non | SolutionFormat::Xml => ListWriter::Puzzle { format, puzzle },
            SolutionFormat::Svg | SolutionFormat::Png => {
                anyhow::bail!("--to svg and png write pictures one at a time: not in batches")
            }
        })
    }
}

impl AnySolutionWriter for ListWriter<'_> {
    fn write(&self, grid: AnyGrid<'_>, out: &mut Vec<u8>) {
        match (self, grid) {
            (ListWriter::Text, picture) => picture.write_text(out),
            (ListWriter::Json, picture) => {
                let line = JsonLine::Solution {
                    rows: picture.rows(),
                };
                // Writing into memory fails only on a bug in the serializer.
                if serde_json::to_writer(&mut *out, &line).is_ok() {
                    out.push(b'\n');
                }
            }
            (ListWriter::Compact { .. }, AnyGrid::Bw(grid)) => encode_bw(grid, out),
            (ListWriter::Compact { bits }, AnyGrid::Color(grid, _)) => {
                encode_color(grid, *bits, out);
            }
            (ListWriter::Puzzle { format, puzzle }, picture) => {
                // Checked in `ListWriter::new`: the format holds this puzzle.
                if let Ok(bytes) = super::printer::encode(*format, puzzle, picture) {
                    if *format == SolutionFormat::Xml {
                        // One `<puzzle>` of the listing's `<puzzleset>`, which the caller
                        // opens and closes around every puzzle's solutions.
                        out.extend_from_slice(super::printer::xml_element(&bytes));
                    } else {
                        out.extend_from_slice(&bytes);
                    }
                }
            }
        }
    }

    fn separator(&self) -> &[u8] {
        match self {
            ListWriter::Text => b"\n",
            _ => b"",
        }
    }
}

/// Lists the solutions of `solver` into `out` (after the compact header, for that format),
/// at most `limit` of them, flushing after each batch when `interactive`.
pub(crate) fn list(
    solver: &AnySolver<'_>,
    writer: &ListWriter<'_>,
    header: Option<&CompactHeader>,
    limit: Option<u64>,
    out: &mut impl Write,
    interactive: bool,
) -> anyhow::Result<Outcome> {
    if let Some(header) = header {
        out.write_all(header.to_line().as_bytes())?;
        out.write_all(b"\n")?;
    }
    let mut error: Option<io::Error> = None;
    let outcome = solver.run_batched(writer, limit, |bytes, _| {
        let written = out
            .write_all(bytes)
            .and_then(|()| if interactive { out.flush() } else { Ok(()) });
        match written {
            Ok(()) => Flow::Continue,
            Err(e) => {
                error = Some(e);
                Flow::Stop
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e.into());
    }
    Ok(outcome)
}
