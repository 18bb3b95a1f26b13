//! Choosing the branching cell, with or without probing.
//!
//! **Probing** (the default) tries both values of every unknown cell, propagating each:
//! - if one value contradicts, the cell takes the other (and everything it implies);
//! - if both contradict, the node is dead;
//! - cells that both values fix the same way are fixed outright.
//!
//! The rounds repeat until one changes nothing. The branching cell is then the one whose two
//! probes fixed the most cells, scored `(1 + fixed_if_filled) * (1 + fixed_if_empty)`, which
//! favours cells whose both branches shrink the problem. Its two propagated probe grids become
//! the children directly, so a branch costs no extra propagation.
//!
//! Without probing, the branching cell is the first unknown cell of the line (row or column)
//! with the fewest unknown cells: the most constrained line, where a guess is most often right
//! or quickly refuted.

mod memo;

use std::sync::Arc;

pub use memo::{ProbeMemo, SealedMemo};

use crate::grid::Grid;
use crate::line::Contradiction;
use crate::propagate::Propagator;
use crate::puzzle::{LineId, Puzzle};

/// What to do at a search node, whose grid is at a propagation fixpoint.
#[derive(Debug)]
pub enum Choice {
    /// No unknown cell is left: the grid is a solution.
    Solved,
    /// The node has no solution.
    Dead,
    /// Branch: the two propagated children, for the cell filled and for it empty.
    Branch {
        /// The branching cell, `(row, col)`.
        cell: (usize, usize),
        /// The child with the branching cell filled, or the contradiction propagation found.
        filled: Result<Grid, Contradiction>,
        /// The child with the branching cell empty, or the contradiction propagation found.
        empty: Result<Grid, Contradiction>,
        /// Probe results that the children can reuse (with probing).
        memo: Option<Arc<SealedMemo>>,
    },
}

/// Counters for what probing did, to add to the search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeCounts {
    /// Propagations from a probed value.
    pub probes: u64,
    /// Cells fixed by probing (a refuted value, or agreement of both values).
    pub fixed: u64,
    /// Probes not run because the [`ProbeMemo`] still held their result.
    pub reused: u64,
}

/// Sets one cell of a copy of `grid` and propagates.
fn try_value(
    puzzle: &Puzzle,
    grid: &Grid,
    prop: &mut Propagator,
    row: usize,
    col: usize,
    filled: bool,
) -> Result<Grid, Contradiction> {
    let mut child = grid.clone();
    child.set_unknown(row, col, filled);
    prop.propagate_cell(puzzle, &mut child, row, col)?;
    Ok(child)
}

/// Picks the branching cell without probing and builds the two children.
pub fn choose_plain(puzzle: &Puzzle, grid: &Grid, prop: &mut Propagator) -> Choice {
    let Some((row, col)) = most_constrained_cell(grid) else {
        return Choice::Solved;
    };
    Choice::Branch {
        cell: (row, col),
        filled: try_value(puzzle, grid, prop, row, col, true),
        empty: try_value(puzzle, grid, prop, row, col, false),
        memo: None,
    }
}

/// The first unknown cell of the line with the fewest unknown cells.
fn most_constrained_cell(grid: &Grid) -> Option<(usize, usize)> {
    let unknown_in = |line: LineId| {
        let (f, e) = grid.line(line);
        let known: u32 = f.iter().zip(e).map(|(f, e)| (f | e).count_ones()).sum();
        grid.line_len(line) - known as usize
    };
    let rows = (0..grid.height()).map(LineId::Row);
    let cols = (0..grid.width()).map(LineId::Col);
    let line = rows
        .chain(cols)
        .map(|l| (unknown_in(l), l))
        .filter(|&(n, _)| n > 0)
        .min_by_key(|&(n, _)| n)?
        .1;
    let len = grid.line_len(line);
    let (f, e) = grid.line(line);
    let i = (0..len).find(|&i| (f[i / 64] | e[i / 64]) >> (i % 64) & 1 == 0)?;
    Some(match line {
        LineId::Row(r) => (r, i),
        LineId::Col(c) => (i, c),
    })
}

/// Probes every unknown cell until a round changes nothing, then picks the branching cell.
/// `inherited` is the parent node's memo: probes whose footprint the branch left unchanged
/// are not run again.
pub fn choose_probing(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    counts: &mut ProbeCounts,
    inherited: Option<&SealedMemo>,
) -> Choice {
    choose_probing_among(puzzle, grid, prop, counts, inherited, None)
}

/// [`choose_probing`] restricted to `cells` (all unknown cells if `None`): only they are
/// probed and branched on, and [`Choice::Solved`] means none of them is unknown. For a set of
/// cells that does not interact with the rest of the grid, such as a component of the exact
/// counter.
pub fn choose_probing_among(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    counts: &mut ProbeCounts,
    inherited: Option<&SealedMemo>,
    cells: Option<&[(u32, u32)]>,
) -> Choice {
    let mut memo = ProbeMemo::inherit(inherited, grid);
    loop {
        match probe_round(puzzle, grid, prop, counts, &mut memo, cells) {
            Round::Dead => return Choice::Dead,
            Round::Changed => {}
            Round::Stable(None) => return Choice::Solved,
            Round::Stable(Some(best)) => {
                let (filled, empty) = match best.grids {
                    Some(grids) => grids,
                    None => {
                        // The best cell's results came from the memo: probe it for real.
                        let (row, col) = best.cell;
                        counts.probes += 2;
                        match (
                            try_value(puzzle, grid, prop, row, col, true),
                            try_value(puzzle, grid, prop, row, col, false),
                        ) {
                            (Ok(f), Ok(e)) => (f, e),
                            // Only a stale memo entry could lead here; recover soundly.
                            (Err(_), Err(_)) => return Choice::Dead,
                            (Ok(only), Err(_)) | (Err(_), Ok(only)) => {
                                memo.changed(grid, &only);
                                *grid = only;
                                continue;
                            }
                        }
                    }
                };
                let memo = memo.seal(grid, &[&filled, &empty]);
                return Choice::Branch {
                    cell: best.cell,
                    filled: Ok(filled),
                    empty: Ok(empty),
                    memo: Some(memo),
                };
            }
        }
    }
}

/// The best branching cell of a round: its score, and its two probe grids unless its
/// results came from the memo.
struct Candidate {
    score: u64,
    cell: (usize, usize),
    grids: Option<(Grid, Grid)>,
}

enum Round {
    Dead,
    Changed,
    /// Nothing changed; the best branching cell, if any cell is unknown.
    Stable(Option<Candidate>),
}

fn probe_round(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    counts: &mut ProbeCounts,
    memo: &mut ProbeMemo,
    scope: Option<&[(u32, u32)]>,
) -> Round {
    let mut changed = false;
    let mut best: Option<Candidate> = None;
    let (height, width) = (grid.height(), grid.width());
    let every_cell = || (0..height).flat_map(|r| (0..width).map(move |c| (r, c)));
    let listed = |cells: &'_ [(u32, u32)]| {
        cells
            .iter()
            .map(|&(r, c)| (r as usize, c as usize))
            .collect::<Vec<_>>()
    };
    let cells: Box<dyn Iterator<Item = (usize, usize)>> = match scope {
        None => Box::new(every_cell()),
        Some(cells) => Box::new(listed(cells).into_iter()),
    };
    for (row, col) in cells {
        if grid.cell(row, col) != crate::grid::Cell::Unknown {
            continue;
        }
        if let (Some(a), Some(b)) = (memo.get(row, col, true), memo.get(row, col, false)) {
            // Both values are consistent and agree on nothing, as when they were probed.
            counts.reused += 2;
            if !changed {
                let score = branch_score(a.into(), b.into());
                let cell = (row, col);
                consider(
                    &mut best,
                    Candidate {
                        score,
                        cell,
                        grids: None,
                    },
                );
            }
            continue;
        }
        counts.probes += 2;
        let before = grid.unknown_count();
        let mut probe = |filled: bool| {
            let result = try_value(puzzle, grid, prop, row, col, filled);
            if let Ok(g) = &result {
                let fixed = (before - g.unknown_count()) as u32;
                memo.record(row, col, filled, fixed, prop.footprint());
            }
            result
        };
        let filled = probe(true);
        let empty = probe(false);
        match (filled, empty) {
            (Err(_), Err(_)) => return Round::Dead,
            (Ok(only), Err(_)) | (Err(_), Ok(only)) => {
                counts.fixed += (before - only.unknown_count()) as u64;
                memo.changed(grid, &only);
                *grid = only;
                changed = true;
                best = None;
            }
            (Ok(f), Ok(e)) => match fix_agreement(puzzle, grid, prop, memo, &f, &e) {
                Err(_) => return Round::Dead,
                Ok(0) if !changed => {
                    let score = branch_score(
                        (before - f.unknown_count()) as u64,
                        (before - e.unknown_count()) as u64,
                    );
                    let cell = (row, col);
                    consider(
                        &mut best,
                        Candidate {
                            score,
                            cell,
                            grids: Some((f, e)),
                        },
                    );
                }
                Ok(0) => {}
                Ok(n) => {
                    counts.fixed += n;
                    changed = true;
                }
            },
        }
    }
    if changed {
        Round::Changed
    } else {
        Round::Stable(best)
    }
}

/// Keeps `candidate` if it scores higher than the best so far (the first cell wins a tie).
fn consider(best: &mut Option<Candidate>, candidate: Candidate) {
    if best.as_ref().is_none_or(|b| candidate.score > b.score) {
        *best = Some(candidate);
    }
}

/// The branching score of a cell whose probes fixed `a` cells (filled) and `b` (empty).
fn branch_score(a: u64, b: u64) -> u64 {
    (1 + a) * (1 + b)
}

/// Fixes in `grid` every cell that both probe results fixed the same way, then propagates.
/// Returns how many cells were fixed directly.
fn fix_agreement(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    memo: &mut ProbeMemo,
    a: &Grid,
    b: &Grid,
) -> Result<u64, Contradiction> {
    let (gf, ge) = grid.row_planes();
    let (af, ae) = a.row_planes();
    let (bf, be) = b.row_planes();
    // Cells both probes fixed the same way that the grid leaves unknown, word by word.
    let agreed = |w: usize| (af[w] & bf[w] & !gf[w], ae[w] & be[w] & !ge[w]);
    if (0..gf.len()).all(|w| agreed(w) == (0, 0)) {
        return Ok(0);
    }
    let row_words = gf.len() / grid.height().max(1);
    let mut fixed = Vec::new();
    for w in 0..gf.len() {
        let (both_filled, both_empty) = agreed(w);
        let (row, first_col) = (w / row_words, w % row_words * 64);
        for (mut bits, filled) in [(both_filled, true), (both_empty, false)] {
            while bits != 0 {
                fixed.push((row, first_col + bits.trailing_zeros() as usize, filled));
                bits &= bits - 1;
            }
        }
    }
    if fixed.is_empty() {
        return Ok(0);
    }
    let old = grid.clone();
    for &(row, col, filled) in &fixed {
        grid.set_unknown(row, col, filled);
    }
    prop.propagate_cells(puzzle, grid, fixed.iter().map(|&(r, c, _)| (r, c)))?;
    memo.changed(&old, grid);
    Ok(fixed.len() as u64)
}
