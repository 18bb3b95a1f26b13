//! The validated settings of a search (solve, count, list, split), built from the option groups
//! a command has: what is not given keeps its default, and every value is checked here, so
//! that a bad one is refused before any work starts.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use nonoenum::Probing;
use nonoenum::format::Format;

use super::groups::{
    CheckpointArgs, ColorWhen, EngineChoice, InputArgs, ProgressFormat, ResultOutputArgs, RunArgs,
    SolutionOutputArgs, Strategy, StrategyArgs,
};

/// Validated settings shared by the search commands.
#[derive(Debug)]
pub(crate) struct Settings {
    /// The puzzle file (`-` for standard input).
    pub(crate) file: PathBuf,
    /// Worker threads, `0` for one per core.
    pub(crate) threads: usize,
    /// The input format, when not detected.
    pub(crate) format: Option<Format>,
    /// The 1-based index of the one puzzle to run, if any.
    pub(crate) puzzle: Option<usize>,
    /// A givens file.
    pub(crate) givens: Option<PathBuf>,
    /// The `--strategy` asked for (or its old spelling), `None` for the default.
    pub(crate) strategy: Option<Strategy>,
    /// When search nodes probe.
    pub(crate) probing: Probing,
    /// Whether `solve` and `list` restart the search for the first solution.
    pub(crate) restarts: bool,
    /// Which search to run.
    pub(crate) engine: EngineChoice,
    /// Whether to print statistics.
    pub(crate) stats: bool,
    /// Whether to keep standard error quiet.
    pub(crate) quiet: bool,
    /// `--progress`: lines on standard error, terminal or not.
    pub(crate) progress: Option<ProgressFormat>,
    /// Whether to write JSON (lines, or one document: see `json_document`).
    pub(crate) json: bool,
    /// Whether the JSON objects make one document (a JSON array) rather than lines.
    pub(crate) json_document: bool,
    /// Whether solutions come in the order of the sequential search.
    pub(crate) ordered: bool,
    /// The run's time limit.
    pub(crate) time_limit: Option<Duration>,
    /// Stop each search after this many solutions (`--limit`).
    pub(crate) max_solutions: Option<u64>,
    /// The checkpoint file, if any.
    pub(crate) checkpoint: Option<PathBuf>,
    /// How often to save the checkpoint.
    pub(crate) checkpoint_every: Duration,
    /// How to write solutions.
    pub(crate) solution_format: SolutionFormat,
    /// A folder for one file per solution.
    pub(crate) output_dir: Option<PathBuf>,
    /// A file to write instead of standard output (`-o`).
    pub(crate) output: Option<PathBuf>,
    /// Whether to draw colour solutions in terminal colours.
    pub(crate) color: bool,
}

/// How solutions are written (`--to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SolutionFormat {
    /// Rows of characters.
    Text,
    /// The puzzle in `.non` with the solution as its goal (black and white only).
    Non,
    /// The puzzle in webpbn XML with the solution as its goal.
    Xml,
    /// An SVG picture.
    Svg,
    /// A PNG picture.
    Png,
    /// The compact listing of [`nonoenum::format::compact`]: a header line, then one line of
    /// bits per solution (`list` only).
    Compact,
}

impl SolutionFormat {
    /// The file extension.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            SolutionFormat::Text => "txt",
            SolutionFormat::Non => "non",
            SolutionFormat::Xml => "xml",
            SolutionFormat::Svg => "svg",
            SolutionFormat::Png => "png",
            SolutionFormat::Compact => "txt",
        }
    }
}

/// How JSON results are written: `--to jsonl` or `--to json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonStyle {
    /// One object per line, each written as soon as it is known.
    Lines,
    /// One document: a JSON array of those objects.
    Document,
}

impl JsonStyle {
    /// The JSON style of `--to` for count and merge (`None`: text).
    pub(crate) fn of_results(args: &ResultOutputArgs) -> anyhow::Result<Option<JsonStyle>> {
        match args.to.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("text") if args.json => Ok(Some(JsonStyle::Lines)),
            None | Some("text") => Ok(None),
            Some("json") => Ok(Some(JsonStyle::Document)),
            Some("jsonl") => Ok(Some(JsonStyle::Lines)),
            Some(other) => bail!("unknown --to '{other}' (expected text, json or jsonl)"),
        }
    }
}

impl Settings {
    /// The settings of a command that reads `input`, every other setting at its default.
    pub(crate) fn read(input: InputArgs) -> anyhow::Result<Self> {
        let format = input.format.as_deref().map(input_format).transpose()?;
        if input.puzzle == Some(0) {
            bail!("--puzzle counts from 1");
        }
        let stdin = Path::new("-");
        if input.file == stdin && input.givens.as_deref() == Some(stdin) {
            bail!("standard input (`-`) can hold the puzzle or the givens, not both");
        }
        Ok(Settings {
            file: input.file,
            threads: 0,
            format,
            puzzle: input.puzzle,
            givens: input.givens,
            strategy: None,
            probing: Probing::Adaptive,
            restarts: false,
            engine: EngineChoice::Auto,
            stats: false,
            quiet: false,
            progress: None,
            json: false,
            json_document: false,
            ordered: false,
            time_limit: None,
            max_solutions: None,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
            solution_format: SolutionFormat::Text,
            output_dir: None,
            output: None,
            color: false,
        })
    }

    /// Adds the options of a search run: threads, quiet, statistics, time limit, strategy.
    pub(crate) fn with_run(mut self, run: RunArgs) -> anyhow::Result<Self> {
        self.threads = threads(run.threads)?;
        self.quiet = run.quiet;
        self.stats = run.stats;
        self.time_limit = run.time_limit.as_deref().map(seconds_limit).transpose()?;
        self.set_strategy(run.strategy);
        Ok(self)
    }

    /// Reads `--strategy`, or its old spellings `--engine`, `--no-probe` and `--restarts`
    /// (which combine as they used to).
    fn set_strategy(&mut self, args: StrategyArgs) {
        let (engine, probing, restarts) = match args.strategy {
            None => (
                args.engine.unwrap_or(EngineChoice::Auto),
                if args.no_probe {
                    Probing::Never
                } else if args.engine == Some(EngineChoice::Probe) {
                    Probing::Always
                } else {
                    Probing::Adaptive
                },
                args.restarts,
            ),
            Some(Strategy::Auto) => (EngineChoice::Auto, Probing::Adaptive, false),
            Some(Strategy::Probe) => (EngineChoice::Probe, Probing::Always, false),
            Some(Strategy::Plain) => (EngineChoice::Probe, Probing::Never, false),
            Some(Strategy::Learn) => (EngineChoice::Learn, Probing::Adaptive, false),
            Some(Strategy::Both) => (EngineChoice::Both, Probing::Adaptive, false),
            Some(Strategy::Restarts) => (EngineChoice::Probe, Probing::Adaptive, true),
        };
        self.strategy = args.strategy.or(if args.restarts {
            Some(Strategy::Restarts)
        } else if args.no_probe {
            Some(Strategy::Plain)
        } else {
            match args.engine {
                Some(EngineChoice::Probe) => Some(Strategy::Probe),
                Some(EngineChoice::Learn) => Some(Strategy::Learn),
                Some(EngineChoice::Both) => Some(Strategy::Both),
                Some(EngineChoice::Auto) | None => None,
            }
        });
        (self.engine, self.probing, self.restarts) = (engine, probing, restarts);
    }

    /// Adds where and how solve and list write solutions: `to` is the command's `--to`.
    /// `one_solution`: the run prints at most one solution per puzzle (`solve`, `list --limit
    /// 1`).
    pub(crate) fn with_solution_output(
        mut self,
        to: Option<&str>,
        args: SolutionOutputArgs,
        one_solution: bool,
    ) -> anyhow::Result<Self> {
        let json = args.json;
        let to_name = to.map(str::to_ascii_lowercase);
        if let Some(to) = to_name.as_deref().filter(|to| json && *to != "compact") {
            bail!("--json is the old spelling of --to jsonl: it does not go with --to {to}");
        }
        let (solution_format, json_style) = match to_name.as_deref() {
            None | Some("text") => (SolutionFormat::Text, json.then_some(JsonStyle::Lines)),
            Some("json") => (SolutionFormat::Text, Some(JsonStyle::Document)),
            Some("jsonl") => (SolutionFormat::Text, Some(JsonStyle::Lines)),
            Some("non") => (SolutionFormat::Non, None),
            Some("xml") => (SolutionFormat::Xml, None),
            Some("svg") => (SolutionFormat::Svg, None),
            Some("png") => (SolutionFormat::Png, None),
            // With `--json`, compact lines and the JSON result line of each puzzle.
            Some("compact") => (SolutionFormat::Compact, json.then_some(JsonStyle::Lines)),
            Some(other) => {
                bail!(
                    "unknown --to '{other}' (expected text, json, jsonl, non, xml, svg, png \
                         or, for list, compact)"
                )
            }
        };
        let to = to.unwrap_or("jsonl");
        if (json_style.is_some() || solution_format == SolutionFormat::Compact)
            && args.output_dir.is_some()
        {
            bail!("--output-dir writes a file per solution: it does not go with --to {to}");
        }
        let one_per_file = matches!(
            solution_format,
            SolutionFormat::Non | SolutionFormat::Svg | SolutionFormat::Png
        );
        if one_per_file && args.output_dir.is_none() && !one_solution {
            bail!(
                "--to {to} holds one solution: give --output-dir DIR for a file per solution, \
                 or --limit 1, or use --to xml (one puzzle set)"
            );
        }
        if solution_format == SolutionFormat::Png
            && args.output.is_none()
            && args.output_dir.is_none()
            && std::io::stdout().is_terminal()
        {
            bail!("--to png is binary: redirect standard output, or give -o FILE");
        }
        let compact = solution_format == SolutionFormat::Compact;
        if args.color != ColorWhen::Auto && (json_style.is_some() || one_per_file || compact) {
            bail!("--color draws text solutions: it does not go with --to {to}");
        }
        self.color = match args.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                args.output.is_none()
                    && args.output_dir.is_none()
                    && json_style.is_none()
                    && !compact
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                    && std::io::stdout().is_terminal()
            }
        };
        self.solution_format = solution_format;
        self.json = json_style.is_some();
        self.json_document = json_style == Some(JsonStyle::Document);
        self.output = args.output;
        self.output_dir = args.output_dir;
        Ok(self)
    }

    /// Adds `--to` of `count`: text, json or jsonl.
    pub(crate) fn with_result_output(mut self, args: &ResultOutputArgs) -> anyhow::Result<Self> {
        let style = JsonStyle::of_results(args)?;
        self.json = style.is_some();
        self.json_document = style == Some(JsonStyle::Document);
        Ok(self)
    }

    /// Adds `--checkpoint` and `--checkpoint-every`.
    pub(crate) fn with_checkpoint(mut self, args: CheckpointArgs) -> anyhow::Result<Self> {
        if let Some(every) = args.checkpoint_every {
            self.checkpoint_every = seconds("--checkpoint-every", &every)?;
        }
        self.checkpoint = args.checkpoint;
        Ok(self)
    }

    /// Why the strategy asked for cannot run a checkpointed search, if it cannot.
    pub(crate) fn checkpoint_strategy_refusal(&self) -> Option<String> {
        match self.strategy? {
            Strategy::Auto | Strategy::Probe | Strategy::Plain => None,
            other => Some(format!(
                "--checkpoint runs the probing search (or the plain one): it does not go with \
                 --strategy {}",
                strategy_name(other)
            )),
        }
    }
}

/// The name of a strategy, as `--strategy` takes it.
pub(crate) fn strategy_name(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Auto => "auto",
        Strategy::Probe => "probe",
        Strategy::Plain => "plain",
        Strategy::Learn => "learn",
        Strategy::Both => "both",
        Strategy::Restarts => "restarts",
    }
}

/// The format named by `--format`.
pub(crate) fn input_format(name: &str) -> anyhow::Result<Format> {
    Format::from_name(name).with_context(|| {
        format!(
            "unknown format '{name}' (expected plain, non, tournament, g, xml, mk, nin, json, pzl, \
             picross or pynogram)"
        )
    })
}

/// The most worker threads `--threads` takes: the library's.
pub(crate) use nonoenum::MAX_THREADS;

/// `--threads`: 1 to [`MAX_THREADS`], or absent (`0`: one per core).
pub(crate) fn threads(threads: Option<usize>) -> anyhow::Result<usize> {
    match threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) if n > MAX_THREADS => bail!("--threads must be at most {MAX_THREADS}"),
        _ => Ok(threads.unwrap_or(0)),
    }
}

/// A positive number of seconds given to `option` (the library's [`nonoenum::parse_seconds`]).
pub(crate) fn seconds(option: &str, text: &str) -> anyhow::Result<Duration> {
    nonoenum::parse_seconds(text).map_err(|e| anyhow::anyhow!("{option} {e}"))
}

/// `--time-limit`, as [`seconds`].
pub(crate) fn seconds_limit(text: &str) -> anyhow::Result<Duration> {
    seconds("--time-limit", text)
}
