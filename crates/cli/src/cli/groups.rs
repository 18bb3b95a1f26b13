//! The small groups of options that the subcommands are built from (each flattened into the
//! commands that use it, so that a command accepts exactly the options it uses).
//!
//! Doc comments: the first paragraph is the `-h` line, the rest is added by `--help`. Options
//! marked `hide` are the engine's knobs and old spellings, documented in docs/tuning.md and
//! docs/commands.md.

use std::path::PathBuf;

use clap::Args;

/// The puzzle file and how to read it.
#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// The puzzle file (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Input format, instead of detecting it.
    ///
    /// plain, non, tournament, g (Olšák), xml (webpbn), mk, nin, json, pzl, picross or pynogram;
    /// case-insensitive.
    #[arg(long, value_name = "FMT")]
    pub(crate) format: Option<String>,
    /// In a file of several puzzles, only the Nth (1-based).
    #[arg(long, value_name = "N")]
    pub(crate) puzzle: Option<usize>,
    /// Cells known before solving: a file of `ROW COL [VALUE]` lines.
    ///
    /// 1-based; VALUE `#`/`1` (filled, the default) or `.`/`0` (empty), or for a colour puzzle
    /// a colour's name, character or number.
    #[arg(long, value_name = "FILE")]
    pub(crate) givens: Option<PathBuf>,
}

/// How a search runs and what it says on standard error (solve, count, list).
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Worker threads, at most 1024 [default: one per core].
    #[arg(long, short = 't', value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Only errors on standard error: no progress, notes, verdicts or statistics.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Search statistics on standard error after each puzzle.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Stop after this many seconds, keeping what was found (exit code 3).
    ///
    /// What was found is printed and marked incomplete; the exit code is 3 if that left an
    /// answer unknown.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<String>,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
}

/// Which search runs: one `--strategy`, and its old spellings (hidden).
#[derive(Debug, Args)]
pub(crate) struct StrategyArgs {
    /// Which search runs [default: auto]. See docs/tuning.md.
    #[arg(
        long,
        value_enum,
        value_name = "S",
        hide_short_help = true,
        conflicts_with_all = ["engine", "no_probe", "restarts"]
    )]
    pub(crate) strategy: Option<Strategy>,
    /// Old spelling of `--strategy auto|probe|learn|both`.
    #[arg(long, value_enum, hide = true)]
    pub(crate) engine: Option<EngineChoice>,
    /// Old spelling of `--strategy plain`.
    #[arg(long, hide = true)]
    pub(crate) no_probe: bool,
    /// Old spelling of `--strategy restarts`.
    #[arg(long, hide = true)]
    pub(crate) restarts: bool,
}

/// The `--strategy` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Strategy {
    /// `both` for solve and short lists on two threads or more, `learn` for solve and
    /// `list --limit 1` or `2` on one thread, `probe` otherwise (and with --ordered); nodes
    /// with at most 64 unknown cells branch without probing.
    Auto,
    /// Probe both values of every unknown cell at every node, on every thread.
    Probe,
    /// Branch without probing: cheaper nodes, many more of them.
    Plain,
    /// Clause learning, on one thread.
    Learn,
    /// Learning on one thread and probing on the others; the first to finish wins (for one or
    /// two black-and-white solutions: learning on every thread but one, and probing gives way
    /// to one more learner after 64 nodes, as many learners as fit in 512 MiB)
    Both,
    /// Probing, in bounded restarts with varied child orders until a first solution.
    Restarts,
}

/// The `--engine` choices (the old spelling of `--strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EngineChoice {
    /// As `--strategy auto`.
    Auto,
    /// The probing search.
    Probe,
    /// The learning search, on one thread.
    Learn,
    /// Both searches at once.
    Both,
}

/// Where and how solve and list write solutions (each command has its own `--to`, which
/// lists the formats it takes).
#[derive(Debug, Args)]
pub(crate) struct SolutionOutputArgs {
    /// Write to this file instead of standard output (never left half-written).
    #[arg(long, short = 'o', value_name = "FILE", conflicts_with = "output_dir")]
    pub(crate) output: Option<PathBuf>,
    /// Write each solution to its own file in this folder, `solution-N.EXT`.
    ///
    /// The folder is created if missing. Once the run ends, N is zero-padded to the width of
    /// the last number, so that the names sort in order; a file of several puzzles gives
    /// `puzzle-K-solution-N.EXT`.
    #[arg(long, value_name = "DIR")]
    pub(crate) output_dir: Option<PathBuf>,
    /// Colour puzzles in terminal colours: auto, always, never [default: auto].
    ///
    /// auto: when standard output is a terminal and NO_COLOR is not set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, hide_default_value = true, hide_possible_values = true)]
    pub(crate) color: ColorWhen,
    /// Old spelling of `--to jsonl`; with `--to compact`, a JSON result line ends each
    /// puzzle's listing (what `merge` reads).
    #[arg(long, hide = true)]
    pub(crate) json: bool,
}

/// The `--color` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorWhen {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

/// How count and merge write their results.
#[derive(Debug, Args)]
pub(crate) struct ResultOutputArgs {
    /// Output format: text, json or jsonl [default: text].
    ///
    /// text: the count, a bare integer, on the last line; json: one JSON document; jsonl: one
    /// JSON object per line (what `merge` reads).
    #[arg(long, value_name = "FMT")]
    pub(crate) to: Option<String>,
    /// Old spelling of `--to jsonl`.
    #[arg(long, hide = true, conflicts_with = "to")]
    pub(crate) json: bool,
}

/// Saving a long run's progress (count, list).
#[derive(Debug, Args)]
pub(crate) struct CheckpointArgs {
    /// Save progress to FILE, for `nonoenum resume FILE` after a stop or crash.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Save the checkpoint at most this often, in seconds [default: 5].
    #[arg(long, value_name = "SECONDS", hide = true, requires = "checkpoint")]
    pub(crate) checkpoint_every: Option<String>,
}

/// How `count` counts without enumerating: the engine's knobs, hidden (docs/tuning.md).
#[derive(Debug, Args)]
pub(crate) struct CountTuningArgs {
    /// Most profiles one layer of the dynamic program may hold (default 262144; 0: skip it).
    #[arg(long, value_name = "N", hide = true)]
    pub(crate) max_profiles: Option<usize>,
    /// Most memory, in MiB, of the sweep's memo (default: a quarter of the available; 0: skip).
    #[arg(long, value_name = "MIB", hide = true)]
    pub(crate) sweep_memory: Option<usize>,
    /// Most memory, in MiB, of the components' cache (default: a quarter of the available).
    #[arg(long, value_name = "MIB", hide = true)]
    pub(crate) cache_memory: Option<usize>,
    /// Let the sweep fill its memo before components take over, instead of racing them.
    #[arg(long, hide = true)]
    pub(crate) no_race: bool,
    /// Count components without first checking that large residual problems have a completion.
    #[arg(long, hide = true)]
    pub(crate) no_completion_checks: bool,
    /// Seconds of sweep trials before the backbone is fixed (default 0: the backbone first).
    #[arg(long, value_name = "SECONDS", hide = true, value_parser = zero_or_seconds)]
    pub(crate) backbone_after: Option<std::time::Duration>,
    /// Never fix the backbone.
    #[arg(long, hide = true)]
    pub(crate) no_backbone: bool,
    /// Sweep from this side of the grid only.
    #[arg(long, value_name = "SIDE", hide = true)]
    pub(crate) sweep_from: Option<SweepSide>,
}

/// How `count` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CountMethod {
    /// Decompose, unless --limit asks for an enumeration.
    Auto,
    /// Find the solutions one by one.
    Enumerate,
    /// Count without visiting solutions: profiles, a memoised sweep, then components.
    Decompose,
}

/// `--progress` (count, list, resume).
#[derive(Debug, Args)]
pub(crate) struct ProgressArgs {
    /// Progress lines every second, even off a terminal.
    ///
    /// On standard error. `--progress` or `--progress=text`: lines of words; `--progress=json`:
    /// one JSON object a line (docs/commands.md lists its fields).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, require_equals = true, default_missing_value = "text", hide_possible_values = true)]
    pub(crate) progress: Option<ProgressFormat>,
}

/// The `--progress` forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProgressFormat {
    /// Lines of words.
    Text,
    /// One JSON object a line, for programs.
    Json,
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

/// `--backbone-after`: 0, or a positive number of seconds as the library reads it
/// ([`nonoenum::parse_seconds`]).
fn zero_or_seconds(text: &str) -> Result<std::time::Duration, String> {
    match (text.trim().parse::<f64>(), nonoenum::parse_seconds(text)) {
        (Ok(0.0), _) => Ok(std::time::Duration::ZERO),
        (_, Err(nonoenum::SecondsError::NotPositive(_))) => Err(format!(
            "must be a number of seconds, 0 or more, not {text}"
        )),
        (_, seconds) => seconds.map_err(|e| e.to_string()),
    }
}
