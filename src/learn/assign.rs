//! The assignment of a learning search: each cell's value, decision level, trail position and
//! reason, kept in step with a [`Grid`] that the line solver reads.
//!
//! A literal is a cell with a value, `2 * cell + filled`: literal `l` is true when its cell has
//! the value `l & 1`. The trail lists the true literals in the order they were set; a
//! decision level starts at each decision.

use super::clauses::{ClauseReason, value_of};
use crate::grid::Grid;
use crate::puzzle::LineId;

/// A cell (`row * width + col`) with a value: `2 * cell + filled`.
pub(super) type Lit = u32;

/// The literal "`cell` is filled" or "`cell` is empty".
pub(super) fn lit(cell: u32, filled: bool) -> Lit {
    2 * cell + u32::from(filled)
}

/// The cell of a literal.
pub(super) fn cell_of(lit: Lit) -> u32 {
    lit >> 1
}

/// Whether a literal says "filled".
pub(super) fn says_filled(lit: Lit) -> bool {
    lit & 1 == 1
}

/// The other value of the same cell.
pub(super) fn negated(lit: Lit) -> Lit {
    lit ^ 1
}

/// Why a cell has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    /// Known before the search (a given or what propagation of the givens fixed): level 0.
    Root,
    /// Chosen by the search.
    Decision,
    /// Forced by a line's clue and the cells of the line set before trail position `mark`.
    Line { line: LineId, mark: u32 },
    /// Forced by a learned clause whose other literals are all false.
    Clause(u32),
}

impl ClauseReason for Reason {
    const ROOT: Self = Reason::Root;

    fn clause(clause: u32) -> Self {
        Reason::Clause(clause)
    }

    fn clause_mut(&mut self) -> Option<&mut u32> {
        match self {
            Reason::Clause(c) => Some(c),
            _ => None,
        }
    }
}

// The value table's entries (see [`value_of`]; 1 is empty).
const UNKNOWN: u8 = 0;
const FILLED: u8 = 2;

/// The cells' values with their levels, trail positions and reasons.
#[derive(Debug)]
pub(super) struct Assignment {
    pub(super) width: usize,
    pub(super) grid: Grid,
    value: Vec<u8>,
    pub(super) level: Vec<u32>,
    pub(super) position: Vec<u32>,
    pub(super) reason: Vec<Reason>,
    /// The true literals, oldest first.
    pub(super) trail: Vec<Lit>,
    /// Where on the trail each decision level after 0 starts (its decision).
    level_starts: Vec<u32>,
}

impl Assignment {
    /// An assignment with every cell of a `height` x `width` grid unknown.
    pub(super) fn new(height: usize, width: usize) -> Self {
        let cells = height * width;
        Assignment {
            width,
            grid: Grid::new(height, width),
            value: vec![UNKNOWN; cells],
            level: vec![0; cells],
            position: vec![0; cells],
            reason: vec![Reason::Root; cells],
            trail: Vec::with_capacity(cells),
            level_starts: Vec::new(),
        }
    }

    /// The number of cells.
    pub(super) fn cells(&self) -> usize {
        self.value.len()
    }

    /// The current decision level.
    pub(super) fn decision_level(&self) -> u32 {
        self.level_starts.len() as u32
    }

    /// Whether every cell has a value.
    pub(super) fn is_complete(&self) -> bool {
        self.trail.len() == self.value.len()
    }

    /// Whether `cell` has no value yet.
    pub(super) fn is_unknown(&self, cell: u32) -> bool {
        self.value[cell as usize] == UNKNOWN
    }

    /// The true literal of an assigned cell.
    pub(super) fn true_lit(&self, cell: u32) -> Lit {
        lit(cell, self.value[cell as usize] == FILLED)
    }

    /// The decisions of levels `1..=decision_level()`, in order.
    pub(super) fn decisions(&self) -> impl Iterator<Item = Lit> + '_ {
        self.level_starts.iter().map(|&at| self.trail[at as usize])
    }

    /// Makes `lit` true (its cell must be unknown) at the current level.
    pub(super) fn assign(&mut self, lit: Lit, reason: Reason) {
        debug_assert_eq!(self.value[cell_of(lit) as usize], UNKNOWN);
        self.value[cell_of(lit) as usize] = value_of(lit);
        self.record(lit, reason);
    }

    /// The cells' values, one byte each: 0 unknown, 1 empty, 2 filled (see [`value_of`]).
    pub(super) fn values_mut(&mut self) -> &mut [u8] {
        &mut self.value
    }

    /// Completes the assignment of `lit`, whose value is already in the value table (as
    /// [`ClauseDb::propagate`](super::clauses::ClauseDb::propagate) leaves it).
    pub(super) fn record(&mut self, lit: Lit, reason: Reason) {
        let cell = cell_of(lit);
        let at = cell as usize;
        debug_assert_eq!(self.value[at], value_of(lit));
        let filled = says_filled(lit);
        self.level[at] = self.decision_level();
        self.position[at] = self.trail.len() as u32;
        self.reason[at] = reason;
        self.trail.push(lit);
        self.grid
            .set_unknown(at / self.width, at % self.width, filled);
    }

    /// Opens a new decision level and makes `lit` true as its decision.
    pub(super) fn decide(&mut self, lit: Lit) {
        self.level_starts.push(self.trail.len() as u32);
        self.assign(lit, Reason::Decision);
    }

    /// Undoes every level above `level`, calling `unassigned` with each literal undone.
    pub(super) fn backtrack(&mut self, level: u32, mut unassigned: impl FnMut(Lit)) {
        if level >= self.decision_level() {
            return;
        }
        let keep = self.level_starts[level as usize] as usize;
        for &lit in &self.trail[keep..] {
            let at = cell_of(lit) as usize;
            self.value[at] = UNKNOWN;
            self.grid.clear_cell(at / self.width, at % self.width);
            unassigned(lit);
        }
        self.trail.truncate(keep);
        self.level_starts.truncate(level as usize);
    }

    /// The cell at index `i` of `line`.
    pub(super) fn line_cell(&self, line: LineId, i: usize) -> u32 {
        (match line {
            LineId::Row(r) => r * self.width + i,
            LineId::Col(c) => i * self.width + c,
        }) as u32
    }
}
