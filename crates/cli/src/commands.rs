//! The commands `solve`, `count` and `list`: run the search on each puzzle and print results.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};

use nonoenum::count::BigUint;
use nonoenum::format::compact::CompactHeader;
use nonoenum::split::{clue_checksum, givens_checksum};
use nonoenum::{AnyPuzzle, AnySolver, Engine, Flow, Outcome, SolverOptions};

use crate::cli::{Cli, Command, EngineChoice, Settings, SolutionFormat};
use crate::exact::Counted;
use crate::output::batched::{self, ListWriter};
use crate::output::json::{JsonLine, RunResult, write_line};
use crate::output::print_stats;
use crate::output::printer::Printer;
use crate::output::progress::{Progress, Show};
use crate::per_cell::{Tally, write_rows};
use crate::stop::{Cancel, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_TIME_LIMIT, Stop};

/// What one command does with each puzzle.
#[derive(Clone, Copy)]
enum Mode {
    Solve,
    Count(crate::exact::ExactSettings),
    List { limit: Option<u64> },
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::Count(_) => "count",
            Mode::List { .. } => "list",
        }
    }
}

/// Runs the command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let (mode, args) = match cli.command {
        Command::Solve(args) => (Mode::Solve, args),
        Command::Count {
            method,
            max_profiles,
            sweep_memory,
            no_race,
            no_completion_checks,
            backbone_after,
            no_backbone,
            sweep_from,
            progress,
            per_cell,
            common,
        } => {
            let limits = crate::exact::LimitOptions {
                max_profiles,
                sweep_memory_mib: sweep_memory,
                no_race,
                no_completion_checks,
                backbone_after,
                no_backbone,
                sweep_from,
            };
            let exact = crate::exact::ExactSettings::new(method, limits, progress, per_cell)?;
            if per_cell && common.checkpoint.is_some() {
                bail!("--per-cell does not go with --checkpoint (which saves no per-cell counts)");
            }
            if let Some(refusal) = exact.checkpoint_refusal()
                && common.checkpoint.is_some()
            {
                bail!("{refusal}");
            }
            (Mode::Count(exact), common)
        }
        Command::List {
            limit,
            output,
            common,
        } => {
            let limit = match (limit, common.max_solutions) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if common.checkpoint.is_some() {
                if limit.is_some() {
                    bail!(
                        "--checkpoint runs the whole search: it does not go with --limit or --max-solutions"
                    );
                }
                let Some(output) = output else {
                    bail!(
                        "list --checkpoint needs --output FILE, which it keeps exact across crashes"
                    );
                };
                return checkpointed(Settings::try_from(common)?, Some(&output));
            }
            if let Some(output) = output {
                return list_to_file(limit, &output, common);
            }
            (Mode::List { limit }, common)
        }
        Command::Resume {
            checkpoint,
            threads,
            time_limit,
            checkpoint_every,
            quiet,
        } => {
            if threads == Some(0) {
                bail!("--threads must be at least 1");
            }
            let time_limit = time_limit
                .map(|s| crate::cli::seconds("--time-limit", s))
                .transpose()?;
            let every = crate::cli::seconds("--checkpoint-every", checkpoint_every)?;
            let cancel = Cancel::install(time_limit);
            let options = crate::checkpoint::Options {
                threads: threads.unwrap_or(0),
                quiet,
                every,
                cancel: &cancel,
            };
            return crate::checkpoint::resume(&checkpoint, &options);
        }
        Command::Split { parts, out, common } => {
            if common.ordered {
                bail!(
                    "--ordered is for solve, count and list (split numbers its parts in search order)"
                );
            }
            return crate::parts::split(&Settings::try_from(common)?, parts, &out);
        }
        Command::Merge { dir, list, json } => return crate::parts::merge(&dir, list, json),
        Command::Convert {
            input,
            to,
            output,
            format,
            puzzle,
        } => return crate::convert::convert(&input, format.as_deref(), puzzle, &to, &output),
        Command::Make {
            image,
            to,
            output,
            max_solutions,
            threads,
        } => {
            if threads == Some(0) {
                bail!("--threads must be at least 1");
            }
            let max = max_solutions.max(2);
            return crate::convert::make(&image, &to, output.as_deref(), max, threads.unwrap_or(0));
        }
    };
    let settings = Settings::try_from(args)?;
    if settings.solution_format == SolutionFormat::Compact && !matches!(mode, Mode::List { .. }) {
        bail!("--output-format compact lists solutions: it is for list");
    }
    if settings.checkpoint.is_some() {
        if !matches!(mode, Mode::Count(_)) {
            bail!("--checkpoint is for count and list");
        }
        if settings.max_solutions.is_some() {
            bail!("--checkpoint runs the whole search: it does not go with --max-solutions");
        }
        return checkpointed(settings, None);
    }
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let mut out = BufWriter::new(stdout.lock());
    run_puzzles(mode, &settings, &mut out, interactive)
}

/// Runs `mode` on every puzzle of the settings' file, writing to `out`.
fn run_puzzles(
    mode: Mode,
    settings: &Settings,
    out: &mut impl Write,
    interactive: bool,
) -> anyhow::Result<ExitCode> {
    let puzzles = crate::input::load_any(settings)?;
    if let Some(dir) = &settings.output_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create {}", crate::input::display_name(dir)))?;
    }
    let cancel = Cancel::install(settings.time_limit);
    let several = puzzles.len() > 1;
    let mut code = ExitCode::SUCCESS;
    for (label, puzzle) in &puzzles {
        // A compact listing names each puzzle in its header line.
        if several && !settings.json && settings.solution_format != SolutionFormat::Compact {
            writeln!(out, "{label}")?;
        }
        let options = SolverOptions {
            threads: settings.threads,
            probing: settings.probing,
            // `count` prints no solution: their order does not matter.
            ordered: settings.ordered && !matches!(mode, Mode::Count(_)),
            // Restarts speed up finding a first solution; a count explores the whole tree.
            restarts: settings.restarts && !matches!(mode, Mode::Count(_)),
            engine: engine_for(settings, mode),
        };
        // `count --progress` shows lines even off a terminal.
        let show = Show::new(
            settings.quiet,
            matches!(mode, Mode::Count(exact) if exact.progress()),
        );
        // The tree's size and the time left matter to a long run, not to `solve`.
        let estimate = !matches!(mode, Mode::Solve) && show.shows();
        let solver = puzzle
            .solver(options)
            .with_cancel_flag(Arc::clone(&cancel.any))
            .with_estimate(estimate);
        let run = Run {
            mode,
            label,
            puzzle,
            json: settings.json,
            interactive,
            max_solutions: settings.max_solutions,
            format: settings.solution_format,
            dir: settings.output_dir.as_deref(),
            cancel: &cancel,
            quiet: settings.quiet,
            several,
        };
        if let Mode::Count(exact) = mode {
            let job = crate::exact::ExactJob {
                label,
                puzzle,
                threads: settings.threads,
                quiet: settings.quiet,
                stats: settings.stats,
                max_solutions: settings.max_solutions.is_some(),
                cancel: &cancel.any,
            };
            match crate::exact::count(&job, exact)? {
                Counted::Enumerate => {}
                Counted::Done {
                    count,
                    per_cell,
                    elapsed,
                } => {
                    if count == BigUint::ZERO {
                        code = ExitCode::from(EXIT_NO_SOLUTION);
                    }
                    run.print_count(out, count, true, per_cell, elapsed)?;
                    continue;
                }
                Counted::Cancelled { at_least, elapsed } => {
                    run.print_count(out, at_least, false, None, elapsed)?;
                    return cancelled(&cancel, settings, out, false);
                }
            }
        }
        let progress = Progress::search(label, solver.stats(), show);
        let result = run.run(&solver, out);
        progress.finish();
        let (outcome, found_none) = result?;
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
    out.flush()?;
    Ok(code)
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
        eprintln!(
            "nonoenum: {}; the results above are incomplete",
            reason.describe()
        );
    }
    Ok(ExitCode::from(match reason {
        Stop::Interrupted => EXIT_INTERRUPTED,
        _ => EXIT_TIME_LIMIT,
    }))
}

/// A checkpointed `count` (no `output`) or `list` (into `output`) of the file's one puzzle.
fn checkpointed(settings: Settings, output: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    let Some(checkpoint) = settings.checkpoint.as_deref() else {
        bail!("no checkpoint file");
    };
    if settings.json {
        bail!("--checkpoint does not go with --json");
    }
    if settings.solution_format == SolutionFormat::Compact {
        bail!(
            "--checkpoint writes its listing as text: it does not go with --output-format compact"
        );
    }
    // `count` prints no solution: their order does not matter.
    let ordered = settings.ordered && output.is_some();
    if ordered && !settings.probing {
        // The parts are cut from the probing search's tree: only with probing do they run,
        // one after the other, in the order of the one-thread search.
        bail!("--checkpoint with --ordered needs probing: drop --no-probe");
    }
    let mut puzzles = crate::input::load_any(&settings)?;
    if puzzles.len() != 1 {
        let n = puzzles.len();
        bail!(
            "--checkpoint works on one puzzle, and the file holds {n}: choose one with --puzzle N"
        );
    }
    let (label, puzzle) = puzzles.remove(0);
    let cancel = Cancel::install(settings.time_limit);
    let options = crate::checkpoint::Options {
        threads: settings.threads,
        quiet: settings.quiet,
        every: settings.checkpoint_every,
        cancel: &cancel,
    };
    let run = crate::checkpoint::Start {
        label: &label,
        probing: settings.probing,
        ordered,
        output,
        checkpoint,
    };
    crate::checkpoint::start(puzzle, &run, &options)
}

/// `list --output FILE` without a checkpoint: the listing goes to the file, written whole
/// through a temporary file and a rename when the run ends (also when it is stopped early).
fn list_to_file(
    limit: Option<u64>,
    output: &std::path::Path,
    common: crate::cli::CommonArgs,
) -> anyhow::Result<ExitCode> {
    let settings = Settings::try_from(common)?;
    let name = crate::input::display_name(output);
    let mut tmp = output.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).with_context(|| format!("cannot write {name}"))?;
    let mut out = BufWriter::new(file);
    let code = run_puzzles(Mode::List { limit }, &settings, &mut out, false)?;
    out.flush()
        .with_context(|| format!("cannot write {name}"))?;
    drop(out);
    std::fs::rename(&tmp, output).with_context(|| format!("cannot write {name}"))?;
    Ok(code)
}

/// One puzzle's run of one command.
struct Run<'a> {
    mode: Mode,
    label: &'a str,
    puzzle: &'a AnyPuzzle,
    json: bool,
    interactive: bool,
    /// `--max-solutions` (for `count`; `list` folds it into its limit).
    max_solutions: Option<u64>,
    /// `--output-format`.
    format: crate::cli::SolutionFormat,
    /// `--output-dir`.
    dir: Option<&'a std::path::Path>,
    cancel: &'a Cancel,
    /// `--quiet`: nothing on standard error.
    quiet: bool,
    /// The file holds several puzzles: name the puzzle in the closing note.
    several: bool,
}

impl Run<'_> {
    /// Prints the result of a count made without enumerating: the `count`, or, when it is not
    /// `complete`, the solutions it had counted for certain when it stopped.
    fn print_count(
        &self,
        out: &mut impl Write,
        count: BigUint,
        complete: bool,
        per_cell: Option<Vec<Vec<BigUint>>>,
        elapsed: std::time::Duration,
    ) -> anyhow::Result<()> {
        let stop = (!complete).then(|| self.cancel.reason().unwrap_or(Stop::Interrupted));
        if self.json {
            let checksums = match self.puzzle {
                AnyPuzzle::Bw(p) => (clue_checksum(p), givens_checksum(p)),
                AnyPuzzle::Color(p) => p.checksums(),
            };
            let result = RunResult {
                command: self.mode.name().to_string(),
                label: self.label.to_string(),
                puzzle: checksums.0,
                givens: checksums.1,
                complete,
                count,
                stopped: stop.map(|s| s.describe().to_string()),
                seconds: elapsed.as_secs_f64(),
                per_cell,
                per_color: None,
            };
            write_line(out, &JsonLine::Result(result))?;
        } else {
            if let Some(rows) = &per_cell {
                write_rows(out, rows)?;
            }
            match stop {
                None => writeln!(out, "{count}")?,
                Some(stop) => writeln!(out, "incomplete: at least {count} ({})", stop.describe())?,
            }
        }
        Ok(())
    }

    /// Why the search of `outcome` stopped early, if it did.
    fn stop(&self, outcome: &Outcome) -> Option<Stop> {
        (!outcome.exhausted).then(|| self.cancel.reason().unwrap_or(Stop::SolutionLimit))
    }

    /// After `list`, unless `--quiet`: how many solutions were listed, on standard error, and
    /// whether that is all of them.
    fn list_note(&self, outcome: &Outcome) {
        if !matches!(self.mode, Mode::List { .. }) || self.quiet {
            return;
        }
        let which = if self.several {
            format!("{}: ", self.label)
        } else {
            String::new()
        };
        let n = outcome.solutions;
        let plural = if n == 1 { "" } else { "s" };
        let state = match self.stop(outcome) {
            None => "complete".to_string(),
            Some(why) => format!("incomplete: {}", why.describe()),
        };
        eprintln!("nonoenum: {which}{n} solution{plural} ({state})");
    }

    /// A printer of one solution at a time into `out`.
    fn printer<'o, W: Write>(&'o self, out: &'o mut W) -> Printer<'o, W> {
        Printer {
            out,
            printed: 0,
            separate: matches!(self.mode, Mode::List { .. }),
            interactive: self.interactive,
            json: self.json,
            format: self.format,
            dir: self.dir,
            puzzle: self.puzzle,
            error: None,
        }
    }

    /// Runs the search and prints its results; returns the outcome and whether it found that
    /// the puzzle has no solution.
    fn run(&self, solver: &AnySolver<'_>, out: &mut impl Write) -> anyhow::Result<(Outcome, bool)> {
        let mode = self.mode;
        let mut tally = match mode {
            Mode::Count(exact) if exact.per_cell() => Some(Tally::new(self.puzzle)),
            _ => None,
        };
        let outcome = match mode {
            Mode::Count(_) if tally.is_none() => batched::count(solver, self.max_solutions)?,
            Mode::Count(_) => {
                let max = self.max_solutions.unwrap_or(u64::MAX);
                let mut seen = 0;
                solver.run(|picture| {
                    seen += 1;
                    if let Some(tally) = tally.as_mut() {
                        tally.add(picture);
                    }
                    if seen >= max {
                        Flow::Stop
                    } else {
                        Flow::Continue
                    }
                })?
            }
            Mode::List { limit } if self.dir.is_none() => {
                let writer = ListWriter::new(self.format, self.json, self.puzzle)?;
                let header = matches!(writer, ListWriter::Compact { .. }).then(|| {
                    let mut header = CompactHeader::for_puzzle(self.puzzle);
                    header.label = Some(self.label.to_string());
                    header
                });
                batched::list(
                    solver,
                    &writer,
                    header.as_ref(),
                    limit,
                    out,
                    self.interactive,
                )?
            }
            Mode::List { limit } => {
                let mut printer = self.printer(out);
                let outcome = solver.run(|grid| {
                    if limit == Some(0) {
                        return Flow::Stop;
                    }
                    let flow = printer.print(grid);
                    if limit.is_some_and(|n| printer.printed >= n) {
                        Flow::Stop
                    } else {
                        flow
                    }
                })?;
                if let Some(e) = printer.error {
                    return Err(e.into());
                }
                outcome
            }
            Mode::Solve => {
                let mut printer = self.printer(out);
                let mut seen = 0;
                let outcome = solver.run(|grid| {
                    seen += 1;
                    if seen == 1 {
                        printer.print(grid)
                    } else {
                        Flow::Stop
                    }
                })?;
                if let Some(e) = printer.error {
                    return Err(e.into());
                }
                outcome
            }
        };
        let n = outcome.solutions;
        let stop = self.stop(&outcome);
        if self.json {
            let (puzzle, givens) = match self.puzzle {
                AnyPuzzle::Bw(p) => (clue_checksum(p), givens_checksum(p)),
                AnyPuzzle::Color(p) => p.checksums(),
            };
            let result = RunResult {
                command: mode.name().to_string(),
                label: self.label.to_string(),
                puzzle,
                givens,
                count: BigUint::from(n),
                complete: outcome.exhausted,
                stopped: stop.map(|s| s.describe().to_string()),
                seconds: outcome.elapsed.as_secs_f64(),
                per_cell: tally.as_ref().and_then(Tally::per_cell),
                per_color: tally.as_ref().and_then(|t| t.per_color(self.puzzle)),
            };
            write_line(out, &JsonLine::Result(result))?;
        } else {
            if let Some(tally) = &tally {
                tally.write_text(out, self.puzzle)?;
            }
            match mode {
                Mode::Count(_) if outcome.exhausted => writeln!(out, "{n}")?,
                Mode::Count(_) => {
                    let why = stop.map_or("stopped", Stop::describe);
                    writeln!(out, "incomplete: at least {n} ({why})")?
                }
                Mode::List { .. } => {}
                Mode::Solve if n >= 2 => writeln!(out, "multiple")?,
                Mode::Solve if !outcome.exhausted => {
                    let why = stop.map_or("stopped", Stop::describe);
                    writeln!(out, "incomplete: search {why}")?
                }
                Mode::Solve if n == 1 => writeln!(out, "unique")?,
                Mode::Solve => writeln!(out, "no solution")?,
            }
        }
        let no_solution = n == 0 && outcome.exhausted;
        Ok((outcome, no_solution))
    }
}

/// The search `--engine` asks for: `auto` races both searches when the run stops after a few
/// solutions (`solve`, `list` with a limit of at most [`RACE_LIMIT`]) and two threads or more
/// are available; a count, a long list or one thread runs the probing search.
fn engine_for(settings: &Settings, mode: Mode) -> Engine {
    match settings.engine {
        EngineChoice::Probe => Engine::Probe,
        EngineChoice::Learn => Engine::Learn,
        EngineChoice::Both => Engine::Both,
        EngineChoice::Auto => {
            let threads = match settings.threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            let bounded = match mode {
                Mode::Solve => true,
                Mode::List { limit } => limit.is_some_and(|n| n <= RACE_LIMIT),
                Mode::Count(_) => false,
            };
            if bounded && threads >= 2 && !settings.ordered {
                Engine::Both
            } else {
                Engine::Probe
            }
        }
    }
}

/// The most solutions `list --limit` may ask for with `--engine auto` to race both searches
/// (their collector keeps every solution reported, to report each once).
const RACE_LIMIT: u64 = 10_000;
