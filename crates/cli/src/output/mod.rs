//! What the command prints: solutions as text, statistics, and the progress bar.

pub(crate) mod atomic;
pub(crate) mod batched;
pub(crate) mod json;
pub(crate) mod printer;
pub(crate) mod progress;
pub(crate) mod terminal;

use std::io::{self, Write};

use nonoenum::{AnyGrid, Outcome};

/// Whether an error comes from writing to a closed pipe (`nonoenum list ... | head`), which
/// ends the program quietly.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes a solution as text rows (see [`AnyGrid::write_text`]).
pub(crate) fn write_picture(
    out: &mut (impl Write + ?Sized),
    picture: AnyGrid<'_>,
) -> io::Result<()> {
    let mut text = Vec::new();
    picture.write_text(&mut text);
    out.write_all(&text)
}

/// Prints the search statistics of one puzzle to standard error.
pub(crate) fn print_stats(label: &str, outcome: &Outcome) {
    let s = &outcome.stats;
    let secs = outcome.elapsed.as_secs_f64();
    note!(
        "stats {label}: {:.3} s, {} solutions, {} nodes ({:.0}/s), {} line solves, {} probes \
         fixing {} cells, {} probes reused (memo hit rate {:.1}%), line cache hit rate {:.1}%, {} restarts, {} conflicts learned from, {} backjumps, {} explanations recalled, {} clauses shared, \
         completion checks cutting {} nodes and finding {} solutions, deepest consistent trail {} variables; \
         time: root {:.3} s, probing at nodes {:.3} s (summed over threads)",
        secs,
        outcome.solutions,
        s.nodes,
        s.nodes as f64 / secs.max(1e-9),
        s.line_solves,
        s.probes,
        s.probe_fixed,
        s.probes_reused,
        100.0 * s.probes_reused as f64 / (s.probes + s.probes_reused).max(1) as f64,
        100.0 * s.cache_hits as f64 / s.cache_lookups.max(1) as f64,
        s.restarts,
        s.conflicts,
        s.backjumps,
        s.explanations_recalled,
        s.imported,
        s.completion_cuts,
        s.completion_found,
        s.deepest,
        s.root_seconds,
        s.choose_seconds,
    );
}
