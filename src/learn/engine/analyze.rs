//! Conflict analysis: explaining why variables were forced (the trail and reasons that
//! [`crate::learn::analysis`] traces back to the first unique implication point), learning the
//! clause and jumping back.

use super::{Conflict, Engine};
use crate::learn::analysis::{self, Implications, Learned};
use crate::learn::assign::Reason;
use crate::learn::domain::LearnDomain;
use crate::learn::explain::{Deduction, Fact, LineCheck, shrink};
use crate::learn::lit::{Lit, lit, negated, value};
use crate::learn::recall::Digest;
use crate::puzzle::LineId;

impl<D: LearnDomain> Implications for Engine<'_, D> {
    fn decision_level(&self) -> u32 {
        self.a.decision_level()
    }

    fn level(&self, var: u32) -> u32 {
        self.a.level[var as usize]
    }

    fn trail(&self) -> &[Lit] {
        &self.a.trail
    }

    fn is_decision(&self, var: u32) -> bool {
        self.a.reason[var as usize] == Reason::Decision
    }

    fn antecedents(&mut self, var: u32, out: &mut Vec<Lit>, ending: &mut dyn FnMut() -> bool) {
        self.var_antecedents(var, out, ending);
    }

    fn bump(&mut self, var: u32) {
        self.order.bump(var);
    }

    fn seen(&mut self) -> &mut [bool] {
        &mut self.seen
    }
}

impl<D: LearnDomain> Engine<'_, D> {
    /// Appends to `out` the true literals that forced `var` (none for decisions and root
    /// variables); `ending` as [`Self::explain_line`] takes it.
    fn var_antecedents(&mut self, var: u32, out: &mut Vec<Lit>, ending: &mut dyn FnMut() -> bool) {
        let v = var as usize;
        match self.a.reason[v] {
            Reason::Root | Reason::Decision => {}
            Reason::Clause(clause) => {
                self.clause_used(clause);
                self.db.antecedents(clause, out);
            }
            Reason::Cell => self.puzzle.cell_antecedents(&self.a, var, out),
            Reason::Line { .. } if self.explained[v] => {
                out.extend_from_slice(&self.explanations[v]);
            }
            Reason::Line { line, mark } => {
                let line = self.shape.line(line);
                let per_cell = self.puzzle.vars_per_cell();
                let cell = v / per_cell;
                let deduction = Deduction::Forces {
                    index: self.shape.index_in_line(line, cell) as u32,
                    sub: (v % per_cell) as u8,
                    value: value(self.a.true_lit(var)),
                };
                let start = out.len();
                self.explain_line((line, mark), Some(var), deduction, out, ending);
                let saved = &mut self.explanations[v];
                saved.clear();
                saved.extend_from_slice(&out[start..]);
                self.explained[v] = true;
            }
        }
    }

    /// Appends to `out` the true literals of a minimal explanation of `deduction` in `line`
    /// from the variables set before trail position `mark` (other than `except`). Once
    /// `ending` says the search is ending (see [`super::Hurry`]), of every such variable instead.
    fn explain_line(
        &mut self,
        (line, mark): (LineId, u32),
        except: Option<u32>,
        deduction: Deduction,
        out: &mut Vec<Lit>,
        ending: &mut dyn FnMut() -> bool,
    ) {
        let shape = self.shape;
        let per_cell = self.puzzle.vars_per_cell();
        self.facts.clear();
        let index = shape.index(line);
        let puzzle = self.puzzle;
        let mut check = puzzle.line_check(&mut self.lines, (line, index));
        // Positions on the trail rise with the level: the variables of level 0 are those set
        // before the first decision.
        let root_end = if self.a.decision_level() == 0 {
            u32::MAX
        } else {
            self.a.level_start(1) as u32
        };
        let (start, step) = shape.start_and_step(line);
        let (a, facts) = (&self.a, &mut self.facts);
        let mut digest = Digest::new(index, deduction);
        // Offers variable `sub` of cell `i` of the line, set to `value`, as a fact. Facts of
        // level 0 cost nothing in a clause: they go into the line and stay; the others wait
        // in `facts` for the cache or for shrinking.
        let mut offer = |i: usize, sub: usize, value: bool| {
            let var = (start + i * step) * per_cell + sub;
            debug_assert_eq!(a.true_lit(var as u32), lit(var as u32, value));
            let at = a.position[var];
            if at >= mark || Some(var as u32) == except {
                return;
            }
            let fact = Fact::new(at, i as u32, sub as u8, value);
            digest.add(fact);
            if at >= root_end {
                facts.push(fact);
            } else {
                check.toggle(&fact);
            }
        };
        if let Some((filled, empty)) = D::known_planes(&a.cells, line) {
            // Only the known cells, from the bits of the line's planes.
            for (plane, value) in [(filled, true), (empty, false)] {
                for (w, &word) in plane.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        offer(w * 64 + bits.trailing_zeros() as usize, 0, value);
                        bits &= bits - 1;
                    }
                }
            }
        } else {
            for i in 0..shape.len(line) {
                let first = (start + i * step) * per_cell;
                for sub in 0..per_cell {
                    let var = (first + sub) as u32;
                    if !a.is_unknown(var) {
                        offer(i, sub, value(a.true_lit(var)));
                    }
                }
            }
        }
        if self
            .recalled
            .recall(digest, &self.facts, &mut check, deduction, &mut self.kept)
        {
            self.stats.explain_solves += 1;
            self.stats.explanations_recalled += 1;
        } else if self.hurry.ending(ending) {
            // Ending: every fact the deduction was made from, unshrunk.
            self.kept.clone_from(&self.facts);
        } else {
            for fact in &self.facts {
                check.toggle(fact);
            }
            let group = self.group_size.get();
            self.stats.explain_solves += shrink(
                &mut check,
                &mut self.facts,
                deduction,
                group,
                &mut self.kept,
            );
            self.group_size.note(self.facts.len(), self.kept.len());
            self.recalled.store(digest, &self.kept);
        }
        for f in &self.kept {
            let var = shape.cell(line, f.index() as usize) * per_cell + usize::from(f.sub());
            out.push(lit(var as u32, f.value()));
        }
    }

    /// Tells the clause database that conflict analysis uses `clause` (all its literals set).
    fn clause_used(&mut self, clause: u32) {
        let (level, levels) = (&self.a.level, &mut self.levels);
        self.db.used(clause, |lits| levels.distinct(level, lits));
    }

    /// The true literals that together contradict.
    fn conflict_lits(
        &mut self,
        conflict: Conflict,
        out: &mut Vec<Lit>,
        ending: &mut dyn FnMut() -> bool,
    ) {
        match conflict {
            Conflict::Clause(clause) => {
                self.clause_used(clause);
                out.extend(self.db.lits(clause).iter().map(|&l| negated(l)));
            }
            Conflict::Line(line) => {
                let mark = self.a.trail.len() as u32;
                self.explain_line((line, mark), None, Deduction::Contradiction, out, ending);
            }
            Conflict::Cell(cell) => self.puzzle.cell_conflict(&self.a, cell, out),
        }
    }

    /// Learns from a conflict and jumps back; `false` if the conflict holds at level 0 (no
    /// solution is left) or, in a check of [`super::within`], at the level of its assumptions.
    /// `ending` says whether the search is ending (see [`super::Hurry`]).
    pub(super) fn resolve(&mut self, conflict: Conflict, ending: &mut dyn FnMut() -> bool) -> bool {
        self.hurry.start();
        let mut lits = std::mem::take(&mut self.scratch);
        lits.clear();
        self.conflict_lits(conflict, &mut lits, ending);
        // The conflict may involve no literal of the current level (a blocking clause, say):
        // it then arose at the highest level among its literals.
        let top = analysis::top_level(self, &lits);
        if top > 0 {
            let prefix = &self.a.trail[..self.a.level_start(top)];
            self.stats.deepest = self.stats.deepest.max(prefix.len() as u64);
            self.order.conflict_free(prefix);
        }
        if top <= self.floor {
            self.scratch = lits;
            return false;
        }
        self.backtrack(top);
        let Learned {
            clause: learnt,
            jump,
            minimized,
        } = analysis::analyze(self, &mut lits, ending);
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
        let lbd = self.levels.distinct(&self.a.level, &learnt);
        let reason = self.db.add_asserting(&learnt, lbd, false);
        if let Some(sharing) = &mut self.sharing {
            sharing.offer(&learnt, lbd);
        }
        if learnt.len() == 1 && jump > 0 {
            self.units.push(learnt[0]);
        }
        self.assign(learnt[0], reason);
        true
    }
}
