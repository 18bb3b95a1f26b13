//! Reading a compact listing back ([`crate::format::compact`]): [`read_listing`] turns its
//! lines into [`Solution`]s, its headers into [`CompactHeader`]s, and passes other JSON lines
//! (the `result` line of `list --json`) through.
//!
//! ```
//! use nonoenum::{ListingItem, read_listing};
//!
//! let text = "{\"type\":\"compact\",\"format\":\"nonoenum-compact/1\",\"rows\":2,\"cols\":2,\
//!             \"bits\":1,\"palette\":[\".\",\"#\"]}\nkA\nYA\n";
//! let mut rows = Vec::new();
//! for item in read_listing(text.as_bytes()) {
//!     if let ListingItem::Solution(solution) = item? {
//!         rows.push(solution.rows());
//!     }
//! }
//! assert_eq!(rows, [["#.", ".#"], [".#", "#."]]);
//! # Ok::<(), nonoenum::ListingError>(())
//! ```

use std::io::{BufRead, Read};
use std::sync::Arc;

use thiserror::Error;

use super::solve::Solution;
use crate::format::MAX_INPUT_BYTES;
use crate::format::compact::CompactHeader;

/// One line of a compact listing, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListingItem {
    /// A header: the solutions after it are grids of its size and palette.
    Header(CompactHeader),
    /// A solution.
    Solution(Solution),
    /// Another line that starts with `{`, as it was: a JSON line such as the `result` line
    /// of `list --json` (not checked: the caller reads it).
    Json(String),
}

/// Why a listing could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ListingError {
    /// A line is not what a compact listing holds.
    #[error("line {line}: {problem}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The listing could not be read.
    #[error("line {line}: {source}")]
    Io {
        /// The line being read, from 1.
        line: usize,
        /// What the system said.
        source: std::io::Error,
    },
}

impl ListingError {
    /// The line of the problem, from 1.
    pub fn line(&self) -> usize {
        match self {
            ListingError::Line { line, .. } | ListingError::Io { line, .. } => *line,
        }
    }
}

/// The lines of a compact listing, read one at a time (see [`read_listing`]).
#[derive(Debug)]
pub struct Listing<R> {
    reader: R,
    /// The line being read, without its end.
    buffer: Vec<u8>,
    /// Lines read so far.
    line: usize,
    /// The last header, and its palette's characters.
    header: Option<(CompactHeader, Arc<[char]>)>,
    /// The reader failed: nothing more comes.
    failed: bool,
}

/// Reads a compact listing (a `list --output-format compact` output, or several one after
/// the other): each item is a header, a solution of the last header's puzzle, or another
/// JSON line. Blank lines are skipped; a bad line is an error naming its line, and reading
/// goes on after it.
pub fn read_listing<R: BufRead>(reader: R) -> Listing<R> {
    Listing {
        reader,
        buffer: Vec::new(),
        line: 0,
        header: None,
        failed: false,
    }
}

impl<R> Listing<R> {
    /// The number of the line last read, from 1 (0 before the first).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The last header read, which the solutions read since belong to.
    pub fn header(&self) -> Option<&CompactHeader> {
        self.header.as_ref().map(|(h, _)| h)
    }

    fn problem(&self, problem: impl Into<String>) -> ListingError {
        ListingError::Line {
            line: self.line,
            problem: problem.into(),
        }
    }

    /// The item of the line in the buffer (not blank).
    fn item(&mut self) -> Result<ListingItem, ListingError> {
        let line = self.buffer.as_slice();
        if line.first() == Some(&b'{') {
            let Ok(text) = std::str::from_utf8(line) else {
                return Err(self.problem("a JSON line that is not UTF-8"));
            };
            return match CompactHeader::is_header(text) {
                Some(true) => {
                    let header = CompactHeader::parse(text).map_err(|p| self.problem(p))?;
                    let chars: Arc<[char]> = header.palette.iter().copied().collect();
                    self.header = Some((header.clone(), chars));
                    Ok(ListingItem::Header(header))
                }
                // Not a header: the caller reads it (and says what is wrong with it).
                Some(false) | None => Ok(ListingItem::Json(text.to_string())),
            };
        }
        let Some((header, chars)) = &self.header else {
            return Err(self.problem("a solution line before any header line"));
        };
        let mut cells = Vec::with_capacity(header.rows * header.cols);
        header
            .decode(line, &mut cells)
            .map_err(|p| self.problem(p))?;
        Ok(ListingItem::Solution(Solution::from_cells(
            header.cols,
            cells,
            Arc::clone(chars),
        )))
    }
}

impl<R: BufRead> Iterator for Listing<R> {
    type Item = Result<ListingItem, ListingError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            self.buffer.clear();
            self.line += 1;
            // One byte more than a line may hold, so that a longer one is seen.
            let mut capped = (&mut self.reader).take(MAX_INPUT_BYTES + 1);
            match capped.read_until(b'\n', &mut self.buffer) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(source) => {
                    self.failed = true;
                    let line = self.line;
                    return Some(Err(ListingError::Io { line, source }));
                }
            }
            if self.buffer.len() as u64 > MAX_INPUT_BYTES && self.buffer.last() != Some(&b'\n') {
                // The rest of the line is not read: nothing after it can be trusted.
                self.failed = true;
                let mib = MAX_INPUT_BYTES >> 20;
                return Some(Err(self.problem(format!("a line longer than {mib} MiB"))));
            }
            while matches!(self.buffer.last(), Some(b'\n' | b'\r')) {
                let _ = self.buffer.pop();
            }
            if !self.buffer.iter().all(u8::is_ascii_whitespace) {
                return Some(self.item());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r##"{"type":"compact","format":"nonoenum-compact/1","rows":2,"cols":2,"bits":1,"palette":[".","#"]}"##;

    fn items(text: &str) -> Vec<Result<ListingItem, String>> {
        read_listing(text.as_bytes())
            .map(|item| item.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn solutions_belong_to_the_last_header() {
        let three = HEADER.replace(r#""cols":2"#, r#""cols":3"#);
        let text = format!("{HEADER}\nkA\n\n{three}\r\noA\n{{\"type\":\"result\"}}\n");
        let read = items(&text);
        assert_eq!(read.len(), 5, "{read:?}");
        let rows: Vec<Vec<String>> = read
            .iter()
            .filter_map(|item| match item {
                Ok(ListingItem::Solution(s)) => Some(s.rows()),
                _ => None,
            })
            .collect();
        assert_eq!(rows, [vec!["#.", ".#"], vec!["#.#", "..."]]);
        assert_eq!(
            read.last(),
            Some(&Ok(ListingItem::Json(r#"{"type":"result"}"#.into())))
        );
    }

    #[test]
    fn a_line_too_long_ends_the_listing() {
        let endless = std::io::BufReader::new(std::io::repeat(b'A'));
        let read: Vec<_> = read_listing(endless)
            .map(|item| item.map_err(|e| e.to_string()))
            .collect();
        assert_eq!(read, [Err("line 1: a line longer than 64 MiB".into())]);
    }

    #[test]
    fn bad_lines_name_their_line_and_reading_goes_on() {
        let text = format!("kA\n{HEADER}\nkA\nk\n{{oops\nYA\n");
        let read = items(&text);
        assert_eq!(
            read[0],
            Err("line 1: a solution line before any header line".into())
        );
        assert!(matches!(read[1], Ok(ListingItem::Header(_))));
        assert!(matches!(read[2], Ok(ListingItem::Solution(_))));
        let err = read[3].clone().expect_err("short line");
        assert!(
            err.starts_with("line 4: a solution line of 1 characters"),
            "{err}"
        );
        assert_eq!(read[4], Ok(ListingItem::Json("{oops".into())));
        assert!(matches!(read[5], Ok(ListingItem::Solution(_))));
    }
}
