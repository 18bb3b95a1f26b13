//! The commands `solve`, `count` and `list`: run the search on each puzzle and print results.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nonoenum::split::{clue_checksum, givens_checksum};
use nonoenum::{Flow, Grid, Outcome, Puzzle, Solver, SolverOptions};

use crate::cli::{Cli, Command, Settings};
use crate::output::json::{JsonLine, RunResult, grid_rows, write_line};
use crate::output::progress::Progress;
use crate::output::{print_stats, write_grid};

/// `solve` found no solution for some puzzle.
pub(crate) const EXIT_NO_SOLUTION: u8 = 1;
/// Bad usage or bad input.
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
/// Interrupted by Ctrl-C or SIGTERM; partial results were printed.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;
/// `--time-limit` stopped a search before its answer was known; partial results were printed.
pub(crate) const EXIT_TIME_LIMIT: u8 = 3;

/// Why a search ended before exploring its whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// `--time-limit`.
    TimeLimit,
    /// `--max-solutions` or `list --limit`.
    SolutionLimit,
}

impl Stop {
    fn describe(self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::TimeLimit => "time limit reached",
            Stop::SolutionLimit => "solution limit reached",
        }
    }
}

/// The flags that end a run early: set from a signal handler or the time-limit thread.
#[derive(Clone, Default)]
struct Cancel {
    /// Read by every search worker.
    any: Arc<AtomicBool>,
    interrupted: Arc<AtomicBool>,
    timed_out: Arc<AtomicBool>,
}

impl Cancel {
    /// Installs the Ctrl-C / SIGTERM handler and starts the time-limit thread, if any.
    fn install(time_limit: Option<std::time::Duration>) -> Self {
        let cancel = Cancel::default();
        let on_signal = cancel.clone();
        // Without a handler, Ctrl-C kills the process (losing buffered output) but nothing else.
        let _ = ctrlc::set_handler(move || {
            on_signal.interrupted.store(true, Ordering::Relaxed);
            on_signal.any.store(true, Ordering::Relaxed);
        });
        if let Some(limit) = time_limit {
            let on_time = cancel.clone();
            let deadline = std::time::Instant::now() + limit;
            let _ = std::thread::Builder::new()
                .name("nonoenum-time-limit".into())
                .spawn(move || {
                    while let Some(left) =
                        deadline.checked_duration_since(std::time::Instant::now())
                        && !left.is_zero()
                    {
                        std::thread::park_timeout(left);
                    }
                    on_time.timed_out.store(true, Ordering::Relaxed);
                    on_time.any.store(true, Ordering::Relaxed);
                });
        }
        cancel
    }

    /// What stopped the run, if anything (an interrupt wins over the time limit).
    fn reason(&self) -> Option<Stop> {
        if self.interrupted.load(Ordering::Relaxed) {
            Some(Stop::Interrupted)
        } else if self.timed_out.load(Ordering::Relaxed) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}

/// What one command does with each puzzle.
#[derive(Clone, Copy)]
enum Mode {
    Solve,
    Count,
    List { limit: Option<u64> },
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::Count => "count",
            Mode::List { .. } => "list",
        }
    }
}

/// Runs the command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let (mode, args) = match cli.command {
        Command::Solve(args) => (Mode::Solve, args),
        Command::Count(args) => (Mode::Count, args),
        Command::List { limit, common } => {
            let limit = match (limit, common.max_solutions) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            (Mode::List { limit }, common)
        }
        Command::Split { parts, out, common } => {
            return crate::parts::split(&Settings::try_from(common)?, parts, &out);
        }
        Command::Merge { dir, list, json } => return crate::parts::merge(&dir, list, json),
    };
    let settings = Settings::try_from(args)?;
    let puzzles = crate::input::load(&settings)?;
    let cancel = Cancel::install(settings.time_limit);
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let mut out = BufWriter::new(stdout.lock());
    let several = puzzles.len() > 1;
    let mut code = ExitCode::SUCCESS;
    for (label, puzzle) in &puzzles {
        if several && !settings.json {
            writeln!(out, "{label}")?;
        }
        let solver = Solver::new(
            puzzle,
            SolverOptions {
                threads: settings.threads,
                probing: settings.probing,
            },
        )
        .with_cancel_flag(Arc::clone(&cancel.any));
        let progress = Progress::start(label, solver.stats(), settings.quiet);
        let run = Run {
            mode,
            label,
            puzzle,
            json: settings.json,
            interactive,
            max_solutions: settings.max_solutions,
            cancel: &cancel,
        };
        let result = run.run(&solver, &mut out);
        progress.finish();
        let (outcome, found_none) = result?;
        if settings.stats && !settings.quiet {
            print_stats(label, &outcome);
        }
        if found_none {
            code = ExitCode::from(EXIT_NO_SOLUTION);
        }
        if let Some(reason) = cancel.reason() {
            out.flush()?;
            if !settings.quiet {
                eprintln!(
                    "nonoenum: {}; the results above are incomplete",
                    reason.describe()
                );
            }
            return Ok(ExitCode::from(match reason {
                Stop::Interrupted => EXIT_INTERRUPTED,
                _ => EXIT_TIME_LIMIT,
            }));
        }
    }
    out.flush()?;
    Ok(code)
}

/// Writes solutions as they arrive, remembering the first write error.
struct Printer<'o, W: Write> {
    out: &'o mut W,
    printed: u64,
    /// Put a blank line between solutions (`list`).
    separate: bool,
    /// Flush after each solution (standard output is a terminal).
    interactive: bool,
    /// Write JSON lines.
    json: bool,
    error: Option<io::Error>,
}

impl<W: Write> Printer<'_, W> {
    fn print(&mut self, grid: &Grid) -> Flow {
        let result = (|| {
            if self.json {
                write_line(
                    self.out,
                    &JsonLine::Solution {
                        rows: grid_rows(grid),
                    },
                )?;
            } else {
                if self.printed > 0 && self.separate {
                    writeln!(self.out)?;
                }
                write_grid(self.out, grid)?;
            }
            if self.interactive {
                self.out.flush()?;
            }
            Ok::<(), io::Error>(())
        })();
        self.printed += 1;
        match result {
            Ok(()) => Flow::Continue,
            Err(e) => {
                self.error = Some(e);
                Flow::Stop
            }
        }
    }
}

/// One puzzle's run of one command.
struct Run<'a> {
    mode: Mode,
    label: &'a str,
    puzzle: &'a Puzzle,
    json: bool,
    interactive: bool,
    /// `--max-solutions` (for `count`; `list` folds it into its limit).
    max_solutions: Option<u64>,
    cancel: &'a Cancel,
}

impl Run<'_> {
    /// Runs the search and prints its results; returns the outcome and whether `solve` found
    /// that the puzzle has no solution.
    fn run(&self, solver: &Solver<'_>, out: &mut impl Write) -> anyhow::Result<(Outcome, bool)> {
        let mode = self.mode;
        let mut printer = Printer {
            out,
            printed: 0,
            separate: matches!(mode, Mode::List { .. }),
            interactive: self.interactive,
            json: self.json,
            error: None,
        };
        let outcome = match mode {
            Mode::Count => match self.max_solutions {
                None => solver.count()?,
                Some(max) => {
                    let mut seen = 0;
                    solver.run(|_| {
                        seen += 1;
                        if seen >= max {
                            Flow::Stop
                        } else {
                            Flow::Continue
                        }
                    })?
                }
            },
            Mode::List { limit } => solver.run(|grid| {
                if limit == Some(0) {
                    return Flow::Stop;
                }
                let flow = printer.print(grid);
                if limit.is_some_and(|n| printer.printed >= n) {
                    Flow::Stop
                } else {
                    flow
                }
            })?,
            Mode::Solve => {
                let mut seen = 0;
                solver.run(|grid| {
                    seen += 1;
                    if seen == 1 {
                        printer.print(grid)
                    } else {
                        Flow::Stop
                    }
                })?
            }
        };
        if let Some(e) = printer.error {
            return Err(e.into());
        }
        let n = outcome.solutions;
        let stop =
            (!outcome.exhausted).then(|| self.cancel.reason().unwrap_or(Stop::SolutionLimit));
        if self.json {
            let result = RunResult {
                command: mode.name().to_string(),
                label: self.label.to_string(),
                puzzle: clue_checksum(self.puzzle),
                givens: givens_checksum(self.puzzle),
                count: n.into(),
                complete: outcome.exhausted,
                stopped: stop.map(|s| s.describe().to_string()),
                seconds: outcome.elapsed.as_secs_f64(),
            };
            write_line(out, &JsonLine::Result(result))?;
        } else {
            match mode {
                Mode::Count if outcome.exhausted => writeln!(out, "{n}")?,
                Mode::Count => {
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
        let no_solution = matches!(mode, Mode::Solve) && n == 0 && outcome.exhausted;
        Ok((outcome, no_solution))
    }
}
