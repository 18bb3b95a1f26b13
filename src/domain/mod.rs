//! The cell domain: what one engine, written once, needs to know about a kind of puzzle.
//!
//! Propagation, probing and the search are generic over a [`Domain`], which the two puzzle
//! types implement: black and white ([`Puzzle`](crate::Puzzle), a grid of bit planes and the
//! bit-parallel line solver) and colour ([`ColorPuzzle`](crate::color::ColorPuzzle), cells that
//! are sets of colours and the colour line solver). Every generic function is monomorphised for
//! each, so nothing on the black-and-white hot path pays for the generality.
//!
//! A cell's state is a set of values, as a `u64` whose bit `v` stands for value `v`: value 0 is
//! the background (empty), and the other bits are the colours (in black and white, bit 1 is
//! filled). A cell is decided when one bit is left.

mod bw;
mod color;
mod delta;

use std::fmt::Debug;

use crate::line::Contradiction;
use crate::puzzle::LineId;

pub(crate) use crate::grid::Conflict;
pub(crate) use delta::GridDelta;

/// The possible values of a black-and-white cell that is still unknown: empty or filled.
pub(crate) const BW_VALUES: u64 = 0b11;
/// The value bit of a filled black-and-white cell.
pub(crate) const FILLED: u64 = 0b10;
/// The value bit of an empty cell (the background).
pub(crate) const EMPTY: u64 = 0b01;

/// A 64-bit fingerprint of the cells of `grid`: each word mixed in by multiplication and
/// rotation, then the whole finished as SplitMix64 does.
pub(crate) fn fingerprint<G: DomainGrid>(grid: &G) -> u64 {
    let mut hash = grid.storage().len() as u64;
    for &word in grid.storage() {
        hash = (hash ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    hash ^ (hash >> 31)
}

/// A partially known grid of one domain.
pub trait DomainGrid: Clone + Debug + PartialEq + Eq + Send + Sync + 'static {
    /// Number of rows and of columns.
    fn size(&self) -> (usize, usize);
    /// Number of rows.
    fn height(&self) -> usize {
        self.size().0
    }
    /// Number of columns.
    fn width(&self) -> usize {
        self.size().1
    }
    /// Cells with more than one possible value.
    fn undecided(&self) -> usize;
    /// Whether every cell is decided.
    fn complete(&self) -> bool {
        self.undecided() == 0
    }
    /// The possible values of cell (`row`, `col`), as a set of value bits.
    fn values(&self, row: usize, col: usize) -> u64;
    /// Narrows cell (`row`, `col`) to `values` intersected with what it had. Returns whether
    /// it changed, or a [`Conflict`] if nothing is left.
    fn restrict(&mut self, row: usize, col: usize, values: u64) -> Result<bool, Conflict>;
    /// Narrows cell (`row`, `col`), which the caller knows to be undecided, to `value`, one
    /// of its possible values (a one-bit set).
    fn decide(&mut self, row: usize, col: usize, value: u64);
    /// Sets cell (`row`, `col`) to `values`, a non-empty set of the domain's values, wider or
    /// narrower than what it had: a search putting back a cell it narrowed, or rewriting it.
    fn reset(&mut self, row: usize, col: usize, values: u64);
    /// Cells of `line` with more than one possible value.
    fn undecided_in(&self, line: LineId) -> usize;
    /// The first undecided cell of the line with the fewest undecided cells (rows before
    /// columns and lower indices first among equals), or `None` when every cell is decided.
    fn most_constrained_cell(&self) -> Option<(usize, usize)> {
        most_constrained_cell_by_lines(self)
    }
    /// A hashable copy of the cells, equal for equal grids (to drop duplicate solutions).
    fn key(&self) -> Box<[u64]>;
    /// The bytes the grid holds on the heap.
    fn heap_bytes(&self) -> usize;
    /// Whether `line` holds other values here than in `other` (a grid of the same size).
    fn line_differs(&self, other: &Self, line: LineId) -> bool;
    /// The cells that every grid of `children` (each narrower than this grid) narrows the same
    /// way, pushed onto `out` with the union of the children's values: a narrowing that holds
    /// below every child, so a sound one where the children cover every solution.
    fn common_narrowing(&self, children: &[Self], out: &mut Vec<(usize, usize, u64)>);
    /// Marks in `marks` the cells after `after` (row by row) with two possible values here
    /// that `a` and `b` (each narrower than this grid) both decide, to different values: where
    /// `a` and `b` are the probes of a cell's two values, each value of these cells implies
    /// one of that cell's. `marks` holds a bit per cell, each row in words of its own
    /// (`width.div_ceil(64)` of them). Returns whether it marked any.
    fn mark_opposed(&self, a: &Self, b: &Self, after: (usize, usize), marks: &mut [u64]) -> bool {
        mark_opposed_by_cells(self, a, b, after, marks)
    }
    /// The words that store the grid's cells (in any layout the grid likes), for the search's
    /// deltas between grids.
    fn storage(&self) -> &[u64];
    /// The words that store the grid's cells, and its count of undecided cells, to write.
    /// Whoever writes them keeps the two in agreement.
    fn storage_mut(&mut self) -> (&mut [u64], &mut usize);
}

/// [`DomainGrid::mark_opposed`] cell by cell, from [`DomainGrid::values`].
pub(crate) fn mark_opposed_by_cells<G: DomainGrid>(
    grid: &G,
    a: &G,
    b: &G,
    after: (usize, usize),
    marks: &mut [u64],
) -> bool {
    let row_words = grid.width().div_ceil(64);
    let mut any = false;
    for row in after.0..grid.height() {
        let first = if row == after.0 { after.1 + 1 } else { 0 };
        for col in first..grid.width() {
            let (va, vb) = (a.values(row, col), b.values(row, col));
            let decided = va.is_power_of_two() && vb.is_power_of_two();
            if decided && va != vb && grid.values(row, col).count_ones() == 2 {
                marks[row * row_words + col / 64] |= 1 << (col % 64);
                any = true;
            }
        }
    }
    any
}

/// [`DomainGrid::most_constrained_cell`] from [`DomainGrid::undecided_in`] and
/// [`DomainGrid::values`]: for any domain, and to check the faster ones against.
pub(crate) fn most_constrained_cell_by_lines<G: DomainGrid>(grid: &G) -> Option<(usize, usize)> {
    let (height, width) = (grid.height(), grid.width());
    let rows = (0..height).map(LineId::Row);
    let cols = (0..width).map(LineId::Col);
    let (_, line) = rows
        .chain(cols)
        .map(|l| (grid.undecided_in(l), l))
        .filter(|&(n, _)| n > 0)
        .min_by_key(|&(n, _)| n)?;
    let undecided = |(r, c): &(usize, usize)| grid.values(*r, *c).count_ones() > 1;
    match line {
        LineId::Row(r) => (0..width).map(|c| (r, c)).find(undecided),
        LineId::Col(c) => (0..height).map(|r| (r, c)).find(undecided),
    }
}

/// A kind of puzzle: its grid, and how one of its lines is solved.
pub trait Domain: Debug + Sync + Sized + 'static {
    /// The grid the engine searches.
    type Grid: DomainGrid;
    /// A thread's line-solving state: the line solver, its buffers and (optionally) a cache
    /// of its results.
    type Lines: Debug + Default + Send;

    /// Checks that the puzzle is well formed (see [`Puzzle::check`](crate::Puzzle::check)).
    fn validate(&self) -> Result<(), crate::PuzzleError>;
    /// Number of rows and of columns.
    fn size(&self) -> (usize, usize);
    /// Whether a cell's values are tried highest first (black and white: filled, then empty)
    /// rather than lowest first (colour: the background, then the palette in order).
    const HIGH_VALUE_FIRST: bool;

    /// Every possible value of a cell, as a set of value bits.
    fn all_values(&self) -> u64;

    /// How good a branching cell is whose probes (one per value, in the order tried) fixed
    /// `fixed` cells each: higher is better.
    fn branch_score(&self, fixed: &[u64]) -> f64;
    /// A grid with every cell undecided.
    fn blank_grid(&self) -> Self::Grid;
    /// The grid with the puzzle's givens applied (not propagated), or `None` if they conflict.
    fn given_grid(&self) -> Option<Self::Grid>;

    /// A cell known before solving, as the puzzle stores it.
    type Given: Clone + Debug + PartialEq + Send + Sync;
    /// The given that narrows cell (`row`, `col`) to the value bit `value`.
    fn given(row: usize, col: usize, value: u64) -> Self::Given;
    /// The value bit of a given, as [`Domain::given`] made it.
    fn given_value(given: &Self::Given) -> u64;
    /// The puzzle with `givens` added to its own.
    fn with_givens(&self, givens: &[Self::Given]) -> Self;
    /// Checksums of the clues (with the palette) and of the givens in any order, as
    /// `fnv1a64:HEX`: the same clues for a puzzle and every part split from it, other givens
    /// for each part.
    fn checksums(&self) -> (String, String);

    /// Line-solving state with a cache of line results, which the propagator sets up for one
    /// puzzle at a time with [`Domain::configure_cache`].
    fn lines_with_cache() -> Self::Lines;
    /// Makes the cache in `lines` (if any) serve this puzzle, forgetting what it held.
    fn configure_cache(&self, lines: &mut Self::Lines);
    /// Lookups in the cache of `lines` so far, and how many it answered.
    fn cache_counts(lines: &Self::Lines) -> (u64, u64);

    /// Solves `line` of `grid` (line number `index`, see `line_index`): narrows every cell
    /// to what the line's clue allows given the cells' values, and calls `changed(i)` for
    /// each cell `i` of the line (from the left, or the top) that it narrowed. Fails when no
    /// placement of the clue agrees with the line.
    fn solve_line(
        &self,
        lines: &mut Self::Lines,
        grid: &mut Self::Grid,
        line: LineId,
        index: u32,
        changed: impl FnMut(usize),
    ) -> Result<(), Contradiction>;
}

/// The items of [`DomainGrid`] that both kinds of grid write in the same words, expanded
/// inside each `impl DomainGrid`.
macro_rules! same_in_every_grid {
    () => {
        fn size(&self) -> (usize, usize) {
            (Self::height(self), Self::width(self))
        }

        fn undecided(&self) -> usize {
            self.unknown_count()
        }
    };
}
use same_in_every_grid;

/// The items of [`Domain`] that both kinds of puzzle write in the same words (their fields
/// and methods have the same names), expanded inside each `impl Domain`.
macro_rules! same_in_every_domain {
    () => {
        fn validate(&self) -> Result<(), crate::PuzzleError> {
            self.check()
        }

        fn size(&self) -> (usize, usize) {
            (self.height(), self.width())
        }

        fn given_grid(&self) -> Option<Self::Grid> {
            let mut grid = self.blank_grid();
            for g in &self.givens {
                grid.restrict(g.row, g.col, Self::given_value(g)).ok()?;
            }
            Some(grid)
        }

        fn with_givens(&self, givens: &[Self::Given]) -> Self {
            let mut puzzle = self.clone();
            puzzle.givens.extend_from_slice(givens);
            puzzle
        }

        fn lines_with_cache() -> Self::Lines {
            let mut lines = Self::Lines::default();
            lines.cache = Some(Box::default());
            lines
        }

        fn cache_counts(lines: &Self::Lines) -> (u64, u64) {
            lines
                .cache
                .as_ref()
                .map_or((0, 0), |cache| (cache.lookups, cache.hits))
        }
    };
}
use same_in_every_domain;

/// A line as one number: rows are `0..height`, columns follow.
#[inline]
pub(crate) fn line_index(height: usize, line: LineId) -> u32 {
    match line {
        LineId::Row(r) => r as u32,
        LineId::Col(c) => (height + c) as u32,
    }
}

/// The values of `set` in the order domain `P` tries them (see [`Domain::HIGH_VALUE_FIRST`]),
/// each as a one-bit set.
#[inline]
pub(crate) fn each_value<P: Domain>(mut set: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = if P::HIGH_VALUE_FIRST {
                1 << (63 - set.leading_zeros())
            } else {
                set & set.wrapping_neg()
            };
            set &= !bit;
            bit
        })
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_most_constrained_cell_from_the_planes_is_the_one_line_by_line() {
        // Shapes across the 64-cell word boundary, grids from nearly unknown to complete,
        // so that ties between rows and columns and the last words of long lines come up.
        use super::{DomainGrid, most_constrained_cell_by_lines};
        use crate::grid::Grid;
        use crate::rng::SplitMix;
        let mut rng = SplitMix(7);
        for (height, width) in [
            (0, 3),
            (3, 0),
            (1, 1),
            (3, 5),
            (16, 16),
            (5, 64),
            (65, 3),
            (70, 130),
            (2, 200),
        ] {
            for known in [0, 10, 50, 90, 99, 100] {
                let mut grid = Grid::new(height, width);
                for r in 0..height {
                    for c in 0..width {
                        if rng.next() % 100 < known {
                            let _ = grid.set(r, c, rng.next().is_multiple_of(2));
                        }
                    }
                }
                assert_eq!(
                    DomainGrid::most_constrained_cell(&grid),
                    most_constrained_cell_by_lines(&grid),
                    "{height}x{width}, {known}% known"
                );
            }
        }
    }

    #[test]
    fn branch_scores_are_finite_at_the_extremes() {
        use super::Domain;
        use crate::test_strategies::{colour_bands, permutations};
        let (bw, colour) = (permutations(2), colour_bands(1, 2));
        for fixed in [
            &[][..],
            &[0, 0],
            &[0, u64::MAX],
            &[u64::MAX, u64::MAX],
            &[7; 17],
        ] {
            for score in [bw.branch_score(fixed), colour.branch_score(fixed)] {
                assert!(score.is_finite() && score >= 0.0, "{fixed:?}: {score}");
            }
        }
        // More cells fixed is better, at any size.
        assert!(bw.branch_score(&[u64::MAX, 1]) > bw.branch_score(&[1 << 40, 1]));
        assert!(colour.branch_score(&[3, 3, 3]) > colour.branch_score(&[3, 3, 2]));
    }
}
