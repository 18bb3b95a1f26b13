//! Line solvers: everything a single clue forces on a line, given the line's known cells.
//!
//! A line is passed as two bitsets, `filled` and `empty` (bit `i` = cell `i`), which is how the
//! [`Grid`](crate::Grid) stores it. A solver writes the cells known afterwards (a superset of the
//! input) or reports a [`Contradiction`]. Three solvers implement [`LineSolver`]:
//! [`BitLineSolver`], the fast one (bit-parallel for lines up to 126 cells), [`DpLineSolver`],
//! the same dynamic program over arrays for lines of any length, and [`NaiveLineSolver`],
//! which enumerates placements and serves as the test oracle.

mod bits;
mod cache;
mod dp;
mod naive;

pub use bits::BitLineSolver;
pub use cache::{LineCache, LineResult};
pub use dp::DpLineSolver;
pub use naive::NaiveLineSolver;

/// No placement of the clue's blocks agrees with the line's known cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// A solver for one line.
pub trait LineSolver {
    /// Finds every cell of a `len`-cell line that `clue` forces, given the known cells.
    ///
    /// `filled` and `empty` hold the known cells (bit `i` is cell `i`; they never share a bit).
    /// On success `out_filled` and `out_empty` (same word count) hold every cell known
    /// afterwards: the input cells plus all the clue forces. The solver is *complete*: a cell
    /// left unknown can take both values in some placement consistent with the input.
    fn solve(
        &mut self,
        clue: &[u32],
        len: usize,
        filled: &[u64],
        empty: &[u64],
        out_filled: &mut [u64],
        out_empty: &mut [u64],
    ) -> Result<(), Contradiction>;
}

/// Reads bit `i` of a bitset.
#[inline]
pub(crate) fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

/// Sets bit `i` of a bitset.
#[inline]
pub(crate) fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

#[cfg(test)]
mod tests;
