//! Command-line arguments (clap derive), and their validation into the settings a run uses.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use nonoenum::format::Format;

/// Finds, counts and lists every solution of nonogram puzzles, on all cores.
#[derive(Debug, Parser)]
#[command(name = "nonoenum", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the first solution, then `unique` or `multiple` (or `no solution`, exit code 1).
    Solve(CommonArgs),
    /// Print the exact number of solutions (the last line of output is a bare integer, of any
    /// size).
    Count {
        /// How to count: `decompose` counts without visiting solutions (for puzzles with
        /// astronomically many): by dynamic programming over rows, by a memoised sweep, or by
        /// independent components and a cache of residual problems; `enumerate` finds the
        /// solutions one by one; `auto` decomposes, unless --max-solutions asks for an
        /// enumeration.
        #[arg(long, value_enum, default_value_t = CountMethod::Auto)]
        method: CountMethod,
        /// The most distinct profiles one layer of the dynamic program may hold before the
        /// sweep takes over (default 262144; 0: skip the dynamic program).
        #[arg(long, value_name = "N")]
        max_profiles: Option<usize>,
        /// The most memory, in MiB, the sweep's memo may take before counting by components
        /// takes over (default: a quarter of the memory available, at least 1024; 0: skip the
        /// sweep).
        #[arg(long, value_name = "MIB")]
        sweep_memory: Option<usize>,
        /// Let the sweep fill its memo before components take over, instead of racing the
        /// two (the first to finish wins): slower on some puzzles, but the same method, the
        /// same --stats and the same progress lines on every run.
        #[arg(long)]
        no_race: bool,
        /// Count components without first checking, by a search that learns from its
        /// conflicts, that each large residual problem has a completion (the checks prune the
        /// dead subtrees that dominate random pictures; turning them off is for comparison).
        #[arg(long)]
        no_completion_checks: bool,
        /// How long the sweep's trials from each side of the grid (a quarter each) run before
        /// it stops, fixes the backbone (the cells that are equal in every solution, found by
        /// a search that learns from its conflicts) and starts again from the smaller problem,
        /// from the most promising side first (default 0: the backbone comes first)
        #[arg(long, value_name = "SECONDS")]
        backbone_after: Option<f64>,
        /// Never fix the backbone: the sweeps from each side take turns on the probed grid
        /// until one finishes
        #[arg(long)]
        no_backbone: bool,
        /// Sweep from this side of the grid only, instead of letting sweeps from every side
        /// take turns (the most promising first): for a puzzle one knows is swept fastest
        /// from one side
        #[arg(long, value_name = "SIDE")]
        sweep_from: Option<SweepSide>,
        /// Print progress lines on standard error every second (partial counts, layers),
        /// also when it is not a terminal.
        #[arg(long)]
        progress: bool,
        /// Also print, for each cell, in how many solutions it is filled (rows of numbers,
        /// before the count), to show where the solutions differ. Black and white: counts by
        /// profiles, keeping every layer (at most 8 times --max-profiles in all), else by
        /// enumerating the solutions (`--method decompose`: never enumerates). Colour: for each
        /// colour, the background first, a line `NAME (CHAR):` and its rows of counts (JSON:
        /// `per_color`), by enumerating the solutions.
        #[arg(long)]
        per_cell: bool,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Print solutions as they are found: rows of `#` and `.`, a blank line between solutions.
    List {
        /// Stop after this many solutions.
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// Write the solutions to this file instead of standard output (needed with
        /// --checkpoint, which keeps the file exact across crashes).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Continue a `count` or `list` run from its --checkpoint file, after Ctrl-C, a time limit
    /// or a crash: the final count is exact and every solution is listed exactly once.
    Resume {
        /// The checkpoint file.
        #[arg(value_name = "CHECKPOINT")]
        checkpoint: PathBuf,
        /// Worker threads (default: one per core).
        #[arg(long, short = 't', value_name = "N")]
        threads: Option<usize>,
        /// Stop after this many seconds (the checkpoint is saved; resume again later).
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
        /// Save the checkpoint at most this often, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        checkpoint_every: f64,
        /// No messages on standard error, only results and errors.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Split the search into disjoint parts, each a puzzle file with its givens, plus a
    /// manifest, for other processes or machines to run (`count --json` or `list --json`).
    Split {
        /// How many parts to make, at least (fewer only if the search tree is smaller).
        #[arg(long, value_name = "N", default_value_t = 16)]
        parts: usize,
        /// The folder to write the parts and `manifest.json` into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Convert a puzzle to another format: plain, non, g, xml, mk, nin, json or pzl (`-` for
    /// standard output). Colour puzzles go to g, xml or pzl.
    Convert {
        /// The puzzle file; `-` reads standard input.
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// The format to write.
        #[arg(long, value_name = "FMT")]
        to: String,
        /// The file to write; `-` writes standard output.
        #[arg(value_name = "OUT")]
        output: PathBuf,
        /// Input format, overriding detection.
        #[arg(long, value_name = "FMT")]
        format: Option<String>,
        /// In a file of several puzzles, convert the Nth (1-based).
        #[arg(long, value_name = "N")]
        puzzle: Option<usize>,
    },
    /// Make a puzzle from a picture (PBM, PNG or XPM, a small palette): write its clues, then
    /// report whether they have a unique solution, and if not which cells vary (exit code 1).
    Make {
        /// The picture.
        #[arg(value_name = "IMAGE")]
        image: PathBuf,
        /// The puzzle format to write.
        #[arg(long, value_name = "FMT", default_value = "g")]
        to: String,
        /// Write the puzzle to this file instead of standard output.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Compare at most this many solutions when looking for the cells that vary.
        #[arg(long, value_name = "N", default_value_t = 1000)]
        max_solutions: u64,
        /// Worker threads (default: one per core).
        #[arg(long, short = 't', value_name = "N")]
        threads: Option<usize>,
    },
    /// Merge the `--json` results of a split's parts (read from DIR/results/PART.json): check
    /// that every part has a complete result for this puzzle, then print the total count.
    Merge {
        /// The folder `nonoenum split` wrote.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Merge `list --json` results: print every solution, then nothing else.
        #[arg(long)]
        list: bool,
        /// Print the merged result as a JSON `result` line.
        #[arg(long)]
        json: bool,
    },
}

/// How `count` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CountMethod {
    /// Decompose, unless --max-solutions asks for an enumeration.
    Auto,
    /// Find the solutions one by one.
    Enumerate,
    /// Count without visiting solutions: profiles, then components.
    Decompose,
}

/// The `--sweep-from` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SweepSide {
    /// Row by row, from the top.
    Top,
    /// Row by row, from the bottom.
    Bottom,
    /// Column by column, from the left.
    Left,
    /// Column by column, from the right.
    Right,
}

/// The `--engine` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EngineChoice {
    /// `both` for searches that stop after a few solutions, with two threads or more.
    Auto,
    /// The probing search.
    Probe,
    /// The learning search, on one thread.
    Learn,
    /// Both searches at once.
    Both,
}

/// Options every command takes.
#[derive(Debug, Args)]
pub(crate) struct CommonArgs {
    /// The puzzle file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Worker threads (default: one per core). `1` runs the plain sequential search.
    #[arg(long, short = 't', value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Input format, overriding detection: plain, non, tournament, g (Olšák), xml (webpbn), mk,
    /// nin, json or pzl.
    #[arg(long, value_name = "FMT")]
    pub(crate) format: Option<String>,
    /// In a file of several puzzles, work on the Nth only (1-based, in file order).
    #[arg(long, value_name = "N")]
    pub(crate) puzzle: Option<usize>,
    /// Cells known before solving: lines of `ROW COL [VALUE]`, 1-based; VALUE `#`/`1` (filled,
    /// the default) or `.`/`0` (empty).
    #[arg(long, value_name = "FILE")]
    pub(crate) givens: Option<PathBuf>,
    /// Branch without probing (probing tries both values of every unknown cell at every node).
    #[arg(long)]
    pub no_probe: bool,
    /// Search for the first solution in restarts: bounded attempts that each try the children
    /// of every node in a different order, until one finds a solution. Experimental: it cuts
    /// the unlucky tail of some puzzles, but costs up to 10x on puzzles whose tree must be
    /// explored almost whole before the first solution (see the README).
    #[arg(long)]
    pub restarts: bool,
    /// Which search runs: `probe` (probing at every node, on every thread), `learn` (clause
    /// learning, one thread), `both` (learning on one thread, probing on the others, or on
    /// every thread for colour puzzles; the first to finish wins) or `auto`: `both` for `solve`
    /// and `list --limit` with two threads or more, `probe` otherwise.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub(crate) engine: EngineChoice,
    /// Print search statistics to standard error after each puzzle.
    #[arg(long)]
    pub(crate) stats: bool,
    /// No progress bar and no messages on standard error, only results and errors.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Stop the whole run after this many seconds, printing what was found, marked as
    /// incomplete (exit code 3 if that left an answer unknown).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<f64>,
    /// Stop each puzzle's search after this many solutions (`count` then prints
    /// `incomplete: at least N`; for `list` it is the same as `--limit`).
    #[arg(long, value_name = "N")]
    pub(crate) max_solutions: Option<u64>,
    /// Save the search's progress to this file (list, and count --method enumerate): after
    /// Ctrl-C, a time limit or a crash, `nonoenum resume FILE` continues where it stopped.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Save the checkpoint at most this often, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub(crate) checkpoint_every: f64,
    /// Print solutions in the order the one-thread search finds them, whatever the number of
    /// threads: the same output on every run (solve, list; count is the same either way).
    #[arg(long)]
    pub(crate) ordered: bool,
    /// How to write solutions: text (the default), json (as --json), non or xml (the puzzle
    /// with the solution as its goal), svg or png (images, which need --output-dir), or
    /// compact (list only: a header line, then one short line per solution, the cells as bits
    /// in base64url; see docs/formats.md).
    #[arg(long, value_name = "FMT")]
    pub(crate) output_format: Option<String>,
    /// Write each solution to its own file in this folder (created if missing), named
    /// `solution-N.EXT`, instead of standard output.
    #[arg(long, value_name = "DIR")]
    pub(crate) output_dir: Option<PathBuf>,
    /// Machine-readable output: one JSON object per line, a `solution` line for each solution
    /// printed and a `result` line ending each puzzle (what `nonoenum merge` reads).
    #[arg(long)]
    pub(crate) json: bool,
}

/// Validated settings shared by the commands.
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
    /// Whether to probe.
    pub(crate) probing: bool,
    /// Whether `solve` and `list` restart the search for the first solution (`--restarts`).
    pub(crate) restarts: bool,
    /// Which search to run (`--engine`).
    pub(crate) engine: EngineChoice,
    /// Whether to print statistics.
    pub(crate) stats: bool,
    /// Whether to keep standard error quiet.
    pub(crate) quiet: bool,
    /// Whether to write JSON lines.
    pub(crate) json: bool,
    /// Whether solutions come in the order of the sequential search.
    pub(crate) ordered: bool,
    /// The run's time limit.
    pub(crate) time_limit: Option<std::time::Duration>,
    /// Stop each search after this many solutions.
    pub(crate) max_solutions: Option<u64>,
    /// The checkpoint file, if any.
    pub(crate) checkpoint: Option<PathBuf>,
    /// How often to save the checkpoint.
    pub(crate) checkpoint_every: std::time::Duration,
    /// How to write solutions.
    pub(crate) solution_format: SolutionFormat,
    /// A folder for one file per solution.
    pub(crate) output_dir: Option<PathBuf>,
}

/// How solutions are written (`--output-format`).
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
    /// bits per solution.
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

impl TryFrom<CommonArgs> for Settings {
    type Error = anyhow::Error;

    fn try_from(args: CommonArgs) -> anyhow::Result<Self> {
        let format = args
            .format
            .as_deref()
            .map(|name| {
                Format::from_name(name).with_context(|| {
                    format!("unknown format '{name}' (expected plain, non, tournament, g, xml, mk, nin, json or pzl)")
                })
            })
            .transpose()?;
        if args.threads == Some(0) {
            bail!("--threads must be at least 1");
        }
        if args.puzzle == Some(0) {
            bail!("--puzzle counts from 1");
        }
        let time_limit = args
            .time_limit
            .map(|s| seconds("--time-limit", s))
            .transpose()?;
        let checkpoint_every = seconds("--checkpoint-every", args.checkpoint_every)?;
        let (solution_format, json) = match args
            .output_format
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("text") => (SolutionFormat::Text, args.json),
            Some("json") => (SolutionFormat::Text, true),
            Some("non") => (SolutionFormat::Non, args.json),
            Some("xml") => (SolutionFormat::Xml, args.json),
            Some("svg") => (SolutionFormat::Svg, args.json),
            Some("png") => (SolutionFormat::Png, args.json),
            Some("compact") => (SolutionFormat::Compact, args.json),
            Some(other) => bail!(
                "unknown --output-format '{other}' (expected text, json, non, xml, svg, png or compact)"
            ),
        };
        if matches!(solution_format, SolutionFormat::Svg | SolutionFormat::Png)
            && args.output_dir.is_none()
        {
            bail!("--output-format svg and png write image files: give --output-dir DIR");
        }
        if solution_format == SolutionFormat::Compact && args.output_dir.is_some() {
            bail!(
                "--output-format compact writes one listing of every solution: it does not go with --output-dir"
            );
        }
        if args.ordered && args.engine == EngineChoice::Learn {
            bail!(
                "--ordered prints solutions in the order of the probing search: it does not go with --engine learn"
            );
        }
        let stdin = std::path::Path::new("-");
        if args.file == stdin && args.givens.as_deref() == Some(stdin) {
            bail!("standard input (`-`) can hold the puzzle or the givens, not both");
        }
        Ok(Settings {
            file: args.file,
            threads: args.threads.unwrap_or(0),
            format,
            puzzle: args.puzzle,
            givens: args.givens,
            probing: !args.no_probe,
            restarts: args.restarts,
            engine: args.engine,
            stats: args.stats,
            quiet: args.quiet,
            json,
            ordered: args.ordered,
            time_limit,
            max_solutions: args.max_solutions,
            checkpoint: args.checkpoint,
            checkpoint_every,
            solution_format,
            output_dir: args.output_dir,
        })
    }
}

/// A positive, finite number of seconds given to `option`.
pub(crate) fn seconds(option: &str, value: f64) -> anyhow::Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{option} must be a positive number of seconds, not {value}"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn clap_definition_is_valid() {
        Cli::command().debug_assert();
    }
}
