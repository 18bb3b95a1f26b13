//! Writing puzzles in any format that can hold them, for `nonoenum convert` and `make`.

use super::Format;
use crate::color::{AnyPuzzle, ColorPuzzle};

/// Writes a puzzle in `format`. Black-and-white formats refuse a colour puzzle; colour
/// formats write a black-and-white one as white and black. Tournament files are not written.
pub fn write_puzzle(puzzle: &AnyPuzzle, format: Format) -> Result<String, String> {
    let colour_only = |what: &str| {
        format!("{what} holds black-and-white puzzles only; use g, xml or pzl for colour")
    };
    match (format, puzzle) {
        (Format::Olsak, p) => Ok(super::olsak::write(&p.to_color())),
        (Format::Xml, p) => Ok(super::xml::write(&p.to_color())),
        (Format::Pzl, p) => Ok(super::pzl::write(&p.to_color())),
        (Format::Tournament, _) => Err("writing tournament files is not supported".into()),
        (_, AnyPuzzle::Color(_)) => Err(colour_only(format.name())),
        (Format::Plain, AnyPuzzle::Bw(p)) => Ok(super::plain::write(p)),
        (Format::Non, AnyPuzzle::Bw(p)) => Ok(super::non::write(p)),
        (Format::Mk, AnyPuzzle::Bw(p)) => Ok(super::nin::write_mk(p)),
        (Format::Nin, AnyPuzzle::Bw(p)) => Ok(super::nin::write(p)),
        (Format::Json, AnyPuzzle::Bw(p)) => Ok(super::json::write(p)),
        (Format::Picross, AnyPuzzle::Bw(p)) => Ok(super::picross::write(p)),
        (Format::Pynogram, AnyPuzzle::Bw(p)) => Ok(super::pynogram::write(p)),
    }
}

/// The puzzle with `cells` (row-major palette indices) as its goal: how a solution is written
/// in a puzzle format (`.non`, XML).
pub fn with_goal(puzzle: &AnyPuzzle, cells: &[u8]) -> AnyPuzzle {
    match puzzle {
        AnyPuzzle::Bw(p) => {
            let mut p = p.clone();
            p.goal = Some(cells.iter().map(|&c| c != 0).collect());
            AnyPuzzle::Bw(p)
        }
        AnyPuzzle::Color(p) => {
            let mut p: ColorPuzzle = p.clone();
            p.goal = Some(cells.to_vec());
            AnyPuzzle::Color(p)
        }
    }
}

/// What of `puzzle` its conversion `text` in `format` (by [`write_puzzle`]) lost, in words:
/// the title, the goal, the givens, the colours, their names or characters, the other metadata
/// fields (`the fields KEY, ...`); a title written only as a comment, which reading skips, or
/// written changed, is named so.
pub fn lost(puzzle: &AnyPuzzle, text: &str, format: Format) -> Vec<String> {
    let Ok(mut back) = super::read_any_puzzles(text.as_bytes(), Some(format), None) else {
        return Vec::new();
    };
    if back.len() != 1 {
        return Vec::new();
    }
    let (before, after) = (puzzle.to_color(), back.swap_remove(0).to_color());
    let mut lost: Vec<String> = Vec::new();
    // A format without a title field may write it as a comment, which reading skips; one with
    // a title line may have to change it (`.g` drops its leading `#`s).
    if let Some(title) = &before.title
        && after.title.as_ref() != Some(title)
    {
        lost.push(match &after.title {
            Some(changed) => format!("the title as given (it reads back as `{changed}`)"),
            None if in_a_comment(text, title) => "the title (written only as a comment)".into(),
            None => "the title".into(),
        });
    }
    if before.goal.is_some() && after.goal.is_none() {
        lost.push("the goal".into());
    }
    if !before.givens.is_empty() && after.givens.is_empty() {
        lost.push("the givens".into());
    }
    let rgb = |p: &ColorPuzzle| p.colors.iter().map(|c| c.rgb).collect::<Vec<_>>();
    if rgb(&before) != rgb(&after) {
        lost.push("the colours".into());
    }
    let colour = before.colors.len() > 2;
    let names = |p: &ColorPuzzle| p.colors.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    let chars = |p: &ColorPuzzle| p.colors.iter().map(|c| c.ch).collect::<Vec<_>>();
    if colour && names(&before) != names(&after) {
        lost.push("the colour names".into());
    }
    if colour && chars(&before) != chars(&after) {
        lost.push("the colour characters".into());
    }
    let keys: Vec<&str> = before
        .metadata
        .iter()
        .filter(|(key, _)| !after.metadata.iter().any(|(k, _)| k == key))
        .map(|(key, _)| key.as_str())
        .collect();
    if !keys.is_empty() {
        lost.push(format!("the fields {}", keys.join(", ")));
    }
    lost
}

/// The note for the user once `text`, `puzzle` written in `format`, is written: that it is
/// past the size nonoenum reads back, or what it lost (see [`lost`]); `None` when neither.
pub fn loss_note(puzzle: &AnyPuzzle, text: &str, format: Format) -> Option<String> {
    let (bytes, max) = (text.len() as u64, super::MAX_INPUT_BYTES);
    if bytes > max {
        let (mib, max) = (bytes as f64 / f64::from(1 << 20), max >> 20);
        return Some(format!(
            "{mib:.1} MiB written, past the {max} MiB nonoenum reads back"
        ));
    }
    let lost = lost(puzzle, text, format);
    (!lost.is_empty()).then(|| {
        let (name, lost) = (format.name(), lost.join(", "));
        format!("{name} has no place for {lost}: dropped")
    })
}

/// Whether a `#` comment line of `text` holds `value` (its line breaks as spaces), as the
/// plain and pynogram writers keep a title.
fn in_a_comment(text: &str, value: &str) -> bool {
    let value = value.replace(['\r', '\n'], " ");
    (text.lines()).any(|line| {
        line.strip_prefix('#')
            .is_some_and(|c| c.trim() == value.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::read_any_puzzles;

    /// Every writable format reads back as the same puzzle (clues; colour formats keep the
    /// palette's values).
    #[test]
    fn every_format_round_trips() {
        let bw = AnyPuzzle::Bw(
            crate::Puzzle::from_picture(2, 3, &[true, false, true, true, true, false]).unwrap(),
        );
        let colour = AnyPuzzle::Color(
            ColorPuzzle::from_picture(
                vec![
                    crate::color::Color::new("white", [255; 3], '.'),
                    crate::color::Color::new("red", [255, 0, 0], 'r'),
                    crate::color::Color::new("blue", [0, 0, 255], 'b'),
                ],
                2,
                3,
                &[1, 2, 0, 0, 2, 2],
            )
            .unwrap(),
        );
        let clues = |p: &AnyPuzzle| {
            let c = p.to_color();
            let rgb: Vec<[u8; 3]> = c.colors.iter().skip(1).map(|c| c.rgb).collect();
            (c.row_clues, c.col_clues, rgb)
        };
        for format in Format::ALL {
            for puzzle in [&bw, &colour] {
                let Ok(text) = write_puzzle(puzzle, format) else {
                    assert!(format == Format::Tournament || matches!(puzzle, AnyPuzzle::Color(_)));
                    continue;
                };
                let back = read_any_puzzles(text.as_bytes(), Some(format), None)
                    .unwrap_or_else(|e| panic!("{format}: {e}\n{text}"));
                assert_eq!(clues(&back[0]), clues(puzzle), "{format}");
            }
        }
    }

    #[test]
    fn a_conversion_says_what_the_format_has_no_place_for() {
        let text = include_str!("../../puzzles/dancer.non");
        let puzzle = &read_any_puzzles(text.as_bytes(), Some(Format::Non), None).unwrap()[0];
        let nin = write_puzzle(puzzle, Format::Nin).unwrap();
        let fields = "the fields catalogue, by, copyright";
        assert_eq!(
            lost(puzzle, &nin, Format::Nin),
            ["the title", "the goal", fields]
        );
        let non = write_puzzle(puzzle, Format::Non).unwrap();
        assert!(lost(puzzle, &non, Format::Non).is_empty(), "{non}");
    }

    /// Colours no clue uses are dropped in every format (the pynogram file declares blue and
    /// never uses it), and a puzzle of one colour keeps it for what is written from it.
    #[test]
    fn one_colour_in_use_is_black_and_white_and_keeps_its_colour() {
        let text = "[colors]\nred = (FF0000) *\nblue = (0000FF) @\n[clues]\n\
                    columns =\n    1red\n    0\nrows =\n    0\n    1red\n";
        let read = read_any_puzzles(text.as_bytes(), Some(Format::Pynogram), None).unwrap();
        let AnyPuzzle::Bw(bw) = &read[0] else {
            panic!("one colour in use is black and white: {read:?}")
        };
        let red = bw.colors.palette()[1].clone();
        assert_eq!((red.rgb, red.name.as_str()), ([255, 0, 0], "red"));
        for format in [Format::Olsak, Format::Xml, Format::Pzl] {
            let written = write_puzzle(&read[0], format).unwrap();
            assert!(
                written.to_uppercase().contains("FF0000"),
                "{format}: {written}"
            );
            let back = read_any_puzzles(written.as_bytes(), Some(format), None).unwrap();
            let rgb = |p: &AnyPuzzle| {
                p.to_color()
                    .colors
                    .iter()
                    .map(|c| c.rgb)
                    .collect::<Vec<_>>()
            };
            assert_eq!(rgb(&back[0]), rgb(&read[0]), "{format}");
        }
        let non = write_puzzle(&read[0], Format::Non).unwrap();
        assert_eq!(lost(&read[0], &non, Format::Non), ["the colours"]);
        let plain = crate::Puzzle::from_picture(1, 1, &[true]).unwrap();
        assert_eq!(plain.colors, crate::TwoColors::default());
    }

    /// A title or field whose text happens to be in the output (a clue `1`) is still lost; a
    /// title in a comment, which reading skips, is named so.
    #[test]
    fn a_title_or_field_found_in_the_output_is_still_lost() {
        let mut bw = crate::Puzzle::from_picture(1, 1, &[true]).unwrap();
        bw.title = Some("1".into());
        bw.metadata = vec![("catalogue".into(), "1".into())];
        let puzzle = &AnyPuzzle::Bw(bw);
        let nin = write_puzzle(puzzle, Format::Nin).unwrap();
        let fields = "the fields catalogue";
        assert_eq!(lost(puzzle, &nin, Format::Nin), ["the title", fields]);
        let plain = write_puzzle(puzzle, Format::Plain).unwrap();
        let comment = "the title (written only as a comment)";
        assert_eq!(lost(puzzle, &plain, Format::Plain), [comment, fields]);
    }

    /// A title that a format writes changed is named with what reads back, not as dropped.
    #[test]
    fn a_title_written_changed_says_what_reads_back() {
        let mut bw = crate::Puzzle::from_picture(1, 1, &[true]).unwrap();
        bw.title = Some("##hash".into());
        let puzzle = &AnyPuzzle::Bw(bw);
        let g = write_puzzle(puzzle, Format::Olsak).unwrap();
        let changed = "the title as given (it reads back as `hash`)";
        assert_eq!(lost(puzzle, &g, Format::Olsak), [changed]);
    }
}
