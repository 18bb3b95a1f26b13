//! A search that learns from its conflicts (CDCL with lazily explained line propagation),
//! for deciding hard puzzles: the first solution, and whether there is a second.
//!
//! The probing search of [`crate::search`] forgets why a subtree failed, so it fails the same
//! way again elsewhere. This search keeps a trail of set cells with the reason of each: a
//! decision, a learned clause, or a line whose clue forced the cell from the line's cells set
//! before it. When a line has no placement, the conflict is traced back through those reasons
//! to the first unique implication point, giving a clause over a few cells that can never all
//! hold together; the search jumps back to where the clause forces a cell, and the clause
//! prunes every later part of the tree where the same cause would appear.
//!
//! A line's reason is computed only when a conflict needs it (lazy explanation), and shrunk to
//! a minimal set of the line's cells by the `explain` module: short reasons make short
//! clauses. Decisions take the variables of recent conflicts first (a move-to-front queue)
//! with target phases (see `order`), the first ones in black and white from a guess by belief
//! propagation between the rows and the columns (see `beliefs`; a second search of a race on a
//! large grid that meets many conflicts tries the beliefs' decimation); restarts follow the
//! Luby sequence; from time to time half the learned clauses that no conflict analysis used
//! since the last time are deleted, by literal block distance (lowered when a use finds the
//! clause's literals on fewer levels). Two learning searches racing on one puzzle pass each
//! other their short learned clauses (see `share`).
//!
//! Learned clauses follow from the clues, so no solution is ever cut. To go on after a
//! solution, the search adds a *blocking* clause: the negation of the decisions that led to
//! it (propagation from those decisions gives that grid and no other, so every other solution
//! breaks one of them), or in black and white the negation of its filled cells or of its empty
//! ones, when fewer (either set determines the grid, each line's filled cells numbering the sum
//! of its clue). Blocking clauses are never deleted, so each solution is reported once
//! and, when the search ends with a conflict at level 0, every solution has been reported.
//! That makes this search right for finding a few solutions, not for counting millions.

mod analysis;
mod assign;
mod beliefs;
mod bw;
mod clauses;
pub(crate) mod color;
mod completion;
mod domain;
mod engine;
mod explain;
mod lit;
mod order;
mod recall;
mod schedule;
mod share;

use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) use completion::{Completion, CompletionChecker};
pub(crate) use domain::LearnDomain;
pub(crate) use share::ClauseExchange;

use crate::flow::Flow;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Counters of a learning search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnStats {
    /// Cells chosen by the search.
    pub decisions: u64,
    /// Conflicts met (each one learns a clause or ends the search).
    pub conflicts: u64,
    /// Conflicts after which the search jumped back over more than one level.
    pub backjumps: u64,
    /// Clauses learned.
    pub learned: u64,
    /// Literals dropped from learned clauses by minimisation.
    pub minimized: u64,
    /// Learned clauses deleted by database reductions.
    pub deleted: u64,
    /// Restarts.
    pub restarts: u64,
    /// Line-solver calls made by propagation.
    pub line_solves: u64,
    /// Line-solver calls made while explaining deductions.
    pub explain_solves: u64,
    /// Explanations taken from the cache of explanations already shrunk (each for one
    /// feasibility check).
    pub explanations_recalled: u64,
    /// Line solves looked up in the line-result cache: propagation's, and in colour the
    /// explanations' too.
    pub cache_lookups: u64,
    /// Lookups the cache answered.
    pub cache_hits: u64,
    /// Solutions reported.
    pub solutions: u64,
    /// Clauses taken from the other learning search of a race (its short learned clauses).
    pub imported: u64,
    /// The most variables ever set below the decision level of a conflict (a consistent
    /// partial assignment the search reached): how close a search that finds no solution came.
    pub deepest: u64,
}

impl LearnStats {
    /// What the counters gained since `earlier` (a snapshot of the same search); `deepest`
    /// is the latest's, a maximum and no count.
    pub fn since(&self, earlier: &LearnStats) -> LearnStats {
        LearnStats {
            decisions: self.decisions - earlier.decisions,
            conflicts: self.conflicts - earlier.conflicts,
            backjumps: self.backjumps - earlier.backjumps,
            learned: self.learned - earlier.learned,
            minimized: self.minimized - earlier.minimized,
            deleted: self.deleted - earlier.deleted,
            restarts: self.restarts - earlier.restarts,
            line_solves: self.line_solves - earlier.line_solves,
            explain_solves: self.explain_solves - earlier.explain_solves,
            explanations_recalled: self.explanations_recalled - earlier.explanations_recalled,
            cache_lookups: self.cache_lookups - earlier.cache_lookups,
            cache_hits: self.cache_hits - earlier.cache_hits,
            solutions: self.solutions - earlier.solutions,
            imported: self.imported - earlier.imported,
            deepest: self.deepest,
        }
    }
}

/// How one learning search of a race differs from the others, and what it shares with them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Racer<'x> {
    /// With a seed, the first decisions come in an order drawn from it instead of cell order.
    pub(crate) seed: Option<u64>,
    /// The exchange of learned clauses between the searches of the race, and this search's
    /// number among them.
    pub(crate) exchange: Option<(&'x ClauseExchange, u32)>,
    /// The first guess of the race's searches, if they take one guess between them.
    pub(crate) guess: Option<&'x SharedGuess>,
    /// With `Some(n)`, the search tries a guess of its own by decimation (see
    /// [`LearnDomain::decimated_guess`]) once it has met `n` conflicts, at its next restart (at
    /// once, before its first decision, when `n` is 0); with one, its decisions follow that
    /// guess's order and values from then on (see [`engine::Engine::take_guess`]), not the
    /// seed's order.
    pub(crate) decimate_after: Option<u64>,
}

/// The first guess of the learning searches of a run (see `beliefs`), worked out by the first
/// of them that needs it while the others wait for it: each would work out the same one from
/// the same root (up to a second of one core on a 100x100 grid).
#[derive(Debug)]
pub(crate) struct SharedGuess {
    guess: OnceLock<Option<order::FirstGuess>>,
    /// Whether it keeps the rounds' messages for a search that decimates: three numbers a
    /// cell, 96 MB on a 2000x2000 grid.
    keep_settled: bool,
}

impl SharedGuess {
    /// A guess to work out once; `keep_settled` when a search of the race may decimate.
    pub(crate) fn new(keep_settled: bool) -> Self {
        SharedGuess {
            guess: OnceLock::new(),
            keep_settled,
        }
    }
}

impl Default for SharedGuess {
    fn default() -> Self {
        SharedGuess::new(true)
    }
}

/// The result of a learning search.
#[derive(Clone, Copy, Debug)]
pub struct LearnOutcome {
    /// `true` when the search proved that no solution is left besides those reported.
    pub exhausted: bool,
    /// The counters at the end.
    pub stats: LearnStats,
}

/// Searches `puzzle` from `root` (a grid at a propagation fixpoint: the givens applied and
/// propagated, as [`crate::Solver::root`] makes it), calling `on_solution` with each solution
/// until it says stop, every solution has been reported, or `cancel` is set.
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the search runs through `LearnDomain`; the tests call this"
    )
)]
pub(crate) fn learn_search(
    puzzle: &Puzzle,
    root: &Grid,
    cancel: &AtomicBool,
    on_solution: impl FnMut(&Grid) -> Flow,
) -> LearnOutcome {
    learn_search_until(
        puzzle,
        root,
        Racer::default(),
        |_| cancel.load(Ordering::Relaxed),
        on_solution,
    )
}

/// [`learn_search`] of any domain (a [`Puzzle`] or a [`crate::color::ColorPuzzle`]) that calls
/// `stopped` with the counters so far (every 64 conflicts and 256 decisions) instead of
/// reading one flag: it stops when `stopped` says so. `root` is a grid at a propagation
/// fixpoint, as [`crate::Solver::root`] or [`crate::color::ColorSolver::root`] makes it.
/// `racer` says how it differs from the other searches of a race, and what it shares with
/// them.
pub(crate) fn learn_search_until<'p, D: LearnDomain>(
    puzzle: &'p D,
    root: &D::Grid,
    racer: Racer<'p>,
    stopped: impl FnMut(&LearnStats) -> bool,
    on_solution: impl FnMut(&D::Grid) -> Flow,
) -> LearnOutcome {
    // Decimation asks it too, between restarts.
    let stopped = RefCell::new(stopped);
    let mut stop = || (stopped.borrow_mut())(&LearnStats::default());
    let mut decimated = false;
    let mut first = || {
        let guess = {
            let mut guess = || puzzle.first_guess(root, &mut stop);
            match racer.guess {
                Some(shared) => shared
                    .guess
                    .get_or_init(|| {
                        let mut first = guess();
                        if let Some(first) = first.as_mut().filter(|_| !shared.keep_settled) {
                            first.settled = None;
                        }
                        first
                    })
                    .clone(),
                None => guess(),
            }
        };
        if racer.decimate_after == Some(0)
            && let Some(decimated_guess) = puzzle.decimated_guess(root, guess.as_ref(), &mut stop)
        {
            decimated = true;
            return Some(decimated_guess);
        }
        guess
    };
    let guess = first();
    if stop() {
        // Building the engine of a huge grid takes a good part of a second: not when ending.
        return LearnOutcome {
            exhausted: false,
            stats: LearnStats::default(),
        };
    }
    let mut engine = engine::Engine::with_guess(
        puzzle,
        root,
        if D::TARGET_PHASES {
            order::Phases::Targets
        } else {
            order::Phases::Saved
        },
        order::Decisions::MoveToFront,
        || guess,
    );
    if let Some(seed) = racer.seed.filter(|_| !decimated) {
        engine.perturb(seed);
    }
    if let Some((exchange, id)) = racer.exchange {
        engine.share(share::Sharing::new(exchange, id));
    }
    let mut decimate_after = racer.decimate_after.filter(|&n| n > 0);
    let exhausted = schedule::run(
        &mut engine,
        |stats| (stopped.borrow_mut())(stats),
        on_solution,
        |engine| {
            if decimate_after.is_some_and(|n| engine.stats.conflicts >= n) {
                decimate_after = None;
                // The race's first guess is worked out by now: decimation goes on from its
                // rounds.
                let first = racer.guess.and_then(|shared| shared.guess.get()?.as_ref());
                if let Some(guess) = puzzle.decimated_guess(root, first, &mut stop) {
                    engine.take_guess(guess);
                }
            }
        },
    );
    LearnOutcome {
        exhausted,
        stats: engine.snapshot(),
    }
}

#[cfg(test)]
mod tests;
