//! The search state: a grid of cells, each unknown, filled or empty, stored as bitsets.
//!
//! Every line is kept twice, once row-major and once column-major, so that the line solver
//! reads any row or column as a few machine words without gathering bits. Both copies live in
//! one allocation, so cloning a grid at a split point is a single `memcpy`.

use crate::puzzle::LineId;

/// The value of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Not decided yet.
    Unknown,
    /// Painted.
    Filled,
    /// Blank.
    Empty,
}

/// Two values are asked of one cell: the branch is dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// Number of 64-bit words needed for a line of `len` cells.
pub(crate) fn words_for(len: usize) -> usize {
    len.div_ceil(64)
}

/// A partially known grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    height: usize,
    width: usize,
    row_words: usize,
    col_words: usize,
    unknown: usize,
    /// Four bitset planes, one after another: row-filled, row-empty, col-filled, col-empty.
    bits: Box<[u64]>,
}

impl Grid {
    /// A grid of `height` rows and `width` columns with every cell unknown.
    pub fn new(height: usize, width: usize) -> Self {
        let row_words = words_for(width);
        let col_words = words_for(height);
        let plane = height * row_words;
        let col_plane = width * col_words;
        Grid {
            height,
            width,
            row_words,
            col_words,
            unknown: height * width,
            bits: vec![0; 2 * plane + 2 * col_plane].into_boxed_slice(),
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

    /// Number of cells still unknown.
    pub fn unknown_count(&self) -> usize {
        self.unknown
    }

    /// Whether every cell is known.
    pub fn is_complete(&self) -> bool {
        self.unknown == 0
    }

    /// The number of cells of a line.
    pub fn line_len(&self, line: LineId) -> usize {
        match line {
            LineId::Row(_) => self.width,
            LineId::Col(_) => self.height,
        }
    }

    fn row_plane(&self) -> usize {
        self.height * self.row_words
    }

    fn offsets(&self, line: LineId) -> (usize, usize, usize) {
        let rp = self.row_plane();
        match line {
            LineId::Row(r) => {
                let start = r * self.row_words;
                (start, rp + start, self.row_words)
            }
            LineId::Col(c) => {
                let cp = self.width * self.col_words;
                let start = 2 * rp + c * self.col_words;
                (start, cp + start, self.col_words)
            }
        }
    }

    /// The known cells of a line as two bitsets: `(filled, empty)`. Bit `i` is cell `i` of the
    /// line (left to right for rows, top to bottom for columns).
    pub fn line(&self, line: LineId) -> (&[u64], &[u64]) {
        let (f, e, n) = self.offsets(line);
        (&self.bits[f..f + n], &self.bits[e..e + n])
    }

    /// Every row's known cells at once: `(filled, empty)`, row after row, each row
    /// [`words_for`]`(width)` words long, as [`Grid::line`] gives them one row at a time.
    pub(crate) fn row_planes(&self) -> (&[u64], &[u64]) {
        let plane = self.row_plane();
        (&self.bits[..plane], &self.bits[plane..2 * plane])
    }

    /// The grid's storage, every plane's words, and its count of unknown cells: what a
    /// [`GridDelta`](crate::domain::GridDelta) reads and writes.
    pub(crate) fn storage_mut(&mut self) -> (&mut [u64], &mut usize) {
        (&mut self.bits, &mut self.unknown)
    }

    /// The first undecided cell of the line with the fewest undecided cells (rows before
    /// columns and lower indices first among equals), read from the planes a word at a time.
    pub(crate) fn most_constrained_cell(&self) -> Option<(usize, usize)> {
        let (rows, cols) = (self.row_plane(), self.width * self.col_words);
        let (rows_filled, rest) = self.bits.split_at(rows);
        let (rows_empty, rest) = rest.split_at(rows);
        let (cols_filled, cols_empty) = rest.split_at(cols);
        let row = fewest_undecided(rows_filled, rows_empty, self.row_words, self.width);
        let col = fewest_undecided(cols_filled, cols_empty, self.col_words, self.height);
        let line = match (row, col) {
            (Some((n, r)), Some((m, c))) => {
                if m < n {
                    LineId::Col(c)
                } else {
                    LineId::Row(r)
                }
            }
            (Some((_, r)), None) => LineId::Row(r),
            (None, Some((_, c))) => LineId::Col(c),
            (None, None) => return None,
        };
        let (filled, empty) = self.line(line);
        let (word, unknown) = filled
            .iter()
            .zip(empty)
            .map(|(f, e)| !(f | e))
            .enumerate()
            .find(|&(_, unknown)| unknown != 0)?;
        let at = word * 64 + unknown.trailing_zeros() as usize;
        Some(match line {
            LineId::Row(r) => (r, at),
            LineId::Col(c) => (at, c),
        })
    }

    /// The grid's storage, every plane's words (see [`Grid::storage_mut`]).
    pub(crate) fn storage(&self) -> &[u64] {
        &self.bits
    }

    /// The value of cell (`row`, `col`).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        let (filled, empty) = self.line(LineId::Row(row));
        let (w, b) = (col / 64, col % 64);
        if filled[w] >> b & 1 == 1 {
            Cell::Filled
        } else if empty[w] >> b & 1 == 1 {
            Cell::Empty
        } else {
            Cell::Unknown
        }
    }

    /// Sets an unknown cell. Setting a cell to the value it has is a no-op that returns
    /// `Ok(false)`; setting it to the other value is a [`Conflict`].
    pub fn set(&mut self, row: usize, col: usize, filled: bool) -> Result<bool, Conflict> {
        match self.cell(row, col) {
            Cell::Unknown => {
                self.set_unknown(row, col, filled);
                Ok(true)
            }
            Cell::Filled if filled => Ok(false),
            Cell::Empty if !filled => Ok(false),
            _ => Err(Conflict),
        }
    }

    /// Sets a cell the caller knows to be unknown.
    #[inline]
    pub(crate) fn set_unknown(&mut self, row: usize, col: usize, filled: bool) {
        debug_assert_eq!(self.cell(row, col), Cell::Unknown);
        let (rf, re, _) = self.offsets(LineId::Row(row));
        let (cf, ce, _) = self.offsets(LineId::Col(col));
        let (row_at, col_at) = if filled { (rf, cf) } else { (re, ce) };
        self.bits[row_at + col / 64] |= 1 << (col % 64);
        self.bits[col_at + row / 64] |= 1 << (row % 64);
        self.unknown -= 1;
    }

    /// Makes a known cell unknown again (a search undoing a decision).
    pub(crate) fn clear_cell(&mut self, row: usize, col: usize) {
        debug_assert_ne!(self.cell(row, col), Cell::Unknown);
        let (rf, re, _) = self.offsets(LineId::Row(row));
        let (cf, ce, _) = self.offsets(LineId::Col(col));
        let (row_bit, col_bit) = (!(1u64 << (col % 64)), !(1u64 << (row % 64)));
        for at in [rf, re] {
            self.bits[at + col / 64] &= row_bit;
        }
        for at in [cf, ce] {
            self.bits[at + row / 64] &= col_bit;
        }
        self.unknown += 1;
    }

    /// The first unknown cell in row-major order, if any.
    pub fn first_unknown(&self) -> Option<(usize, usize)> {
        (0..self.height).find_map(|r| {
            let (filled, empty) = self.line(LineId::Row(r));
            filled
                .iter()
                .zip(empty)
                .enumerate()
                .find_map(|(w, (f, e))| {
                    let mut unknown = !(f | e);
                    if w == self.row_words - 1 && !self.width.is_multiple_of(64) {
                        unknown &= (1u64 << (self.width % 64)) - 1;
                    }
                    (unknown != 0).then(|| (r, w * 64 + unknown.trailing_zeros() as usize))
                })
        })
    }

    /// The filled cells of a complete grid, row-major.
    pub fn to_cells(&self) -> Vec<bool> {
        let mut cells = Vec::with_capacity(self.height * self.width);
        for r in 0..self.height {
            cells.extend((0..self.width).map(|c| self.cell(r, c) == Cell::Filled));
        }
        cells
    }

    /// The grid drawn with `#` (filled), `.` (empty) and `?` (unknown), one row per line.
    pub fn render(&self) -> String {
        let mut text = Vec::new();
        self.write_text(&mut text);
        // Only ASCII was written.
        String::from_utf8(text).unwrap_or_default()
    }

    /// Appends the grid drawn as [`Grid::render`] draws it, eight known cells at a time: fast
    /// enough for listings of millions of solutions.
    pub fn write_text(&self, out: &mut Vec<u8>) {
        out.reserve(self.height * (self.width + 1));
        for r in 0..self.height {
            let (filled, empty) = self.line(LineId::Row(r));
            for start in (0..self.width).step_by(8) {
                let (word, shift) = (start / 64, start % 64);
                let (f, e) = ((filled[word] >> shift) as u8, (empty[word] >> shift) as u8);
                if start + 8 <= self.width && (f | e) == u8::MAX {
                    out.extend_from_slice(&GLYPHS[usize::from(f)]);
                    continue;
                }
                out.extend(
                    (start..self.width.min(start + 8)).map(|c| match self.cell(r, c) {
                        Cell::Filled => b'#',
                        Cell::Empty => b'.',
                        Cell::Unknown => b'?',
                    }),
                );
            }
            out.push(b'\n');
        }
    }
}

/// The text of eight known cells, for each byte of their filled bits (the first cell in the
/// lowest bit).
static GLYPHS: [[u8; 8]; 256] = glyphs();

const fn glyphs() -> [[u8; 8]; 256] {
    let mut table = [[b'.'; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut cell = 0;
        while cell < 8 {
            if byte >> cell & 1 == 1 {
                table[byte][cell] = b'#';
            }
            cell += 1;
        }
        byte += 1;
    }
    table
}

/// The fewest undecided cells of a line that has some, and the first such line, among lines of
/// `len` cells stored `words` words each in the planes `filled` and `empty`.
fn fewest_undecided(
    filled: &[u64],
    empty: &[u64],
    words: usize,
    len: usize,
) -> Option<(usize, usize)> {
    if words == 0 {
        // Lines of no cells: nothing is undecided (and `chunks_exact` takes no empty chunks).
        return None;
    }
    let mut best: Option<(usize, usize)> = None;
    let mut consider = |index: usize, undecided: usize| {
        if undecided > 0 && best.is_none_or(|(fewest, _)| undecided < fewest) {
            best = Some((undecided, index));
        }
    };
    if words == 1 {
        // Lines of up to 64 cells, the common case, one word each: the least of (undecided,
        // index) packed into one word, lines with none undecided packed as the largest.
        let least = (filled.iter().zip(empty).enumerate())
            .map(|(index, (f, e))| {
                let undecided = len as u64 - u64::from((f | e).count_ones());
                let packed = undecided << 32 | index as u64;
                if undecided == 0 { u64::MAX } else { packed }
            })
            .min()
            .filter(|&packed| packed != u64::MAX)?;
        return Some(((least >> 32) as usize, (least & 0xFFFF_FFFF) as usize));
    } else {
        let lines = filled.chunks_exact(words).zip(empty.chunks_exact(words));
        for (index, (f, e)) in lines.enumerate() {
            let known: u32 = f.iter().zip(e).map(|(f, e)| (f | e).count_ones()).sum();
            consider(index, len - known as usize);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_eight_cells_at_a_time_is_the_grid_drawn_cell_by_cell() {
        // Widths around the 8-cell and 64-cell boundaries, a pattern that is not periodic,
        // and some cells left unknown.
        for width in [1, 7, 8, 9, 15, 63, 64, 65, 71, 100, 130] {
            let mut grid = Grid::new(3, width);
            let mut drawn = String::new();
            for r in 0..3 {
                for c in 0..width {
                    let value = (r * 7 + c * c * 3 + c / 5) % 5;
                    if value < 4 || r == 0 {
                        let _ = grid.set(r, c, value < 2);
                    }
                    drawn.push(match grid.cell(r, c) {
                        Cell::Filled => '#',
                        Cell::Empty => '.',
                        Cell::Unknown => '?',
                    });
                }
                drawn.push('\n');
            }
            assert_eq!(grid.render(), drawn, "width {width}");
        }
    }

    #[test]
    fn set_updates_rows_and_columns() {
        let mut g = Grid::new(3, 70);
        assert_eq!(g.unknown_count(), 210);
        assert_eq!(g.set(2, 65, true), Ok(true));
        assert_eq!(g.set(2, 65, true), Ok(false));
        assert_eq!(g.set(2, 65, false), Err(Conflict));
        assert_eq!(g.set(0, 0, false), Ok(true));
        assert_eq!(g.cell(2, 65), Cell::Filled);
        assert_eq!(g.cell(0, 0), Cell::Empty);
        assert_eq!(g.cell(1, 1), Cell::Unknown);
        let (f, e) = g.line(LineId::Col(65));
        assert_eq!((f[0], e[0]), (0b100, 0));
        let (f, e) = g.line(LineId::Row(2));
        assert_eq!((f[1], e[1]), (0b10, 0));
        assert_eq!(g.unknown_count(), 208);
        assert_eq!(g.first_unknown(), Some((0, 1)));
    }

    #[test]
    fn first_unknown_ignores_padding_bits() {
        let mut g = Grid::new(1, 3);
        for c in 0..3 {
            g.set(0, c, c == 1).unwrap();
        }
        assert_eq!(g.first_unknown(), None);
        assert!(g.is_complete());
        assert_eq!(g.render(), ".#.\n");
        assert_eq!(g.to_cells(), vec![false, true, false]);
    }
}
