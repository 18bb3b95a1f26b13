//! Exploring a subtree in place, on one thread, where holding each frame's later children as
//! grids of their own would overrun the thread's memory budget: one grid goes down to each
//! child by a [`GridDelta`] and comes back by the same delta, so a frame holds only the words
//! in which its children differ.
//!
//! A path thousands of levels deep (a 2000 x 2000 permutation puzzle) would otherwise hold one
//! sibling grid of 2 MiB per level. Frames within the budget ([`super::held::Siblings`]) keep
//! their children whole, so that idle workers can still steal them.

use std::ops::Range;

use super::held::{Hold, MemoSlot, hold_memo};
use super::product::Product;
use super::tree::{SearchCx, Step};
use crate::count::Countable;
use crate::domain::GridDelta;

impl<P: Countable> SearchCx<'_, P> {
    /// Explores a node's `children` (in the order to try) one after the other on this thread,
    /// in place: the first child's grid, turned into each of the others in turn.
    pub(super) fn branch_in_place(
        &self,
        mut children: Vec<P::Grid>,
        depth: u32,
        memo: Option<&MemoSlot<P::Grid>>,
    ) {
        if children.is_empty() {
            self.stats.finish_subtree(depth);
            return;
        }
        let mut grid = children.remove(0);
        let mut deltas: Vec<GridDelta> = std::iter::once(GridDelta::between(&grid, &grid))
            .chain(
                children
                    .iter()
                    .map(|child| GridDelta::between(&grid, child)),
            )
            .collect();
        drop(children);
        self.children_in_place(&mut grid, &mut deltas, depth, memo);
    }

    /// Explores the subtree of `grid` (at a propagation fixpoint) on this thread, leaving
    /// `grid` as it found it.
    fn explore_in_place(&self, grid: &mut P::Grid, depth: u32, memo: Option<&MemoSlot<P::Grid>>) {
        crate::fault::inject("search");
        let key = self.stats.finished.key_at(&*grid, depth);
        let parent = memo.and_then(MemoSlot::get);
        let step = self.expand(grid.clone(), depth, parent.as_deref());
        drop(parent);
        match step {
            Step::Done => {}
            Step::Solution(solution) => self.emit(solution, depth),
            Step::Branch {
                cell,
                children,
                memo,
            } => {
                let mut deltas: Vec<GridDelta> = self
                    .in_order(cell, children, depth)
                    .iter()
                    .map(|child| GridDelta::between(grid, child))
                    .collect();
                let hold = hold_memo(memo);
                self.children_in_place(grid, &mut deltas, depth, hold.as_ref().map(Hold::slot));
                if let Some(hold) = hold {
                    hold.release();
                }
            }
            Step::Product {
                grid: mut base,
                product,
            } => {
                let all = product.solutions(0);
                self.walk_in_place(&mut base, &product, 0, all, depth);
            }
        }
        if let Some(key) = key.filter(|_| !self.stopped()) {
            self.stats.finished.finish(key);
        }
    }

    /// Explores the children that `deltas` make of `grid`, together `2^-depth` of the tree,
    /// halving them as [`SearchCx::children`] does so that the explored fraction stays exact.
    fn children_in_place(
        &self,
        grid: &mut P::Grid,
        deltas: &mut [GridDelta],
        depth: u32,
        memo: Option<&MemoSlot<P::Grid>>,
    ) {
        match deltas {
            [] => self.stats.finish_subtree(depth),
            [delta] => {
                delta.swap_into(grid);
                self.explore_in_place(grid, depth, memo);
                delta.swap_into(grid);
            }
            _ => {
                let (first, second) = deltas.split_at_mut(deltas.len() / 2);
                self.children_in_place(grid, first, depth + 1, memo);
                self.children_in_place(grid, second, depth + 1, memo);
            }
        }
    }

    /// Walks solutions `range` of component `index` of `product` and every combination of
    /// the components after it, as [`SearchCx`]'s own walk does, writing each into `grid` and
    /// taking it out again.
    fn walk_in_place(
        &self,
        grid: &mut P::Grid,
        product: &Product,
        index: usize,
        range: Range<usize>,
        depth: u32,
    ) {
        if self.stopped() {
            return;
        }
        if range.is_empty() {
            self.stats.finish_subtree(depth);
            return;
        }
        product.walk_in_place(grid, index, range, depth, |solution, depth| {
            self.poll();
            self.emit(solution.clone(), depth);
            !self.stopped()
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::choose::{Probing, probed_root};
    use crate::domain::DomainGrid;
    use crate::propagate::Propagator;
    use crate::search::product::Split;
    use crate::search::stats::SearchStats;
    use crate::search::tree::{Outlet, Sequential};
    use crate::test_strategies::{colour_bands, diagonal_squares, permutations};

    /// How a test searches from the probed root: in place or as usual.
    #[derive(Clone, Copy, PartialEq)]
    enum Way {
        InPlace,
        Whole,
    }

    /// Every solution that `search` finds from the probed root of `puzzle` (sorted keys), and
    /// the fraction of the tree it counts as explored.
    fn searched<P: Countable>(
        puzzle: &P,
        probing: Probing,
        search: impl FnOnce(&SearchCx<'_, P>, P::Grid),
    ) -> (Vec<Box<[u64]>>, f64) {
        let root = probed_root(puzzle)
            .expect("a valid puzzle")
            .expect("a solvable puzzle");
        let stats = SearchStats::default();
        let (stop, cancel) = (AtomicBool::new(false), AtomicBool::new(false));
        let (tx, rx) = crossbeam_channel::unbounded();
        let cx = SearchCx {
            puzzle,
            probing,
            stats: &stats,
            stop: &stop,
            cancel: &cancel,
            attempt: None,
            solutions: Outlet::Grids(tx),
            dead_ends: None,
            walk_root: false,
        };
        search(&cx, root);
        drop(cx);
        let mut keys: Vec<_> = rx.iter().map(|grid| grid.key()).collect();
        keys.sort();
        (keys, stats.snapshot().explored)
    }

    /// Checks that the search in place and the usual one find the same `solutions` solutions,
    /// each once, and explore the whole tree.
    fn agree<P: Countable>(
        puzzle: &P,
        probing: Probing,
        solutions: usize,
        search: impl Fn(&SearchCx<'_, P>, P::Grid, Way),
    ) {
        let in_place = searched(puzzle, probing, |cx, root| search(cx, root, Way::InPlace));
        assert_eq!(in_place.0.len(), solutions);
        assert!(
            in_place.0.windows(2).all(|w| w[0] != w[1]),
            "no solution twice"
        );
        assert_eq!(in_place.1, 1.0);
        let whole = searched(puzzle, probing, |cx, root| search(cx, root, Way::Whole));
        assert_eq!(whole, in_place);
    }

    fn explore<P: Countable>(cx: &SearchCx<'_, P>, root: P::Grid, way: Way) {
        if way == Way::InPlace {
            let mut grid = root.clone();
            cx.explore_in_place(&mut grid, 0, None);
            assert_eq!(grid, root, "the search leaves its grid as it found it");
        } else {
            cx.explore::<Sequential>(root, 0, None);
        }
    }

    #[test]
    fn in_place_the_search_finds_what_it_finds_with_whole_grids() {
        for probing in [Probing::Always, Probing::Never, Probing::Adaptive] {
            agree(&permutations(6), probing, 720, explore);
            agree(&colour_bands(2, 3), probing, 36, explore);
        }
    }

    #[test]
    fn in_place_products_are_walked_in_full() {
        let puzzle = diagonal_squares(7);
        let walk = |cx: &SearchCx<'_, _>, root, way| {
            let mut prop = Propagator::with_line_cache();
            let Split::Product(product) = Product::of(&puzzle, &root, &mut prop, &|| false) else {
                panic!("seven squares are a product");
            };
            let all = product.solutions(0);
            if way == Way::InPlace {
                let mut grid = root.clone();
                cx.walk_in_place(&mut grid, &product, 0, all, 0);
                assert_eq!(grid, root, "the walk leaves its grid as it found it");
            } else {
                cx.walk::<Sequential>(root, &product, (0, all), 0, super::super::tree::WALK_JOINS);
            }
        };
        agree(&puzzle, Probing::Adaptive, 128, walk);
    }
}
