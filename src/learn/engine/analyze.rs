//! Conflict analysis for black and white: explaining why cells were forced (the trail and
//! reasons that [`crate::learn::analysis`] traces back to the first unique implication point),
//! learning the clause and jumping back.

use super::{Conflict, Engine};
use crate::learn::analysis::{self, Implications, Learned};
use crate::learn::assign::{Lit, Reason, lit, negated, says_filled};
use crate::learn::explain::{Deduction, Known};
use crate::puzzle::LineId;

impl Implications for Engine<'_> {
    fn decision_level(&self) -> u32 {
        self.a.decision_level()
    }

    fn level(&self, cell: u32) -> u32 {
        self.a.level[cell as usize]
    }

    fn trail(&self) -> &[Lit] {
        &self.a.trail
    }

    fn is_decision(&self, cell: u32) -> bool {
        self.a.reason[cell as usize] == Reason::Decision
    }

    fn antecedents(&mut self, cell: u32, out: &mut Vec<Lit>) {
        self.cell_antecedents(cell, out);
    }

    fn bump(&mut self, cell: u32) {
        self.order.bump(cell);
    }

    fn seen(&mut self) -> &mut [bool] {
        &mut self.seen
    }
}

impl Engine<'_> {
    /// Appends to `out` the true literals that forced `cell` (none for decisions and root
    /// cells).
    fn cell_antecedents(&mut self, cell: u32, out: &mut Vec<Lit>) {
        match self.a.reason[cell as usize] {
            Reason::Root | Reason::Decision => {}
            Reason::Clause(clause) => self.db.antecedents(clause, out),
            Reason::Line { .. } if self.explained[cell as usize] => {
                out.extend_from_slice(&self.explanations[cell as usize]);
            }
            Reason::Line { line, mark } => {
                let target = self.a.true_lit(cell);
                let index = self.index_in_line(line, cell);
                let deduction = Deduction::Forces {
                    index,
                    filled: says_filled(target),
                };
                let start = out.len();
                self.explain_line(line, mark, Some(cell), deduction, out);
                let saved = &mut self.explanations[cell as usize];
                saved.clear();
                saved.extend_from_slice(&out[start..]);
                self.explained[cell as usize] = true;
            }
        }
    }

    fn index_in_line(&self, line: LineId, cell: u32) -> u32 {
        let width = self.a.width as u32;
        match line {
            LineId::Row(_) => cell % width,
            LineId::Col(_) => cell / width,
        }
    }

    /// Appends to `out` the true literals of a minimal explanation of `deduction` in `line`
    /// from the cells set before trail position `mark` (other than `except`).
    fn explain_line(
        &mut self,
        line: LineId,
        mark: u32,
        except: Option<u32>,
        deduction: Deduction,
        out: &mut Vec<Lit>,
    ) {
        let len = self.a.grid.line_len(line);
        self.known.clear();
        for i in 0..len {
            let cell = self.a.line_cell(line, i);
            if self.a.is_unknown(cell)
                || Some(cell) == except
                || self.a.position[cell as usize] >= mark
            {
                continue;
            }
            self.known.push(Known {
                index: i as u32,
                filled: says_filled(self.a.true_lit(cell)),
                root: self.a.level[cell as usize] == 0,
                position: self.a.position[cell as usize],
            });
        }
        let clue = self.puzzle.clue(line).blocks();
        let index = self.line_index(line) as u32;
        let kept = self.explainer.explain(
            clue,
            len,
            (&mut self.cache, index),
            &mut self.known,
            deduction,
        );
        for k in kept {
            let cell = self.a.line_cell(line, k.index as usize);
            out.push(lit(cell, k.filled));
        }
    }

    /// The true literals that together contradict.
    fn conflict_lits(&mut self, conflict: Conflict, out: &mut Vec<Lit>) {
        match conflict {
            Conflict::Clause(clause) => {
                let lits = self.db.lits(clause);
                out.extend(lits.iter().map(|&l| negated(l)));
            }
            Conflict::Line(line) => {
                let mark = self.a.trail.len() as u32;
                self.explain_line(line, mark, None, Deduction::Contradiction, out);
            }
        }
    }

    /// Learns from a conflict and jumps back; `false` if the conflict holds at level 0 (no
    /// solution is left) or, in a check of [`super::within`], at the level of its assumptions.
    pub(super) fn resolve(&mut self, conflict: Conflict) -> bool {
        let mut lits = std::mem::take(&mut self.scratch);
        lits.clear();
        self.conflict_lits(conflict, &mut lits);
        // The conflict may involve no literal of the current level (a blocking clause, say):
        // it then arose at the highest level among its literals.
        let top = analysis::top_level(self, &lits);
        if top <= self.floor {
            self.scratch = lits;
            return false;
        }
        self.backtrack(top);
        let Learned {
            clause: learnt,
            jump,
            minimized,
        } = analysis::analyze(self, &mut lits);
        self.scratch = lits;
        self.stats.minimized += minimized as u64;
        if jump + 1 < self.a.decision_level() {
            self.stats.backjumps += 1;
        }
        // Never below the assumptions: a clause that would assert at a lower level asserts at
        // theirs, and one of a single literal is also kept to assert at level 0 later.
        let jump = jump.max(self.floor);
        self.backtrack(jump);
        self.stats.learned += 1;
        let lbd = analysis::lbd(self, &learnt);
        let reason: Reason = self.db.add_asserting(&learnt, lbd, false);
        if learnt.len() == 1 && jump > 0 {
            self.units.push(learnt[0]);
        }
        self.assign(learnt[0], reason);
        true
    }
}
