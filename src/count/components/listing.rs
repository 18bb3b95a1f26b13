//! The solutions of one small component, found by a depth-first search in one grid: each
//! node decides the component's first undecided cell and propagates, and the component's
//! cells are put back afterwards. No copy of the grid is made, so a component of a few cells
//! costs a few propagations even on a huge grid, where copying the grid for each of a hundred
//! thousand components would cost gigabytes.

use crate::domain::{Domain, DomainGrid, each_value};
use crate::propagate::Propagator;

/// Why a component's search ended before it had found every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unlisted {
    /// It ran out of nodes, or the caller said the component is too large.
    Large,
    /// `stopped` said stop.
    Stopped,
}

/// A depth-first search over the unknown cells of one component (cells that share no segment
/// with the other unknown cells of the grid), branching on its first undecided cell
/// (row-major), each value in the search's order.
pub(crate) struct ComponentSearch<'a, P: Domain> {
    pub(crate) puzzle: &'a P,
    pub(crate) prop: &'a mut Propagator<P>,
    /// The component's unknown cells, row-major.
    pub(crate) cells: &'a [(u32, u32)],
    /// Nodes left to visit.
    pub(crate) nodes_left: usize,
    pub(crate) stopped: &'a dyn Fn() -> bool,
}

impl<P: Domain> ComponentSearch<'_, P> {
    /// Calls `found` with `grid` at each solution of the component's cells, in the search's
    /// order, until it says `false` (then [`Unlisted::Large`]), and leaves `grid` as it found
    /// it. Propagation from a component's cell narrows only the component's cells, so
    /// putting those back undoes it.
    pub(crate) fn run(
        &mut self,
        grid: &mut P::Grid,
        found: &mut dyn FnMut(&P::Grid) -> bool,
    ) -> Result<(), Unlisted> {
        let undecided =
            |&&(r, c): &&(u32, u32)| grid.values(r as usize, c as usize).count_ones() > 1;
        let Some(&(row, col)) = self.cells.iter().find(undecided) else {
            return if found(grid) {
                Ok(())
            } else {
                Err(Unlisted::Large)
            };
        };
        let (row, col) = (row as usize, col as usize);
        let before: Vec<u64> = (self.cells.iter())
            .map(|&(r, c)| grid.values(r as usize, c as usize))
            .collect();
        for value in each_value::<P>(grid.values(row, col)) {
            if (self.stopped)() {
                return Err(Unlisted::Stopped);
            }
            self.nodes_left = self.nodes_left.checked_sub(1).ok_or(Unlisted::Large)?;
            grid.decide(row, col, value);
            let searched = match self.prop.propagate_cell(self.puzzle, grid, row, col) {
                Ok(()) => self.run(grid, found),
                Err(_) => Ok(()),
            };
            for (&(r, c), &values) in self.cells.iter().zip(&before) {
                grid.reset(r as usize, c as usize, values);
            }
            searched?;
        }
        Ok(())
    }
}
