//! Nodes whose unknown cells fall apart into independent components: each component's
//! solutions are listed once, and the node's solutions are their Cartesian product, walked like
//! an odometer instead of searched.
//!
//! Two unknown cells are in one component when they share a segment of their row or of their
//! column (see [`crate::count::Countable::segments`]): components do not constrain each other,
//! so writing any solution of one into the grid leaves every other's solutions as they were,
//! and every combination of their solutions is a solution of the node. A puzzle of 1,089
//! separate 2x2 squares, each holding one of its diagonals, has 2^1089 solutions: searched,
//! each costs a dive through probing nodes; as a product, each costs writing four cells.
//!
//! Only nodes that would probe under [`Probing::Adaptive`](crate::Probing::Adaptive) look
//! for components (finding them costs a pass over every line, a fraction of a probing node and
//! more than a plain one), before probing: each component's own search finds exactly its
//! solutions, so probing a product would only cost time. A node becomes a product only when it
//! has two components or more and each is small ([`MAX_CELLS`] cells and [`MAX_SOLUTIONS`]
//! solutions, listed within [`MAX_NODES`] nodes): a node with one large component probes and
//! branches as before.
//!
//! The product's order is fixed: the first component (by its first cell, row-major) varies
//! slowest, and each component's solutions come in the order its own depth-first search finds
//! them, so every run lists the product in the same order.

use std::ops::Range;

use crate::count::{Countable, component_cells};
use crate::domain::{Domain, DomainGrid, each_value};
use crate::propagate::Propagator;

/// The most unknown cells a component of a product may have.
pub(crate) const MAX_CELLS: usize = 64;

/// The most solutions a component of a product may have.
pub(crate) const MAX_SOLUTIONS: usize = 1024;

/// The most nodes the search listing one component may visit.
pub(crate) const MAX_NODES: usize = 16 * MAX_SOLUTIONS;

/// One component of a product: its cells and every solution of them.
#[derive(Debug)]
struct Listed {
    /// The component's unknown cells, row-major.
    cells: Vec<(u32, u32)>,
    /// Each solution: the value of each cell, as in `cells`.
    solutions: Vec<Box<[u64]>>,
}

/// A node's solutions as the Cartesian product of its components' solutions.
#[derive(Debug)]
pub(crate) struct Product {
    components: Vec<Listed>,
}

/// Why a node is not a product.
enum NotAProduct {
    /// A component is too large, or there is one component.
    Large,
    /// The search is stopping.
    Stopped,
}

/// What a node's components say.
pub(crate) enum Split {
    /// The node is not a product: branch as usual.
    No,
    /// The node is a product.
    Product(Product),
    /// A component has no solution: neither has the node.
    Dead,
    /// The search is stopping.
    Stopped,
}

impl Product {
    /// Splits the node `grid` (a propagation fixpoint) into listed components, if it falls
    /// apart into two or more small ones.
    pub(crate) fn of<P: Countable>(
        puzzle: &P,
        grid: &P::Grid,
        prop: &mut Propagator<P>,
        stopped: &dyn Fn() -> bool,
    ) -> Split {
        let Some(components) = component_cells(puzzle, grid, MAX_CELLS, stopped) else {
            // A component is too large, a line has no placement or the search is stopping:
            // branching finds the node dead, or finds the search stopped.
            return Split::No;
        };
        if components.len() < 2 {
            return Split::No;
        }
        let mut listed = Vec::with_capacity(components.len());
        for cells in components {
            let mut solutions = Vec::new();
            let mut nodes = MAX_NODES;
            let mut lister = Lister {
                puzzle,
                prop: &mut *prop,
                cells: &cells,
                nodes: &mut nodes,
                solutions: &mut solutions,
                stopped,
            };
            match lister.list(grid) {
                Ok(()) => {}
                Err(NotAProduct::Large) => return Split::No,
                Err(NotAProduct::Stopped) => return Split::Stopped,
            }
            if solutions.is_empty() {
                // Walking the other components' combinations would find nothing.
                return Split::Dead;
            }
            listed.push(Listed { cells, solutions });
        }
        Split::Product(Product { components: listed })
    }

    /// The number of components.
    pub(crate) fn len(&self) -> usize {
        self.components.len()
    }

    /// The number of the node's solutions, the product of its components' counts, as a
    /// float: it can be astronomically large (infinite past `f64::MAX`).
    pub(crate) fn combinations(&self) -> f64 {
        self.components
            .iter()
            .map(|c| c.solutions.len() as f64)
            .product()
    }

    /// Every solution index of component `index`.
    pub(crate) fn solutions(&self, index: usize) -> Range<usize> {
        0..self.components.get(index).map_or(0, |c| c.solutions.len())
    }

    /// Writes solution `solution` of component `index` into `grid`.
    pub(crate) fn write<G: DomainGrid>(&self, grid: &mut G, index: usize, solution: usize) {
        let component = &self.components[index];
        for (&(row, col), &value) in component.cells.iter().zip(&*component.solutions[solution]) {
            grid.decide(row as usize, col as usize, value);
        }
    }
}

/// The depth-first search that lists one component's solutions.
struct Lister<'a, P: Domain> {
    puzzle: &'a P,
    prop: &'a mut Propagator<P>,
    cells: &'a [(u32, u32)],
    /// Nodes left to visit.
    nodes: &'a mut usize,
    solutions: &'a mut Vec<Box<[u64]>>,
    stopped: &'a dyn Fn() -> bool,
}

impl<P: Domain> Lister<'_, P> {
    /// Lists the solutions of the component's cells below `grid`, branching on its first
    /// unknown cell (row-major), each value in the search's order.
    fn list(&mut self, grid: &P::Grid) -> Result<(), NotAProduct> {
        let undecided =
            |&&(r, c): &&(u32, u32)| grid.values(r as usize, c as usize).count_ones() > 1;
        let Some(&(row, col)) = self.cells.iter().find(undecided) else {
            if self.solutions.len() == MAX_SOLUTIONS {
                return Err(NotAProduct::Large);
            }
            let values = self
                .cells
                .iter()
                .map(|&(r, c)| grid.values(r as usize, c as usize));
            self.solutions.push(values.collect());
            return Ok(());
        };
        let (row, col) = (row as usize, col as usize);
        for value in each_value::<P>(grid.values(row, col)) {
            if (self.stopped)() {
                return Err(NotAProduct::Stopped);
            }
            *self.nodes = self.nodes.checked_sub(1).ok_or(NotAProduct::Large)?;
            let mut child = grid.clone();
            child.decide(row, col, value);
            if self
                .prop
                .propagate_cell(self.puzzle, &mut child, row, col)
                .is_ok()
            {
                self.list(&child)?;
            }
        }
        Ok(())
    }
}
