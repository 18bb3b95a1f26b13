//! Checksums that tie results back to a puzzle: its clues, and its givens in any order. Both
//! kinds of puzzle: the module sits above `puzzle` and `color`, which do not import it.

use std::fmt::Write as _;

use crate::color::{AnyPuzzle, ColorPuzzle};
use crate::puzzle::Puzzle;

/// A checksum of the puzzle's clues (not its title, givens or metadata), as `fnv1a64:HEX`: the
/// same for a puzzle and every part split from it.
pub(crate) fn clue_checksum(puzzle: &Puzzle) -> String {
    let mut text = format!("{} {}\n", puzzle.height(), puzzle.width());
    for clue in puzzle.row_clues.iter().chain(&puzzle.col_clues) {
        let _ = writeln!(text, "{clue}");
    }
    fnv1a64(text.as_bytes())
}

/// A checksum of the puzzle's givens, in any order, as `fnv1a64:HEX`: it tells the parts of a
/// split apart.
pub(crate) fn givens_checksum(puzzle: &Puzzle) -> String {
    givens_fnv1a64(
        puzzle
            .givens
            .iter()
            .map(|g| (g.row, g.col, u8::from(g.filled)))
            .collect(),
    )
}

impl AnyPuzzle {
    /// Checksums of the clues and of the givens, as `fnv1a64:HEX`, for either palette: the
    /// `puzzle` and `givens` of a [`RunResult`](crate::RunResult). A split's parts share the
    /// first and differ in the second.
    pub fn checksums(&self) -> (String, String) {
        match self {
            AnyPuzzle::Bw(p) => (clue_checksum(p), givens_checksum(p)),
            AnyPuzzle::Color(p) => p.checksums(),
        }
    }
}

impl ColorPuzzle {
    /// Checksums of the clues (with the palette) and of the givens, as `fnv1a64:HEX`, like
    /// `clue_checksum` for black and white.
    pub fn checksums(&self) -> (String, String) {
        let mut clues = format!("{} {}\n", self.height(), self.width());
        for c in &self.colors {
            clues.push_str(&format!("{} {}\n", c.name, c.hex()));
        }
        for clue in self.row_clues.iter().chain(&self.col_clues) {
            clues.push_str(&format!("{clue}\n"));
        }
        let givens = self.givens.iter().map(|g| (g.row, g.col, g.color));
        (fnv1a64(clues.as_bytes()), givens_fnv1a64(givens.collect()))
    }
}

/// The checksum of givens `(row, col, value)` in any order, each counted once: the lines
/// `ROW COL VALUE`, sorted, hashed with [`fnv1a64`]. Black and white (value 1 = filled) and
/// colour (the palette index) alike.
pub(crate) fn givens_fnv1a64(mut givens: Vec<(usize, usize, u8)>) -> String {
    givens.sort_unstable();
    givens.dedup();
    let mut text = String::new();
    for (row, col, value) in givens {
        let _ = writeln!(text, "{row} {col} {value}");
    }
    fnv1a64(text.as_bytes())
}

/// The 64-bit FNV-1a hash: an identity check against mix-ups, not a cryptographic one.
pub(crate) fn fnv1a64(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}
