//! The cells whose probes a probing round skips, as each says nothing that the probes of a
//! cell before it did not (only in rounds over every cell, row by row).
//!
//! Where the two probes of a cell `a` both decide a cell `b` of two values, to different
//! values, and leave the grid as it is (no value refuted, nothing both agree on), each value
//! of `b` implies a value of `a`, so each of `b`'s probes holds no more than the probe of that
//! value of `a` (propagation only grows with what is known): it cannot be refuted, the two
//! agree on nothing, and `b` scores no higher than `a` (scores grow with the cells a probe
//! fixes), which comes first and so wins a tie. The round's outcome is the one it would have
//! had; the cells are forgotten when the grid changes. On random 16x16 pictures an enumeration
//! probes 13% less (CHANGELOG.md, "Probing skips a cell ...").

use crate::domain::DomainGrid;

/// The cells a round skips (see the module documentation).
#[derive(Default)]
pub(super) struct Implied {
    /// A bit per cell, each row in words of its own; empty when the round skips nothing.
    marks: Vec<u64>,
    row_words: usize,
    /// Whether a bit is set.
    any: bool,
}

impl Implied {
    /// Starts a round over `grid`: every cell, row by row, if `whole`, else cells in another
    /// order, which skips nothing.
    pub(super) fn start<G: DomainGrid>(&mut self, grid: &G, whole: bool) {
        self.marks.clear();
        self.any = false;
        if whole && skips() {
            self.row_words = grid.width().div_ceil(64);
            self.marks.resize(grid.height() * self.row_words, 0);
        }
    }

    /// Whether the round skips `cell`.
    #[inline]
    pub(super) fn holds(&self, (row, col): (usize, usize)) -> bool {
        self.any && self.marks[row * self.row_words + col / 64] >> (col % 64) & 1 == 1
    }

    /// Notes the probes `a` and `b` of the two values of `cell`, which left `grid` as it is.
    pub(super) fn note<G: DomainGrid>(&mut self, grid: &G, cell: (usize, usize), a: &G, b: &G) {
        if !self.marks.is_empty() {
            self.any |= grid.mark_opposed(a, b, cell, &mut self.marks);
        }
    }

    /// The grid changed: skips nothing more until the next note.
    pub(super) fn forget(&mut self) {
        if self.any {
            self.marks.fill(0);
            self.any = false;
        }
    }
}

#[cfg(not(test))]
fn skips() -> bool {
    true
}

#[cfg(test)]
thread_local! {
    /// Whether rounds on this thread skip implied probes: the tests compare both ways.
    static SKIPS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

#[cfg(test)]
fn skips() -> bool {
    SKIPS.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::choose::{Choice, ProbeCounts, Probing, SealedMemo, choose_by};
    use crate::color::ColorPuzzle;
    use crate::domain::{Domain, mark_opposed_by_cells};
    use crate::grid::Grid;
    use crate::propagate::Propagator;
    use crate::puzzle::Puzzle;
    use crate::test_strategies::palette;

    /// What probing `grid` gives (the probed grid, the branching cell, the children and the
    /// memo they inherit), and the probes it ran, with or without skipping.
    type Probed<G> = (
        G,
        Option<((usize, usize), Vec<G>)>,
        Option<Arc<SealedMemo<G>>>,
        u64,
    );

    fn probe<P: Domain>(
        puzzle: &P,
        grid: &P::Grid,
        memo: Option<&SealedMemo<P::Grid>>,
        skipping: bool,
    ) -> Probed<P::Grid> {
        SKIPS.with(|s| s.set(skipping));
        let (mut grid, mut counts) = (grid.clone(), ProbeCounts::default());
        let mut prop = Propagator::new();
        let always = Probing::Always;
        let choice = choose_by(
            always,
            puzzle,
            &mut grid,
            &mut prop,
            &mut counts,
            memo,
            &|| false,
        );
        SKIPS.with(|s| s.set(true));
        match choice {
            Choice::Branch {
                cell,
                children,
                memo,
            } => (grid, Some((cell, children)), memo, counts.probes),
            _ => (grid, None, None, counts.probes),
        }
    }

    /// Probing `grid` gives the same with and without skipping, and so do its descendants
    /// `depth` levels down, each probed with the memo its parent handed down; returns the
    /// probes of `grid` itself with and without.
    fn same_below<P: Domain>(
        puzzle: &P,
        grid: &P::Grid,
        memos: [Option<&SealedMemo<P::Grid>>; 2],
        depth: usize,
    ) -> Result<(u64, u64), TestCaseError> {
        let with = probe(puzzle, grid, memos[0], true);
        let without = probe(puzzle, grid, memos[1], false);
        prop_assert!(
            with.0 == without.0 && with.1 == without.1,
            "a node {depth} levels above the deepest differs"
        );
        if depth > 0 {
            for child in with.1.iter().flat_map(|(_, children)| children) {
                let memos = [with.2.as_deref(), without.2.as_deref()];
                same_below(puzzle, child, memos, depth - 1)?;
            }
        }
        Ok((with.3, without.3))
    }

    /// Probing the propagated root of `puzzle`, its children and grandchildren gives the same
    /// with and without skipping, and skipping probes no more at the root. Below it, a node
    /// may probe more: a cell its parent skipped left no entry in the memo handed down.
    fn same_both_ways<P: Domain>(puzzle: &P) -> Result<(), TestCaseError> {
        let Some(mut root) = puzzle.given_grid() else {
            return Ok(());
        };
        if Propagator::new().propagate_all(puzzle, &mut root).is_err() {
            return Ok(());
        }
        let (with, without) = same_below(puzzle, &root, [None, None], 2)?;
        prop_assert!(with <= without);
        Ok(())
    }

    /// A random grid of `h` x `w` cells and two narrower ones, from `cells`: each cell's state
    /// in the three, 0 undecided, 1 empty, 2 filled (the narrower ones keep the first's
    /// decided cells).
    fn three_grids(h: usize, w: usize, cells: &[(u8, u8, u8)]) -> [Grid; 3] {
        let mut grids = [Grid::new(h, w), Grid::new(h, w), Grid::new(h, w)];
        for (i, &(g, a, b)) in cells.iter().enumerate() {
            let states = if g == 0 { [0, a, b] } else { [g; 3] };
            for (grid, state) in grids.iter_mut().zip(states) {
                if state > 0 {
                    grid.decide(i / w, i % w, u64::from(state));
                }
            }
        }
        grids
    }

    /// On random 12x12 pictures, the root's probing skips some probes, and its outcome stays.
    #[test]
    fn random_pictures_skip_probes() {
        let (mut with, mut without) = (0, 0);
        let mut rng = crate::rng::SplitMix(12);
        for _ in 0..20 {
            let cells: Vec<bool> = (0..144).map(|_| rng.next() % 100 < 40).collect();
            let puzzle = Puzzle::from_picture(12, 12, &cells).expect("valid");
            let mut root = puzzle.given_grid().expect("no givens");
            Propagator::new()
                .propagate_all(&puzzle, &mut root)
                .expect("a picture's clues");
            let probed = probe(&puzzle, &root, None, false);
            let skipped = probe(&puzzle, &root, None, true);
            assert!(probed.0 == skipped.0 && probed.1 == skipped.1);
            (with, without) = (with + skipped.3, without + probed.3);
        }
        assert!(
            with < without,
            "{with} probes with skipping, {without} without"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn skipping_implied_probes_changes_no_choice_in_black_and_white(
            (h, w, cells) in (2usize..15, 2usize..15).prop_flat_map(|(h, w)| {
                (Just(h), Just(w), proptest::collection::vec(proptest::bool::weighted(0.4), h * w))
            })
        ) {
            same_both_ways(&Puzzle::from_picture(h, w, &cells).expect("valid"))?;
        }

        #[test]
        fn skipping_implied_probes_changes_no_choice_in_colour(
            (h, w, cells) in (2usize..13, 2usize..13).prop_flat_map(|(h, w)| {
                (Just(h), Just(w), proptest::collection::vec(0u8..3, h * w))
            })
        ) {
            let puzzle = ColorPuzzle::from_picture(palette(3), h, w, &cells)?;
            same_both_ways(&puzzle)?;
        }

        #[test]
        fn opposed_cells_of_the_planes_are_those_cell_by_cell(
            (h, w, cells, after) in (1usize..5, 1usize..140).prop_flat_map(|(h, w)| {
                let cell = (0u8..3, 0u8..3, 0u8..3);
                (Just(h), Just(w), proptest::collection::vec(cell, h * w), (0..h, 0..w))
            })
        ) {
            let [grid, a, b] = three_grids(h, w, &cells);
            let mut by_planes = vec![0; h * w.div_ceil(64)];
            let mut by_cells = by_planes.clone();
            let any = grid.mark_opposed(&a, &b, after, &mut by_planes);
            prop_assert_eq!(any, mark_opposed_by_cells(&grid, &a, &b, after, &mut by_cells));
            prop_assert_eq!(by_planes, by_cells);
        }
    }
}
