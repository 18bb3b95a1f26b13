//! webpbn's XML export (`<puzzleset>`), black-and-white or colour, read with `roxmltree`.
//!
//! ```xml
//! <puzzleset>
//!  <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
//!   <title>Demo</title>
//!   <color name="white" char=".">fff</color>
//!   <color name="black" char="X">000</color>
//!   <clues type="columns"><line><count>2</count></line> ... </clues>
//!   <clues type="rows"><line><count color="black">1</count></line> ... </clues>
//!   <solution type="goal"><image>|X.|
//!   |.X|</image></solution>
//!  </puzzle>
//! </puzzleset>
//! ```
//!
//! A `<count>` without `color` has the puzzle's `defaultcolor`. A `goal` solution (or the first
//! solution) is kept as the puzzle's goal. Errors name the line of the element at fault.

use roxmltree::{Document, Node, ParsingOptions};

use super::error::{ParseError, ParseErrorKind};
use super::palette::{name_of, parse_rgb};
use super::text::{LineMap, last_line, parser_message, snippet};
use crate::color::{AnyPuzzle, Block, Color, ColorClue, ColorPuzzle, MAX_COLORS};
use crate::puzzle::MAX_LINE_LEN;

/// Where each line of the text starts, to name the line of a node in logarithmic time
/// (roxmltree's `text_pos_at` scans from the start, which made a 4096x4096 puzzle's lines
/// quadratic).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        let ends = text.match_indices('\n').map(|(i, _)| i + 1);
        Lines(std::iter::once(0).chain(ends).collect())
    }
}

fn invalid(doc: &Lines, node: Node<'_, '_>, message: String) -> ParseError {
    ParseError::new(line_of(doc, node), ParseErrorKind::Invalid(message))
}

/// The 1-based line where `node` starts.
fn line_of(doc: &Lines, node: Node<'_, '_>) -> usize {
    doc.0.partition_point(|&start| start <= node.range().start)
}

/// Parses a webpbn XML file: every `<puzzle>` of the `<puzzleset>`.
pub fn parse(text: &str) -> Result<Vec<AnyPuzzle>, ParseError> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(text, options).map_err(|e| {
        use roxmltree::Error::{NoRootNode, UnclosedRootNode, UnexpectedEndOfStream};
        let at_end = matches!(e, NoRootNode | UnclosedRootNode | UnexpectedEndOfStream);
        let line = if at_end {
            last_line(text)
        } else {
            e.pos().row as usize
        };
        let message = e.to_string().replace(&format!(" at {}", e.pos()), "");
        let message = format!("not well-formed XML: {}", parser_message(&message));
        ParseError::new(line, ParseErrorKind::Invalid(message))
    })?;
    let lines = Lines::new(text);
    let root = doc.root_element();
    let puzzles: Vec<Node<'_, '_>> = match root.tag_name().name() {
        "puzzleset" => root
            .children()
            .filter(|n| n.has_tag_name("puzzle"))
            .collect(),
        "puzzle" => vec![root],
        other => {
            let message = format!("expected a <puzzleset> element, found <{}>", snippet(other));
            return Err(invalid(&lines, root, message));
        }
    };
    if puzzles.is_empty() {
        return Err(invalid(
            &lines,
            root,
            "the <puzzleset> holds no <puzzle>".into(),
        ));
    }
    puzzles.into_iter().map(|p| puzzle(&lines, p)).collect()
}

fn child_text<'a>(node: Node<'a, '_>, tag: &str) -> Option<String> {
    node.children()
        .find(|n| n.has_tag_name(tag))
        .map(|n| text_of(n).trim().to_string())
}

/// The text of an element, comments and processing instructions among it left out.
fn text_of(node: Node<'_, '_>) -> String {
    node.children()
        .filter(Node::is_text)
        .filter_map(|n| n.text())
        .collect()
}

fn puzzle(doc: &Lines, node: Node<'_, '_>) -> Result<AnyPuzzle, ParseError> {
    if let Some(kind) = node.attribute("type")
        && kind != "grid"
    {
        let message = format!(
            "puzzle type `{}` is not supported (only grid)",
            snippet(kind)
        );
        return Err(invalid(doc, node, message));
    }
    let default = node.attribute("defaultcolor").unwrap_or("black");
    let (names, colors) = palette(doc, node, default)?;
    let mut map = LineMap::default();
    let (row_clues, col_clues) = clues(doc, node, &names, default, &mut map)?;
    map.size = line_of(doc, node);
    let mut metadata = Vec::new();
    for key in ["author", "copyright", "id", "source", "description"] {
        if let Some(value) = child_text(node, key).filter(|v| !v.is_empty()) {
            metadata.push((key.to_string(), value));
        }
    }
    let mut puzzle = ColorPuzzle {
        title: child_text(node, "title").filter(|t| !t.is_empty()),
        colors,
        row_clues,
        col_clues,
        givens: Vec::new(),
        metadata,
        goal: None,
    };
    if let Some(solution) = goal_solution(node) {
        map.goal = line_of(doc, solution);
        puzzle.goal = Some(image(doc, solution, &puzzle)?);
    }
    map.check_color(puzzle)
}

/// The puzzle's colours and their names: the background first, then the `<color>` elements in
/// file order, then the default colour if no element declares it.
fn palette(
    doc: &Lines,
    node: Node<'_, '_>,
    default: &str,
) -> Result<(Vec<String>, Vec<Color>), ParseError> {
    let background = node.attribute("backgroundcolor").unwrap_or("white");
    let mut names: Vec<String> = vec![background.to_string()];
    let mut colors: Vec<Color> = vec![Color::new(background, [255, 255, 255], '.')];
    let mut declared_background = false;
    for c in node.children().filter(|n| n.has_tag_name("color")) {
        let Some(name) = c.attribute("name") else {
            return Err(invalid(doc, c, "a <color> without a name".into()));
        };
        let value = text_of(c);
        let value = value.trim();
        let Some(rgb) = parse_rgb(value) else {
            let message = format!(
                "colour `{}` has value `{}`, not hex RGB",
                snippet(name),
                snippet(value)
            );
            return Err(invalid(doc, c, message));
        };
        let ch = c
            .attribute("char")
            .and_then(|s| s.chars().next())
            .unwrap_or(' ');
        if name == background {
            colors[0] = Color::new(name, rgb, ch);
            declared_background = true;
        } else if names.iter().any(|n| n == name) {
            return Err(invalid(
                doc,
                c,
                format!("colour `{}` is declared twice", snippet(name)),
            ));
        } else {
            if colors.len() >= MAX_COLORS {
                return Err(invalid(
                    doc,
                    c,
                    "more than 63 colours besides the background".into(),
                ));
            }
            names.push(name.to_string());
            colors.push(Color::new(name, rgb, ch));
        }
    }
    if !declared_background && let Some(rgb) = parse_rgb(background) {
        colors[0].rgb = rgb;
    }
    if !names.iter().any(|n| n == default) {
        let rgb = parse_rgb(default).unwrap_or([0, 0, 0]);
        names.push(default.to_string());
        colors.push(Color::new(default, rgb, '#'));
    }
    Ok((names, colors))
}

/// The row and column clues, from one `<clues type="rows">` and one `<clues type="columns">`,
/// recording each line's place in the file in `map`.
fn clues(
    doc: &Lines,
    node: Node<'_, '_>,
    names: &[String],
    default: &str,
    map: &mut LineMap,
) -> Result<(Vec<ColorClue>, Vec<ColorClue>), ParseError> {
    let mut rows = None;
    let mut cols = None;
    for clues in node.children().filter(|n| n.has_tag_name("clues")) {
        let (target, lines) = match clues.attribute("type") {
            Some("rows") => (&mut rows, &mut map.rows),
            Some("columns") => (&mut cols, &mut map.cols),
            other => {
                let message = format!(
                    "<clues type=\"{}\">: expected rows or columns",
                    snippet(other.unwrap_or(""))
                );
                return Err(invalid(doc, clues, message));
            }
        };
        if target.is_some() {
            return Err(invalid(doc, clues, "two <clues> of the same type".into()));
        }
        let mut list = Vec::new();
        for line in clues.children().filter(|n| n.has_tag_name("line")) {
            if list.len() >= MAX_LINE_LEN {
                return Err(invalid(
                    doc,
                    line,
                    format!("more than {MAX_LINE_LEN} lines"),
                ));
            }
            lines.push(line_of(doc, line));
            list.push(clue(doc, line, names, default)?);
        }
        *target = Some(list);
    }
    let (Some(row_clues), Some(col_clues)) = (rows, cols) else {
        return Err(invalid(
            doc,
            node,
            "a puzzle needs <clues type=\"rows\"> and <clues type=\"columns\">".into(),
        ));
    };
    Ok((row_clues, col_clues))
}

/// The clue of one `<line>`: its `<count>` elements, those of length 0 left out.
fn clue(
    doc: &Lines,
    line: Node<'_, '_>,
    names: &[String],
    default: &str,
) -> Result<ColorClue, ParseError> {
    let mut blocks = Vec::new();
    for count in line.children().filter(|n| n.has_tag_name("count")) {
        let value = text_of(count);
        let value = value.trim();
        let len: u32 = value.parse().map_err(|_| {
            invalid(
                doc,
                count,
                format!("<count>{}</count> is not a block length", snippet(value)),
            )
        })?;
        let color_name = count.attribute("color").unwrap_or(default);
        let Some(color) = names.iter().position(|n| n == color_name) else {
            let message = format!(
                "colour `{}` is not declared by a <color>",
                snippet(color_name)
            );
            return Err(invalid(doc, count, message));
        };
        if color == 0 {
            return Err(invalid(
                doc,
                count,
                "a block of the background colour".into(),
            ));
        }
        if len > 0 {
            blocks.push(Block {
                len,
                color: color as u8,
            });
        }
    }
    Ok(ColorClue(blocks))
}

/// The solution kept as the goal: the one of type `goal`, else the first of type `solution`
/// or without a type.
fn goal_solution<'a, 'i>(node: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let solutions: Vec<Node<'a, 'i>> = node
        .children()
        .filter(|n| n.has_tag_name("solution"))
        .collect();
    solutions
        .iter()
        .find(|s| s.attribute("type") == Some("goal"))
        .or_else(|| {
            solutions
                .iter()
                .find(|s| s.attribute("type").is_none_or(|t| t == "solution"))
        })
        .copied()
}

/// Reads the `<image>` of a solution: `|` then one character per cell, a row per line.
fn image(doc: &Lines, solution: Node<'_, '_>, puzzle: &ColorPuzzle) -> Result<Vec<u8>, ParseError> {
    let Some(image) = solution.children().find(|n| n.has_tag_name("image")) else {
        return Err(invalid(
            doc,
            solution,
            "a <solution> without an <image>".into(),
        ));
    };
    let (h, w) = (puzzle.height(), puzzle.width());
    let mut cells = Vec::with_capacity(h * w);
    let start = line_of(doc, image);
    let mut rows = 0;
    // The text around comments, each piece with the line it starts on.
    let pieces = image.children().filter(Node::is_text);
    let lines = pieces.flat_map(|n| (line_of(doc, n)..).zip(n.text().unwrap_or_default().lines()));
    for (at, line) in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let body = line.trim_matches('|');
        rows += 1;
        for ch in body.chars() {
            let Some(c) = puzzle.colors.iter().position(|c| c.ch == ch) else {
                let message = format!("image character `{ch}` is not the char of a <color>");
                return Err(ParseError::new(at, ParseErrorKind::Invalid(message)));
            };
            cells.push(c as u8);
        }
        if cells.len() != rows * w {
            let message = format!(
                "image row {rows} has {} cells, expected {w}",
                body.chars().count()
            );
            return Err(ParseError::new(at, ParseErrorKind::BadGoal(message)));
        }
    }
    if rows != h {
        let message = format!("image has {rows} rows, expected {h}");
        return Err(ParseError::new(start, ParseErrorKind::BadGoal(message)));
    }
    Ok(cells)
}

/// Writes puzzles as a webpbn XML `<puzzleset>`, with each goal as a `goal` solution.
pub fn write(puzzle: &ColorPuzzle) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let names: Vec<String> = puzzle
        .colors
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let taken = puzzle.colors[..i].iter().any(|o| o.name == c.name);
            if c.name.is_empty() || taken {
                format!("{}-{i}", name_of(c.rgb))
            } else {
                c.name.clone()
            }
        })
        .collect();
    let mut out = String::from("<?xml version=\"1.0\"?>\n<puzzleset>\n");
    out.push_str(&format!(
        "<puzzle type=\"grid\" backgroundcolor=\"{}\" defaultcolor=\"{}\">\n",
        esc(&names[0]),
        esc(names.get(1).unwrap_or(&names[0]))
    ));
    if let Some(title) = &puzzle.title {
        out.push_str(&format!("<title>{}</title>\n", esc(title)));
    }
    for (key, value) in &puzzle.metadata {
        if ["author", "copyright", "id", "source", "description"].contains(&key.as_str()) {
            out.push_str(&format!("<{key}>{}</{key}>\n", esc(value)));
        }
    }
    for (i, c) in puzzle.colors.iter().enumerate() {
        let [r, g, b] = c.rgb;
        out.push_str(&format!(
            "<color name=\"{}\" char=\"{}\">{r:02X}{g:02X}{b:02X}</color>\n",
            esc(&names[i]),
            esc(&c.ch.to_string())
        ));
    }
    for (kind, clues) in [("columns", &puzzle.col_clues), ("rows", &puzzle.row_clues)] {
        out.push_str(&format!("<clues type=\"{kind}\">\n"));
        for clue in clues {
            out.push_str("<line>");
            for b in clue.blocks() {
                out.push_str(&format!(
                    "<count color=\"{}\">{}</count>",
                    esc(&names[usize::from(b.color)]),
                    b.len
                ));
            }
            out.push_str("</line>\n");
        }
        out.push_str("</clues>\n");
    }
    if let Some(goal) = &puzzle.goal {
        out.push_str("<solution type=\"goal\">\n<image>\n");
        for row in goal.chunks(puzzle.width()) {
            out.push('|');
            out.extend(row.iter().map(|&c| puzzle.colors[usize::from(c)].ch));
            out.push_str("|\n");
        }
        out.push_str("</image>\n</solution>\n");
    }
    out.push_str("</puzzle>\n</puzzleset>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = r#"<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<title>Two</title>
<author>me</author>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<color name="red" char="r">f00</color>
<clues type="columns">
<line><count>1</count></line>
<line><count color="red">1</count></line>
</clues>
<clues type="rows">
<line><count>1</count><count color="red">1</count></line>
</clues>
<solution type="goal"><image>
|Xr|
</image></solution>
</puzzle>
</puzzleset>
"#;

    #[test]
    fn reads_colour_puzzles_with_goal() {
        let puzzles = parse(DEMO).unwrap();
        let AnyPuzzle::Color(p) = &puzzles[0] else {
            panic!("colour expected")
        };
        assert_eq!(p.title.as_deref(), Some("Two"));
        assert_eq!(p.colors.len(), 3);
        assert_eq!(
            p.row_clues[0].blocks(),
            [Block { len: 1, color: 1 }, Block { len: 1, color: 2 }]
        );
        assert_eq!(p.goal.as_deref(), Some(&[1u8, 2][..]));
        assert_eq!(parse(&write(p)).unwrap(), puzzles);
    }

    /// The parser's message is whole, without its own place; one at the end of the file names
    /// the last line.
    #[test]
    fn parser_messages_are_whole() {
        let cases = [
            (
                DEMO.replace("</puzzleset>\n", ""),
                20,
                "the root node was opened but never closed",
            ),
            (
                DEMO[..DEMO.len() - 20].to_string(),
                20,
                "unexpected end of stream",
            ),
            (
                DEMO.replace("</title>", "</titl>"),
                5,
                "expected 'title' tag, not 'titl'",
            ),
            (
                DEMO.replace("<title>", "<title a='1' a='2'>"),
                5,
                "attribute 'a' is already defined",
            ),
            (
                DEMO.replace("<title>", "<title\u{1}>"),
                5,
                "expected a whitespace not '\\u{1}'",
            ),
        ];
        for (text, line, message) in cases {
            let err = parse(&text).unwrap_err();
            assert_eq!(err.line, line, "{err}");
            let expected = format!("not well-formed XML: {message}");
            assert_eq!(err.kind, ParseErrorKind::Invalid(expected));
        }
    }

    /// Comments inside an element are not part of its text.
    #[test]
    fn comments_inside_elements_are_skipped() {
        let text = DEMO
            .replace("<count>1</count>", "<count><!--one-->1<!-- --></count>")
            .replace(">f00<", "><!--red-->f<!--x-->00<")
            .replace("<title>Two", "<title><!--t-->Two")
            .replace("<image>\n|Xr|", "<image><!--\nrow 1\n-->\n|Xr|<!-- -->");
        let puzzles = parse(&text).unwrap();
        assert_eq!(puzzles, parse(DEMO).unwrap());
    }

    #[test]
    fn black_and_white_xml_is_bw() {
        let text = DEMO
            .replace(
                "<line><count color=\"red\">1</count></line>",
                "<line></line>",
            )
            .replace("<count color=\"red\">1</count>", "")
            .replace("|Xr|", "|X.|");
        let puzzles = parse(&text).unwrap();
        assert!(matches!(puzzles[0], AnyPuzzle::Bw(_)));
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            (
                DEMO.replace(
                    "color=\"red\">1</count></line>\n</clues>\n<clues",
                    "color=\"pink\">1</count></line>\n</clues>\n<clues",
                ),
                12,
                "`pink` is not declared",
            ),
            (
                DEMO.replace(
                    "<count>1</count></line>\n<line>",
                    "<count>x</count></line>\n<line>",
                ),
                11,
                "not a block length",
            ),
            (DEMO.replace("</title>", "</titl>"), 5, "not well-formed"),
            (DEMO.replace("|Xr|", "|X?|"), 18, "image character"),
            (
                DEMO.replace("<image>\n|Xr|", "<image><!--\nx\n-->\n|X?|"),
                20,
                "image character",
            ),
            (DEMO.replace("f00</color>", "fg0</color>"), 9, "not hex RGB"),
            (
                DEMO.replace(
                    "<count>1</count></line>\n<line>",
                    "<count><!--a-->x<!--b--></count></line>\n<line>",
                ),
                11,
                "<count>x</count> is not",
            ),
        ];
        for (text, line, message) in cases {
            let err = parse(&text).unwrap_err();
            assert!(err.to_string().contains(message), "{err}");
            assert_eq!(err.line, line, "{err}");
        }
    }
}
