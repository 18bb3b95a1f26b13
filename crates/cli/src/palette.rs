//! What checkpointed runs need of a kind of puzzle, so that they are written once for both
//! palettes: the text format that checkpoints hold it in (the plain format for black and white,
//! Olšák's `.g` with a `: givens` section for colour), a decision as three numbers, and a
//! solution as text. (Split folders are the library's: `nonoenum::SplitFolder`.)

use std::io::{self, Write};

use anyhow::bail;
use nonoenum::color::ColorGiven;
use nonoenum::format::{ParseError, olsak, plain};
use nonoenum::search::Searchable;
use nonoenum::{AnyGrid, AnyPuzzle, ColorPuzzle, Domain, Given, Puzzle};

use crate::output::{write_grid, write_picture};

/// A kind of puzzle that can be checkpointed.
pub(crate) trait PartPuzzle: Searchable + Clone {
    /// The name of its text format in a checkpoint.
    const FORMAT: &'static str;

    /// The puzzle, with its givens, in its text format.
    fn to_text(&self) -> String;
    /// Reads [`PartPuzzle::to_text`] back.
    fn from_text(text: &str) -> anyhow::Result<Self>;
    /// The cell of a given, 0-based `(row, col)`.
    fn cell(given: &Self::Given) -> (usize, usize);
    /// Writes a solution as text rows (`#` and `.`, or the palette's characters).
    fn write_solution(&self, out: &mut impl Write, grid: &Self::Grid) -> io::Result<()>;

    /// A decision as `[row, col, value]`, 0-based: the value is 1 for filled and 0 for empty
    /// in black and white, the palette index (0 the background) in colour.
    fn decision(given: &Self::Given) -> [usize; 3] {
        let (row, col) = Self::cell(given);
        let value = Self::given_value(given).trailing_zeros() as usize;
        [row, col, value]
    }

    /// Reads [`PartPuzzle::decision`] back, refusing a cell outside the grid or a value that
    /// no cell can have (the numbers come from a file).
    fn read_decision(&self, [row, col, value]: [usize; 3]) -> Result<Self::Given, String> {
        let (rows, cols) = self.size();
        if row >= rows || col >= cols {
            return Err(format!(
                "the decision [{row}, {col}, {value}] lies outside the {rows}x{cols} grid"
            ));
        }
        let bit = u32::try_from(value)
            .ok()
            .and_then(|shift| 1u64.checked_shl(shift))
            .filter(|bit| self.all_values() & bit != 0);
        match bit {
            Some(bit) => Ok(Self::given(row, col, bit)),
            None => Err(format!(
                "the decision [{row}, {col}, {value}] gives a value no cell can have"
            )),
        }
    }
}

fn parse_error(e: &ParseError) -> anyhow::Error {
    anyhow::anyhow!("line {}: {}", e.line, e.kind)
}

impl PartPuzzle for Puzzle {
    const FORMAT: &'static str = "plain";

    fn to_text(&self) -> String {
        plain::write(self)
    }

    fn from_text(text: &str) -> anyhow::Result<Self> {
        plain::parse(text).map_err(|e| parse_error(&e))
    }

    fn cell(given: &Given) -> (usize, usize) {
        (given.row, given.col)
    }

    fn write_solution(&self, out: &mut impl Write, grid: &nonoenum::Grid) -> io::Result<()> {
        write_grid(out, grid)
    }
}

impl PartPuzzle for ColorPuzzle {
    const FORMAT: &'static str = "g";

    fn to_text(&self) -> String {
        olsak::write(self)
    }

    fn from_text(text: &str) -> anyhow::Result<Self> {
        match olsak::parse(text).map_err(|e| parse_error(&e))? {
            AnyPuzzle::Color(p) => Ok(p),
            AnyPuzzle::Bw(_) => bail!("a black-and-white puzzle where a colour one was expected"),
        }
    }

    fn cell(given: &ColorGiven) -> (usize, usize) {
        (given.row, given.col)
    }

    fn write_solution(&self, out: &mut impl Write, grid: &nonoenum::ColorGrid) -> io::Result<()> {
        write_picture(out, AnyGrid::Color(grid, self))
    }
}

/// The puzzle as its part files and checkpoints will hold it: a colour puzzle is written in
/// the `.g` format and read back (colour names without spaces, unused colours dropped), so
/// that the checksums of the parts, of the runs of the part files and of the manifest agree.
/// Black and white is unchanged.
pub(crate) fn as_stored(puzzle: AnyPuzzle) -> anyhow::Result<AnyPuzzle> {
    match puzzle {
        AnyPuzzle::Bw(p) => Ok(AnyPuzzle::Bw(p)),
        AnyPuzzle::Color(p) => olsak::parse(&olsak::write(&p))
            .map_err(|e| parse_error(&e).context("the puzzle does not survive the .g format")),
    }
}

/// Checks a part or checkpoint puzzle with its decisions added.
pub(crate) fn check<P: PartPuzzle>(puzzle: &P) -> anyhow::Result<()> {
    Domain::validate(puzzle).map_err(anyhow::Error::from)
}
