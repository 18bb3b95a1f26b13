//! The compact listing: millions of solutions in a few bytes each, one line per solution
//! after a JSON header line that makes the file self-describing (docs/formats.md).
//!
//! The header is one JSON object on one line:
//!
//! ```text
//! {"type":"compact","format":"nonoenum-compact/1","rows":2,"cols":2,"bits":1,"palette":[".","#"]}
//! ```
//!
//! with, when known, the puzzle's `label` and its `puzzle` and `givens` checksums. Each
//! solution is then one line: the palette index of every cell, row-major, in `bits` bits
//! (most significant first: one bit in black and white, 1 filled, 0 empty; in colour, enough
//! bits for the largest index, 0 the background), packed into bytes from the most significant
//! bit and padded with zero bits to a whole byte, then written in base64url (RFC 4648 §5:
//! `A`-`Z`, `a`-`z`, `0`-`9`, `-`, `_`) without `=` padding. A 12x12 black-and-white solution
//! is 24 characters and a newline (its text grid: 157 bytes). Lines that start with `{` are
//! JSON lines (a new header, a `--json` result line); no base64url line does.

use serde_json::Value;

use crate::color::{AnyPuzzle, ColorGrid};
use crate::grid::Grid;
use crate::puzzle::LineId;

/// The `format` field of a header this version writes and reads.
pub const FORMAT: &str = "nonoenum-compact/1";

/// The `type` field of a header line.
pub const HEADER_TYPE: &str = "compact";

/// The base64url alphabet (RFC 4648 §5).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The most cells a listing's grid may have (a header asking for more is refused before any
/// allocation for it).
const MAX_CELLS: usize = 1 << 28;

/// What a compact listing's header says: the grid's size, how its cells are written, and
/// which puzzle it lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactHeader {
    /// Rows of each grid.
    pub rows: usize,
    /// Columns of each grid.
    pub cols: usize,
    /// Bits per cell.
    pub bits: u32,
    /// The character of each palette index, the background (`.`) first.
    pub palette: Vec<char>,
    /// The puzzle's label, if given.
    pub label: Option<String>,
    /// The puzzle's clue checksum (the first of [`AnyPuzzle::checksums`](crate::AnyPuzzle::checksums)), if given.
    pub puzzle: Option<String>,
    /// The puzzle's givens checksum, if given.
    pub givens: Option<String>,
}

/// The bits a cell takes with a palette of `colors` values (the background included): at
/// least 1.
pub fn bits_for(colors: usize) -> u32 {
    (usize::BITS - colors.saturating_sub(1).leading_zeros()).max(1)
}

impl CompactHeader {
    /// The header for listing the solutions of `puzzle`, with its checksums.
    pub fn for_puzzle(puzzle: &AnyPuzzle) -> Self {
        let (palette, (clues, givens)) = match puzzle {
            AnyPuzzle::Bw(p) => (
                vec!['.', '#'],
                (
                    crate::split::clue_checksum(p),
                    crate::split::givens_checksum(p),
                ),
            ),
            AnyPuzzle::Color(p) => (p.colors.iter().map(|c| c.ch).collect(), p.checksums()),
        };
        let (rows, cols) = match puzzle {
            AnyPuzzle::Bw(p) => (p.height(), p.width()),
            AnyPuzzle::Color(p) => (p.height(), p.width()),
        };
        CompactHeader {
            rows,
            cols,
            bits: bits_for(palette.len()),
            palette,
            label: None,
            puzzle: Some(clues),
            givens: Some(givens),
        }
    }

    /// The header line, without its newline: `type` and `format` first, so that a person
    /// (or `head -1`) sees at once what the file is.
    pub fn to_line(&self) -> String {
        let string = |s: &str| Value::String(s.to_string()).to_string();
        let palette: Vec<String> = self
            .palette
            .iter()
            .map(|c| string(&c.to_string()))
            .collect();
        let mut line = format!(
            "{{\"type\":{},\"format\":{},\"rows\":{},\"cols\":{},\"bits\":{},\"palette\":[{}]",
            string(HEADER_TYPE),
            string(FORMAT),
            self.rows,
            self.cols,
            self.bits,
            palette.join(",")
        );
        for (key, value) in [
            ("label", &self.label),
            ("puzzle", &self.puzzle),
            ("givens", &self.givens),
        ] {
            if let Some(value) = value {
                line.push_str(&format!(",\"{key}\":{}", string(value)));
            }
        }
        line.push('}');
        line
    }

    /// Whether `line` is a header line (a JSON object whose `type` is `compact`); `None` when
    /// it is no JSON object.
    pub fn is_header(line: &str) -> Option<bool> {
        let value: Value = serde_json::from_str(line).ok()?;
        let object = value.as_object()?;
        Some(object.get("type").and_then(Value::as_str) == Some(HEADER_TYPE))
    }

    /// Reads a header line; the error says what is wrong with it.
    pub fn parse(line: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("not a JSON header line ({e})"))?;
        let object = value.as_object().ok_or("the header is not a JSON object")?;
        let text = |key: &str| object.get(key).and_then(Value::as_str);
        if text("type") != Some(HEADER_TYPE) {
            return Err(format!(
                "not a compact listing header (no \"type\":\"{HEADER_TYPE}\")"
            ));
        }
        match text("format") {
            Some(FORMAT) => {}
            Some(other) => return Err(format!("format `{other}`, expected `{FORMAT}`")),
            None => return Err("the header has no `format`".into()),
        }
        let number = |key: &str| {
            object
                .get(key)
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("the header's `{key}` is not a whole number"))
        };
        let (rows, cols, bits) = (number("rows")?, number("cols")?, number("bits")?);
        let palette = object
            .get("palette")
            .and_then(Value::as_array)
            .ok_or("the header's `palette` is not a list")?
            .iter()
            .map(|c| {
                let s = c.as_str().unwrap_or_default();
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(ch), None) => Ok(ch),
                    _ => Err(format!("palette entry {c} is not one character")),
                }
            })
            .collect::<Result<Vec<char>, String>>()?;
        if !(1..=8).contains(&bits) {
            return Err(format!("{bits} bits per cell (1 to 8 are allowed)"));
        }
        if palette.len() < 2 || palette.len() > 1 << bits {
            return Err(format!(
                "a palette of {} characters with {bits} bits per cell",
                palette.len()
            ));
        }
        if rows.checked_mul(cols).is_none_or(|cells| cells > MAX_CELLS) {
            return Err(format!("a {rows}x{cols} grid is too large"));
        }
        let owned = |key: &str| text(key).map(str::to_string);
        Ok(CompactHeader {
            rows,
            cols,
            bits: bits as u32,
            palette,
            label: owned("label"),
            puzzle: owned("puzzle"),
            givens: owned("givens"),
        })
    }

    /// The characters of each solution line (its newline not counted).
    pub fn line_len(&self) -> usize {
        let bytes = (self.rows * self.cols * self.bits as usize).div_ceil(8);
        (bytes * 8).div_ceil(6)
    }

    /// Appends the line of a grid given as palette indices, row-major, and its newline.
    pub fn encode_cells(&self, cells: &[u8], out: &mut Vec<u8>) {
        let mut writer = Base64Bits::new(out);
        for &cell in cells {
            writer.push(u64::from(cell), self.bits);
        }
        writer.finish();
    }

    /// Reads a solution line (without its newline) into `cells`, as palette indices,
    /// row-major. The error says what is wrong with the line.
    pub fn decode(&self, line: &[u8], cells: &mut Vec<u8>) -> Result<(), String> {
        let expected = self.line_len();
        if line.len() != expected {
            return Err(format!(
                "a solution line of {} characters, expected {expected} for a {}x{} grid of {} bit{} per cell",
                line.len(),
                self.rows,
                self.cols,
                self.bits,
                if self.bits == 1 { "" } else { "s" }
            ));
        }
        cells.clear();
        let (bits, total) = (self.bits, self.rows * self.cols);
        let mut acc = 0u64;
        let mut held = 0u32;
        for (i, &ch) in line.iter().enumerate() {
            let value = sextet(ch).ok_or_else(|| {
                format!(
                    "character {} (`{}`) is not base64url",
                    i + 1,
                    char::from(ch).escape_default()
                )
            })?;
            acc = (acc << 6) | u64::from(value);
            held += 6;
            while held >= bits && cells.len() < total {
                held -= bits;
                let cell = ((acc >> held) & ((1 << bits) - 1)) as u8;
                if usize::from(cell) >= self.palette.len() {
                    return Err(format!(
                        "cell {} has palette index {cell}, beyond the palette's {}",
                        cells.len() + 1,
                        self.palette.len()
                    ));
                }
                cells.push(cell);
            }
            if cells.len() == total {
                // Only zero padding is left.
                if acc & ((1 << held) - 1) != 0 {
                    return Err("the padding bits after the last cell are not zero".into());
                }
                acc = 0;
                held = 0;
            }
        }
        Ok(())
    }
}

/// Appends a black-and-white grid's line (one bit a cell, 1 filled) and its newline, as a
/// header made by [`CompactHeader::for_puzzle`] describes it: the fast way for a complete grid.
pub fn encode_bw(grid: &Grid, out: &mut Vec<u8>) {
    let mut writer = Base64Bits::new(out);
    for r in 0..grid.height() {
        let (filled, _) = grid.line(LineId::Row(r));
        let mut left = grid.width();
        for &word in filled {
            let n = left.min(64) as u32;
            // Cell 0 of the word is its lowest bit: reversed, it comes first.
            let bits = word.reverse_bits() >> (64 - n);
            if n > 32 {
                writer.push(bits >> 32, n - 32);
                writer.push(bits & 0xFFFF_FFFF, 32);
            } else {
                writer.push(bits, n);
            }
            left -= n as usize;
        }
    }
    writer.finish();
}

/// Appends a complete colour grid's line, `bits` bits a cell (see [`bits_for`]), and its
/// newline.
pub fn encode_color(grid: &ColorGrid, bits: u32, out: &mut Vec<u8>) {
    let mut writer = Base64Bits::new(out);
    for &cell in grid.cells() {
        writer.push(u64::from(cell.trailing_zeros()), bits);
    }
    writer.finish();
}

/// The value of a base64url character.
fn sextet(ch: u8) -> Option<u8> {
    Some(match ch {
        b'A'..=b'Z' => ch - b'A',
        b'a'..=b'z' => ch - b'a' + 26,
        b'0'..=b'9' => ch - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    })
}

/// Writes bits, most significant first, as base64url characters.
struct Base64Bits<'o> {
    out: &'o mut Vec<u8>,
    acc: u64,
    /// Bits in `acc` not written yet (fewer than 6 between pushes).
    held: u32,
    /// Bits pushed in all.
    total: u64,
}

impl<'o> Base64Bits<'o> {
    fn new(out: &'o mut Vec<u8>) -> Self {
        Base64Bits {
            out,
            acc: 0,
            held: 0,
            total: 0,
        }
    }

    /// Pushes the low `n` bits of `value` (`n` at most 32).
    #[inline]
    fn push(&mut self, value: u64, n: u32) {
        self.acc = (self.acc << n) | value;
        self.held += n;
        self.total += u64::from(n);
        while self.held >= 6 {
            self.held -= 6;
            self.out
                .push(ALPHABET[((self.acc >> self.held) & 63) as usize]);
        }
    }

    /// Pads with zero bits to a whole byte, then to a whole character, and ends the line.
    fn finish(mut self) {
        let to_byte = (8 - (self.total % 8) as u32) % 8;
        self.push(0, to_byte);
        if self.held > 0 {
            let n = 6 - self.held;
            self.push(0, n);
        }
        self.out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(rows: usize, cols: usize, palette: &[char]) -> CompactHeader {
        CompactHeader {
            rows,
            cols,
            bits: bits_for(palette.len()),
            palette: palette.to_vec(),
            label: None,
            puzzle: None,
            givens: None,
        }
    }

    #[test]
    fn bits_per_cell_fit_the_palette() {
        let bits: Vec<u32> = [2, 3, 4, 5, 8, 9, 64].into_iter().map(bits_for).collect();
        assert_eq!(bits, [1, 2, 2, 3, 3, 4, 6]);
    }

    #[test]
    fn lines_are_base64url_of_the_packed_bytes() {
        // 2x2, filled on the diagonal: bits 1001, padded to 1001_0000 = 0x90 -> "kA".
        let h = header(2, 2, &['.', '#']);
        let mut out = Vec::new();
        h.encode_cells(&[1, 0, 0, 1], &mut out);
        assert_eq!(out, b"kA\n");
        assert_eq!(h.line_len(), 2);
        // Three bytes make four characters, as base64 does: 0xFF 0x00 0xFF -> "_wD_".
        let h = header(4, 6, &['.', '#']);
        let mut cells = vec![1; 8];
        cells.extend([0; 8]);
        cells.extend([1; 8]);
        out.clear();
        h.encode_cells(&cells, &mut out);
        assert_eq!(out, b"_wD_\n");
    }

    #[test]
    fn every_grid_comes_back_as_it_went() {
        for (rows, cols, palette) in [
            (1, 1, &['.', '#'][..]),
            (3, 5, &['.', '#']),
            (7, 9, &['.', 'a', 'b']),
            (4, 70, &['.', 'a', 'b', 'c', 'd']),
            (5, 13, &['.', '1', '2', '3', '4', '5', '6', '7', '8']),
        ] {
            let h = header(rows, cols, palette);
            let cells: Vec<u8> = (0..rows * cols)
                .map(|i| ((i * 7 + i / 3) % palette.len()) as u8)
                .collect();
            let mut line = Vec::new();
            h.encode_cells(&cells, &mut line);
            assert_eq!(line.last(), Some(&b'\n'));
            line.pop();
            assert_eq!(line.len(), h.line_len());
            let mut back = Vec::new();
            h.decode(&line, &mut back).expect("decodes");
            assert_eq!(back, cells, "{rows}x{cols}, {} colours", palette.len());
        }
    }

    #[test]
    fn a_black_and_white_grid_encodes_as_its_cells() {
        for (rows, cols) in [(3, 4), (2, 64), (3, 65), (2, 130)] {
            let mut grid = Grid::new(rows, cols);
            let mut cells = Vec::new();
            for r in 0..rows {
                for c in 0..cols {
                    let filled = (r * 31 + c * 17) % 5 < 2;
                    grid.set(r, c, filled).expect("unknown");
                    cells.push(u8::from(filled));
                }
            }
            let h = header(rows, cols, &['.', '#']);
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            encode_bw(&grid, &mut fast);
            h.encode_cells(&cells, &mut slow);
            assert_eq!(fast, slow, "{rows}x{cols}");
        }
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let h = header(2, 2, &['.', 'a', 'b']);
        let mut cells = Vec::new();
        let err = |line: &str| h.decode(line.as_bytes(), &mut Vec::new()).expect_err(line);
        assert!(
            err("AAA").contains("3 characters, expected 2"),
            "{}",
            err("AAA")
        );
        assert!(err("A=").contains("character 2 (`=`)"), "{}", err("A="));
        // 11 00 00 00: index 3 in a palette of 3.
        assert!(err("wA").contains("palette index 3"), "{}", err("wA"));
        // 01 00 00 00, then a stray bit in the padding.
        assert!(err("QB").contains("padding"), "{}", err("QB"));
        h.decode(b"QA", &mut cells).expect("good");
        assert_eq!(cells, [1, 0, 0, 0]);
    }

    #[test]
    fn headers_go_through_their_line() {
        let mut h = header(12, 3, &['.', 'r', ' ', '"']);
        h.label = Some("puzzle \"one\"".into());
        h.puzzle = Some("fnv1a64:0123".into());
        let line = h.to_line();
        assert!(!line.contains('\n'));
        assert!(line.starts_with(r#"{"type":"compact","format":"nonoenum-compact/1","rows":12,"#));
        assert_eq!(CompactHeader::is_header(&line), Some(true));
        assert_eq!(CompactHeader::parse(&line), Ok(h));
        assert_eq!(
            CompactHeader::is_header(r#"{"type":"result"}"#),
            Some(false)
        );
        assert_eq!(CompactHeader::is_header("kA"), None);
        for (bad, needle) in [
            (r#"{"type":"compact"}"#, "no `format`"),
            (
                r#"{"type":"compact","format":"nonoenum-compact/9"}"#,
                "nonoenum-compact/9",
            ),
            (
                r#"{"type":"compact","format":"nonoenum-compact/1","rows":2,"cols":2,"bits":1,"palette":[".","a","b"]}"#,
                "palette of 3",
            ),
            (
                r##"{"type":"compact","format":"nonoenum-compact/1","rows":99999,"cols":99999,"bits":1,"palette":[".","#"]}"##,
                "too large",
            ),
            (
                r##"{"type":"compact","format":"nonoenum-compact/1","rows":-1,"cols":2,"bits":1,"palette":[".","#"]}"##,
                "`rows`",
            ),
        ] {
            let err = CompactHeader::parse(bad).expect_err(bad);
            assert!(err.contains(needle), "{bad}: {err}");
        }
    }
}
