//! The colour search state: each cell holds the set of its still-possible colours, a `u64`
//! whose bit `c` stands for palette colour `c` (bit 0 is the background).
//!
//! So "red or white" is a state of its own, not just "unknown". A cell is decided when one bit
//! is left; no bit left would be a contradiction, which the line solver reports before it can
//! happen. Cells are stored row-major; a column is gathered into a buffer when it is solved.

use crate::puzzle::LineId;

/// A partially known colour grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorGrid {
    height: usize,
    width: usize,
    undecided: usize,
    cells: Box<[u64]>,
}

impl ColorGrid {
    /// A grid whose every cell may take every colour of `all` (a set of palette colours).
    pub fn new(height: usize, width: usize, all: u64) -> Self {
        let undecided = if all.count_ones() > 1 {
            height * width
        } else {
            0
        };
        ColorGrid {
            height,
            width,
            undecided,
            cells: vec![all; height * width].into_boxed_slice(),
        }
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells with more than one possible colour.
    pub fn unknown_count(&self) -> usize {
        self.undecided
    }

    /// Whether every cell has one colour.
    pub fn is_complete(&self) -> bool {
        self.undecided == 0
    }

    /// The cells of a line.
    pub fn line_len(&self, line: LineId) -> usize {
        match line {
            LineId::Row(_) => self.width,
            LineId::Col(_) => self.height,
        }
    }

    /// The possible colours of cell (`row`, `col`).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> u64 {
        self.cells[row * self.width + col]
    }

    /// Every cell's possible colours, row-major.
    pub fn cells(&self) -> &[u64] {
        &self.cells
    }

    /// Every cell's possible colours and the count of undecided cells, to write: what a
    /// [`GridDelta`](crate::domain::GridDelta) reads and writes.
    pub(crate) fn storage_mut(&mut self) -> (&mut [u64], &mut usize) {
        (&mut self.cells, &mut self.undecided)
    }

    /// Every cell's possible colours (see [`ColorGrid::storage_mut`]).
    pub(crate) fn storage(&self) -> &[u64] {
        &self.cells
    }

    /// Copies a line's cells into `out` (cleared first).
    pub fn read_line(&self, line: LineId, out: &mut Vec<u64>) {
        out.clear();
        match line {
            LineId::Row(r) => out.extend_from_slice(&self.cells[r * self.width..][..self.width]),
            LineId::Col(c) => out.extend((0..self.height).map(|r| self.cells[r * self.width + c])),
        }
    }

    /// Narrows cell (`row`, `col`) to `colors` intersected with what it had. Returns whether it
    /// changed, or `Err` if nothing is left.
    pub fn narrow(&mut self, row: usize, col: usize, colors: u64) -> Result<bool, super::Conflict> {
        let cell = &mut self.cells[row * self.width + col];
        let new = *cell & colors;
        if new == *cell {
            return Ok(false);
        }
        if new == 0 {
            return Err(super::Conflict);
        }
        if cell.count_ones() > 1 && new.count_ones() == 1 {
            self.undecided -= 1;
        }
        *cell = new;
        Ok(true)
    }

    /// Sets cell (`row`, `col`) to `colors` (not empty), wider or narrower than what it had.
    pub(crate) fn set_cell(&mut self, row: usize, col: usize, colors: u64) {
        let cell = &mut self.cells[row * self.width + col];
        let (was, now) = (cell.count_ones() > 1, colors.count_ones() > 1);
        *cell = colors;
        self.undecided = self.undecided + usize::from(now) - usize::from(was);
    }

    /// The first undecided cell in row-major order.
    pub fn first_undecided(&self) -> Option<(usize, usize)> {
        let i = self.cells.iter().position(|c| c.count_ones() > 1)?;
        Some((i / self.width, i % self.width))
    }

    /// The palette index of every cell of a complete grid, row-major (an undecided cell gives
    /// its lowest colour).
    pub fn to_colors(&self) -> Vec<u8> {
        self.cells
            .iter()
            .map(|c| c.trailing_zeros() as u8)
            .collect()
    }

    /// The grid drawn with one character per colour of `chars` (`?` for an undecided cell),
    /// one row per line.
    pub fn render(&self, chars: &[char]) -> String {
        let mut out = String::with_capacity(self.height * (self.width + 1));
        for row in self.cells.chunks(self.width) {
            for &c in row {
                let ch = if c.count_ones() == 1 {
                    chars
                        .get(c.trailing_zeros() as usize)
                        .copied()
                        .unwrap_or('?')
                } else {
                    '?'
                };
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_counts_decided_cells() {
        let mut g = ColorGrid::new(2, 3, 0b111);
        assert_eq!(g.unknown_count(), 6);
        assert_eq!(g.narrow(1, 2, 0b110), Ok(true));
        assert_eq!(g.unknown_count(), 6);
        assert_eq!(g.narrow(1, 2, 0b010), Ok(true));
        assert_eq!(g.narrow(1, 2, 0b011), Ok(false));
        assert_eq!(g.narrow(1, 2, 0b100), Err(super::super::Conflict));
        assert_eq!(g.unknown_count(), 5);
        let mut col = Vec::new();
        g.read_line(LineId::Col(2), &mut col);
        assert_eq!(col, vec![0b111, 0b010]);
        assert_eq!(g.first_undecided(), Some((0, 0)));
        assert_eq!(g.render(&['.', 'r', 'b']), "???\n??r\n");
    }
}
