//! Choosing the colour branch, with or without probing.
//!
//! **Probing** tries every possible colour of every undecided cell, propagating each:
//! - colours that contradict leave the cell (if none is left, the node is dead);
//! - every cell is narrowed to the union of what the surviving probes left it, which is sound
//!   (each solution lies under one of them) and generalises "both values agree";
//! - rounds repeat until one changes nothing.
//!
//! The branch then gives the best cell each of its surviving colours: one child per colour,
//! its probe grid, so the subtrees are disjoint (exact counts) and cost no extra propagation.
//! The best cell maximises the geometric mean of `1 + cells fixed` over its children, which for
//! two colours orders cells as the black-and-white score `(1 + a) * (1 + b)` does.
//!
//! Without probing, the cell is the first undecided one of the line with the fewest undecided
//! cells, with a child per colour that does not contradict at once.

use super::grid::ColorGrid;
use super::memo::ColorMemo;
use super::propagate::ColorPropagator;
use super::puzzle::ColorPuzzle;
use crate::line::Contradiction;
use crate::puzzle::LineId;

/// What to do at a node whose grid is at a propagation fixpoint.
#[derive(Debug)]
pub enum ColorChoice {
    /// Every cell is decided: a solution.
    Solved,
    /// No solution below this node.
    Dead,
    /// Disjoint children, one per possible colour of the branching cell (each propagated;
    /// colours that contradict are left out).
    Branch {
        /// The branching cell.
        cell: (usize, usize),
        /// The children.
        children: Vec<ColorGrid>,
        /// Probe results the children can reuse (with probing).
        memo: Option<std::sync::Arc<ColorMemo>>,
    },
}

/// Counters for what probing did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColorProbeCounts {
    /// Propagations from a probed colour.
    pub probes: u64,
    /// Cells narrowed by probing.
    pub fixed: u64,
    /// Probes not run because the memo still held their result.
    pub reused: u64,
}

/// Narrows cell (`row`, `col`) of a copy of `grid` to `colors` and propagates.
fn try_colors(
    puzzle: &ColorPuzzle,
    grid: &ColorGrid,
    prop: &mut ColorPropagator,
    (row, col): (usize, usize),
    colors: u64,
) -> Result<ColorGrid, Contradiction> {
    let mut child = grid.clone();
    child.narrow(row, col, colors).map_err(|_| Contradiction)?;
    prop.propagate_cells(puzzle, &mut child, [(row, col)])?;
    Ok(child)
}

/// Picks the branch without probing.
pub fn choose_plain(
    puzzle: &ColorPuzzle,
    grid: &ColorGrid,
    prop: &mut ColorPropagator,
) -> ColorChoice {
    let Some(cell) = most_constrained_cell(grid) else {
        return ColorChoice::Solved;
    };
    let mut bits = grid.cell(cell.0, cell.1);
    let mut children = Vec::new();
    while bits != 0 {
        let bit = bits & bits.wrapping_neg();
        bits &= bits - 1;
        if let Ok(child) = try_colors(puzzle, grid, prop, cell, bit) {
            children.push(child);
        }
    }
    ColorChoice::Branch {
        cell,
        children,
        memo: None,
    }
}

/// The first undecided cell of the line with the fewest undecided cells.
fn most_constrained_cell(grid: &ColorGrid) -> Option<(usize, usize)> {
    let undecided = |c: u64| c.count_ones() > 1;
    let (h, w) = (grid.height(), grid.width());
    let rows = (0..h).map(|r| {
        let n = (0..w).filter(|&c| undecided(grid.cell(r, c))).count();
        (n, LineId::Row(r))
    });
    let cols = (0..w).map(|c| {
        let n = (0..h).filter(|&r| undecided(grid.cell(r, c))).count();
        (n, LineId::Col(c))
    });
    let (_, line) = rows
        .chain(cols)
        .filter(|&(n, _)| n > 0)
        .min_by_key(|&(n, _)| n)?;
    match line {
        LineId::Row(r) => (0..w).find(|&c| undecided(grid.cell(r, c))).map(|c| (r, c)),
        LineId::Col(c) => (0..h).find(|&r| undecided(grid.cell(r, c))).map(|r| (r, c)),
    }
}

/// The best branch of a round so far.
struct Candidate {
    score: f64,
    cell: (usize, usize),
    /// The surviving probe grids, one per colour; empty when the results came from the memo.
    children: Vec<ColorGrid>,
}

enum Round {
    Dead,
    Changed,
    Stable(Option<Candidate>),
}

/// Probes until a round changes nothing, then picks the branch. `inherited` is the parent's
/// memo: probes whose footprint the branch left unchanged are not run again.
pub fn choose_probing(
    puzzle: &ColorPuzzle,
    grid: &mut ColorGrid,
    prop: &mut ColorPropagator,
    counts: &mut ColorProbeCounts,
    inherited: Option<&ColorMemo>,
) -> ColorChoice {
    let mut memo = ColorMemo::inherit(inherited, grid);
    loop {
        match probe_round(puzzle, grid, prop, counts, &mut memo) {
            Round::Dead => return ColorChoice::Dead,
            Round::Changed => {}
            Round::Stable(None) => return ColorChoice::Solved,
            Round::Stable(Some(best)) if !best.children.is_empty() => {
                return ColorChoice::Branch {
                    cell: best.cell,
                    children: best.children,
                    memo: Some(std::sync::Arc::new(memo)),
                };
            }
            Round::Stable(Some(best)) => {
                // The best cell's results came from the memo: probe it for real.
                let mut bits = grid.cell(best.cell.0, best.cell.1);
                let mut children = Vec::new();
                let mut lost = 0;
                while bits != 0 {
                    let bit = bits & bits.wrapping_neg();
                    bits &= bits - 1;
                    counts.probes += 1;
                    match try_colors(puzzle, grid, prop, best.cell, bit) {
                        Ok(child) => children.push(child),
                        Err(_) => lost |= bit,
                    }
                }
                if lost == 0 && children.len() > 1 {
                    return ColorChoice::Branch {
                        cell: best.cell,
                        children,
                        memo: Some(std::sync::Arc::new(memo)),
                    };
                }
                // Only a stale memo entry could lead here; recover soundly.
                let (row, col) = best.cell;
                if grid.narrow(row, col, !lost).is_err()
                    || prop.propagate_cells(puzzle, grid, [(row, col)]).is_err()
                {
                    return ColorChoice::Dead;
                }
                memo.changed(grid);
            }
        }
    }
}

/// Narrows every cell of `grid` to `cells` (row-major); returns the cells that changed.
fn narrow_to(grid: &mut ColorGrid, cells: &[u64]) -> Result<Vec<(usize, usize)>, Contradiction> {
    let w = grid.width();
    let mut changed = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        let (r, col) = (i / w, i % w);
        if grid.narrow(r, col, c).map_err(|_| Contradiction)? {
            changed.push((r, col));
        }
    }
    Ok(changed)
}

fn probe_round(
    puzzle: &ColorPuzzle,
    grid: &mut ColorGrid,
    prop: &mut ColorPropagator,
    counts: &mut ColorProbeCounts,
    memo: &mut ColorMemo,
) -> Round {
    let mut changed = false;
    let mut best: Option<Candidate> = None;
    let (h, w) = (grid.height(), grid.width());
    let mut union = vec![0u64; h * w];
    for row in 0..h {
        for col in 0..w {
            let colors = grid.cell(row, col);
            if colors.count_ones() < 2 {
                continue;
            }
            let index = row * w + col;
            if let Some(fixed) = memo.get(index, colors) {
                counts.reused += u64::from(colors.count_ones());
                if !changed {
                    let score = mean_log(fixed.iter().map(|&f| u64::from(f)));
                    if best.as_ref().is_none_or(|b| score > b.score) {
                        best = Some(Candidate {
                            score,
                            cell: (row, col),
                            children: Vec::new(),
                        });
                    }
                }
                continue;
            }
            let before = grid.undecided_count();
            let mut survivors: Vec<(u64, ColorGrid)> = Vec::new();
            let mut footprint: Vec<u64> = Vec::new();
            let mut bits = colors;
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                bits &= bits - 1;
                counts.probes += 1;
                let result = try_colors(puzzle, grid, prop, (row, col), bit);
                if footprint.is_empty() {
                    footprint = prop.footprint().to_vec();
                } else {
                    for (f, &p) in footprint.iter_mut().zip(prop.footprint()) {
                        *f |= p;
                    }
                }
                if let Ok(g) = result {
                    survivors.push(((before - g.undecided_count()) as u64, g));
                }
            }
            match survivors.len() {
                0 => return Round::Dead,
                1 => {
                    let (_, only) = survivors.pop().expect("one survivor");
                    counts.fixed += (before - only.undecided_count()) as u64;
                    *grid = only;
                    memo.changed(grid);
                    changed = true;
                    best = None;
                    continue;
                }
                _ => {}
            }
            union.copy_from_slice(survivors[0].1.cells());
            for (_, g) in &survivors[1..] {
                for (u, &c) in union.iter_mut().zip(g.cells()) {
                    *u |= c;
                }
            }
            if union.as_slice() != grid.cells() {
                let narrowed = match narrow_to(grid, &union) {
                    Ok(cells) => cells,
                    Err(_) => return Round::Dead,
                };
                counts.fixed += narrowed.len() as u64;
                if prop.propagate_cells(puzzle, grid, narrowed).is_err() {
                    return Round::Dead;
                }
                memo.changed(grid);
                changed = true;
                best = None;
                continue;
            }
            if survivors.len() == colors.count_ones() as usize {
                let fixed = survivors.iter().map(|(f, _)| *f as u32).collect();
                memo.record(index, colors, fixed, footprint);
            }
            if changed {
                continue;
            }
            let score = mean_log(survivors.iter().map(|(f, _)| *f));
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Candidate {
                    score,
                    cell: (row, col),
                    children: survivors.into_iter().map(|(_, g)| g).collect(),
                });
            }
        }
    }
    if changed {
        Round::Changed
    } else {
        Round::Stable(best)
    }
}

/// The mean of `ln(1 + cells fixed)` over a cell's children (the log of their geometric mean):
/// for two colours, the same order as the black-and-white score `(1 + a) * (1 + b)`.
fn mean_log(fixed: impl ExactSizeIterator<Item = u64>) -> f64 {
    let m = fixed.len().max(1) as f64;
    fixed.map(|f| ((1 + f) as f64).ln()).sum::<f64>() / m
}
