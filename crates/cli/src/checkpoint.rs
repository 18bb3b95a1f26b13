//! Checkpointed runs of `count` and `list`, and `nonoenum resume`: the options and messages
//! around the library's [`Checkpoint`], which cuts the search into parts, commits them one by
//! one and resumes a run that was stopped, even by `kill -9`, with its count exact and every
//! solution listed exactly once.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use nonoenum::{
    AnyPuzzle, Checkpoint, CheckpointEnd, CheckpointError, CheckpointOptions, CheckpointSettings,
    Flow, ProgressMeter,
};

use crate::input::display_name;
use crate::output::progress::{Progress, Show};
use crate::stop::{Cancel, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_TIME_LIMIT, Stop};

/// How a checkpointed run is set up.
pub(crate) struct Options<'a> {
    pub(crate) threads: usize,
    pub(crate) show: Show,
    pub(crate) every: Duration,
    pub(crate) cancel: &'a Cancel,
}

/// Starts a checkpointed `count` or `list` of `puzzle`, saved to `path`.
pub(crate) fn start(
    puzzle: AnyPuzzle,
    settings: CheckpointSettings,
    path: &Path,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    let name = display_name(path);
    let checkpoint = Checkpoint::create(&puzzle, settings).map_err(|e| named(e, &name))?;
    checkpoint.save(path).map_err(|e| named(e, &name))?;
    run_checkpoint(checkpoint, path, options)
}

/// `nonoenum resume CHECKPOINT`.
pub(crate) fn resume(checkpoint: &Path, options: &Options<'_>) -> anyhow::Result<ExitCode> {
    if checkpoint == Path::new("-") {
        anyhow::bail!("resume rewrites its checkpoint as it goes: name the file, not -");
    }
    let bytes = crate::input::read_bytes(checkpoint)?;
    let state = Checkpoint::from_json(&bytes).map_err(|e| named(e, &display_name(checkpoint)))?;
    run_checkpoint(state, checkpoint, options)
}

/// A library error as the command reports it: one about what the checkpoint holds names the
/// checkpoint file; a search's error stays one, for the report of internal errors.
fn named(error: CheckpointError, name: &str) -> anyhow::Error {
    match error {
        CheckpointError::Solve(e) => e.into(),
        e if e.is_in_checkpoint() => anyhow::anyhow!("{name}: {e}"),
        e => e.into(),
    }
}

/// Runs the open parts of `checkpoint` until none is left or the run is stopped; then prints
/// the result.
fn run_checkpoint(
    mut checkpoint: Checkpoint,
    path: &Path,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    let name = display_name(path);
    let run = CheckpointOptions {
        threads: options.threads,
        save_every: options.every,
        cancel: Arc::clone(&options.cancel.any),
        deadline: options.cancel.deadline,
        estimate: options.show.shows(),
    };
    let meter = ProgressMeter::checkpoint(checkpoint.progress());
    let progress = Progress::start(checkpoint.label(), options.show, meter);
    let end = checkpoint.run(path, &run, |_| Flow::Continue);
    progress.finish();
    let end = end.map_err(|e| named(e, &name))?;
    // A stop with no flag raised is the part stopping early for the deadline.
    let limited = options.cancel.deadline.map(|_| Stop::TimeLimit);
    let stopped = match end {
        CheckpointEnd::Complete => None,
        CheckpointEnd::Stopped { partial } => {
            let why = options.cancel.reason().or(limited);
            Some((why.unwrap_or(Stop::Interrupted), partial))
        }
    };
    let quiet = options.show == Show::Nothing;
    Ok(report(&checkpoint, stopped, &name, quiet))
}

/// Prints the result of a checkpointed run that is done, or `stopped` (why, and the solutions
/// of the part it stopped in); returns the exit code.
fn report(
    checkpoint: &Checkpoint,
    stopped: Option<(Stop, u64)>,
    name: &str,
    quiet: bool,
) -> ExitCode {
    let committed = checkpoint.committed();
    match (stopped, checkpoint.output()) {
        (None, None) => println!("{committed}"),
        (None, Some(path)) => {
            if !quiet {
                note!(
                    "nonoenum: {committed} solutions (complete), written to {}",
                    display_name(path)
                );
            }
        }
        (Some((why, partial)), output) => {
            if output.is_none() {
                println!(
                    "incomplete: at least {} ({})",
                    committed.saturating_add(u128::from(partial)),
                    why.describe()
                );
            }
            if !quiet {
                // A run stopped while it split the search has no parts yet.
                let left = match checkpoint.parts() {
                    0 => "the search is not split into parts yet".to_string(),
                    parts => format!("{} of {parts} parts remain", checkpoint.open_parts()),
                };
                note!(
                    "nonoenum: {}; {committed} solutions in finished parts are saved, {left}: \
                     continue with `nonoenum resume {name}`",
                    why.describe(),
                );
            }
            return ExitCode::from(match why {
                Stop::TimeLimit => EXIT_TIME_LIMIT,
                _ => EXIT_INTERRUPTED,
            });
        }
    }
    if committed == 0 {
        ExitCode::from(EXIT_NO_SOLUTION)
    } else {
        ExitCode::SUCCESS
    }
}
