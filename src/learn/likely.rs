//! The first phase of each black-and-white cell: the value most of the placements of its row and
//! of its column give it, so the search's first dive heads towards a likely grid rather than an
//! empty one.
//!
//! Each line's placements (those that agree with the cells known at the root) are counted by a
//! dynamic program, forwards and backwards, and each cell gets the share of them that fill it.
//! A cell's row and column are taken as independent witnesses: it starts filled when
//! `p_row * p_col > (1 - p_row) * (1 - p_col)`.

use crate::grid::{Cell, Grid};
use crate::puzzle::{LineId, Puzzle};

/// Lines' `(blocks + 1) x (length + 1)` summed over the grid, above which no first phases are
/// computed (cells start empty, as without them). A random 500x500 picture comes to 63 million
/// and took 0.8 s on the 2-core machine under load; this bound keeps the cost to a fifth of
/// that, and lets through a random 250x250 picture (8 million).
const WORK_LIMIT: usize = 1 << 24;

/// The starting phase of every cell of `root` (row-major, `true`: filled): known cells keep
/// their value. `None` when the grid's lines are too many and too long for the bound above.
pub(super) fn likely_phases(puzzle: &Puzzle, root: &Grid) -> Option<Vec<bool>> {
    let (height, width) = (root.height(), root.width());
    let work: usize = (0..height)
        .map(|row| (LineId::Row(row), width))
        .chain((0..width).map(|col| (LineId::Col(col), height)))
        .map(|(line, len)| (puzzle.clue(line).blocks().len() + 1) * (len + 1))
        .sum();
    if work > WORK_LIMIT {
        return None;
    }

    let mut rows = vec![0.5; height * width];
    let mut cells = Vec::new();
    for row in 0..height {
        cells.clear();
        cells.extend((0..width).map(|col| root.cell(row, col)));
        let share = fill_shares(puzzle.clue(LineId::Row(row)).blocks(), &cells);
        rows[row * width..(row + 1) * width].copy_from_slice(&share);
    }
    let mut phases = vec![false; height * width];
    for col in 0..width {
        cells.clear();
        cells.extend((0..height).map(|row| root.cell(row, col)));
        let share = fill_shares(puzzle.clue(LineId::Col(col)).blocks(), &cells);
        for (row, &p_col) in share.iter().enumerate() {
            let p_row = rows[row * width + col];
            phases[row * width + col] = p_row * p_col > (1.0 - p_row) * (1.0 - p_col);
        }
    }
    Some(phases)
}

/// For each cell of a line with clue `blocks` and cells `cells`, the share of the line's
/// placements that fill it; 0.5 everywhere when the counts overflow or there is no placement.
fn fill_shares(blocks: &[u32], cells: &[Cell]) -> Vec<f64> {
    let len = cells.len();
    let k = blocks.len();
    // empty_before[i]: the empty cells among cells 0..i.
    let mut empty_before = Vec::with_capacity(len + 1);
    empty_before.push(0usize);
    for &cell in cells {
        empty_before.push(empty_before[empty_before.len() - 1] + usize::from(cell == Cell::Empty));
    }
    let can_fill = |from: usize, to: usize| empty_before[to] == empty_before[from];
    let mut counts = Counts {
        cells,
        stride: len + 1,
        blocks: k,
        before: vec![0.0; (k + 1) * (len + 1)],
        after: vec![0.0; (k + 1) * (len + 1)],
    };
    let stride = counts.stride;
    // Blocks 0..j in cells 0..i: cell i - 1 empty, or block j - 1 ending there.
    for j in 0..=k {
        for i in 0..=len {
            let mut ways = if i == 0 {
                f64::from(u8::from(j == 0))
            } else if counts.can_empty(i - 1) {
                counts.before[j * stride + i - 1]
            } else {
                0.0
            };
            if j >= 1 && i >= 1 {
                let block = blocks[j - 1] as usize;
                if i >= block && can_fill(i - block, i) {
                    ways += counts.lead_in(j - 1, i - block);
                }
            }
            counts.before[j * stride + i] = ways;
        }
    }
    // Blocks j.. in cells i..len: cell i empty, or block j starting there.
    for j in (0..=k).rev() {
        for i in (0..=len).rev() {
            let mut ways = if i == len {
                f64::from(u8::from(j == k))
            } else if counts.can_empty(i) {
                counts.after[j * stride + i + 1]
            } else {
                0.0
            };
            if j < k && i < len {
                let end = i + blocks[j] as usize;
                if end <= len && can_fill(i, end) {
                    ways += counts.lead_out(j, end);
                }
            }
            counts.after[j * stride + i] = ways;
        }
    }
    let total = counts.before[k * stride + len];
    if !(total.is_finite() && total > 0.0) {
        return vec![0.5; len];
    }
    // A difference array of the placements' weight over the cells they fill.
    let mut cover = vec![0.0f64; len + 1];
    for (j, &block) in blocks.iter().enumerate() {
        let block = block as usize;
        for start in 0..=len.saturating_sub(block) {
            let end = start + block;
            if can_fill(start, end) {
                let weight = counts.lead_in(j, start) * counts.lead_out(j, end);
                cover[start] += weight;
                cover[end] -= weight;
            }
        }
    }
    let mut running = 0.0;
    cover[..len]
        .iter()
        .map(|&d| {
            running += d;
            (running / total).clamp(0.0, 1.0)
        })
        .collect()
}

/// The placement counts of one line, forwards and backwards.
struct Counts<'a> {
    cells: &'a [Cell],
    /// Line length + 1.
    stride: usize,
    /// The clue's number of blocks.
    blocks: usize,
    /// `before[j * stride + i]`: placements of blocks `0..j` in cells `0..i`, the rest of them
    /// empty.
    before: Vec<f64>,
    /// `after[j * stride + i]`: placements of blocks `j..` in cells `i..`, the rest of them
    /// empty.
    after: Vec<f64>,
}

impl Counts<'_> {
    fn can_empty(&self, i: usize) -> bool {
        self.cells[i] != Cell::Filled
    }

    /// Placements of blocks `0..j` before block `j` starting at `start` (with the cell before
    /// it empty).
    fn lead_in(&self, j: usize, start: usize) -> f64 {
        if j == 0 {
            self.before[start]
        } else if start >= 1 && self.can_empty(start - 1) {
            self.before[j * self.stride + start - 1]
        } else {
            0.0
        }
    }

    /// Placements of blocks `j + 1..` after block `j` ending at `end` (with the cell after it
    /// empty).
    fn lead_out(&self, j: usize, end: usize) -> f64 {
        if j + 1 == self.blocks {
            self.after[self.blocks * self.stride + end]
        } else if end < self.stride - 1 && self.can_empty(end) {
            self.after[(j + 1) * self.stride + end + 1]
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(len: usize) -> Vec<Cell> {
        vec![Cell::Unknown; len]
    }

    #[test]
    fn phases_follow_rows_and_columns() {
        // Rows `2` and `0`, columns `1` and `1`: only the top row is filled.
        let puzzle = Puzzle::from_picture(2, 2, &[true, true, false, false]).expect("a picture");
        let root = Grid::new(2, 2);
        assert_eq!(
            likely_phases(&puzzle, &root),
            Some(vec![true, true, false, false])
        );
    }

    #[test]
    fn shares_count_placements() {
        // Clue 2 in 3 cells: placements ##. and .##.
        assert_eq!(fill_shares(&[2], &unknown(3)), vec![0.5, 1.0, 0.5]);
        // Clue 1 1 in 4 cells: #.#. #..# .#.# : cells filled 2, 1, 1, 2 of 3.
        let shares = fill_shares(&[1, 1], &unknown(4));
        let expected = [2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0];
        for (s, e) in shares.iter().zip(expected) {
            assert!((s - e).abs() < 1e-12, "{shares:?}");
        }
        // An empty clue fills nothing.
        assert_eq!(fill_shares(&[], &unknown(3)), vec![0.0; 3]);
    }

    #[test]
    fn shares_respect_known_cells() {
        // Clue 1 in 3 cells with the last one filled: only ..#.
        let mut cells = unknown(3);
        cells[2] = Cell::Filled;
        assert_eq!(fill_shares(&[1], &cells), vec![0.0, 0.0, 1.0]);
        // No placement at all: no opinion.
        cells[0] = Cell::Filled;
        assert_eq!(fill_shares(&[1], &cells), vec![0.5; 3]);
    }

    #[test]
    fn shares_match_brute_force() {
        let mut rng = crate::rng::SplitMix(7);
        for _ in 0..300 {
            let len = 1 + rng.below(10);
            let cells: Vec<Cell> = (0..len)
                .map(|_| match rng.below(5) {
                    0 => Cell::Filled,
                    1 => Cell::Empty,
                    _ => Cell::Unknown,
                })
                .collect();
            let line: Vec<bool> = (0..len).map(|_| rng.chance(1, 2)).collect();
            let blocks = crate::puzzle::blocks_of(line.iter().copied());
            let mut filled = vec![0u32; len];
            let mut total = 0u32;
            for mask in 0..1u32 << len {
                let candidate: Vec<bool> = (0..len).map(|i| mask >> i & 1 == 1).collect();
                let agrees = candidate.iter().zip(&cells).all(|(&f, &c)| match c {
                    Cell::Filled => f,
                    Cell::Empty => !f,
                    Cell::Unknown => true,
                });
                if agrees && crate::puzzle::blocks_of(candidate.iter().copied()) == blocks {
                    total += 1;
                    for (i, &f) in candidate.iter().enumerate() {
                        filled[i] += u32::from(f);
                    }
                }
            }
            let shares = fill_shares(&blocks, &cells);
            for i in 0..len {
                let expected = if total == 0 {
                    0.5
                } else {
                    f64::from(filled[i]) / f64::from(total)
                };
                assert!(
                    (shares[i] - expected).abs() < 1e-9,
                    "{blocks:?} {cells:?}: {shares:?}"
                );
            }
        }
    }
}
