//! The learning search for colour puzzles: the same CDCL loop as black and white, over one
//! variable per cell and colour ("this cell has this colour"), with the colour line solver as
//! the propagator.
//!
//! A colour line deduction rules colours out of cells; its reason is explained lazily, as in
//! black and white, from the line's facts ("cell i is colour k", "cell i is not colour k") set
//! before it. A cell has exactly one colour: that rule propagates like a clause of its own
//! (see [`assign::ColorReason::Cell`]). A decision sets one variable, so it either gives a
//! cell a colour or rules one out, and its saved phase says which. Clauses, the decision order,
//! restarts and conflict analysis are those of [`super`].

mod assign;
mod engine;
mod explain;

use crate::color::{ColorGrid, ColorPuzzle};
use crate::search::Flow;

use super::{LearnOutcome, LearnStats};

/// Searches `puzzle` from `root` (a grid at a propagation fixpoint, as
/// [`crate::color::ColorSolver::root`] makes it), calling `on_solution` with each solution
/// until it says stop, every solution has been reported, or `stopped` (called with the
/// counters every 64 conflicts and 256 decisions) says so.
pub(crate) fn color_learn_search_until(
    puzzle: &ColorPuzzle,
    root: &ColorGrid,
    stopped: impl FnMut(&LearnStats) -> bool,
    on_solution: impl FnMut(&ColorGrid) -> Flow,
) -> LearnOutcome {
    let mut engine = engine::ColorEngine::new(puzzle, root);
    let exhausted = super::schedule::run(&mut engine, stopped, on_solution);
    LearnOutcome {
        exhausted,
        stats: engine.snapshot(),
    }
}

#[cfg(test)]
mod tests;
