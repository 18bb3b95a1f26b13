//! The two kinds of puzzle side by side: what black and white and colour hold in their
//! palette, clues, givens and solution cells.

use super::{BlackWhite, Clue, Given, PuzzleError, PuzzleKind, blocks_of};
use crate::color::{Color, ColorClue, ColorGiven, ColorPuzzle, Colored, color_blocks_of};
use crate::puzzle::Puzzle;

impl PuzzleKind for BlackWhite {
    type Palette = ();
    type Clue = Clue;
    type Given = Given;
    /// Filled or not.
    type Cell = bool;

    fn clue_of(cells: &[bool]) -> Clue {
        Clue(blocks_of(cells.iter().copied()))
    }

    fn check(puzzle: &Puzzle) -> Result<(), PuzzleError> {
        puzzle.check()
    }
}

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
