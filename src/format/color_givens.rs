//! Givens for colour puzzles: lines of `ROW COL` or `ROW COL COLOUR`, 1-based.
//!
//! COLOUR is a colour's name (`red`), its character in the puzzle's text output (`r`), its
//! palette number (`0` is the background), or `.`/`empty`/`background` for the background.
//! Without COLOUR the cell gets the puzzle's only colour; a puzzle with several colours needs
//! one. Blank lines and `#` comments are skipped, as in black-and-white givens files.

use super::error::{ParseError, ParseErrorKind};
use super::text::{decode_utf8, numbered_lines, parse_usize, snippet, tokens};
use crate::color::{ColorGiven, ColorPuzzle};
use crate::puzzle::PuzzleError;

/// One given as read, before its colour is resolved against a palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGiven {
    /// The 1-based line of the given.
    pub line: usize,
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// The colour as written, if any.
    pub value: Option<String>,
}

/// Reads a givens file without resolving the colours.
pub fn read_raw_givens(bytes: &[u8]) -> Result<Vec<RawGiven>, ParseError> {
    let text = decode_utf8(bytes)?;
    let mut givens = Vec::new();
    for (number, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |kind| ParseError::new(number, kind);
        let words: Vec<&str> = tokens(line).collect();
        let (row, col, value) = match words.as_slice() {
            [row, col] => (row, col, None),
            [row, col, value] => (row, col, Some(value.to_string())),
            _ => {
                let message = format!(
                    "expected `ROW COL` or `ROW COL COLOUR`, found `{}`",
                    snippet(line)
                );
                return Err(at(ParseErrorKind::BadGiven(message)));
            }
        };
        let one_based = |t: &str| -> Result<usize, ParseError> {
            parse_usize(t).map_err(at)?.checked_sub(1).ok_or_else(|| {
                at(ParseErrorKind::BadGiven(
                    "rows and columns count from 1, found 0".into(),
                ))
            })
        };
        givens.push(RawGiven {
            line: number,
            row: one_based(row)?,
            col: one_based(col)?,
            value,
        });
    }
    Ok(givens)
}

/// Resolves raw givens against a colour puzzle's palette, checks them and adds them. Errors
/// name the given's line; on error the puzzle is unchanged.
pub fn add_color_givens(puzzle: &mut ColorPuzzle, givens: &[RawGiven]) -> Result<(), ParseError> {
    let (rows, cols) = (puzzle.height(), puzzle.width());
    let mut resolved: Vec<(usize, ColorGiven)> = Vec::with_capacity(givens.len());
    for g in givens {
        let at = |kind| ParseError::new(g.line, kind);
        if g.row >= rows || g.col >= cols {
            let error = PuzzleError::GivenOutside {
                row: g.row.saturating_add(1),
                col: g.col.saturating_add(1),
                rows,
                cols,
            };
            return Err(at(error.into()));
        }
        let color = resolve(puzzle, g.value.as_deref()).map_err(at)?;
        let given = ColorGiven {
            row: g.row,
            col: g.col,
            color,
        };
        if let Some((earlier, other)) = resolved
            .iter()
            .find(|(_, o)| (o.row, o.col) == (g.row, g.col) && o.color != color)
        {
            let name = |c: u8| puzzle.colors[usize::from(c)].name.clone();
            let message = format!(
                "row {}, column {} is given as {} here but as {} on line {earlier}",
                g.row + 1,
                g.col + 1,
                name(color),
                name(other.color)
            );
            return Err(at(ParseErrorKind::BadGiven(message)));
        }
        resolved.push((g.line, given));
    }
    puzzle
        .add_givens(resolved.iter().map(|&(_, g)| g))
        .map_err(|error| ParseError::new(0, error.into()))
}

/// The palette index a given's colour names.
fn resolve(puzzle: &ColorPuzzle, value: Option<&str>) -> Result<u8, ParseErrorKind> {
    let colors = &puzzle.colors;
    let Some(value) = value else {
        if colors.len() == 2 {
            return Ok(1);
        }
        return Err(ParseErrorKind::BadGiven(
            "a colour puzzle needs `ROW COL COLOUR`".into(),
        ));
    };
    let lower = value.to_ascii_lowercase();
    if matches!(lower.as_str(), "." | "empty" | "background") {
        return Ok(0);
    }
    if let Some(i) = colors
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(value))
    {
        return Ok(i as u8);
    }
    let mut chars = value.chars();
    if let (Some(ch), None) = (chars.next(), chars.next())
        && let Some(i) = colors.iter().position(|c| c.ch == ch)
    {
        return Ok(i as u8);
    }
    if let Ok(i) = value.parse::<usize>()
        && i < colors.len()
    {
        return Ok(i as u8);
    }
    let names: Vec<&str> = colors.iter().map(|c| c.name.as_str()).collect();
    Err(ParseErrorKind::BadGiven(format!(
        "`{}` is not a colour of this puzzle ({})",
        snippet(value),
        names.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

    fn puzzle() -> ColorPuzzle {
        let palette = vec![
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], 'r'),
            Color::new("blue", [0, 0, 255], 'b'),
        ];
        ColorPuzzle::from_picture(palette, 2, 2, &[1, 0, 0, 2]).unwrap()
    }

    #[test]
    fn resolves_names_chars_and_numbers() {
        let raw = read_raw_givens(b"# c\n1 1 red\n2 2 b\n1 2 0\n2 1 .\n").unwrap();
        let mut p = puzzle();
        add_color_givens(&mut p, &raw).unwrap();
        let colors: Vec<u8> = p.givens.iter().map(|g| g.color).collect();
        assert_eq!(colors, [1, 2, 0, 0]);
    }

    #[test]
    fn errors_name_the_line() {
        let cases: [(&[u8], usize, &str); 5] = [
            (b"1 1\n", 1, "needs `ROW COL COLOUR`"),
            (b"\n1 1 green\n", 2, "`green` is not a colour"),
            (
                b"1 1 red\n1 1 blue\n",
                2,
                "given as blue here but as red on line 1",
            ),
            (b"3 1 red\n", 1, "outside the 2 x 2 grid"),
            (b"1 x red\n", 1, "`x` is not a number"),
        ];
        for (bytes, line, message) in cases {
            let mut p = puzzle();
            let err = read_raw_givens(bytes)
                .and_then(|raw| add_color_givens(&mut p, &raw))
                .unwrap_err();
            assert_eq!(err.line, line, "{err}");
            assert!(err.to_string().contains(message), "{err}");
            assert!(p.givens.is_empty());
        }
    }
}
