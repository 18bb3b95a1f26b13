//! `count --per-cell`: in how many solutions each cell is filled (black and white), or has each
//! colour (colour), so that a puzzle maker sees where the ambiguity lies; tallied here while the
//! solutions are enumerated, when the library does not count them by profiles, and written out
//! either way.

use std::io::{self, Write};

use nonoenum::count::BigUint;
use nonoenum::grid::{Cell, Grid};
use nonoenum::{AnyGrid, AnyPuzzle, ColorGrid, ColorPuzzle};

use crate::output::json::ColorCells;

/// A tally of either kind of puzzle.
#[derive(Clone, Debug)]
pub(crate) enum Tally {
    Bw(CellTally),
    Color(ColorTally),
}

impl Tally {
    /// An empty tally for `puzzle`.
    pub(crate) fn new(puzzle: &AnyPuzzle) -> Self {
        match puzzle {
            AnyPuzzle::Bw(p) => Tally::Bw(CellTally::new(p.height(), p.width())),
            AnyPuzzle::Color(p) => Tally::Color(ColorTally::new(p)),
        }
    }

    /// Adds one solution.
    pub(crate) fn add(&mut self, picture: AnyGrid<'_>) {
        match (self, picture) {
            (Tally::Bw(t), AnyGrid::Bw(grid)) => t.add(grid),
            (Tally::Color(t), AnyGrid::Color(grid, _)) => t.add(grid),
            _ => {}
        }
    }

    /// The black-and-white counts, for the `per_cell` field of `--to json`.
    pub(crate) fn per_cell(&self) -> Option<Vec<Vec<BigUint>>> {
        match self {
            Tally::Bw(t) => Some(t.rows()),
            Tally::Color(_) => None,
        }
    }

    /// The colour counts, for the `per_color` field of `--to json`.
    pub(crate) fn per_color(&self, puzzle: &AnyPuzzle) -> Option<Vec<ColorCells>> {
        match (self, puzzle) {
            (Tally::Color(t), AnyPuzzle::Color(p)) => Some(color_json(&t.grids(), p)),
            _ => None,
        }
    }

    /// Writes the counts as text: black and white as [`write_rows`] does, colour a grid per
    /// palette index, each after a line `NAME (CHAR):`, the background first.
    pub(crate) fn write_text(&self, out: &mut impl Write, puzzle: &AnyPuzzle) -> io::Result<()> {
        match (self, puzzle) {
            (Tally::Bw(t), _) => t.write_text(out),
            (Tally::Color(t), AnyPuzzle::Color(p)) => write_color_text(out, &t.grids(), p),
            (Tally::Color(_), AnyPuzzle::Bw(_)) => Ok(()),
        }
    }
}

/// Per-cell, per-colour counts over the colour solutions seen so far.
#[derive(Clone, Debug)]
pub(crate) struct ColorTally {
    width: usize,
    colors: usize,
    /// Cell by cell, row-major, one count per palette index.
    counts: Vec<u64>,
}

impl ColorTally {
    /// An empty tally for `puzzle`'s grid and palette.
    pub(crate) fn new(puzzle: &ColorPuzzle) -> Self {
        let colors = puzzle.colors.len();
        ColorTally {
            width: puzzle.width(),
            colors,
            counts: vec![0; puzzle.height() * puzzle.width() * colors],
        }
    }

    /// Adds one solution (every cell decided).
    pub(crate) fn add(&mut self, grid: &ColorGrid) {
        for (i, cell) in self.counts.chunks_mut(self.colors).enumerate() {
            let color = grid.cell(i / self.width, i % self.width).trailing_zeros() as usize;
            if let Some(count) = cell.get_mut(color) {
                *count += 1;
            }
        }
    }

    /// The counts of palette index `color`, row by row.
    pub(crate) fn rows(&self, color: usize) -> Vec<Vec<BigUint>> {
        let cells: Vec<BigUint> = self
            .counts
            .chunks(self.colors)
            .map(|cell| BigUint::from(cell[color]))
            .collect();
        cells.chunks(self.width).map(<[BigUint]>::to_vec).collect()
    }

    /// The counts, one grid per palette index, the background first.
    fn grids(&self) -> Vec<Vec<Vec<BigUint>>> {
        (0..self.colors).map(|i| self.rows(i)).collect()
    }
}

/// Per-cell counts made without enumerating, as the library's counter gives them.
#[derive(Clone, Debug)]
pub(crate) enum Counts {
    /// Black and white: in how many solutions each cell is filled, row by row.
    Bw(Vec<Vec<BigUint>>),
    /// Colour: one grid of counts per palette index, the background first.
    Color(Vec<Vec<Vec<BigUint>>>),
}

impl Counts {
    /// The library's colour counts (row, cell, palette index) as one grid per palette index.
    pub(crate) fn color(per_colour: Vec<Vec<Vec<BigUint>>>) -> Self {
        let colors = per_colour
            .first()
            .and_then(|row| row.first())
            .map_or(0, Vec::len);
        let grids = (0..colors)
            .map(|i| {
                per_colour
                    .iter()
                    .map(|row| {
                        row.iter()
                            .map(|cell| cell.get(i).cloned().unwrap_or_default())
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Counts::Color(grids)
    }

    /// The black-and-white counts, for the `per_cell` field of `--to json`.
    pub(crate) fn per_cell(&self) -> Option<Vec<Vec<BigUint>>> {
        match self {
            Counts::Bw(rows) => Some(rows.clone()),
            Counts::Color(_) => None,
        }
    }

    /// The colour counts, for the `per_color` field of `--to json`.
    pub(crate) fn per_color(&self, puzzle: &AnyPuzzle) -> Option<Vec<ColorCells>> {
        match (self, puzzle) {
            (Counts::Color(grids), AnyPuzzle::Color(p)) => Some(color_json(grids, p)),
            _ => None,
        }
    }

    /// Writes the counts as text, as [`Tally::write_text`] does.
    pub(crate) fn write_text(&self, out: &mut impl Write, puzzle: &AnyPuzzle) -> io::Result<()> {
        match (self, puzzle) {
            (Counts::Bw(rows), _) => write_rows(out, rows),
            (Counts::Color(grids), AnyPuzzle::Color(p)) => write_color_text(out, grids, p),
            (Counts::Color(_), AnyPuzzle::Bw(_)) => Ok(()),
        }
    }
}

/// Colour counts (one grid per palette index) as `--to json` writes them, the background
/// first.
fn color_json(grids: &[Vec<Vec<BigUint>>], puzzle: &ColorPuzzle) -> Vec<ColorCells> {
    puzzle
        .colors
        .iter()
        .zip(grids)
        .map(|(color, rows)| ColorCells {
            color: color.name.clone(),
            char: color.ch.to_string(),
            rows: rows
                .iter()
                .map(|row| row.iter().map(ToString::to_string).collect())
                .collect(),
        })
        .collect()
}

/// Writes, for each colour of the palette (the background first), a line `NAME (CHAR):` and
/// then its grid of counts as [`write_rows`] does.
fn write_color_text(
    out: &mut impl Write,
    grids: &[Vec<Vec<BigUint>>],
    puzzle: &ColorPuzzle,
) -> io::Result<()> {
    for (color, rows) in puzzle.colors.iter().zip(grids) {
        writeln!(out, "{} ({}):", color.name, color.ch)?;
        write_rows(out, rows)?;
    }
    Ok(())
}

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
