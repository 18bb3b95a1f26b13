//! Checks whether some cells of a grid can be completed, by a search that decides only them,
//! under the grid's known cells as assumptions, keeping what it learns from one check to the
//! next.
//!
//! A check backs up to level 0, sets every cell the grid knows (and level 0 does not) as
//! assumptions, all at level 1, and searches from there. Nothing learned depends on the
//! assumptions: a clause follows from the clues alone, so it stays valid when the next check
//! assumes another grid. The search never backs up below level 1; a conflict that holds there
//! means the assumptions (with the clues) have no completion.

use super::{Engine, Scope};
use crate::grid::{Cell, Grid};
use crate::learn::assign::{Reason, cell_of, lit};

/// What [`Engine::assume`] found.
pub(in crate::learn) enum Assumed {
    /// The assumptions hold at level 1 and the search may decide the scope's cells.
    Ready,
    /// The assumptions contradict the clues (and what was learned).
    Contradiction,
}

impl Engine<'_> {
    /// Backs up to level 0, sets the units learned since, then assumes every cell `grid`
    /// knows and propagates; the search after it decides only `cells`, and is complete when
    /// they are all set.
    pub(in crate::learn) fn assume(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Assumed {
        self.release();
        for unit in std::mem::take(&mut self.units) {
            let cell = cell_of(unit);
            if self.a.is_unknown(cell) {
                self.assign(unit, Reason::Root);
            } else if self.a.true_lit(cell) != unit {
                return Assumed::Contradiction;
            }
        }
        if self.propagate().is_some() {
            return Assumed::Contradiction;
        }
        let width = self.a.width;
        let mut opened = false;
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                let filled = match grid.cell(row, col) {
                    Cell::Unknown => continue,
                    Cell::Filled => true,
                    Cell::Empty => false,
                };
                let cell = (row * width + col) as u32;
                let l = lit(cell, filled);
                if !self.a.is_unknown(cell) {
                    if self.a.true_lit(cell) != l {
                        return Assumed::Contradiction;
                    }
                } else if opened {
                    self.assign(l, Reason::Decision);
                } else {
                    self.a.decide(l);
                    self.enqueue_cell(cell);
                    opened = true;
                }
            }
        }
        self.floor = u32::from(opened);
        if self.propagate().is_some() {
            return Assumed::Contradiction;
        }
        let mut member = std::mem::take(&mut self.scope_member);
        member.resize(self.a.cells(), false);
        let cells: Vec<u32> = cells.iter().map(|&(r, c)| r * width as u32 + c).collect();
        for &cell in &cells {
            member[cell as usize] = true;
        }

        self.scope = Some(Scope {
            cells,
            member,
            set_aside: Vec::new(),
        });
        Assumed::Ready
    }

    /// Ends a check: puts the cells set aside back on the decision heap, forgets the scope and
    /// backs up to level 0.
    pub(in crate::learn) fn release(&mut self) {
        if let Some(mut scope) = self.scope.take() {
            for &cell in &scope.cells {
                scope.member[cell as usize] = false;
            }
            for cell in scope.set_aside {
                self.order.insert(cell);
            }
            self.scope_member = scope.member;
        }
        self.floor = 0;
        self.backtrack(0);
    }
}
