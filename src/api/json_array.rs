//! `--to json`: the objects of a run's JSON results ([`JsonLine`](super::JsonLine)), written
//! one a line, joined into one JSON array as they are written, which
//! [`merge`](super::merge()) reads back as it reads the lines.

use std::io::{self, Write};

/// Turns JSON lines written through it into one JSON array: `[` before the first object, a
/// comma at the end of each line but the last, `]` at the end ([`JsonArray::finish`]). The
/// objects hold no raw newline (serde_json escapes them), so each newline ends an object.
pub struct JsonArray<'w, W: Write> {
    out: &'w mut W,
    /// Whether an object has been started.
    started: bool,
    /// Whether the last object's newline is held back, for a comma to go before it.
    pending_newline: bool,
}

impl<'w, W: Write> JsonArray<'w, W> {
    /// An array written to `out`.
    pub fn new(out: &'w mut W) -> Self {
        JsonArray {
            out,
            started: false,
            pending_newline: false,
        }
    }

    /// Closes the array (an empty one if nothing was written).
    pub fn finish(self) -> io::Result<()> {
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
    fn lines_become_one_array_that_reads_back() {
        let one = "{\"type\":\"solution\",\"rows\":[\"#\"]}";
        let two = "{\"type\":\"solution\",\"rows\":[\"x\\ny\"]}";
        for (lines, array) in [
            (String::new(), "[]\n".to_string()),
            (format!("{one}\n"), format!("[{one}\n]\n")),
            (format!("{one}\n{two}\n"), format!("[{one},\n{two}\n]\n")),
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
            let read = super::super::results::read_lines(&text).map_err(|(_, e)| e);
            assert_eq!(read.expect("one document").len(), lines.lines().count());
        }
    }
}
