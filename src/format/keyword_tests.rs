//! Bad files of the formats whose readers go by keywords (picross-solver's and pynogram's):
//! each error names its line and what is wrong.

use super::Format;

/// Bad files of the formats whose readers go by keywords: `(format, text, line, what the
/// message says)`.
const KEYWORD_CASES: [(Format, &str, usize, &str); 20] = [
    (
        Format::Picross,
        "ROWS\n[ 1 ]\n",
        1,
        "before the first `GRID` line",
    ),
    (
        Format::Picross,
        "GRID a\n[ 1 ]\n",
        2,
        "before `ROWS` or `COLUMNS`",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 ]\nROWS\n",
        4,
        "`ROWS` appears twice",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n1 2\n",
        3,
        "a clue in brackets should be",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 2\n",
        3,
        "in brackets, `[ 2 1 ]`",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 x ]\n",
        3,
        "`x` is not a number",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 ]\n",
        1,
        "the grid `a` has no COLUMNS",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 ]\nCOLUMNS\n[ 2 ]\n",
        5,
        "column 1",
    ),
    // The first error in the file: a grid's before a later stray line.
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 ]\nCOLUMNS\n[ 2 ]\nGRID b\nROWS\nx\n",
        5,
        "column 1",
    ),
    (
        Format::Picross,
        "GRID a\nROWS\n[ 1 ]\nCOLUMNS\nx\n",
        5,
        "`x` where",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 1\nrows = 1x\n",
        3,
        "`x` is not in `[colors]`",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 1\nrows = a\n",
        3,
        "`a` is not a number",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 1\n",
        3,
        "expected `rows =`",
    ),
    (
        Format::Pynogram,
        "[colors]\nr = red %\n[clues]\n",
        2,
        "a colour is written",
    ),
    (
        Format::Pynogram,
        "[colors]\nr = (red) %\nr = (blue) *\n",
        3,
        "`r` appears twice",
    ),
    (Format::Pynogram, "[meta]\n", 1, "unknown section `meta`"),
    (
        Format::Pynogram,
        "columns = 1\n[clues]\n",
        1,
        "where `[clues]`",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 2\nrows = 1\n",
        2,
        "column 1",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 1 0\nrows = 1\n",
        2,
        "a block of 0 cells",
    ),
    (
        Format::Pynogram,
        "[clues]\ncolumns = 1\nrows = 1\ncolumns = 1\n",
        4,
        "`columns` appears twice",
    ),
];

/// The readers of the formats that name their sections by keyword: each error names its
/// line and what is wrong.
#[test]
fn keyword_formats_name_the_line_and_the_problem() {
    for (format, text, line, message) in KEYWORD_CASES {
        let err = format.parse_any(text).expect_err(text);
        assert_eq!(err.line, line, "{format} {text:?}: {err}");
        assert!(
            err.to_string().contains(message),
            "{format} {text:?}: {err}"
        );
    }
}
