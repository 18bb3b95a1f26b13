//! The assignment of a learning search: each variable's value, decision level, trail position
//! and reason, kept in step with the cells a line solver reads (see [`CellValues`]).
//!
//! The trail lists the true literals in the order they were set; a decision level starts at
//! each decision.

use super::lit::{Lit, UNKNOWN, lit, value_of, var_of};

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// Known before the search (a given or what propagation of the givens fixed): level 0.
    Root,
    /// Chosen by the search.
    Decision,
    /// Forced by the clue of line `line` (its number, see [`Shape::index`]) and the
    /// variables of the line set before trail position `mark`. Numbers keep a reason to 12
    /// bytes: one per variable, millions on a large grid.
    ///
    /// [`Shape::index`]: super::domain::Shape::index
    Line { line: u32, mark: u32 },
    /// Forced by a learned clause whose other literals are all false.
    Clause(u32),
    /// Forced by the domain's rule of one cell (in colour: exactly one colour per cell).
    Cell,
}

// One reason per variable: a larger one costs megabytes on a large grid.
const _: () = assert!(std::mem::size_of::<Reason>() <= 12);

/// The cells as a line solver reads them, kept in step with the variables.
pub(crate) trait CellValues {
    /// `lit` has just become true.
    fn set(&mut self, lit: Lit);
    /// `lit`, true until now, has just become unknown.
    fn unset(&mut self, lit: Lit);
}

/// The variables' values with their levels, trail positions and reasons.
#[derive(Debug)]
pub(crate) struct Assignment<C> {
    /// The cells as the line solver reads them.
    pub(super) cells: C,
    value: Vec<u8>,
    pub(super) level: Vec<u32>,
    pub(super) position: Vec<u32>,
    pub(super) reason: Vec<Reason>,
    /// The true literals, oldest first.
    pub(super) trail: Vec<Lit>,
    /// Where on the trail each decision level after 0 starts (its decision).
    level_starts: Vec<u32>,
}

impl<C: CellValues> Assignment<C> {
    /// An assignment of `vars` variables, every one unknown, over `cells`.
    pub(super) fn new(vars: usize, cells: C) -> Self {
        Assignment {
            cells,
            value: vec![UNKNOWN; vars],
            level: vec![0; vars],
            position: vec![0; vars],
            reason: vec![Reason::Root; vars],
            trail: Vec::with_capacity(vars),
            level_starts: Vec::new(),
        }
    }

    /// The number of variables.
    pub(super) fn vars(&self) -> usize {
        self.value.len()
    }

    /// The current decision level.
    pub(super) fn decision_level(&self) -> u32 {
        self.level_starts.len() as u32
    }

    /// Whether every variable has a value.
    pub(super) fn is_complete(&self) -> bool {
        self.trail.len() == self.value.len()
    }

    /// Whether `var` has no value yet.
    pub(super) fn is_unknown(&self, var: u32) -> bool {
        self.value[var as usize] == UNKNOWN
    }

    /// Whether `lit` is true.
    pub(super) fn is_true(&self, lit: Lit) -> bool {
        self.value[var_of(lit) as usize] == value_of(lit)
    }

    /// The true literal of an assigned variable.
    pub(super) fn true_lit(&self, var: u32) -> Lit {
        lit(var, self.value[var as usize] == value_of(lit(var, true)))
    }

    /// The decisions of levels `1..=decision_level()`, in order.
    pub(super) fn decisions(&self) -> impl Iterator<Item = Lit> + '_ {
        self.level_starts.iter().map(|&at| self.trail[at as usize])
    }

    /// Where on the trail decision level `level` (from 1) starts.
    pub(super) fn level_start(&self, level: u32) -> usize {
        self.level_starts[level as usize - 1] as usize
    }

    /// Makes `lit` true (its variable must be unknown) at the current level.
    pub(super) fn assign(&mut self, lit: Lit, reason: Reason) {
        debug_assert_eq!(self.value[var_of(lit) as usize], UNKNOWN);
        self.value[var_of(lit) as usize] = value_of(lit);
        self.record(lit, reason);
    }

    /// The variables' values, one byte each: 0 unknown, else `1 + value` (see [`value_of`]).
    pub(super) fn values_mut(&mut self) -> &mut [u8] {
        &mut self.value
    }

    /// Completes the assignment of `lit`, whose value is already in the value table (as
    /// [`ClauseDb::propagate`](super::clauses::ClauseDb::propagate) leaves it).
    pub(super) fn record(&mut self, lit: Lit, reason: Reason) {
        let at = var_of(lit) as usize;
        debug_assert_eq!(self.value[at], value_of(lit));
        self.level[at] = self.decision_level();
        self.position[at] = self.trail.len() as u32;
        self.reason[at] = reason;
        self.trail.push(lit);
        self.cells.set(lit);
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
            self.value[var_of(lit) as usize] = UNKNOWN;
            self.cells.unset(lit);
            unassigned(lit);
        }
        self.trail.truncate(keep);
        self.level_starts.truncate(level as usize);
    }
}
