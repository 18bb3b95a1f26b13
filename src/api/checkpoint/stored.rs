//! What a checkpoint needs of each palette: the text format it stores the puzzle in (the plain
//! format for black and white, Olšák's `.g` for colour), a decision as three numbers, and a
//! solution as an [`AnyGrid`], which writes itself as text rows.

use super::CheckpointError;
use crate::api::AnyGrid;
use crate::color::{AnyPuzzle, ColorGiven, ColorPuzzle};
use crate::domain::Domain;
use crate::format::{ParseError, olsak, plain};
use crate::grid::Grid;
use crate::puzzle::{Given, Puzzle};
use crate::search::Searchable;

/// A kind of puzzle a checkpoint can hold.
pub(super) trait Stored: Searchable + Clone {
    /// The `puzzle_format` a checkpoint records (`None` for the plain format).
    const FORMAT: Option<&'static str>;
    /// The puzzle, with its givens, in its text format.
    fn to_text(&self) -> String;
    /// Reads [`Stored::to_text`] back.
    fn from_text(text: &str) -> Result<Self, String>;
    /// The cell of a given, 0-based `(row, col)`.
    fn cell(given: &Self::Given) -> (usize, usize);
    /// A solution as the library's callers see it.
    fn any_grid<'a>(&'a self, grid: &'a Self::Grid) -> AnyGrid<'a>;
}

fn parse_error(e: &ParseError) -> String {
    format!("line {}: {}", e.line, e.kind)
}

impl Stored for Puzzle {
    const FORMAT: Option<&'static str> = None;

    fn to_text(&self) -> String {
        plain::write(self)
    }

    fn from_text(text: &str) -> Result<Self, String> {
        plain::parse(text).map_err(|e| parse_error(&e))
    }

    fn cell(given: &Given) -> (usize, usize) {
        (given.row, given.col)
    }

    fn any_grid<'a>(&'a self, grid: &'a Grid) -> AnyGrid<'a> {
        AnyGrid::Bw(grid)
    }
}

impl Stored for ColorPuzzle {
    const FORMAT: Option<&'static str> = Some("g");

    fn to_text(&self) -> String {
        olsak::write(self)
    }

    fn from_text(text: &str) -> Result<Self, String> {
        match olsak::parse(text).map_err(|e| parse_error(&e))? {
            AnyPuzzle::Color(p) => Ok(p),
            AnyPuzzle::Bw(_) => {
                Err("a black-and-white puzzle where a colour one was expected".into())
            }
        }
    }

    fn cell(given: &ColorGiven) -> (usize, usize) {
        (given.row, given.col)
    }

    fn any_grid<'a>(&'a self, grid: &'a Self::Grid) -> AnyGrid<'a> {
        AnyGrid::Color(grid, self)
    }
}

/// A decision as `[row, col, value]`, 0-based: the value is 1 for filled and 0 for empty in
/// black and white, the palette index (0 the background) in colour.
pub(super) fn decision<P: Stored>(given: &P::Given) -> [usize; 3] {
    let (row, col) = P::cell(given);
    let value = P::given_value(given).trailing_zeros() as usize;
    [row, col, value]
}

/// Reads [`decision`] back, refusing a cell outside the grid or a value that no cell can have
/// (the numbers come from a file).
pub(super) fn read_decision<P: Stored>(
    puzzle: &P,
    [row, col, value]: [usize; 3],
) -> Result<P::Given, String> {
    let (rows, cols) = puzzle.size();
    if row >= rows || col >= cols {
        return Err(format!(
            "the decision [{row}, {col}, {value}] lies outside the {rows}x{cols} grid"
        ));
    }
    let bit = u32::try_from(value)
        .ok()
        .and_then(|shift| 1u64.checked_shl(shift))
        .filter(|bit| puzzle.all_values() & bit != 0);
    match bit {
        Some(bit) => Ok(P::given(row, col, bit)),
        None => Err(format!(
            "the decision [{row}, {col}, {value}] gives a value no cell can have"
        )),
    }
}

/// The puzzle as a checkpoint holds it: a colour puzzle is written in the `.g` format and read
/// back (colour names without spaces, unused colours dropped), so that its checksums are those
/// of the puzzle read from the checkpoint. Black and white is unchanged.
pub(super) fn as_stored(puzzle: &AnyPuzzle) -> Result<AnyPuzzle, String> {
    match puzzle {
        AnyPuzzle::Bw(p) => Ok(AnyPuzzle::Bw(p.clone())),
        AnyPuzzle::Color(p) => olsak::parse(&olsak::write(p)).map_err(|e| {
            format!(
                "the puzzle does not survive the .g format: {}",
                parse_error(&e)
            )
        }),
    }
}

/// The puzzle of an open part: `puzzle` with the part's decisions as givens, checked.
pub(super) fn part_of<P: Stored>(
    puzzle: &P,
    decisions: &[[usize; 3]],
) -> Result<P, CheckpointError> {
    let givens = decisions
        .iter()
        .map(|&d| read_decision(puzzle, d))
        .collect::<Result<Vec<_>, String>>()
        .map_err(CheckpointError::Altered)?;
    let part = puzzle.with_givens(&givens);
    Domain::validate(&part)
        .map_err(|e| CheckpointError::Invalid(format!("a part does not fit the puzzle: {e}")))?;
    Ok(part)
}
