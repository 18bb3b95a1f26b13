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
        /// The child with the branching cell filled, or the contradiction propagation found.
        filled: Result<Grid, Contradiction>,
        /// The child with the branching cell empty, or the contradiction propagation found.
        empty: Result<Grid, Contradiction>,
    },
}

/// Counters for what probing did, to add to the search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeCounts {
    /// Propagations from a probed value.
    pub probes: u64,
    /// Cells fixed by probing (a refuted value, or agreement of both values).
    pub fixed: u64,
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
        filled: try_value(puzzle, grid, prop, row, col, true),
        empty: try_value(puzzle, grid, prop, row, col, false),
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
pub fn choose_probing(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    counts: &mut ProbeCounts,
) -> Choice {
    loop {
        match probe_round(puzzle, grid, prop, counts) {
            Round::Dead => return Choice::Dead,
            Round::Changed => {}
            Round::Stable(None) => return Choice::Solved,
            Round::Stable(Some((filled, empty))) => {
                return Choice::Branch {
                    filled: Ok(filled),
                    empty: Ok(empty),
                };
            }
        }
    }
}

enum Round {
    Dead,
    Changed,
    /// Nothing changed; the best branching pair, if any cell is unknown.
    Stable(Option<(Grid, Grid)>),
}

fn probe_round(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    counts: &mut ProbeCounts,
) -> Round {
    let mut changed = false;
    let mut best: Option<(u64, Grid, Grid)> = None;
    for row in 0..grid.height() {
        for col in 0..grid.width() {
            if grid.cell(row, col) != crate::grid::Cell::Unknown {
                continue;
            }
            counts.probes += 2;
            let before = grid.unknown_count();
            let filled = try_value(puzzle, grid, prop, row, col, true);
            let empty = try_value(puzzle, grid, prop, row, col, false);
            match (filled, empty) {
                (Err(_), Err(_)) => return Round::Dead,
                (Ok(only), Err(_)) | (Err(_), Ok(only)) => {
                    counts.fixed += (before - only.unknown_count()) as u64;
                    *grid = only;
                    changed = true;
                    best = None;
                }
                (Ok(f), Ok(e)) => match fix_agreement(puzzle, grid, prop, &f, &e) {
                    Err(_) => return Round::Dead,
                    Ok(0) if !changed => {
                        let score = (1 + (before - f.unknown_count()) as u64)
                            * (1 + (before - e.unknown_count()) as u64);
                        if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
                            best = Some((score, f, e));
                        }
                    }
                    Ok(n) => {
                        counts.fixed += n;
                        changed |= n > 0;
                    }
                },
            }
        }
    }
    if changed {
        Round::Changed
    } else {
        Round::Stable(best.map(|(_, f, e)| (f, e)))
    }
}

/// Fixes in `grid` every cell that both probe results fixed the same way, then propagates.
/// Returns how many cells were fixed directly.
fn fix_agreement(
    puzzle: &Puzzle,
    grid: &mut Grid,
    prop: &mut Propagator,
    a: &Grid,
    b: &Grid,
) -> Result<u64, Contradiction> {
    let mut fixed = Vec::new();
    for row in 0..grid.height() {
        let (gf, ge) = grid.line(LineId::Row(row));
        let (af, ae) = a.line(LineId::Row(row));
        let (bf, be) = b.line(LineId::Row(row));
        for w in 0..gf.len() {
            let both_filled = af[w] & bf[w] & !gf[w];
            let both_empty = ae[w] & be[w] & !ge[w];
            for (mut bits, filled) in [(both_filled, true), (both_empty, false)] {
                while bits != 0 {
                    fixed.push((row, w * 64 + bits.trailing_zeros() as usize, filled));
                    bits &= bits - 1;
                }
            }
        }
    }
    for &(row, col, filled) in &fixed {
        grid.set_unknown(row, col, filled);
    }
    if !fixed.is_empty() {
        prop.propagate_cells(puzzle, grid, fixed.iter().map(|&(r, c, _)| (r, c)))?;
    }
    Ok(fixed.len() as u64)
}
