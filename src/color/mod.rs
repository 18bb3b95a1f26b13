//! Colour nonograms: a palette, clues of coloured blocks, cells whose state is the set of
//! their still-possible colours, and the exact colour line solver. Propagation, probing and
//! the parallel search are the engine's own, generic over the [`crate::domain::Domain`]
//! (see [`crate::Solver`]; [`crate::ColorSolver`] is its colour instance).
//!
//! Blocks of different colours may touch; blocks of the same colour need a gap. A puzzle with
//! one colour besides the background is black and white, and goes to the faster bit-parallel
//! engine instead ([`ColorPuzzle::to_bw`], [`AnyPuzzle::from_color`]).
//!
//! ```
//! use nonoenum::{Color, ColorPuzzle, Solver, SolverOptions};
//!
//! let palette = vec![
//!     Color::new("white", [255, 255, 255], '.'),
//!     Color::new("red", [255, 0, 0], 'r'),
//!     Color::new("blue", [0, 0, 255], 'b'),
//! ];
//! // A red cell touching a blue one, over a blue and a red one.
//! let puzzle = ColorPuzzle::from_picture(palette, 2, 2, &[1, 2, 2, 1])?;
//! let outcome = Solver::new(&puzzle, SolverOptions::default()).count()?;
//! assert_eq!(outcome.solutions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod cache;
mod grid;
mod line;
mod puzzle;

pub use grid::ColorGrid;
pub(crate) use line::ColorLineSolver;
#[cfg(test)]
pub(crate) use puzzle::color_blocks_of;
pub use puzzle::{
    Block, Color, ColorClue, ColorGiven, ColorPuzzle, Colored, MAX_COLORS, bw_palette,
};

use crate::puzzle::Puzzle;

/// A cell was asked to lose its last colour (the one [`crate::grid::Conflict`]).
pub(crate) use crate::grid::Conflict;

/// A puzzle of either kind, as the readers return it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPuzzle {
    /// Black and white (at most one colour besides the background).
    Bw(Puzzle),
    /// Two colours or more besides the background.
    Color(ColorPuzzle),
}

impl AnyPuzzle {
    /// A colour puzzle, or its black-and-white form when it has a single colour.
    pub fn from_color(puzzle: ColorPuzzle) -> Self {
        match puzzle.to_bw() {
            Some(bw) => AnyPuzzle::Bw(bw),
            None => AnyPuzzle::Color(puzzle),
        }
    }

    /// The puzzle's title.
    pub fn title(&self) -> Option<&str> {
        match self {
            AnyPuzzle::Bw(p) => p.title.as_deref(),
            AnyPuzzle::Color(p) => p.title.as_deref(),
        }
    }

    /// The puzzle as a colour puzzle (black and white becomes white and black).
    pub fn to_color(&self) -> ColorPuzzle {
        match self {
            AnyPuzzle::Bw(p) => ColorPuzzle::from_bw(p),
            AnyPuzzle::Color(p) => p.clone(),
        }
    }
}
