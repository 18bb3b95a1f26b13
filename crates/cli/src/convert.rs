//! The commands `convert` (a puzzle from one format to another) and `make` (a puzzle from a
//! picture, with a report on whether its clues have a unique solution).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use nonoenum::format::{self, Format};
use nonoenum::{AnyPuzzle, ColorPuzzle};
use nonoenum::{ColorSolver, Flow, Probing, SolverOptions};

use crate::images::Picture;
use crate::input::display_name;
use crate::stop::{Cancel, Stop};

/// The format named by `--to`.
pub(crate) fn format_named(name: &str) -> anyhow::Result<Format> {
    Format::from_name(name).with_context(|| {
        format!("unknown --to '{name}' (expected plain, non, g, xml, mk, nin, json or pzl)")
    })
}

/// The format named by `--format`.
fn input_format(name: &str) -> anyhow::Result<Format> {
    Format::from_name(name).with_context(|| {
        format!(
            "unknown format '{name}' (expected plain, non, tournament, g, xml, mk, nin, json or pzl)"
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
        .map_err(|e| crate::input::located(&name, &e, from, path, &bytes))?;
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
    write_out(output, text.as_bytes())?;
    if !options.quiet {
        let dropped = dropped(&chosen, &text, to);
        if !dropped.is_empty() {
            let to = to.name();
            eprintln!(
                "nonoenum: {to} has no place for {}: dropped",
                dropped.join(", ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What of `puzzle` its conversion `text` in `format` lost: the title, the goal, the givens,
/// the colour names or characters, the other metadata.
fn dropped(puzzle: &AnyPuzzle, text: &str, format: Format) -> Vec<String> {
    let Ok(mut back) = format::read_any_puzzles(text.as_bytes(), Some(format), None) else {
        return Vec::new();
    };
    if back.len() != 1 {
        return Vec::new();
    }
    let (before, after) = (puzzle.to_color(), back.swap_remove(0).to_color());
    let mut lost: Vec<&str> = Vec::new();
    // A format without a title field may keep it as a comment, which is not lost.
    if let Some(title) = &before.title
        && after.title.as_ref() != Some(title)
        && !text.contains(title.as_str())
    {
        lost.push("the title");
    }
    if before.goal.is_some() && after.goal.is_none() {
        lost.push("the goal");
    }
    if !before.givens.is_empty() && after.givens.is_empty() {
        lost.push("the givens");
    }
    let colour = before.colors.len() > 2;
    let names = |p: &ColorPuzzle| p.colors.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    let chars = |p: &ColorPuzzle| p.colors.iter().map(|c| c.ch).collect::<Vec<_>>();
    if colour && names(&before) != names(&after) {
        lost.push("the colour names");
    }
    if colour && chars(&before) != chars(&after) {
        lost.push("the colour characters");
    }
    let keys: Vec<&str> = before
        .metadata
        .iter()
        .filter(|(key, value)| {
            !after.metadata.iter().any(|(k, _)| k == key) && !text.contains(value.as_str())
        })
        .map(|(key, _)| key.as_str())
        .collect();
    let mut lost: Vec<String> = lost.into_iter().map(String::from).collect();
    if !keys.is_empty() {
        lost.push(format!("the fields {}", keys.join(", ")));
    }
    lost
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

/// What the uniqueness check of `make` found.
struct Check {
    /// Solutions compared.
    found: u64,
    /// Whether they are every solution.
    exhausted: bool,
    /// Whether each cell differs between solutions.
    varying: Vec<bool>,
    /// Why the check stopped before its answer, if it did.
    stop: Option<Stop>,
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
    let puzzle = ColorPuzzle::from_picture(
        picture.colors.clone(),
        picture.height,
        picture.width,
        &picture.cells,
    )
    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut with_goal = puzzle.clone();
    with_goal.goal = Some(picture.cells.clone());
    let any = AnyPuzzle::from_color(with_goal);
    let text = format::write::write_puzzle(&any, to).map_err(|e| anyhow::anyhow!("{e}"))?;
    write_out(options.output, text.as_bytes())?;
    let check = check_uniqueness(&puzzle, options)?;
    if check.found == 0 && check.stop.is_none() {
        bail!("{name}: the picture's own clues found no solution (a bug)");
    }
    let code = check.stop.map_or(0, Stop::exit_code);
    if !options.quiet {
        // The report goes to standard error: standard output may be the puzzle file.
        report(&mut std::io::stderr().lock(), &name, &picture, &check)?;
    }
    Ok(ExitCode::from(code))
}

/// Runs the search of `puzzle`'s solutions until it has compared `--limit` of them, found them
/// all, or was stopped.
fn check_uniqueness(puzzle: &ColorPuzzle, options: &MakeOptions<'_>) -> anyhow::Result<Check> {
    let search = SolverOptions {
        threads: options.threads,
        probing: Probing::Adaptive,
        ordered: false,
        restarts: false,
        engine: Default::default(),
    };
    let mut varying = Vec::new();
    let mut first: Option<Vec<u8>> = None;
    let mut found = 0u64;
    let max_solutions = options.max_solutions;
    let outcome = ColorSolver::new(puzzle, search)
        .with_cancel_flag(Arc::clone(&options.cancel.any))
        .run(|grid| {
            let cells = grid.to_colors();
            match &first {
                None => {
                    varying = vec![false; cells.len()];
                    first = Some(cells);
                }
                Some(f) => {
                    for (v, (a, b)) in varying.iter_mut().zip(f.iter().zip(&cells)) {
                        *v |= a != b;
                    }
                }
            }
            found += 1;
            if found >= max_solutions {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })?;
    // Short of `--limit` and of every solution, only the cancel flag stops the search.
    let stopped = !outcome.exhausted && found < max_solutions;
    Ok(Check {
        found,
        exhausted: outcome.exhausted,
        varying,
        stop: stopped.then(|| options.cancel.reason().unwrap_or(Stop::Interrupted)),
    })
}

/// Writes the report of `check` on `picture`'s clues: unique, or not and which cells vary, or
/// what was found before the check was stopped.
fn report(
    out: &mut impl Write,
    name: &str,
    picture: &Picture,
    check: &Check,
) -> anyhow::Result<()> {
    let (w, h) = (picture.width, picture.height);
    let n = picture.colors.len() - 1;
    let noun = if n == 1 { "colour" } else { "colours" };
    let size = format!("{w}x{h}, {n} {noun} besides the background");
    match (check.found, check.stop) {
        (0 | 1, Some(stop)) => writeln!(
            out,
            "{name}: {size}: incomplete: search {}",
            stop.describe()
        )?,
        (1, None) => writeln!(out, "{name}: {size}: unique")?,
        (n, stop) => {
            let bound = match stop {
                Some(stop) => format!("at least {n} solutions; incomplete: {}", stop.describe()),
                None if check.exhausted => format!("{n} solutions"),
                None => format!("at least {n} solutions"),
            };
            let count = check.varying.iter().filter(|&&v| v).count();
            writeln!(
                out,
                "{name}: {size}: not unique ({bound}); {count} cells vary (marked `?`):"
            )?;
            let chars: Vec<char> = picture.colors.iter().map(|c| c.ch).collect();
            for r in 0..h {
                let row: String = (0..w)
                    .map(|c| {
                        let i = r * w + c;
                        if check.varying[i] {
                            '?'
                        } else {
                            chars[usize::from(picture.cells[i])]
                        }
                    })
                    .collect();
                writeln!(out, "{row}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
