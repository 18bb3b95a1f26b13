//! Runs the command line: each subcommand's options become settings, checked against each
//! other (an option the run would ignore is refused), then the command runs.

mod docs;
mod run;
mod search;

use std::process::ExitCode;

use anyhow::bail;

use crate::cli::{
    Cli, Command, CountArgs, CountMethod, EngineChoice, JsonStyle, ListArgs, MakeArgs, ResumeArgs,
    Settings, SolutionFormat, SolveArgs, SplitArgs, Strategy, strategy_name,
};
use crate::output::progress::Show;
use crate::stop::Cancel;
use run::Mode;

/// Runs the command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Count(args) => count(args),
        Command::List(args) => list(args),
        Command::Resume(args) => resume(args),
        Command::Split(args) => split(args),
        Command::Merge(args) => {
            let style = JsonStyle::of_results(&args.output)?;
            crate::parts::merge(&args.dir, args.list, style, args.quiet)
        }
        Command::Convert(args) => {
            let output = args.output.or(args.old_output);
            let options = crate::convert::ConvertOptions {
                from: args.format.as_deref(),
                puzzle: args.puzzle,
                to: &args.to,
                quiet: args.quiet,
                cancel: &Cancel::install(None),
            };
            crate::convert::convert(&args.input, &options, output.as_deref())
        }
        Command::Make(args) => make(args),
        Command::Completions(args) => docs::completions(args.shell),
        Command::Man(args) => docs::man(args.command.as_deref()),
        Command::Help(args) => docs::help(args.command.as_deref()),
    }
}

/// `solve`.
fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let mut settings = Settings::read(args.input)?
        .with_run(args.run)?
        .with_solution_output(args.to.as_deref(), args.output, true)?;
    if settings.solution_format == SolutionFormat::Compact {
        bail!("--to compact lists solutions: it is for list");
    }
    settings.ordered = args.ordered;
    check_ordered(&settings)?;
    search::run(Mode::Solve, &settings)
}

/// `count`.
fn count(args: CountArgs) -> anyhow::Result<ExitCode> {
    let t = args.tuning;
    let limits = crate::exact::LimitOptions {
        max_profiles: t.max_profiles,
        sweep_memory_mib: t.sweep_memory,
        cache_memory_mib: t.cache_memory,
        no_race: t.no_race,
        no_completion_checks: t.no_completion_checks,
        backbone_after: t.backbone_after,
        no_backbone: t.no_backbone,
        sweep_from: t.sweep_from,
    };
    let progress = args.progress.progress;
    let exact = crate::exact::ExactSettings::new(args.method, limits, progress, args.per_cell)?;
    let mut settings = Settings::read(args.input)?
        .with_run(args.run)?
        .with_result_output(&args.output)?
        .with_checkpoint(args.checkpoint)?;
    (settings.max_solutions, settings.progress) = (args.limit, progress);
    match settings.strategy {
        Some(Strategy::Restarts) => bail!(
            "--strategy restarts finds a first solution sooner: a count explores the whole tree"
        ),
        Some(strategy) if args.method == CountMethod::Decompose => bail!(
            "--strategy {} chooses the search that enumerates: it does not go with --method \
             decompose",
            strategy_name(strategy)
        ),
        _ => {}
    }
    if settings.checkpoint.is_some() {
        if args.per_cell {
            bail!("--per-cell does not go with --checkpoint (which saves no per-cell counts)");
        }
        if let Some(refusal) = exact.checkpoint_refusal() {
            bail!("{refusal}");
        }
        if settings.max_solutions.is_some() {
            bail!("--checkpoint runs the whole search: it does not go with --limit");
        }
        check_checkpoint(&settings)?;
        return search::checkpointed(&settings, None);
    }
    search::run(Mode::Count(exact), &settings)
}

/// `list`.
fn list(args: ListArgs) -> anyhow::Result<ExitCode> {
    let mut settings = Settings::read(args.input)?
        .with_run(args.run)?
        .with_solution_output(args.to.as_deref(), args.output, args.limit == Some(1))?
        .with_checkpoint(args.checkpoint)?;
    settings.ordered = args.ordered;
    (settings.max_solutions, settings.progress) = (args.limit, args.progress.progress);
    check_ordered(&settings)?;
    if settings.checkpoint.is_some() {
        if settings.max_solutions.is_some() {
            bail!("--checkpoint runs the whole search: it does not go with --limit");
        }
        if settings.solution_format != SolutionFormat::Text || settings.output_dir.is_some() {
            bail!("list --checkpoint writes text solutions to -o FILE: drop --to and --output-dir");
        }
        check_checkpoint(&settings)?;
        let Some(output) = settings.output.clone() else {
            bail!("list --checkpoint needs -o FILE, which it keeps exact across crashes");
        };
        return search::checkpointed(&settings, Some(&output));
    }
    search::run(Mode::List { limit: args.limit }, &settings)
}

/// `--ordered` lists in the order of the probing search.
fn check_ordered(settings: &Settings) -> anyhow::Result<()> {
    if settings.ordered && settings.engine == EngineChoice::Learn {
        bail!(
            "--ordered prints solutions in the order of the probing search: it does not go with \
             --strategy learn"
        );
    }
    Ok(())
}

/// What a checkpointed run cannot do.
fn check_checkpoint(settings: &Settings) -> anyhow::Result<()> {
    if settings.json {
        bail!("--checkpoint does not go with --to json or jsonl");
    }
    if settings.stats {
        bail!("--checkpoint runs its parts one after the other: it does not go with --stats");
    }
    if settings.color {
        bail!("--checkpoint writes plain text: it does not go with --color");
    }
    if let Some(refusal) = settings.checkpoint_strategy_refusal() {
        bail!("{refusal}");
    }
    Ok(())
}

/// `resume`.
fn resume(args: ResumeArgs) -> anyhow::Result<ExitCode> {
    let threads = crate::cli::threads(args.threads)?;
    let every = crate::cli::seconds("--checkpoint-every", &args.checkpoint_every)?;
    let cancel = cancel_within(args.time_limit)?;
    let options = crate::checkpoint::Options {
        threads,
        show: Show::new(args.quiet, args.progress.progress),
        every,
        cancel: &cancel,
    };
    crate::checkpoint::resume(&args.checkpoint, &options)
}

/// `split`.
fn split(args: SplitArgs) -> anyhow::Result<ExitCode> {
    let settings = Settings::read(args.input)?;
    let cancel = cancel_within(args.time_limit)?;
    crate::parts::split(&settings, args.parts, &args.output, args.quiet, &cancel)
}

/// `make`.
fn make(args: MakeArgs) -> anyhow::Result<ExitCode> {
    let options = crate::convert::MakeOptions {
        to: &args.to,
        output: args.output.as_deref(),
        max_solutions: args.limit.max(2),
        threads: crate::cli::threads(args.threads)?,
        quiet: args.quiet,
        cancel: &cancel_within(args.time_limit)?,
    };
    crate::convert::make(&args.image, &options)
}

/// Installs the stop flags, with the time limit of `--time-limit SECONDS` if given.
fn cancel_within(seconds: Option<String>) -> anyhow::Result<Cancel> {
    let limit = seconds.as_deref().map(crate::cli::seconds_limit);
    Ok(Cancel::install(limit.transpose()?))
}
