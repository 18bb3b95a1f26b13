//! The colour probe memo: probe results that still hold, so that probing skips them.
//!
//! Probing a colour of a cell runs a propagation whose outcome depends only on the lines it
//! solved (its footprint). While none of those lines has changed, the same probe would do the
//! same again. The memo keeps, for each cell whose every colour was consistent and whose probes
//! narrowed nothing by their union, the cells each colour fixed and the union of the colours'
//! footprints. Lines carry the epoch of their last change; an entry is valid while the cell's
//! colours are the same and no line of its footprint changed after the entry was made. Children
//! inherit their parent's memo, with the lines where they differ from it marked changed.

use super::grid::ColorGrid;

/// One cell's probe results.
#[derive(Clone, Debug)]
struct Entry {
    colors: u64,
    epoch: u64,
    footprint: Box<[u64]>,
    fixed: Box<[u32]>,
}

/// Probe results of one node, valid for the grid it was last told about.
#[derive(Clone, Debug)]
pub struct ColorMemo {
    entries: Vec<Option<Entry>>,
    changed_at: Vec<u64>,
    epoch: u64,
    base: ColorGrid,
}

impl ColorMemo {
    /// An empty memo for `grid`.
    pub fn new(grid: &ColorGrid) -> Self {
        ColorMemo {
            entries: vec![None; grid.height() * grid.width()],
            changed_at: vec![0; grid.height() + grid.width()],
            epoch: 1,
            base: grid.clone(),
        }
    }

    /// The parent's memo carried over to `grid` (a child of the parent's grid), or a new one.
    pub fn inherit(parent: Option<&ColorMemo>, grid: &ColorGrid) -> Self {
        match parent {
            Some(memo) if memo.base.height() == grid.height() => {
                let mut memo = memo.clone();
                memo.changed(grid);
                memo
            }
            _ => ColorMemo::new(grid),
        }
    }

    /// Tells the memo that the grid is now `grid`: lines where it differs are changed.
    pub fn changed(&mut self, grid: &ColorGrid) {
        let (h, w) = (grid.height(), grid.width());
        self.epoch += 1;
        let mut any = false;
        for (i, (&old, &new)) in self.base.cells().iter().zip(grid.cells()).enumerate() {
            if old != new {
                self.changed_at[i / w] = self.epoch;
                self.changed_at[h + i % w] = self.epoch;
                any = true;
            }
        }
        if any {
            self.base = grid.clone();
            self.epoch += 1;
        }
    }

    /// The cells each colour of cell `index` fixed, if its entry still holds for `colors`.
    pub fn get(&self, index: usize, colors: u64) -> Option<&[u32]> {
        let entry = self.entries[index].as_ref()?;
        if entry.colors != colors {
            return None;
        }
        for (word, &bits) in entry.footprint.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let line = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.changed_at[line] >= entry.epoch {
                    return None;
                }
            }
        }
        Some(&entry.fixed)
    }

    /// Records that every colour of cell `index` (`colors`) was consistent, that their union
    /// narrowed nothing, the cells each fixed, and the union of their footprints.
    pub fn record(&mut self, index: usize, colors: u64, fixed: Vec<u32>, footprint: Vec<u64>) {
        self.entries[index] = Some(Entry {
            colors,
            epoch: self.epoch,
            footprint: footprint.into_boxed_slice(),
            fixed: fixed.into_boxed_slice(),
        });
    }
}
