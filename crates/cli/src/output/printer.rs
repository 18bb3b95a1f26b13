//! Writing solutions one at a time, as the collector receives them: `solve`, and `list
//! --output-dir` (one file per solution).

use std::io::{self, Write};

use nonoenum::format::compact::CompactHeader;
use nonoenum::{AnyGrid, AnyPuzzle, Flow};

use super::json::{JsonLine, picture_rows, write_line};
use super::write_picture;
use crate::cli::SolutionFormat;

/// Writes solutions as they arrive, remembering the first write error.
pub(crate) struct Printer<'o, W: Write> {
    pub(crate) out: &'o mut W,
    pub(crate) printed: u64,
    /// Put a blank line between solutions (`list`).
    pub(crate) separate: bool,
    /// Flush after each solution (standard output is a terminal).
    pub(crate) interactive: bool,
    /// Write JSON lines.
    pub(crate) json: bool,
    /// How to write each solution, and where.
    pub(crate) format: SolutionFormat,
    pub(crate) dir: Option<&'o std::path::Path>,
    pub(crate) puzzle: &'o AnyPuzzle,
    pub(crate) error: Option<io::Error>,
}

impl<W: Write> Printer<'_, W> {
    /// Writes one solution; says stop after a write error, which it keeps.
    pub(crate) fn print(&mut self, picture: AnyGrid<'_>) -> Flow {
        let result = (|| {
            if self.json {
                write_line(
                    self.out,
                    &JsonLine::Solution {
                        rows: picture_rows(picture),
                    },
                )?;
            } else if let Some(dir) = self.dir {
                let path = dir.join(format!(
                    "solution-{}.{}",
                    self.printed + 1,
                    self.format.extension()
                ));
                std::fs::write(&path, encode(self.format, self.puzzle, picture)?)?;
            } else if self.format != SolutionFormat::Text {
                self.out
                    .write_all(&encode(self.format, self.puzzle, picture)?)?;
            } else {
                if self.printed > 0 && self.separate {
                    writeln!(self.out)?;
                }
                write_picture(self.out, picture)?;
            }
            if self.interactive {
                self.out.flush()?;
            }
            Ok::<(), io::Error>(())
        })();
        self.printed += 1;
        match result {
            Ok(()) => Flow::Continue,
            Err(e) => {
                self.error = Some(e);
                Flow::Stop
            }
        }
    }
}

/// A solution of `puzzle` in `format`, as the bytes of a file (a compact one holds its
/// header line, then the solution's line).
pub(crate) fn encode(
    format: SolutionFormat,
    puzzle: &AnyPuzzle,
    picture: AnyGrid<'_>,
) -> io::Result<Vec<u8>> {
    use SolutionFormat as F;
    let colors = match picture {
        AnyGrid::Bw(_) => nonoenum::color::bw_palette(),
        AnyGrid::Color(_, puzzle) => puzzle.colors.clone(),
    };
    let cells = picture.to_cells();
    let (w, h) = (picture.width(), picture.height());
    let with_goal = nonoenum::format::write::with_goal(puzzle, &cells);
    let puzzle_as = |format| {
        nonoenum::format::write::write_puzzle(&with_goal, format)
            .map(String::into_bytes)
            .map_err(io::Error::other)
    };
    match format {
        F::Text => {
            let mut text = Vec::new();
            write_picture(&mut text, picture)?;
            Ok(text)
        }
        F::Non => puzzle_as(nonoenum::format::Format::Non),
        F::Xml => puzzle_as(nonoenum::format::Format::Xml),
        F::Svg => Ok(crate::images::svg(w, h, &colors, &cells).into_bytes()),
        F::Png => crate::images::png(w, h, &colors, &cells).map_err(io::Error::other),
        F::Compact => {
            let header = CompactHeader::for_puzzle(puzzle);
            let mut bytes = header.to_line().into_bytes();
            bytes.push(b'\n');
            header.encode_cells(&cells, &mut bytes);
            Ok(bytes)
        }
    }
}
