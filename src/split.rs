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
//! The children of a node are sized side by side on rayon's threads, and so are the nodes
//! expanded at once and, where the children are fewer than the threads, the nodes of each
//! level of their sampling; the keys depend on the nodes alone, so the parts are the same for
//! every number of threads. Grids of more than
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

mod along;
mod measured;
mod pack;
mod sizing;
mod splitter;

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering as Memory};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(crate) use crate::checksum::{clue_checksum, givens_checksum};
use crate::choose::{Choice, Interrupted, SealedMemo};
use crate::domain::{Domain, DomainGrid, each_value};
use crate::puzzle::Puzzle;
use crate::search::{Searchable, SolveError, propagated_root_until};
pub(crate) use along::{Decision, Node, Replay, cut_along};
use measured::Measured;
use pack::packed;
use sizing::{Progress, Sizer};
pub(crate) use sizing::{SIZING_TIME, Sizing};
use splitter::Splitter;

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

/// Whether `cancel` is raised. Relaxed is enough: the flag publishes no data, and a store
/// reaches the polling thread promptly on every target.
fn raised(cancel: &AtomicBool) -> bool {
    cancel.load(Memory::Relaxed)
}

/// The most cells of a grid whose split sizes nodes side by side: each thread's propagator
/// and grids take memory in proportion to the cells (docs/tuning.md, "Constants").
const SIDE_BY_SIDE_CELLS: usize = 1 << 18;

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
/// part of its own (the root alone when one part is wanted); says too whether sizing stopped
/// at [`SIZING_TIME`].
pub(crate) fn cut_parts<P: Searchable>(
    puzzle: &P,
    parts: usize,
    per_part: usize,
    cancel: &AtomicBool,
) -> Result<Cut<Vec<Vec<Part<P>>>>, SolveError> {
    let parts = parts.max(1);
    // One part is the whole search, with nothing to balance: the root alone, never sized.
    let per_part = if parts == 1 { 1 } else { per_part };
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
    // A puzzle with no solution is one part, its whole search, so that its parts add up to 0.
    let no_solution = |unknown| Cut {
        parts: vec![Part {
            decisions: Vec::new(),
            unknown,
            estimate: 1.0,
        }],
        sizing_stopped: false,
    };
    let Some(root) = root else {
        return Ok(no_solution(puzzle.size().0 * puzzle.size().1));
    };
    let root_unknown = root.undecided();
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
            largest: open.peek().map_or(0.0, |node| node.estimate),
            took: started.elapsed(),
        };
        if !sizer.grow(&now) {
            break;
        }
    }
    done.extend(open);
    if done.is_empty() {
        // Every subtree died below the root.
        return Ok(no_solution(root_unknown));
    }
    for node in &mut done {
        if node.estimate.is_infinite() {
            node.estimate = sizer.size_unsized(node);
        }
    }
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
