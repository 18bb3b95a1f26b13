//! What counting by components needs of a [`Domain`] beyond propagation and probing: where a
//! line falls apart into independent segments, and whether a learning search can check a set
//! of cells for a completion (black and white only, so far).

use super::segments::{ColorSegmentSolver, Segment, segments_of_bits};
use crate::color::{ColorGrid, ColorPuzzle};
use crate::domain::Domain;
use crate::grid::Grid;
use crate::learn::{Completion, CompletionChecker};
use crate::line::BitLineSolver;
use crate::puzzle::{LineId, Puzzle};

/// A domain whose puzzles [`ComponentCounter`](super::ComponentCounter) counts.
pub trait Countable: Domain {
    /// A thread's buffers for finding segments.
    type SegmentSolver: Default;
    /// A learning search that checks sets of cells for a completion, kept across checks.
    type Checker<'p>: Send
    where
        Self: 'p;

    /// The segments of `line` of `grid` (a grid at a propagation fixpoint), left to right,
    /// or `None` if no placement of its clue agrees with its cells.
    fn segments(
        &self,
        solver: &mut Self::SegmentSolver,
        grid: &Self::Grid,
        line: LineId,
    ) -> Option<Vec<Segment>>;

    /// A completion checker for grids that extend `root`, if the domain has one.
    fn checker<'p>(&'p self, root: &Self::Grid) -> Option<Self::Checker<'p>>;

    /// Whether the unknown `cells` of `grid` can be completed, as
    /// [`CompletionChecker::check`] says.
    fn check(
        checker: &mut Self::Checker<'_>,
        grid: &Self::Grid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        stopped: impl FnMut() -> bool,
    ) -> Completion<Self::Grid>;
}

impl Countable for Puzzle {
    type SegmentSolver = (BitLineSolver, Vec<(u32, u32)>);
    type Checker<'p> = CompletionChecker<'p>;

    #[inline]
    fn segments(
        &self,
        (solver, starts): &mut Self::SegmentSolver,
        grid: &Grid,
        line: LineId,
    ) -> Option<Vec<Segment>> {
        let blocks = self.clue(line).blocks();
        segments_of_bits(solver, starts, blocks, grid.line_len(line), grid.line(line))
    }

    fn checker<'p>(&'p self, root: &Grid) -> Option<CompletionChecker<'p>> {
        Some(CompletionChecker::new(self, root))
    }

    fn check(
        checker: &mut CompletionChecker<'_>,
        grid: &Grid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        stopped: impl FnMut() -> bool,
    ) -> Completion {
        checker.check(grid, cells, max_conflicts, stopped)
    }
}

/// Colour has no learning search yet: every set of cells is counted without a check.
impl Countable for ColorPuzzle {
    type SegmentSolver = ColorSegmentSolver;
    type Checker<'p> = std::convert::Infallible;

    fn segments(
        &self,
        solver: &mut ColorSegmentSolver,
        grid: &ColorGrid,
        line: LineId,
    ) -> Option<Vec<Segment>> {
        solver.segments(self.clue(line).blocks(), grid, line)
    }

    fn checker(&self, _: &ColorGrid) -> Option<std::convert::Infallible> {
        None
    }

    fn check(
        checker: &mut std::convert::Infallible,
        _: &ColorGrid,
        _: &[(u32, u32)],
        _: u64,
        _: impl FnMut() -> bool,
    ) -> Completion<ColorGrid> {
        match *checker {}
    }
}
