//! Helpers shared by the parsers: decoding, numbered lines, numbers, clues, error lines.

use super::error::{ParseError, ParseErrorKind};
use crate::color::{AnyPuzzle, ColorPuzzle};
use crate::puzzle::{Clue, LineId, MAX_LINE_LEN, Puzzle, PuzzleError};

/// Decodes strict UTF-8 and drops a leading byte-order mark.
///
/// The error names the line of the first invalid byte.
pub(crate) fn decode_utf8(bytes: &[u8]) -> Result<&str, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(e) => {
            let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            Err(ParseError::new(line, ParseErrorKind::InvalidUtf8))
        }
    }
}

/// Decodes Windows-1252 (Latin-1 with printable characters in 0x80..0x9F), the encoding of
/// the webpbn `.non` exports that are not UTF-8. Never fails.
pub(crate) fn decode_windows_1252(bytes: &[u8]) -> String {
    const HIGH: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => HIGH
                .get(usize::from(b - 0x80))
                .and_then(|&c| char::from_u32(u32::from(c)))
                .unwrap_or(char::REPLACEMENT_CHARACTER),
            _ => char::from(b),
        })
        .collect()
}

/// The lines of a text with their 1-based numbers, `\n` or `\r\n` line ends removed.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
}

/// The line number just past the last line: where "end of file" errors point.
pub(crate) fn eof_line(text: &str) -> usize {
    text.lines().count() + 1
}

/// The number of the file's last line (1 for an empty file): where errors found at the end
/// of a file that is read as a whole (JSON, XML) point.
pub(crate) fn last_line(text: &str) -> usize {
    text.lines().count().max(1)
}

/// Whether a line is a `#` comment.
pub(crate) fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// Whether a text holds anything but blank lines and `#` comments (which every format skips).
pub(crate) fn has_content(text: &str) -> bool {
    text.lines()
        .any(|line| !line.trim().is_empty() && !is_comment(line))
}

/// An excerpt of the input for an error message: at most [`SNIPPET_CHARS`] characters, cut
/// after a word where one ends near the limit and marked `…`, control characters escaped, so
/// that the message stays on one line.
pub(crate) fn snippet(s: &str) -> String {
    excerpt(s, SNIPPET_CHARS)
}

/// A parser's message about the input, whole but on one line: a [`snippet`] of up to
/// [`MESSAGE_CHARS`] characters, which only an echo of a huge name of the input reaches.
pub(crate) fn parser_message(s: &str) -> String {
    excerpt(s, MESSAGE_CHARS)
}

/// `s` shortened to `max` characters as [`snippet`] does.
fn excerpt(s: &str, max: usize) -> String {
    let kept = match s.char_indices().nth(max) {
        None => s,
        Some((limit, _)) => cut_at_word(s, limit),
    };
    let mut out = String::new();
    for c in kept.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if kept.len() < s.len() {
        out.push('…');
    }
    out
}

/// The most characters of the input a [`snippet`] keeps.
const SNIPPET_CHARS: usize = 40;
/// The most characters of a [`parser_message`].
const MESSAGE_CHARS: usize = 200;
/// How far back from the limit a [`snippet`] looks for the end of a word.
const SNIPPET_WORD_REACH: usize = 15;

/// `s` up to the byte `limit` (a character boundary), or up to the last space within
/// [`SNIPPET_WORD_REACH`] characters before it, so that no word is cut in two.
fn cut_at_word(s: &str, limit: usize) -> &str {
    let head = &s[..limit];
    let word_ends = s[limit..].starts_with(char::is_whitespace);
    let space = head
        .char_indices()
        .rev()
        .take(SNIPPET_WORD_REACH)
        .find(|(_, c)| c.is_whitespace());
    let cut = match (word_ends, space) {
        (true, _) => head,
        (false, Some((at, _))) => &head[..at],
        (false, None) => return head,
    };
    match cut.trim_end() {
        "" => head,
        kept => kept,
    }
}

/// The tokens of a line: separated by whitespace and/or commas.
pub(crate) fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

/// A non-negative decimal number (digits only, no sign).
pub(crate) fn parse_number(token: &str) -> Result<u64, ParseErrorKind> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseErrorKind::NotANumber(snippet(token)));
    }
    token
        .parse()
        .map_err(|_| ParseErrorKind::NumberTooLarge(snippet(token)))
}

/// A size or index: a number that fits in `usize`.
pub(crate) fn parse_usize(token: &str) -> Result<usize, ParseErrorKind> {
    let n = parse_number(token)?;
    usize::try_from(n).map_err(|_| ParseErrorKind::NumberTooLarge(snippet(token)))
}

/// One clue line: block lengths separated by spaces, tabs and/or commas. A blank line or a lone
/// `0` is the empty clue.
///
/// A block longer than any line but below 2^32 is kept, so that [`Puzzle::check`] reports the
/// clue as too long; a larger one is [`ParseErrorKind::NumberTooLarge`].
pub(crate) fn parse_clue(line: &str) -> Result<Clue, ParseErrorKind> {
    let mut blocks = Vec::new();
    for token in tokens(line) {
        let n = parse_number(token)?;
        let block = u32::try_from(n).map_err(|_| ParseErrorKind::NumberTooLarge(snippet(token)))?;
        blocks.push(block);
    }
    if blocks == [0] {
        blocks.clear();
    }
    Ok(Clue(blocks))
}

/// Checks a declared size (reporting an error at `line`) before anything is allocated for it.
pub(crate) fn check_size_at(rows: usize, cols: usize, line: usize) -> Result<(), ParseError> {
    crate::puzzle::check_size(rows, cols).map_err(|e| ParseError::new(line, e.into()))
}

/// Whether a dimension alone is out of range (0 or above [`MAX_LINE_LEN`]).
pub(crate) fn bad_dimension(n: usize) -> bool {
    n == 0 || n > MAX_LINE_LEN
}

/// Where each part of a puzzle was read, to give [`PuzzleError`]s a line number.
#[derive(Debug, Default)]
pub(crate) struct LineMap {
    /// The line declaring the size.
    pub(crate) size: usize,
    /// The line of each row clue.
    pub(crate) rows: Vec<usize>,
    /// The line of each column clue.
    pub(crate) cols: Vec<usize>,
    /// The line of the goal picture.
    pub(crate) goal: usize,
}

impl LineMap {
    /// The line a puzzle error is about.
    fn line_of(&self, error: &PuzzleError) -> usize {
        let clue_line = |line: &LineId| match *line {
            LineId::Row(i) => self.rows.get(i).copied().unwrap_or(0),
            LineId::Col(j) => self.cols.get(j).copied().unwrap_or(0),
        };
        match error {
            PuzzleError::EmptyGrid { .. } | PuzzleError::TooLarge { .. } => self.size,
            PuzzleError::ZeroBlock { line }
            | PuzzleError::ClueTooLong { line, .. }
            | PuzzleError::BadColor { line, .. } => clue_line(line),
            PuzzleError::TotalsDisagree { .. } | PuzzleError::ColorTotalsDisagree { .. } => {
                let last = |v: &[usize]| v.last().copied().unwrap_or(0);
                last(&self.rows).max(last(&self.cols))
            }
            PuzzleError::GoalMismatch { .. } => self.goal,
            _ => 0,
        }
    }

    /// Runs [`Puzzle::check`], giving a failure the line it is about.
    pub(crate) fn check(&self, puzzle: Puzzle) -> Result<Puzzle, ParseError> {
        match puzzle.check() {
            Ok(()) => Ok(puzzle),
            Err(e) => Err(ParseError::new(self.line_of(&e), e.into())),
        }
    }

    /// Runs [`ColorPuzzle::check`], giving a failure the line it is about, and returns the
    /// puzzle without the colours it never uses, each colour with a character of its own, in
    /// black and white when it uses one.
    pub(crate) fn check_color(&self, puzzle: ColorPuzzle) -> Result<AnyPuzzle, ParseError> {
        let mut puzzle = puzzle.without_unused_colors();
        super::palette::assign_chars(&mut puzzle.colors);
        match puzzle.check() {
            Ok(()) => Ok(AnyPuzzle::from_color(puzzle)),
            Err(e) => Err(ParseError::new(self.line_of(&e), e.into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_clue_lines() {
        let cases: [(&str, Result<&[u32], ParseErrorKind>); 9] = [
            ("", Ok(&[])),
            ("  \t ", Ok(&[])),
            ("0", Ok(&[])),
            ("1 2\t3", Ok(&[1, 2, 3])),
            ("1,2, 3 ,4", Ok(&[1, 2, 3, 4])),
            ("0 1", Ok(&[0, 1])),
            ("1 x", Err(ParseErrorKind::NotANumber("x".into()))),
            ("-1", Err(ParseErrorKind::NotANumber("-1".into()))),
            (
                "4294967296",
                Err(ParseErrorKind::NumberTooLarge("4294967296".into())),
            ),
        ];
        for (line, expected) in cases {
            let got = parse_clue(line).map(|c| c.0);
            assert_eq!(got, expected.map(<[u32]>::to_vec), "{line:?}");
        }
    }

    #[test]
    fn numbers_reject_signs_and_overflow() {
        assert_eq!(
            parse_number("+1"),
            Err(ParseErrorKind::NotANumber("+1".into()))
        );
        assert_eq!(parse_number("18446744073709551615"), Ok(u64::MAX));
        assert!(matches!(
            parse_number("18446744073709551616"),
            Err(ParseErrorKind::NumberTooLarge(_))
        ));
    }

    #[test]
    fn utf8_errors_name_the_line() {
        assert_eq!(decode_utf8(b"\xef\xbb\xbf1 1\n1\n"), Ok("1 1\n1\n"));
        let err = decode_utf8(b"1 1\n1\n\xff\n").unwrap_err();
        assert_eq!((err.line, err.kind), (3, ParseErrorKind::InvalidUtf8));
        assert_eq!(decode_windows_1252(b"P\xe9rez \x92\xa9"), "Pérez \u{2019}©");
    }

    #[test]
    fn lines_drop_crlf_and_snippets_stay_short() {
        let lines: Vec<_> = numbered_lines("a\r\nb\n\nc\r").collect();
        assert_eq!(lines, [(1, "a"), (2, "b"), (3, ""), (4, "c")]);
        assert_eq!(eof_line("a\nb\n"), 3);
        assert!(!has_content("# c\n\n \t\r\n  # indented\n\u{a0}\n"));
        assert!(has_content("# c\n1 1\n"));
        assert_eq!(snippet("a\u{7}b"), "a\\u{7}b");
        assert_eq!(snippet(&"x".repeat(50)).chars().count(), 41);
        assert_eq!(
            (last_line(""), last_line("a\nb\n"), last_line("a\nb")),
            (1, 2, 2)
        );
        let long = "EOF while parsing a list of clues in the middle of the file";
        assert_eq!(parser_message(long), long);
        assert_eq!(parser_message(&"y".repeat(300)).chars().count(), 201);
    }

    #[test]
    fn snippets_cut_between_words_and_whole_characters() {
        assert_eq!(snippet("short and whole"), "short and whole");
        assert_eq!(snippet(&"y".repeat(40)), "y".repeat(40));
        // A word that runs past the limit is dropped, not cut in two.
        let words = "the quick brown fox jumps over the laziest dog";
        assert_eq!(snippet(words), "the quick brown fox jumps over the…");
        // A word that ends at the limit is kept whole.
        let at_limit = format!("{} tail", "w".repeat(40));
        assert_eq!(snippet(&at_limit), format!("{}…", "w".repeat(40)));
        // No space in the last 15 characters: cut at the limit.
        let long_word = format!("a {}", "z".repeat(60));
        assert_eq!(snippet(&long_word), format!("a {}…", "z".repeat(38)));
        // Multi-byte characters are never split.
        let accents = "é".repeat(45);
        assert_eq!(snippet(&accents), format!("{}…", "é".repeat(40)));
        let mixed = format!("{} ßßßßßßßßßßßß", "ü".repeat(30));
        assert_eq!(snippet(&mixed), format!("{}…", "ü".repeat(30)));
    }
}
