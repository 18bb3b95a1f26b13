//! `count --per-cell`: in how many solutions each cell is filled, so that a puzzle maker sees
//! where the ambiguity lies; tallied here while the solutions are enumerated, when the library
//! does not count them by profiles.

use std::io::{self, Write};

use nonoenum::count::BigUint;
use nonoenum::grid::{Cell, Grid};

/// Per-cell counts of filled cells over the solutions seen so far.
#[derive(Clone, Debug)]
pub(crate) struct CellTally {
    width: usize,
    filled: Vec<u64>,
}

impl CellTally {
    /// An empty tally for a grid of `height` x `width` cells.
    pub(crate) fn new(height: usize, width: usize) -> Self {
        CellTally {
            width,
            filled: vec![0; height * width],
        }
    }

    /// Adds one solution.
    pub(crate) fn add(&mut self, grid: &Grid) {
        for (r, row) in self.filled.chunks_mut(self.width).enumerate() {
            for (c, count) in row.iter_mut().enumerate() {
                if grid.cell(r, c) == Cell::Filled {
                    *count += 1;
                }
            }
        }
    }

    /// The counts, row by row.
    pub(crate) fn rows(&self) -> Vec<Vec<BigUint>> {
        self.filled
            .chunks(self.width)
            .map(|row| row.iter().map(|&n| BigUint::from(n)).collect())
            .collect()
    }

    /// Writes the counts as [`write_rows`] does.
    pub(crate) fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        write_rows(out, &self.rows())
    }
}

/// Writes per-cell counts as rows of right-aligned decimal numbers, one line a row.
pub(crate) fn write_rows(out: &mut impl Write, rows: &[Vec<BigUint>]) -> io::Result<()> {
    let text: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(ToString::to_string).collect())
        .collect();
    let width = text.iter().flatten().map(String::len).max().unwrap_or(1);
    for row in text {
        let cells: Vec<String> = row.iter().map(|n| format!("{n:>width$}")).collect();
        writeln!(out, "{}", cells.join(" "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let mut grid = Grid::new(rows.len(), rows[0].len());
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                grid.set(r, c, ch == '#').expect("unknown cell");
            }
        }
        grid
    }

    #[test]
    fn counts_filled_cells_over_solutions() {
        let mut tally = CellTally::new(2, 3);
        tally.add(&grid(&["#..", ".#."]));
        tally.add(&grid(&["#.#", "..#"]));
        let big = |row: [u8; 3]| row.map(BigUint::from).to_vec();
        assert_eq!(tally.rows(), [big([2, 0, 1]), big([0, 1, 1])]);
        let mut text = Vec::new();
        tally.write_text(&mut text).expect("writes");
        assert_eq!(String::from_utf8(text).expect("utf-8"), "2 0 1\n0 1 1\n");
    }

    #[test]
    fn aligns_numbers_of_different_widths() {
        let mut tally = CellTally::new(1, 2);
        for _ in 0..10 {
            tally.add(&grid(&["#."]));
        }
        let mut text = Vec::new();
        tally.write_text(&mut text).expect("writes");
        assert_eq!(String::from_utf8(text).expect("utf-8"), "10  0\n");
    }
}
