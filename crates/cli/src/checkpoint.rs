//! Checkpointed runs of `count` and `list`, and `nonoenum resume`: a long enumeration that
//! survives Ctrl-C, SIGTERM and even `kill -9` with its count exact and every solution listed
//! exactly once.
//!
//! The search is cut into parts as `nonoenum split` cuts it (an open subtree is the puzzle plus
//! the decisions that select it, the same idea as a split's part files). Parts run one after the
//! other, in search order, each on every thread. When a part finishes it is *committed*: its
//! count is added, its solutions are in the output file (flushed to disk), and it leaves the
//! list of open parts.
//! The checkpoint file holds the puzzle, the open parts, the committed count and the length of
//! the output file at the last commit; it is rewritten through a temporary file and a rename,
//! every few seconds and when the run stops. Resuming truncates the output file to that length
//! (dropping the solutions of a part that had not been committed) and runs the open parts, so
//! nothing is lost and nothing is listed twice.
//!
//! Black-and-white and colour puzzles run the same code (see [`PartPuzzle`]): the checkpoint
//! holds a colour puzzle in the `.g` format, and a decision's value is a palette index.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use nonoenum::split::{Sizing, split_by};
use nonoenum::{AnyPuzzle, ColorPuzzle, Flow, Probing, Puzzle, SolveError, Solver, SolverOptions};
use serde::{Deserialize, Serialize};

use crate::input::display_name;
use crate::output::atomic;
use crate::palette::{PartPuzzle, as_stored, check};
use crate::stop::{Cancel, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_TIME_LIMIT, Stop};

const CHECKPOINT_FORMAT: &str = "nonoenum-checkpoint/1";

/// What a checkpoint file holds.
#[derive(Debug, Serialize, Deserialize)]
struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`].
    format: String,
    /// `count` or `list`.
    command: String,
    /// The puzzle's label.
    label: String,
    /// The puzzle, with its own givens, in the format [`Checkpoint::puzzle_format`] names.
    puzzle_text: String,
    /// `g` for a colour puzzle (Olšák's `.g` format); absent for black and white (the plain
    /// format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    puzzle_format: Option<String>,
    /// Its clue checksum, checked on resume.
    puzzle: String,
    /// Its givens checksum, checked on resume.
    givens: String,
    /// Whether the search probes.
    probing: bool,
    /// Whether it probes only while probing pays (absent in older checkpoints, whose searches
    /// probed at every node).
    #[serde(default)]
    adaptive: bool,
    /// `list --ordered`: the parts run in search order, each ordered, so the file lists the
    /// solutions in the order of the one-thread search. (Absent in older checkpoints.)
    #[serde(default)]
    ordered: bool,
    /// `list`: the output file (as given on the command line).
    output: Option<PathBuf>,
    /// `list`: the output file's length at the last commit.
    output_len: u64,
    /// Solutions in the committed parts, as a decimal string.
    committed: String,
    /// How many parts the search was cut into; `0` until it has been (a run killed while
    /// splitting splits again on resume).
    parts: usize,
    /// The parts not yet committed, each as its decisions `[row, col, value]` (0-based; the
    /// value is 1 for filled and 0 for empty, or a colour's palette index).
    open: Vec<Vec<[usize; 3]>>,
}

/// How a checkpointed run is set up.
pub(crate) struct Options<'a> {
    pub(crate) threads: usize,
    pub(crate) quiet: bool,
    pub(crate) every: Duration,
    pub(crate) cancel: &'a Cancel,
}

/// A checkpointed run's settings: what `start` needs besides the puzzle.
pub(crate) struct Start<'a> {
    pub(crate) label: &'a str,
    pub(crate) probing: Probing,
    pub(crate) ordered: bool,
    pub(crate) output: Option<&'a Path>,
    pub(crate) checkpoint: &'a Path,
}

/// Starts a checkpointed `count` (`output` is `None`) or `list` of `puzzle`.
pub(crate) fn start(
    puzzle: AnyPuzzle,
    run: &Start<'_>,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    let Start {
        label,
        probing,
        ordered,
        output,
        checkpoint,
    } = *run;
    match as_stored(puzzle)? {
        AnyPuzzle::Bw(p) => start_puzzle(label, &p, probing, ordered, output, checkpoint, options),
        AnyPuzzle::Color(p) => {
            start_puzzle(label, &p, probing, ordered, output, checkpoint, options)
        }
    }
}

fn start_puzzle<P: PartPuzzle>(
    label: &str,
    puzzle: &P,
    probing: Probing,
    ordered: bool,
    output: Option<&Path>,
    checkpoint: &Path,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    if let Some(out) = output {
        // Start the output afresh: the run owns it from here.
        File::create(out).with_context(|| format!("cannot write {}", display_name(out)))?;
    }
    let (clues, givens) = puzzle.checksums();
    let state = Checkpoint {
        format: CHECKPOINT_FORMAT.into(),
        command: if output.is_some() { "list" } else { "count" }.into(),
        label: label.into(),
        puzzle_text: puzzle.to_text(),
        puzzle_format: (P::FORMAT != Puzzle::FORMAT).then(|| P::FORMAT.into()),
        puzzle: clues,
        givens,
        probing: probing != Probing::Never,
        // Ordered parts follow the tree of the search that probes at every node (see `split`).
        adaptive: probing == Probing::Adaptive && !ordered,
        ordered,
        output: output.map(Path::to_path_buf),
        output_len: 0,
        committed: "0".into(),
        parts: 0,
        open: vec![Vec::new()],
    };
    save(checkpoint, &state)?;
    run(state, puzzle, checkpoint, options)
}

/// Cuts the search into parts, if that has not been done: sequential parts need no balance,
/// only enough of them that a crash loses little, so they are ranked by unknown cells. A split
/// that the run's stop cancels leaves the state unsplit, the whole puzzle its one open part,
/// whose search then stops at once.
fn ensure_split<P: PartPuzzle>(
    state: &mut Checkpoint,
    puzzle: &P,
    checkpoint: &Path,
    options: &Options<'_>,
) -> anyhow::Result<()> {
    if state.parts > 0 {
        return Ok(());
    }
    let wanted = (16 * thread_count(options.threads)).clamp(64, 4096);
    let parts = match split_by(puzzle, wanted, Sizing::UnknownCells, &options.cancel.any) {
        Err(SolveError::Cancelled) => return Ok(()),
        parts => parts?,
    };
    state.parts = parts.len();
    state.open = parts
        .iter()
        .map(|p| p.decisions.iter().map(P::decision).collect())
        .collect();
    save(checkpoint, state)
}

/// `nonoenum resume CHECKPOINT`.
pub(crate) fn resume(checkpoint: &Path, options: &Options<'_>) -> anyhow::Result<ExitCode> {
    let name = display_name(checkpoint);
    let bytes = crate::input::read_bytes(checkpoint)?;
    let state: Checkpoint = serde_json::from_slice(&bytes)
        .with_context(|| format!("{name}: not a nonoenum checkpoint"))?;
    if state.format != CHECKPOINT_FORMAT {
        bail!(
            "{name}: format `{}`, expected `{CHECKPOINT_FORMAT}`",
            state.format
        );
    }
    match state.puzzle_format.as_deref() {
        None => resume_puzzle::<Puzzle>(state, checkpoint, options),
        Some(ColorPuzzle::FORMAT) => resume_puzzle::<ColorPuzzle>(state, checkpoint, options),
        Some(other) => bail!("{name}: puzzle format `{other}`, expected `g` or none"),
    }
}

fn resume_puzzle<P: PartPuzzle>(
    state: Checkpoint,
    checkpoint: &Path,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    let name = display_name(checkpoint);
    let puzzle =
        P::from_text(&state.puzzle_text).with_context(|| format!("{name}: the puzzle it holds"))?;
    if puzzle.checksums() != (state.puzzle.clone(), state.givens.clone()) {
        bail!("{name}: the puzzle does not match its checksums: the file was altered");
    }
    run(state, &puzzle, checkpoint, options)
}

fn thread_count(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Writes the checkpoint through a temporary file, synced, and a rename.
fn save(path: &Path, state: &Checkpoint) -> anyhow::Result<()> {
    let mut file = atomic::create(path)?;
    serde_json::to_writer(&mut file, state)?;
    file.write_all(b"\n")?;
    file.commit()
}

/// Runs the open parts of `state` one by one, committing each, until none is left or the run
/// is stopped; then prints the result.
fn run<P: PartPuzzle>(
    mut state: Checkpoint,
    puzzle: &P,
    checkpoint: &Path,
    options: &Options<'_>,
) -> anyhow::Result<ExitCode> {
    let name = display_name(checkpoint);
    let mut committed = check_progress(&state, puzzle, &name)?;
    let mut output = match &state.output {
        Some(path) => Some(open_output(path, state.output_len)?),
        None => None,
    };
    ensure_split(&mut state, puzzle, checkpoint, options)?;
    let mut last_save = Instant::now();
    let mut partial = 0u64;
    let mut stopped = None;
    while let Some(decisions) = state.open.first() {
        let part = part_of(puzzle, decisions, &name)?;
        let solver = Solver::new(
            &part,
            SolverOptions {
                threads: options.threads,
                probing: match (state.probing, state.adaptive) {
                    (false, _) => Probing::Never,
                    (true, false) => Probing::Always,
                    (true, true) => Probing::Adaptive,
                },
                ordered: state.ordered,
                // A checkpointed run explores whole parts: restarts would only repeat work.
                restarts: false,
                // Blocking clauses would make counting a part slow: parts enumerate.
                engine: Default::default(),
            },
        )
        .with_cancel_flag(Arc::clone(&options.cancel.any));
        let mut write_error = None;
        let outcome = solver.run(|grid| {
            if let Some(out) = output.as_mut()
                && let Err(e) = out.append(|bytes| puzzle.write_solution(bytes, grid))
            {
                write_error = Some(e);
                return Flow::Stop;
            }
            Flow::Continue
        })?;
        if let Some(e) = write_error {
            return Err(e.context("cannot write the output file"));
        }
        if !outcome.exhausted {
            partial = outcome.solutions;
            stopped = Some(options.cancel.reason().unwrap_or(Stop::Interrupted));
            break;
        }
        if let Some(out) = output.as_mut() {
            state.output_len = out.commit()?;
        }
        committed = committed
            .checked_add(u128::from(outcome.solutions))
            .with_context(|| format!("{name}: the committed count is too large: {ALTERED}"))?;
        state.committed = committed.to_string();
        let _ = state.open.remove(0);
        if last_save.elapsed() >= options.every || state.open.is_empty() {
            save(checkpoint, &state)?;
            last_save = Instant::now();
        }
    }
    // Stopped or done: record the committed state, and drop uncommitted output.
    save(checkpoint, &state)?;
    if let Some(out) = output.as_mut() {
        out.truncate_to(state.output_len)?;
    }
    Ok(report(
        &state,
        committed,
        stopped.map(|why| (why, partial)),
        &name,
        options.quiet,
    ))
}

/// Prints the result of a checkpointed run that is done, or `stopped` (why, and the solutions
/// of the part it stopped in); returns the exit code.
fn report(
    state: &Checkpoint,
    committed: u128,
    stopped: Option<(Stop, u64)>,
    name: &str,
    quiet: bool,
) -> ExitCode {
    match (stopped, &state.output) {
        (None, None) => println!("{committed}"),
        (None, Some(path)) => {
            if !quiet {
                eprintln!(
                    "nonoenum: {committed} solutions (complete), written to {}",
                    display_name(path)
                );
            }
        }
        (Some((why, partial)), _) => {
            if state.output.is_none() {
                println!(
                    "incomplete: at least {} ({})",
                    committed.saturating_add(u128::from(partial)),
                    why.describe()
                );
            }
            if !quiet {
                // A run stopped while it split the search has no parts yet.
                let left = match state.parts {
                    0 => "the search is not split into parts yet".to_string(),
                    parts => format!("{} of {parts} parts remain", state.open.len()),
                };
                eprintln!(
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

/// What a checkpoint read back says that the file was altered.
const ALTERED: &str = "the file was altered";

/// Checks the progress a checkpoint records against its puzzle before anything runs: the
/// committed count, the number of parts and every decision of the open parts (their numbers
/// come from a file). Returns the committed count.
fn check_progress<P: PartPuzzle>(
    state: &Checkpoint,
    puzzle: &P,
    name: &str,
) -> anyhow::Result<u128> {
    let committed: u128 = state
        .committed
        .parse()
        .with_context(|| format!("{name}: bad committed count"))?;
    // Before the split, the one open part is the whole search and nothing is committed.
    let unsplit = matches!(state.open.as_slice(), [whole] if whole.is_empty());
    if state.parts == 0 && (committed != 0 || !unsplit) {
        bail!("{name}: committed solutions or open parts before the search was split: {ALTERED}");
    }
    if state.open.len() > state.parts.max(1) {
        let (open, parts) = (state.open.len(), state.parts);
        bail!("{name}: {open} open parts of {parts}: {ALTERED}");
    }
    for decisions in &state.open {
        for &decision in decisions {
            let _ = puzzle
                .read_decision(decision)
                .map_err(|problem| anyhow::anyhow!("{name}: {problem}: {ALTERED}"))?;
        }
    }
    Ok(committed)
}

/// The puzzle of an open part: `puzzle` with the part's decisions as givens, checked.
fn part_of<P: PartPuzzle>(puzzle: &P, decisions: &[[usize; 3]], name: &str) -> anyhow::Result<P> {
    let givens = decisions
        .iter()
        .map(|&d| puzzle.read_decision(d))
        .collect::<Result<Vec<_>, String>>()
        .map_err(|problem| anyhow::anyhow!("{name}: {problem}: {ALTERED}"))?;
    let part = puzzle.with_givens(&givens);
    check(&part).with_context(|| format!("{name}: a part does not fit the puzzle"))?;
    Ok(part)
}

/// The output file of a checkpointed `list`: appends solutions, separated by blank lines.
struct Output {
    file: BufWriter<File>,
    len: u64,
    name: String,
}

fn open_output(path: &Path, committed_len: u64) -> anyhow::Result<Output> {
    let name = display_name(path);
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open the output file {name}"))?;
    let actual = file.metadata()?.len();
    if actual < committed_len {
        bail!(
            "{name} is shorter ({actual} bytes) than the checkpoint says ({committed_len}): it was altered"
        );
    }
    let mut output = Output {
        file: BufWriter::new(file),
        len: committed_len,
        name,
    };
    output.truncate_to(committed_len)?;
    Ok(output)
}

impl Output {
    /// Appends the solution that `write` writes.
    fn append(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        let mut bytes = Vec::new();
        if self.len > 0 {
            bytes.push(b'\n');
        }
        write(&mut bytes)?;
        self.file.write_all(&bytes)?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Flushes and syncs what was appended; returns the length to record.
    fn commit(&mut self) -> anyhow::Result<u64> {
        self.file.flush()?;
        self.file
            .get_ref()
            .sync_data()
            .with_context(|| format!("cannot write {}", self.name))?;
        Ok(self.len)
    }

    /// Cuts the file back to `len` bytes and continues writing there.
    fn truncate_to(&mut self, len: u64) -> anyhow::Result<()> {
        self.file.flush()?;
        let file = self.file.get_mut();
        file.set_len(len)
            .with_context(|| format!("cannot truncate {}", self.name))?;
        let _ = file.seek(std::io::SeekFrom::Start(len))?;
        file.sync_data()?;
        self.len = len;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checkpoints as `count` and `list` write them, black and white and colour.
    fn seeds() -> Vec<Vec<u8>> {
        let bw = serde_json::json!({
            "format": CHECKPOINT_FORMAT, "command": "count", "label": "plus",
            "puzzle_text": "3 3\n1\n3\n1\n1\n3\n1\n", "puzzle": "x", "givens": "y",
            "probing": true, "adaptive": true, "output": null, "output_len": 0,
            "committed": "0", "parts": 3, "open": [[[0, 0, 1]], [[0, 0, 0], [1, 1, 1]]],
        });
        let color = serde_json::json!({
            "format": CHECKPOINT_FORMAT, "command": "list", "label": "flag",
            "puzzle_text": include_str!("../../../puzzles/flag.g"), "puzzle_format": "g",
            "puzzle": "x", "givens": "y", "probing": false, "ordered": true,
            "output": "out.txt", "output_len": 12, "committed": "7", "parts": 2,
            "open": [[[1, 2, 2]]],
        });
        [bw, color]
            .iter()
            .map(|v| v.to_string().into_bytes())
            .collect()
    }

    /// What `resume` reads of a checkpoint before it searches: the puzzle, the progress and
    /// each open part.
    fn read_back<P: PartPuzzle>(state: &Checkpoint) {
        let Ok(puzzle) = P::from_text(&state.puzzle_text) else {
            return;
        };
        if check_progress(state, &puzzle, "fuzz").is_ok() {
            for decisions in &state.open {
                let _ = part_of(&puzzle, decisions, "fuzz");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::fuzz_cases::cases(300))]

        #[test]
        fn edited_checkpoints_never_panic(
            bytes in crate::fuzz_cases::edited_one_of(seeds()),
        ) {
            if let Ok(state) = serde_json::from_slice::<Checkpoint>(&bytes) {
                match state.puzzle_format.as_deref() {
                    None => read_back::<Puzzle>(&state),
                    Some(_) => read_back::<ColorPuzzle>(&state),
                }
            }
        }
    }

    #[test]
    fn the_seeds_are_read_back() {
        for seed in seeds() {
            let state: Checkpoint = serde_json::from_slice(&seed).expect("a checkpoint");
            assert!(!state.open.is_empty());
        }
    }
}
