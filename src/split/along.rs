//! Parts cut along the search's own tree, and each part's root rebuilt as that search reaches
//! it, so that parts run one after the other, in search order, list the solutions in the
//! order of the search itself.
//!
//! [`split`](super::split) cuts the tree of the search that probes at every node, which the
//! default search only follows where it probes. Here a node branches as the search's own
//! nodes do (`SearchCx::expand`): it lists products where the search does, and probes where
//! the search probes. A part is the decisions that lead to it, and its root is more than the
//! puzzle with those decisions as givens: it holds what the search's probing of its ancestors
//! found, and the search's choices below depend on it. So [`Replay`] walks the decisions down
//! from the root again, probing each node as the search did.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::raised;
use crate::choose::{Choice, Interrupted, ProbeCounts, Probing, SealedMemo, choose_by};
use crate::domain::DomainGrid;
use crate::propagate::Propagator;
use crate::search::product::{MAX_SOLUTIONS, Product, Split};
use crate::search::{Searchable, propagated_root_until};

/// A decision: `(row, col, value bit)`.
pub(crate) type Decision = (usize, usize, u64);

/// The most bytes of grids that a cut keeps open: the grids of 4,096 parts of a 2000x2000
/// puzzle would take 4 GB.
const OPEN_BYTES: usize = 256 << 20;

/// A node of the search's tree, with the probe memo its parent left it.
#[derive(Clone)]
pub(crate) struct Node<G> {
    pub(crate) grid: G,
    pub(crate) memo: Option<Arc<SealedMemo<G>>>,
    /// What is left of a product once its first components were written into the grid, if
    /// the node is that: the product, and the first component left, from which the search
    /// walks it.
    pub(crate) walk: Option<(Arc<Product>, usize)>,
}

impl<G> Node<G> {
    /// The root of a search, or of a part's search.
    pub(crate) fn root(grid: G) -> Self {
        Node {
            grid,
            memo: None,
            walk: None,
        }
    }
}

/// What the search does at a node.
enum Step<G> {
    /// Branches on `cell` into `children`, which it visits in this order.
    Branch {
        cell: (usize, usize),
        children: Vec<Node<G>>,
    },
    /// Walks the node's solutions as a product of its components from `index` on, the first
    /// of them varying slowest.
    Product { product: Arc<Product>, index: usize },
    /// Has its one solution without branching.
    Leaf,
    /// Finds no solution below.
    Dead,
}

/// What the search that probes as `probing` says does at `node`; `Err` when `stopped` says stop.
fn step<P: Searchable>(
    puzzle: &P,
    probing: Probing,
    node: &Node<P::Grid>,
    prop: &mut Propagator<P>,
    stopped: &dyn Fn() -> bool,
) -> Result<Step<P::Grid>, Interrupted> {
    if node.grid.complete() {
        return Ok(Step::Leaf);
    }
    if let Some((product, index)) = &node.walk {
        let (product, index) = (Arc::clone(product), *index);
        return Ok(Step::Product { product, index });
    }
    let mut grid = node.grid.clone();
    if probing.lists_products(grid.undecided()) {
        match Product::of(puzzle, &grid, prop, stopped) {
            Split::No => {}
            Split::Product(product) => {
                let product = Arc::new(product);
                return Ok(Step::Product { product, index: 0 });
            }
            Split::Dead => return Ok(Step::Dead),
            Split::Stopped => return Err(Interrupted),
        }
    }
    let mut counts = ProbeCounts::default();
    let memo = node.memo.as_deref();
    match choose_by(probing, puzzle, &mut grid, prop, &mut counts, memo, stopped) {
        Choice::Interrupted => Err(Interrupted),
        Choice::Solved => Ok(Step::Leaf),
        Choice::Dead => Ok(Step::Dead),
        Choice::Branch {
            cell,
            children,
            memo,
        } => {
            let node = |grid| Node {
                grid,
                memo: memo.clone(),
                walk: None,
            };
            Ok(Step::Branch {
                cell,
                children: children.into_iter().map(node).collect(),
            })
        }
    }
}

/// The children of a product's node walked from component `index`, one for each solution of
/// that component, in the order of the product's walk (see [`product_child`]).
fn product_children<'a, G: DomainGrid>(
    node: &'a Node<G>,
    product: &'a Arc<Product>,
    index: usize,
) -> impl Iterator<Item = (Vec<Decision>, Node<G>)> + 'a {
    (product.solutions(index)).map(move |solution| product_child(node, product, index, solution))
}

/// The child of a product's node walked from component `index`, for that component's
/// solution `solution`: the solution written into its grid (the rest of the product, walked
/// from the next component), and the decisions that write it.
fn product_child<G: DomainGrid>(
    node: &Node<G>,
    product: &Arc<Product>,
    index: usize,
    solution: usize,
) -> (Vec<Decision>, Node<G>) {
    let mut grid = node.grid.clone();
    product.write(&mut grid, index, solution);
    let decisions = product.solution_cells(index, solution).collect();
    let child = Node {
        grid,
        memo: None,
        walk: Some((Arc::clone(product), index + 1)),
    };
    (decisions, child)
}

/// An open node of a cut: the decisions that lead to it from the cut's start.
struct Open<G> {
    decisions: Vec<Decision>,
    node: Node<G>,
    /// Whether the search does not branch here.
    leaf: bool,
}

/// Cuts the subtree of `start` along the tree of the search that probes as `probing` says,
/// into at most `wanted` parts (their decisions from `start`), in search order: the open node
/// with the most unknown cells branches first, until there are `wanted`, none branches, or
/// their grids would take [`OPEN_BYTES`]. A product branches on its first component's
/// solutions, which may make more parts (up to [`MAX_SOLUTIONS`]). Parts found dead are left
/// out; a subtree with no solution is one part, `start` itself. `Err` when `cancel` is raised.
pub(crate) fn cut_along<P: Searchable>(
    puzzle: &P,
    probing: Probing,
    start: Node<P::Grid>,
    wanted: usize,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<Decision>>, Interrupted> {
    let bytes = start.grid.heap_bytes().max(1);
    let most = wanted.min(OPEN_BYTES / bytes).max(1);
    let most_after_product = most.max(MAX_SOLUTIONS.min(OPEN_BYTES / bytes));
    let mut open = vec![Open {
        decisions: Vec::new(),
        node: start,
        leaf: false,
    }];
    let mut prop = Propagator::new();
    let stopped = || raised(cancel);
    while open.len() < most {
        let branching = (open.iter().enumerate()).filter(|(_, o)| !o.leaf);
        let widest = branching.max_by_key(|&(at, o)| (o.node.grid.undecided(), usize::MAX - at));
        let Some(at) = widest.map(|(at, _)| at) else {
            break;
        };
        let children: Vec<(Vec<Decision>, Node<P::Grid>)> =
            match step(puzzle, probing, &open[at].node, &mut prop, &stopped)? {
                Step::Leaf => {
                    open[at].leaf = true;
                    continue;
                }
                Step::Dead => {
                    drop(open.remove(at));
                    continue;
                }
                Step::Product { product, index } => {
                    let count = product.solutions(index).len();
                    if count == 0 || open.len() - 1 + count > most_after_product {
                        // Past its last component the node is a solution.
                        open[at].leaf = true;
                        continue;
                    }
                    product_children(&open[at].node, &product, index).collect()
                }
                Step::Branch { cell, children } => (children.into_iter())
                    .map(|node| {
                        let value = node.grid.values(cell.0, cell.1);
                        (vec![(cell.0, cell.1, value)], node)
                    })
                    .collect(),
            };
        let parent = open.remove(at);
        let child = |(decided, node): (Vec<Decision>, Node<P::Grid>)| Open {
            decisions: parent.decisions.iter().copied().chain(decided).collect(),
            node,
            leaf: false,
        };
        let _ = open.splice(at..at, children.into_iter().map(child));
    }
    if open.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    Ok(open.into_iter().map(|o| o.decisions).collect())
}

/// Rebuilds the roots of parts as the search reaches them. It keeps the path to the last
/// part's root, so that parts taken in search order, which share their first decisions,
/// probe each node of the path once.
pub(crate) struct Replay<'p, P: Searchable> {
    puzzle: &'p P,
    probing: Probing,
    prop: Propagator<P>,
    /// The propagated root, once made; `None` inside when the root has no solution.
    root: Option<Option<Node<P::Grid>>>,
    /// The steps to the last part's root: the decisions of each (one, or a product's first
    /// component) and the node they led to.
    path: Vec<(Vec<Decision>, Node<P::Grid>)>,
}

impl<'p, P: Searchable> Replay<'p, P> {
    pub(crate) fn new(puzzle: &'p P, probing: Probing) -> Self {
        Replay {
            puzzle,
            probing,
            prop: Propagator::new(),
            root: None,
            path: Vec::new(),
        }
    }

    /// The node that `decisions` lead to from the root in the search's tree: `Ok(None)` when
    /// they do not follow that tree (the search branches elsewhere, or not at all), `Err`
    /// when `cancel` is raised.
    pub(crate) fn node(
        &mut self,
        decisions: &[Decision],
        cancel: &AtomicBool,
    ) -> Result<Option<&Node<P::Grid>>, Interrupted> {
        let stopped = || raised(cancel);
        if self.root.is_none() {
            let root = match propagated_root_until(self.puzzle, &stopped) {
                Ok(Err(Interrupted)) => return Err(Interrupted),
                Ok(Ok(root)) => root,
                Err(_) => None,
            };
            self.root = Some(root.map(Node::root));
        }
        let mut done = 0;
        let kept = (self.path.iter())
            .take_while(|(step, _)| {
                let follows = decisions[done..].starts_with(step);
                done += if follows { step.len() } else { 0 };
                follows
            })
            .count();
        self.path.truncate(kept);
        while done < decisions.len() {
            let Some(Some(root)) = &self.root else {
                return Ok(None);
            };
            let node = self.path.last().map_or(root, |(_, node)| node);
            let (puzzle, probing) = (self.puzzle, self.probing);
            let rest = &decisions[done..];
            let found = match step(puzzle, probing, node, &mut self.prop, &stopped)? {
                Step::Branch { cell, children } => {
                    let (row, col, value) = rest[0];
                    let mut children = children.into_iter();
                    let child = children.find(|c| c.grid.values(row, col) == value);
                    child
                        .filter(|_| cell == (row, col))
                        .map(|c| (vec![rest[0]], c))
                }
                Step::Product { product, index } => {
                    let mut solutions = product.solutions(index);
                    let written = |&s: &usize| {
                        let count = product.solution_cells(index, s).count();
                        let mut cells = product.solution_cells(index, s).zip(rest);
                        rest.len() >= count && cells.all(|(cell, decided)| cell == *decided)
                    };
                    let solution = solutions.find(written);
                    solution.map(|s| product_child(node, &product, index, s))
                }
                Step::Leaf | Step::Dead => None,
            };
            let Some((step, child)) = found else {
                return Ok(None);
            };
            done += step.len();
            self.path.push((step, child));
        }
        Ok(match (&self.root, self.path.last()) {
            (_, Some((_, node))) => Some(node),
            (Some(Some(root)), None) => Some(root),
            _ => None,
        })
    }
}
