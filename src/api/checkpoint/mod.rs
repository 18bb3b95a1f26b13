//! Checkpointed enumerations: a long count or listing that survives a stop, even `kill -9`,
//! with its count exact and every solution listed exactly once ([`Checkpoint`]).
//!
//! The search is cut into parts as [`crate::split`] cuts it (an open subtree is the puzzle plus
//! the decisions that select it); an ordered listing cuts the tree of its own search instead,
//! and starts each part where that search reaches it, so that its file lists the solutions in
//! the order of `list --ordered`. Parts run one after the other, in search order, each on every
//! thread. When a part finishes it is *committed*: its count is added, its solutions are in the
//! output file (flushed to disk), and it leaves the list of open parts. The checkpoint file
//! (format `nonoenum-checkpoint/1`, JSON) holds the puzzle, the open parts, the committed count
//! and the length of the output file at the last commit; it is rewritten through a temporary
//! file and a rename, every few seconds and when the run stops. Resuming truncates the output
//! file to that length (dropping the solutions of a part that had not been committed) and runs
//! the open parts, so nothing is lost and nothing is listed twice.
//!
//! Black-and-white and colour puzzles run the same code: the checkpoint holds a colour puzzle
//! in Olšák's `.g` format, and a decision's value is a palette index.

mod engine;
mod estimate;
mod files;
mod meter;
mod stored;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::color::{AnyPuzzle, ColorPuzzle};
use crate::domain::Domain;
use crate::flow::Flow;
use crate::puzzle::Puzzle;
use crate::search::{Probing, SolveError};
use stored::Stored;

pub use meter::{CheckpointProgress, CheckpointSnapshot};

/// The `format` of the checkpoint files this version reads and writes.
pub const CHECKPOINT_FORMAT: &str = "nonoenum-checkpoint/1";

/// What a checkpoint file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    /// [`CHECKPOINT_FORMAT`].
    format: String,
    /// `count` or `list`.
    command: String,
    /// The puzzle's label.
    label: String,
    /// The puzzle, with its own givens, in the format `puzzle_format` names.
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
    /// Whether the parts are subtrees of the tree of the parts' own search, each started from
    /// its root as that search reaches it, so that an ordered listing lists as the search
    /// does. (Absent in older checkpoints, whose parts are cut from the tree of the search that
    /// probes at every node.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    along: bool,
    /// `list`: the output file (absolute).
    output: Option<PathBuf>,
    /// `list`: the output file's length at the last commit.
    output_len: u64,
    /// Solutions in the committed parts, as a decimal string.
    committed: String,
    /// How many parts the search was cut into; `0` until it has been (a run stopped while
    /// splitting splits again on resume).
    parts: usize,
    /// The parts not yet committed, each as its decisions `[row, col, value]` (0-based; the
    /// value is 1 for filled and 0 for empty, or a colour's palette index).
    open: Vec<Vec<[usize; 3]>>,
    /// Whether a run stopped inside the first open part, which the next run then cuts into
    /// parts of its own, so that runs shorter than a part still make progress. (Absent in
    /// older checkpoints; out of the progress checksum, as cutting a part again is always
    /// sound.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    resplit: bool,
    /// [`State::progress_checksum`] when it was saved, checked on resume so that an edit of
    /// the progress (a part dropped or repeated) is refused. (Absent in older checkpoints.)
    #[serde(default, skip_serializing)]
    progress: Option<String>,
}

/// A [`State`] as its file holds it, its progress checksum written beside it.
#[derive(Serialize)]
struct Sealed<'a> {
    #[serde(flatten)]
    state: &'a State,
    progress: String,
}

impl State {
    /// The checksum of what a run changes: the committed count, the parts, the open parts and
    /// the output's committed length.
    fn progress_checksum(&self) -> String {
        let (committed, parts, len) = (&self.committed, self.parts, self.output_len);
        let text = format!("{committed} {parts} {len} {:?}", self.open);
        crate::checksum::fnv1a64(text.as_bytes())
    }

    /// The state as its file holds it: one line of JSON, with its progress checksum.
    fn to_file(&self) -> String {
        let progress = self.progress_checksum();
        // A derived Serialize of strings, numbers and vectors cannot fail.
        serde_json::to_string(&Sealed {
            state: self,
            progress,
        })
        .unwrap_or_default()
            + "\n"
    }
}

/// Why a checkpoint could not be created, read, written or run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// A file could not be read or written (what the system said is the error's source).
    #[error("{what}")]
    Io {
        /// What was being done, to which file (`cannot write ck.json`).
        what: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The checkpoint is not JSON of the right shape.
    #[error("not a nonoenum checkpoint: {0}")]
    NotACheckpoint(serde_json::Error),
    /// The checkpoint has another `format`.
    #[error("format `{0}`, expected `{CHECKPOINT_FORMAT}`")]
    Format(String),
    /// The checkpoint holds a puzzle in a format this version does not read.
    #[error("puzzle format `{0}`, expected `g` or none")]
    PuzzleFormat(String),
    /// The puzzle a checkpoint holds cannot be read.
    #[error("the puzzle it holds: {0}")]
    Puzzle(String),
    /// The puzzle cannot be stored in a checkpoint.
    #[error("{0}")]
    NotStorable(String),
    /// The checkpoint contradicts itself or its puzzle: someone edited it.
    #[error("{0}: the file was altered")]
    Altered(String),
    /// A number or a part in the checkpoint is not valid.
    #[error("{0}")]
    Invalid(String),
    /// The output file is shorter than the checkpoint says it was at the last commit.
    #[error(
        "{output} is shorter ({actual} bytes) than the checkpoint says ({expected}): it was altered"
    )]
    OutputShorter {
        /// The output file.
        output: String,
        /// Its length.
        actual: u64,
        /// The length the checkpoint records.
        expected: u64,
    },
    /// The search failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl CheckpointError {
    /// Whether the error is about what the checkpoint holds, so that a message should name the
    /// checkpoint file (the others name their own file, or none).
    pub fn is_in_checkpoint(&self) -> bool {
        !matches!(
            self,
            CheckpointError::Io { .. }
                | CheckpointError::NotStorable(_)
                | CheckpointError::OutputShorter { .. }
                | CheckpointError::Solve(_)
        )
    }
}

/// What a new checkpointed run does (see [`Checkpoint::create`]).
#[derive(Clone, Debug, Default)]
pub struct CheckpointSettings {
    /// The puzzle's label, kept in the checkpoint.
    pub label: String,
    /// When search nodes probe.
    pub probing: Probing,
    /// List the solutions in the order of the ordered search that probes as `probing` says
    /// (`list --ordered`): the parts are cut from that search's tree, each started where the
    /// search reaches it; a part that search lists as a product is cut on its first
    /// component's solutions, each piece a stretch of the product's walk.
    pub ordered: bool,
    /// `None` counts; `Some(file)` lists every solution into `file` (started afresh), as text
    /// rows separated by blank lines; the checkpoint records its absolute path.
    pub output: Option<PathBuf>,
}

/// How a checkpointed run runs (see [`Checkpoint::run`]).
#[derive(Clone, Debug)]
pub struct CheckpointOptions {
    /// Worker threads; `0` means one per available core.
    pub threads: usize,
    /// When the run should stop (a time limit): the part running stops early enough that
    /// cutting the output back to its last commit, at a few gigabytes a second, ends by then.
    pub deadline: Option<Instant>,
    /// How often the checkpoint file is rewritten while parts commit (it is also written when
    /// the search is split and when the run ends).
    pub save_every: Duration,
    /// Setting it stops the run promptly: the part running is not committed.
    pub cancel: Arc<AtomicBool>,
    /// Estimate the run's solutions and time left by random probes of the parts still open,
    /// on a thread more, for a progress display ([`Checkpoint::progress`]).
    pub estimate: bool,
}

impl Default for CheckpointOptions {
    fn default() -> Self {
        CheckpointOptions {
            threads: 0,
            deadline: None,
            save_every: Duration::from_secs(5),
            cancel: Arc::default(),
            estimate: false,
        }
    }
}

/// What a checkpointed run tells its caller as it goes.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointEvent<'a> {
    /// Solutions of the part running, a batch of them as it was written: they count only
    /// once their part commits (if the run stops first, resuming finds them again).
    Found {
        /// How many.
        solutions: u64,
        /// A listing's solutions as text rows, as they go to its file: a blank line before
        /// each, but the part's first (empty for a count).
        text: &'a [u8],
    },
    /// A part was committed.
    Committed {
        /// Its solutions.
        solutions: u64,
        /// Solutions in all committed parts.
        committed: u128,
        /// Parts still open.
        open: usize,
        /// Parts in all.
        parts: usize,
    },
}

/// How a checkpointed run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointEnd {
    /// Every part is committed: [`Checkpoint::committed`] is the exact count.
    Complete,
    /// The cancel flag or the callback stopped the run; the checkpoint can be resumed.
    Stopped {
        /// Solutions found in the part that was running, not committed.
        partial: u64,
    },
}

/// A checkpointed count or listing of one puzzle: create it (or load it from its file), then
/// [`Checkpoint::run`] it, as many times as it takes to complete.
///
/// ```
/// use nonoenum::{AnyPuzzle, Checkpoint, CheckpointEnd, CheckpointOptions, CheckpointSettings};
/// use nonoenum::Flow;
///
/// let puzzle = AnyPuzzle::parse("3 3\n1\n1\n1\n1\n1\n1\n")?; // the 6 permutations
/// let path = std::env::temp_dir().join(format!("nonoenum-doc-{}.json", std::process::id()));
/// let mut checkpoint = Checkpoint::create(&puzzle, CheckpointSettings::default())?;
/// let end = checkpoint.run(&path, &CheckpointOptions::default(), |_| Flow::Continue)?;
/// assert_eq!(end, CheckpointEnd::Complete);
/// assert_eq!(Checkpoint::load(&path)?.committed(), 6);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Checkpoint {
    state: State,
    /// The puzzle read from `state.puzzle_text`.
    puzzle: AnyPuzzle,
    /// `state.committed`, read.
    committed: u128,
    /// What the run has done so far, for a display.
    progress: Arc<CheckpointProgress>,
}

impl Checkpoint {
    /// A checkpoint of `puzzle`, nothing run yet; with [`CheckpointSettings::output`], the
    /// output file is created empty (or emptied) now, as the run owns it from here.
    pub fn create(
        puzzle: &AnyPuzzle,
        settings: CheckpointSettings,
    ) -> Result<Checkpoint, CheckpointError> {
        let puzzle = stored::as_stored(puzzle).map_err(CheckpointError::NotStorable)?;
        if let Some(out) = &settings.output {
            // A FIFO or device cannot be cut back on resume (and opening a FIFO waits for a
            // reader, deaf to signals).
            if std::fs::metadata(out).is_ok_and(|m| !m.is_file()) {
                let not_regular =
                    std::io::Error::other("a checkpointed listing needs a regular file");
                return Err(files::io_error("cannot write", out, not_regular));
            }
            let _ =
                std::fs::File::create(out).map_err(|e| files::io_error("cannot write", out, e))?;
        }
        let (puzzle_text, puzzle_format, (clues, givens)) = match &puzzle {
            AnyPuzzle::Bw(p) => (p.to_text(), <Puzzle as Stored>::FORMAT, p.checksums()),
            AnyPuzzle::Color(p) => (p.to_text(), <ColorPuzzle as Stored>::FORMAT, p.checksums()),
        };
        let CheckpointSettings {
            label,
            probing,
            ordered,
            output,
        } = settings;
        let state = State {
            format: CHECKPOINT_FORMAT.into(),
            command: if output.is_some() { "list" } else { "count" }.into(),
            label,
            puzzle_text,
            puzzle_format: puzzle_format.map(String::from),
            puzzle: clues,
            givens,
            probing: probing != Probing::Never,
            adaptive: probing == Probing::Adaptive,
            ordered,
            along: ordered,
            // Absolute, so that a run resumes from any folder.
            output: output.map(|path| std::path::absolute(&path).unwrap_or(path)),
            output_len: 0,
            committed: "0".into(),
            parts: 0,
            open: vec![Vec::new()],
            resplit: false,
            progress: None,
        };
        Ok(Checkpoint {
            state,
            puzzle,
            committed: 0,
            progress: Arc::default(),
        })
    }

    /// Reads a checkpoint file (see [`Checkpoint::from_json`]) of at most
    /// [`crate::format::MAX_INPUT_BYTES`].
    pub fn load(path: impl AsRef<Path>) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::from_json(&files::read_capped(path.as_ref())?)
    }

    /// Reads a checkpoint from the bytes of its file, checking the puzzle against its
    /// checksums and every number of the progress against the puzzle.
    pub fn from_json(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let state: State =
            serde_json::from_slice(bytes).map_err(CheckpointError::NotACheckpoint)?;
        if state.format != CHECKPOINT_FORMAT {
            return Err(CheckpointError::Format(state.format));
        }
        let puzzle = match state.puzzle_format.as_deref() {
            None => AnyPuzzle::Bw(read_puzzle::<Puzzle>(&state)?),
            Some("g") => AnyPuzzle::Color(read_puzzle::<ColorPuzzle>(&state)?),
            Some(other) => return Err(CheckpointError::PuzzleFormat(other.into())),
        };
        let committed = match &puzzle {
            AnyPuzzle::Bw(p) => engine::check_progress(&state, p)?,
            AnyPuzzle::Color(p) => engine::check_progress(&state, p)?,
        };
        Ok(Checkpoint {
            state,
            puzzle,
            committed,
            progress: Arc::default(),
        })
    }

    /// The checkpoint as its file holds it: one line of JSON.
    pub fn to_json(&self) -> String {
        self.state.to_file()
    }

    /// Writes the checkpoint file, through a temporary file and a rename, so that it is never
    /// seen half-written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), CheckpointError> {
        files::write_atomically(path.as_ref(), self.to_json().as_bytes())
    }

    /// Runs the open parts one by one, committing each and saving the checkpoint to `path`
    /// (every [`CheckpointOptions::save_every`], and when the run ends), until none is left,
    /// the cancel flag is set, or `on_event` returns [`Flow::Stop`]. The first run cuts the
    /// search into parts. With an output file, the solutions of committed parts are in it,
    /// and those of a part that was stopped are cut off again.
    pub fn run(
        &mut self,
        path: impl AsRef<Path>,
        options: &CheckpointOptions,
        mut on_event: impl FnMut(CheckpointEvent<'_>) -> Flow,
    ) -> Result<CheckpointEnd, CheckpointError> {
        let mut run = engine::Run {
            state: &mut self.state,
            committed: &mut self.committed,
            path: path.as_ref(),
            options,
            on_event: &mut on_event,
            progress: &self.progress,
        };
        match &self.puzzle {
            AnyPuzzle::Bw(p) => run.run(p),
            AnyPuzzle::Color(p) => run.run(p),
        }
    }

    /// What a run of this checkpoint has done so far: read from another thread while
    /// [`Checkpoint::run`] runs, for a progress display ([`ProgressMeter::checkpoint`]).
    ///
    /// [`ProgressMeter::checkpoint`]: crate::ProgressMeter::checkpoint
    pub fn progress(&self) -> Arc<CheckpointProgress> {
        Arc::clone(&self.progress)
    }

    /// The puzzle, as the checkpoint holds it.
    pub fn puzzle(&self) -> &AnyPuzzle {
        &self.puzzle
    }

    /// The puzzle's label.
    pub fn label(&self) -> &str {
        &self.state.label
    }

    /// The output file of a listing; `None` for a count.
    pub fn output(&self) -> Option<&Path> {
        self.state.output.as_deref()
    }

    /// Solutions in the committed parts: the exact count once every part is.
    pub fn committed(&self) -> u128 {
        self.committed
    }

    /// How many parts the search was cut into; `0` until it has been.
    pub fn parts(&self) -> usize {
        self.state.parts
    }

    /// How many parts are not committed yet (the whole search, `1`, before the split).
    pub fn open_parts(&self) -> usize {
        self.state.open.len()
    }

    /// Whether every part is committed.
    pub fn is_complete(&self) -> bool {
        self.state.open.is_empty()
    }
}

/// The puzzle a checkpoint holds, checked against its checksums.
fn read_puzzle<P: Stored>(state: &State) -> Result<P, CheckpointError> {
    let puzzle = P::from_text(&state.puzzle_text).map_err(CheckpointError::Puzzle)?;
    if puzzle.checksums() != (state.puzzle.clone(), state.givens.clone()) {
        return Err(CheckpointError::Altered(
            "the puzzle does not match its checksums".into(),
        ));
    }
    Ok(puzzle)
}
