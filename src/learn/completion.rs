//! Whether some unknown cells of a grid can be completed: the question an exact counter asks
//! before it spends a subtree on cells that may have no completion at all.
//!
//! A [`CompletionChecker`] is one learning search kept for many checks. Each check assumes the
//! known cells of its grid and decides only the cells it is given; what it learns holds for
//! every grid of the puzzle, so later checks, of other grids, start from it. The saved phases
//! carry over as well: the values of the last completion found are tried first, which finds a
//! completion of a nearby grid at once more often than not.

use super::domain::LearnDomain;
use super::engine::{Assumed, Engine};
use super::order::{Decisions, Phases};
use super::schedule::{self, Schedule};
use crate::flow::Flow;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// The answer of a check, a completion being a grid of type `G`.
#[derive(Debug)]
pub enum Completion<G = Grid> {
    /// A completion: the grid with every checked cell set (other unknown cells may be set too,
    /// by propagation).
    Found(G),
    /// The checked cells have no completion that agrees with the grid's known cells, given
    /// that the grid's other unknown cells have one.
    Impossible,
    /// Not decided within the conflict budget, or stopped.
    Unknown,
}

/// A learning search that checks grid after grid of one puzzle, black and white by default,
/// or of any domain the learning search knows.
#[allow(
    private_bounds,
    reason = "public only as `Countable::Checker`, in a module outside code cannot name"
)]
pub struct CompletionChecker<'p, D: LearnDomain = Puzzle> {
    engine: Engine<'p, D>,
    schedule: Schedule,
}

#[allow(private_bounds, reason = "see the struct")]
impl<'p, D: LearnDomain> CompletionChecker<'p, D> {
    /// A checker for grids of `puzzle` that extend `root` (a grid at a propagation fixpoint).
    pub fn new(puzzle: &'p D, root: &D::Grid) -> Self {
        CompletionChecker {
            engine: Engine::new(puzzle, root, Phases::Saved, Decisions::Activity),
            schedule: Schedule::new(schedule::RESTART_UNIT),
        }
    }

    /// Whether the unknown `cells` of `grid` (a grid that extends the root, at a propagation
    /// fixpoint, in which no line ties them to its other unknown cells) can be completed.
    /// Gives up after `max_conflicts` conflicts, or when `stopped` says so (it is asked every
    /// 64 conflicts and 256 decisions).
    ///
    /// The answer [`Completion::Impossible`] is sound only if the other unknown cells of
    /// `grid` have a completion: a learned clause may hold only because they have none.
    pub fn check(
        &mut self,
        grid: &D::Grid,
        cells: &[(u32, u32)],
        max_conflicts: u64,
        mut stopped: impl FnMut() -> bool,
    ) -> Completion<D::Grid> {
        let answer = match self.engine.assume(grid, cells) {
            Assumed::Contradiction => Completion::Impossible,
            Assumed::Ready => {
                let start = self.engine.stats.conflicts;
                let mut found = None;
                let exhausted = schedule::run_on(
                    &mut self.engine,
                    &mut self.schedule,
                    |stats| stats.conflicts - start >= max_conflicts || stopped(),
                    |grid| {
                        found = Some(grid.clone());
                        Flow::Stop
                    },
                    |_| {},
                );
                match found {
                    Some(grid) => Completion::Found(grid),
                    None if exhausted => Completion::Impossible,
                    None => Completion::Unknown,
                }
            }
        };
        // Left at its level: the next check backs up first, and a checker dropped after its
        // last check (a stopped count's) skips backing up over every cell.
        answer
    }

    /// The counters of every check so far.
    pub fn stats(&self) -> super::LearnStats {
        self.engine.snapshot()
    }
}
