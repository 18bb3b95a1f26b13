//! The colour learning search loop: propagate (clauses, the one-colour-per-cell rule, lines),
//! and on a conflict learn a clause and jump back; at a fixpoint decide a variable; at a
//! complete grid report it and block it.

use std::collections::VecDeque;

use super::assign::{ColorAssignment, ColorReason, NO_COLOR};
use super::explain::{ColorDeduction, ColorExplainer, Fact};
use crate::color::cache::ColorLineCache;
use crate::color::{ColorGrid, ColorLineSolver, ColorPuzzle};
use crate::learn::LearnStats;
use crate::learn::analysis::{self, Implications, Learned};
use crate::learn::assign::{Lit, cell_of as var_of, lit, negated};
use crate::learn::clauses::ClauseDb;
use crate::learn::order::Order;
use crate::learn::schedule::Cdcl;
use crate::puzzle::LineId;
use crate::search::Flow;

/// A conflict: a line with no placement, a clause with every literal false, or a cell with no
/// colour left or two.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Line(LineId),
    Clause(u32),
    Cell(usize),
}

/// The state of one colour learning search.
pub(super) struct ColorEngine<'p> {
    puzzle: &'p ColorPuzzle,
    all: u64,
    a: ColorAssignment,
    db: ClauseDb,
    order: Order,
    explainer: ColorExplainer,
    solver: ColorLineSolver,
    cache: ColorLineCache,
    line_in: Vec<u64>,
    line_out: Vec<u64>,
    queue: VecDeque<LineId>,
    queued: Vec<bool>,
    /// Trail position up to which clauses and the cell rule have been propagated.
    head: usize,
    seen: Vec<bool>,
    scratch: Vec<Lit>,
    /// Literals implied by clauses, with their clauses.
    implied: Vec<(Lit, u32)>,
    facts: Vec<Fact>,
    /// The explanation of each line-ruled-out variable, once a conflict has asked for it;
    /// valid while `explained` (until the variable is unset).
    explanations: Vec<Vec<Lit>>,
    explained: Vec<bool>,
    pub(super) stats: LearnStats,
}

impl<'p> ColorEngine<'p> {
    /// A search whose level 0 is `root` (a grid at a propagation fixpoint).
    pub(super) fn new(puzzle: &'p ColorPuzzle, root: &ColorGrid) -> Self {
        let (height, width) = (puzzle.height(), puzzle.width());
        let colors = puzzle.colors.len();
        let mut a = ColorAssignment::new(height, width, colors);
        for (cell, &set) in root.cells().iter().enumerate() {
            for color in 0..colors {
                let var = a.var(cell, color);
                if set & (1 << color) == 0 {
                    a.assign(lit(var, false), ColorReason::Root);
                } else if set.is_power_of_two() {
                    a.assign(lit(var, true), ColorReason::Root);
                }
            }
        }
        let vars = a.vars();
        let mut cache = ColorLineCache::default();
        cache.configure(height + width, height.max(width), puzzle.all_colors());
        let head = a.trail.len();
        let mut engine = ColorEngine {
            puzzle,
            all: puzzle.all_colors(),
            a,
            db: ClauseDb::new(vars),
            // Root variables stay in the heap: decisions skip variables already set.
            order: Order::new(vars),
            explainer: ColorExplainer::default(),
            solver: ColorLineSolver::default(),
            cache,
            line_in: Vec::new(),
            line_out: Vec::new(),
            queue: VecDeque::new(),
            queued: vec![false; height + width],
            head,
            seen: vec![false; vars],
            scratch: Vec::new(),
            implied: Vec::new(),
            facts: Vec::new(),
            explanations: vec![Vec::new(); vars],
            explained: vec![false; vars],
            stats: LearnStats::default(),
        };
        for row in 0..height {
            engine.enqueue(LineId::Row(row));
        }
        for col in 0..width {
            engine.enqueue(LineId::Col(col));
        }
        engine
    }

    /// The counters so far.
    pub(super) fn snapshot(&self) -> LearnStats {
        LearnStats {
            explain_solves: self.explainer.line_solves,
            cache_lookups: self.cache.lookups,
            cache_hits: self.cache.hits,
            ..self.stats
        }
    }

    /// The grid of the current (complete) assignment.
    fn grid(&self) -> ColorGrid {
        let (height, width) = (self.puzzle.height(), self.puzzle.width());
        let mut grid = ColorGrid::new(height, width, self.all);
        for (cell, &set) in self.a.sets.iter().enumerate() {
            // A complete assignment leaves every cell one colour.
            let _ = grid.narrow(cell / width, cell % width, set);
        }
        grid
    }

    fn decide(&mut self) {
        let var = loop {
            let var = self
                .order
                .pop()
                .expect("an incomplete assignment has an unknown variable in the heap");
            if self.a.is_unknown(var) {
                break var;
            }
        };
        self.stats.decisions += 1;
        let l = lit(var, self.order.phase[var as usize]);
        self.a.decide(l);
        self.lines_changed(l);
    }

    /// Sets `l`.
    fn assign(&mut self, l: Lit, reason: ColorReason) {
        self.a.assign(l, reason);
        self.lines_changed(l);
    }

    /// Queues the row and column of the variable of `l` (just set) if their cells changed: a
    /// ruled-out colour changes a cell; a true one only through the others it rules out.
    fn lines_changed(&mut self, l: Lit) {
        if l & 1 == 0 {
            let (cell, _) = self.a.cell_color(var_of(l));
            let width = self.a.width;
            self.enqueue(LineId::Row(cell / width));
            self.enqueue(LineId::Col(cell % width));
        }
    }

    fn enqueue(&mut self, line: LineId) {
        let index = self.line_index(line);
        if !self.queued[index] {
            self.queued[index] = true;
            self.queue.push_back(line);
        }
    }

    fn line_index(&self, line: LineId) -> usize {
        match line {
            LineId::Row(r) => r,
            LineId::Col(c) => self.puzzle.height() + c,
        }
    }

    fn clear_queue(&mut self) {
        while let Some(line) = self.queue.pop_front() {
            let index = self.line_index(line);
            self.queued[index] = false;
        }
    }

    /// Propagates clauses, the cell rule and lines to a fixpoint; returns the conflict if one
    /// is found.
    fn propagate(&mut self) -> Option<Conflict> {
        loop {
            while self.head < self.a.trail.len() {
                let l = self.a.trail[self.head];
                self.head += 1;
                let conflict = match self.propagate_clauses(l) {
                    Some(clause) => Some(Conflict::Clause(clause)),
                    None => self.cell_rule(l),
                };
                if conflict.is_some() {
                    self.clear_queue();
                    return conflict;
                }
            }
            let line = self.queue.pop_front()?;
            let index = self.line_index(line);
            self.queued[index] = false;
            if !self.solve_line(line) {
                self.clear_queue();
                return Some(Conflict::Line(line));
            }
        }
    }

    /// One colour per cell: a true variable rules out the cell's other colours; a cell left
    /// with one possible colour takes it.
    fn cell_rule(&mut self, l: Lit) -> Option<Conflict> {
        let (cell, color) = self.a.cell_color(var_of(l));
        if l & 1 == 1 {
            for other in 0..self.a.colors {
                let var = self.a.var(cell, other);
                if other == color || self.a.is_false(lit(var, true)) {
                    continue;
                }
                if self.a.is_set_true(var) {
                    return Some(Conflict::Cell(cell));
                }
                self.assign(lit(var, false), ColorReason::Cell);
            }
            return None;
        }
        if self.a.chosen[cell] != NO_COLOR {
            return None;
        }
        let set = self.a.sets[cell];
        if set == 0 {
            return Some(Conflict::Cell(cell));
        }
        if set.is_power_of_two() {
            let var = self.a.var(cell, set.trailing_zeros() as usize);
            self.assign(lit(var, true), ColorReason::Cell);
        }
        None
    }

    /// Solves one line and rules out what it rules out; `false` if the line has no placement.
    fn solve_line(&mut self, line: LineId) -> bool {
        self.stats.line_solves += 1;
        let len = match line {
            LineId::Row(_) => self.puzzle.width(),
            LineId::Col(_) => self.puzzle.height(),
        };
        self.line_in.clear();
        for i in 0..len {
            self.line_in.push(self.a.sets[self.a.line_cell(line, i)]);
        }
        self.line_out.resize(len, 0);
        let index = self.line_index(line);
        let clue = self.puzzle.clue(line).blocks();
        if self
            .cache
            .solve(
                &mut self.solver,
                index,
                clue,
                &self.line_in,
                &mut self.line_out,
            )
            .is_err()
        {
            return false;
        }
        let mark = self.a.trail.len() as u32;
        for i in 0..len {
            let mut ruled_out = self.line_in[i] & !self.line_out[i];
            let cell = self.a.line_cell(line, i);
            while ruled_out != 0 {
                let var = self.a.var(cell, ruled_out.trailing_zeros() as usize);
                self.assign(lit(var, false), ColorReason::Line { line, mark });
                ruled_out &= ruled_out - 1;
            }
        }
        true
    }

    /// Propagates the clauses watching the literal that `l` (just made true) made false;
    /// returns a clause whose literals are all false, if there is one.
    fn propagate_clauses(&mut self, l: Lit) -> Option<u32> {
        let mut implied = std::mem::take(&mut self.implied);
        implied.clear();
        let conflict = self
            .db
            .propagate(negated(l), self.a.values_mut(), &mut implied);
        for &(l, clause) in &implied {
            self.a.record(l, ColorReason::Clause(clause));
            self.lines_changed(l);
        }
        self.implied = implied;
        conflict
    }

    /// Excludes the complete assignment just reported, by a clause that no decision of its
    /// path can stay; `false` if it had no decisions (it was the last solution).
    fn block_solution(&mut self) -> bool {
        let level = self.a.decision_level();
        if level == 0 {
            return false;
        }
        let mut blocking: Vec<Lit> = self.a.decisions().map(negated).collect();
        blocking.reverse();
        self.backtrack(level - 1);
        let reason = self.db.add_blocking(&blocking);
        self.assign(blocking[0], reason);
        true
    }

    /// Deletes half of the learned clauses, keeping the reasons of the variables set now.
    fn reduce(&mut self) {
        let deleted = self.db.reduce_keeping(&self.a.trail, &mut self.a.reason);
        self.stats.deleted += deleted as u64;
    }

    /// Undoes every level above `level`, saving phases and returning variables to the heap.
    fn backtrack(&mut self, level: u32) {
        if level >= self.a.decision_level() {
            return;
        }
        let order = &mut self.order;
        let explained = &mut self.explained;
        self.a.backtrack(level, |l| {
            let var = var_of(l);
            explained[var as usize] = false;
            order.phase[var as usize] = l & 1 == 1;
            order.insert(var);
        });
        self.head = self.head.min(self.a.trail.len());
        self.clear_queue();
    }

    /// Appends to `out` the true literals of a minimal explanation of `deduction` in `line`
    /// from the facts set before trail position `mark`.
    fn explain_line(
        &mut self,
        line: LineId,
        mark: u32,
        deduction: ColorDeduction,
        out: &mut Vec<Lit>,
    ) {
        let len = match line {
            LineId::Row(_) => self.puzzle.width(),
            LineId::Col(_) => self.puzzle.height(),
        };
        self.facts.clear();
        for i in 0..len {
            let cell = self.a.line_cell(line, i);
            for color in 0..self.a.colors {
                let var = self.a.var(cell, color);
                let v = var as usize;
                if self.a.is_unknown(var) || self.a.position[v] >= mark {
                    continue;
                }
                self.facts.push(Fact {
                    index: i as u32,
                    color: color as u8,
                    value: self.a.is_set_true(var),
                    root: self.a.level[v] == 0,
                    position: self.a.position[v],
                });
            }
        }
        let clue = self.puzzle.clue(line).blocks();
        let index = self.line_index(line);
        let kept = self.explainer.explain(
            clue,
            len,
            self.all,
            (&mut self.cache, index),
            &mut self.facts,
            deduction,
        );
        for f in kept {
            let var = self
                .a
                .var(self.a.line_cell(line, f.index as usize), f.color as usize);
            out.push(lit(var, f.value));
        }
    }

    /// The true literals that together contradict.
    fn conflict_lits(&mut self, conflict: Conflict, out: &mut Vec<Lit>) {
        match conflict {
            Conflict::Clause(clause) => {
                out.extend(self.db.lits(clause).iter().map(|&l| negated(l)));
            }
            Conflict::Line(line) => {
                let mark = self.a.trail.len() as u32;
                self.explain_line(line, mark, ColorDeduction::Contradiction, out);
            }
            Conflict::Cell(cell) => {
                let vars = (0..self.a.colors).map(|color| self.a.var(cell, color));
                let chosen: Vec<u32> = vars.clone().filter(|&v| self.a.is_set_true(v)).collect();
                if chosen.len() >= 2 {
                    out.extend(chosen[..2].iter().map(|&v| lit(v, true)));
                } else {
                    out.extend(vars.map(|v| lit(v, false)));
                }
            }
        }
    }

    /// Learns from a conflict and jumps back; `false` if the conflict holds at level 0 (no
    /// solution is left).
    fn resolve(&mut self, conflict: Conflict) -> bool {
        let mut lits = std::mem::take(&mut self.scratch);
        lits.clear();
        self.conflict_lits(conflict, &mut lits);
        let top = analysis::top_level(self, &lits);
        if top == 0 {
            self.scratch = lits;
            return false;
        }
        self.backtrack(top);
        let Learned {
            clause,
            jump,
            minimized,
        } = analysis::analyze(self, &mut lits);
        self.scratch = lits;
        self.stats.minimized += minimized as u64;
        if jump + 1 < self.a.decision_level() {
            self.stats.backjumps += 1;
        }
        self.backtrack(jump);
        self.stats.learned += 1;
        let lbd = analysis::lbd(self, &clause);
        let reason: ColorReason = self.db.add_asserting(&clause, lbd, false);
        self.assign(clause[0], reason);
        true
    }
}

impl Implications for ColorEngine<'_> {
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
        self.a.reason[var as usize] == ColorReason::Decision
    }

    fn antecedents(&mut self, var: u32, out: &mut Vec<Lit>) {
        let v = var as usize;
        match self.a.reason[v] {
            ColorReason::Root | ColorReason::Decision => {}
            ColorReason::Clause(clause) => self.db.antecedents(clause, out),
            ColorReason::Cell => {
                let (cell, color) = self.a.cell_color(var);
                if self.a.is_set_true(var) {
                    // Every other colour of the cell was ruled out.
                    for other in (0..self.a.colors).filter(|&c| c != color) {
                        out.push(lit(self.a.var(cell, other), false));
                    }
                } else {
                    // The cell's true colour ruled this one out.
                    let chosen = self.a.chosen[cell] as usize;
                    out.push(lit(self.a.var(cell, chosen), true));
                }
            }
            ColorReason::Line { .. } if self.explained[v] => {
                out.extend_from_slice(&self.explanations[v]);
            }
            ColorReason::Line { line, mark } => {
                let (cell, color) = self.a.cell_color(var);
                let index = match line {
                    LineId::Row(_) => cell % self.a.width,
                    LineId::Col(_) => cell / self.a.width,
                };
                let deduction = ColorDeduction::RulesOut {
                    index: index as u32,
                    color: color as u8,
                };
                let start = out.len();
                self.explain_line(line, mark, deduction, out);
                let saved = &mut self.explanations[v];
                saved.clear();
                saved.extend_from_slice(&out[start..]);
                self.explained[v] = true;
            }
        }
    }

    fn bump(&mut self, var: u32) {
        self.order.bump(var);
    }

    fn seen(&mut self) -> &mut [bool] {
        &mut self.seen
    }
}

impl Cdcl for ColorEngine<'_> {
    type Conflict = Conflict;
    type Solution = ColorGrid;

    fn propagate(&mut self) -> Option<Conflict> {
        ColorEngine::propagate(self)
    }

    fn resolve(&mut self, conflict: Conflict) -> bool {
        ColorEngine::resolve(self, conflict)
    }

    fn is_complete(&self) -> bool {
        self.a.is_complete()
    }

    fn report(&self, on_solution: &mut impl FnMut(&ColorGrid) -> Flow) -> Flow {
        on_solution(&self.grid())
    }

    fn block_solution(&mut self) -> bool {
        ColorEngine::block_solution(self)
    }

    fn decay(&mut self) {
        self.order.decay();
    }

    fn reduce(&mut self) {
        ColorEngine::reduce(self)
    }

    fn restart(&mut self) {
        self.backtrack(0);
    }

    fn decide(&mut self) {
        ColorEngine::decide(self)
    }

    fn stats(&mut self) -> &mut LearnStats {
        &mut self.stats
    }

    fn snapshot(&self) -> LearnStats {
        ColorEngine::snapshot(self)
    }
}
