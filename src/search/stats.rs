//! Live search counters, shared by all workers and readable while the search runs.
//!
//! Every counter is an `AtomicU64` updated with `Relaxed` ordering: they are statistics, read
//! by a progress display that only needs each value to be eventually up to date, and nothing is
//! synchronised through them.
//!
//! The counters a node updates live in *lanes*, one per worker thread of the pool (threads
//! outside it share lane 0), each on cache lines of its own: a node of the plain search costs
//! a fraction of a microsecond, and two threads adding to the same counters spent more time
//! passing those cache lines back and forth than searching (two threads ran the enumeration of
//! a permutation puzzle slower than one). A read adds the lanes up.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::duty::{DutySnapshot, EstimatorDuty};
use super::estimate::{Done, Samples, TreeEstimate};
use super::finished::Finished;

/// One unit of the explored-fraction counter is `2^-EXPLORED_BITS` of the search tree.
const EXPLORED_BITS: u32 = 62;

/// Lanes of per-node counters; pool workers beyond `LANES - 1` share lanes.
const LANES: usize = 64;

/// The per-node counters of one thread, on cache lines of their own.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Lane {
    nodes: AtomicU64,
    solutions: AtomicU64,
    line_solves: AtomicU64,
    probes: AtomicU64,
    probe_fixed: AtomicU64,
    probes_reused: AtomicU64,
    cache_lookups: AtomicU64,
    cache_hits: AtomicU64,
    explored: AtomicU64,
    choose_nanos: AtomicU64,
}

/// Counters of a running search.
#[derive(Debug)]
pub struct SearchStats {
    lanes: Box<[Lane]>,
    restarts: AtomicU64,
    conflicts: AtomicU64,
    backjumps: AtomicU64,
    recalled: AtomicU64,
    imported: AtomicU64,
    deepest: AtomicU64,
    variables: AtomicU64,
    estimating: AtomicBool,
    complete: AtomicBool,
    root_nanos: AtomicU64,
    checks_cut: AtomicU64,
    checks_found: AtomicU64,
    /// The random probes of the tree's size, when the solver makes them.
    pub(super) samples: Mutex<Samples>,
    /// The subtrees near the root already finished, for the probes.
    pub(super) finished: Finished,
    /// The estimator's share of the machine, which the search's pace depends on.
    pub(super) duty: EstimatorDuty,
}

impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            lanes: (0..LANES).map(|_| Lane::default()).collect(),
            restarts: AtomicU64::default(),
            conflicts: AtomicU64::default(),
            backjumps: AtomicU64::default(),
            recalled: AtomicU64::default(),
            imported: AtomicU64::default(),
            deepest: AtomicU64::default(),
            variables: AtomicU64::default(),
            estimating: AtomicBool::default(),
            complete: AtomicBool::default(),
            root_nanos: AtomicU64::default(),
            checks_cut: AtomicU64::default(),
            checks_found: AtomicU64::default(),
            samples: Mutex::default(),
            finished: Finished::default(),
            duty: EstimatorDuty::default(),
        }
    }
}

/// A copy of the counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StatsSnapshot {
    /// Search nodes visited.
    pub nodes: u64,
    /// Solutions found by the workers (the collector may keep fewer when a limit applies).
    pub solutions: u64,
    /// Line-solver calls.
    pub line_solves: u64,
    /// Propagations from a probed value.
    pub probes: u64,
    /// Cells fixed by probing.
    pub probe_fixed: u64,
    /// Probes skipped because an earlier result still held (the probe memo: a probe's result holds while the lines its propagation solved do not change).
    pub probes_reused: u64,
    /// Attempts abandoned by a search with restarts (see [`crate::SolverOptions::restarts`]),
    /// and the restarts of a learning search.
    pub restarts: u64,
    /// Conflicts a learning search met (each one learned a clause).
    pub conflicts: u64,
    /// Jumps of a learning search back over more than one decision level.
    pub backjumps: u64,
    /// Line explanations a learning search took from its cache of explanations already
    /// shrunk, instead of shrinking them again.
    pub explanations_recalled: u64,
    /// Learned clauses that a learning search took from the other one racing it.
    pub imported: u64,
    /// The most variables a learning search had set below the decision level of a conflict:
    /// the deepest consistent partial assignment it reached (in black and white a variable is
    /// a cell; in colour, whether a cell has one colour). 0 without a learning search.
    pub deepest: u64,
    /// The variables of the learning search, of which [`deepest`](Self::deepest) counts the
    /// most it had set; 0 without a learning search.
    pub variables: u64,
    /// Whether random probes estimate the size of the tree
    /// ([`Solver::with_estimate`](super::Solver::with_estimate)).
    pub estimating: bool,
    /// Nodes of the probing search that a completion check proved to have no solution (see
    /// [`Solver::with_completion_checks`](super::Solver::with_completion_checks)).
    pub completion_cuts: u64,
    /// Completion checks of the probing search that found a solution below their node.
    pub completion_found: u64,
    /// Line solves looked up in the line-result cache ([`crate::line::LineCache`]).
    pub cache_lookups: u64,
    /// Line solves the cache answered.
    pub cache_hits: u64,
    /// Seconds spent setting up the root: givens applied and propagated.
    pub root_seconds: f64,
    /// Seconds the workers spent, added up over all of them, at the nodes that probe:
    /// probing, propagating and choosing branching cells. Plain nodes are not timed (reading
    /// the clock would cost them a tenth of their time): the rest of the search is plain nodes,
    /// bookkeeping and handing over solutions.
    pub choose_seconds: f64,
    /// Fraction of the search tree already explored, in `[0, 1]`, if every branching split it
    /// in equal halves: a finished subtree at depth `d` counts for `2^-d`. Trees are far from
    /// balanced, so this is no measure of progress: see [`SearchStats::estimate`].
    pub explored: f64,
}

impl StatsSnapshot {
    /// What the search had done when the counters were read.
    pub fn done(&self) -> Done {
        Done {
            nodes: self.nodes,
            solutions: self.solutions,
            line_solves: self.line_solves,
        }
    }
}

impl SearchStats {
    /// The calling thread's lane.
    fn lane(&self) -> &Lane {
        let index = rayon::current_thread_index().map_or(0, |i| 1 + i % (LANES - 1));
        &self.lanes[index]
    }

    /// The sum of one counter over the lanes.
    fn total(&self, counter: impl Fn(&Lane) -> &AtomicU64) -> u64 {
        self.lanes
            .iter()
            .map(|lane| counter(lane).load(Relaxed))
            .fold(0, u64::wrapping_add)
    }

    pub(crate) fn add_node(&self) {
        let _ = self.lane().nodes.fetch_add(1, Relaxed);
    }

    pub(crate) fn add_solution(&self) {
        let _ = self.lane().solutions.fetch_add(1, Relaxed);
    }

    pub(crate) fn add_work(&self, line_solves: u64, probes: u64, probe_fixed: u64, reused: u64) {
        let lane = self.lane();
        if line_solves > 0 {
            let _ = lane.line_solves.fetch_add(line_solves, Relaxed);
        }
        if probes > 0 {
            let _ = lane.probes.fetch_add(probes, Relaxed);
            let _ = lane.probe_fixed.fetch_add(probe_fixed, Relaxed);
        }
        if reused > 0 {
            let _ = lane.probes_reused.fetch_add(reused, Relaxed);
        }
    }

    /// Adds line-cache lookups and hits.
    pub(crate) fn add_cache(&self, lookups: u64, hits: u64) {
        if lookups > 0 {
            let lane = self.lane();
            let _ = lane.cache_lookups.fetch_add(lookups, Relaxed);
            let _ = lane.cache_hits.fetch_add(hits, Relaxed);
        }
    }

    /// Notes that a learning search of `variables` variables runs.
    pub(crate) fn add_learner(&self, variables: usize) {
        let _ = self.variables.fetch_max(variables as u64, Relaxed);
    }

    /// Notes whether random probes estimate the size of the tree.
    pub(crate) fn set_estimating(&self, estimating: bool) {
        self.estimating.store(estimating, Relaxed);
    }

    /// Notes that the search exhausted its tree: the solutions counted are all there are.
    pub(crate) fn mark_complete(&self) {
        self.complete.store(true, Relaxed);
    }

    /// Whether the search that counts here exhausted its tree (for the progress meter's last
    /// report; the parts of a checkpointed run, which share counters, each mark it).
    pub(crate) fn is_complete(&self) -> bool {
        self.complete.load(Relaxed)
    }

    /// Adds the counters of a learning search: its decisions count as nodes.
    pub(crate) fn add_learning(&self, learned: &crate::learn::LearnStats) {
        let lane = self.lane();
        let _ = lane.nodes.fetch_add(learned.decisions, Relaxed);
        let _ = lane
            .line_solves
            .fetch_add(learned.line_solves + learned.explain_solves, Relaxed);
        let _ = self.conflicts.fetch_add(learned.conflicts, Relaxed);
        let _ = self.backjumps.fetch_add(learned.backjumps, Relaxed);
        let _ = self
            .recalled
            .fetch_add(learned.explanations_recalled, Relaxed);
        let _ = self.imported.fetch_add(learned.imported, Relaxed);
        let _ = self.deepest.fetch_max(learned.deepest, Relaxed);
        let _ = self.restarts.fetch_add(learned.restarts, Relaxed);
        self.add_cache(learned.cache_lookups, learned.cache_hits);
    }

    /// Records the time spent preparing the root.
    pub(crate) fn set_root_time(&self, time: std::time::Duration) {
        self.root_nanos.store(nanos(time), Relaxed);
    }

    /// Adds time a worker spent choosing a branching cell at one node.
    pub(crate) fn add_choose_time(&self, time: std::time::Duration) {
        let _ = self.lane().choose_nanos.fetch_add(nanos(time), Relaxed);
    }

    /// Adds what the probing search's completion checks did: nodes `cut`, solutions `found`.
    pub(crate) fn add_checks(&self, cut: &AtomicU64, found: &AtomicU64) {
        self.checks_cut.fetch_add(cut.load(Relaxed), Relaxed);
        self.checks_found.fetch_add(found.load(Relaxed), Relaxed);
    }

    /// Records that an attempt was abandoned: the next one starts exploring afresh.
    pub(crate) fn restart(&self) {
        let _ = self.restarts.fetch_add(1, Relaxed);
        for lane in &self.lanes {
            lane.explored.store(0, Relaxed);
        }
        self.finished.forget();
    }

    /// Records that a subtree rooted at `depth` is finished.
    pub(crate) fn finish_subtree(&self, depth: u32) {
        if depth <= EXPLORED_BITS {
            let _ = self
                .lane()
                .explored
                .fetch_add(1 << (EXPLORED_BITS - depth), Relaxed);
        }
    }

    /// What random probes say about the size of the tree, once there are enough of them
    /// (see [`super::Solver::with_estimate`]); `None` before, or when none are made.
    pub fn estimate(&self) -> Option<TreeEstimate> {
        self.samples
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .estimate()
    }

    /// Where the estimator stands, for the pace ahead; `None` when it has not started.
    pub(crate) fn estimator_duty(&self) -> Option<DutySnapshot> {
        self.duty.snapshot()
    }

    /// Nodes visited, solutions found and lines solved so far.
    pub(crate) fn done(&self) -> Done {
        Done {
            nodes: self.total(|l| &l.nodes),
            solutions: self.total(|l| &l.solutions),
            line_solves: self.total(|l| &l.line_solves),
        }
    }

    /// Reads all counters.
    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            nodes: self.total(|l| &l.nodes),
            solutions: self.total(|l| &l.solutions),
            line_solves: self.total(|l| &l.line_solves),
            probes: self.total(|l| &l.probes),
            probe_fixed: self.total(|l| &l.probe_fixed),
            probes_reused: self.total(|l| &l.probes_reused),
            restarts: self.restarts.load(Relaxed),
            conflicts: self.conflicts.load(Relaxed),
            backjumps: self.backjumps.load(Relaxed),
            explanations_recalled: self.recalled.load(Relaxed),
            imported: self.imported.load(Relaxed),
            deepest: self.deepest.load(Relaxed),
            variables: self.variables.load(Relaxed),
            estimating: self.estimating.load(Relaxed),
            completion_cuts: self.checks_cut.load(Relaxed),
            completion_found: self.checks_found.load(Relaxed),
            cache_lookups: self.total(|l| &l.cache_lookups),
            cache_hits: self.total(|l| &l.cache_hits),
            root_seconds: self.root_nanos.load(Relaxed) as f64 * 1e-9,
            choose_seconds: self.total(|l| &l.choose_nanos) as f64 * 1e-9,
            explored: (self.total(|l| &l.explored) as f64 / (1u64 << EXPLORED_BITS) as f64)
                .min(1.0),
        }
    }
}

/// A duration in nanoseconds, saturating (u64 nanoseconds last 584 years).
fn nanos(time: std::time::Duration) -> u64 {
    u64::try_from(time.as_nanos()).unwrap_or(u64::MAX)
}
