//! Checks whether some cells of a grid can be completed, by a search that decides only them,
//! under the grid's known cells as assumptions, keeping what it learns from one check to the
//! next.
//!
//! A check backs up to level 0, sets every variable the grid knows (and level 0 does not) as
//! assumptions, all at level 1, and searches from there. Nothing learned depends on the
//! assumptions: a clause follows from the clues alone, so it stays valid when the next check
//! assumes another grid. The search never backs up below level 1; a conflict that holds there
//! means the assumptions (with the clues) have no completion.

use super::{Engine, Scope};
use crate::learn::assign::Reason;
use crate::learn::domain::LearnDomain;
use crate::learn::lit::{Lit, var_of};

/// What [`Engine::assume`] found.
pub(in crate::learn) enum Assumed {
    /// The assumptions hold at level 1 and the search may decide the scope's cells.
    Ready,
    /// The assumptions contradict the clues (and what was learned).
    Contradiction,
}

impl<D: LearnDomain> Engine<'_, D> {
    /// Backs up to level 0, sets the units learned since, then assumes every variable `grid`
    /// knows and propagates; the search after it decides only the variables of `cells`, and
    /// is complete when they are all set.
    pub(in crate::learn) fn assume(&mut self, grid: &D::Grid, cells: &[(u32, u32)]) -> Assumed {
        self.release();
        for unit in std::mem::take(&mut self.units) {
            let var = var_of(unit);
            if self.a.is_unknown(var) {
                self.assign(unit, Reason::Root);
            } else if self.a.true_lit(var) != unit {
                return Assumed::Contradiction;
            }
        }
        if self.propagate().is_some() {
            return Assumed::Contradiction;
        }
        let mut known = std::mem::take(&mut self.forced);
        known.clear();
        self.puzzle.known_lits(grid, &mut known);
        let held = self.assume_lits(&known);
        self.forced = known;
        if !held || self.propagate().is_some() {
            return Assumed::Contradiction;
        }
        let per_cell = self.puzzle.vars_per_cell();
        let width = self.shape.width;
        let mut member = std::mem::take(&mut self.scope_member);
        member.resize(self.a.vars(), false);
        let mut vars = Vec::with_capacity(cells.len() * per_cell);
        for &(row, col) in cells {
            let first = (row as usize * width + col as usize) * per_cell;
            member[first..first + per_cell].fill(true);
            vars.extend((first..first + per_cell).map(|var| var as u32));
        }
        self.scope = Some(Scope {
            vars,
            member,
            set_aside: Vec::new(),
        });
        Assumed::Ready
    }

    /// Sets the literals of `known` not set yet, all at level 1 (the floor from now on) if
    /// any; `false` if one contradicts level 0.
    fn assume_lits(&mut self, known: &[Lit]) -> bool {
        let mut opened = false;
        for &l in known {
            let var = var_of(l);
            if !self.a.is_unknown(var) {
                if self.a.true_lit(var) != l {
                    return false;
                }
            } else if opened {
                self.assign(l, Reason::Decision);
            } else {
                self.a.decide(l);
                self.queue.lit_set(self.puzzle, l);
                opened = true;
            }
        }
        self.floor = u32::from(opened);
        true
    }

    /// Ends the last check, as the next one starts: puts the variables set aside back in the
    /// decision queue, forgets the scope and backs up to level 0.
    pub(in crate::learn) fn release(&mut self) {
        if let Some(mut scope) = self.scope.take() {
            for &var in &scope.vars {
                scope.member[var as usize] = false;
            }
            self.order.restore(&mut scope.set_aside);
            self.scope_member = scope.member;
        }
        self.floor = 0;
        self.backtrack(0);
    }
}
