//! The learning searches of a run: the root they start from, worked out once, and one
//! learning search that sends its solutions to the run's collector, alone or racing the
//! probing search.

use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::domain::DomainGrid;
use crate::learn::{LearnStats, Racer};
use crate::search::tree::SearchCx;
use crate::search::{Flow, Searchable};

/// The root the learning searches of a run start from: in black and white the root probed to
/// a fixpoint, worked out once by the first learner that needs it and taken by the others.
pub(super) struct LearnerRoot<G> {
    /// The propagated root of the run.
    propagated: G,
    /// The learners' root: `None` when the puzzle has no solution.
    start: OnceLock<Result<Option<G>, crate::choose::Interrupted>>,
}

impl<G: DomainGrid> LearnerRoot<G> {
    pub(super) fn new(propagated: G) -> Self {
        LearnerRoot {
            propagated,
            start: OnceLock::new(),
        }
    }

    /// The learners' root, probed (if the domain's learners start from a probed root) by the
    /// first caller while the others wait for it; `Err` if the run stopped first.
    fn get<P: Searchable<Grid = G>>(
        &self,
        cx: &SearchCx<'_, P>,
    ) -> &Result<Option<G>, crate::choose::Interrupted> {
        self.start.get_or_init(|| {
            if !P::LEARNER_PROBES_THE_ROOT {
                return Ok(Some(self.propagated.clone()));
            }
            // The puzzle was checked, so an invalid one cannot reach here: no solution.
            crate::choose::probed_root_until(cx.puzzle, &|| cx.stopped()).unwrap_or(Ok(None))
        })
    }
}

/// The literals that the blocking clauses of a racing learning search may hold (four bytes
/// each): each solution it reports adds a clause of up to one literal a variable, kept for
/// good, so on a 2000x2000 grid a thousand solutions would take gigabytes (`list -t 2 --limit
/// 10000` of the scale suite's permutation puzzle took 5 GB in 20 s before this bound). 256 in
/// the unit tests, so that their races on small grids take the path where the learner stops.
const RACE_BLOCKING_LITS: usize = if cfg!(test) { 1 << 8 } else { 1 << 26 };

/// The solutions a racing learning search of `vars` variables reports before it leaves the
/// rest of the run to the probing search (see [`RACE_BLOCKING_LITS`]); never fewer than the
/// two that `solve` asks for.
fn racing_learner_solutions(vars: usize) -> u64 {
    (RACE_BLOCKING_LITS / vars.max(1)).max(2) as u64
}

/// Runs the learning search from the learners' root, sending its solutions. When `racing`, a
/// finished search ends the run (the probing search beside it stops), and a search that has
/// reported [`racing_learner_solutions`] stops, leaving the run to the probing search. `racer`
/// says how it differs from the other learning searches of the run, and what it shares with
/// them. Alone, a colour search may start again from the probed root ([`PROBE_ROOT_AFTER`]).
pub(super) fn learn<'p, P: Searchable>(
    cx: &SearchCx<'p, P>,
    root: &LearnerRoot<P::Grid>,
    racing: bool,
    racer: Racer<'p>,
) {
    crate::fault::inject("learn");
    let root = match root.get(cx) {
        Ok(Some(root)) => root,
        // Stopped: the other search, or the caller, ends the run.
        Err(crate::choose::Interrupted) => return,
        Ok(None) => {
            if racing && !cx.stopped() {
                cx.stop.store(true, Ordering::Relaxed);
            }
            return;
        }
    };
    cx.stats.add_learner(cx.puzzle.learner_vars());
    let most = racing.then(|| racing_learner_solutions(cx.puzzle.learner_vars()));
    let solutions = std::cell::Cell::new(0u64);
    // A colour learning search alone starts from the propagated root, and from the probed
    // root once it has found nothing for `PROBE_ROOT_AFTER`.
    let probe_later = !P::LEARNER_PROBES_THE_ROOT && !racing;
    let started = Instant::now();
    let mut probed = None;
    loop {
        // The live counters follow the search: each poll adds what it did since the last.
        let mut reported = LearnStats::default();
        let mut give_up = false;
        let outcome = cx.puzzle.learn_search(
            probed.as_ref().unwrap_or(root),
            racer,
            |now| {
                cx.stats.add_learning(&now.since(&reported));
                reported = *now;
                cx.poll();
                give_up = probe_later
                    && probed.is_none()
                    && solutions.get() == 0
                    && started.elapsed() >= PROBE_ROOT_AFTER;
                give_up || cx.stopped()
            },
            |grid| {
                cx.stats.add_solution();
                cx.send(grid.clone());
                solutions.set(solutions.get() + 1);
                if cx.stopped() || most.is_some_and(|most| solutions.get() >= most) {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            },
        );
        cx.stats.add_learning(&outcome.stats.since(&reported));
        if give_up && !cx.stopped() {
            // The puzzle was checked, so an invalid one cannot reach here: no solution.
            match crate::choose::probed_root_until(cx.puzzle, &|| cx.stopped()) {
                Ok(Ok(Some(grid))) => {
                    probed = Some(grid);
                    continue;
                }
                Ok(Ok(None)) | Err(_) | Ok(Err(crate::choose::Interrupted)) => return,
            }
        }
        if racing && outcome.exhausted {
            cx.stop.store(true, Ordering::Relaxed);
        }
        return;
    }
}

/// How long a colour learning search alone runs from the propagated root, having found no
/// solution, before it starts again from the probed root: on a random 200x200 picture of two
/// colours it then decides in a second or two what it does not decide in ten seconds from the
/// propagated one, but probing the root costs more than it saves on most colour puzzles, which
/// the search decides within this time (docs/benchmarks.md, "One thread"). None in the unit
/// tests, so that their colour searches on one thread take the path that starts again.
const PROBE_ROOT_AFTER: std::time::Duration =
    std::time::Duration::from_secs(if cfg!(test) { 0 } else { 1 });
