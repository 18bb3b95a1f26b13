//! `count --per-cell`: in how many solutions each cell is filled (black and white), or has each
//! colour (colour), so that a puzzle maker sees where the ambiguity lies; counted by the library,
//! by profiles or (with [`CellCounts`]) while the solutions are enumerated, and written out here.

use std::io::{self, Write};

use nonoenum::{AnyPuzzle, BigUint, CellCounts, ColorPuzzle};

use crate::output::json::ColorCells;

/// Per-cell counts made without enumerating, as the library's counter gives them.
#[derive(Clone, Debug)]
pub(crate) enum Counts {
    /// Black and white: in how many solutions each cell is filled, row by row.
    Bw(Vec<Vec<BigUint>>),
    /// Colour: one grid of counts per palette index, the background first.
    Color(Vec<Vec<Vec<BigUint>>>),
}

impl Counts {
    /// The counts of an enumeration.
    pub(crate) fn enumerated(counts: &CellCounts) -> Self {
        match (counts.per_cell(), counts.per_colour()) {
            (Some(rows), _) => Counts::Bw(rows),
            (None, per_colour) => Counts::color(per_colour.unwrap_or_default()),
        }
    }

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

    /// Writes the counts as text: black and white as [`write_rows`] does, colour a grid per
    /// palette index, each after a line `NAME (CHAR):`, the background first.
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

    fn text(rows: &[Vec<u32>]) -> String {
        let rows: Vec<Vec<BigUint>> = rows
            .iter()
            .map(|row| row.iter().map(|&n| BigUint::from(n)).collect())
            .collect();
        let mut text = Vec::new();
        write_rows(&mut text, &rows).expect("writes");
        String::from_utf8(text).expect("utf-8")
    }

    #[test]
    fn writes_a_row_a_line() {
        assert_eq!(text(&[vec![2, 0, 1], vec![0, 1, 1]]), "2 0 1\n0 1 1\n");
    }

    #[test]
    fn aligns_numbers_of_different_widths() {
        assert_eq!(text(&[vec![10, 0]]), "10  0\n");
    }
}
