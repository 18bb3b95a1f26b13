//! The commands `convert` (a puzzle from one format to another) and `make` (a puzzle from a
//! picture, with a report on whether its clues have a unique solution).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};
use nonoenum::color::{AnyPuzzle, ColorPuzzle};
use nonoenum::format::{self, Format};
use nonoenum::{ColorSolver, Flow, SolverOptions};

use crate::input::display_name;

/// The format named by `--to`.
pub(crate) fn format_named(name: &str) -> anyhow::Result<Format> {
    Format::from_name(name).with_context(|| {
        format!("unknown format '{name}' (expected plain, non, g, xml, mk, nin, json or pzl)")
    })
}

/// Writes `text` to `path`, or standard output for `-`.
fn write_out(path: &Path, text: &[u8]) -> anyhow::Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(text)?;
        out.flush()?;
        return Ok(());
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", display_name(path)))
}

/// `nonoenum convert IN --to FMT OUT`.
pub(crate) fn convert(
    input: &Path,
    from: Option<&str>,
    puzzle: Option<usize>,
    to: &str,
    output: &Path,
) -> anyhow::Result<ExitCode> {
    let to = format_named(to)?;
    let from = from.map(format_named).transpose()?;
    let name = display_name(input);
    let bytes = crate::input::read_bytes(input)?;
    let path = (input != Path::new("-")).then_some(input);
    let mut puzzles = format::read_any_puzzles(&bytes, from, path).map_err(|e| {
        if e.line > 0 {
            anyhow::anyhow!("{name}:{}: {}", e.line, e.kind)
        } else {
            anyhow::anyhow!("{name}: {}", e.kind)
        }
    })?;
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
    Ok(ExitCode::SUCCESS)
}

/// `nonoenum make IMAGE`: derives the clues of the picture, writes the puzzle, and reports
/// whether the clues have a unique solution; if not, which cells vary among the solutions.
pub(crate) fn make(
    image: &Path,
    to: &str,
    output: Option<&Path>,
    max_solutions: u64,
    threads: usize,
) -> anyhow::Result<ExitCode> {
    let to = format_named(to)?;
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
    if let Some(output) = output {
        write_out(output, text.as_bytes())?;
    }
    let options = SolverOptions {
        threads,
        probing: true,
        ordered: false,
        restarts: false,
        engine: Default::default(),
    };
    let (w, h) = (picture.width, picture.height);
    let mut varying = vec![false; w * h];
    let mut first: Option<Vec<u8>> = None;
    let mut found = 0u64;
    let outcome = ColorSolver::new(&puzzle, options).run(|grid| {
        let cells = grid.to_colors();
        match &first {
            None => first = Some(cells),
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
    let mut out = std::io::stdout().lock();
    if output.is_none() {
        out.write_all(text.as_bytes())?;
    }
    let n = picture.colors.len() - 1;
    let noun = if n == 1 { "colour" } else { "colours" };
    let size = format!("{w}x{h}, {n} {noun} besides the background");
    match found {
        1 => writeln!(out, "{name}: {size}: unique")?,
        0 => bail!("{name}: the picture's own clues found no solution (a bug)"),
        n => {
            let bound = if outcome.exhausted {
                format!("{n} solutions")
            } else {
                format!("at least {n} solutions")
            };
            let count = varying.iter().filter(|&&v| v).count();
            writeln!(
                out,
                "{name}: {size}: not unique ({bound}); {count} cells vary (marked `?`):"
            )?;
            let chars: Vec<char> = picture.colors.iter().map(|c| c.ch).collect();
            for r in 0..h {
                let row: String = (0..w)
                    .map(|c| {
                        let i = r * w + c;
                        if varying[i] {
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
    Ok(if found == 1 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::stop::EXIT_NO_SOLUTION)
    })
}
