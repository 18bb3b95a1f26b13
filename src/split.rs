//! Splitting one search into disjoint parts that other processes or machines can run (the
//! "cube and conquer" of SAT solving), and the checksums that tie results back to a puzzle.
//!
//! A part is the puzzle plus *decisions*: givens that fix the branching cells on the path from
//! the root of the search tree to one open node. The branching is the search's own (probing,
//! then the best-scored cell), so sibling parts differ in the value of one cell and no solution
//! is in two parts; dead nodes are dropped, as they hold no solution, so every solution is in
//! one part. The open nodes with the largest subtrees are split first, a few at once. Each new
//! node is sized, in search work (nodes and their line solves), by a short breadth-first search
//! (exact when it finishes) and stratified sampling below the nodes it leaves open (see
//! `Splitter::estimate`).
//! (Knuth's random-dive estimate alone was tried first: on the irregular trees that probing
//! leaves, it was off by two orders of magnitude.)
//!
//! One subtree per part cannot be balanced: a branching cell often cuts a node into a child
//! nine times the size of its sibling, so however the tree is cut, the largest subtree is a few
//! times the mean. [`split_balanced`] cuts many more subtrees than parts and packs runs of
//! consecutive subtrees into parts of near-equal estimated size ([`pack`]).
//!
//! Where the tree is large beside the split's own work, more subtrees cost little and pack
//! into more even parts: the split then doubles the subtrees it cuts, up to [`MOST_GROWTH`]
//! times those asked for, while its work stays a small share of the tree's (`Sizer::grow`).
//!
//! Sizing meets the same nodes again and again (each open node lies in subtrees sized before
//! it), so the costly ones are kept while the split runs ([`measured`]).
//!
//! The sampling draws each node's key from a hash of its grid (a *permanent random number*),
//! so the samples of a node and of its children, which overlap, keep the same nodes and
//! measure them once; on a random 16x16 picture, the nodes that probe measured fell by a sixth.
//!
//! The children of a node are sized side by side on rayon's threads, and so are the nodes of
//! each level of their sampling and the nodes expanded at once; the keys depend on the nodes
//! alone, so the parts are the same for every number of threads. Grids of more than
//! [`SIDE_BY_SIDE_CELLS`] cells are sized on one thread, to bound memory.
//!
//! Sizing stops after [`SIZING_TIME`]: on grids whose nodes take seconds to probe (a random
//! 200x200 colour picture), sizing a thousand subtrees would take an hour. The split then cuts
//! only one subtree per part, and each new subtree takes an equal share of its parent's
//! estimate ([`Sizer`]); those parts are less even, and depend on how far sizing got.
//!
//! Every split takes a cancel flag, polled between nodes and between the probes of each node's
//! choice and estimate (and every few lines of a propagation): once it is raised, the split
//! returns [`SolveError::Cancelled`] within a propagation or two, and no parts.

mod measured;
mod sizing;

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering as Memory};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

pub(crate) use crate::checksum::{clue_checksum, givens_checksum};
use crate::choose::{
    Choice, Interrupted, ProbeCounts, Probing, SealedMemo, choose_by, choose_probing,
};
use crate::domain::{Domain, DomainGrid, each_value, fingerprint};
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;
use crate::rng::SplitMix;
use crate::search::strata::{MOST_STRATA, STRATUM_CELLS, Strata, exponential};
use crate::search::{Searchable, SolveError, propagated_root_until};
use measured::{Measure, Measured};
use sizing::{Deadline, Progress, Sizer};
pub(crate) use sizing::{SIZING_TIME, Sizing};

/// One part of a split search of a puzzle of domain `P` (black and white by default).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Part<P: Domain = Puzzle> {
    /// The branching cells and values that select this part, from the root down.
    pub decisions: Vec<P::Given>,
    /// Cells still unknown at the part's node (`0` for a part that is one solution).
    pub unknown: usize,
    /// The part's size: the work of the search of its subtree, its nodes plus their line solves
    /// (see `Splitter::estimate`), exact when the subtree has at most a few dozen nodes, else
    /// estimated.
    pub estimate: f64,
}

/// Open nodes that a split expands at once, the largest first, so that their children are
/// sized side by side (a node's two children are of unequal size, and keep two threads busy
/// half of the time).
const EXPAND_AT_ONCE: usize = 4;

/// Search nodes of the breadth-first part of measuring one open node's subtree.
const BUDGET: u32 = 64;

impl<P: Domain + Clone> Part<P> {
    /// The part as a puzzle: `puzzle` with the decisions added to its givens.
    pub(crate) fn puzzle(&self, puzzle: &P) -> P {
        puzzle.with_givens(&self.decisions)
    }
}

/// An open node waiting to be split, ordered by its estimate (then by age, oldest first, so
/// the split is deterministic).
struct Open<P: Domain> {
    grid: P::Grid,
    decisions: Vec<P::Given>,
    memo: Option<Arc<SealedMemo<P::Grid>>>,
    estimate: f64,
    order: u64,
}

impl<P: Domain> PartialEq for Open<P> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<P: Domain> Eq for Open<P> {}

impl<P: Domain> PartialOrd for Open<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<P: Domain> Ord for Open<P> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.estimate
            .total_cmp(&other.estimate)
            .then(other.order.cmp(&self.order))
    }
}

/// Nodes of one level of [`Splitter::stratified`]: each grid with the memo its parent handed
/// down, and its weight.
type Level<G> = Vec<((G, Option<Arc<SealedMemo<G>>>), f64)>;

/// What a split needs at hand while it expands nodes.
struct Splitter<'p, P: Domain> {
    puzzle: &'p P,
    /// The caller's cancel flag.
    cancel: &'p AtomicBool,
    /// The nodes measured so far, shared by the threads.
    measured: &'p Measured<P::Grid>,
    /// Propagators of splitters that have finished, whose line caches are warm.
    spare: &'p Mutex<Vec<Propagator<P>>>,
    /// This splitter's propagator, from `spare` or new; it goes back there on drop.
    prop: Propagator<P>,
    counts: ProbeCounts,
    /// The seed of the nodes' keys in the strata: one for the whole split, so that the
    /// samples of a node and of its children keep the same nodes, which are then measured once.
    seed: u64,
    /// When sizing stops: measuring a node after it is [`Interrupted`] too.
    deadline: Deadline,
}

/// Whether `cancel` is raised. Relaxed is enough: the flag publishes no data, and a store
/// reaches the polling thread promptly on every target.
fn raised(cancel: &AtomicBool) -> bool {
    cancel.load(Memory::Relaxed)
}

/// The most cells of a grid whose split sizes nodes side by side: each thread's propagator
/// and grids take memory in proportion to the cells (docs/tuning.md, "Constants").
const SIDE_BY_SIDE_CELLS: usize = 1 << 18;

impl<P: Domain> Drop for Splitter<'_, P> {
    fn drop(&mut self) {
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(std::mem::take(&mut self.prop));
        }
    }
}

impl<'p, P: Domain> Splitter<'p, P> {
    fn new(
        puzzle: &'p P,
        cancel: &'p AtomicBool,
        (measured, spare): (&'p Measured<P::Grid>, &'p Mutex<Vec<Propagator<P>>>),
        (seed, deadline): (u64, Instant),
    ) -> Self {
        let prop = spare.lock().ok().and_then(|mut spare| spare.pop());
        Splitter {
            puzzle,
            cancel,
            measured,
            spare,
            prop: prop.unwrap_or_else(Propagator::with_line_cache),
            counts: ProbeCounts::default(),
            seed,
            deadline: Deadline::new(deadline),
        }
    }

    /// `work(splitter, i)` for each `i` in `0..n`, in order of `i`: side by side on rayon's
    /// threads, each with a splitter of its own, on grids of at most [`SIDE_BY_SIDE_CELLS`]
    /// cells; one after the other with this splitter on larger grids. Both give the same.
    fn each<T: Send>(
        &mut self,
        n: usize,
        work: impl Fn(&mut Splitter<'p, P>, usize) -> Result<T, Interrupted> + Sync + Send,
    ) -> Result<Vec<T>, Interrupted> {
        let (rows, cols) = self.puzzle.size();
        if rows.saturating_mul(cols) > SIDE_BY_SIDE_CELLS {
            return (0..n).map(|i| work(self, i)).collect();
        }
        let (puzzle, cancel, keys) = (self.puzzle, self.cancel, (self.seed, self.deadline.at()));
        let kept = (self.measured, self.spare);
        (0..n)
            .into_par_iter()
            .map_init(
                || Splitter::new(puzzle, cancel, kept, keys),
                |sizer, i| work(sizer, i),
            )
            .collect()
    }

    /// Chooses at a node as the search that probes everywhere does; [`Choice::Interrupted`]
    /// when the cancel flag is raised. A node that the parts' search probes too chooses the
    /// same way, so a node measured when it was sized (every node but the root, when the
    /// split measures) takes its choice from the measured nodes; a node found solved there is
    /// probed again, for its solved grid.
    fn choose(
        &mut self,
        grid: &mut P::Grid,
        memo: Option<&SealedMemo<P::Grid>>,
    ) -> Choice<P::Grid> {
        if Probing::Adaptive.probes(grid.undecided()) {
            let kept = self.measured.get(Measured::key(grid, memo));
            if let Some((choice @ (Choice::Branch { .. } | Choice::Dead), _)) = kept {
                return choice;
            }
        }
        let cancel = self.cancel;
        choose_probing(
            self.puzzle,
            grid,
            &mut self.prop,
            &mut self.counts,
            memo,
            None,
            &|| raised(cancel),
        )
    }

    /// Chooses at a node as the search that runs a part does (probing only above
    /// [`PLAIN_BELOW`](crate::choose::PLAIN_BELOW) unknown cells), and returns the node's
    /// cost: one, plus its line solves. A node that probes is looked up in, or kept in, the
    /// split's [`Measured`] nodes. `Err` when the cancel flag is raised.
    fn measure(
        &mut self,
        mut grid: P::Grid,
        memo: Option<&SealedMemo<P::Grid>>,
    ) -> Result<Measure<P::Grid>, Interrupted> {
        let key = Probing::Adaptive
            .probes(grid.undecided())
            .then(|| Measured::key(&grid, memo));
        if let Some(kept) = key.and_then(|key| self.measured.get(key)) {
            return Ok(kept);
        }
        let before = self.prop.line_solves;
        let (cancel, deadline) = (self.cancel, &self.deadline);
        let choice = choose_by(
            Probing::Adaptive,
            self.puzzle,
            &mut grid,
            &mut self.prop,
            &mut self.counts,
            memo,
            &|| raised(cancel) || deadline.passed(),
        );
        if matches!(choice, Choice::Interrupted) {
            return Err(Interrupted);
        }
        let measure = (choice, 1.0 + (self.prop.line_solves - before) as f64);
        if let Some(key) = key {
            self.measured.keep(key, &measure);
        }
        self.measured.add_work(key, measure.1);
        Ok(measure)
    }

    /// The work of the search of the subtree under `grid`: its nodes, each counted as one plus
    /// its line solves, in the tree that the search running a part builds (see
    /// [`Splitter::measure`]); a node high in the tree, which probes, weighs more than a node
    /// near the bottom. (Counting nodes of a tree that probes everywhere misjudged the parts'
    /// seconds: a random 14x14 picture's largest of 64 parts took 2.2 times the mean time at
    /// 1.8 times the mean nodes.) A breadth-first search of up to [`BUDGET`] nodes is exact
    /// when it finishes; otherwise the subtrees of the nodes it left open are sized by
    /// [`Splitter::stratified`]. Breadth first sees how wide the subtree is, the sampling how
    /// deep. `Err` when the cancel flag is raised.
    fn estimate(
        &mut self,
        grid: &P::Grid,
        memo: Option<&Arc<SealedMemo<P::Grid>>>,
    ) -> Result<f64, Interrupted> {
        let mut frontier = VecDeque::from([(grid.clone(), memo.cloned())]);
        let (mut nodes, mut work) = (0u32, 0.0);
        while nodes < BUDGET {
            let Some((grid, memo)) = frontier.pop_front() else {
                return Ok(work);
            };
            nodes += 1;
            let (choice, cost) = self.measure(grid, memo.as_deref())?;
            work += cost;
            if let Choice::Branch {
                children,
                memo: next,
                ..
            } = choice
            {
                frontier.extend(children.into_iter().map(|g| (g, next.clone())));
            }
        }
        let level = frontier.into_iter().map(|node| (node, 1.0)).collect();
        Ok(work + self.stratified(level)?)
    }

    /// Chen's stratified sampling of the subtrees under `level`'s nodes, each given with its
    /// weight (how many nodes of the tree it stands for): every node of the level is measured,
    /// its work counted times its weight, and its children fall into strata by their unknown
    /// cells (see [`STRATUM_CELLS`]). Each stratum keeps one child, drawn in proportion to
    /// the weights by the children's keys (see [`Splitter::seed`]), that stands for the weight
    /// of all, and the kept children are the next level. Every choice is fair, so the estimate
    /// is unbiased. Random dives (Knuth's estimator, with the child with more unknown cells
    /// favoured) were used before: on a random 16x16 picture, the largest of 64 parts had 2.2
    /// to 7.8 times the mean work over four draws, against 1.7 to 2.3 with strata
    /// (docs/benchmarks.md, "Stratified sizing"). The keys depend on the nodes alone, so the
    /// estimate does not depend on the threads.
    fn stratified(&mut self, mut level: Level<P::Grid>) -> Result<f64, Interrupted> {
        let mut work = 0.0;
        while !level.is_empty() {
            let measures = {
                let nodes = &level;
                self.each(nodes.len(), |sizer, i| {
                    let ((grid, memo), _) = &nodes[i];
                    sizer.measure(grid.clone(), memo.as_deref())
                })?
            };
            let mut strata = Strata::new();
            for ((_, weight), (choice, cost)) in level.iter().zip(measures) {
                work += weight * cost;
                let Choice::Branch { children, memo, .. } = choice else {
                    continue;
                };
                for child in children {
                    let stratum = child.undecided() / STRATUM_CELLS;
                    let key = exponential(SplitMix(fingerprint(&child) ^ self.seed).next());
                    strata.add(stratum, (child, memo.clone()), *weight, key);
                }
            }
            level = strata.level(MOST_STRATA, |(grid, _)| grid.undecided());
        }
        Ok(work)
    }
}

/// Splits the search of `puzzle` into at least `parts` disjoint parts that together hold every
/// solution, unless the tree has fewer open nodes than that (a puzzle solved by propagation is
/// one part). A puzzle whose root already contradicts is one part with no decisions, which its
/// run then reports as having no solution.
///
/// The parts come in search order: listing each part's solutions with the one-thread (or the
/// ordered) search, part after part, lists the puzzle's solutions in the order the one-thread
/// search of the whole puzzle does.
///
/// Raising `cancel` (from another thread, a signal handler) ends the split within a
/// propagation or two with [`SolveError::Cancelled`]; pass a flag that stays down for a split
/// that runs to its end.
#[cfg(test)]
pub(crate) fn split<P: Searchable>(
    puzzle: &P,
    parts: usize,
    cancel: &AtomicBool,
) -> Result<Vec<Part<P>>, SolveError> {
    let sizing = Sizing::Measured {
        fewest: parts,
        most: parts,
    };
    split_by(puzzle, parts, sizing, cancel)
}

/// Subtrees per part that [`split_balanced`] cuts before it packs them into parts.
pub(crate) const SUBTREES_PER_PART: usize = 16;

/// How many times the subtrees asked for [`cut_parts`] may cut where the split's work is a
/// small share of the search's (see `Sizer::grow`): 64 per part instead of 16.
pub(crate) const MOST_GROWTH: usize = 4;

/// Splits the search of `puzzle` into `parts` parts of near-equal estimated size, each a run of
/// consecutive subtrees in search order (a list of [`Part`]s, each one subtree).
///
/// A search tree branches unevenly (a node's children often differ tenfold in size), so one
/// subtree per part leaves the largest part several times the mean however the tree is cut.
/// This cuts `parts * per_part` subtrees as [`split`] does, then packs runs of them into `parts`
/// parts so that the largest estimated total is as small as runs allow (see [`pack`]). The runs
/// keep the search order: the parts' subtrees, part after part, are [`split`]'s in its order.
/// Fewer parts come back only when the tree has fewer subtrees than `parts`. `cancel` ends
/// the split as in [`split`].
#[cfg(test)]
pub(crate) fn split_balanced<P: Searchable>(
    puzzle: &P,
    parts: usize,
    per_part: usize,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<Part<P>>>, SolveError> {
    let parts = parts.max(1);
    let subtrees = parts.saturating_mul(per_part.max(1));
    let sizing = Sizing::Measured {
        fewest: parts,
        most: subtrees,
    };
    Ok(packed(split_by(puzzle, subtrees, sizing, cancel)?, parts))
}

/// The parts of a split, and whether sizing stopped at [`SIZING_TIME`] before it was done.
pub(crate) struct Cut<T> {
    pub parts: T,
    pub sizing_stopped: bool,
}

/// [`split_balanced`] where `per_part` is more than one, else [`split`] with each subtree a
/// part of its own; says too whether sizing stopped at [`SIZING_TIME`].
pub(crate) fn cut_parts<P: Searchable>(
    puzzle: &P,
    parts: usize,
    per_part: usize,
    cancel: &AtomicBool,
) -> Result<Cut<Vec<Vec<Part<P>>>>, SolveError> {
    let parts = parts.max(1);
    let subtrees = parts.saturating_mul(per_part.max(1));
    let most = if per_part > 1 {
        subtrees.saturating_mul(MOST_GROWTH)
    } else {
        subtrees
    };
    let sizing = Sizing::Measured {
        fewest: parts,
        most,
    };
    let cut = split_within(puzzle, subtrees, sizing, SIZING_TIME, cancel)?;
    Ok(Cut {
        parts: if per_part > 1 {
            packed(cut.parts, parts)
        } else {
            cut.parts.into_iter().map(|part| vec![part]).collect()
        },
        sizing_stopped: cut.sizing_stopped,
    })
}

/// `subtrees` packed into `parts` runs of near-equal estimated size (see [`pack`]).
fn packed<P: Domain>(subtrees: Vec<Part<P>>, parts: usize) -> Vec<Vec<Part<P>>> {
    let sizes: Vec<f64> = subtrees.iter().map(|p| p.estimate).collect();
    let mut rest = subtrees.into_iter();
    pack(&sizes, parts)
        .into_iter()
        .map(|run| rest.by_ref().take(run.len()).collect())
        .collect()
}

/// Cuts `sizes` into `groups` consecutive runs (fewer only if there are fewer sizes) whose
/// largest sum is the smallest possible (the linear partition problem): a bisection on that
/// largest sum, each candidate tried by filling runs greedily from the left.
pub(crate) fn pack(sizes: &[f64], groups: usize) -> Vec<Range<usize>> {
    let groups = groups.clamp(1, sizes.len().max(1));
    // Runs of sum at most `limit`, each closed early when only one size per run is left.
    let runs = |limit: f64| {
        let mut runs = Vec::with_capacity(groups);
        let (mut start, mut sum) = (0, 0.0);
        for (i, &size) in sizes.iter().enumerate() {
            let left_after = groups.saturating_sub(runs.len() + 1);
            let must_close = i > start && sizes.len() - i <= left_after;
            if i > start && (sum + size > limit || must_close) {
                runs.push(start..i);
                (start, sum) = (i, 0.0);
            }
            sum += size;
        }
        if start < sizes.len() {
            runs.push(start..sizes.len());
        }
        runs
    };
    let (mut low, mut high) = (
        sizes.iter().copied().fold(0.0, f64::max),
        sizes.iter().sum::<f64>(),
    );
    for _ in 0..64 {
        let mid = low + (high - low) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if runs(mid).len() <= groups {
            high = mid;
        } else {
            low = mid;
        }
    }
    runs(high)
}

/// [`split`], with the open nodes ranked as `sizing` says. `cancel` ends the split as in
/// [`split`].
pub(crate) fn split_by<P: Searchable>(
    puzzle: &P,
    parts: usize,
    sizing: Sizing,
    cancel: &AtomicBool,
) -> Result<Vec<Part<P>>, SolveError> {
    split_within(puzzle, parts, sizing, SIZING_TIME, cancel).map(|cut| cut.parts)
}

/// [`split_by`], sizing for at most `sizing_time` (see [`Sizer`]).
fn split_within<P: Searchable>(
    puzzle: &P,
    parts: usize,
    sizing: Sizing,
    sizing_time: Duration,
    cancel: &AtomicBool,
) -> Result<Cut<Vec<Part<P>>>, SolveError> {
    let Ok(root) = propagated_root_until(puzzle, &|| raised(cancel))? else {
        return Err(SolveError::Cancelled);
    };
    let Some(root) = root else {
        return Ok(Cut {
            parts: vec![Part {
                decisions: Vec::new(),
                unknown: puzzle.size().0 * puzzle.size().1,
                estimate: 1.0,
            }],
            sizing_stopped: false,
        });
    };
    let (measured, spare) = (Measured::new(), Mutex::new(Vec::new()));
    let deadline = Instant::now() + sizing_time;
    let mut splitter = Splitter::new(puzzle, cancel, (&measured, &spare), (1, deadline));
    let mut sizer = Sizer::new(sizing, parts, deadline);
    let mut order = 0;
    let mut open = BinaryHeap::from([Open {
        grid: root,
        decisions: Vec::new(),
        memo: None,
        estimate: f64::INFINITY,
        order,
    }]);
    let mut done = Vec::new();
    let started = Instant::now();
    loop {
        expand(
            &mut splitter,
            &mut sizer,
            (&mut open, &mut done),
            &mut order,
        )?;
        let now = Progress {
            work: measured.work(),
            tree: open.iter().chain(&done).map(|node| node.estimate).sum(),
            cut: open.len() + done.len(),
            grid_bytes: open.peek().map_or(0, |node| node.grid.heap_bytes()),
            took: started.elapsed(),
        };
        if !sizer.grow(&now) {
            break;
        }
    }
    done.extend(open);
    Ok(Cut {
        parts: in_search_order(done),
        sizing_stopped: sizer.stopped,
    })
}

/// Branches the largest open nodes, their children sized by `sizer`, until there are as many
/// open and finished nodes as it wants, or nothing is left open.
fn expand<P: Searchable>(
    splitter: &mut Splitter<'_, P>,
    sizer: &mut Sizer,
    (open, done): (&mut BinaryHeap<Open<P>>, &mut Vec<Open<P>>),
    order: &mut u64,
) -> Result<(), SolveError> {
    let cancel = splitter.cancel;
    while open.len() + done.len() < sizer.parts {
        if raised(cancel) {
            return Err(SolveError::Cancelled);
        }
        let wanted = (sizer.parts - open.len() - done.len()).min(EXPAND_AT_ONCE);
        let mut branching = Vec::with_capacity(wanted);
        while branching.len() < wanted && !open.is_empty() {
            // As many as are still wanted, chosen side by side: the nodes that a split no
            // longer sizes (past its sizing time) are probed here.
            let popped: Vec<_> = (branching.len()..wanted)
                .map_while(|_| open.pop())
                .collect();
            let chosen = splitter.each(popped.len(), |splitter, i| {
                let mut grid = popped[i].grid.clone();
                let choice = splitter.choose(&mut grid, popped[i].memo.as_deref());
                Ok((grid, choice))
            });
            let Ok(chosen) = chosen else {
                return Err(SolveError::Cancelled);
            };
            for (node, (grid, choice)) in popped.into_iter().zip(chosen) {
                let node = Open { grid, ..node };
                match choice {
                    Choice::Interrupted => return Err(SolveError::Cancelled),
                    Choice::Dead => {}
                    Choice::Solved => done.push(Open {
                        estimate: 1.0,
                        ..node
                    }),
                    Choice::Branch {
                        cell,
                        children,
                        memo,
                    } => branching.push((node, cell, children, memo)),
                }
            }
        }
        if branching.is_empty() && open.is_empty() {
            break;
        }
        let mut estimates = sizer.size(splitter, &branching)?.into_iter();
        for (node, (row, col), children, memo) in branching {
            for (grid, estimate) in children.into_iter().zip(estimates.by_ref()) {
                let mut decisions = node.decisions.clone();
                decisions.push(P::given(row, col, grid.values(row, col)));
                *order += 1;
                open.push(Open {
                    grid,
                    decisions,
                    memo: memo.clone(),
                    estimate,
                    order: *order,
                });
            }
        }
    }
    Ok(())
}

/// The parts of the open and finished `nodes`, in search order: the order in which the
/// one-thread search meets them (at the first decision where two parts differ, the one whose
/// value the search tries first comes first: in black and white, the cell filled).
fn in_search_order<P: Domain>(mut nodes: Vec<Open<P>>) -> Vec<Part<P>> {
    let rank = |value: u64| each_value::<P>(u64::MAX).position(|v| v == value);
    nodes.sort_by_cached_key(|node| {
        node.decisions
            .iter()
            .map(|g| rank(P::given_value(g)))
            .collect::<Vec<_>>()
    });
    nodes
        .into_iter()
        .map(|node| Part {
            unknown: node.grid.undecided(),
            decisions: node.decisions,
            estimate: node.estimate,
        })
        .collect()
}

#[cfg(test)]
mod tests;
