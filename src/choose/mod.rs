//! Choosing the branching cell, with or without probing, for puzzles of any [`Domain`].
//!
//! **Probing** (the default) tries every possible value of every undecided cell, propagating
//! each:
//! - values that contradict leave the cell (if none is left, the node is dead);
//! - every cell is narrowed to the union of what the surviving probes left it, which is sound
//!   (each solution lies under one of them); in black and white, the cells both values fix the
//!   same way are fixed outright.
//!
//! A round skips the cells whose probes the probes of an earlier cell imply ([`implied`]).
//! The rounds repeat until one changes nothing. The branching cell is then the one whose
//! probes fixed the most cells, by the domain's [`Domain::branch_score`] (in black and white
//! `(1 + fixed_if_filled) * (1 + fixed_if_empty)`, which favours cells whose both branches
//! shrink the problem). Its propagated probe grids become the children directly, one per
//! value, so the subtrees are disjoint (exact counts) and a branch costs no extra propagation.
//!
//! Probing is **bounded** at nodes of huge grids: once a node's probes have cost
//! [`PROBE_WORK`] (cells copied and line cells solved, counted the same way on every run, so the
//! tree does not depend on timing), the round stops and the node branches on the best cell
//! probed so far, or as without probing when a probe had just narrowed the grid. A node of a
//! 2000 x 2000 grid would otherwise probe 4 million cells before its first branch. Puzzles up
//! to a few hundred cells a side never reach the bound.
//!
//! Probing and branching poll a `stopped` check before each probe and give
//! [`Choice::Interrupted`] when it says stop: one propagation at most runs after a stop.
//!
//! Without probing, the branching cell is the first undecided cell of the line (row or
//! column) with the fewest undecided cells: the most constrained line, where a guess is most
//! often right or quickly refuted; its children are its values that do not contradict at once.

mod implied;
mod memo;
mod policy;

use std::sync::Arc;

use implied::Implied;

pub(crate) use memo::{ProbeMemo, SealedMemo};
pub use policy::Probing;
pub(crate) use policy::choose_by;

use crate::domain::{Domain, DomainGrid, each_value};
use crate::line::Contradiction;
use crate::propagate::Propagator;

/// What to do at a search node, whose grid is at a propagation fixpoint.
#[derive(Clone, Debug)]
pub(crate) enum Choice<G = crate::grid::Grid> {
    /// No undecided cell is left: the grid is a solution.
    Solved,
    /// The node has no solution.
    Dead,
    /// Branch: the propagated children, one per value of the branching cell that does not
    /// contradict, lowest value first (in black and white: empty, then filled).
    Branch {
        /// The branching cell, `(row, col)`.
        cell: (usize, usize),
        /// The children, disjoint and together holding every solution below the node.
        children: Vec<G>,
        /// Probe results that the children can reuse (with probing).
        memo: Option<Arc<SealedMemo<G>>>,
    },
    /// The `stopped` check said stop before the node was decided: nothing is known.
    Interrupted,
}

/// Probing that a `stopped` check ended before it was done: nothing is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Interrupted;

/// The work one node's probing may do before it branches on what it knows (see the module
/// documentation): about a second of probing (a cell of a long line costs the dynamic
/// programming line solver some 20 ns).
pub(crate) const PROBE_WORK: u64 = 1 << 26;

/// Counters for what probing did, to add to the search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ProbeCounts {
    /// Propagations from a probed value.
    pub probes: u64,
    /// Cells fixed by probing (a refuted value, or agreement of every value).
    pub fixed: u64,
    /// Probes not run because the [`ProbeMemo`] still held their result.
    pub reused: u64,
}

/// Narrows one undecided cell of a copy of `grid` to `value`, one of its values, and
/// propagates.
/// Also `Err` when `stopped` ends the propagation: every caller asks `stopped` again before
/// it trusts a contradiction.
fn try_value<P: Domain>(
    puzzle: &P,
    grid: &P::Grid,
    prop: &mut Propagator<P>,
    (row, col): (usize, usize),
    value: u64,
    stopped: &dyn Fn() -> bool,
) -> Result<P::Grid, Contradiction> {
    let mut child = grid.clone();
    child.decide(row, col, value);
    prop.propagate_cell_until(puzzle, &mut child, (row, col), stopped)
        .unwrap_or(Err(Contradiction))?;
    Ok(child)
}

/// Picks the branching cell without probing and builds the children.
pub(crate) fn choose_plain<P: Domain>(
    puzzle: &P,
    grid: &P::Grid,
    prop: &mut Propagator<P>,
    stopped: &dyn Fn() -> bool,
) -> Choice<P::Grid> {
    choose_plain_within(puzzle, grid, prop, None, stopped)
}

/// [`choose_plain`], branching with `cells` on the first of them that is undecided.
fn choose_plain_within<P: Domain>(
    puzzle: &P,
    grid: &P::Grid,
    prop: &mut Propagator<P>,
    cells: Option<&[(u32, u32)]>,
    stopped: &dyn Fn() -> bool,
) -> Choice<P::Grid> {
    let cell = match cells {
        None => grid.most_constrained_cell(),
        Some(cells) => (cells.iter())
            .map(|&(row, col)| (row as usize, col as usize))
            .find(|&(row, col)| grid.values(row, col).count_ones() > 1),
    };
    let Some(cell) = cell else {
        return Choice::Solved;
    };
    let mut children = Vec::new();
    for value in each_value::<P>(grid.values(cell.0, cell.1)) {
        if stopped() {
            return Choice::Interrupted;
        }
        if let Ok(child) = try_value(puzzle, grid, prop, cell, value, stopped) {
            children.push(child);
        }
    }
    if stopped() {
        return Choice::Interrupted;
    }
    Choice::Branch {
        cell,
        children,
        memo: None,
    }
}

/// The root grid of `puzzle`, its givens applied, propagated and probed to a fixpoint (within
/// [`PROBE_WORK`]), or `None` when that proves there is no solution.
#[cfg(test)]
pub(crate) fn probed_root<P: Domain>(puzzle: &P) -> Result<Option<P::Grid>, crate::PuzzleError> {
    Ok(probed_root_until(puzzle, &|| false)?.unwrap_or(None))
}

/// [`probed_root`], polling `stopped` between probes: `Err(Interrupted)` when it said stop.
pub(crate) fn probed_root_until<P: Domain>(
    puzzle: &P,
    stopped: &dyn Fn() -> bool,
) -> Result<Result<Option<P::Grid>, Interrupted>, crate::PuzzleError> {
    puzzle.validate()?;
    let Some(mut grid) = puzzle.given_grid() else {
        return Ok(Ok(None));
    };
    let mut prop = Propagator::new();
    let Some(propagated) = prop.propagate_all_until(puzzle, &mut grid, stopped) else {
        return Ok(Err(Interrupted));
    };
    if propagated.is_err() {
        return Ok(Ok(None));
    }
    let mut counts = ProbeCounts::default();
    let choice = choose_probing(
        puzzle,
        &mut grid,
        &mut prop,
        &mut counts,
        None,
        None,
        stopped,
    );
    Ok(match choice {
        Choice::Interrupted => Err(Interrupted),
        Choice::Dead => Ok(None),
        Choice::Solved | Choice::Branch { .. } => Ok(Some(grid)),
    })
}

/// Probes every undecided cell until a round changes nothing, then picks the branching cell.
/// `inherited` is the parent node's memo: probes whose footprint the branch left unchanged
/// are not run again.
///
/// With `cells`, only they are probed and branched on, and [`Choice::Solved`] means none of
/// them is undecided: for a set of cells that does not interact with the rest of the grid,
/// such as a component of the exact counter; a node out of probing work then branches on the
/// first of them that is undecided.
///
/// `stopped` is polled before each probe: [`Choice::Interrupted`] when it says stop.
pub(crate) fn choose_probing<P: Domain>(
    puzzle: &P,
    grid: &mut P::Grid,
    prop: &mut Propagator<P>,
    counts: &mut ProbeCounts,
    inherited: Option<&SealedMemo<P::Grid>>,
    cells: Option<&[(u32, u32)]>,
    stopped: &dyn Fn() -> bool,
) -> Choice<P::Grid> {
    if grid.undecided() == 0 {
        // Nothing to probe: spare the memo, a slot per value of every cell.
        return Choice::Solved;
    }
    let value_bits = u64::BITS - puzzle.all_values().leading_zeros();
    let mut memo = ProbeMemo::inherit(inherited, grid, value_bits);
    let (height, width) = (grid.height(), grid.width());
    let mut prober = Prober {
        puzzle,
        prop,
        counts,
        narrowed: Vec::new(),
        implied: Implied::default(),
        stopped,
        work_left: PROBE_WORK,
        copy_work: (height * width / 16) as u64,
        line_work: height.max(width) as u64,
    };
    loop {
        match prober.round(grid, &mut memo, cells) {
            Round::Dead => return Choice::Dead,
            Round::Interrupted => return Choice::Interrupted,
            Round::Changed => {}
            Round::Stable(None) => return Choice::Solved,
            Round::OutOfWork(None) => {
                return choose_plain_within(puzzle, grid, prober.prop, cells, stopped);
            }
            Round::Stable(Some(best)) | Round::OutOfWork(Some(best)) => {
                let children = match best.children {
                    Some(children) => children,
                    None => {
                        // The best cell's results came from the memo: probe it for real.
                        let values = grid.values(best.cell.0, best.cell.1);
                        prober.counts.probes += u64::from(values.count_ones());
                        let children: Vec<_> = each_value::<P>(values)
                            .filter_map(|v| {
                                try_value(puzzle, grid, prober.prop, best.cell, v, stopped).ok()
                            })
                            .collect();
                        if stopped() {
                            return Choice::Interrupted;
                        }
                        if children.len() < values.count_ones() as usize {
                            // Only a stale memo entry could lead here; recover soundly.
                            if prober.narrow_to_union(grid, &children, &mut memo).is_err() {
                                return Choice::Dead;
                            }
                            continue;
                        }
                        children
                    }
                };
                let memo = memo.seal(grid, &children);
                return Choice::Branch {
                    cell: best.cell,
                    children,
                    memo: Some(memo),
                };
            }
        }
    }
}

/// The best branching cell of a round: its score, and its probe grids unless its results
/// came from the memo.
struct Candidate<G> {
    score: f64,
    cell: (usize, usize),
    children: Option<Vec<G>>,
}

enum Round<G> {
    Dead,
    Changed,
    /// Nothing changed; the best branching cell, if any cell is undecided.
    Stable(Option<Candidate<G>>),
    /// The node's probing work ran out: the best cell probed since the grid last changed, if
    /// any.
    OutOfWork(Option<Candidate<G>>),
    /// `stopped` said stop.
    Interrupted,
}

/// What one node's probing rounds share.
struct Prober<'a, P: Domain> {
    puzzle: &'a P,
    prop: &'a mut Propagator<P>,
    counts: &'a mut ProbeCounts,
    /// A buffer for [`Prober::narrow_to_union`].
    narrowed: Vec<(usize, usize, u64)>,
    /// The cells whose probes a round may skip.
    implied: Implied,
    stopped: &'a dyn Fn() -> bool,
    /// What is left of the node's probing work.
    work_left: u64,
    /// The work of copying the grid, and of solving one line.
    copy_work: u64,
    line_work: u64,
}

impl<P: Domain> Prober<'_, P> {
    fn round(
        &mut self,
        grid: &mut P::Grid,
        memo: &mut ProbeMemo<P::Grid>,
        scope: Option<&[(u32, u32)]>,
    ) -> Round<P::Grid> {
        let mut changed = false;
        let mut best: Option<Candidate<P::Grid>> = None;
        let cells = cells_in(grid, scope);
        let mut fixed = Vec::new();
        let mut survivors = Vec::new();
        self.implied.start(grid, scope.is_none());
        for cell @ (row, col) in cells {
            let values = grid.values(row, col);
            if values.count_ones() < 2 || self.implied.holds(cell) {
                continue;
            }
            if (self.stopped)() {
                return Round::Interrupted;
            }
            if self.work_left == 0 {
                return Round::OutOfWork(if changed { None } else { best });
            }
            if remembered::<P>(memo, cell, values, &mut fixed) {
                // Every value is consistent and they agree on nothing, as when they were probed.
                self.counts.reused += u64::from(values.count_ones());
                if !changed {
                    let score = self.puzzle.branch_score(&fixed);
                    consider(
                        &mut best,
                        Candidate {
                            score,
                            cell,
                            children: None,
                        },
                    );
                }
                continue;
            }
            let before = self.probe_values(grid, memo, cell, values, &mut fixed, &mut survivors);
            if (self.stopped)() {
                return Round::Interrupted;
            }
            match survivors.len() {
                0 => return Round::Dead,
                1 => {
                    let only = survivors.pop().expect("one survivor");
                    self.counts.fixed += (before - only.undecided()) as u64;
                    memo.changed(grid, &only);
                    *grid = only;
                    changed = true;
                    best = None;
                    self.implied.forget();
                    continue;
                }
                _ => {}
            }
            match self.narrow_to_union(grid, &survivors, memo) {
                Err(Contradiction) => return Round::Dead,
                Ok(0) => {
                    if let [a, b] = &survivors[..] {
                        self.implied.note(grid, cell, a, b);
                    }
                    if !changed {
                        let score = self.puzzle.branch_score(&fixed);
                        consider_probed(&mut best, &mut survivors, score, cell);
                    }
                }
                Ok(n) => {
                    self.counts.fixed += n;
                    changed = true;
                    self.implied.forget();
                }
            }
        }
        if changed {
            Round::Changed
        } else {
            Round::Stable(best)
        }
    }

    /// Probes each value of `cell` (`values`, two or more) from `grid`, recording in `memo`
    /// how many cells each fixes: the grids that survive go to `survivors`, those counts to
    /// `fixed` (both cleared first), and the work done comes off what is left. Returns the
    /// undecided cells of `grid`.
    #[inline]
    fn probe_values(
        &mut self,
        grid: &P::Grid,
        memo: &mut ProbeMemo<P::Grid>,
        cell @ (row, col): (usize, usize),
        values: u64,
        fixed: &mut Vec<u64>,
        survivors: &mut Vec<P::Grid>,
    ) -> usize {
        self.counts.probes += u64::from(values.count_ones());
        let before = grid.undecided();
        let solves = self.prop.line_solves;
        fixed.clear();
        survivors.clear();
        for value in each_value::<P>(values) {
            let tried = try_value(self.puzzle, grid, self.prop, cell, value, self.stopped);
            if let Ok(g) = tried {
                let n = (before - g.undecided()) as u32;
                memo.record(row, col, value, n, self.prop.footprint());
                fixed.push(u64::from(n));
                survivors.push(g);
            }
        }
        let work = u64::from(values.count_ones()) * self.copy_work
            + (self.prop.line_solves - solves) * self.line_work;
        self.work_left = self.work_left.saturating_sub(work);
        before
    }

    /// Narrows every cell of `grid` to the union of its values in `children` (probe grids of
    /// one cell, together holding every solution below `grid`), then propagates, and tells
    /// `memo`. Returns how many cells were narrowed directly.
    fn narrow_to_union(
        &mut self,
        grid: &mut P::Grid,
        children: &[P::Grid],
        memo: &mut ProbeMemo<P::Grid>,
    ) -> Result<u64, Contradiction> {
        if children.is_empty() {
            return Err(Contradiction);
        }
        self.narrowed.clear();
        grid.common_narrowing(children, &mut self.narrowed);
        if self.narrowed.is_empty() {
            return Ok(0);
        }
        let old = grid.clone();
        for &(row, col, values) in &self.narrowed {
            grid.restrict(row, col, values).map_err(|_| Contradiction)?;
        }
        let cells = self.narrowed.iter().map(|&(r, c, _)| (r, c));
        self.prop.propagate_cells(self.puzzle, grid, cells)?;
        memo.changed(&old, grid);
        Ok(self.narrowed.len() as u64)
    }
}

/// The cells a round visits: every cell of `grid` row by row, or those of `scope`.
fn cells_in<G: DomainGrid>(
    grid: &G,
    scope: Option<&[(u32, u32)]>,
) -> Box<dyn Iterator<Item = (usize, usize)>> {
    let (height, width) = (grid.height(), grid.width());
    match scope {
        None => Box::new((0..height).flat_map(move |r| (0..width).map(move |c| (r, c)))),
        Some(cells) => Box::new(
            cells
                .iter()
                .map(|&(r, c)| (r as usize, c as usize))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
    }
}

/// Whether `memo` holds every value of `cell` (`values`); `fixed` gets (after being cleared)
/// how many cells each value fixed, as far as the memo goes.
#[inline]
fn remembered<P: Domain>(
    memo: &ProbeMemo<P::Grid>,
    (row, col): (usize, usize),
    values: u64,
    fixed: &mut Vec<u64>,
) -> bool {
    fixed.clear();
    each_value::<P>(values).all(|v| match memo.get(row, col, v) {
        Some(f) => {
            fixed.push(u64::from(f));
            true
        }
        None => false,
    })
}

/// Makes the probed `cell`, with the probe grids `survivors`, the best candidate if its
/// `score` beats the best so far; the beaten candidate's buffer then becomes `survivors`.
#[inline]
fn consider_probed<G>(
    best: &mut Option<Candidate<G>>,
    survivors: &mut Vec<G>,
    score: f64,
    cell: (usize, usize),
) {
    if best.as_ref().is_none_or(|b| score > b.score) {
        let children = Some(std::mem::take(survivors));
        let beaten = best.replace(Candidate {
            score,
            cell,
            children,
        });
        // Reuse the beaten candidate's buffer for the next cell's probes.
        if let Some(Candidate {
            children: Some(mut grids),
            ..
        }) = beaten
        {
            grids.clear();
            *survivors = grids;
        }
    }
}

/// Keeps `candidate` if it scores higher than the best so far (the first cell wins a tie).
fn consider<G>(best: &mut Option<Candidate<G>>, candidate: Candidate<G>) {
    if best.as_ref().is_none_or(|b| candidate.score > b.score) {
        *best = Some(candidate);
    }
}
