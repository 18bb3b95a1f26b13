//! The commands `solve`, `count` and `list`: run the search on each puzzle and print results.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nonoenum::{Flow, Grid, Outcome, Solver, SolverOptions};

use crate::cli::{Cli, Command, Settings};
use crate::output::progress::Progress;
use crate::output::{print_stats, write_grid};

/// `solve` found no solution for some puzzle.
pub(crate) const EXIT_NO_SOLUTION: u8 = 1;
/// Bad usage or bad input.
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
/// Interrupted by Ctrl-C or SIGTERM; partial results were printed.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// What one command does with each puzzle.
#[derive(Clone, Copy)]
enum Mode {
    Solve,
    Count,
    List { limit: Option<u64> },
}

/// Runs the command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let (mode, args) = match cli.command {
        Command::Solve(args) => (Mode::Solve, args),
        Command::Count(args) => (Mode::Count, args),
        Command::List { limit, common } => (Mode::List { limit }, common),
    };
    let settings = Settings::try_from(args)?;
    let puzzles = crate::input::load(&settings)?;
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    // Without a handler, Ctrl-C kills the process (losing buffered output) but nothing else.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    let stdout = io::stdout();
    let interactive = stdout.is_terminal();
    let mut out = BufWriter::new(stdout.lock());
    let several = puzzles.len() > 1;
    let mut code = ExitCode::SUCCESS;
    for (label, puzzle) in &puzzles {
        if several {
            writeln!(out, "{label}")?;
        }
        let solver = Solver::new(
            puzzle,
            SolverOptions {
                threads: settings.threads,
                probing: settings.probing,
            },
        )
        .with_cancel_flag(Arc::clone(&interrupted));
        let progress = Progress::start(label, solver.stats(), settings.quiet);
        let result = run_one(mode, &solver, &mut out, interactive);
        progress.finish();
        let (outcome, found_none) = result?;
        if settings.stats && !settings.quiet {
            print_stats(label, &outcome);
        }
        if found_none {
            code = ExitCode::from(EXIT_NO_SOLUTION);
        }
        if interrupted.load(Ordering::Relaxed) {
            out.flush()?;
            if !settings.quiet {
                eprintln!("nonoenum: interrupted; the results above are incomplete");
            }
            return Ok(ExitCode::from(EXIT_INTERRUPTED));
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
    error: Option<io::Error>,
}

impl<W: Write> Printer<'_, W> {
    fn print(&mut self, grid: &Grid) -> Flow {
        let result = (|| {
            if self.printed > 0 && self.separate {
                writeln!(self.out)?;
            }
            write_grid(self.out, grid)?;
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

/// Runs one puzzle; returns the outcome and whether `solve` found that it has no solution.
fn run_one(
    mode: Mode,
    solver: &Solver<'_>,
    out: &mut impl Write,
    interactive: bool,
) -> anyhow::Result<(Outcome, bool)> {
    let mut printer = Printer {
        out,
        printed: 0,
        separate: matches!(mode, Mode::List { .. }),
        interactive,
        error: None,
    };
    let outcome = match mode {
        Mode::Count => solver.count()?,
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
    match mode {
        Mode::Count if outcome.exhausted => writeln!(out, "{n}")?,
        Mode::Count => writeln!(out, "incomplete: at least {n}")?,
        Mode::List { .. } => {}
        Mode::Solve if n >= 2 => writeln!(out, "multiple")?,
        Mode::Solve if !outcome.exhausted => writeln!(out, "incomplete: search interrupted")?,
        Mode::Solve if n == 1 => writeln!(out, "unique")?,
        Mode::Solve => writeln!(out, "no solution")?,
    }
    let no_solution = matches!(mode, Mode::Solve) && n == 0 && outcome.exhausted;
    Ok((outcome, no_solution))
}
