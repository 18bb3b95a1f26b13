//! The assignment of a colour learning search: one variable per cell and colour, "the cell has
//! this colour", with each variable's value, decision level, trail position and reason, and
//! each cell's set of colours not ruled out yet (what the colour line solver reads).
//!
//! Literals are `2 * variable + value` as in black and white, so clauses, the decision order
//! and conflict analysis are shared. A cell has exactly one colour: a true variable makes the
//! cell's others false, and a cell whose variables are all false but one makes that one true
//! ([`ColorReason::Cell`]).

use super::super::assign::{Lit, cell_of as var_of};
use super::super::clauses::value_of;
use crate::learn::clauses::ClauseReason;
use crate::puzzle::LineId;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ColorReason {
    /// Known before the search: level 0.
    Root,
    /// Chosen by the search.
    Decision,
    /// Ruled out by a line's clue and the variables of the line set before trail position
    /// `mark`.
    Line { line: LineId, mark: u32 },
    /// Forced by a learned clause whose other literals are all false.
    Clause(u32),
    /// Forced by the cell having exactly one colour: false because another colour of the cell
    /// is true, or true because every other colour of the cell is false.
    Cell,
}

impl ClauseReason for ColorReason {
    const ROOT: Self = ColorReason::Root;

    fn clause(clause: u32) -> Self {
        ColorReason::Clause(clause)
    }

    fn clause_mut(&mut self) -> Option<&mut u32> {
        match self {
            ColorReason::Clause(c) => Some(c),
            _ => None,
        }
    }
}

// The value table's entries (see [`value_of`]).
const UNKNOWN: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
/// `chosen` of a cell with no true variable.
pub(super) const NO_COLOR: u8 = u8::MAX;

/// The variables' values with their levels, trail positions and reasons.
#[derive(Debug)]
pub(super) struct ColorAssignment {
    /// Colours in the palette (variables per cell).
    pub(super) colors: usize,
    pub(super) width: usize,
    value: Vec<u8>,
    pub(super) level: Vec<u32>,
    pub(super) position: Vec<u32>,
    pub(super) reason: Vec<ColorReason>,
    /// The true literals, oldest first.
    pub(super) trail: Vec<Lit>,
    /// Where on the trail each decision level after 0 starts (its decision).
    level_starts: Vec<u32>,
    /// Each cell's colours whose variable is not false.
    pub(super) sets: Vec<u64>,
    /// Each cell's colour whose variable is true, or [`NO_COLOR`].
    pub(super) chosen: Vec<u8>,
}

impl ColorAssignment {
    /// An assignment of a `height` x `width` grid of `colors` colours, every variable unknown.
    pub(super) fn new(height: usize, width: usize, colors: usize) -> Self {
        let vars = height * width * colors;
        let all = if colors == 64 {
            u64::MAX
        } else {
            (1u64 << colors) - 1
        };
        ColorAssignment {
            colors,
            width,
            value: vec![UNKNOWN; vars],
            level: vec![0; vars],
            position: vec![0; vars],
            reason: vec![ColorReason::Root; vars],
            trail: Vec::with_capacity(vars),
            level_starts: Vec::new(),
            sets: vec![all; height * width],
            chosen: vec![NO_COLOR; height * width],
        }
    }

    /// The number of variables.
    pub(super) fn vars(&self) -> usize {
        self.value.len()
    }

    /// The variable "`cell` has colour `color`".
    pub(super) fn var(&self, cell: usize, color: usize) -> u32 {
        (cell * self.colors + color) as u32
    }

    /// The cell and colour of a variable.
    pub(super) fn cell_color(&self, var: u32) -> (usize, usize) {
        let var = var as usize;
        (var / self.colors, var % self.colors)
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

    /// Whether `var` is true.
    pub(super) fn is_set_true(&self, var: u32) -> bool {
        self.value[var as usize] == TRUE
    }

    /// Whether `lit` is false.
    pub(super) fn is_false(&self, lit: Lit) -> bool {
        self.value[var_of(lit) as usize] == if lit & 1 == 1 { FALSE } else { TRUE }
    }

    /// The decisions of levels `1..=decision_level()`, in order.
    pub(super) fn decisions(&self) -> impl Iterator<Item = Lit> + '_ {
        self.level_starts.iter().map(|&at| self.trail[at as usize])
    }

    /// Makes `lit` true (its variable must be unknown) at the current level.
    pub(super) fn assign(&mut self, lit: Lit, reason: ColorReason) {
        debug_assert_eq!(self.value[var_of(lit) as usize], UNKNOWN);
        self.value[var_of(lit) as usize] = value_of(lit);
        self.record(lit, reason);
    }

    /// The variables' values, one byte each: 0 unknown, 1 false, 2 true (see [`value_of`]).
    pub(super) fn values_mut(&mut self) -> &mut [u8] {
        &mut self.value
    }

    /// Completes the assignment of `lit`, whose value is already in the value table (as
    /// clause propagation leaves it).
    pub(super) fn record(&mut self, lit: Lit, reason: ColorReason) {
        let var = var_of(lit);
        let at = var as usize;
        debug_assert_eq!(self.value[at], value_of(lit));
        let (cell, color) = self.cell_color(var);
        if lit & 1 == 1 {
            self.chosen[cell] = color as u8;
        } else {
            self.sets[cell] &= !(1u64 << color);
        }
        self.level[at] = self.decision_level();
        self.position[at] = self.trail.len() as u32;
        self.reason[at] = reason;
        self.trail.push(lit);
    }

    /// Opens a new decision level and makes `lit` true as its decision.
    pub(super) fn decide(&mut self, lit: Lit) {
        self.level_starts.push(self.trail.len() as u32);
        self.assign(lit, ColorReason::Decision);
    }

    /// Undoes every level above `level`, calling `unassigned` with each literal undone.
    pub(super) fn backtrack(&mut self, level: u32, mut unassigned: impl FnMut(Lit)) {
        if level >= self.decision_level() {
            return;
        }
        let keep = self.level_starts[level as usize] as usize;
        for &lit in &self.trail[keep..] {
            let var = var_of(lit);
            let (cell, color) = (var as usize / self.colors, var as usize % self.colors);
            self.value[var as usize] = UNKNOWN;
            if lit & 1 == 1 {
                self.chosen[cell] = NO_COLOR;
            } else {
                self.sets[cell] |= 1u64 << color;
            }
            unassigned(lit);
        }
        self.trail.truncate(keep);
        self.level_starts.truncate(level as usize);
    }

    /// The cell at index `i` of `line`.
    pub(super) fn line_cell(&self, line: LineId, i: usize) -> usize {
        match line {
            LineId::Row(r) => r * self.width + i,
            LineId::Col(c) => i * self.width + c,
        }
    }
}
