//! What exact counting needs of a [`Domain`] beyond propagation and probing: where a line falls
//! apart into independent segments, the automaton of a line (for profiles and the sweep), and
//! a learning search that checks a set of cells for a completion.

use super::dfa::{Class, ColorClass, LineDfa, Successors, TooLarge};
use super::segments::{ColorSegmentSolver, Segment, segments_of_bits};
use crate::color::{ColorGrid, ColorPuzzle};
use crate::domain::{Domain, DomainGrid};
use crate::grid::Grid;
use crate::learn::{Completion, CompletionChecker};
use crate::line::BitLineSolver;
use crate::puzzle::{LineId, Puzzle};

/// A domain whose puzzles `ComponentCounter`, profiles and the
/// sweep count.
pub trait Countable: Domain {
    /// The successors of a class of a line automaton: one per cell value.
    type Successors: Successors;
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

    /// The automaton of `line` with the cells of `grid` folded in, reading the cells from the
    /// last to the first when `backwards`.
    fn line_automaton(
        &self,
        grid: &Self::Grid,
        line: LineId,
        backwards: bool,
    ) -> Result<LineDfa<Self::Successors>, TooLarge>;

    /// A completion checker for grids that extend `root`, if the domain has one.
    fn checker<'p>(&'p self, root: &Self::Grid) -> Option<Self::Checker<'p>>;

    /// The conflicts `checker` has spent in all its checks so far.
    fn conflicts(checker: &Self::Checker<'_>) -> u64;

    /// Whether the unknown `cells` of `grid` can be completed, as
    /// the learning search's completion checker says.
    fn check(
        checker: &mut Self::Checker<'_>,
        grid: &Self::Grid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        stopped: impl FnMut() -> bool,
    ) -> Completion<Self::Grid>;
}

/// The automaton of `line` of `grid` whose clue is `blocks` (length, colour), over cells of
/// `values` values, read backwards when `backwards`.
fn automaton<S: Successors>(
    grid: &impl DomainGrid,
    line: LineId,
    mut blocks: Vec<(u32, u8)>,
    values: usize,
    backwards: bool,
) -> Result<LineDfa<S>, TooLarge> {
    let mut known: Vec<u64> = match line {
        LineId::Row(r) => (0..grid.width()).map(|c| grid.values(r, c)).collect(),
        LineId::Col(c) => (0..grid.height()).map(|r| grid.values(r, c)).collect(),
    };
    if backwards {
        known.reverse();
        blocks.reverse();
    }
    LineDfa::from_clue(&blocks, &known, values)
}

impl Countable for Puzzle {
    type Successors = Class;
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

    fn line_automaton(
        &self,
        grid: &Grid,
        line: LineId,
        backwards: bool,
    ) -> Result<LineDfa<Class>, TooLarge> {
        let blocks = self
            .clue(line)
            .blocks()
            .iter()
            .map(|&len| (len, 1))
            .collect();
        automaton(grid, line, blocks, 2, backwards)
    }

    fn checker<'p>(&'p self, root: &Grid) -> Option<CompletionChecker<'p>> {
        Some(CompletionChecker::new(self, root))
    }

    fn conflicts(checker: &CompletionChecker<'_>) -> u64 {
        checker.stats().conflicts
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

impl Countable for ColorPuzzle {
    type Successors = ColorClass;
    type SegmentSolver = ColorSegmentSolver;
    type Checker<'p> = CompletionChecker<'p, ColorPuzzle>;

    fn segments(
        &self,
        solver: &mut ColorSegmentSolver,
        grid: &ColorGrid,
        line: LineId,
    ) -> Option<Vec<Segment>> {
        solver.segments(self.clue(line).blocks(), grid, line)
    }

    fn line_automaton(
        &self,
        grid: &ColorGrid,
        line: LineId,
        backwards: bool,
    ) -> Result<LineDfa<ColorClass>, TooLarge> {
        let blocks = self.clue(line).blocks();
        let blocks = blocks.iter().map(|b| (b.len, b.color)).collect();
        automaton(grid, line, blocks, self.colors.len(), backwards)
    }

    fn checker<'p>(&'p self, root: &ColorGrid) -> Option<Self::Checker<'p>> {
        Some(CompletionChecker::new(self, root))
    }

    fn conflicts(checker: &Self::Checker<'_>) -> u64 {
        checker.stats().conflicts
    }

    fn check(
        checker: &mut Self::Checker<'_>,
        grid: &ColorGrid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        stopped: impl FnMut() -> bool,
    ) -> Completion<ColorGrid> {
        checker.check(grid, cells, max_conflicts, stopped)
    }
}
