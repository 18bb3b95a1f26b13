//! Command-line arguments (clap derive): the subcommands, each made of the option groups of
//! [`groups`] that it uses, and their validation into the settings a run uses ([`settings`]).

mod groups;
mod settings;

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

pub(crate) use groups::{
    CheckpointArgs, CountMethod, CountTuningArgs, EngineChoice, InputArgs, ProgressArgs,
    ProgressFormat, ResultOutputArgs, RunArgs, SolutionOutputArgs, Strategy, SweepSide,
};
pub(crate) use settings::{
    JsonStyle, Settings, SolutionFormat, input_format, seconds, seconds_limit, strategy_name,
    threads,
};

/// What the long help of the tool and of each command ends with.
const EXIT_CODES: &str = "\
Exit codes: 0 the command ran to completion (whatever the answer: unique,
multiple, a count); 1 a puzzle has no solution; 2 bad usage or bad input;
3 --time-limit stopped it before every answer was known; 70 an internal error
(a bug: please report it); 130 Ctrl-C or SIGTERM.
Options: docs/commands.md; the engine's knobs, hidden here: docs/tuning.md.";

/// The command line as clap parses it: the derived [`Cli`], with each command's long help
/// ending in its examples (its short help's end) and the exit codes.
pub(crate) fn command() -> clap::Command {
    Cli::command().mut_subcommands(|sub| {
        if matches!(sub.get_name(), "completions" | "man" | "help") {
            return sub;
        }
        let end = match sub.get_after_help() {
            Some(examples) => format!("{examples}\n\n{EXIT_CODES}"),
            None => EXIT_CODES.to_string(),
        };
        let sub = sub.after_long_help(end);
        if sub.get_name() == "count" {
            // `count` refuses `--strategy restarts`: its help does not offer it.
            sub.mut_arg("strategy", |arg| {
                arg.value_parser(StrategyParser {
                    hidden: Strategy::Restarts,
                })
            })
        } else {
            sub
        }
    })
}

/// The `--strategy` parser of a command that refuses one strategy: it parses as clap's own
/// (the command then refuses that strategy with its reason), but leaves it out of the help.
#[derive(Clone)]
struct StrategyParser {
    hidden: Strategy,
}

impl clap::builder::TypedValueParser for StrategyParser {
    type Value = Strategy;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Strategy, clap::Error> {
        clap::builder::EnumValueParser::<Strategy>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let values = Strategy::value_variants().iter().filter_map(|strategy| {
            let value = strategy.to_possible_value()?;
            Some(value.hide(*strategy == self.hidden))
        });
        Some(Box::new(values))
    }
}

/// The end of a command's help: its examples.
macro_rules! examples {
    ($($line:literal),+) => {
        concat!("Examples:", $("\n  ", $line),+)
    };
}

/// Finds, counts and lists every solution of nonogram puzzles, on all cores.
#[derive(Debug, Parser)]
#[command(
    name = "nonoenum",
    version,
    about,
    max_term_width = 80,
    disable_help_subcommand = true,
    after_help = "Run `nonoenum COMMAND --help` (or `nonoenum help COMMAND`) for its options.\n\
                  Example: nonoenum solve puzzles/heart.txt",
    after_long_help = EXIT_CODES
)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print a solution, then `unique`, `multiple` or `no solution`.
    #[command(
        after_help = examples!("nonoenum solve puzzles/heart.txt", "nonoenum solve --to svg -o heart.svg puzzles/heart.txt")
    )]
    Solve(SolveArgs),
    /// Print the exact number of solutions (an integer of any size).
    #[command(
        after_help = examples!("nonoenum count puzzles/ambiguous.txt", "nonoenum count --per-cell puzzles/ambiguous.txt")
    )]
    Count(CountArgs),
    /// Print the solutions as they are found, a blank line between them.
    #[command(
        after_help = examples!("nonoenum list --limit 2 puzzles/ambiguous.txt", "nonoenum list --to png --output-dir pictures puzzles/ambiguous.txt")
    )]
    List(ListArgs),
    /// Continue a `count` or `list` run from its --checkpoint file.
    #[command(
        after_help = examples!("nonoenum resume run.ckpt")
    )]
    Resume(ResumeArgs),
    /// Split the search into parts for other processes or machines.
    #[command(
        after_help = examples!(
            "nonoenum split --parts 16 -o work puzzle.txt",
            "scripts/run-gnu-parallel.sh work   # runs each part, then merges"
        )
    )]
    Split(SplitArgs),
    /// Check and add up the results of a split's parts.
    ///
    /// Each part's result is DIR/results/PART.json, as the part's `count` or `list` run wrote
    /// it (docs/beyond-one-machine.md).
    #[command(
        after_help = examples!("nonoenum merge work")
    )]
    Merge(MergeArgs),
    /// Write a puzzle in another format.
    #[command(
        after_help = examples!("nonoenum convert --to nin puzzles/dancer.non")
    )]
    Convert(ConvertArgs),
    /// Make a puzzle from a picture; say whether its solution is unique.
    #[command(
        after_help = examples!("nonoenum make --to non -o diagonal.non diagonal.pbm")
    )]
    Make(MakeArgs),
    /// Print a shell completion script.
    #[command(
        after_help = examples!(
            "nonoenum completions fish > ~/.config/fish/completions/nonoenum.fish"
        )
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), of the whole tool or of one command.
    #[command(after_help = examples!("nonoenum man | man -l -"))]
    Man(ManArgs),
    /// Print the help of the tool, or of a command.
    #[command(after_help = examples!("nonoenum help count"))]
    Help(HelpArgs),
}

/// `solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// The solution the one-thread search finds first, on any number of threads.
    #[arg(long)]
    pub(crate) ordered: bool,
    /// Output format: text, json, jsonl, non, xml, svg or png [default: text].
    ///
    /// text: rows of `#` and `.` (a character per colour); json: one JSON document; jsonl: one
    /// JSON object per line (what `merge` reads); non, xml: the puzzle with the solution as
    /// its goal; svg, png: a picture.
    #[arg(long, value_name = "FMT", alias = "output-format")]
    pub(crate) to: Option<String>,
    #[command(flatten)]
    pub(crate) output: SolutionOutputArgs,
}

/// `count`.
#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// How to count: auto, decompose or enumerate [default: auto].
    ///
    /// decompose: without visiting the solutions (profiles, a memoised sweep, components), for
    /// astronomical counts; enumerate: one by one; auto: decompose, unless --limit asks for an
    /// enumeration.
    #[arg(long, value_enum, value_name = "METHOD", default_value_t = CountMethod::Auto, hide_default_value = true, hide_possible_values = true)]
    pub(crate) method: CountMethod,
    /// Also print in how many solutions each cell is filled.
    ///
    /// Rows of numbers, before the count; colour: a grid per colour, the background first. By
    /// profiles when they fit, else by enumerating.
    #[arg(long)]
    pub(crate) per_cell: bool,
    #[command(flatten)]
    pub(crate) progress: ProgressArgs,
    /// Stop after N solutions, enumerating (prints `incomplete: at least N` if there are more).
    #[arg(long, value_name = "N", alias = "max-solutions")]
    pub(crate) limit: Option<u64>,
    #[command(flatten)]
    pub(crate) output: ResultOutputArgs,
    #[command(flatten)]
    pub(crate) checkpoint: CheckpointArgs,
    #[command(flatten)]
    pub(crate) tuning: CountTuningArgs,
}

/// `list`.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// Stop after this many solutions.
    #[arg(long, value_name = "N", alias = "max-solutions")]
    pub(crate) limit: Option<u64>,
    /// List in the order of the one-thread search: the same output on every run.
    #[arg(long)]
    pub(crate) ordered: bool,
    #[command(flatten)]
    pub(crate) progress: ProgressArgs,
    /// Output format: text, json, jsonl, non, xml, svg, png or compact [default: text].
    ///
    /// text: rows of `#` and `.` (a character per colour); json: one JSON document; jsonl: one
    /// JSON object per line, as solutions are found (what `merge` reads); non, xml: the puzzle
    /// with the solution as its goal (several solutions in xml: one puzzle set); svg, png:
    /// pictures. non, svg and png hold one solution: with several, give --output-dir.
    /// compact: a header line, then one short line per solution, the cells as bits in
    /// base64url (see docs/formats.md; `merge` reads it too).
    #[arg(long, value_name = "FMT", alias = "output-format")]
    pub(crate) to: Option<String>,
    #[command(flatten)]
    pub(crate) output: SolutionOutputArgs,
    #[command(flatten)]
    pub(crate) checkpoint: CheckpointArgs,
}

/// `resume`.
#[derive(Debug, Args)]
pub(crate) struct ResumeArgs {
    /// The checkpoint file.
    #[arg(value_name = "CHECKPOINT")]
    pub(crate) checkpoint: PathBuf,
    /// Worker threads, at most 1024 [default: one per core].
    #[arg(long, short = 't', value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Nothing on standard error but errors.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    #[command(flatten)]
    pub(crate) progress: ProgressArgs,
    /// Stop after this many seconds (the checkpoint is saved; resume again later).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<String>,
    /// Save the checkpoint at most this often, in seconds.
    #[arg(long, value_name = "SECONDS", hide = true, default_value = "5")]
    pub(crate) checkpoint_every: String,
}

/// `split`.
#[derive(Debug, Args)]
pub(crate) struct SplitArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// How many parts to make, at least (fewer only if the search tree is smaller).
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub(crate) parts: usize,
    /// The folder to write the parts and `manifest.json` into (created if missing).
    #[arg(long, short = 'o', value_name = "DIR", alias = "out")]
    pub(crate) output: PathBuf,
    /// Nothing on standard error but errors (no summary line).
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Stop after this many seconds, writing nothing (exit code 3).
    ///
    /// A stopped split leaves nothing behind: the part files it wrote are removed, and the
    /// folder too if the split created it.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<String>,
}

/// `merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The folder `nonoenum split` wrote.
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// Merge `list` results: print every solution (and the count on standard error).
    #[arg(long)]
    pub(crate) list: bool,
    #[command(flatten)]
    pub(crate) output: ResultOutputArgs,
    /// Nothing on standard error but errors.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
}

/// `convert`.
#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The puzzle file (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub(crate) input: PathBuf,
    /// Output format: plain, non, g, xml, mk, nin, json, pzl, picross or pynogram (colour: g,
    /// xml or pzl).
    #[arg(long, value_name = "FMT")]
    pub(crate) to: String,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// The output file, old spelling of `-o FILE` (`-`: standard output).
    #[arg(value_name = "OUT", hide = true, conflicts_with = "output")]
    pub(crate) old_output: Option<PathBuf>,
    /// Input format, instead of detecting it.
    #[arg(long, value_name = "FMT")]
    pub(crate) format: Option<String>,
    /// In a file of several puzzles, convert the Nth (1-based).
    #[arg(long, value_name = "N")]
    pub(crate) puzzle: Option<usize>,
    /// Nothing on standard error but errors (no note of what the format drops).
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
}

/// `make`.
#[derive(Debug, Args)]
pub(crate) struct MakeArgs {
    /// The picture: PBM, PNG or XPM, with a small palette.
    #[arg(value_name = "IMAGE")]
    pub(crate) image: PathBuf,
    /// Output format: plain, non, g, xml, mk, nin, json, pzl, picross or pynogram [default: g].
    #[arg(
        long,
        value_name = "FMT",
        default_value = "g",
        hide_default_value = true
    )]
    pub(crate) to: String,
    /// Write the puzzle to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Compare at most this many solutions (at least 2) to find the cells that vary [default: 1000].
    #[arg(
        long,
        value_name = "N",
        alias = "max-solutions",
        default_value_t = 1000,
        hide_default_value = true
    )]
    pub(crate) limit: u64,
    /// Worker threads, at most 1024 [default: one per core].
    #[arg(long, short = 't', value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Nothing on standard error but errors (no report on uniqueness).
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Stop the uniqueness check after this many seconds (exit code 3).
    ///
    /// The puzzle is written all the same; the report says what was found and that the check
    /// is incomplete.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<String>,
}

/// `completions`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_name = "SHELL", value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// `man`.
#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// The command whose page to print [default: the whole tool's].
    #[arg(value_name = "COMMAND")]
    pub(crate) command: Option<String>,
}

/// `help`.
#[derive(Debug, Args)]
pub(crate) struct HelpArgs {
    /// The command whose help to print [default: the whole tool's].
    #[arg(value_name = "COMMAND")]
    pub(crate) command: Option<String>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// clap's own consistency checks, on the derived command and on the one parsed (with its
    /// long helps ending in the exit codes).
    #[test]
    fn clap_definition_is_valid() {
        Cli::command().debug_assert();
        super::command().debug_assert();
    }
}
