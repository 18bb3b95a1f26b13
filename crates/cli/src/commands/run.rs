//! One puzzle's run of `solve`, `count` or `list`: the search, its solutions through the
//! batched writer or the printer, and the closing result line, verdict or note.

use std::io::Write;

use nonoenum::format::compact::CompactHeader;
use nonoenum::{AnyPuzzle, AnySolver, BigUint, CellCounts, Engine, Flow, Outcome, PerCell};

use crate::cli::{EngineChoice, Settings, SolutionFormat};
use crate::output::batched::{self, ListWriter};
use crate::output::json::{JsonLine, RunResult, write_line};
use crate::output::printer::{FileNames, Printer};
use crate::stop::{Cancel, Stop};

/// What one command does with each puzzle.
#[derive(Clone, Copy)]
pub(crate) enum Mode {
    Solve,
    Count(crate::exact::ExactSettings),
    List { limit: Option<u64> },
}

impl Mode {
    /// The solutions the search stops after: `solve` at the second, `list --limit N` at the
    /// Nth; a count explores the whole tree.
    pub(crate) fn solution_limit(self) -> Option<u64> {
        match self {
            Mode::Solve => Some(2),
            Mode::List { limit } => limit,
            Mode::Count(_) => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::Count(_) => "count",
            Mode::List { .. } => "list",
        }
    }
}

/// One puzzle's run of one command.
pub(crate) struct Run<'a> {
    pub(crate) mode: Mode,
    pub(crate) label: &'a str,
    pub(crate) puzzle: &'a AnyPuzzle,
    pub(crate) settings: &'a Settings,
    pub(crate) interactive: bool,
    pub(crate) cancel: &'a Cancel,
    /// In a run of several puzzles, this one's number (1-based) and the digits to pad it to:
    /// the puzzle is named in notes and in `--output-dir` file names.
    pub(crate) several: Option<(usize, usize)>,
}

impl Run<'_> {
    /// Prints the result of a count made without enumerating: the `count`, or, when it is not
    /// `complete`, the solutions it had counted for certain when it stopped.
    pub(crate) fn print_count(
        &self,
        out: &mut impl Write,
        count: BigUint,
        complete: bool,
        per_cell: Option<PerCell>,
        elapsed: std::time::Duration,
    ) -> anyhow::Result<()> {
        let stop = (!complete).then(|| self.cancel.reason().unwrap_or(Stop::Interrupted));
        if self.settings.json {
            let (stopped, seconds) = (stop.map(Stop::describe), elapsed.as_secs_f64());
            let result = RunResult::new(
                self.mode.name(),
                self.label,
                self.puzzle,
                count,
                stopped,
                seconds,
            )
            .with_per_cell(per_cell.as_ref(), self.puzzle);
            write_line(out, &JsonLine::Result(result))?;
        } else {
            if let Some(counts) = &per_cell {
                counts.write_text(out, self.puzzle)?;
            }
            match stop {
                None => writeln!(out, "{count}")?,
                Some(stop) => writeln!(out, "incomplete: at least {count} ({})", stop.describe())?,
            }
        }
        Ok(())
    }

    /// `LABEL: ` in a run of several puzzles, else nothing: how notes name the puzzle.
    fn which(&self) -> String {
        match self.several {
            Some(_) => format!("{}: ", self.label),
            None => String::new(),
        }
    }

    /// A printer of this puzzle's solutions into `out` (or into `--output-dir`).
    fn printer<'o, W: Write>(&'o self, out: &'o mut W) -> Printer<'o, W> {
        let files = self.settings.output_dir.as_deref().map(|dir| {
            let prefix = match self.several {
                Some((k, digits)) => format!("puzzle-{k:0digits$}-solution-"),
                None => "solution-".to_string(),
            };
            FileNames { dir, prefix }
        });
        Printer {
            out,
            printed: 0,
            separate: matches!(self.mode, Mode::List { .. }),
            interactive: self.interactive,
            json: self.settings.json,
            format: self.settings.solution_format,
            files,
            color: self.settings.color,
            puzzle: self.puzzle,
            error: None,
        }
    }

    /// Whether `list` writes through [`batched::list`] (the workers format the solutions): every
    /// format but a file per solution, pictures, and colour puzzles in terminal colours, which
    /// take the one-at-a-time printer.
    fn batched(&self) -> bool {
        let settings = self.settings;
        let pictures = matches!(
            settings.solution_format,
            SolutionFormat::Svg | SolutionFormat::Png
        );
        let colored = settings.color && matches!(self.puzzle, AnyPuzzle::Color(_));
        settings.output_dir.is_none() && (settings.json || !pictures) && !colored
    }

    /// Why the search of `outcome` stopped early, if it did.
    fn stop(&self, outcome: &Outcome) -> Option<Stop> {
        (!outcome.exhausted).then(|| self.cancel.reason().unwrap_or(Stop::SolutionLimit))
    }

    /// After `list`, unless `--quiet`: how many solutions were listed, on standard error, and
    /// whether that is all of them.
    pub(crate) fn list_note(&self, outcome: &Outcome) {
        if !matches!(self.mode, Mode::List { .. }) || self.settings.quiet {
            return;
        }
        let which = self.which();
        let n = outcome.solutions;
        let plural = if n == 1 { "" } else { "s" };
        let state = match self.stop(outcome) {
            None => "complete".to_string(),
            Some(why) => format!("incomplete: {}", why.describe()),
        };
        note!("nonoenum: {which}{n} solution{plural} ({state})");
    }

    /// Runs the search and prints its results; returns the outcome and whether it found that
    /// the puzzle has no solution.
    pub(crate) fn run(
        &self,
        solver: &AnySolver<'_>,
        out: &mut impl Write,
    ) -> anyhow::Result<(Outcome, bool)> {
        let mut tally = match self.mode {
            Mode::Count(exact) if exact.per_cell() => Some(CellCounts::new(self.puzzle)),
            _ => None,
        };
        let outcome = self.search(solver, out, &mut tally)?;
        self.print_result(out, &outcome, tally.as_ref())?;
        let no_solution = outcome.solutions == 0 && outcome.exhausted;
        Ok((outcome, no_solution))
    }

    /// Runs the search as the command asks: solutions counted (into `tally` for per-cell
    /// counts), listed or the first one printed.
    fn search(
        &self,
        solver: &AnySolver<'_>,
        out: &mut impl Write,
        tally: &mut Option<CellCounts>,
    ) -> anyhow::Result<Outcome> {
        let json = self.settings.json;
        if self.settings.solution_format == SolutionFormat::Non
            && matches!(self.puzzle, AnyPuzzle::Color(_))
        {
            anyhow::bail!("--to non holds black-and-white solutions: use --to xml");
        }
        Ok(match self.mode {
            Mode::Count(_) if tally.is_none() => solver.count_up_to(self.settings.max_solutions)?,
            Mode::Count(_) => {
                let limit = self.settings.max_solutions;
                let (outcome, counts) = CellCounts::enumerate(self.puzzle, solver, limit)?;
                *tally = Some(counts);
                outcome
            }
            Mode::List { limit } if self.batched() => {
                let writer = ListWriter::new(self.settings.solution_format, json, self.puzzle)?;
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
                printer.finish()?;
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
                printer.finish()?;
                outcome
            }
        })
    }

    /// The closing result: a JSON result line, or the per-cell counts and the count, or the
    /// verdict of `solve`.
    fn print_result(
        &self,
        out: &mut impl Write,
        outcome: &Outcome,
        tally: Option<&CellCounts>,
    ) -> anyhow::Result<()> {
        let mode = self.mode;
        let n = outcome.solutions;
        let stop = self.stop(outcome);
        let tally = tally.map(PerCell::enumerated);
        if self.settings.json {
            let (count, stopped) = (BigUint::from(n), stop.map(Stop::describe));
            let seconds = outcome.elapsed.as_secs_f64();
            let result = RunResult::new(
                mode.name(),
                self.label,
                self.puzzle,
                count,
                stopped,
                seconds,
            )
            .with_per_cell(tally.as_ref(), self.puzzle);
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
                Mode::Solve => {
                    let verdict = match n {
                        2.. => "multiple".to_string(),
                        _ if !outcome.exhausted => {
                            let why = stop.map_or("stopped", Stop::describe);
                            format!("incomplete: search {why}")
                        }
                        1 => "unique".to_string(),
                        _ => "no solution".to_string(),
                    };
                    // After a text solution the verdict is its last line; a solution in a
                    // puzzle or picture format is a file of its own, which it would spoil.
                    if self.settings.solution_format == SolutionFormat::Text
                        && self.settings.output_dir.is_none()
                    {
                        writeln!(out, "{verdict}")?;
                    } else if !self.settings.quiet {
                        note!("nonoenum: {}{verdict}", self.which());
                    }
                }
            }
        }
        Ok(())
    }
}

/// The search `--strategy` asks for: `auto` as the library's [`Engine::for_run`] chooses it
/// (both searches race in `solve` and short lists on two threads or more).
pub(crate) fn engine_for(settings: &Settings, mode: Mode) -> Engine {
    match settings.engine {
        EngineChoice::Probe => Engine::Probe,
        EngineChoice::Learn => Engine::Learn,
        EngineChoice::Both => Engine::Both,
        EngineChoice::Auto => {
            Engine::for_run(settings.threads, mode.solution_limit(), settings.ordered)
        }
    }
}
