//! Conflict analysis: explaining why cells were forced, tracing a conflict back to its first
//! unique implication point, minimising the learned clause, and jumping back.

use super::{Conflict, Engine};
use crate::learn::assign::{Lit, Reason, cell_of, lit, negated, says_filled};
use crate::learn::explain::{Deduction, Known};
use crate::puzzle::LineId;

impl Engine<'_> {
    /// Appends to `out` the true literals that forced `cell` (none for decisions and root
    /// cells).
    fn antecedents(&mut self, cell: u32, out: &mut Vec<Lit>) {
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
    /// solution is left).
    pub(super) fn resolve(&mut self, conflict: Conflict) -> bool {
        let mut lits = std::mem::take(&mut self.scratch);
        lits.clear();
        self.conflict_lits(conflict, &mut lits);
        // The conflict may involve no literal of the current level (a blocking clause, say):
        // it then arose at the highest level among its literals.
        let top = lits
            .iter()
            .map(|&l| self.a.level[cell_of(l) as usize])
            .max()
            .unwrap_or(0);
        if top == 0 {
            self.scratch = lits;
            return false;
        }
        self.backtrack(top);
        let (learnt, jump) = self.analyze(&mut lits);
        self.scratch = lits;
        if jump + 1 < self.a.decision_level() {
            self.stats.backjumps += 1;
        }
        self.backtrack(jump);
        self.stats.learned += 1;
        if learnt.len() == 1 {
            self.assign(learnt[0], Reason::Root);
        } else {
            let lbd = self.lbd(&learnt);
            let asserted = learnt[0];
            let clause = self.db.add(&learnt, lbd, false);
            self.assign(asserted, Reason::Clause(clause));
        }
        true
    }

    /// First-UIP analysis of the conflict whose true literals are `lits` (which it uses as a
    /// buffer): returns the learned clause, its asserting literal first and a literal of the
    /// jump level second, and the level to jump back to.
    fn analyze(&mut self, lits: &mut Vec<Lit>) -> (Vec<Lit>, u32) {
        let level = self.a.decision_level();
        let mut learnt: Vec<Lit> = vec![0];
        let mut pending = 0usize;
        let mut at = self.a.trail.len();
        let uip = loop {
            for &l in lits.iter() {
                let cell = cell_of(l);
                let c = cell as usize;
                if self.seen[c] || self.a.level[c] == 0 {
                    continue;
                }
                self.seen[c] = true;
                self.order.bump(cell);
                if self.a.level[c] == level {
                    pending += 1;
                } else {
                    learnt.push(negated(l));
                }
            }
            let next = loop {
                at -= 1;
                let l = self.a.trail[at];
                if self.seen[cell_of(l) as usize] {
                    break l;
                }
            };
            self.seen[cell_of(next) as usize] = false;
            pending -= 1;
            if pending == 0 {
                break next;
            }
            lits.clear();
            self.antecedents(cell_of(next), lits);
        };
        learnt[0] = negated(uip);
        self.minimize(&mut learnt, lits);
        for &l in &learnt[1..] {
            self.seen[cell_of(l) as usize] = false;
        }
        // The literal of the highest level after the asserting one goes second (it is watched).
        let mut jump = 0;
        for i in 1..learnt.len() {
            let level = self.a.level[cell_of(learnt[i]) as usize];
            if level > jump {
                jump = level;
                learnt.swap(1, i);
            }
        }
        (learnt, jump)
    }

    /// Drops from `learnt` each literal (after the first) whose cell was forced by cells all
    /// already in the clause or at level 0. `seen` marks the clause's cells.
    fn minimize(&mut self, learnt: &mut Vec<Lit>, buffer: &mut Vec<Lit>) {
        let mut keep = 1;
        for i in 1..learnt.len() {
            let l = learnt[i];
            let cell = cell_of(l);
            let redundant = self.a.reason[cell as usize] != Reason::Decision && {
                buffer.clear();
                self.antecedents(cell, buffer);
                buffer.iter().all(|&a| {
                    let c = cell_of(a) as usize;
                    self.seen[c] || self.a.level[c] == 0
                })
            };
            if redundant {
                self.seen[cell as usize] = false;
            } else {
                learnt[keep] = l;
                keep += 1;
            }
        }
        self.stats.minimized += (learnt.len() - keep) as u64;
        learnt.truncate(keep);
    }

    /// The number of distinct decision levels among a clause's literals.
    fn lbd(&self, clause: &[Lit]) -> u32 {
        let mut levels: Vec<u32> = clause
            .iter()
            .map(|&l| self.a.level[cell_of(l) as usize])
            .collect();
        levels.sort_unstable();
        levels.dedup();
        levels.len() as u32
    }
}
