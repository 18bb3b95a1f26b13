//! Olšák's `.g` format (also read by pbnsolve): black-and-white or colour.
//!
//! ```text
//! webpbn.org #47: Not To Scale          <- text before `#d` or `:` is a comment (the title)
//! #d                                    <- colour declarations follow
//!    0:   #FFFFFF   white               <- `0` is the background (white when omitted)
//!    g:X  #000000   black               <- IN:OUT  XPM-colour  comment
//!    r:*  #FF0000   red
//! : rows                                <- first `:` line: row clues, one per line
//! 1r
//! 3r 1g 2r                              <- length, then the colour's IN character
//! : columns                             <- second `:` line: column clues
//! ...
//! :                                     <- an optional third `:` line ends the puzzle
//! ```
//!
//! A block without a colour character takes the default colour, declared as `1` (black when
//! omitted). A blank line in a clue section is an empty line of the puzzle. Triangle colours
//! (a slash in the XPM word, used by triddlers) are refused.
//!
//! nonoenum's extension, for cells known in advance (the part files of `nonoenum split`): a
//! third `:` line that reads `: givens` starts a section of lines `ROW COL C`, 1-based, where
//! `C` is a colour's IN character from the `#d` section (`0` for the background); blank lines
//! and `#` comments are skipped, and a fourth `:` line or the end of the file ends it. Other
//! readers stop at the third `:` line, so they read the same clues without the givens.

use super::error::{ParseError, ParseErrorKind};
use super::palette::{assign_chars, parse_rgb};
use super::text::{LineMap, numbered_lines, parse_number, snippet, tokens};
use crate::color::{AnyPuzzle, Block, Color, ColorClue, ColorGiven, ColorPuzzle};
use crate::puzzle::MAX_LINE_LEN;

/// Clue lines as read: the line number, then each block's length and colour character.
type RawLines = Vec<(usize, Vec<(u32, Option<char>)>)>;

/// Each IN character a block uses, with its index in the palette.
type IndexOf = Vec<(char, u8)>;

/// A declared colour: its IN character and value, and the line of its declaration.
struct Declared {
    inchar: char,
    color: Color,
    line: usize,
}

/// A `.g` file's sections as read, before the palette is built.
#[derive(Default)]
struct Sections<'t> {
    title: Option<String>,
    comments: Vec<String>,
    declared: Vec<Declared>,
    rows: RawLines,
    cols: RawLines,
    /// The lines of the `: givens` section, with their numbers.
    givens: Vec<(usize, &'t str)>,
}

/// Parses a `.g` file.
pub fn parse(text: &str) -> Result<AnyPuzzle, ParseError> {
    let Sections {
        title,
        comments,
        declared,
        rows,
        cols,
        givens: given_lines,
    } = read_sections(text)?;
    // A colour that only givens name stays in the palette (the puzzle then has no solution).
    let given_chars: Vec<char> = (given_lines.iter())
        .filter_map(|(_, line)| tokens(line).nth(2)?.parse().ok())
        .collect();
    let (palette, index_of) = palette(&declared, (&rows, &cols), &given_chars)?;
    let mut map = LineMap::default();
    let row_clues = convert(&rows, &index_of, &mut map.rows)?;
    let col_clues = convert(&cols, &index_of, &mut map.cols)?;
    map.size = rows.first().map_or(1, |r| r.0);
    let mut givens: Vec<ColorGiven> = Vec::with_capacity(given_lines.len());
    // The first given of each cell, by its index.
    let mut first_of = rustc_hash::FxHashMap::default();
    for (i, &(number, line)) in given_lines.iter().enumerate() {
        let given = parse_given(line, &index_of, (row_clues.len(), col_clues.len()))
            .map_err(|k| ParseError::new(number, k))?;
        let j = *first_of.entry((given.row, given.col)).or_insert(i);
        if j != i && givens[j].color != given.color {
            let name = |c: u8| &palette[usize::from(c)].name;
            let message = format!(
                "row {}, column {} is given as {} here but as {} on line {}",
                given.row + 1,
                given.col + 1,
                name(given.color),
                name(givens[j].color),
                given_lines[j].0
            );
            return Err(ParseError::new(number, ParseErrorKind::Invalid(message)));
        }
        givens.push(given);
    }
    let mut puzzle = ColorPuzzle {
        title,
        colors: palette,
        row_clues,
        col_clues,
        givens,
        metadata: Vec::new(),
        goal: None,
    };
    for comment in comments {
        puzzle.metadata.push(("comment".into(), comment));
    }
    map.check_color(puzzle)
}

/// Reads the header (title, comments, the `#d` colour declarations), the rows, the columns and
/// the givens; fails on a bad line or when the rows or columns are missing.
fn read_sections(text: &str) -> Result<Sections<'_>, ParseError> {
    let mut read = Sections::default();
    let mut in_colors = false;
    let mut section = 0; // 0 header, 1 rows, 2 columns, 3 givens
    for (number, line) in numbered_lines(text) {
        if let Some(heading) = line.strip_prefix(':') {
            section += 1;
            in_colors = false;
            let givens = heading.trim().eq_ignore_ascii_case("givens");
            if section == 4 || section == 3 && !givens {
                break;
            }
            continue;
        }
        match section {
            0 if line.starts_with("#d") || line.starts_with("#D") => in_colors = true,
            0 if in_colors => {
                let declared = parse_declaration(line, number);
                if let Some(d) = declared.map_err(|k| ParseError::new(number, k))? {
                    if read.declared.iter().any(|e| e.inchar == d.inchar) {
                        let message = format!("colour `{}` is declared twice", d.inchar);
                        return Err(ParseError::new(number, ParseErrorKind::Invalid(message)));
                    }
                    read.declared.push(d);
                }
            }
            0 => {
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    if read.title.is_none() {
                        read.title = Some(line.to_string());
                    } else {
                        read.comments.push(line.to_string());
                    }
                }
            }
            3 => {
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    read.givens.push((number, line));
                }
            }
            _ => {
                let clue = parse_clue(line).map_err(|k| ParseError::new(number, k))?;
                let (rows, cols) = (&mut read.rows, &mut read.cols);
                let target = if section == 1 { &mut *rows } else { &mut *cols };
                if target.len() >= MAX_LINE_LEN {
                    let error = crate::puzzle::PuzzleError::TooLarge {
                        rows: rows.len().max(MAX_LINE_LEN + 1),
                        cols: cols.len(),
                    };
                    return Err(ParseError::new(number, error.into()));
                }
                target.push((number, clue));
            }
        }
    }
    if section < 2 {
        let what = if section == 0 {
            "`: rows`"
        } else {
            "`: columns`"
        };
        let message = format!("missing the {what} line (a `:` in the first column)");
        let last = super::text::eof_line(text);
        return Err(ParseError::new(last, ParseErrorKind::Invalid(message)));
    }
    Ok(read)
}

/// The palette: background first, then the declared colours in order, then an implicit
/// black default if a block or a given needs it; colours that neither a block nor a given
/// (an IN character of `given_chars`) uses are dropped. Also each used IN character's index in
/// the palette.
fn palette(
    declared: &[Declared],
    (rows, cols): (&RawLines, &RawLines),
    given_chars: &[char],
) -> Result<(Vec<Color>, IndexOf), ParseError> {
    let background = declared.iter().position(|d| d.inchar == '0');
    let mut palette = vec![match background {
        Some(i) => declared[i].color.clone(),
        None => Color::new("white", [255, 255, 255], '.'),
    }];
    let mut index_of: IndexOf = Vec::new();
    // The first clue line with a block of colour `c`.
    let first_use = |c: char| {
        (rows.iter().chain(cols))
            .find(|(_, blocks)| blocks.iter().any(|b| b.1.unwrap_or('1') == c))
            .map(|(number, _)| *number)
    };
    let used = |c: char| given_chars.contains(&c) || first_use(c).is_some();
    let mut candidates: Vec<(char, Color, usize)> = declared
        .iter()
        .filter(|d| d.inchar != '0')
        .map(|d| (d.inchar, d.color.clone(), d.line))
        .collect();
    if !candidates.iter().any(|(c, ..)| *c == '1') {
        let line = first_use('1').unwrap_or(0);
        candidates.push(('1', Color::new("black", [0, 0, 0], '#'), line));
    }
    for (inchar, color, line) in candidates {
        if used(inchar) {
            if palette.len() >= crate::color::MAX_COLORS {
                let message = "more than 63 colours besides the background".to_string();
                return Err(ParseError::new(line, ParseErrorKind::Invalid(message)));
            }
            index_of.push((inchar, palette.len() as u8));
            palette.push(color);
        }
    }
    assign_chars(&mut palette);
    Ok((palette, index_of))
}

/// The clues of clue lines as read, their colours turned into palette indices; each line's
/// number goes to `at`.
fn convert(
    lines: &RawLines,
    index_of: &[(char, u8)],
    at: &mut Vec<usize>,
) -> Result<Vec<ColorClue>, ParseError> {
    let mut clues = Vec::with_capacity(lines.len());
    for (number, blocks) in lines {
        at.push(*number);
        let mut clue = Vec::with_capacity(blocks.len());
        for &(len, ch) in blocks {
            let ch = ch.unwrap_or('1');
            let Some(&(_, color)) = index_of.iter().find(|(c, _)| *c == ch) else {
                let message = format!("colour `{ch}` is not declared in the `#d` section");
                return Err(ParseError::new(*number, ParseErrorKind::Invalid(message)));
            };
            clue.push(Block { len, color });
        }
        clues.push(ColorClue(clue));
    }
    Ok(clues)
}

/// One line of the `: givens` section: `ROW COL C`, 1-based, `C` an IN character (`0` for the
/// background); `size` is the grid's rows and columns.
fn parse_given(
    line: &str,
    index_of: &[(char, u8)],
    size: (usize, usize),
) -> Result<ColorGiven, ParseErrorKind> {
    let words: Vec<&str> = tokens(line).collect();
    let [row, col, color] = words.as_slice() else {
        let message = format!("expected a given `ROW COL C`, found `{}`", snippet(line));
        return Err(ParseErrorKind::Invalid(message));
    };
    let one_based = |t: &str, count: usize, what: &str| {
        let n = parse_number(t)?;
        match usize::try_from(n) {
            Ok(n) if (1..=count).contains(&n) => Ok(n - 1),
            _ => Err(ParseErrorKind::Invalid(format!(
                "{what} {} is outside the {} x {} grid",
                snippet(t),
                size.0,
                size.1
            ))),
        }
    };
    let row = one_based(row, size.0, "row")?;
    let col = one_based(col, size.1, "column")?;
    let mut chars = color.chars();
    let color = match (chars.next(), chars.next()) {
        (Some('0'), None) => Some(0),
        (Some(ch), None) => index_of.iter().find(|(c, _)| *c == ch).map(|&(_, i)| i),
        _ => None,
    };
    let Some(color) = color else {
        let message = format!(
            "`{}` is not the IN character of a declared colour (or `0`)",
            snippet(words[2])
        );
        return Err(ParseErrorKind::Invalid(message));
    };
    Ok(ColorGiven { row, col, color })
}

/// One line of the `#d` section, or `None` for a blank one.
fn parse_declaration(line: &str, number: usize) -> Result<Option<Declared>, ParseErrorKind> {
    let trimmed = line.trim_start();
    if trimmed.trim().is_empty() {
        return Ok(None);
    }
    let mut chars = trimmed.chars();
    let (Some(inchar), Some(':')) = (chars.next(), chars.next()) else {
        let message = format!(
            "expected a colour declaration `IN:OUT COLOUR`, found `{}`",
            snippet(line)
        );
        return Err(ParseErrorKind::Invalid(message));
    };
    let outchar = chars.next().unwrap_or(' ');
    let rest = chars.as_str();
    let word = rest.split_whitespace().next().unwrap_or_default();
    if inchar.is_ascii_digit() && inchar != '0' && inchar != '1' || inchar == ',' {
        let message = format!("`{inchar}` cannot name a colour (digits and commas are numbers)");
        return Err(ParseErrorKind::Invalid(message));
    }
    if word.contains(['/', '\\']) {
        let message = format!(
            "triangle colour `{}` (triddlers) is not supported",
            snippet(word)
        );
        return Err(ParseErrorKind::Invalid(message));
    }
    let Some(rgb) = parse_rgb(word) else {
        let message = format!("unknown colour `{}` (use #RRGGBB)", snippet(word));
        return Err(ParseErrorKind::Invalid(message));
    };
    let name = rest
        .split_whitespace()
        .nth(1)
        .filter(|_| word.starts_with('#'))
        .unwrap_or(word);
    Ok(Some(Declared {
        inchar,
        color: Color::new(name, rgb, outchar),
        line: number,
    }))
}

/// One clue line: blocks like `3`, `3r`; blank is the empty clue.
fn parse_clue(line: &str) -> Result<Vec<(u32, Option<char>)>, ParseErrorKind> {
    let mut blocks = Vec::new();
    for token in tokens(line) {
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let (number, suffix) = token.split_at(digits);
        if digits == 0 {
            let message = format!(
                "`{}` is not a block: it needs a length first",
                snippet(token)
            );
            return Err(ParseErrorKind::Invalid(message));
        }
        let n = parse_number(number)?;
        let len = u32::try_from(n).map_err(|_| ParseErrorKind::NumberTooLarge(snippet(number)))?;
        let mut chars = suffix.chars();
        let color = chars.next();
        if chars.next().is_some() {
            return Err(ParseErrorKind::Invalid(format!(
                "`{}` is not a block (a length and at most one colour character)",
                snippet(token)
            )));
        }
        if len == 0 && color.is_none() && line.split_whitespace().count() == 1 {
            return Ok(Vec::new());
        }
        blocks.push((len, color));
    }
    Ok(blocks)
}

/// Writes a puzzle in `.g` form (colour declarations, then rows and columns, then its givens,
/// if any, in a `: givens` section).
pub fn write(puzzle: &ColorPuzzle) -> String {
    let mut out = String::new();
    let title = puzzle.title.as_deref().map(header_line).unwrap_or_default();
    out.push_str(if title.is_empty() {
        "nonoenum puzzle"
    } else {
        &title
    });
    out.push('\n');
    for (key, value) in &puzzle.metadata {
        let value = header_line(value);
        if key == "comment" && !value.is_empty() {
            out.push_str(&value);
            out.push('\n');
        }
    }
    let inchars = in_chars(puzzle);
    out.push_str("#d\n");
    for (i, color) in puzzle.colors.iter().enumerate() {
        let name: String = color.name.split_whitespace().collect::<Vec<_>>().join("_");
        let out_ch = if i == 0 { ' ' } else { color.ch };
        out.push_str(&format!(
            "   {}:{}  {}   {}\n",
            inchars[i],
            out_ch,
            color.hex(),
            name
        ));
    }
    for (heading, clues) in [("rows", &puzzle.row_clues), ("columns", &puzzle.col_clues)] {
        out.push_str(&format!(": {heading}\n"));
        for clue in clues {
            let blocks: Vec<String> = clue
                .blocks()
                .iter()
                .map(|b| format!("{}{}", b.len, inchars[usize::from(b.color)]))
                .collect();
            out.push_str(&blocks.join(" "));
            out.push('\n');
        }
    }
    if !puzzle.givens.is_empty() {
        out.push_str(": givens\n");
        for g in &puzzle.givens {
            let color = inchars[usize::from(g.color)];
            out.push_str(&format!("{} {} {color}\n", g.row + 1, g.col + 1));
        }
    }
    out
}

/// A title or comment as a line of the header that reads back as itself: on one line, trimmed,
/// without leading `#`s (a comment, or `#d`), and a space before a leading `:` (which in the
/// first column would start the rows); empty if nothing is left.
fn header_line(text: &str) -> String {
    let line = text.replace(['\n', '\r'], " ");
    let line = line.trim_start_matches(|c: char| c == '#' || c.is_whitespace());
    let line = line.trim_end();
    if line.starts_with(':') {
        format!(" {line}")
    } else {
        line.to_string()
    }
}

/// The IN characters to write: `0` for the background, each colour's own character when it is
/// a letter not yet taken, else a spare letter.
fn in_chars(puzzle: &ColorPuzzle) -> Vec<char> {
    let mut chars = vec!['0'];
    let spare = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&*+=?@^_~<>|;";
    for color in &puzzle.colors[1..] {
        let ok = |c: char| c.is_ascii_alphabetic() && !chars.contains(&c);
        let ch = if ok(color.ch) {
            color.ch
        } else {
            spare.chars().find(|&c| !chars.contains(&c)).unwrap_or('~')
        };
        chars.push(ch);
    }
    chars
}

#[cfg(test)]
#[path = "olsak_tests.rs"]
mod tests;
