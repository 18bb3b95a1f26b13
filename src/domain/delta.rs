//! A grid's difference from another grid of the same size, as the storage words that differ:
//! what a search that explores in place writes to go down to a child, and writes again to
//! come back.

use super::DomainGrid;

/// The words in which one grid differs from another, with their values in one of the two.
/// Writing it into either grid turns it into the other and leaves the replaced words in the
/// delta, so writing it twice changes nothing.
#[derive(Debug, Default)]
pub(crate) struct GridDelta {
    /// The index of each differing word and the value it is to take.
    words: Vec<(usize, u64)>,
    /// The undecided cells of the grid it turns a grid into.
    undecided: usize,
}

impl GridDelta {
    /// What turns `from` into `to` (grids of the same size).
    pub(crate) fn between<G: DomainGrid>(from: &G, to: &G) -> Self {
        let (old, new) = (from.storage(), to.storage());
        debug_assert_eq!(old.len(), new.len());
        let words = old
            .iter()
            .zip(new)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (_, &b))| (i, b))
            .collect();
        GridDelta {
            words,
            undecided: to.undecided(),
        }
    }

    /// Writes the delta into `grid` (one of the two grids it was made from, or what writing it
    /// made of one), keeping the words it replaced: writing it again restores `grid`.
    pub(crate) fn swap_into<G: DomainGrid>(&mut self, grid: &mut G) {
        let (storage, undecided) = grid.storage_mut();
        for (index, value) in &mut self.words {
            std::mem::swap(&mut storage[*index], value);
        }
        std::mem::swap(undecided, &mut self.undecided);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::ColorGrid;
    use crate::grid::Grid;

    /// Writes the delta from `before` to `after` into a copy of `before` three times, checking
    /// that it gives `after`, `before`, then `after` again; returns that last grid.
    fn swapped_back_and_forth<G: DomainGrid + PartialEq + std::fmt::Debug>(
        before: &G,
        after: &G,
    ) -> G {
        let mut delta = GridDelta::between(before, after);
        let mut grid = before.clone();
        delta.swap_into(&mut grid);
        assert_eq!(&grid, after);
        delta.swap_into(&mut grid);
        assert_eq!(&grid, before);
        delta.swap_into(&mut grid);
        assert_eq!(&grid, after);
        grid
    }

    #[test]
    fn writing_a_delta_twice_restores_a_black_and_white_grid() {
        let before = Grid::new(70, 130);
        let mut after = before.clone();
        for (row, col, filled) in [(0, 0, true), (3, 64, false), (69, 129, true), (40, 7, true)] {
            after.set(row, col, filled).expect("the cells are unknown");
        }
        let grid = swapped_back_and_forth(&before, &after);
        assert_eq!(grid.unknown_count(), 70 * 130 - 4);
    }

    #[test]
    fn writing_a_delta_twice_restores_a_colour_grid() {
        let before = ColorGrid::new(5, 9, 0b111);
        let mut after = before.clone();
        after.narrow(2, 3, 0b010).expect("colour 1 is possible");
        after
            .narrow(4, 8, 0b101)
            .expect("colours 0 and 2 are possible");
        assert_eq!(GridDelta::between(&before, &after).words.len(), 2);
        let grid = swapped_back_and_forth(&before, &after);
        assert_eq!(grid.undecided(), 5 * 9 - 1);
    }

    #[test]
    fn equal_grids_differ_in_no_word() {
        let grid = Grid::new(3, 3);
        let mut delta = GridDelta::between(&grid, &grid);
        assert!(delta.words.is_empty());
        let mut same = grid.clone();
        delta.swap_into(&mut same);
        assert_eq!(same, grid);
    }
}
