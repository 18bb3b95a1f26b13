//! Measuring a split's subtrees: each open node's choice, and the work of the search below it,
//! by a short breadth-first search and stratified sampling under the nodes it leaves open.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use super::measured::{Measure, Measured};
use super::{BUDGET, SIDE_BY_SIDE_CELLS, raised};
use crate::choose::{
    Choice, Interrupted, ProbeCounts, Probing, SealedMemo, choose_by, choose_probing,
};
use crate::domain::{Domain, DomainGrid, fingerprint};
use crate::propagate::Propagator;
use crate::rng::SplitMix;
use crate::search::strata::{MOST_STRATA, STRATUM_CELLS, Strata, exponential};

/// Nodes of one level of [`Splitter::stratified`]: each grid with the memo its parent handed
/// down, and its weight.
type Level<G> = Vec<((G, Option<Arc<SealedMemo<G>>>), f64)>;

/// What a split needs at hand while it expands nodes.
pub(super) struct Splitter<'p, P: Domain> {
    puzzle: &'p P,
    /// The caller's cancel flag.
    pub(super) cancel: &'p AtomicBool,
    /// The nodes measured so far, shared by the threads.
    measured: &'p Measured<P::Grid>,
    /// Propagators of splitters that have finished, whose line caches are warm.
    spare: &'p Mutex<Vec<Propagator<P>>>,
    /// This splitter's propagator, from `spare` or new; it goes back there on drop.
    prop: Propagator<P>,
    counts: ProbeCounts,
    /// The seed of the nodes' keys in the strata: one for the whole split, so that the
    /// samples of a node and of its children keep the same nodes, which are then measured once.
    pub(super) seed: u64,
    /// When sizing stops: measuring a node after it is [`Interrupted`] too.
    deadline: Deadline,
    /// Whether [`Splitter::each`] may spread its work over rayon's threads: not where it runs
    /// inside an `each` that already keeps them all busy.
    side_by_side: bool,
}

impl<P: Domain> Drop for Splitter<'_, P> {
    fn drop(&mut self) {
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(std::mem::take(&mut self.prop));
        }
    }
}

impl<'p, P: Domain> Splitter<'p, P> {
    pub(super) fn new(
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
            side_by_side: true,
        }
    }

    /// `work(splitter, i)` for each `i` in `0..n`, in order of `i`: side by side on rayon's
    /// threads, each with a splitter of its own, on grids of at most [`SIDE_BY_SIDE_CELLS`]
    /// cells; one after the other with this splitter on larger grids, and inside an `each`
    /// whose tasks were as many as the threads (nested tasks then cost more than they gain:
    /// CHANGELOG.md, "Tried and not kept"). Both give the same.
    pub(super) fn each<T: Send>(
        &mut self,
        n: usize,
        work: impl Fn(&mut Splitter<'p, P>, usize) -> Result<T, Interrupted> + Sync + Send,
    ) -> Result<Vec<T>, Interrupted> {
        let (rows, cols) = self.puzzle.size();
        if !self.side_by_side || rows.saturating_mul(cols) > SIDE_BY_SIDE_CELLS {
            return (0..n).map(|i| work(self, i)).collect();
        }
        let (puzzle, cancel, keys) = (self.puzzle, self.cancel, (self.seed, self.deadline.at()));
        let kept = (self.measured, self.spare);
        let nested = n < rayon::current_num_threads();
        (0..n)
            .into_par_iter()
            .map_init(
                || {
                    let mut sizer = Splitter::new(puzzle, cancel, kept, keys);
                    sizer.side_by_side = nested;
                    sizer
                },
                |sizer, i| work(sizer, i),
            )
            .collect()
    }

    /// Chooses at a node as the search that probes everywhere does; [`Choice::Interrupted`]
    /// when the cancel flag is raised. A node that the parts' search probes too chooses the
    /// same way, so a node measured when it was sized (every node but the root, when the
    /// split measures) takes its choice from the measured nodes; a node found solved there is
    /// probed again, for its solved grid.
    pub(super) fn choose(
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
    pub(super) fn measure(
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
    pub(super) fn estimate(
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
    /// (CHANGELOG.md, "`split` sizes each subtree by stratified sampling"). The keys depend on
    /// the nodes alone, so the estimate does not depend on the threads.
    pub(super) fn stratified(&mut self, mut level: Level<P::Grid>) -> Result<f64, Interrupted> {
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

/// When sizing ends, as a measurement polls it: the clock is read once every
/// [`CLOCK_EVERY`] polls: read at every poll, it took 4% of a split's time.
struct Deadline {
    at: Instant,
    polls: Cell<u32>,
    passed: Cell<bool>,
}

/// Polls of a [`Deadline`] per reading of the clock: the polls come every few line solves, so
/// a deadline is seen within a millisecond or so on grids of hundreds of cells a side.
const CLOCK_EVERY: u32 = 64;

impl Deadline {
    fn new(at: Instant) -> Self {
        Deadline {
            at,
            polls: Cell::new(0),
            passed: Cell::new(false),
        }
    }

    /// Whether the deadline has passed, as the clock said when last read.
    fn passed(&self) -> bool {
        let polls = self.polls.get().wrapping_add(1);
        self.polls.set(polls);
        if polls.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.at {
            self.passed.set(true);
        }
        self.passed.get()
    }

    fn at(&self) -> Instant {
        self.at
    }
}
