//! When a search node probes: at every node, never, or where probing can pay.
//!
//! Probing a node costs a propagation per value of every undecided cell, ten times a plain
//! node's cost or more, and pays only when it finds a value that contradicts (a cell fixed, a
//! dead node) or a branching cell that splits the problem well. High in the tree of a hard
//! puzzle it cuts the tree by orders of magnitude. Near the bottom it cannot pay: a node with
//! few undecided cells has a small subtree, which propagation alone settles in a few cheap
//! nodes, and that is where an enumeration of millions of solutions spends nearly all its
//! time (the plain search of a 10 x 10 permutation puzzle has no dead node at all, and
//! probing its nodes made the enumeration ten times slower).
//!
//! [`Probing::Adaptive`] therefore probes a node only while it has more than
//! [`PLAIN_BELOW`] undecided cells. The rule looks at the node alone, so the tree is the same
//! on every run, for every number of threads, and for the random dives of the estimator.

use super::{Choice, ProbeCounts, SealedMemo, choose_plain, choose_probing};
use crate::domain::{Domain, DomainGrid};
use crate::propagate::Propagator;

/// Under [`Probing::Adaptive`], nodes with at most this many undecided cells branch without
/// probing. On the survey's hard puzzles the search is as fast as when probing every node (28
/// webpbn puzzles, one thread); enumerations of millions of solutions run 5 to 10 times faster.
pub(crate) const PLAIN_BELOW: usize = 64;

/// When search nodes probe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Probing {
    /// Probe nodes with more than 64 undecided cells (the default). Probing a
    /// node costs ten times a plain node or more, and near the bottom of the tree, where an
    /// enumeration spends nearly all its time, it cannot pay; the rule looks at the node
    /// alone, so the tree is the same on every run and for any number of threads.
    #[default]
    Adaptive,
    /// Probe at every node.
    Always,
    /// Never probe: branch on the first undecided cell of the most constrained line.
    Never,
}

impl Probing {
    /// Whether a node with `undecided` undecided cells probes.
    pub fn probes(self, undecided: usize) -> bool {
        match self {
            Probing::Adaptive => undecided > PLAIN_BELOW,
            Probing::Always => true,
            Probing::Never => false,
        }
    }

    /// Whether a node with `undecided` undecided cells looks for independent
    /// components, to list its solutions as their product: under [`Probing::Adaptive`], where
    /// the node probes. Under [`Probing::Always`] the tree stays the plain one that `split`
    /// and ordered checkpoints cut into parts.
    pub(crate) fn lists_products(self, undecided: usize) -> bool {
        self == Probing::Adaptive && self.probes(undecided)
    }
}

/// Chooses at a node as [`choose_probing`] does when `policy` probes there, and as
/// [`choose_plain`] does otherwise. `inherited` is the parent's probe memo.
pub(crate) fn choose_by<P: Domain>(
    policy: Probing,
    puzzle: &P,
    grid: &mut P::Grid,
    prop: &mut Propagator<P>,
    counts: &mut ProbeCounts,
    inherited: Option<&SealedMemo<P::Grid>>,
    stopped: &dyn Fn() -> bool,
) -> Choice<P::Grid> {
    if policy.probes(grid.undecided()) {
        choose_probing(puzzle, grid, prop, counts, inherited, None, stopped)
    } else {
        choose_plain(puzzle, grid, prop, stopped)
    }
}
