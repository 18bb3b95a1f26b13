//! Puzzle file formats: detection and parsing.
//!
//! [`read_puzzles`] turns the bytes of a file into checked [`Puzzle`]s: it decodes the text,
//! tells the [`Format`] (unless given) and parses it. Every error is a [`ParseError`] naming the
//! line of the problem. Parsers never panic, and check a declared size before allocating for it.
//!
//! Formats: [`plain`] (`ROWS COLS` then clue lines), [`non`] (Simpson's `.non`) and
//! [`tournament`] (the `$N` files of the computer tournaments). Givens (cells known in advance)
//! come in a separate file: [`givens`]. Solutions, listed by the million, have their own
//! [`compact`] format.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use crate::color::AnyPuzzle;
use crate::puzzle::Puzzle;

pub mod color_givens;
pub mod compact;
pub mod error;
pub mod givens;
pub mod json;
pub mod nin;
pub mod non;
pub mod olsak;
pub mod picross;
pub mod plain;
pub mod pynogram;
pub mod pzl;
pub mod tournament;
pub mod write;
pub mod xml;

mod palette;

mod text;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod keyword_tests;

/// For each case `(from, to, line, kind)`: `good` with `from` replaced by `to` fails to parse
/// at `line`, with an error kind that prints (with `{:?}`) starting with `kind`.
#[cfg(test)]
fn assert_edits_fail<T: fmt::Debug>(
    parse: impl Fn(&str) -> Result<T, ParseError>,
    good: &str,
    cases: &[(&str, &str, usize, &str)],
) {
    for &(from, to, line, kind) in cases {
        let text = good.replace(from, to);
        let err = parse(&text).expect_err(&text);
        let got = format!("{:?}", err.kind);
        assert!(
            err.line == line && got.starts_with(kind),
            "{text:?}: {err}, {got}"
        );
    }
}

/// The most bytes the `nonoenum` command reads of one input (a puzzle, givens, checkpoint,
/// manifest or picture file, or standard input), and of one line of a compact listing read
/// back ([`crate::read_listing`]). Real puzzles are far smaller: a line has at most 4096
/// cells. Anything larger is refused before it fills the memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

pub use error::{ParseError, ParseErrorKind};
pub use givens::{
    add_givens, parse_givens, parse_numbered_givens, read_givens, read_numbered_givens,
    read_numbered_givens_in,
};

/// A puzzle file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `ROWS COLS`, then one line per row clue, then one per column clue: see [`plain`].
    Plain,
    /// Steve Simpson's `.non`: see [`non`].
    Non,
    /// Computer-tournament files, many square puzzles after `$N` lines: see [`tournament`].
    Tournament,
    /// Olšák's `.g`, black-and-white or colour: see [`olsak`].
    Olsak,
    /// webpbn's XML export, black-and-white or colour: see [`xml`].
    Xml,
    /// Olšák's `.mk` (`HEIGHT WIDTH`, rows, `#`, columns): read as [`plain`].
    Mk,
    /// Wilk's `.nin` (`WIDTH HEIGHT`, rows, columns): see [`nin`].
    Nin,
    /// thomasr's JSON (`{"columns": [[..]], "rows": [[..]]}`): see [`json`].
    Json,
    /// izaron's `.pzl` colour format: see [`pzl`].
    Pzl,
    /// picross-solver's text format (`GRID NAME`, `ROWS`, `[ 1 2 ]`, …): see [`picross`].
    Picross,
    /// pynogram's and nonogrid's `[clues]` files, black-and-white or colour: see [`pynogram`].
    Pynogram,
}

impl Format {
    /// Every format, in the order of [`Format::name`]'s documentation.
    pub const ALL: [Format; 11] = [
        Format::Plain,
        Format::Non,
        Format::Tournament,
        Format::Olsak,
        Format::Xml,
        Format::Mk,
        Format::Nin,
        Format::Json,
        Format::Pzl,
        Format::Picross,
        Format::Pynogram,
    ];

    /// The format with a name (case-insensitive): `plain`, `txt` or `text`; `non`;
    /// `tournament` or `taai`.
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "plain" | "txt" | "text" => Some(Format::Plain),
            "non" => Some(Format::Non),
            "tournament" | "taai" => Some(Format::Tournament),
            "g" | "olsak" => Some(Format::Olsak),
            "xml" | "webpbn" => Some(Format::Xml),
            "mk" => Some(Format::Mk),
            "nin" => Some(Format::Nin),
            "json" => Some(Format::Json),
            "pzl" => Some(Format::Pzl),
            "picross" | "grid" => Some(Format::Picross),
            "pynogram" | "nonogrid" | "toml" => Some(Format::Pynogram),
            _ => None,
        }
    }

    /// The canonical name: `plain`, `non` or `tournament`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Plain => "plain",
            Format::Non => "non",
            Format::Tournament => "tournament",
            Format::Olsak => "g",
            Format::Xml => "xml",
            Format::Mk => "mk",
            Format::Nin => "nin",
            Format::Json => "json",
            Format::Pzl => "pzl",
            Format::Picross => "picross",
            Format::Pynogram => "pynogram",
        }
    }

    /// Tells the format of a file from its name and content, or `None` if it cannot.
    ///
    /// An extension `.non`, `.g`, `.xml`, `.mk`, `.nin`, `.json`, `.pzl` or `.toml` decides.
    /// Otherwise a text starting with `<?xml` or `<puzzleset` is XML, one starting with `{` JSON,
    /// one with a `[clues]` line pynogram's, one with a line starting with `:` Olšák's `.g`. Otherwise, skipping blank lines and `#` comments: a first
    /// line `GRID NAME` is picross-solver's format; one starting with `$` is a tournament file; a line starting with `width`, `height`,
    /// `rows` or `columns` is `.non`; a first line of exactly two numbers is plain; a first line
    /// of tab-separated numbers is a tournament file without `$` lines. A `.txt` extension
    /// decides nothing (tournament files are `.txt` too).
    pub fn detect(path: Option<&Path>, text: &str) -> Option<Format> {
        let extension = path.and_then(Path::extension).and_then(|e| e.to_str());
        let by_extension = [
            ("non", Format::Non),
            ("g", Format::Olsak),
            ("xml", Format::Xml),
            ("mk", Format::Mk),
            ("nin", Format::Nin),
            ("json", Format::Json),
            ("pzl", Format::Pzl),
            ("toml", Format::Pynogram),
        ];
        if let Some(ext) = extension
            && let Some(&(_, format)) = by_extension
                .iter()
                .find(|(e, _)| ext.eq_ignore_ascii_case(e))
        {
            return Some(format);
        }
        let start = text.trim_start();
        if start.starts_with("<?xml") || start.starts_with("<puzzleset") {
            return Some(Format::Xml);
        }
        if start.starts_with('{') {
            return Some(Format::Json);
        }
        if pynogram::has_clues_section(text) {
            return Some(Format::Pynogram);
        }
        if text::numbered_lines(text).any(|(_, line)| line.starts_with(':')) {
            return Some(Format::Olsak);
        }
        let mut lines = text::numbered_lines(text)
            .map(|(_, line)| line.trim())
            .filter(|line| !line.is_empty() && !line.starts_with('#'));
        let first = lines.next()?;
        if picross::grid_name(first).is_some() {
            return Some(Format::Picross);
        }
        if first.starts_with('$') {
            return Some(Format::Tournament);
        }
        if std::iter::once(first).chain(lines).any(is_non_keyword) {
            return Some(Format::Non);
        }
        let is_number = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if !text::tokens(first).all(is_number) {
            return None;
        }
        match text::tokens(first).count() {
            2 => Some(Format::Plain),
            _ if first.contains('\t') => Some(Format::Tournament),
            _ => None,
        }
    }

    /// Parses a text in this format into checked black-and-white puzzles (one, except for
    /// tournament and XML files, and plain files with several `givens` sections). A colour puzzle is [`ParseErrorKind::ColorUnsupported`]:
    /// [`Format::parse_any`] reads both kinds.
    pub fn parse(self, text: &str) -> Result<Vec<Puzzle>, ParseError> {
        only_bw(self.parse_any(text)?)
    }

    /// Parses a text in this format into checked puzzles, black-and-white or colour (a colour
    /// puzzle with a single colour comes back black and white).
    pub fn parse_any(self, text: &str) -> Result<Vec<AnyPuzzle>, ParseError> {
        let bw = |p: Vec<Puzzle>| p.into_iter().map(AnyPuzzle::Bw).collect();
        match self {
            Format::Plain => plain::parse_all(text).map(bw),
            Format::Non => non::parse(text).map(|p| bw(vec![p])),
            Format::Tournament => tournament::parse(text).map(bw),
            Format::Olsak => olsak::parse(text).map(|p| vec![p]),
            Format::Xml => xml::parse(text),
            Format::Mk => plain::parse(text).map(|p| bw(vec![p])),
            Format::Nin => nin::parse(text).map(|p| bw(vec![p])),
            Format::Json => json::parse(text).map(|p| bw(vec![p])),
            Format::Pzl => pzl::parse(text).map(|p| vec![p]),
            Format::Picross => picross::parse(text).map(bw),
            Format::Pynogram => pynogram::parse(text).map(|p| vec![p]),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a line starts with a keyword that only `.non` files have.
fn is_non_keyword(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or_default();
    ["width", "height", "rows", "columns"]
        .iter()
        .any(|k| word.eq_ignore_ascii_case(k))
}

/// Reads the puzzles of a file: decodes it, tells its format (unless `format` is given; `path`
/// helps, by its extension) and parses it.
///
/// Returns at least one checked puzzle, or an error: a file that is empty or holds only blank
/// lines and `#` comments is [`ParseErrorKind::Empty`] (whatever the format), an unrecognised
/// one [`ParseErrorKind::UnknownFormat`]. The text must be UTF-8 (a leading byte-order mark is
/// dropped), except that a `.non` file that is not UTF-8 is read as Windows-1252, the encoding
/// of older webpbn exports.
pub fn read_puzzles(
    bytes: &[u8],
    format: Option<Format>,
    path: Option<&Path>,
) -> Result<Vec<Puzzle>, ParseError> {
    only_bw(read_any_puzzles(bytes, format, path)?)
}

/// The black-and-white puzzles, or [`ParseErrorKind::ColorUnsupported`] if one is in colour.
fn only_bw(puzzles: Vec<AnyPuzzle>) -> Result<Vec<Puzzle>, ParseError> {
    puzzles
        .into_iter()
        .map(|p| match p {
            AnyPuzzle::Bw(p) => Ok(p),
            AnyPuzzle::Color(_) => Err(ParseError::new(
                0,
                ParseErrorKind::ColorUnsupported("this reader"),
            )),
        })
        .collect()
}

/// Reads the puzzles of a file like [`read_puzzles`], black-and-white or colour.
pub fn read_any_puzzles(
    bytes: &[u8],
    format: Option<Format>,
    path: Option<&Path>,
) -> Result<Vec<AnyPuzzle>, ParseError> {
    let text = decode(bytes, format, path)?;
    if !text::has_content(&text) {
        return Err(ParseError::new(0, ParseErrorKind::Empty));
    }
    let format = format
        .or_else(|| Format::detect(path, &text))
        .ok_or(ParseError::new(0, ParseErrorKind::UnknownFormat))?;
    format.parse_any(&text)
}

/// UTF-8, or Windows-1252 for a `.non` file that is not UTF-8.
fn decode<'a>(
    bytes: &'a [u8],
    format: Option<Format>,
    path: Option<&Path>,
) -> Result<Cow<'a, str>, ParseError> {
    match text::decode_utf8(bytes) {
        Ok(text) => Ok(Cow::Borrowed(text)),
        Err(error) => {
            let lossy = String::from_utf8_lossy(bytes);
            match format.or_else(|| Format::detect(path, &lossy)) {
                Some(Format::Non) => Ok(Cow::Owned(text::decode_windows_1252(bytes))),
                _ => Err(error),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
            assert_eq!(format.to_string(), format.name());
        }
        let aliases = [
            ("TXT", Format::Plain),
            ("text", Format::Plain),
            ("taai", Format::Tournament),
        ];
        for (name, format) in aliases {
            assert_eq!(Format::from_name(name), Some(format));
        }
        assert_eq!(Format::from_name("svg"), None);
    }

    #[test]
    fn detects_formats() {
        let non = Some(Path::new("x.NON"));
        let txt = Some(Path::new("x.txt"));
        let cases = [
            (non, "2 2\n1\n1\n1\n1\n", Some(Format::Non)),
            (txt, "# c\n\n2 2\n1\n1\n1\n1\n", Some(Format::Plain)),
            (txt, "2,2\n", Some(Format::Plain)),
            (txt, "$1\n1\n1\n", Some(Format::Tournament)),
            (None, "\n# c\n$1\n", Some(Format::Tournament)),
            (None, "1\t2\t1\n3\n", Some(Format::Tournament)),
            (None, "title \"t\"\nwidth 2\n", Some(Format::Non)),
            (None, "catalogue x\nHEIGHT 2\n", Some(Format::Non)),
            (None, "1 2 3\n", None),
            (None, "hello\n", None),
            (None, "", None),
        ];
        for (path, text, expected) in cases {
            assert_eq!(Format::detect(path, text), expected, "{text:?}");
        }
    }

    #[test]
    fn reads_puzzles_and_reports_whole_file_errors() {
        let plain = b"1 1\n1\n1\n";
        let puzzles = read_puzzles(plain, None, None).expect("valid");
        assert_eq!(puzzles.len(), 1);
        let two = read_puzzles(b"$1\n1\n1\n$2\n0\n0\n", None, None).expect("valid");
        assert_eq!(two.len(), 2);
        let cases: [(&[u8], Option<Format>, usize, ParseErrorKind); 11] = [
            (b"", None, 0, ParseErrorKind::Empty),
            (b" \n\r\n", Some(Format::Plain), 0, ParseErrorKind::Empty),
            (b"# nothing here\n\n", None, 0, ParseErrorKind::Empty),
            (
                b"\xef\xbb\xbf # c\n\t\n",
                Some(Format::Plain),
                0,
                ParseErrorKind::Empty,
            ),
            (b"# c\n", Some(Format::Non), 0, ParseErrorKind::Empty),
            (b"# c\n", Some(Format::Tournament), 0, ParseErrorKind::Empty),
            (b"hello\n", None, 0, ParseErrorKind::UnknownFormat),
            (b"1 1\n1\n\x80\n", None, 3, ParseErrorKind::InvalidUtf8),
            (
                b"$1\n1\n\xc3(\n",
                Some(Format::Tournament),
                3,
                ParseErrorKind::InvalidUtf8,
            ),
            (b"\xef\xbb\xbf1 1\n1\n", None, 3, missing_column()),
            (b"1 1\n1\n1\n", Some(Format::Non), 1, not_a_key()),
        ];
        for (bytes, format, line, kind) in cases {
            let err = read_puzzles(bytes, format, None).expect_err("invalid");
            assert_eq!((err.line, err.kind), (line, kind), "{bytes:?}");
        }
    }

    fn not_a_key() -> ParseErrorKind {
        let context = "where a `key value` line should be";
        ParseErrorKind::Unexpected {
            found: "1".into(),
            context,
        }
    }

    fn missing_column() -> ParseErrorKind {
        ParseErrorKind::MissingLine {
            expected: "column clue 1 of 1".into(),
            found: "end of file".into(),
        }
    }

    #[test]
    fn non_files_that_are_not_utf8_are_windows_1252() {
        let text = b"title \"P\xe9rez\"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n";
        for (format, path) in [
            (Some(Format::Non), None),
            (None, Some(Path::new("a.non"))),
            (None, None),
        ] {
            let puzzles = read_puzzles(text, format, path).expect("valid");
            assert_eq!(puzzles[0].title.as_deref(), Some("Pérez"));
        }
    }

    #[test]
    fn huge_declared_sizes_fail_at_once() {
        let inputs: [&[u8]; 3] = [
            b"1000000000 1000000000\n",
            b"width 1000000000\nheight 1000000000\nrows\n",
            b"99999999999999999999999999 1\n",
        ];
        for bytes in inputs {
            let err = read_puzzles(bytes, None, None).expect_err("too large");
            assert!(err.line > 0, "{err}");
        }
    }

    /// Whether an error has the shape every caller relies on: one line, and a line number unless
    /// it is about the whole file.
    fn is_well_formed(err: &ParseError) -> bool {
        let whole_file = matches!(
            err.kind,
            ParseErrorKind::Empty | ParseErrorKind::UnknownFormat
        );
        (err.line > 0 || whole_file) && !err.to_string().contains(['\n', '\r'])
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            for format in std::iter::once(None).chain(Format::ALL.map(Some)) {
                if let Err(err) = read_any_puzzles(&bytes, format, None) {
                    proptest::prop_assert!(is_well_formed(&err), "{err:?}");
                }
            }
            match read_numbered_givens(&bytes) {
                Ok(givens) => {
                    let mut puzzle = Puzzle::from_picture(2, 2, &[true, false, false, true])?;
                    if let Err(err) = add_givens(&mut puzzle, &givens) {
                        proptest::prop_assert!(err.line > 0 && is_well_formed(&err), "{err:?}");
                    }
                }
                Err(err) => proptest::prop_assert!(err.line > 0 && is_well_formed(&err), "{err:?}"),
            }
            if let Err(err) = tournament::parse_solutions(&String::from_utf8_lossy(&bytes)) {
                proptest::prop_assert!(is_well_formed(&err), "{err:?}");
            }
        }

        #[test]
        fn never_panics_on_edited_colour_files(cut in 0usize..200, insert in "[0-9a-z #:<>/\"|\n]{0,6}") {
            let files = [
                (Format::Olsak, "T\n#d\n 0: #FFFFFF white\n r:* #FF0000 red\n u:@ blue\n: rows\n1r 1u\n\n: columns\n1r\n1u\n"),
                (Format::Xml, "<puzzleset><puzzle><color name=\"white\" char=\".\">fff</color>\n<clues type=\"rows\"><line><count>1</count></line></clues>\n<clues type=\"columns\"><line><count>1</count></line></clues>\n<solution><image>|X|</image></solution></puzzle></puzzleset>\n"),
                (Format::Pzl, "2\n#ff0000\n#0000ff\n3 1\n1 1 255 0 0\n0\n1 1 0 0 255\n2 1 255 0 0 1 0 0 255\n"),
                (Format::Json, "{\"columns\": [[1], [0]], \"rows\": [[1]]}\n"),
            ];
            for (format, good) in files {
                let cut = cut.min(good.len());
                if !good.is_char_boundary(cut) {
                    continue;
                }
                let text = format!("{}{insert}{}", &good[..cut], &good[cut..]);
                if let Err(err) = format.parse_any(&text) {
                    proptest::prop_assert!(is_well_formed(&err), "{err:?}");
                }
                let _ = color_givens::read_raw_givens(text.as_bytes());
            }
        }

        #[test]
        fn never_panics_on_edited_files(cut in 0usize..120, insert in "[0-9a-z $#,\n\"]{0,6}") {
            let good = "title \"t\"\nwidth 3\nheight 2\nrows\n1,1\n1\ncolumns\n2\n0\n1\ngoal \"101100\"\n\
                        $1\n2 3\n0\n1 1\n1\n";
            let cut = cut.min(good.len());
            let text = format!("{}{insert}{}", &good[..cut], &good[cut..]);
            for format in Format::ALL {
                if let Err(err) = format.parse(&text) {
                    proptest::prop_assert!(is_well_formed(&err), "{err:?}");
                }
            }
        }
    }
}
