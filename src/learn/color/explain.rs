//! Explanations of colour line deductions: which facts of a line ("cell i is colour k", "cell
//! i is not colour k") rule a colour out of a cell, or leave the line no placement.
//!
//! As in black and white ([`crate::learn::explain`]), the explainer starts from every fact the
//! line held when it made the deduction and drops them one at a time, latest first, keeping
//! each drop after which the colour line solver still makes it; facts of level 0 always stay.
//! The result is minimal and prefers early facts.

use crate::color::Block;
use crate::color::ColorLineSolver;
use crate::color::cache::ColorLineCache;
use crate::line::Contradiction;

/// A fact of the line being explained: cell `index` is (`value`) or is not colour `color`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fact {
    pub(super) index: u32,
    pub(super) color: u8,
    pub(super) value: bool,
    /// Known at level 0: free, always kept.
    pub(super) root: bool,
    /// Trail position: later facts are tried first.
    pub(super) position: u32,
}

/// What an explanation must keep true.
#[derive(Clone, Copy, Debug)]
pub(super) enum ColorDeduction {
    /// The line has no placement.
    Contradiction,
    /// Cell `index` of the line cannot be colour `color`.
    RulesOut { index: u32, color: u8 },
}

/// Buffers for explaining, one per search.
#[derive(Debug, Default)]
pub(super) struct ColorExplainer {
    solver: ColorLineSolver,
    /// Per cell of the line: the colours ruled out, and the colours said true, by the facts in
    /// the line now.
    ruled_out: Vec<u64>,
    said: Vec<u64>,
    cells: Vec<u64>,
    out: Vec<u64>,
    kept: Vec<Fact>,
    /// Line-solver calls made while explaining.
    pub(super) line_solves: u64,
}

impl ColorExplainer {
    /// Shrinks `facts` (those a line's deduction was made from) to a minimal subset from which
    /// the colour line solver still makes `deduction`; returns the non-root facts kept. `all`
    /// is every colour of the palette; `(cache, line)` the line-result cache and the line.
    pub(super) fn explain(
        &mut self,
        clue: &[Block],
        len: usize,
        all: u64,
        (cache, line): (&mut ColorLineCache, usize),
        facts: &mut [Fact],
        deduction: ColorDeduction,
    ) -> &[Fact] {
        for v in [&mut self.ruled_out, &mut self.said] {
            v.clear();
            v.resize(len, 0);
        }
        self.cells.clear();
        self.cells.resize(len, all);
        self.out.clear();
        self.out.resize(len, 0);
        for f in facts.iter() {
            self.toggle(*f, all);
        }
        facts.sort_unstable_by_key(|f| (f.root, std::cmp::Reverse(f.position)));
        let candidates = facts.iter().take_while(|f| !f.root).count();
        self.kept.clear();
        for &fact in &facts[..candidates] {
            self.toggle(fact, all);
            if !self.still_holds(clue, (&mut *cache, line), deduction) {
                self.toggle(fact, all);
                self.kept.push(fact);
            }
        }
        &self.kept
    }

    /// Puts a fact into the line, or takes it out, and recomputes its cell.
    fn toggle(&mut self, fact: Fact, all: u64) {
        let i = fact.index as usize;
        let bit = 1u64 << fact.color;
        if fact.value {
            self.said[i] ^= bit;
        } else {
            self.ruled_out[i] ^= bit;
        }
        let said = match self.said[i] {
            0 => all,
            one if one.is_power_of_two() => one,
            _ => 0,
        };
        self.cells[i] = all & !self.ruled_out[i] & said;
    }

    /// Whether the line solver makes `deduction` from the facts in the line now.
    fn still_holds(
        &mut self,
        clue: &[Block],
        (cache, line): (&mut ColorLineCache, usize),
        deduction: ColorDeduction,
    ) -> bool {
        self.line_solves += 1;
        let result = if self.cells.contains(&0) {
            Err(Contradiction)
        } else {
            cache.solve(&mut self.solver, line, clue, &self.cells, &mut self.out)
        };
        match (deduction, result) {
            (_, Err(Contradiction)) => true,
            (ColorDeduction::Contradiction, Ok(())) => false,
            (ColorDeduction::RulesOut { index, color }, Ok(())) => {
                self.out[index as usize] & (1u64 << color) == 0
            }
        }
    }
}
