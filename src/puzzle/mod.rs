//! The puzzle model: row and column clues, givens, title and metadata.

use std::fmt;

use thiserror::Error;

mod colors;
mod kinds;
pub(crate) mod picture;

pub use colors::{Color, TwoColors, bw_palette};

use picture::{check_givens, check_picture, picture_clues};

/// The longest line (row or column) a puzzle may have, in cells.
///
/// Large enough for every published puzzle (the biggest known are 512x512); small enough that a
/// file declaring an absurd size is rejected before anything is allocated.
pub const MAX_LINE_LEN: usize = 4096;

/// The block lengths of one line, in order. An empty clue means the line is empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clue(pub Vec<u32>);

impl Clue {
    /// The block lengths.
    pub fn blocks(&self) -> &[u32] {
        &self.0
    }

    /// The number of filled cells the clue asks for.
    pub fn filled_cells(&self) -> u64 {
        self.0.iter().map(|&b| u64::from(b)).sum()
    }

    /// The fewest cells a line needs to hold this clue (blocks plus one gap between each pair).
    pub fn min_len(&self) -> u64 {
        self.filled_cells() + self.0.len().saturating_sub(1) as u64
    }
}

impl From<Vec<u32>> for Clue {
    fn from(blocks: Vec<u32>) -> Self {
        Clue(blocks)
    }
}

impl fmt::Display for Clue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_blocks(f, &self.0, |f, b| write!(f, "{b}"))
    }
}

/// Writes the blocks of a clue, each by `block`, separated by spaces; `0` for no blocks.
pub(crate) fn write_blocks<B>(
    f: &mut fmt::Formatter<'_>,
    blocks: &[B],
    block: impl Fn(&mut fmt::Formatter<'_>, &B) -> fmt::Result,
) -> fmt::Result {
    if blocks.is_empty() {
        return write!(f, "0");
    }
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            write!(f, " ")?;
        }
        block(f, b)?;
    }
    Ok(())
}

/// Which kind of line a clue belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineId {
    /// Row `i` (0-based, top to bottom).
    Row(usize),
    /// Column `j` (0-based, left to right).
    Col(usize),
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineId::Row(i) => write!(f, "row {}", i + 1),
            LineId::Col(j) => write!(f, "column {}", j + 1),
        }
    }
}

/// A cell whose value is known before solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Given {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// `true` if the cell is filled, `false` if it is empty.
    pub filled: bool,
}

/// Why a set of clues is not a well-formed puzzle.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The grid has no rows or no columns.
    #[error(
        "the grid has no cells ({} x {})",
        counted(*.rows, "row"),
        counted(*.cols, "column")
    )]
    EmptyGrid {
        /// Declared rows.
        rows: usize,
        /// Declared columns.
        cols: usize,
    },
    /// The grid is larger than [`MAX_LINE_LEN`] in one direction.
    #[error("grid of {rows} x {cols} is too large (at most {MAX_LINE_LEN} cells per line)")]
    TooLarge {
        /// Declared rows.
        rows: usize,
        /// Declared columns.
        cols: usize,
    },
    /// A clue contains a block of length zero (an empty line's clue has no blocks, which files
    /// write as a lone 0; [`Puzzle::new`] reads a lone 0 so too).
    #[error("{line}: a block of length 0 (an empty line's clue has no blocks, or a lone 0)")]
    ZeroBlock {
        /// The offending line.
        line: LineId,
    },
    /// A clue needs more cells than its line has.
    #[error(
        "{line}: clue {} needs {} but the line has only {len}",
        shown(clue),
        counted(*.needed, "cell")
    )]
    ClueTooLong {
        /// The offending line.
        line: LineId,
        /// The clue.
        clue: Clue,
        /// Cells the clue needs.
        needed: u64,
        /// Cells in the line.
        len: usize,
    },
    /// Row clues and column clues ask for different numbers of filled cells.
    #[error(
        "row clues fill {} but column clues fill {cols}",
        counted(*.rows, "cell")
    )]
    TotalsDisagree {
        /// Filled cells asked for by the row clues.
        rows: u64,
        /// Filled cells asked for by the column clues.
        cols: u64,
    },
    /// A given lies outside the grid.
    #[error("given at row {row}, column {col} lies outside the {rows} x {cols} grid")]
    GivenOutside {
        /// Row of the given, 1-based.
        row: usize,
        /// Column of the given, 1-based.
        col: usize,
        /// Rows in the grid.
        rows: usize,
        /// Columns in the grid.
        cols: usize,
    },
    /// Two givens disagree about the same cell.
    #[error("givens disagree about row {row}, column {col}")]
    GivensDisagree {
        /// Row, 1-based.
        row: usize,
        /// Column, 1-based.
        col: usize,
    },
    /// A palette with no colour, or more than [`crate::color::MAX_COLORS`].
    #[error("a puzzle has 1 to 64 colours, background included; this one has {colors}")]
    TooManyColors {
        /// Colours in the palette.
        colors: usize,
    },
    /// A block names a colour the palette does not have (or the background).
    #[error("{line}: a block of colour {color}, which is not in the palette")]
    BadColor {
        /// The offending line.
        line: LineId,
        /// The palette index.
        color: u8,
    },
    /// Rows and columns ask for different numbers of cells of one colour.
    #[error("row clues fill {} of {color} but column clues fill {cols}", counted(*.rows, "cell"))]
    ColorTotalsDisagree {
        /// The colour's name.
        color: String,
        /// Cells of that colour asked for by the row clues.
        rows: u64,
        /// Cells of that colour asked for by the column clues.
        cols: u64,
    },
    /// A given names a colour the palette does not have.
    #[error("the given at row {row}, column {col} has a colour that is not in the palette")]
    BadGivenColor {
        /// Row, 1-based.
        row: usize,
        /// Column, 1-based.
        col: usize,
    },
    /// A stored goal (the designer's solution) does not satisfy the clues.
    #[error("the goal picture does not match the clue of {line}")]
    GoalMismatch {
        /// The first line whose clue the goal breaks.
        line: LineId,
    },
    /// A picture (or goal, or grid to check) whose cells are not one per cell of the grid.
    #[error("a picture of {} for a {rows} x {cols} grid", counted(*.cells, "cell"))]
    PictureSize {
        /// Cells given.
        cells: usize,
        /// Rows in the grid.
        rows: usize,
        /// Columns in the grid.
        cols: usize,
    },
}

/// What one kind of puzzle holds in its palette, clues, givens and solution cells: black and
/// white ([`BlackWhite`]) or colour ([`crate::color::Colored`]).
pub trait PuzzleKind: Clone + fmt::Debug + PartialEq + Eq {
    /// The palette: nothing in black and white, whose colours are fixed; the colours, the
    /// background first, in colour.
    type Palette: Clone + fmt::Debug + PartialEq + Eq;
    /// The clue of one line.
    type Clue: Clone + fmt::Debug + PartialEq + Eq;
    /// A cell known before solving.
    type Given: Clone + fmt::Debug + PartialEq + Eq;
    /// A cell of a solution: filled or not, or a palette index.
    type Cell: Copy + fmt::Debug + PartialEq + Eq;

    /// The clue of a line of cells.
    fn clue_of(cells: &[Self::Cell]) -> Self::Clue;

    /// Checks that a puzzle of this kind is well formed.
    fn check(puzzle: &Nonogram<Self>) -> Result<(), PuzzleError>;
}

/// Black and white: the kind of [`Puzzle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlackWhite {}

/// A nonogram of either kind: clues for every row and column, plus optional givens, a title,
/// metadata and the designer's solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nonogram<K: PuzzleKind> {
    /// A name for the puzzle (a title, or `$N` in a tournament file).
    pub title: Option<String>,
    /// The palette (`()` in black and white).
    pub colors: K::Palette,
    /// Row clues, top to bottom.
    pub row_clues: Vec<K::Clue>,
    /// Column clues, left to right.
    pub col_clues: Vec<K::Clue>,
    /// Cells known before solving.
    pub givens: Vec<K::Given>,
    /// Other `key value` pairs read from the file (author, copyright, ...), kept in order.
    pub metadata: Vec<(String, String)>,
    /// The designer's solution, row-major, if the file stores one.
    pub goal: Option<Vec<K::Cell>>,
}

/// A black-and-white nonogram.
pub type Puzzle = Nonogram<BlackWhite>;

impl<K: PuzzleKind> Nonogram<K> {
    /// A puzzle of this palette and these clues alone (no title, givens, metadata or goal),
    /// not yet checked: for readers that check it themselves, reporting errors at the line
    /// of the file.
    pub(crate) fn with_clues(
        colors: K::Palette,
        row_clues: Vec<K::Clue>,
        col_clues: Vec<K::Clue>,
    ) -> Self {
        Nonogram {
            title: None,
            colors,
            row_clues,
            col_clues,
            givens: Vec::new(),
            metadata: Vec::new(),
            goal: None,
        }
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.row_clues.len()
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.col_clues.len()
    }

    /// The clue of a line.
    pub fn clue(&self, line: LineId) -> &K::Clue {
        match line {
            LineId::Row(i) => &self.row_clues[i],
            LineId::Col(j) => &self.col_clues[j],
        }
    }

    /// Adds `givens` to the puzzle's own and checks it; a puzzle that fails the check is left
    /// as it was.
    pub fn add_givens(
        &mut self,
        givens: impl IntoIterator<Item = K::Given>,
    ) -> Result<(), PuzzleError> {
        let before = self.givens.len();
        self.givens.extend(givens);
        K::check(self).inspect_err(|_| self.givens.truncate(before))
    }

    /// The same puzzle as another kind, with the palette `colors` and each clue, given and
    /// goal cell converted by `clue`, `given` and `cell`.
    pub(crate) fn convert<L: PuzzleKind>(
        &self,
        colors: L::Palette,
        clue: impl Fn(&K::Clue) -> L::Clue,
        given: impl Fn(&K::Given) -> L::Given,
        cell: impl Fn(K::Cell) -> L::Cell,
    ) -> Nonogram<L> {
        Nonogram {
            title: self.title.clone(),
            colors,
            row_clues: self.row_clues.iter().map(&clue).collect(),
            col_clues: self.col_clues.iter().map(&clue).collect(),
            givens: self.givens.iter().map(given).collect(),
            metadata: self.metadata.clone(),
            goal: self
                .goal
                .as_ref()
                .map(|goal| goal.iter().copied().map(cell).collect()),
        }
    }

    /// Checks a full grid (row-major) against every clue: the first line whose clue it
    /// breaks, as [`PuzzleError::GoalMismatch`]. Givens are not consulted.
    pub fn check_grid(&self, cells: &[K::Cell]) -> Result<(), PuzzleError> {
        check_picture(&self.row_clues, &self.col_clues, cells, K::clue_of)
    }
}

impl Puzzle {
    /// Builds a puzzle from its clues and checks that they are well formed (see [`Puzzle::check`]).
    /// A clue of a lone 0, as files write an empty line, is read as the empty clue.
    pub fn new(row_clues: Vec<Clue>, col_clues: Vec<Clue>) -> Result<Self, PuzzleError> {
        let empty_if_zero = |clue: Clue| {
            if clue.0 == [0] {
                Clue(Vec::new())
            } else {
                clue
            }
        };
        let (row_clues, col_clues) = (
            row_clues.into_iter().map(empty_if_zero).collect(),
            col_clues.into_iter().map(empty_if_zero).collect(),
        );
        let puzzle = Puzzle::unchecked(row_clues, col_clues);
        puzzle.check()?;
        Ok(puzzle)
    }

    /// A puzzle of these clues alone (no title, givens, metadata or goal), not yet checked:
    /// for readers that check it themselves, reporting errors at the line of the file.
    pub(crate) fn unchecked(row_clues: Vec<Clue>, col_clues: Vec<Clue>) -> Self {
        Nonogram::with_clues(TwoColors::default(), row_clues, col_clues)
    }

    /// Checks the size limits, every clue against its line, the totals, the givens and the goal.
    pub fn check(&self) -> Result<(), PuzzleError> {
        let (rows, cols) = (self.height(), self.width());
        check_size(rows, cols)?;
        for (i, clue) in self.row_clues.iter().enumerate() {
            check_clue(clue, cols, LineId::Row(i))?;
        }
        for (j, clue) in self.col_clues.iter().enumerate() {
            check_clue(clue, rows, LineId::Col(j))?;
        }
        let row_total: u64 = self.row_clues.iter().map(Clue::filled_cells).sum();
        let col_total: u64 = self.col_clues.iter().map(Clue::filled_cells).sum();
        if row_total != col_total {
            return Err(PuzzleError::TotalsDisagree {
                rows: row_total,
                cols: col_total,
            });
        }
        self.check_givens()?;
        if let Some(goal) = &self.goal {
            self.check_grid(goal)?;
        }
        Ok(())
    }

    fn check_givens(&self) -> Result<(), PuzzleError> {
        let givens = self.givens.iter().map(|g| (g.row, g.col, g.filled));
        check_givens(self.height(), self.width(), givens, |_| true)
    }

    /// The puzzle whose clues describe a picture (row-major, `true` = filled).
    pub fn from_picture(rows: usize, cols: usize, cells: &[bool]) -> Result<Self, PuzzleError> {
        check_size(rows, cols)?;
        let (row_clues, col_clues) = picture_clues(rows, cols, cells, BlackWhite::clue_of)?;
        Puzzle::new(row_clues, col_clues)
    }
}

/// A count with its noun, singular for exactly one: `1 cell`, `2 cells`, `0 cells`.
pub(crate) fn counted<N>(n: N, noun: &str) -> String
where
    N: Copy + fmt::Display + TryInto<u64>,
{
    if n.try_into().ok() == Some(1) {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A clue as a message shows it, in quotes: whole up to 10 blocks, else its first 8 blocks,
/// `…`, and the number of blocks (a clue of thousands would fill the screen).
fn shown(clue: &Clue) -> String {
    let blocks = clue.blocks();
    if blocks.len() <= 10 {
        return format!("\"{clue}\"");
    }
    let head: Vec<String> = blocks[..8].iter().map(u32::to_string).collect();
    format!("\"{} …\" ({} blocks)", head.join(" "), blocks.len())
}

/// Checks that a grid size is within the supported limits.
pub(crate) fn check_size(rows: usize, cols: usize) -> Result<(), PuzzleError> {
    if rows == 0 || cols == 0 {
        return Err(PuzzleError::EmptyGrid { rows, cols });
    }
    if rows > MAX_LINE_LEN || cols > MAX_LINE_LEN {
        return Err(PuzzleError::TooLarge { rows, cols });
    }
    Ok(())
}

/// Checks one clue against the length of its line.
pub(crate) fn check_clue(clue: &Clue, len: usize, line: LineId) -> Result<(), PuzzleError> {
    if clue.0.contains(&0) {
        return Err(PuzzleError::ZeroBlock { line });
    }
    let needed = clue.min_len();
    if needed > len as u64 {
        return Err(PuzzleError::ClueTooLong {
            line,
            clue: clue.clone(),
            needed,
            len,
        });
    }
    Ok(())
}

/// The block lengths of a line of cells (`true` = filled).
pub(crate) fn blocks_of(cells: impl IntoIterator<Item = bool>) -> Vec<u32> {
    let mut blocks = Vec::new();
    let mut run = 0u32;
    for filled in cells {
        if filled {
            run += 1;
        } else if run > 0 {
            blocks.push(run);
            run = 0;
        }
    }
    if run > 0 {
        blocks.push(run);
    }
    blocks
}

#[cfg(test)]
mod tests;
