//! What `split` and `merge` need of a kind of puzzle, so that they are written once for both
//! palettes: the text format that part files hold it in (the plain format for black and white,
//! Olšák's `.g` with a `: givens` section for colour).

use nonoenum::format::{ParseError, olsak, plain};
use nonoenum::search::Searchable;
use nonoenum::{AnyPuzzle, ColorPuzzle, Puzzle};

/// A kind of puzzle that can be split into part files.
pub(crate) trait PartPuzzle: Searchable + Clone {
    /// The extension of its part files (without the dot).
    const EXTENSION: &'static str;
    /// Subtrees per part file that `split` packs (see `nonoenum::split::split_balanced`); 1
    /// where the format holds one set of givens.
    const SUBTREES_PER_PART: usize;

    /// Puzzles that differ only in their givens (a part's subtrees) in one file of its text
    /// format; `None` where the format holds one puzzle only.
    fn all_to_text(puzzles: &[Self]) -> Option<String>;
    /// Sets the title written into its file.
    fn set_title(&mut self, title: String);
}

fn parse_error(e: &ParseError) -> anyhow::Error {
    anyhow::anyhow!("line {}: {}", e.line, e.kind)
}

impl PartPuzzle for Puzzle {
    const EXTENSION: &'static str = "txt";

    const SUBTREES_PER_PART: usize = nonoenum::split::SUBTREES_PER_PART;

    fn all_to_text(puzzles: &[Self]) -> Option<String> {
        Some(plain::write_all(puzzles))
    }

    fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }
}

impl PartPuzzle for ColorPuzzle {
    const EXTENSION: &'static str = "g";

    const SUBTREES_PER_PART: usize = 1;

    fn all_to_text(puzzles: &[Self]) -> Option<String> {
        match puzzles {
            [one] => Some(olsak::write(one)),
            _ => None,
        }
    }

    fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }
}

/// The puzzle as its part files will hold it: a colour puzzle is written in the `.g` format
/// and read back (colour names without spaces, unused colours dropped), so that the checksums
/// of the parts, of the runs of the part files and of the manifest agree. Black and white is
/// unchanged.
pub(crate) fn as_stored(puzzle: AnyPuzzle) -> anyhow::Result<AnyPuzzle> {
    match puzzle {
        AnyPuzzle::Bw(p) => Ok(AnyPuzzle::Bw(p)),
        AnyPuzzle::Color(p) => olsak::parse(&olsak::write(&p))
            .map_err(|e| parse_error(&e).context("the puzzle does not survive the .g format")),
    }
}
