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

use crate::count::{ComponentSearch, Countable, Unlisted, component_cells};
use crate::domain::DomainGrid;
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
        Product::of_at_least(2, puzzle, grid, prop, stopped)
    }

    /// [`Product::of`], for a node of at least `fewest` components: one, for a node left
    /// when a product's first components were written into its grid (see
    /// [`Solver::starting_at`](crate::search::Solver)), which the search walks as the rest of
    /// that product.
    pub(crate) fn of_at_least<P: Countable>(
        fewest: usize,
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
        if components.is_empty() || components.len() < fewest {
            return Split::No;
        }
        let mut listed = Vec::with_capacity(components.len());
        // Each component is listed in this one grid, and put back as it was: a copy of the
        // grid for each node of each listing would cost a huge grid's size a hundred
        // thousand times over.
        let mut work = grid.clone();
        for cells in components {
            let mut solutions: Vec<Box<[u64]>> = Vec::new();
            let mut search = ComponentSearch {
                puzzle,
                prop: &mut *prop,
                cells: &cells,
                nodes_left: MAX_NODES,
                stopped,
            };
            let mut found = |grid: &P::Grid| {
                let values = cells
                    .iter()
                    .map(|&(r, c)| grid.values(r as usize, c as usize));
                solutions.push(values.collect());
                solutions.len() <= MAX_SOLUTIONS
            };
            match search.run(&mut work, &mut found) {
                Ok(()) => {}
                Err(Unlisted::Large) => return Split::No,
                Err(Unlisted::Stopped) => return Split::Stopped,
            }
            if solutions.is_empty() {
                // Walking the other components' combinations would find nothing.
                return Split::Dead;
            }
            listed.push(Listed { cells, solutions });
        }
        debug_assert!(work == *grid, "a component's listing left the grid changed");
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

    /// The cells of component `index`, row-major, and the values of its solution `solution`.
    pub(crate) fn solution_cells(
        &self,
        index: usize,
        solution: usize,
    ) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        let component = &self.components[index];
        let values = component.solutions[solution].iter();
        (component.cells.iter().zip(values)).map(|(&(r, c), &v)| (r as usize, c as usize, v))
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

impl Product {
    /// Writes solution `solution` of component `index` into `grid` over whatever its cells
    /// held (see [`Product::write`]).
    fn rewrite<G: DomainGrid>(&self, grid: &mut G, index: usize, solution: usize) {
        let component = &self.components[index];
        for (&(row, col), &value) in component.cells.iter().zip(&*component.solutions[solution]) {
            grid.reset(row as usize, col as usize, value);
        }
    }

    /// Walks, in `grid` itself, solutions `first` of component `index` and every combination
    /// of the components after it, in the order of the search's walk (see [`Odometer`]),
    /// calling `visit` with each solution of the node and its depth; stops when `visit` says
    /// `false`. Leaves `grid` as it found it.
    pub(crate) fn walk_in_place<G: DomainGrid>(
        &self,
        grid: &mut G,
        index: usize,
        first: Range<usize>,
        depth: u32,
        mut visit: impl FnMut(&G, u32) -> bool,
    ) {
        let walked = self.components.get(index..).unwrap_or_default();
        let before: Vec<u64> = (walked.iter().flat_map(|c| &c.cells))
            .map(|&(r, c)| grid.values(r as usize, c as usize))
            .collect();
        if let Some(mut odometer) = Odometer::start(self, grid, (index, first), depth) {
            while visit(grid, odometer.depth()) && odometer.advance(self, grid) {}
        }
        let cells = walked.iter().flat_map(|c| &c.cells);
        for (&(r, c), &values) in cells.zip(&before) {
            grid.reset(r as usize, c as usize, values);
        }
    }
}

/// A place in the walk of a product's solutions from one component on, in one grid: the
/// solution of each component written into it, the last component varying fastest, as the
/// search's walk of joins lists them. Each component adds to the depth the depth its solution
/// has in the binary tree that halves its range, as that walk does, so that the explored
/// fraction comes out the same.
#[derive(Clone, Debug)]
pub(crate) struct Odometer {
    /// The first component walked.
    index: usize,
    /// The solutions walked of each component from `index` on.
    ranges: Vec<Range<usize>>,
    /// The solution of each written into the grid.
    chosen: Vec<usize>,
    /// The depth each one's solution adds, and their sum with the depth before `index`.
    added: Vec<u64>,
    depth: u64,
}

impl Odometer {
    /// Writes into `grid` (which holds a solution of each component before `index`) solution
    /// `first.start` of component `index` and the first of each after it; `None` if `first`
    /// is empty or there is no such component. `depth` is the depth before component `index`.
    pub(crate) fn start<G: DomainGrid>(
        product: &Product,
        grid: &mut G,
        (index, first): (usize, Range<usize>),
        depth: u32,
    ) -> Option<Self> {
        let count = product.components.len();
        if first.is_empty() || index >= count {
            return None;
        }
        let ranges: Vec<Range<usize>> = std::iter::once(first)
            .chain((index + 1..count).map(|i| product.solutions(i)))
            .collect();
        let chosen: Vec<usize> = ranges.iter().map(|r| r.start).collect();
        let added: Vec<u64> = ranges.iter().map(|r| halving_depth(r, r.start)).collect();
        for (k, &solution) in chosen.iter().enumerate() {
            product.rewrite(grid, index + k, solution);
        }
        let depth = u64::from(depth) + added.iter().sum::<u64>();
        Some(Odometer {
            index,
            ranges,
            chosen,
            added,
            depth,
        })
    }

    /// The depth of the solution written.
    pub(crate) fn depth(&self) -> u32 {
        u32::try_from(self.depth).unwrap_or(u32::MAX)
    }

    /// Writes the next combination into `grid`: the last component that has a solution left
    /// takes its next, and every component after it starts its range again. `false` after
    /// the last one.
    pub(crate) fn advance<G: DomainGrid>(&mut self, product: &Product, grid: &mut G) -> bool {
        for k in (0..self.ranges.len()).rev() {
            let range = &self.ranges[k];
            let next = Some(self.chosen[k] + 1)
                .filter(|&next| next < range.end)
                .unwrap_or(range.start);
            self.chosen[k] = next;
            product.rewrite(grid, self.index + k, next);
            self.depth -= self.added[k];
            self.added[k] = halving_depth(range, next);
            self.depth += self.added[k];
            if next != range.start {
                return true;
            }
        }
        false
    }
}

/// The depth of solution `at` below a node of solutions `range` in the binary tree of joins
/// that halves a range until one solution is left (the first half the shorter).
fn halving_depth(range: &Range<usize>, at: usize) -> u64 {
    let mut range = range.clone();
    let mut depth = 0;
    while range.len() > 1 {
        let middle = range.start + range.len() / 2;
        if at < middle {
            range.end = middle;
        } else {
            range.start = middle;
        }
        depth += 1;
    }
    depth
}

#[cfg(test)]
impl Product {
    /// A product of one-cell components: component `i` in cell `(0, i)`, with `counts[i]`
    /// solutions, solution `s` the value bit `1 << s`.
    pub(super) fn of_counts(counts: &[usize]) -> Self {
        let components = (counts.iter().enumerate())
            .map(|(i, &count)| Listed {
                cells: vec![(0, i as u32)],
                solutions: (0..count).map(|s| vec![1u64 << s].into()).collect(),
            })
            .collect();
        Product { components }
    }
}
