//! Machine-readable output (`--to jsonl`): one JSON object per line. Each solution is a
//! `solution` line; each puzzle ends with a `result` line that says which puzzle and givens it
//! belongs to, how many solutions were found and whether the search was complete. `nonoenum
//! merge` reads these lines back. `--to json` writes the same objects as one JSON array
//! ([`JsonArray`]). The objects are the library's ([`nonoenum::JsonLine`]).

use std::io::{self, Write};

/// The objects of `--to jsonl` output, defined once in the library, where `merge` reads them.
pub(crate) use nonoenum::{JsonArray, JsonLine, RunResult};

/// Writes one JSON line.
pub(crate) fn write_line(out: &mut (impl Write + ?Sized), line: &JsonLine) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}
