//! The commands `convert` (a puzzle from one format to another) and `make` (a puzzle from a
//! picture, with a report on whether its clues have a unique solution).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use nonoenum::AnyPuzzle;
use nonoenum::format::{self, Format};

use crate::cli::input_format;
use crate::input::display_name;
use crate::stop::{Cancel, Stop};

/// The format named by `--to`.
pub(crate) fn format_named(name: &str) -> anyhow::Result<Format> {
    Format::from_name(name).with_context(|| {
        format!(
            "unknown --to '{name}' (expected plain, non, g, xml, mk, nin, json, pzl, picross or \
             pynogram)"
        )
    })
}

/// Writes `text` to `path`, or standard output for `-` or no path.
fn write_out(path: Option<&Path>, text: &[u8]) -> anyhow::Result<()> {
    let Some(path) = path.filter(|p| *p != Path::new("-")) else {
        let mut out = std::io::stdout().lock();
        out.write_all(text)?;
        out.flush()?;
        return Ok(());
    };
    // Never left half-written; a FIFO or device is written directly.
    crate::output::atomic::write_atomically(path, text)
}

/// The options of `convert`.
pub(crate) struct ConvertOptions<'a> {
    /// `--format`.
    pub(crate) from: Option<&'a str>,
    /// `--puzzle`.
    pub(crate) puzzle: Option<usize>,
    /// `--to`.
    pub(crate) to: &'a str,
    /// `--quiet`: no note of what the format drops.
    pub(crate) quiet: bool,
    /// Ctrl-C and SIGTERM: checked before the output is written and before it is read back.
    pub(crate) cancel: &'a Cancel,
}

/// `nonoenum convert FILE --to FMT [-o OUT]`.
pub(crate) fn convert(
    input: &Path,
    options: &ConvertOptions<'_>,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let to = format_named(options.to)?;
    let from = options.from.map(input_format).transpose()?;
    let puzzle = options.puzzle;
    let name = display_name(input);
    let bytes = crate::input::read_bytes(input)?;
    let path = (input != Path::new("-")).then_some(input);
    let mut puzzles = format::read_any_puzzles(&bytes, from, path)
        .map_err(|e| anyhow::anyhow!(e.located(&name, from, path, &bytes)))?;
    let chosen = match (puzzle, puzzles.len()) {
        (Some(0), _) => bail!("--puzzle counts from 1"),
        (Some(n), count) if n > count => {
            bail!("{name}: --puzzle {n} asked, but the file holds {count}")
        }
        (Some(n), _) => puzzles.swap_remove(n - 1),
        (None, 1) => puzzles.swap_remove(0),
        (None, count) => bail!("{name} holds {count} puzzles: choose one with --puzzle N"),
    };
    let text = format::write::write_puzzle(&chosen, to).map_err(|e| anyhow::anyhow!("{e}"))?;
    let interrupted = || options.cancel.reason().is_some();
    if interrupted() {
        note!("nonoenum: interrupted; nothing was written");
        return Ok(ExitCode::from(Stop::Interrupted.exit_code()));
    }
    write_out(output, text.as_bytes())?;
    if !options.quiet
        && !interrupted()
        && let Some(line) = format::write::loss_note(&chosen, &text, to)
    {
        note!("nonoenum: {line}");
    }
    // A signal while the output was checked comes after it was written whole.
    let stop = interrupted().then_some(Stop::Interrupted);
    Ok(ExitCode::from(stop.map_or(0, Stop::exit_code)))
}

/// The options of `make`.
pub(crate) struct MakeOptions<'a> {
    /// `--to`.
    pub(crate) to: &'a str,
    /// `-o`.
    pub(crate) output: Option<&'a Path>,
    /// `--limit`: compare at most this many solutions.
    pub(crate) max_solutions: u64,
    /// `--threads`, `0` for one per core.
    pub(crate) threads: usize,
    /// `--quiet`: no report.
    pub(crate) quiet: bool,
    /// What stops the uniqueness check: `--time-limit`, Ctrl-C, SIGTERM.
    pub(crate) cancel: &'a Cancel,
}

/// `nonoenum make IMAGE`: derives the clues of the picture, writes the puzzle, and reports on
/// standard error whether the clues have a unique solution; if not, which cells vary among
/// the solutions. A check that the time limit or a signal stops says so, exit code 3 or 130;
/// the puzzle, written first, stays.
pub(crate) fn make(image: &Path, options: &MakeOptions<'_>) -> anyhow::Result<ExitCode> {
    let to = format_named(options.to)?;
    let name = display_name(image);
    let bytes = crate::input::read_bytes(image)?;
    let picture = crate::images::read_image(&bytes, &name)?;
    let puzzle = picture
        .puzzle()
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut with_goal = puzzle.clone();
    with_goal.goal = Some(picture.cells.clone());
    let any = AnyPuzzle::from_color(with_goal);
    let text = format::write::write_puzzle(&any, to).map_err(|e| anyhow::anyhow!("{e}"))?;
    write_out(options.output, text.as_bytes())?;
    // The goal is the picture itself: a format without one loses nothing the user gave.
    let puzzle = AnyPuzzle::Color(puzzle);
    if !options.quiet
        && let Some(line) = format::write::loss_note(&puzzle, &text, to)
    {
        note!("nonoenum: {line}");
    }
    let cancel = Arc::clone(&options.cancel.any);
    let check = puzzle.uniqueness(options.threads, options.max_solutions, cancel)?;
    let stop = check
        .cancelled
        .then(|| options.cancel.reason().unwrap_or(Stop::Interrupted));
    if check.found == 0 && stop.is_none() {
        bail!("{name}: the picture's own clues found no solution (a bug)");
    }
    if !options.quiet {
        // The report goes to standard error: standard output may be the puzzle file.
        let report = check.report(&name, &picture, stop.map(Stop::describe));
        let _ = std::io::stderr().write_all(report.as_bytes());
    }
    Ok(ExitCode::from(stop.map_or(0, Stop::exit_code)))
}
