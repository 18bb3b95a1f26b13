//! What the command prints: solutions as text, statistics, and the progress bar.

pub(crate) mod atomic;
pub(crate) mod batched;
pub(crate) mod json;
pub(crate) mod printer;
pub(crate) mod progress;
pub(crate) mod terminal;

use std::io::{self, Write};

use nonoenum::{AnyGrid, Cell, Grid, Outcome};

/// Whether an error comes from writing to a closed pipe (`nonoenum list ... | head`), which
/// ends the program quietly.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// How a cell is printed: `#` filled, `.` empty, `?` unknown.
pub(crate) fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Filled => '#',
        Cell::Empty => '.',
        Cell::Unknown => '?',
    }
}

/// The rows of a solution as text: `#` and `.`, or each colour's character.
pub(crate) fn picture_text_rows(picture: AnyGrid<'_>) -> Vec<String> {
    match picture {
        AnyGrid::Bw(grid) => (0..grid.height())
            .map(|r| {
                (0..grid.width())
                    .map(|c| cell_char(grid.cell(r, c)))
                    .collect()
            })
            .collect(),
        AnyGrid::Color(grid, puzzle) => {
            let chars: Vec<char> = puzzle.colors.iter().map(|c| c.ch).collect();
            grid.render(&chars).lines().map(str::to_string).collect()
        }
    }
}

/// Writes a solution as text rows (see [`picture_text_rows`]).
pub(crate) fn write_picture(
    out: &mut (impl Write + ?Sized),
    picture: AnyGrid<'_>,
) -> io::Result<()> {
    match picture {
        AnyGrid::Bw(grid) => write_grid(out, grid),
        AnyGrid::Color(..) => {
            for row in picture_text_rows(picture) {
                writeln!(out, "{row}")?;
            }
            Ok(())
        }
    }
}

/// Writes a solution as rows of `#` (filled) and `.` (empty).
pub(crate) fn write_grid(out: &mut (impl Write + ?Sized), grid: &Grid) -> io::Result<()> {
    let mut line = Vec::with_capacity(grid.width() + 1);
    for r in 0..grid.height() {
        line.clear();
        line.extend((0..grid.width()).map(|c| cell_char(grid.cell(r, c)) as u8));
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Prints the search statistics of one puzzle to standard error.
pub(crate) fn print_stats(label: &str, outcome: &Outcome) {
    let s = &outcome.stats;
    let secs = outcome.elapsed.as_secs_f64();
    let asked = s.probes + s.probes_reused;
    eprintln!(
        "stats {label}: {:.3} s, {} solutions, {} nodes ({:.0}/s), {} line solves, {} probes \
         fixing {} cells, {} probes reused (memo hit rate {:.1}%), line cache hit rate {:.1}%, {} restarts, {} conflicts learned from, {} backjumps, {} explanations recalled, {} clauses shared, \
         deepest consistent trail {} variables; \
         time: root {:.3} s, probing at nodes {:.3} s (summed over threads)",
        secs,
        outcome.solutions,
        s.nodes,
        s.nodes as f64 / secs.max(1e-9),
        s.line_solves,
        s.probes,
        s.probe_fixed,
        s.probes_reused,
        100.0 * s.probes_reused as f64 / asked.max(1) as f64,
        100.0 * s.cache_hits as f64 / s.cache_lookups.max(1) as f64,
        s.restarts,
        s.conflicts,
        s.backjumps,
        s.explanations_recalled,
        s.imported,
        s.deepest,
        s.root_seconds,
        s.choose_seconds,
    );
}
