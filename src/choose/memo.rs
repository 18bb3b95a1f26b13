//! Probe results that stay valid: a probe's outcome depends only on the lines its propagation
//! solved (its *footprint*), so while none of those lines changes, probing again would give the
//! same answer. The memo keeps consistent probe results within a node, from one probing round to
//! the next, and hands them down to the node's children.

use std::sync::Arc;

use crate::grid::Grid;
use crate::propagate::line_index;
use crate::puzzle::LineId;

/// One consistent probe of one value of one cell.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The footprint: `footprints[start..start + len]`.
    start: u32,
    len: u32,
    /// Cells the probe fixed, the probed cell included.
    fixed: u32,
    /// The epoch at which it was probed; `NONE` for no entry.
    epoch: u32,
}

const NONE: u32 = u32::MAX;

/// Consistent probe results, and which lines changed since each was made.
#[derive(Clone, Debug)]
pub struct ProbeMemo {
    width: usize,
    /// Two entries per cell, row-major: filled, then empty.
    entries: Vec<Entry>,
    footprints: Vec<u32>,
    /// For each line (see [`line_index`]), the epoch of its last change.
    line_epoch: Vec<u32>,
    epoch: u32,
    /// The grid the memo describes (the node's grid when it was sealed).
    base: Option<Grid>,
}

impl ProbeMemo {
    /// A memo for `grid`, keeping what `parent` (sealed at the parent node) knew that the
    /// lines changed between the parent's grid and `grid` leave valid.
    pub fn inherit(parent: Option<&ProbeMemo>, grid: &Grid) -> Self {
        let lines = grid.height() + grid.width();
        let mut memo = match parent {
            Some(parent) => ProbeMemo {
                width: parent.width,
                entries: parent.entries.clone(),
                footprints: parent.footprints.clone(),
                line_epoch: vec![0; lines],
                epoch: 0,
                base: None,
            },
            None => ProbeMemo {
                width: grid.width(),
                entries: vec![
                    Entry {
                        epoch: NONE,
                        ..Entry::default()
                    };
                    2 * grid.height() * grid.width()
                ],
                footprints: Vec::new(),
                line_epoch: vec![0; lines],
                epoch: 0,
                base: None,
            },
        };
        if let Some(base) = parent.and_then(|p| p.base.as_ref()) {
            memo.changed(base, grid);
        }
        memo
    }

    /// Records that the node's grid went from `old` to `new`: entries whose footprint crosses
    /// a changed line are no longer valid.
    pub fn changed(&mut self, old: &Grid, new: &Grid) {
        self.epoch += 1;
        let rows = (0..new.height()).map(LineId::Row);
        let cols = (0..new.width()).map(LineId::Col);
        for line in rows.chain(cols) {
            if old.line(line) != new.line(line) {
                self.line_epoch[line_index(new, line) as usize] = self.epoch;
            }
        }
    }

    fn slot(&self, row: usize, col: usize, filled: bool) -> usize {
        2 * (row * self.width + col) + usize::from(!filled)
    }

    /// The cells a still-valid consistent probe of (`row`, `col`) = `filled` fixed, if the
    /// memo has one.
    pub fn get(&self, row: usize, col: usize, filled: bool) -> Option<u32> {
        let entry = self.entries[self.slot(row, col, filled)];
        if entry.epoch == NONE {
            return None;
        }
        let footprint = &self.footprints[entry.start as usize..][..entry.len as usize];
        footprint
            .iter()
            .all(|&line| self.line_epoch[line as usize] <= entry.epoch)
            .then_some(entry.fixed)
    }

    /// Records a consistent probe of (`row`, `col`) = `filled`, made on the current grid.
    pub fn record(&mut self, row: usize, col: usize, filled: bool, fixed: u32, footprint: &[u32]) {
        let slot = self.slot(row, col, filled);
        self.entries[slot] = Entry {
            start: self.footprints.len() as u32,
            len: footprint.len() as u32,
            fixed,
            epoch: self.epoch,
        };
        self.footprints.extend_from_slice(footprint);
    }

    /// The memo to hand down to the children of a node whose final grid is `grid`: only the
    /// entries of unknown cells that are still valid, with their footprints packed.
    pub fn seal(&self, grid: &Grid) -> Arc<ProbeMemo> {
        let mut sealed = ProbeMemo {
            width: self.width,
            entries: vec![
                Entry {
                    epoch: NONE,
                    ..Entry::default()
                };
                self.entries.len()
            ],
            footprints: Vec::new(),
            line_epoch: vec![0; self.line_epoch.len()],
            epoch: 0,
            base: Some(grid.clone()),
        };
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                if grid.cell(row, col) != crate::grid::Cell::Unknown {
                    continue;
                }
                for filled in [true, false] {
                    if let Some(fixed) = self.get(row, col, filled) {
                        let entry = self.entries[self.slot(row, col, filled)];
                        let footprint =
                            &self.footprints[entry.start as usize..][..entry.len as usize];
                        sealed.record(row, col, filled, fixed, footprint);
                    }
                }
            }
        }
        Arc::new(sealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_holds_until_a_line_of_its_footprint_changes() {
        let grid = Grid::new(3, 4);
        let mut memo = ProbeMemo::inherit(None, &grid);
        assert_eq!(memo.get(0, 1, true), None);
        // Footprint: row 0 and column 1 (line index 3 + 1).
        memo.record(0, 1, true, 5, &[0, 4]);
        assert_eq!(memo.get(0, 1, true), Some(5));
        assert_eq!(memo.get(0, 1, false), None);

        // A change in row 2 leaves it valid; a change in column 1 does not.
        let mut row2 = grid.clone();
        row2.set_unknown(2, 3, true);
        memo.changed(&grid, &row2);
        assert_eq!(memo.get(0, 1, true), Some(5));
        let mut col1 = row2.clone();
        col1.set_unknown(2, 1, false);
        memo.changed(&row2, &col1);
        assert_eq!(memo.get(0, 1, true), None);
        // Probed again on the new grid, it holds again.
        memo.record(0, 1, true, 4, &[0, 4]);
        assert_eq!(memo.get(0, 1, true), Some(4));
    }

    #[test]
    fn children_keep_the_entries_their_branch_left_alone() {
        let grid = Grid::new(3, 3);
        let mut memo = ProbeMemo::inherit(None, &grid);
        memo.record(0, 0, true, 2, &[0, 3]); // row 0, column 0
        memo.record(2, 2, false, 3, &[2, 5]); // row 2, column 2
        let sealed = memo.seal(&grid);

        let mut child = grid.clone();
        child.set_unknown(0, 1, true); // changes row 0 and column 1
        let inherited = ProbeMemo::inherit(Some(&sealed), &child);
        assert_eq!(inherited.get(0, 0, true), None);
        assert_eq!(inherited.get(2, 2, false), Some(3));
    }

    #[test]
    fn sealing_drops_known_cells_and_stale_entries() {
        let grid = Grid::new(2, 2);
        let mut memo = ProbeMemo::inherit(None, &grid);
        memo.record(0, 0, true, 1, &[0, 2]);
        memo.record(1, 1, true, 1, &[1, 3]);
        memo.record(1, 0, true, 1, &[1, 2]);
        let mut known = grid.clone();
        known.set_unknown(0, 0, true); // row 0, column 0 change
        memo.changed(&grid, &known);
        let sealed = memo.seal(&known);
        assert_eq!(sealed.get(0, 0, true), None, "known cell");
        assert_eq!(sealed.get(1, 0, true), None, "column 0 changed");
        assert_eq!(sealed.get(1, 1, true), Some(1));
    }
}
