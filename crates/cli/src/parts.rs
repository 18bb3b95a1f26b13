//! `nonoenum split` and `nonoenum merge`: cut a search into part files that other processes or
//! machines run, then add their `--to jsonl` (or `json`) results up, refusing anything missing
//! or foreign. The split folder, its manifest and the checks of a merge are the library's
//! ([`nonoenum::SplitFolder`]); this is the arguments, the printing and the exit codes.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::bail;
use nonoenum::SplitOptions;
use nonoenum::{MergeCommand, MergeError, Merged, SolveError, SplitError, SplitFolder};

use crate::cli::{JsonStyle, Settings};
use crate::input::display_name;
use crate::output::json::{JsonArray, JsonLine, write_line};
use crate::stop::{Cancel, Stop};

/// `nonoenum split`. A split that `cancel` stops (`--time-limit`, Ctrl-C, SIGTERM) leaves
/// nothing behind: the files it wrote and the folders it created are removed.
pub(crate) fn split(
    settings: &Settings,
    parts: usize,
    out: &Path,
    quiet: bool,
    cancel: &Cancel,
) -> anyhow::Result<ExitCode> {
    if parts == 0 {
        bail!("--parts must be at least 1");
    }
    let mut puzzles = crate::input::load_any(settings)?;
    if puzzles.len() != 1 {
        let (n, name) = (puzzles.len(), display_name(&settings.file));
        bail!("{name} holds {n} puzzles: choose the one to split with --puzzle N");
    }
    let (label, puzzle) = puzzles.remove(0);
    let options = SplitOptions {
        parts,
        label,
        source: display_name(&settings.file),
    };
    let folder = match SplitFolder::write(&puzzle, out, &options, &cancel.any) {
        Ok(folder) => folder,
        Err(SplitError::Search(SolveError::Cancelled)) => {
            let reason = cancel.reason().unwrap_or(Stop::Interrupted);
            if !quiet {
                note!(
                    "nonoenum: {}; the split was stopped and nothing was written",
                    reason.describe()
                );
            }
            return Ok(ExitCode::from(reason.exit_code()));
        }
        // The search's own error, so that an internal one is reported as such.
        Err(SplitError::Search(e)) => return Err(e.into()),
        Err(e) => return Err(e.into()),
    };
    if !quiet {
        note!("nonoenum: {}", folder.summary(&display_name(out)));
    }
    Ok(ExitCode::SUCCESS)
}

/// `nonoenum merge`: checks every part's result, then prints the total as text or JSON, or with
/// `list` every solution (and, unless `quiet`, their number on standard error).
pub(crate) fn merge(
    dir: &Path,
    list: bool,
    style: Option<JsonStyle>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let folder = SplitFolder::open(dir)?;
    let command = if list {
        MergeCommand::List
    } else {
        MergeCommand::Count
    };
    let merged = folder.merge(command)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match style {
        Some(JsonStyle::Document) => {
            let mut array = JsonArray::new(&mut out);
            write_merged(&folder, command, true, &merged, &mut array)?;
            array.finish()?;
        }
        _ => write_merged(&folder, command, style.is_some(), &merged, &mut out)?,
    }
    out.flush()?;
    if list && !quiet {
        // As `list` says at its end how many solutions it printed, and that is all of them.
        let (total, n) = (&merged.count, merged.parts);
        note!("nonoenum: {total} solutions (complete: {n} parts merged)");
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the merged result: with `list`, every part's solutions, then (text) the count or
/// (`json`) a `result` object.
fn write_merged(
    folder: &SplitFolder,
    command: MergeCommand,
    json: bool,
    merged: &Merged,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if command == MergeCommand::List {
        let mut printed = 0u128;
        let listed = folder.for_each_solution(|rows| {
            if !json && printed > 0 {
                writeln!(out)?;
            }
            if json {
                write_line(out, &JsonLine::Solution { rows })?;
            } else {
                for row in rows {
                    writeln!(out, "{row}")?;
                }
            }
            printed += 1;
            Ok(())
        });
        match listed {
            // The write's own error, so that a closed pipe is told apart.
            Err(MergeError::Output(e)) => return Err(e.into()),
            listed => listed?,
        }
    }
    if json {
        let result = folder.merged_result(command, merged);
        write_line(out, &JsonLine::Result(result))?;
    } else if command == MergeCommand::Count {
        writeln!(out, "{}", merged.count)?;
    }
    Ok(())
}
