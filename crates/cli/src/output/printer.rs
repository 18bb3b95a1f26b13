//! Writing solutions one at a time, as the collector receives them: to the output in the
//! chosen format, or one file per solution (`--output-dir`): `solve`, `list --output-dir`,
//! and listings in terminal colours or of one picture (the rest go through `batched`).

use std::io::{self, Write};
use std::path::Path;

use nonoenum::format::compact::CompactHeader;
use nonoenum::{AnyGrid, AnyPuzzle, Flow};

use super::json::{JsonLine, write_line};
use super::{terminal, write_picture};
use crate::cli::SolutionFormat;

/// What a webpbn XML document holds around its one `<puzzle>`: in a listing of several
/// solutions, each is a `<puzzle>` of one `<puzzleset>`.
pub(crate) const XML_HEAD: &str = "<?xml version=\"1.0\"?>\n<puzzleset>\n";
/// The end of a webpbn XML document (see [`XML_HEAD`]).
pub(crate) const XML_TAIL: &str = "</puzzleset>\n";

/// The one `<puzzle>` of a webpbn XML document, without the [`XML_HEAD`] and [`XML_TAIL`]
/// around it: what a listing's `<puzzleset>` holds for each solution.
pub(crate) fn xml_element(document: &[u8]) -> &[u8] {
    document
        .strip_prefix(XML_HEAD.as_bytes())
        .and_then(|rest| rest.strip_suffix(XML_TAIL.as_bytes()))
        .unwrap_or(document)
}

/// How `--output-dir` names the files of one puzzle's solutions: `PREFIX-N.EXT`, N written
/// as it comes, then padded with zeros to the width of the last ([`Printer::pad_names`]).
pub(crate) struct FileNames<'o> {
    /// The folder.
    pub(crate) dir: &'o Path,
    /// `solution-`, or `puzzle-K-solution-` in a run of several puzzles.
    pub(crate) prefix: String,
}

impl FileNames<'_> {
    /// The path of solution `n`, its number padded to `digits`.
    fn path(&self, n: u64, digits: usize, extension: &str) -> std::path::PathBuf {
        self.dir
            .join(format!("{}{n:0digits$}.{extension}", self.prefix))
    }
}

/// Writes solutions as they arrive, remembering the first write error.
pub(crate) struct Printer<'o, W: Write> {
    pub(crate) out: &'o mut W,
    pub(crate) printed: u64,
    /// Put a blank line between solutions (`list`).
    pub(crate) separate: bool,
    /// Flush after each solution (standard output is a terminal).
    pub(crate) interactive: bool,
    /// Write JSON objects.
    pub(crate) json: bool,
    /// How to write each solution, and where.
    pub(crate) format: SolutionFormat,
    pub(crate) files: Option<FileNames<'o>>,
    /// Draw colour solutions in terminal colours, after a legend.
    pub(crate) color: bool,
    pub(crate) puzzle: &'o AnyPuzzle,
    pub(crate) error: Option<io::Error>,
}

impl<W: Write> Printer<'_, W> {
    /// Writes one solution; says stop after a write error, which it keeps.
    pub(crate) fn print(&mut self, picture: AnyGrid<'_>) -> Flow {
        let result = self.write(picture);
        self.printed += 1;
        match result {
            Ok(()) => Flow::Continue,
            Err(e) => {
                self.error = Some(e);
                Flow::Stop
            }
        }
    }

    fn write(&mut self, picture: AnyGrid<'_>) -> io::Result<()> {
        if self.json {
            let rows = picture.rows();
            write_line(self.out, &JsonLine::Solution { rows })?;
        } else if let Some(files) = &self.files {
            let path = files.path(self.printed + 1, 1, self.format.extension());
            std::fs::write(path, encode(self.format, self.puzzle, picture)?)?;
        } else if self.format == SolutionFormat::Xml {
            // One `<puzzle>` of the listing's `<puzzleset>`.
            let document = encode(self.format, self.puzzle, picture)?;
            self.out.write_all(xml_element(&document))?;
        } else if self.format != SolutionFormat::Text {
            self.out
                .write_all(&encode(self.format, self.puzzle, picture)?)?;
        } else {
            if self.printed > 0 && self.separate {
                writeln!(self.out)?;
            }
            match picture {
                AnyGrid::Color(grid, puzzle) if self.color => {
                    if self.printed == 0 {
                        terminal::write_legend(self.out, &puzzle.colors)?;
                    }
                    terminal::write_colored(self.out, grid, &puzzle.colors)?;
                }
                _ => write_picture(self.out, picture)?,
            }
        }
        if self.interactive {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Ends the printing: gives the first write error, if one stopped it, else pads the names
    /// of `--output-dir` files ([`Printer::pad_names`]).
    pub(crate) fn finish(self) -> io::Result<()> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.pad_names()
    }

    /// Once every solution is written to `--output-dir`, pads the numbers in the file names
    /// with zeros to the width of the last, so that the names sort in order.
    pub(crate) fn pad_names(&self) -> io::Result<()> {
        let Some(files) = &self.files else {
            return Ok(());
        };
        let digits = self.printed.to_string().len();
        let extension = self.format.extension();
        // Numbers of fewer digits than the last: 1 to 9 when the last has two, and so on.
        for n in 1..10u64.pow(digits as u32 - 1) {
            std::fs::rename(
                files.path(n, 1, extension),
                files.path(n, digits, extension),
            )?;
        }
        Ok(())
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
        AnyGrid::Bw(_) => match puzzle {
            AnyPuzzle::Bw(p) => p.colors.palette(),
            AnyPuzzle::Color(_) => nonoenum::bw_palette(),
        },
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
        F::Svg => Ok(nonoenum::svg_image(w, h, &colors, &cells).into_bytes()),
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
