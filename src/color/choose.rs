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
    },
}

/// Counters for what probing did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColorProbeCounts {
    /// Propagations from a probed colour.
    pub probes: u64,
    /// Cells narrowed by probing.
    pub fixed: u64,
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
    ColorChoice::Branch { cell, children }
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
    /// The surviving probe grids, one per colour.
    children: Vec<ColorGrid>,
}

enum Round {
    Dead,
    Changed,
    Stable(Option<Candidate>),
}

/// Probes until a round changes nothing, then picks the branch.
pub fn choose_probing(
    puzzle: &ColorPuzzle,
    grid: &mut ColorGrid,
    prop: &mut ColorPropagator,
    counts: &mut ColorProbeCounts,
) -> ColorChoice {
    loop {
        match probe_round(puzzle, grid, prop, counts) {
            Round::Dead => return ColorChoice::Dead,
            Round::Changed => {}
            Round::Stable(None) => return ColorChoice::Solved,
            Round::Stable(Some(best)) => {
                return ColorChoice::Branch {
                    cell: best.cell,
                    children: best.children,
                };
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
            let before = grid.undecided_count();
            let mut survivors: Vec<(u64, ColorGrid)> = Vec::new();
            let mut bits = colors;
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                bits &= bits - 1;
                counts.probes += 1;
                if let Ok(g) = try_colors(puzzle, grid, prop, (row, col), bit) {
                    survivors.push(((before - g.undecided_count()) as u64, g));
                }
            }
            match survivors.len() {
                0 => return Round::Dead,
                1 => {
                    let (_, only) = survivors.pop().expect("one survivor");
                    counts.fixed += (before - only.undecided_count()) as u64;
                    *grid = only;
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
                changed = true;
                best = None;
                continue;
            }
            if changed {
                continue;
            }
            // The geometric mean of (1 + cells fixed) over the children: for two colours,
            // the same order as the black-and-white score (1 + a) * (1 + b).
            let m = survivors.len() as f64;
            let score = survivors
                .iter()
                .map(|(f, _)| ((1 + f) as f64).ln())
                .sum::<f64>()
                / m;
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
