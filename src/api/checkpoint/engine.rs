//! Running a checkpoint's open parts: the split into parts, each part's search, its commit,
//! and the checks of the progress a checkpoint file records.

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use super::estimate::{Estimator, OpenParts};
use super::files::{Output, io_error, write_atomically};
use super::stored::{Stored, decision, part_of, read_decision};
use super::{
    CheckpointEnd, CheckpointError, CheckpointEvent, CheckpointOptions, CheckpointProgress, State,
};
use crate::flow::Flow;
use crate::search::{
    Probing, SearchStats, SolutionWriter, SolveError, Solver, SolverOptions, stack_size,
};
use crate::split::{Decision, Node, Part, Replay, Sizing, cut_along, split_by};

/// One run of a checkpoint: its state, where it is saved, and whom it tells.
pub(super) struct Run<'a, F: FnMut(CheckpointEvent<'_>) -> Flow> {
    pub(super) state: &'a mut State,
    pub(super) committed: &'a mut u128,
    pub(super) path: &'a Path,
    pub(super) options: &'a CheckpointOptions,
    pub(super) on_event: &'a mut F,
    /// What the run has done, for a display.
    pub(super) progress: &'a CheckpointProgress,
}

/// How a part's search ended.
enum PartEnd {
    /// The whole subtree was searched: the part commits.
    Exhausted(u64),
    /// Stopped, with the solutions found so far.
    Stopped(u64),
}

impl<F: FnMut(CheckpointEvent<'_>) -> Flow> Run<'_, F> {
    /// Runs the open parts one by one, committing each, until none is left or the run is
    /// stopped; saves the state and cuts uncommitted output off at the end. A run asked to
    /// estimate probes its open parts on a thread of its own meanwhile.
    pub(super) fn run<P: Stored>(&mut self, puzzle: &P) -> Result<CheckpointEnd, CheckpointError> {
        let mut output = match &self.state.output {
            Some(path) => Some(Output::open(path, self.state.output_len)?),
            None => None,
        };
        let mut replay = Replay::new(puzzle, self.probing());
        self.show_parts();
        self.ensure_split(puzzle, &mut replay)?;
        self.resplit_first(puzzle, &mut replay)?;
        self.show_parts();
        let options = self.options;
        let estimator = self
            .progress
            .begin_search(options.estimate)
            .map(|stats| Estimator {
                puzzle,
                probing: self.probing(),
                threads: thread_count(options.threads),
                stats,
                open: OpenParts::new(),
                progress: self.progress,
            });
        let ended = AtomicBool::new(false);
        let end = std::thread::scope(|scope| {
            if let Some(estimator) = &estimator {
                let stopped = || ended.load(Relaxed) || options.cancel.load(Relaxed);
                // No estimate where the thread cannot start, and none lost to a panic.
                let _ = std::thread::Builder::new()
                    .name("nonoenum-estimate".into())
                    .stack_size(stack_size(puzzle))
                    .spawn_scoped(scope, move || {
                        let probe = AssertUnwindSafe(|| estimator.run(&stopped));
                        let _ = std::panic::catch_unwind(probe);
                    });
            }
            // Ends the estimator however the parts end, a panic included: the scope waits for it.
            let _ends = EndsOnDrop(&ended);
            self.run_parts(puzzle, &mut replay, output.as_mut(), estimator.as_ref())
        })?;
        // Stopped or done: record the committed state, and drop uncommitted output.
        self.save()?;
        if let Some(out) = output.as_mut() {
            out.truncate_to(self.state.output_len)?;
        }
        Ok(end)
    }

    /// Runs the open parts one by one, committing each, until none is left or the run is
    /// stopped, telling `estimator` which are open.
    fn run_parts<P: Stored>(
        &mut self,
        puzzle: &P,
        replay: &mut Replay<P>,
        mut output: Option<&mut Output>,
        estimator: Option<&Estimator<'_, P>>,
    ) -> Result<CheckpointEnd, CheckpointError> {
        let mut last_save = Instant::now();
        while let Some(decisions) = self.state.open.first() {
            let part = part_of(puzzle, decisions)?;
            let start = match self.state.along {
                true => replayed_node(replay, puzzle, decisions, &self.options.cancel)?,
                false => None,
            };
            if let Some(estimator) = estimator {
                estimator
                    .open
                    .set(&self.state.open, start.as_ref().map(|s| &s.grid));
            }
            // The estimator's counters, and how deep the part's root lies.
            let stats = estimator.map(|e| (Arc::clone(&e.stats), decisions.len()));
            let solutions = match self.search(puzzle, &part, start, output.as_deref_mut(), stats)? {
                PartEnd::Exhausted(solutions) => solutions,
                PartEnd::Stopped(partial) => {
                    self.state.resplit = true;
                    return Ok(CheckpointEnd::Stopped { partial });
                }
            };
            if let Some(out) = output.as_deref_mut() {
                self.state.output_len = out.commit()?;
            }
            *self.committed = self
                .committed
                .checked_add(u128::from(solutions))
                .ok_or_else(|| {
                    CheckpointError::Altered("the committed count is too large".into())
                })?;
            self.state.committed = self.committed.to_string();
            let _ = self.state.open.remove(0);
            // A search that finished before it was split (the split was cancelled) was one
            // part: the whole search.
            self.state.parts = self.state.parts.max(1);
            self.show_parts();
            if last_save.elapsed() >= self.options.save_every || self.state.open.is_empty() {
                self.save()?;
                last_save = Instant::now();
            }
            let event = CheckpointEvent::Committed {
                solutions,
                committed: *self.committed,
                open: self.state.open.len(),
                parts: self.state.parts,
            };
            if (self.on_event)(event) == Flow::Stop && !self.state.open.is_empty() {
                return Ok(CheckpointEnd::Stopped { partial: 0 });
            }
        }
        Ok(CheckpointEnd::Complete)
    }

    /// Tells the display how far the run is: the count committed and the parts left.
    fn show_parts(&self) {
        let (parts, open) = (self.state.parts, self.state.open.len());
        self.progress.set_parts(*self.committed, parts, open);
    }

    /// How the parts' searches probe.
    fn probing(&self) -> Probing {
        match (self.state.probing, self.state.adaptive) {
            (false, _) => Probing::Never,
            (true, false) => Probing::Always,
            (true, true) => Probing::Adaptive,
        }
    }

    /// Searches one part, from `start` if given (its root as the whole search reached it),
    /// appending its solutions to the output and telling the caller. The solutions come in
    /// batches written on the threads that found them, as `list` writes.
    fn search<P: Stored>(
        &mut self,
        puzzle: &P,
        part: &P,
        start: Option<Node<P::Grid>>,
        mut output: Option<&mut Output>,
        stats: Option<(Arc<SearchStats>, usize)>,
    ) -> Result<PartEnd, CheckpointError> {
        let probing = self.probing();
        let options = SolverOptions {
            threads: self.options.threads,
            probing,
            ordered: self.state.ordered,
            // A checkpointed run explores whole parts: restarts would only repeat work.
            restarts: false,
            // Blocking clauses would make counting a part slow: parts enumerate.
            engine: Default::default(),
        };
        let mut solver =
            Solver::new(part, options).with_cancel_flag(Arc::clone(&self.options.cancel));
        if let Some(start) = start {
            solver = solver.starting_at(start.grid, start.memo, start.walk.is_some());
        }
        if let Some((stats, depth)) = stats {
            solver = solver.with_stats(stats, depth);
        }
        let rows = TextRows {
            puzzle,
            listing: output.is_some(),
        };
        let (mut write_error, mut part_first) = (None, true);
        let (committed, deadline) = (self.state.output_len, self.options.deadline);
        let (on_event, progress) = (&mut *self.on_event, self.progress);
        let outcome = solver.run_batched(&rows, None, |text, solutions| {
            if let Some(out) = output.as_deref_mut()
                && solutions > 0
                && let Err(e) = out.append(text, std::mem::take(&mut part_first))
            {
                write_error = Some(e);
                return Flow::Stop;
            }
            progress.found(solutions);
            let flow = on_event(CheckpointEvent::Found { solutions, text });
            match (deadline, output.as_deref()) {
                (Some(deadline), Some(out))
                    if Instant::now() + cut_back_time(out.len() - committed) >= deadline =>
                {
                    Flow::Stop
                }
                _ => flow,
            }
        })?;
        if let (Some(source), Some(path)) = (write_error, &self.state.output) {
            return Err(io_error("cannot write", path, source));
        }
        Ok(if outcome.exhausted {
            PartEnd::Exhausted(outcome.solutions)
        } else {
            PartEnd::Stopped(outcome.solutions)
        })
    }

    /// Cuts the search into parts, if that has not been done: sequential parts need no
    /// balance, only enough of them that a crash loses little, so they are ranked by unknown
    /// cells. A split that the cancel flag stops leaves the state unsplit, the whole puzzle its
    /// one open part, whose search then stops at once.
    fn ensure_split<P: Stored>(
        &mut self,
        puzzle: &P,
        replay: &mut Replay<P>,
    ) -> Result<(), CheckpointError> {
        if self.state.parts > 0 {
            return Ok(());
        }
        let Some(parts) = self.cut(puzzle, &[], replay, 1)? else {
            return Ok(());
        };
        self.state.parts = parts.len();
        self.state.open = parts;
        self.save()
    }

    /// Cuts the first open part into parts of its own when a run stopped inside it: a part
    /// can hold a fifth of the search, and without this a resume shorter than it would stop
    /// in it again and again. Its parts take its place, in search order.
    fn resplit_first<P: Stored>(
        &mut self,
        puzzle: &P,
        replay: &mut Replay<P>,
    ) -> Result<(), CheckpointError> {
        let Some(first) = self.state.open.first().filter(|_| self.state.resplit) else {
            return Ok(());
        };
        let Some(pieces) = self.cut(puzzle, first, replay, 2)? else {
            return Ok(());
        };
        let cut: Vec<Vec<[usize; 3]>> = (pieces.into_iter())
            .map(|piece| first.iter().copied().chain(piece).collect())
            .collect();
        self.state.parts += cut.len().saturating_sub(1);
        let _ = self.state.open.splice(0..1, cut);
        self.state.resplit = false;
        self.save()
    }

    /// The part `part` of `puzzle` cut into [`Run::wanted`] parts ranked by unknown cells,
    /// each as its decisions after `part`'s; `None` when the cancel flag stopped the cut. A
    /// checkpoint whose parts follow the search cuts along its tree where the decisions lead
    /// there and it cuts at least `fewest` parts (one solution is one); elsewhere, and in older
    /// checkpoints, the cut follows the tree of the search that probes at every node.
    fn cut<P: Stored>(
        &self,
        puzzle: &P,
        part: &[[usize; 3]],
        replay: &mut Replay<P>,
        fewest: usize,
    ) -> Result<Option<Vec<Vec<[usize; 3]>>>, CheckpointError> {
        let cancel = &self.options.cancel;
        if self.state.along
            && let Some(node) = replayed_node(replay, puzzle, part, cancel)?
        {
            let Ok(pieces) = cut_along(puzzle, self.probing(), node, self.wanted(), cancel) else {
                return Ok(None);
            };
            if pieces.len() >= fewest {
                let encoded = |piece: Vec<Decision>| piece.into_iter().map(encode).collect();
                return Ok(Some(pieces.into_iter().map(encoded).collect()));
            }
        }
        let part = part_of(puzzle, part)?;
        let parts = match split_by(&part, self.wanted(), Sizing::UnknownCells, cancel) {
            Err(SolveError::Cancelled) => return Ok(None),
            parts => parts?,
        };
        let decisions = |p: &Part<P>| p.decisions.iter().map(decision::<P>).collect();
        Ok(Some(parts.iter().map(decisions).collect()))
    }

    /// How many parts a split cuts: sixteen a thread, 64 to 4,096.
    fn wanted(&self) -> usize {
        let threads = thread_count(self.options.threads);
        threads.saturating_mul(16).clamp(64, 4096)
    }

    fn save(&self) -> Result<(), CheckpointError> {
        write_atomically(self.path, self.state.to_file().as_bytes())
    }
}

/// A listing's solutions as text rows, a blank line between them; nothing for a count.
struct TextRows<'p, P> {
    puzzle: &'p P,
    listing: bool,
}

impl<P: Stored> SolutionWriter<P::Grid> for TextRows<'_, P> {
    fn write(&self, grid: &P::Grid, out: &mut Vec<u8>) {
        if self.listing {
            self.puzzle.any_grid(grid).write_text(out);
        }
    }

    fn separator(&self) -> &[u8] {
        if self.listing { b"\n" } else { b"" }
    }
}

/// Checks the progress a checkpoint records against its puzzle before anything runs: the
/// committed count, the number of parts and every decision of the open parts (their numbers
/// come from a file). Returns the committed count.
pub(super) fn check_progress<P: Stored>(
    state: &State,
    puzzle: &P,
) -> Result<u128, CheckpointError> {
    let committed: u128 = state
        .committed
        .parse()
        .map_err(|e| CheckpointError::Invalid(format!("bad committed count: {e}")))?;
    // Before the split, the one open part is the whole search and nothing is committed.
    let unsplit = matches!(state.open.as_slice(), [whole] if whole.is_empty());
    if state.parts == 0 && (committed != 0 || !unsplit) {
        return Err(CheckpointError::Altered(
            "committed solutions or open parts before the search was split".into(),
        ));
    }
    if state.open.len() > state.parts.max(1) {
        let (open, parts) = (state.open.len(), state.parts);
        return Err(CheckpointError::Altered(format!(
            "{open} open parts of {parts}"
        )));
    }
    if state.command
        != if state.output.is_some() {
            "list"
        } else {
            "count"
        }
    {
        let command = &state.command;
        return Err(CheckpointError::Altered(format!(
            "the command `{command}` does not match its output file"
        )));
    }
    if state
        .progress
        .as_ref()
        .is_some_and(|p| *p != state.progress_checksum())
    {
        return Err(CheckpointError::Altered(
            "its progress does not match its checksum".into(),
        ));
    }
    for decisions in &state.open {
        for &d in decisions {
            let _ = read_decision(puzzle, d).map_err(CheckpointError::Altered)?;
        }
    }
    check_disjoint(&state.open).map_err(CheckpointError::Altered)?;
    Ok(committed)
}

/// Checks that no two open parts share a solution, as parts of one split cannot: each part
/// decides a cell at most once, and each pair decides some cell differently.
fn check_disjoint(open: &[Vec<[usize; 3]>]) -> Result<(), String> {
    let mut sorted: Vec<Vec<[usize; 3]>> = open.to_vec();
    for (i, part) in sorted.iter_mut().enumerate() {
        part.sort_unstable();
        if let Some(w) = part.windows(2).find(|w| w[0][..2] == w[1][..2]) {
            let [row, col, _] = w[0];
            return Err(format!(
                "open part {} decides cell ({row}, {col}) twice",
                i + 1
            ));
        }
    }
    for (i, a) in sorted.iter().enumerate() {
        for (j, b) in sorted.iter().enumerate().skip(i + 1) {
            if !decide_apart(a, b) {
                let (i, j) = (i + 1, j + 1);
                return Err(format!("open parts {i} and {j} overlap"));
            }
        }
    }
    Ok(())
}

/// Whether two parts' decisions, each sorted by cell, decide a cell they share differently.
fn decide_apart(a: &[[usize; 3]], b: &[[usize; 3]]) -> bool {
    let (mut x, mut y) = (a.iter().peekable(), b.iter().peekable());
    while let (Some(p), Some(q)) = (x.peek(), y.peek()) {
        match p[..2].cmp(&q[..2]) {
            std::cmp::Ordering::Less => _ = x.next(),
            std::cmp::Ordering::Greater => _ = y.next(),
            std::cmp::Ordering::Equal if p[2] != q[2] => return true,
            std::cmp::Ordering::Equal => _ = (x.next(), y.next()),
        }
    }
    false
}

/// Raises its flag when dropped.
struct EndsOnDrop<'a>(&'a AtomicBool);

impl Drop for EndsOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// The threads a run searches on, by [`CheckpointOptions::threads`].
fn thread_count(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The node of the whole search's tree that an open part's decisions lead to, if they follow
/// that tree; `None` where they do not or the cancel flag stopped the replay.
fn replayed_node<P: Stored>(
    replay: &mut Replay<P>,
    puzzle: &P,
    decisions: &[[usize; 3]],
    cancel: &AtomicBool,
) -> Result<Option<Node<P::Grid>>, CheckpointError> {
    let decoded = decisions
        .iter()
        .map(|&d| {
            let given = read_decision(puzzle, d)?;
            let (row, col) = P::cell(&given);
            Ok((row, col, P::given_value(&given)))
        })
        .collect::<Result<Vec<Decision>, String>>()
        .map_err(CheckpointError::Altered)?;
    Ok(replay.node(&decoded, cancel).ok().flatten().cloned())
}

/// How long cutting `bytes` off the output file may take: file systems free a few gigabytes a
/// second (4.6 GB took 0.6 s here).
fn cut_back_time(bytes: u64) -> std::time::Duration {
    std::time::Duration::from_secs_f64(bytes as f64 / CUT_BACK_RATE)
}

/// The bytes a second [`cut_back_time`] counts on cutting, a third of those measured.
const CUT_BACK_RATE: f64 = 2.5e9;

/// A decision as the checkpoint file holds it (see [`decision`]).
fn encode((row, col, value): Decision) -> [usize; 3] {
    [row, col, value.trailing_zeros() as usize]
}
