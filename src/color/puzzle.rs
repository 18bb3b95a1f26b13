//! The colour puzzle model: a palette, clues of coloured blocks, givens and an optional goal.

use std::fmt;

use crate::puzzle::picture::{check_givens, picture_clues};
use crate::puzzle::{
    Clue, Given, LineId, Nonogram, Puzzle, PuzzleError, PuzzleKind, TwoColors, check_size,
    write_blocks,
};
pub use crate::puzzle::{Color, bw_palette};

/// The most colours a puzzle may have, the background included (cell states are `u64` sets).
pub const MAX_COLORS: usize = 64;

/// One block of a colour clue: its length and its colour (an index into the palette, never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// Cells in the block.
    pub len: u32,
    /// Palette index of the block's colour (1 or more).
    pub color: u8,
}

/// The blocks of one line, in order. Blocks of the same colour need a gap between them;
/// blocks of different colours may touch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColorClue(pub Vec<Block>);

impl ColorClue {
    /// The blocks.
    pub fn blocks(&self) -> &[Block] {
        &self.0
    }

    /// The fewest cells a line needs for this clue: the blocks, plus one gap between each pair
    /// of neighbours of the same colour.
    pub fn min_len(&self) -> u64 {
        let cells: u64 = self.0.iter().map(|b| u64::from(b.len)).sum();
        let gaps = self
            .0
            .windows(2)
            .filter(|w| w[0].color == w[1].color)
            .count();
        cells + gaps as u64
    }
}

/// A cell known before solving: its palette index (0 = background).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorGiven {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// Palette index.
    pub color: u8,
}

/// Colour: the kind of [`ColorPuzzle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colored {}

impl PuzzleKind for Colored {
    type Palette = Vec<Color>;
    type Clue = ColorClue;
    type Given = ColorGiven;
    /// A palette index.
    type Cell = u8;

    fn clue_of(cells: &[u8]) -> ColorClue {
        ColorClue(color_blocks_of(cells.iter().copied()))
    }

    fn check(puzzle: &ColorPuzzle) -> Result<(), PuzzleError> {
        puzzle.check()
    }
}

/// A colour nonogram. Its palette's index 0 is the background.
pub type ColorPuzzle = Nonogram<Colored>;

impl ColorPuzzle {
    /// Builds a puzzle and checks it (see [`ColorPuzzle::check`]).
    pub fn new(
        colors: Vec<Color>,
        row_clues: Vec<ColorClue>,
        col_clues: Vec<ColorClue>,
    ) -> Result<Self, PuzzleError> {
        let puzzle = ColorPuzzle::unchecked(colors, row_clues, col_clues);
        puzzle.check()?;
        Ok(puzzle)
    }

    /// A puzzle of this palette and these clues alone (no title, givens, metadata or goal),
    /// not yet checked: for readers that check it themselves.
    pub(crate) fn unchecked(
        colors: Vec<Color>,
        row_clues: Vec<ColorClue>,
        col_clues: Vec<ColorClue>,
    ) -> Self {
        Nonogram::with_clues(colors, row_clues, col_clues)
    }

    /// The set of every colour of the palette, as a cell state.
    pub fn all_colors(&self) -> u64 {
        match self.colors.len() {
            MAX_COLORS => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// Checks the palette, sizes, every clue against its line, the per-colour totals, the
    /// givens and the goal.
    pub fn check(&self) -> Result<(), PuzzleError> {
        let (rows, cols) = (self.height(), self.width());
        check_size(rows, cols)?;
        let n = self.colors.len();
        if !(1..=MAX_COLORS).contains(&n) {
            return Err(PuzzleError::TooManyColors { colors: n });
        }
        let mut row_totals = vec![0u64; n];
        let mut col_totals = vec![0u64; n];
        for (lines, len, totals, make) in [
            (
                &self.row_clues,
                cols,
                &mut row_totals,
                LineId::Row as fn(usize) -> LineId,
            ),
            (
                &self.col_clues,
                rows,
                &mut col_totals,
                LineId::Col as fn(usize) -> LineId,
            ),
        ] {
            for (i, clue) in lines.iter().enumerate() {
                let line = make(i);
                for b in clue.blocks() {
                    if b.len == 0 {
                        return Err(PuzzleError::ZeroBlock { line });
                    }
                    if b.color == 0 || usize::from(b.color) >= n {
                        return Err(PuzzleError::BadColor {
                            line,
                            color: b.color,
                        });
                    }
                    totals[usize::from(b.color)] += u64::from(b.len);
                }
                let needed = clue.min_len();
                if needed > len as u64 {
                    return Err(PuzzleError::ClueTooLong {
                        line,
                        clue: Clue(clue.blocks().iter().map(|b| b.len).collect()),
                        needed,
                        len,
                    });
                }
            }
        }
        for c in 1..n {
            if row_totals[c] != col_totals[c] {
                return Err(PuzzleError::ColorTotalsDisagree {
                    color: self.colors[c].name.clone(),
                    rows: row_totals[c],
                    cols: col_totals[c],
                });
            }
        }
        let givens = self.givens.iter().map(|g| (g.row, g.col, g.color));
        check_givens(rows, cols, givens, |color| usize::from(color) < n)?;
        if let Some(goal) = &self.goal {
            // A goal of the wrong size is refused by `check_grid`.
            if goal.iter().any(|&c| usize::from(c) >= n) {
                return Err(PuzzleError::GoalMismatch {
                    line: LineId::Row(0),
                });
            }
            self.check_grid(goal)?;
        }
        Ok(())
    }

    /// The puzzle whose clues describe a picture (row-major palette indices).
    pub fn from_picture(
        colors: Vec<Color>,
        rows: usize,
        cols: usize,
        cells: &[u8],
    ) -> Result<Self, PuzzleError> {
        check_size(rows, cols)?;
        let (row_clues, col_clues) = picture_clues(rows, cols, cells, Colored::clue_of)?;
        ColorPuzzle::new(colors, row_clues, col_clues)
    }

    /// The same puzzle without the colours that no clue, given or goal cell uses (the
    /// background stays), as readers give it: a file that declares colours it never uses reads
    /// as the puzzle of those it uses, whatever its format. Colour indices out of the palette
    /// are left for [`ColorPuzzle::check`] to refuse.
    pub fn without_unused_colors(self) -> Self {
        let mut used = vec![false; self.colors.len()];
        used[0] = true;
        let blocks = (self.row_clues.iter().chain(&self.col_clues)).flat_map(|c| c.blocks());
        let cells = (blocks.map(|b| b.color))
            .chain(self.givens.iter().map(|g| g.color))
            .chain(self.goal.iter().flatten().copied());
        for c in cells {
            match used.get_mut(usize::from(c)) {
                Some(u) => *u = true,
                None => return self,
            }
        }
        if used.iter().all(|&u| u) {
            return self;
        }
        let mut new_index = Vec::with_capacity(used.len());
        let mut colors = Vec::new();
        for (color, &u) in self.colors.iter().zip(&used) {
            new_index.push(colors.len() as u8);
            if u {
                colors.push(color.clone());
            }
        }
        let to = |c: u8| new_index[usize::from(c)];
        let clue = |c: &ColorClue| {
            let blocks = c.blocks().iter().map(|b| Block {
                len: b.len,
                color: to(b.color),
            });
            ColorClue(blocks.collect())
        };
        let given = |g: &ColorGiven| ColorGiven {
            color: to(g.color),
            ..*g
        };
        self.convert(colors, clue, given, to)
    }

    /// The same puzzle in black and white, if it has at most one colour besides the background.
    pub fn to_bw(&self) -> Option<Puzzle> {
        if self.colors.len() > 2 {
            return None;
        }
        let given = |g: &ColorGiven| Given {
            row: g.row,
            col: g.col,
            filled: g.color != 0,
        };
        let clue = |c: &ColorClue| Clue(c.blocks().iter().map(|b| b.len).collect());
        let two = match &self.colors[..] {
            [background, ink] => TwoColors::new(background.clone(), ink.clone()),
            _ => TwoColors::default(),
        };
        Some(self.convert(two, clue, given, |c| c != 0))
    }

    /// A black-and-white puzzle as a colour puzzle of its two colours (white and black unless
    /// its file named others).
    pub fn from_bw(puzzle: &Puzzle) -> Self {
        let given = |g: &Given| ColorGiven {
            row: g.row,
            col: g.col,
            color: u8::from(g.filled),
        };
        let block = |&len: &u32| Block { len, color: 1 };
        let clue = |c: &Clue| ColorClue(c.blocks().iter().map(block).collect());
        puzzle.convert(puzzle.colors.palette(), clue, given, u8::from)
    }
}

/// The coloured blocks of a line of palette indices (0 = background).
pub(crate) fn color_blocks_of(cells: impl IntoIterator<Item = u8>) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut previous = 0u8;
    for c in cells {
        if c != 0 {
            match blocks.last_mut() {
                Some(last) if previous == c => last.len += 1,
                _ => blocks.push(Block { len: 1, color: c }),
            }
        }
        previous = c;
    }
    blocks
}

impl fmt::Display for ColorClue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_blocks(f, &self.0, |f, b| write!(f, "{}:{}", b.len, b.color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette() -> Vec<Color> {
        vec![
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], 'r'),
            Color::new("blue", [0, 0, 255], 'b'),
        ]
    }

    #[test]
    fn blocks_split_on_colour_changes() {
        let blocks = color_blocks_of([1, 1, 2, 0, 2, 2, 1]);
        let expect = [(2, 1), (1, 2), (2, 2), (1, 1)].map(|(len, color)| Block { len, color });
        assert_eq!(blocks, expect);
        assert_eq!(ColorClue(blocks).min_len(), 7);
    }

    #[test]
    fn picture_round_trips_and_checks_totals() {
        let cells = [1, 2, 0, 0, 2, 1];
        let puzzle = ColorPuzzle::from_picture(palette(), 2, 3, &cells).unwrap();
        assert!(puzzle.check_grid(&cells).is_ok());
        assert!(puzzle.check_grid(&[2, 1, 0, 0, 2, 1]).is_err());
        let mut bad = puzzle.clone();
        bad.row_clues[0].0[0].color = 2;
        assert!(matches!(
            bad.check(),
            Err(PuzzleError::ColorTotalsDisagree { .. })
        ));
        bad.row_clues[0].0[0].color = 3;
        assert!(matches!(bad.check(), Err(PuzzleError::BadColor { .. })));
        let size = |cells| PuzzleError::PictureSize {
            cells,
            rows: 2,
            cols: 3,
        };
        let short = ColorPuzzle::from_picture(palette(), 2, 3, &cells[..5]);
        assert_eq!(short, Err(size(5)));
        assert_eq!(puzzle.check_grid(&[1; 7]), Err(size(7)));
        let mut long_goal = puzzle;
        long_goal.goal = Some(vec![0; 7]);
        assert_eq!(long_goal.check(), Err(size(7)));
    }

    #[test]
    fn bw_conversion_round_trips() {
        let bw = Puzzle::from_picture(2, 2, &[true, false, true, true]).unwrap();
        let color = ColorPuzzle::from_bw(&bw);
        assert!(color.check().is_ok());
        assert_eq!(color.to_bw(), Some(bw));
        let three = ColorPuzzle::from_picture(palette(), 1, 2, &[1, 2]).unwrap();
        assert_eq!(three.to_bw(), None);
    }
}
