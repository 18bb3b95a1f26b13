//! The loop both learning searches run, and when they restart and thin their learned clauses:
//! restarts after a number of conflicts that follows the Luby sequence; reductions at a fixed
//! interval.

use std::time::{Duration, Instant};

use super::LearnStats;
use crate::flow::Flow;

/// What the search loop asks of a learning search.
pub(super) trait Cdcl {
    /// A conflict found by propagation.
    type Conflict;
    /// A solution as reported.
    type Solution;
    /// Propagates to a fixpoint; returns the conflict if one is found.
    fn propagate(&mut self) -> Option<Self::Conflict>;
    /// Learns from a conflict and jumps back; `false` if no solution is left.
    fn resolve(&mut self, conflict: Self::Conflict, ending: &mut dyn FnMut() -> bool) -> bool;
    /// Whether every variable has a value (after a conflict-free propagation: a solution).
    fn is_complete(&self) -> bool;
    /// Calls `on_solution` with the complete assignment.
    fn report(&self, on_solution: &mut impl FnMut(&Self::Solution) -> Flow) -> Flow;
    /// Excludes the solution just reported; `false` if it was the last.
    fn block_solution(&mut self) -> bool;
    /// Ends a conflict in the decision order: the variables its analysis bumped move to the
    /// front, or the activities age.
    fn requeue(&mut self);
    /// Deletes about half of the learned clauses that no conflict analysis used lately.
    fn reduce(&mut self);
    /// Undoes every decision (and takes in what other searches learned, if it shares); `false`
    /// if no solution is left.
    fn restart(&mut self) -> bool;
    /// Decides an unknown variable.
    fn decide(&mut self);
    /// The counters the loop updates.
    fn stats(&mut self) -> &mut LearnStats;
    /// The counters so far, as reported.
    fn snapshot(&self) -> LearnStats;
    /// The conflicts that time the Luby sequence of restarts.
    fn restart_unit(&self) -> u64;
}

/// Searches until every solution has been reported (returns `true`), `on_solution` says stop
/// or `stopped` (called with the counters every 64 conflicts and 256 decisions, and at least
/// every [`POLL_EVERY`]) says so
/// (returns `false`). `restarted` gets the search after each restart, at level 0.
pub(super) fn run<E: Cdcl>(
    e: &mut E,
    stopped: impl FnMut(&LearnStats) -> bool,
    on_solution: impl FnMut(&E::Solution) -> Flow,
    restarted: impl FnMut(&mut E),
) -> bool {
    let mut schedule = Schedule::new(e.restart_unit());
    run_on(e, &mut schedule, stopped, on_solution, restarted)
}

/// [`run`] on a schedule that outlives it: a search resumed many times (see
/// [`super::CompletionChecker`]) keeps its restart and reduction intervals from one run to the
/// next, as its conflict counter does.
pub(super) fn run_on<E: Cdcl>(
    e: &mut E,
    schedule: &mut Schedule,
    mut stopped: impl FnMut(&LearnStats) -> bool,
    mut on_solution: impl FnMut(&E::Solution) -> Flow,
    mut restarted: impl FnMut(&mut E),
) -> bool {
    let mut poll = Poll::new();
    loop {
        if let Some(conflict) = e.propagate() {
            e.stats().conflicts += 1;
            let conflicts = e.stats().conflicts;
            if poll.due(conflicts.is_multiple_of(64), true) && stopped(&e.snapshot()) {
                return false;
            }
            let at = e.snapshot();
            if !e.resolve(conflict, &mut || stopped(&at)) {
                return true;
            }
            e.requeue();
            if schedule.conflict(conflicts) {
                e.reduce();
            }
            continue;
        }
        if e.is_complete() {
            e.stats().solutions += 1;
            if e.report(&mut on_solution) == Flow::Stop {
                return false;
            }
            if !e.block_solution() {
                return true;
            }
            continue;
        }
        if schedule.restart_due() {
            e.stats().restarts += 1;
            if !e.restart() {
                return true;
            }
            restarted(e);
            continue;
        }
        let decisions = e.stats().decisions;
        if poll.due(decisions.is_multiple_of(256), decisions.is_multiple_of(16))
            && stopped(&e.snapshot())
        {
            return false;
        }
        e.decide();
    }
}

/// The longest a search goes without asking whether to stop: on huge grids one conflict can
/// take tens of milliseconds (a random 1000x1000 picture: 20 ms), and 64 of them a second.
const POLL_EVERY: Duration = Duration::from_millis(10);

/// When the search asks whether to stop: at its counters' steps, or once [`POLL_EVERY`] has
/// passed since it last asked.
pub(super) struct Poll {
    last: Instant,
}

impl Poll {
    pub(super) fn new() -> Self {
        Poll {
            last: Instant::now(),
        }
    }

    /// Whether to ask now: at a counter's `step`, or when `look` lets it read the clock and
    /// [`POLL_EVERY`] has passed.
    fn due(&mut self, step: bool, look: bool) -> bool {
        if step || (look && self.last.elapsed() >= POLL_EVERY) {
            self.last = Instant::now();
            return true;
        }
        false
    }
}

/// Whether the search is ending, asked in the middle of a conflict's analysis, which on a huge
/// grid can take over a second (a 2000x2000 permutation puzzle: one conflict past its time
/// limit took 1.3 s). Asked only once an analysis has run [`POLL_EVERY`], and again each
/// [`POLL_EVERY`] after; once told to stop, it stays ending until the next analysis.
pub(super) struct Hurry {
    poll: Poll,
    ending: bool,
    /// Ending from the start of every analysis, whatever `ask` says (for tests).
    always: bool,
}

impl Hurry {
    pub(super) fn new() -> Self {
        Hurry {
            poll: Poll::new(),
            ending: false,
            always: false,
        }
    }

    /// A hurry that is always ending: every explanation unshrunk.
    #[cfg(test)]
    pub(super) fn always() -> Self {
        Hurry {
            always: true,
            ..Hurry::new()
        }
    }

    /// Starts a conflict's analysis: not ending, and not asking before [`POLL_EVERY`].
    pub(super) fn start(&mut self) {
        self.ending = self.always;
        self.poll = Poll::new();
    }

    /// Whether the search has been told to stop, asking `ask` if it is time to.
    pub(super) fn ending(&mut self, ask: &mut dyn FnMut() -> bool) -> bool {
        if !self.ending && self.poll.due(false, true) {
            self.ending = ask();
        }
        self.ending
    }
}

#[cfg(test)]
mod hurry_tests {
    use super::*;

    #[test]
    fn a_hurry_asks_only_once_an_analysis_has_run_a_while() {
        let mut hurry = Hurry::new();
        let asked = std::cell::Cell::new(0);
        let mut ask = || {
            asked.set(asked.get() + 1);
            true
        };
        hurry.start();
        assert!(!hurry.ending(&mut ask));
        std::thread::sleep(POLL_EVERY);
        assert!(hurry.ending(&mut ask));
        assert!(hurry.ending(&mut ask));
        assert_eq!(asked.get(), 1);
        // The next analysis starts afresh.
        hurry.start();
        assert!(!hurry.ending(&mut ask));
        assert_eq!(asked.get(), 1);
    }
}

/// Conflicts between restarts: this unit times the Luby sequence, for a search that follows
/// saved phases.
pub(super) const RESTART_UNIT: u64 = 100;
/// The same for a search that follows target phases: it restarts half as often, to let them
/// lead the search further (three taai2011-style tournament sets, first solutions: 6% to 13%
/// less time than with 100). Colour puzzles, which do not use target phases, were slower with
/// it.
pub(super) const TARGET_RESTART_UNIT: u64 = 200;
/// Conflicts between clause-database reductions. A fixed interval keeps the database small:
/// most learned clauses of a nonogram search are long, and few of the ones kept ever imply
/// anything (one visit in a hundred on Knotty), while each costs a visit whenever one of its
/// watches is set. With intervals growing by 300 conflicts after each reduction, as in
/// Glucose, the database held 80,000 clauses after 25 s of Knotty, and walking their watches
/// took half the search's time.
const REDUCE_INTERVAL: u64 = 2000;

/// The restart and reduction schedule of one search.
#[derive(Debug)]
pub(super) struct Schedule {
    /// Conflicts that the Luby sequence multiplies.
    unit: u64,
    /// Restarts so far: the index into the Luby sequence.
    restarts: u32,
    /// Conflicts until the next restart.
    conflicts_left: u64,
    /// The conflict count at which the next reduction comes.
    next_reduce: u64,
}

impl Schedule {
    /// A schedule whose restarts come after the Luby sequence times `unit` conflicts.
    pub(super) fn new(unit: u64) -> Self {
        Schedule {
            unit,
            restarts: 0,
            conflicts_left: luby(0) * unit,
            next_reduce: REDUCE_INTERVAL,
        }
    }

    /// Counts a conflict (the search's `conflicts`-th); `true` when the learned clauses are
    /// due for a reduction.
    pub(super) fn conflict(&mut self, conflicts: u64) -> bool {
        self.conflicts_left = self.conflicts_left.saturating_sub(1);
        if conflicts < self.next_reduce {
            return false;
        }
        self.next_reduce = conflicts + REDUCE_INTERVAL;
        true
    }

    /// `true` (and the next interval starts) when enough conflicts have passed since the
    /// last restart.
    pub(super) fn restart_due(&mut self) -> bool {
        if self.conflicts_left > 0 {
            return false;
        }
        self.restarts += 1;
        self.conflicts_left = luby(self.restarts) * self.unit;
        true
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (index from 0).
fn luby(index: u32) -> u64 {
    let mut i = u64::from(index) + 1;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(first, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn restarts_and_reductions_come_when_due() {
        let mut schedule = Schedule::new(RESTART_UNIT);
        let mut restarts = Vec::new();
        let mut reductions = Vec::new();
        for conflicts in 1..=5000u64 {
            if schedule.conflict(conflicts) {
                reductions.push(conflicts);
            }
            if schedule.restart_due() {
                restarts.push(conflicts);
            }
        }
        assert_eq!(&restarts[..4], &[100, 200, 400, 500]);
        assert_eq!(reductions, vec![2000, 4000]);
    }
}
