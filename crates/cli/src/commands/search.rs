//! `solve`, `count` and `list` over every puzzle of a file: where the output goes (standard
//! output, or `-o FILE` through a temporary file), what frames it (one JSON array, one XML
//! puzzle set), how a stopped run ends, and checkpointed runs.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use nonoenum::{AnyPuzzle, BigUint, SideCount, SolverOptions};

use super::run::{Mode, Run, engine_for};
use crate::cli::{Settings, SolutionFormat};
use crate::exact::Counted;
use crate::input::display_name;
use crate::output::atomic;
use crate::output::json::JsonArray;
use crate::output::print_stats;
use crate::output::printer::{XML_HEAD, XML_TAIL};
use crate::output::progress::{Progress, Show};
use crate::stop::{Cancel, EXIT_NO_SOLUTION, Stop};

/// Runs `mode` on the settings' puzzles, writing to standard output or to `-o FILE`.
pub(crate) fn run(mode: Mode, settings: &Settings) -> anyhow::Result<ExitCode> {
    if let Some(output) = &settings.output {
        return to_file(mode, settings, output);
    }
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let mut out = BufWriter::new(stdout.lock());
    run_puzzles(mode, settings, &mut out, interactive)
}

/// `-o FILE` without a checkpoint: written whole through a temporary file renamed when the run
/// ends or stops, or straight into a FIFO or device (see [`crate::output::atomic`]).
fn to_file(mode: Mode, settings: &Settings, output: &Path) -> anyhow::Result<ExitCode> {
    let mut out = BufWriter::new(atomic::create(output)?);
    let ran = run_puzzles(mode, settings, &mut out, false);
    // An internal error keeps what was found before it, as a stopped run does.
    if let Err(error) = &ran
        && crate::fault::internal_error_line(Some(error), false).is_none()
    {
        return ran;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    // A picture or puzzle of no solution would be an empty file, which nothing reads: none.
    use SolutionFormat::{Non, Png, Svg};
    let one_picture = matches!(settings.solution_format, Non | Svg | Png);
    if !(one_picture && file.is_empty()) {
        atomic::commit(file, output)?;
    }
    ran
}

/// Runs `mode` on every puzzle of the settings' file, writing to `out` one document: a JSON
/// array for `--to json`, a puzzle set for `--to xml`.
fn run_puzzles(
    mode: Mode,
    settings: &Settings,
    out: &mut impl Write,
    interactive: bool,
) -> anyhow::Result<ExitCode> {
    let puzzles = crate::input::load_any(settings)?;
    let one_per_file = matches!(
        settings.solution_format,
        SolutionFormat::Non | SolutionFormat::Svg | SolutionFormat::Png
    );
    if puzzles.len() > 1 && one_per_file && settings.output_dir.is_none() {
        bail!(
            "{} holds {} puzzles, and --to {} holds one solution: choose one with --puzzle N, \
             or give --output-dir DIR",
            display_name(&settings.file),
            puzzles.len(),
            settings.solution_format.extension()
        );
    }
    if let Some(dir) = &settings.output_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create {}", display_name(dir)))?;
    }
    if settings.json_document {
        let mut array = JsonArray::new(out);
        let code = each_puzzle(mode, settings, &puzzles, &mut array, interactive)?;
        array.finish()?;
        return Ok(code);
    }
    let xml_set = settings.solution_format == SolutionFormat::Xml
        && settings.output_dir.is_none()
        && !settings.json;
    if xml_set {
        out.write_all(XML_HEAD.as_bytes())?;
    }
    let code = each_puzzle(mode, settings, &puzzles, out, interactive)?;
    if xml_set {
        out.write_all(XML_TAIL.as_bytes())?;
    }
    out.flush()?;
    Ok(code)
}

/// Runs `mode` on each of `puzzles` in turn, writing to `out`.
fn each_puzzle(
    mode: Mode,
    settings: &Settings,
    puzzles: &[(String, AnyPuzzle)],
    out: &mut impl Write,
    interactive: bool,
) -> anyhow::Result<ExitCode> {
    let cancel = Cancel::install(settings.time_limit);
    let digits = puzzles.len().to_string().len();
    let labelled = puzzles.len() > 1
        && !settings.json
        && settings.solution_format == SolutionFormat::Text
        && settings.output_dir.is_none();
    let mut code = ExitCode::SUCCESS;
    let file = display_name(&settings.file);
    for (index, (label, puzzle)) in puzzles.iter().enumerate() {
        if puzzles.len() > 1 {
            crate::fault::solving(&format!("{file} ({label})"));
        } else {
            crate::fault::solving(&file);
        }
        // `--progress` shows lines even off a terminal.
        let show = Show::new(settings.quiet, settings.progress);
        if labelled {
            writeln!(out, "{label}")?;
            // Out before the progress lines on standard error, which come after it.
            if show.shows() {
                out.flush()?;
            }
        }
        let solver = solver_for(puzzle, settings, mode, &cancel, show);
        let run = Run {
            mode,
            label,
            puzzle,
            settings,
            interactive,
            cancel: &cancel,
            several: (puzzles.len() > 1).then_some((index + 1, digits)),
        };
        if let Mode::Count(exact) = mode {
            match count_exactly(&run, exact, out)? {
                None => {}
                Some(Ended::Next { no_solution }) => {
                    if no_solution {
                        code = ExitCode::from(EXIT_NO_SOLUTION);
                    }
                    continue;
                }
                Some(Ended::Stopped(code)) => return Ok(code),
            }
        }
        let side = if counts_alongside(settings, mode, show) {
            SideCount::start(puzzle, solver.stats())
        } else {
            SideCount::none()
        };
        let total = side.total();
        let progress = Progress::search(label, solver.stats(), show, side.total());
        let result = run.run(&solver, out);
        side.finish();
        progress.finish();
        if let (Ok((outcome, _)), Some(&total)) = (&result, total.get()) {
            debug_assert!(
                !outcome.exhausted || u128::from(outcome.solutions) == total,
                "the enumeration found {} solutions, the side count {total}",
                outcome.solutions
            );
        }
        let (outcome, found_none) = result?;
        // A write error (a full disk) is reported instead of a note that all went well.
        out.flush()?;
        run.list_note(&outcome);
        if settings.stats && !settings.quiet {
            print_stats(label, &outcome);
        }
        if found_none {
            code = ExitCode::from(EXIT_NO_SOLUTION);
        }
        if cancel.reason().is_some() {
            // `list` has just said that its listing is incomplete, and why.
            let noted = matches!(mode, Mode::List { .. });
            return cancelled(&cancel, settings, out, noted);
        }
    }
    Ok(code)
}

/// How one puzzle's exact count ended, for the loop over the puzzles.
enum Ended {
    /// On to the next puzzle; `no_solution` when this one has none.
    Next { no_solution: bool },
    /// The run was stopped: it ends with this exit code.
    Stopped(ExitCode),
}

/// `count` without enumerating, if its settings and the puzzle allow: prints the count and
/// says how the puzzle's run ended, or `None` when the solutions must be enumerated.
fn count_exactly(
    run: &Run<'_>,
    exact: crate::exact::ExactSettings,
    out: &mut impl Write,
) -> anyhow::Result<Option<Ended>> {
    let settings = run.settings;
    let job = crate::exact::ExactJob {
        label: run.label,
        puzzle: run.puzzle,
        threads: settings.threads,
        quiet: settings.quiet,
        stats: settings.stats,
        max_solutions: settings.max_solutions.is_some(),
        cancel: &run.cancel.any,
    };
    Ok(match crate::exact::count(&job, exact)? {
        Counted::Enumerate => None,
        Counted::Done {
            count,
            per_cell,
            elapsed,
        } => {
            let no_solution = count == BigUint::ZERO;
            run.print_count(out, count, true, per_cell, elapsed)?;
            Some(Ended::Next { no_solution })
        }
        Counted::Cancelled { at_least, elapsed } => {
            run.print_count(out, at_least, false, None, elapsed)?;
            Some(Ended::Stopped(cancelled(run.cancel, settings, out, false)?))
        }
    })
}

/// The solver of `puzzle` for `mode`: cancelled with the run, estimating the tree's size when
/// progress is shown, and stopping at the solutions `mode` needs.
fn solver_for<'p>(
    puzzle: &'p AnyPuzzle,
    settings: &Settings,
    mode: Mode,
    cancel: &Cancel,
    show: Show,
) -> nonoenum::AnySolver<'p> {
    // The tree's size and the time left matter to a long run, not to `solve`.
    let estimate = !matches!(mode, Mode::Solve) && show.shows();
    let solver = puzzle
        .solver(solver_options(settings, mode))
        .with_cancel_flag(Arc::clone(&cancel.any))
        .with_estimate(estimate);
    match mode.solution_limit() {
        Some(limit) => solver.with_solution_limit(limit),
        None => solver,
    }
}

/// Whether the exact total is counted alongside the enumeration: a whole one (no limit) whose
/// progress is shown (see [`SideCount`]), unless `NONOENUM_EXACT_TOTAL` is `off`.
fn counts_alongside(settings: &Settings, mode: Mode, show: Show) -> bool {
    // Benchmarks of the estimates turn it off (see `scripts/bench-eta`).
    if std::env::var_os("NONOENUM_EXACT_TOTAL").is_some_and(|v| v == "off") {
        return false;
    }
    let whole = match mode {
        Mode::Solve => false,
        Mode::List { limit } => limit.is_none(),
        Mode::Count(_) => settings.max_solutions.is_none(),
    };
    whole && show.shows()
}

/// How the search of `mode` runs with `settings`.
fn solver_options(settings: &Settings, mode: Mode) -> SolverOptions {
    SolverOptions {
        threads: settings.threads,
        probing: settings.probing,
        // `count` prints no solution: their order does not matter.
        ordered: settings.ordered && !matches!(mode, Mode::Count(_)),
        // Restarts speed up finding a first solution; a count explores the whole tree.
        restarts: settings.restarts && !matches!(mode, Mode::Count(_)),
        engine: engine_for(settings, mode),
    }
}

/// Ends a run that Ctrl-C or the time limit stopped: flushes what was printed, says so (unless
/// it was `noted` already) and gives the exit code.
fn cancelled(
    cancel: &Cancel,
    settings: &Settings,
    out: &mut impl Write,
    noted: bool,
) -> anyhow::Result<ExitCode> {
    out.flush()?;
    let reason = cancel.reason().unwrap_or(Stop::Interrupted);
    if !settings.quiet && !noted {
        note!(
            "nonoenum: {}; the results above are incomplete",
            reason.describe()
        );
    }
    Ok(ExitCode::from(reason.exit_code()))
}

/// A checkpointed `count` (no `output`) or `list` (into `output`) of the file's one puzzle.
pub(crate) fn checkpointed(settings: &Settings, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    let Some(checkpoint) = settings.checkpoint.as_deref() else {
        bail!("no checkpoint file");
    };
    let same = |path: &Path| nonoenum::files::same_file(checkpoint, path);
    let roles = [
        ("the puzzle", Some(settings.file.as_path())),
        ("-o", output),
    ];
    if let Some((role, _)) = roles.iter().find(|(_, path)| path.is_some_and(same)) {
        let name = display_name(checkpoint);
        bail!("--checkpoint {name} is the file of {role} too");
    }
    // `count` prints no solution: their order does not matter.
    let ordered = settings.ordered && output.is_some();
    let puzzles = crate::input::load_any(settings)?;
    let [(label, puzzle)]: [_; 1] = puzzles.try_into().map_err(|all: Vec<_>| {
        let n = all.len();
        anyhow::anyhow!(
            "--checkpoint works on one puzzle, and the file holds {n}: choose one with --puzzle N"
        )
    })?;
    crate::fault::solving(&display_name(&settings.file));
    let cancel = Cancel::install(settings.time_limit);
    let options = crate::checkpoint::Options {
        threads: settings.threads,
        show: Show::new(settings.quiet, settings.progress),
        every: settings.checkpoint_every,
        cancel: &cancel,
    };
    let output = output.map(Path::to_path_buf);
    let probing = settings.probing;
    let run = nonoenum::CheckpointSettings {
        label,
        probing,
        ordered,
        output,
    };
    crate::checkpoint::start(puzzle, run, checkpoint, &options)
}
