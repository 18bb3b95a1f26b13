//! The `.pzl` colour format of izaron's nonogram tools.
//!
//! ```text
//! 2            <- number of colours (the background is not one of them)
//! #ff0000      <- each colour, #rrggbb
//! #0000ff
//! 3 2          <- WIDTH HEIGHT
//! 1 2 255 0 0  <- WIDTH column clues, top to bottom: a block count, then LEN R G B per block
//! 0
//! 1 1 0 0 255
//! 1 2 255 0 0  <- then HEIGHT row clues, left to right
//! 1 1 0 0 255
//! ```
//!
//! Blank lines are skipped. Block colours are given by value and must be declared.

use super::error::{ParseError, ParseErrorKind};
use super::palette::{name_of, parse_rgb};
use super::text::{LineMap, eof_line, numbered_lines, parse_number, parse_usize, snippet, tokens};
use crate::color::{AnyPuzzle, Block, Color, ColorClue, ColorPuzzle, MAX_COLORS};
use crate::puzzle::check_size;

/// Parses a `.pzl` file.
pub fn parse(text: &str) -> Result<AnyPuzzle, ParseError> {
    let eof = eof_line(text);
    let mut lines = numbered_lines(text).filter(|(_, l)| !l.trim().is_empty());
    let mut next = |what: &str| {
        lines.next().ok_or_else(|| {
            let kind = ParseErrorKind::MissingLine {
                expected: what.to_string(),
                found: "end of file".into(),
            };
            ParseError::new(eof, kind)
        })
    };
    let (at, line) = next("the number of colours")?;
    let n = parse_usize(line.trim()).map_err(|k| ParseError::new(at, k))?;
    if n >= MAX_COLORS {
        let message = format!(
            "{n} colours; at most {} besides the background",
            MAX_COLORS - 1
        );
        return Err(ParseError::new(at, ParseErrorKind::Invalid(message)));
    }
    let mut colors = vec![Color::new("background", [255, 255, 255], '.')];
    for i in 1..=n {
        let (at, line) = next(&format!("colour {i} of {n}"))?;
        let Some(rgb) = parse_rgb(line.trim()) else {
            let message = format!("`{}` is not a #rrggbb colour", snippet(line.trim()));
            return Err(ParseError::new(at, ParseErrorKind::Invalid(message)));
        };
        colors.push(Color::new(name_of(rgb), rgb, ' '));
    }
    let (size_at, line) = next("`WIDTH HEIGHT`")?;
    let (cols, rows) = super::plain::parse_header(line).map_err(|k| ParseError::new(size_at, k))?;
    check_size(rows, cols).map_err(|e| ParseError::new(size_at, e.into()))?;
    let mut map = LineMap {
        size: size_at,
        ..LineMap::default()
    };
    let mut read = |count: usize, what: &str, at: &mut Vec<usize>| {
        let mut clues = Vec::with_capacity(count);
        for k in 1..=count {
            let (number, line) = next(&format!("{what} clue {k} of {count}"))?;
            at.push(number);
            let clue = parse_clue(line, &colors).map_err(|kind| ParseError::new(number, kind))?;
            clues.push(clue);
        }
        Ok::<_, ParseError>(clues)
    };
    let col_clues = read(cols, "column", &mut map.cols)?;
    let row_clues = read(rows, "row", &mut map.rows)?;
    map.check_color(ColorPuzzle::unchecked(colors, row_clues, col_clues))
}

fn parse_clue(line: &str, colors: &[Color]) -> Result<ColorClue, ParseErrorKind> {
    let numbers: Vec<u64> = tokens(line).map(parse_number).collect::<Result<_, _>>()?;
    let Some((&count, rest)) = numbers.split_first() else {
        return Ok(ColorClue::default());
    };
    if rest.len() as u64 != count.saturating_mul(4) {
        let message = format!(
            "{count} blocks need {} numbers after the count, found {}",
            count.saturating_mul(4),
            rest.len()
        );
        return Err(ParseErrorKind::Invalid(message));
    }
    let mut blocks = Vec::new();
    for b in rest.chunks(4) {
        let len =
            u32::try_from(b[0]).map_err(|_| ParseErrorKind::NumberTooLarge(b[0].to_string()))?;
        let rgb = [b[1], b[2], b[3]].map(|v| u8::try_from(v).unwrap_or(u8::MAX));
        if b[1..].iter().any(|&v| v > 255) {
            return Err(ParseErrorKind::Invalid(
                "a colour component above 255".into(),
            ));
        }
        let Some(color) = colors.iter().skip(1).position(|c| c.rgb == rgb) else {
            let message = format!("colour {} {} {} is not declared", rgb[0], rgb[1], rgb[2]);
            return Err(ParseErrorKind::Invalid(message));
        };
        blocks.push(Block {
            len,
            color: (color + 1) as u8,
        });
    }
    Ok(ColorClue(blocks))
}

/// Writes a colour puzzle in `.pzl` form.
pub fn write(puzzle: &ColorPuzzle) -> String {
    let mut out = format!("{}\n", puzzle.colors.len() - 1);
    for c in &puzzle.colors[1..] {
        let [r, g, b] = c.rgb;
        out.push_str(&format!("#{r:02x}{g:02x}{b:02x}\n"));
    }
    out.push_str(&format!("\n{} {}\n\n", puzzle.width(), puzzle.height()));
    for clue in puzzle.col_clues.iter().chain(&puzzle.row_clues) {
        out.push_str(&clue.blocks().len().to_string());
        for b in clue.blocks() {
            let [r, g, bl] = puzzle.colors[usize::from(b.color)].rgb;
            out.push_str(&format!(" {} {r} {g} {bl}", b.len));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str =
        "2\n#ff0000\n#0000ff\n\n3 1\n\n1 1 255 0 0\n0\n1 1 0 0 255\n2 1 255 0 0 1 0 0 255\n";

    #[test]
    fn reads_and_round_trips() {
        let AnyPuzzle::Color(p) = parse(SMALL).unwrap() else {
            panic!("colour expected")
        };
        assert_eq!((p.height(), p.width()), (1, 3));
        assert_eq!(p.row_clues[0].blocks().len(), 2);
        assert_eq!(parse(&write(&p)).unwrap(), AnyPuzzle::Color(p));
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse(&SMALL.replace("0 0 255\n2", "0 9 255\n2")).unwrap_err();
        assert_eq!(err.line, 9, "{err}");
        assert!(err.to_string().contains("0 9 255 is not declared"), "{err}");
        let err = parse(&SMALL.replace("1 1 255 0 0\n0", "1 1 255 0\n0")).unwrap_err();
        assert_eq!(err.line, 7, "{err}");
    }
}
