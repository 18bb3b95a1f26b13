//! Probe results that stay valid: a probe's outcome depends only on the lines its propagation
//! solved (its *footprint*), so while none of those lines changes, probing again would give the
//! same answer. The memo keeps consistent probe results within a node, from one probing round to
//! the next, and hands them down to the node's children as a [`SealedMemo`]: only the entries of
//! unknown cells that still hold, so that the memos alive along a deep search path stay small.

use std::sync::Arc;

use crate::domain::{DomainGrid, line_index};
use crate::grid::Grid;
use crate::puzzle::LineId;

/// No entry for a slot.
const NO_ENTRY: u32 = u32::MAX;

/// One consistent probe of one value of one cell.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The footprint: `footprints[start..start + len]`.
    start: u32,
    len: u32,
    /// Cells the probe fixed, the probed cell included.
    fixed: u32,
    /// The epoch at which it was probed.
    epoch: u32,
}

/// Consistent probe results at one node, and which lines changed since each was made.
#[derive(Clone, Debug)]
pub(crate) struct ProbeMemo<G = Grid> {
    width: usize,
    /// Value bits per cell: a slot stands for one value of one cell.
    values: u32,
    /// For each slot (`values` per cell, row-major, by value), its entry's index in
    /// `entries`, or [`NO_ENTRY`]. Only this index is dense, and it lives while one node
    /// probes; the sealed memos kept along a search path are sparse.
    index: Vec<u32>,
    /// `(slot, entry)`; an entry recorded again replaces its index, the old one stays unused.
    entries: Vec<(u32, Entry)>,
    /// Line indices (see [`line_index`]); lines are at most 2 x 4096, so 16 bits suffice.
    footprints: Vec<u16>,
    /// For each line (see [`line_index`]), the epoch of its last change.
    line_epoch: Vec<u32>,
    epoch: u32,
    _grid: std::marker::PhantomData<fn(&G)>,
}

/// What a node hands down to its children: the results that hold on its final grid, for its
/// unknown cells only.
#[derive(Debug)]
pub(crate) struct SealedMemo<G = Grid> {
    /// The node's final grid, which the children's grids are compared with.
    base: G,
    values: u32,
    /// `(slot, entry)`, the entry's footprint in `footprints`.
    entries: Vec<(u32, Entry)>,
    footprints: Vec<u16>,
}

impl<G: DomainGrid> ProbeMemo<G> {
    /// A memo for `grid`, whose cells take values among the lowest `values` value bits,
    /// keeping what `parent` (sealed at the parent node) knew that the lines changed between
    /// the parent's grid and `grid` leave valid.
    pub(crate) fn inherit(parent: Option<&SealedMemo<G>>, grid: &G, values: u32) -> Self {
        let values = parent.map_or(values, |p| p.values);
        let mut memo = ProbeMemo {
            width: grid.width(),
            values,
            index: vec![NO_ENTRY; values as usize * grid.height() * grid.width()],
            entries: Vec::new(),
            footprints: Vec::new(),
            line_epoch: vec![0; grid.height() + grid.width()],
            epoch: 0,
            _grid: std::marker::PhantomData,
        };
        if let Some(parent) = parent {
            memo.footprints.clone_from(&parent.footprints);
            memo.entries.clone_from(&parent.entries);
            for (i, &(slot, _)) in memo.entries.iter().enumerate() {
                memo.index[slot as usize] = i as u32;
            }
            memo.changed(&parent.base, grid);
        }
        memo
    }

    /// Records that the node's grid went from `old` to `new`: entries whose footprint crosses
    /// a changed line are no longer valid.
    pub(crate) fn changed(&mut self, old: &G, new: &G) {
        self.epoch += 1;
        let rows = (0..new.height()).map(LineId::Row);
        let cols = (0..new.width()).map(LineId::Col);
        for line in rows.chain(cols) {
            if old.line_differs(new, line) {
                self.line_epoch[line_index(new.height(), line) as usize] = self.epoch;
            }
        }
    }

    /// The slot of value bit `value` (a one-bit set) of cell (`row`, `col`).
    fn slot(&self, row: usize, col: usize, value: u64) -> u32 {
        let cell = row * self.width + col;
        (cell * self.values as usize + value.trailing_zeros() as usize) as u32
    }

    /// The cells a still-valid consistent probe of (`row`, `col`) = `value` (a one-bit set)
    /// fixed, if the memo has one.
    pub(crate) fn get(&self, row: usize, col: usize, value: u64) -> Option<u32> {
        let i = self.index[self.slot(row, col, value) as usize];
        let (_, entry) = *self.entries.get(i as usize)?;
        let footprint = &self.footprints[entry.start as usize..][..entry.len as usize];
        footprint
            .iter()
            .all(|&line| self.line_epoch[line as usize] <= entry.epoch)
            .then_some(entry.fixed)
    }

    /// Records a consistent probe of (`row`, `col`) = `value`, made on the current grid.
    pub(crate) fn record(
        &mut self,
        row: usize,
        col: usize,
        value: u64,
        fixed: u32,
        footprint: &[u32],
    ) {
        let slot = self.slot(row, col, value);
        let entry = Entry {
            start: self.footprints.len() as u32,
            len: footprint.len() as u32,
            fixed,
            epoch: self.epoch,
        };
        self.index[slot as usize] = self.entries.len() as u32;
        self.entries.push((slot, entry));
        self.footprints
            .extend(footprint.iter().map(|&line| line as u16));
    }

    /// The memo to hand down to the children of a node whose final grid is `grid`: the entries
    /// of unknown cells that still hold on `grid` and that no branch in `children` invalidates
    /// in all of them, with their footprints packed.
    pub(crate) fn seal(&self, grid: &G, children: &[G]) -> Arc<SealedMemo<G>> {
        let changed: Vec<Vec<bool>> = children
            .iter()
            .map(|child| {
                let rows = (0..grid.height()).map(LineId::Row);
                let cols = (0..grid.width()).map(LineId::Col);
                rows.chain(cols)
                    .map(|l| grid.line_differs(child, l))
                    .collect()
            })
            .collect();
        let mut sealed = SealedMemo {
            base: grid.clone(),
            values: self.values,
            entries: Vec::new(),
            footprints: Vec::new(),
        };
        for (slot, &i) in self.index.iter().enumerate() {
            if i == NO_ENTRY {
                continue;
            }
            let (cell, bit) = (slot / self.values as usize, slot % self.values as usize);
            let (row, col, value) = (cell / self.width, cell % self.width, 1 << bit);
            if grid.values(row, col).count_ones() < 2 || self.get(row, col, value).is_none() {
                continue;
            }
            let (_, entry) = self.entries[i as usize];
            let footprint = &self.footprints[entry.start as usize..][..entry.len as usize];
            let useful = changed.is_empty()
                || changed
                    .iter()
                    .any(|lines| footprint.iter().all(|&l| !lines[usize::from(l)]));
            if useful {
                let packed = Entry {
                    start: sealed.footprints.len() as u32,
                    epoch: 0,
                    ..entry
                };
                sealed.footprints.extend_from_slice(footprint);
                sealed.entries.push((slot as u32, packed));
            }
        }
        // Sealed memos are kept along search paths and in the split's and the probes' stores.
        sealed.entries.shrink_to_fit();
        sealed.footprints.shrink_to_fit();
        Arc::new(sealed)
    }
}

impl<G: DomainGrid> SealedMemo<G> {
    /// The final grid of the node that sealed the memo.
    pub(crate) fn base(&self) -> &G {
        &self.base
    }

    /// The bytes the memo holds on the heap, its base grid included.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.base.heap_bytes()
            + self.entries.capacity() * std::mem::size_of::<(u32, Entry)>()
            + self.footprints.capacity() * std::mem::size_of::<u16>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{EMPTY, FILLED};
    use crate::grid::Grid;

    fn fresh(parent: Option<&SealedMemo<Grid>>, grid: &Grid) -> ProbeMemo<Grid> {
        ProbeMemo::inherit(parent, grid, 2)
    }

    #[test]
    fn an_entry_holds_until_a_line_of_its_footprint_changes() {
        let grid = Grid::new(3, 4);
        let mut memo = fresh(None, &grid);
        assert_eq!(memo.get(0, 1, FILLED), None);
        // Footprint: row 0 and column 1 (line index 3 + 1).
        memo.record(0, 1, FILLED, 5, &[0, 4]);
        assert_eq!(memo.get(0, 1, FILLED), Some(5));
        assert_eq!(memo.get(0, 1, EMPTY), None);

        // A change in row 2 leaves it valid; a change in column 1 does not.
        let mut row2 = grid.clone();
        row2.set_unknown(2, 3, true);
        memo.changed(&grid, &row2);
        assert_eq!(memo.get(0, 1, FILLED), Some(5));
        let mut col1 = row2.clone();
        col1.set_unknown(2, 1, false);
        memo.changed(&row2, &col1);
        assert_eq!(memo.get(0, 1, FILLED), None);
        // Probed again on the new grid, it holds again.
        memo.record(0, 1, FILLED, 4, &[0, 4]);
        assert_eq!(memo.get(0, 1, FILLED), Some(4));
    }

    #[test]
    fn children_keep_the_entries_their_branch_left_alone() {
        let grid = Grid::new(3, 3);
        let mut memo = fresh(None, &grid);
        memo.record(0, 0, FILLED, 2, &[0, 3]); // row 0, column 0
        memo.record(2, 2, EMPTY, 3, &[2, 5]); // row 2, column 2
        let sealed = memo.seal(&grid, &[]);

        let mut child = grid.clone();
        child.set_unknown(0, 1, true); // changes row 0 and column 1
        let inherited = fresh(Some(&sealed), &child);
        assert_eq!(inherited.get(0, 0, FILLED), None);
        assert_eq!(inherited.get(2, 2, EMPTY), Some(3));
    }

    #[test]
    fn sealing_drops_known_cells_and_stale_entries() {
        let grid = Grid::new(2, 2);
        let mut memo = fresh(None, &grid);
        memo.record(0, 0, FILLED, 1, &[0, 2]);
        memo.record(1, 1, FILLED, 1, &[1, 3]);
        memo.record(1, 0, FILLED, 1, &[1, 2]);
        let mut known = grid.clone();
        known.set_unknown(0, 0, true); // row 0, column 0 change
        memo.changed(&grid, &known);
        let sealed = memo.seal(&known, &[]);
        assert_eq!(sealed.entries.len(), 1, "only (1, 1) filled is kept");
        let again = fresh(Some(&sealed), &known);
        assert_eq!(again.get(0, 0, FILLED), None, "known cell");
        assert_eq!(again.get(1, 0, FILLED), None, "column 0 changed");
        assert_eq!(again.get(1, 1, FILLED), Some(1));
    }
}
