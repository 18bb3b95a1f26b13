//! How a split sizes the subtrees it cuts: by measuring them (see the parent module), within
//! a time limit, or by their unknown cells alone.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::splitter::Splitter;
use super::{Interrupted, Open, raised};
use crate::choose::SealedMemo;
use crate::domain::{Domain, DomainGrid};
use crate::search::{Searchable, SolveError};

/// How [`split_by`](super::split_by) ranks open nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sizing {
    /// By a short search of each node (see the `split` module): balanced parts, for
    /// running them side by side. Once sizing has taken [`SIZING_TIME`], the split cuts only
    /// `fewest` subtrees (or as many as it has), and each child takes an equal share of its
    /// parent's estimate.
    Measured {
        /// The subtrees to cut, at least, once sizing is spent.
        fewest: usize,
        /// The subtrees to cut, at most: past those asked for, the split doubles them while
        /// that keeps its work a small share of the search's (see [`Sizer::grow`]).
        most: usize,
    },
    /// By unknown cells alone: much faster, for parts that run one after the other anyway
    /// (checkpointed runs), where only their number matters.
    UnknownCells,
}

/// A node that a split expands: the node, its branching cell, its children and their memo.
pub(super) type Branching<P> = (
    Open<P>,
    (usize, usize),
    Vec<<P as Domain>::Grid>,
    Option<Arc<SealedMemo<<P as Domain>::Grid>>>,
);

/// How a split sizes the children of the nodes it expands, and how many subtrees it cuts: the
/// subtrees asked for until sizing has taken its time ([`SIZING_TIME`]), then only the fewest that
/// [`Sizing::Measured`] allows, each child given an equal share of its parent's estimate.
pub(super) struct Sizer {
    sizing: Sizing,
    /// The subtrees to cut.
    pub(super) parts: usize,
    /// When sizing ends.
    deadline: Instant,
    /// Whether it has.
    pub(super) stopped: bool,
}

impl Sizer {
    pub(super) fn new(sizing: Sizing, parts: usize, deadline: Instant) -> Self {
        Sizer {
            sizing,
            parts: parts.max(1),
            deadline,
            stopped: false,
        }
    }

    /// The estimates of the children of `branching`, in order. `Err` when the cancel flag is
    /// raised.
    pub(super) fn size<P: Searchable>(
        &mut self,
        splitter: &mut Splitter<'_, P>,
        branching: &[Branching<P>],
    ) -> Result<Vec<f64>, SolveError> {
        let Sizing::Measured { fewest, .. } = self.sizing else {
            let children = branching.iter().flat_map(|(_, _, children, _)| children);
            return Ok(children.map(|g| g.undecided() as f64).collect());
        };
        if Instant::now() < self.deadline {
            let children: Vec<_> = (branching.iter())
                .flat_map(|(_, _, children, memo)| children.iter().map(move |g| (g, memo.as_ref())))
                .collect();
            let sized = splitter.each(children.len(), |sizer, i| {
                sizer.estimate(children[i].0, children[i].1)
            });
            match sized {
                Ok(estimates) => return Ok(estimates),
                Err(Interrupted) if raised(splitter.cancel) => return Err(SolveError::Cancelled),
                Err(Interrupted) => {}
            }
        }
        self.parts = fewest.clamp(1, self.parts);
        self.stopped = true;
        Ok(branching
            .iter()
            .flat_map(|(node, _, children, _)| {
                // The root's estimate is infinite: its children then share one.
                let whole = if node.estimate.is_finite() {
                    node.estimate
                } else {
                    1.0
                };
                let share = whole / children.len() as f64;
                std::iter::repeat_n(share, children.len())
            })
            .collect())
    }
}

impl Sizer {
    /// The estimate of a node that was never sized: the root, when one part is wanted (it is
    /// never branched). Sizing it would cost up to the sizing time for nothing, so it takes
    /// the unit share a stopped split gives (or its unknown cells, when those size the parts).
    pub(super) fn size_unsized<P: Searchable>(&self, node: &Open<P>) -> f64 {
        match self.sizing {
            Sizing::Measured { .. } => 1.0,
            Sizing::UnknownCells => node.grid.undecided() as f64,
        }
    }
}

/// What the split knows when it has cut the subtrees it wanted, for [`Sizer::grow`].
pub(super) struct Progress {
    /// The split's own work so far (see `Measured::work`).
    pub(super) work: f64,
    /// The estimated work of the whole search: the sum of the subtrees' estimates.
    pub(super) tree: f64,
    /// The subtrees cut.
    pub(super) cut: usize,
    /// The heap bytes of one of their grids.
    pub(super) grid_bytes: usize,
    /// The largest subtree's estimate.
    pub(super) largest: f64,
    /// The time the split has taken.
    pub(super) took: Duration,
}

impl Sizer {
    /// Doubles the subtrees to cut, up to [`Sizing::Measured`]'s `most`, while the largest
    /// subtree is over [`UNEVEN_SHARE`] of a part, when the split's work, [`DOUBLING_COST`]
    /// times over, stays within [`CHEAP_SHARE`] of the estimated work of the whole search, twice
    /// the subtrees' grids stay within [`GROWTH_BYTES`], and the sizing time allows it. More
    /// subtrees pack into more even parts, and a tree that is large beside the split's work
    /// affords them; a split into one part, or into parts that small subtrees already fill,
    /// gains nothing from them.
    pub(super) fn grow(&mut self, now: &Progress) -> bool {
        let Sizing::Measured { fewest, most } = self.sizing else {
            return false;
        };
        if fewest < 2 || now.largest <= UNEVEN_SHARE * now.tree / fewest as f64 {
            return false;
        }
        let affordable = now.tree.is_finite()
            && now.work * DOUBLING_COST <= CHEAP_SHARE * now.tree
            && now.cut.saturating_mul(2).saturating_mul(now.grid_bytes) <= GROWTH_BYTES
            && Instant::now() + now.took.mul_f64(DOUBLING_COST) < self.deadline;
        if self.stopped || now.cut < self.parts || self.parts >= most || !affordable {
            return false;
        }
        self.parts = self.parts.saturating_mul(2).min(most);
        true
    }
}

/// The split's work over the estimated work of the search it splits that cutting more
/// subtrees may reach: the bound set for a split. On random 16x16 pictures the split's share
/// of an enumeration on two threads came close to this ratio (docs/tuning.md).
const CHEAP_SHARE: f64 = 0.1;

/// The share of a part's estimated work past which the largest subtree makes the split cut
/// more: a subtree's estimate is often off by half or more (docs/benchmarks.md, "What the
/// split's cost is made of"), so one that fills much of a part can make it the largest. On a
/// 14x14 permutation puzzle the largest of 1,024 subtrees is a fifth of a part, and the largest
/// of 64 parts took 1.35 times the mean at 1,024 subtrees, 1.27 at 4,096 (docs/tuning.md).
const UNEVEN_SHARE: f64 = 0.25;

/// How many times its work a split takes when it cuts twice the subtrees: about 1.5 on random
/// 16x16 pictures (docs/tuning.md), with a margin.
const DOUBLING_COST: f64 = 1.6;

/// The most bytes the grids of the subtrees may take after a doubling: a black-and-white
/// 512x512 grid takes 128 KB, so 2,048 of them fit.
const GROWTH_BYTES: usize = 256 << 20;

/// How long a split sizes subtrees before it cuts only as many as parts (see [`Sizer`]): the
/// 16x16 of issue 67 sizes in about 2.5 s, a random 25x25 picture in 12 s, but a random
/// 200x200 colour picture takes seconds a node (docs/tuning.md).
pub(crate) const SIZING_TIME: Duration = Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    /// A split into 4 parts that has cut 16 subtrees, its work a thousandth of the tree's,
    /// with the largest subtree's estimate `largest` (a part is 250).
    fn grows(largest: f64) -> (bool, usize) {
        let sizing = Sizing::Measured {
            fewest: 4,
            most: 64,
        };
        let mut sizer = Sizer::new(sizing, 16, Instant::now() + Duration::from_secs(60));
        let now = Progress {
            work: 1.0,
            tree: 1000.0,
            cut: 16,
            grid_bytes: 64,
            largest,
            took: Duration::from_millis(1),
        };
        (sizer.grow(&now), sizer.parts)
    }

    #[test]
    fn a_cheap_split_cuts_more_only_while_a_subtree_fills_much_of_a_part() {
        assert_eq!(grows(100.0), (true, 32), "two fifths of a part");
        assert_eq!(grows(62.5), (false, 16), "a quarter of a part");
        assert_eq!(grows(10.0), (false, 16), "a twenty-fifth of a part");
    }
}
