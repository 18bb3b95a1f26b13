//! One search for either palette ([`AnySolver`]), and the solutions it reports ([`AnyGrid`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::color::{AnyPuzzle, ColorGrid, ColorPuzzle};
use crate::flow::Flow;
use crate::grid::Grid;
use crate::search::{ColorSolver, Outcome, SearchStats, SolveError, Solver, SolverOptions};

/// A solution of either palette, as [`AnySolver::run`] reports it: a colour grid comes with
/// its puzzle, whose palette names and draws its colours.
#[derive(Clone, Copy, Debug)]
pub enum AnyGrid<'a> {
    /// Black and white.
    Bw(&'a Grid),
    /// Colour, with its puzzle.
    Color(&'a ColorGrid, &'a ColorPuzzle),
}

impl AnyGrid<'_> {
    /// The palette index of every cell, row-major (in black and white, 1 is filled, 0 empty
    /// or unknown).
    pub fn to_cells(&self) -> Vec<u8> {
        match self {
            AnyGrid::Bw(grid) => grid.to_cells().into_iter().map(u8::from).collect(),
            AnyGrid::Color(grid, _) => grid.to_colors(),
        }
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        match self {
            AnyGrid::Bw(grid) => grid.width(),
            AnyGrid::Color(grid, _) => grid.width(),
        }
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        match self {
            AnyGrid::Bw(grid) => grid.height(),
            AnyGrid::Color(grid, _) => grid.height(),
        }
    }
}

/// The engine's search for one puzzle of either palette (see [`AnyPuzzle::solver`]).
#[derive(Debug)]
pub struct AnySolver<'p> {
    search: Search<'p>,
}

/// The engine's instance for the palette.
#[derive(Debug)]
enum Search<'p> {
    Bw(Solver<'p>),
    Color(ColorSolver<'p>, &'p ColorPuzzle),
}

impl AnyPuzzle {
    /// A search of this puzzle as `options` say; [`AnySolver::run`] runs it.
    pub fn solver(&self, options: SolverOptions) -> AnySolver<'_> {
        let search = match self {
            AnyPuzzle::Bw(p) => Search::Bw(Solver::new(p, options)),
            AnyPuzzle::Color(p) => Search::Color(Solver::new(p, options), p),
        };
        AnySolver { search }
    }
}

impl AnySolver<'_> {
    /// Uses `flag` as the cancel flag (see [`Solver::with_cancel_flag`]): setting it stops
    /// the search promptly, and [`AnySolver::run`] returns what it found.
    pub fn with_cancel_flag(self, flag: Arc<AtomicBool>) -> Self {
        let search = match self.search {
            Search::Bw(s) => Search::Bw(s.with_cancel_flag(flag)),
            Search::Color(s, p) => Search::Color(s.with_cancel_flag(flag), p),
        };
        AnySolver { search }
    }

    /// Estimates the size of the search tree while it runs (see [`Solver::with_estimate`]).
    pub fn with_estimate(self, estimate: bool) -> Self {
        let search = match self.search {
            Search::Bw(s) => Search::Bw(s.with_estimate(estimate)),
            Search::Color(s, p) => Search::Color(s.with_estimate(estimate), p),
        };
        AnySolver { search }
    }

    /// The live counters, for a progress display.
    pub fn stats(&self) -> Arc<SearchStats> {
        match &self.search {
            Search::Bw(s) => s.stats(),
            Search::Color(s, _) => s.stats(),
        }
    }

    /// Runs the search, calling `on_solution` (on the calling thread) with each solution as
    /// it is found, until the tree is exhausted or `on_solution` returns [`Flow::Stop`] (see
    /// [`Solver::run`]).
    pub fn run(
        &self,
        mut on_solution: impl FnMut(AnyGrid<'_>) -> Flow,
    ) -> Result<Outcome, SolveError> {
        match &self.search {
            Search::Bw(s) => s.run(|g| on_solution(AnyGrid::Bw(g))),
            Search::Color(s, p) => s.run(|g| on_solution(AnyGrid::Color(g, p))),
        }
    }
}
