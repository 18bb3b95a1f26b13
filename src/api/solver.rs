//! One search for either palette ([`AnySolver`]), and the solutions it reports ([`AnyGrid`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::color::{AnyPuzzle, ColorGrid, ColorPuzzle};
use crate::flow::Flow;
use crate::grid::Grid;
use crate::search::{
    ColorSolver, Engine, Outcome, SearchStats, SolutionWriter, SolveError, Solver, SolverOptions,
};

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

    /// Appends the solution as text, one row per line: `#` filled and `.` empty (see
    /// [`Grid::write_text`]), or the palette's characters.
    pub fn write_text(&self, out: &mut Vec<u8>) {
        match self {
            AnyGrid::Bw(grid) => grid.write_text(out),
            AnyGrid::Color(grid, puzzle) => {
                let chars: Vec<char> = puzzle.colors.iter().map(|c| c.ch).collect();
                out.extend_from_slice(grid.render(&chars).as_bytes());
            }
        }
    }

    /// The rows as [`AnyGrid::write_text`] draws them.
    pub fn rows(&self) -> Vec<String> {
        let mut text = Vec::new();
        self.write_text(&mut text);
        String::from_utf8_lossy(&text)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Writes each solution of either palette as bytes, on the thread that found it, for
/// [`AnySolver::run_batched`] (see [`SolutionWriter`]).
///
/// A closure `Fn(AnyGrid<'_>, &mut Vec<u8>) + Sync` is a writer with no separator.
pub trait AnySolutionWriter: Sync {
    /// Appends the bytes of `grid` to `out`.
    fn write(&self, grid: AnyGrid<'_>, out: &mut Vec<u8>);

    /// Bytes written between two consecutive solutions (see [`SolutionWriter::separator`]).
    fn separator(&self) -> &[u8] {
        &[]
    }
}

impl<F: Fn(AnyGrid<'_>, &mut Vec<u8>) + Sync> AnySolutionWriter for F {
    fn write(&self, grid: AnyGrid<'_>, out: &mut Vec<u8>) {
        self(grid, out);
    }
}

/// An [`AnySolutionWriter`] as the writer of one palette's search.
struct Palette<'w, W: ?Sized> {
    writer: &'w W,
    /// The colour puzzle, for [`AnyGrid::Color`].
    colors: Option<&'w ColorPuzzle>,
}

impl<W: AnySolutionWriter + ?Sized> SolutionWriter<Grid> for Palette<'_, W> {
    fn write(&self, grid: &Grid, out: &mut Vec<u8>) {
        self.writer.write(AnyGrid::Bw(grid), out);
    }

    fn separator(&self) -> &[u8] {
        self.writer.separator()
    }
}

impl<W: AnySolutionWriter + ?Sized> SolutionWriter<ColorGrid> for Palette<'_, W> {
    fn write(&self, grid: &ColorGrid, out: &mut Vec<u8>) {
        if let Some(puzzle) = self.colors {
            self.writer.write(AnyGrid::Color(grid, puzzle), out);
        }
    }

    fn separator(&self) -> &[u8] {
        self.writer.separator()
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

/// The most solutions a run may stop after for [`Engine::for_run`] to race both searches:
/// their collector keeps every solution reported, to report each once.
pub const RACE_LIMIT: u64 = 10_000;

/// The most solutions a run on one thread may stop after for [`Engine::for_run`] to choose
/// the learning search: `solve` (two) and `list --limit 1` or `2`.
pub const LEARN_ALONE_LIMIT: u64 = 2;

impl Engine {
    /// The search for a run on `threads` threads (`0`: one per core) that stops after
    /// `solution_limit` solutions (`None`: it explores the whole tree), as `--strategy auto`
    /// chooses it, unless the run is `ordered` ([`Engine::Probe`] then): [`Engine::Both`] when
    /// it stops after at most [`RACE_LIMIT`] solutions and has two threads or more;
    /// [`Engine::Learn`] on one thread when it stops after at most [`LEARN_ALONE_LIMIT`];
    /// else [`Engine::Probe`]. On one thread the learning search decides in seconds the
    /// puzzles that the probing search does not decide in minutes (docs/benchmarks.md, "One
    /// thread").
    ///
    /// ```
    /// use nonoenum::Engine;
    ///
    /// assert_eq!(Engine::for_run(2, Some(2), false), Engine::Both); // solve
    /// assert_eq!(Engine::for_run(1, Some(2), false), Engine::Learn); // solve on one thread
    /// assert_eq!(Engine::for_run(1, Some(100), false), Engine::Probe); // a list, one thread
    /// assert_eq!(Engine::for_run(1, Some(2), true), Engine::Probe); // ordered
    /// assert_eq!(Engine::for_run(8, None, false), Engine::Probe); // a count
    /// ```
    pub fn for_run(threads: usize, solution_limit: Option<u64>, ordered: bool) -> Engine {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let within = |most: u64| solution_limit.is_some_and(|n| n <= most);
        if ordered {
            Engine::Probe
        } else if threads >= 2 && within(RACE_LIMIT) {
            Engine::Both
        } else if threads == 1 && within(LEARN_ALONE_LIMIT) {
            Engine::Learn
        } else {
            Engine::Probe
        }
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

    /// Tells the search that its caller stops after `limit` solutions (see
    /// [`Solver::with_solution_limit`]).
    pub fn with_solution_limit(self, limit: u64) -> Self {
        let search = match self.search {
            Search::Bw(s) => Search::Bw(s.with_solution_limit(limit)),
            Search::Color(s, p) => Search::Color(s.with_solution_limit(limit), p),
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

    /// Counts the solutions by enumerating them, in batches and without copying any: all of
    /// them, or `limit` if there are more. One past the limit is looked for, so that
    /// [`Outcome::exhausted`] is true when exactly `limit` exist.
    ///
    /// ```
    /// use nonoenum::{AnyPuzzle, SolverOptions};
    ///
    /// let puzzle = AnyPuzzle::parse("4 4\n1\n1\n1\n1\n1\n1\n1\n1\n").expect("valid"); // 24 solutions
    /// let solver = puzzle.solver(SolverOptions::default());
    /// let all = solver.count_up_to(Some(24)).expect("runs");
    /// assert_eq!((all.solutions, all.exhausted), (24, true));
    /// let some = solver.count_up_to(Some(23)).expect("runs");
    /// assert_eq!((some.solutions, some.exhausted), (23, false));
    /// ```
    pub fn count_up_to(&self, limit: Option<u64>) -> Result<Outcome, SolveError> {
        let nothing = |_: AnyGrid<'_>, _: &mut Vec<u8>| {};
        let past_limit = limit.map(|n| n.saturating_add(1));
        let mut outcome = self.run_batched(&nothing, past_limit, |_, _| Flow::Continue)?;
        if let Some(n) = limit.filter(|&n| outcome.solutions > n) {
            (outcome.solutions, outcome.exhausted) = (n, false);
        }
        Ok(outcome)
    }

    /// Runs the search with each solution written by `writer` on the thread that found it,
    /// handing `on_bytes` whole solutions in batches, at most `limit` of them in all (see
    /// [`Solver::run_batched`]).
    ///
    /// ```
    /// use nonoenum::format::compact::{CompactHeader, encode_bw};
    /// use nonoenum::{AnyGrid, AnyPuzzle, Flow, ListingItem, SolverOptions, read_listing};
    ///
    /// fn main() -> Result<(), Box<dyn std::error::Error>> {
    ///     let puzzle = AnyPuzzle::parse("4 4\n1\n1\n1\n1\n1\n1\n1\n1\n")?; // 24 solutions
    ///     let header = CompactHeader::for_puzzle(&puzzle);
    ///     let mut listing = format!("{}\n", header.to_line()).into_bytes();
    ///     // Runs on the worker that found the solution: one compact line each.
    ///     let writer = |grid: AnyGrid<'_>, out: &mut Vec<u8>| {
    ///         if let AnyGrid::Bw(grid) = grid {
    ///             encode_bw(grid, out);
    ///         }
    ///     };
    ///     let options = SolverOptions { threads: 2, ..SolverOptions::default() };
    ///     let outcome = puzzle.solver(options).run_batched(&writer, Some(10), |bytes, _solutions| {
    ///         listing.extend_from_slice(bytes); // whole solutions
    ///         Flow::Continue
    ///     })?;
    ///     assert_eq!(outcome.solutions, 10);
    ///     let read = read_listing(listing.as_slice())
    ///         .filter(|item| matches!(item, Ok(ListingItem::Solution(_))))
    ///         .count();
    ///     assert_eq!(read, 10);
    ///     Ok(())
    /// }
    /// ```
    pub fn run_batched(
        &self,
        writer: &(impl AnySolutionWriter + ?Sized),
        limit: Option<u64>,
        on_bytes: impl FnMut(&[u8], u64) -> Flow,
    ) -> Result<Outcome, SolveError> {
        match &self.search {
            Search::Bw(s) => {
                let writer = Palette {
                    writer,
                    colors: None,
                };
                s.run_batched(&writer, limit, on_bytes)
            }
            Search::Color(s, p) => {
                let writer = Palette {
                    writer,
                    colors: Some(*p),
                };
                s.run_batched(&writer, limit, on_bytes)
            }
        }
    }
}
