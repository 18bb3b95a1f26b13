//! Machine-readable output (`--to jsonl`): one JSON object per line. Each solution is a
//! `solution` line; each puzzle ends with a `result` line that says which puzzle and givens it
//! belongs to, how many solutions were found and whether the search was complete. `nonoenum
//! merge` reads these lines back. `--to json` writes the same objects as one JSON array
//! ([`JsonArray`]). The objects are the library's ([`nonoenum::JsonLine`]).

use std::io::{self, Write};

/// The objects of `--to jsonl` output, defined once in the library, where `merge` reads them.
pub(crate) use nonoenum::{JsonLine, RunResult};

/// The rows of a grid as strings of `#` and `.`.
/// The rows of a solution of either kind.
pub(crate) fn picture_rows(picture: nonoenum::AnyGrid<'_>) -> Vec<String> {
    super::picture_text_rows(picture)
}

/// Writes one JSON line.
pub(crate) fn write_line(out: &mut (impl Write + ?Sized), line: &JsonLine) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// Turns JSON lines written through it into one JSON array: `[` before the first object, a
/// comma at the end of each line but the last, `]` at the end ([`JsonArray::finish`]). The
/// objects hold no raw newline (serde_json escapes them), so each newline ends an object.
pub(crate) struct JsonArray<'w, W: Write> {
    out: &'w mut W,
    /// Whether an object has been started.
    started: bool,
    /// Whether the last object's newline is held back, for a comma to go before it.
    pending_newline: bool,
}

impl<'w, W: Write> JsonArray<'w, W> {
    /// An array written to `out`.
    pub(crate) fn new(out: &'w mut W) -> Self {
        JsonArray {
            out,
            started: false,
            pending_newline: false,
        }
    }

    /// Closes the array (an empty one if nothing was written).
    pub(crate) fn finish(self) -> io::Result<()> {
        let end: &[u8] = match (self.started, self.pending_newline) {
            (false, _) => b"[]\n",
            (true, true) => b"\n]\n",
            (true, false) => b"]\n",
        };
        self.out.write_all(end)?;
        self.out.flush()
    }
}

impl<W: Write> Write for JsonArray<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            if self.pending_newline {
                self.out.write_all(b",\n")?;
                self.pending_newline = false;
            } else if !self.started {
                self.out.write_all(b"[")?;
                self.started = true;
            }
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.out.write_all(&rest[..end])?;
                    self.pending_newline = true;
                    rest = &rest[end + 1..];
                }
                None => {
                    self.out.write_all(rest)?;
                    rest = &[];
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_one_array() {
        for (lines, array) in [
            ("", "[]\n"),
            ("{\"a\":1}\n", "[{\"a\":1}\n]\n"),
            (
                "{\"a\":1}\n{\"b\":\"x\\ny\"}\n",
                "[{\"a\":1},\n{\"b\":\"x\\ny\"}\n]\n",
            ),
        ] {
            let mut out = Vec::new();
            let mut json = JsonArray::new(&mut out);
            // Written in pieces, as serde_json writes.
            for piece in lines.as_bytes().chunks(3) {
                json.write_all(piece).expect("write");
            }
            json.finish().expect("finish");
            let text = String::from_utf8(out).expect("UTF-8");
            assert_eq!(text, array);
            let _: serde_json::Value = serde_json::from_str(&text).expect("one document");
        }
    }
}
