//! Per-cell counts as a result: [`PerCell`] holds them for either palette, whichever way they
//! were counted (by profiles, [`ExactOutcome`], or while enumerating, [`CellCounts`]), and
//! writes them as text or into a [`RunResult`], as `count --per-cell` prints them.

use std::io::{self, Write};

use num_bigint::BigUint;

use super::{CellCounts, ColorCells, ExactOutcome, RunResult};
use crate::color::{AnyPuzzle, ColorPuzzle};

/// Per-cell counts: in how many solutions each cell is filled (black and white) or has each
/// colour (colour).
///
/// ```
/// use nonoenum::{AnyPuzzle, CountOptions, PerCell};
///
/// let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?; // the two diagonals
/// let options = CountOptions { per_cell: true, ..CountOptions::default() };
/// let outcome = puzzle.counter(options).run()?;
/// let per_cell = PerCell::of_outcome(&outcome).expect("counted per cell");
/// let mut text = Vec::new();
/// per_cell.write_text(&mut text, &puzzle)?;
/// assert_eq!(String::from_utf8(text)?, "1 1\n1 1\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerCell {
    /// Black and white: row by row, in how many solutions each cell is filled.
    Bw(Vec<Vec<BigUint>>),
    /// Colour: one grid of counts per palette index, the background first.
    Color(Vec<Vec<Vec<BigUint>>>),
}

impl PerCell {
    /// The per-cell counts of a count's outcome, if it has them.
    pub fn of_outcome(outcome: &ExactOutcome) -> Option<PerCell> {
        match outcome {
            ExactOutcome::CountedPerCell { per_cell, .. } => Some(PerCell::Bw(per_cell.clone())),
            ExactOutcome::CountedPerColour { per_colour, .. } => {
                Some(PerCell::from_per_colour(per_colour))
            }
            _ => None,
        }
    }

    /// The counts of an enumeration.
    pub fn enumerated(counts: &CellCounts) -> PerCell {
        match (counts.per_cell(), counts.per_colour()) {
            (Some(rows), _) => PerCell::Bw(rows),
            (None, per_colour) => PerCell::from_per_colour(&per_colour.unwrap_or_default()),
        }
    }

    /// Colour counts by row, cell and palette index (as [`ExactOutcome::CountedPerColour`]
    /// holds them) as one grid per palette index.
    pub fn from_per_colour(per_colour: &[Vec<Vec<BigUint>>]) -> PerCell {
        let colors = per_colour
            .first()
            .and_then(|row| row.first())
            .map_or(0, Vec::len);
        let grid = |i: usize| {
            let cell = |cell: &Vec<BigUint>| cell.get(i).cloned().unwrap_or_default();
            let row = |row: &Vec<Vec<BigUint>>| row.iter().map(cell).collect();
            per_colour.iter().map(row).collect()
        };
        PerCell::Color((0..colors).map(grid).collect())
    }

    /// The black-and-white counts, for [`RunResult::per_cell`].
    pub fn per_cell(&self) -> Option<Vec<Vec<BigUint>>> {
        match self {
            PerCell::Bw(rows) => Some(rows.clone()),
            PerCell::Color(_) => None,
        }
    }

    /// The colour counts of `puzzle`, for [`RunResult::per_color`]: each palette colour's
    /// name, character and grid, the background first.
    pub fn per_color(&self, puzzle: &AnyPuzzle) -> Option<Vec<ColorCells>> {
        let (PerCell::Color(grids), AnyPuzzle::Color(puzzle)) = (self, puzzle) else {
            return None;
        };
        let cells = |(color, rows): (&crate::Color, &Vec<Vec<BigUint>>)| ColorCells {
            color: color.name.clone(),
            char: color.ch.to_string(),
            rows: rows
                .iter()
                .map(|row| row.iter().map(ToString::to_string).collect())
                .collect(),
        };
        Some(puzzle.colors.iter().zip(grids).map(cells).collect())
    }

    /// Writes the counts as text: black and white as [`write_count_rows`] does, colour a grid
    /// per palette index, each after a line `NAME (CHAR):`, the background first.
    pub fn write_text(&self, out: &mut impl Write, puzzle: &AnyPuzzle) -> io::Result<()> {
        match (self, puzzle) {
            (PerCell::Bw(rows), _) => write_count_rows(out, rows),
            (PerCell::Color(grids), AnyPuzzle::Color(p)) => write_colour_text(out, grids, p),
            (PerCell::Color(_), AnyPuzzle::Bw(_)) => Ok(()),
        }
    }
}

/// Writes, for each colour of the palette (the background first), a line `NAME (CHAR):` and
/// then its grid of counts as [`write_count_rows`] does.
fn write_colour_text(
    out: &mut impl Write,
    grids: &[Vec<Vec<BigUint>>],
    puzzle: &ColorPuzzle,
) -> io::Result<()> {
    for (color, rows) in puzzle.colors.iter().zip(grids) {
        writeln!(out, "{} ({}):", color.name, color.ch)?;
        write_count_rows(out, rows)?;
    }
    Ok(())
}

/// Writes counts as rows of decimal numbers right-aligned to the widest, one line a row.
pub fn write_count_rows(out: &mut impl Write, rows: &[Vec<BigUint>]) -> io::Result<()> {
    // Counts that fit a machine word are written without a string each: a 2000x2000 grid is
    // four million numbers.
    let digits = |n: &BigUint| match u64::try_from(n) {
        Ok(small) => small.checked_ilog10().map_or(1, |d| d as usize + 1),
        Err(_) => n.to_string().len(),
    };
    let width = rows.iter().flatten().map(digits).max().unwrap_or(1);
    let mut out = io::BufWriter::new(out);
    for row in rows {
        for (i, n) in row.iter().enumerate() {
            let gap = if i == 0 { "" } else { " " };
            match u64::try_from(n) {
                Ok(small) => write!(out, "{gap}{small:>width$}")?,
                Err(_) => write!(out, "{gap}{n:>width$}")?,
            }
        }
        writeln!(out)?;
    }
    out.flush()
}

impl RunResult {
    /// The result of `command` (`solve`, `count` or `list`) on `puzzle`, labelled `label`:
    /// `count` solutions in `seconds`, complete unless `stopped` says why it stopped, with
    /// the puzzle's checksums and no per-cell counts.
    pub fn new(
        command: &str,
        label: &str,
        puzzle: &AnyPuzzle,
        count: BigUint,
        stopped: Option<&str>,
        seconds: f64,
    ) -> RunResult {
        let (puzzle, givens) = puzzle.checksums();
        RunResult {
            command: command.to_string(),
            label: label.to_string(),
            puzzle,
            givens,
            count,
            complete: stopped.is_none(),
            stopped: stopped.map(str::to_string),
            seconds,
            per_cell: None,
            per_color: None,
        }
    }

    /// The result with `counts` of `puzzle` as its per-cell counts.
    pub fn with_per_cell(mut self, counts: Option<&PerCell>, puzzle: &AnyPuzzle) -> RunResult {
        self.per_cell = counts.and_then(PerCell::per_cell);
        self.per_color = counts.and_then(|c| c.per_color(puzzle));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CountOptions;
    use crate::test_strategies::colour_bands;

    fn text(rows: &[Vec<u32>]) -> String {
        let rows: Vec<Vec<BigUint>> = rows
            .iter()
            .map(|row| row.iter().map(|&n| BigUint::from(n)).collect())
            .collect();
        let mut text = Vec::new();
        write_count_rows(&mut text, &rows).expect("writes");
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

    /// Counts past a machine word, beside small ones, set the width all are aligned to.
    #[test]
    fn aligns_counts_past_a_machine_word() {
        let huge = BigUint::from(u64::MAX) * 1000u32 + 7u32;
        let rows = vec![
            vec![huge.clone(), BigUint::from(0u32)],
            vec![BigUint::from(u64::MAX), BigUint::from(9u32)],
        ];
        let mut text = Vec::new();
        write_count_rows(&mut text, &rows).expect("writes");
        let (digits, max) = (huge.to_string(), u64::MAX.to_string());
        let width = digits.len();
        let expected = format!("{digits} {:>width$}\n{max:>width$} {:>width$}\n", 0, 9);
        assert_eq!(String::from_utf8(text).expect("utf-8"), expected);
    }

    #[test]
    fn colour_counts_by_profiles_and_by_enumeration_agree_in_every_form() {
        let puzzle = AnyPuzzle::Color(colour_bands(2, 3));
        let options = CountOptions {
            per_cell: true,
            ..CountOptions::default()
        };
        let outcome = puzzle.counter(options).run().expect("counts");
        let by_profiles = PerCell::of_outcome(&outcome).expect("per colour");
        let mut counts = CellCounts::new(&puzzle);
        let _ = puzzle
            .solver(crate::SolverOptions::default())
            .run(|grid| {
                counts.add(grid);
                crate::Flow::Continue
            })
            .expect("enumerates");
        assert_eq!(PerCell::enumerated(&counts), by_profiles);
        let colours = by_profiles.per_color(&puzzle).expect("colour");
        let AnyPuzzle::Color(p) = &puzzle else {
            unreachable!()
        };
        assert_eq!(colours.len(), p.colors.len());
        assert_eq!(colours[0].char, p.colors[0].ch.to_string());
        let result = RunResult::new("count", "bands", &puzzle, 1u32.into(), None, 0.5)
            .with_per_cell(Some(&by_profiles), &puzzle);
        assert!(result.complete && result.per_cell.is_none());
        assert_eq!(result.per_color.map(|c| c.len()), Some(p.colors.len()));
        let mut text = Vec::new();
        by_profiles.write_text(&mut text, &puzzle).expect("writes");
        let text = String::from_utf8(text).expect("utf-8");
        assert!(
            text.starts_with(&format!("{} (", p.colors[0].name)),
            "{text}"
        );
    }
}
