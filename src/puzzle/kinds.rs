//! The black-and-white kind of puzzle: what it holds in its palette, clues, givens and
//! solution cells (colour's kind is beside the colour types, in `crate::color::puzzle`).

use super::{BlackWhite, Clue, Given, PuzzleError, PuzzleKind, TwoColors, blocks_of};
use crate::puzzle::Puzzle;

impl PuzzleKind for BlackWhite {
    type Palette = TwoColors;
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
