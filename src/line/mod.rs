//! Line solvers: everything a single clue forces on a line, given the line's known cells.
//!
//! A line is passed as two bitsets, `filled` and `empty` (bit `i` = cell `i`), which is how the
//! [`Grid`](crate::Grid) stores it. A solver writes the cells known afterwards (a superset of the
//! input) or reports a [`Contradiction`]. Four solvers implement [`LineSolver`]:
//! [`BitLineSolver`], the fast one (bit-parallel, one machine word for lines up to 126 cells),
//! [`LongLineSolver`], the same over several words, which it uses for longer lines,
//! [`DpLineSolver`], the same dynamic program over arrays (one step per cell and block), and
//! [`NaiveLineSolver`], which enumerates placements and serves as the test oracle.

mod bits;
mod cache;
mod dp;
mod long;
mod naive;
pub(crate) mod words;

pub use bits::BitLineSolver;
pub(crate) use bits::WordLine;
pub use cache::{LineCache, LineResult};
pub use dp::DpLineSolver;
pub use long::LongLineSolver;
pub use naive::NaiveLineSolver;

/// No placement of the clue's blocks agrees with the line's known cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// One line as a [`LineSolver`] reads it: the clue, the length and the known cells.
#[derive(Clone, Copy, Debug)]
pub struct LineIn<'a> {
    /// The block lengths.
    pub clue: &'a [u32],
    /// The number of cells.
    pub len: usize,
    /// The cells known filled (bit `i` is cell `i`).
    pub filled: &'a [u64],
    /// The cells known empty; never shares a bit with `filled`.
    pub empty: &'a [u64],
}

/// Where a [`LineSolver`] writes the cells known afterwards (as many words as the input).
#[derive(Debug)]
pub struct LineOut<'a> {
    /// The cells known filled.
    pub filled: &'a mut [u64],
    /// The cells known empty.
    pub empty: &'a mut [u64],
}

impl LineOut<'_> {
    /// The same buffers, borrowed again for a call that does not consume `self`.
    pub fn reborrow(&mut self) -> LineOut<'_> {
        LineOut {
            filled: self.filled,
            empty: self.empty,
        }
    }
}

/// A solver for one line.
pub trait LineSolver {
    /// Finds every cell of the line that its clue forces, given the known cells.
    ///
    /// On success `out` holds every cell known afterwards: the input cells plus all the clue
    /// forces. The solver is *complete*: a cell left unknown can take both values in some
    /// placement consistent with the input.
    fn solve(&mut self, line: LineIn<'_>, out: LineOut<'_>) -> Result<(), Contradiction>;
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

/// The first `W` words of `words`, zeros past its end.
#[inline]
pub(crate) fn first_words<const W: usize>(words: &[u64]) -> [u64; W] {
    std::array::from_fn(|i| words.get(i).copied().unwrap_or(0))
}

#[cfg(test)]
mod long_tests;
#[cfg(test)]
mod tests;
