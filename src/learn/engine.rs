//! The learning search loop: propagate, and on a conflict learn a clause and jump back; at a
//! fixpoint decide a cell; at a complete grid report it and block it.

mod analyze;
mod within;

use std::collections::VecDeque;

use super::LearnStats;
use super::assign::{Assignment, Lit, Reason, cell_of, lit, negated, says_filled};
use super::clauses::ClauseDb;
use super::explain::{Explainer, Known, solve_cached};
use super::order::Order;
use super::schedule::Cdcl;
use crate::grid::{Cell, Grid};
use crate::line::{BitLineSolver, LineCache};
use crate::puzzle::{LineId, Puzzle};
use crate::search::Flow;
pub(super) use within::Assumed;

/// A conflict: a line with no placement, or a clause with every literal false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Line(LineId),
    Clause(u32),
}

/// The state of one learning search.
pub(super) struct Engine<'p> {
    puzzle: &'p Puzzle,
    a: Assignment,
    db: ClauseDb,
    order: Order,
    explainer: Explainer,
    solver: BitLineSolver,
    /// Results of one-word lines: line states recur after every jump back.
    cache: LineCache,
    out_filled: Vec<u64>,
    out_empty: Vec<u64>,
    queue: VecDeque<LineId>,
    queued: Vec<bool>,
    /// Trail position up to which clauses have been propagated.
    clause_head: usize,
    seen: Vec<bool>,
    scratch: Vec<Lit>,
    /// Literals implied by clauses, with their clauses.
    implied: Vec<(Lit, u32)>,
    known: Vec<Known>,
    /// The explanation of each line-forced cell, once a conflict has asked for it; valid while
    /// `explained` (until the cell is unset).
    explanations: Vec<Vec<Lit>>,
    explained: Vec<bool>,
    pub(super) stats: LearnStats,
    /// The level below which the search never goes back: 1 while a check of
    /// [`within`] holds its assumptions there, else 0.
    floor: u32,
    /// The cells a check decides, when not all of them (see [`within`]).
    scope: Option<Scope>,
    /// Clauses of one literal learned above level 0 (under assumptions), to set at level 0.
    units: Vec<Lit>,
    /// The scope's membership flags between checks, all `false` (kept to save allocations).
    scope_member: Vec<bool>,
}

/// The cells a scoped search may decide.
#[derive(Debug, Default)]
struct Scope {
    cells: Vec<u32>,
    /// One flag per cell of the grid.
    member: Vec<bool>,
    /// Unknown cells outside the scope taken off the decision heap, to put back afterwards.
    set_aside: Vec<u32>,
}

impl<'p> Engine<'p> {
    /// A search whose level 0 is `root` (a grid at a propagation fixpoint).
    pub(super) fn new(puzzle: &'p Puzzle, root: &Grid) -> Self {
        let (height, width) = (puzzle.height(), puzzle.width());
        let mut a = Assignment::new(height, width);
        for row in 0..height {
            for col in 0..width {
                let filled = match root.cell(row, col) {
                    Cell::Unknown => continue,
                    Cell::Filled => true,
                    Cell::Empty => false,
                };
                a.assign(lit((row * width + col) as u32, filled), Reason::Root);
            }
        }
        let cells = a.cells();
        // Root cells stay in the heap: decisions skip cells that are already set.
        let order = Order::new(cells);
        let clause_head = a.trail.len();
        let mut engine = Engine {
            puzzle,
            a,
            db: ClauseDb::new(cells),
            order,
            explainer: Explainer::default(),
            solver: BitLineSolver::default(),
            cache: {
                let mut cache = LineCache::default();
                cache.configure(height + width, height.max(width));
                cache
            },
            out_filled: Vec::new(),
            out_empty: Vec::new(),
            queue: VecDeque::new(),
            queued: vec![false; height + width],
            clause_head,
            seen: vec![false; cells],
            scratch: Vec::new(),
            implied: Vec::new(),
            known: Vec::new(),
            explanations: vec![Vec::new(); cells],
            explained: vec![false; cells],
            stats: LearnStats::default(),
            floor: 0,
            scope: None,
            units: Vec::new(),
            scope_member: Vec::new(),
        };
        // The root should be a fixpoint already; solving every line once makes sure.
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

    fn decide(&mut self) {
        let cell = loop {
            let cell = self
                .order
                .pop()
                .expect("an incomplete assignment has an unknown cell in the heap");
            if !self.a.is_unknown(cell) {
                continue;
            }
            match &mut self.scope {
                Some(scope) if !scope.member[cell as usize] => scope.set_aside.push(cell),
                _ => break cell,
            }
        };
        self.stats.decisions += 1;
        let filled = self.order.phase[cell as usize];
        self.a.decide(lit(cell, filled));
        self.enqueue_cell(cell);
    }

    /// Sets `lit` and queues its row and column.
    fn assign(&mut self, l: Lit, reason: Reason) {
        self.a.assign(l, reason);
        self.enqueue_cell(cell_of(l));
    }

    fn enqueue_cell(&mut self, cell: u32) {
        let width = self.a.width;
        let (row, col) = (cell as usize / width, cell as usize % width);
        self.enqueue(LineId::Row(row));
        self.enqueue(LineId::Col(col));
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
        for line in self.queue.drain(..) {
            let index = match line {
                LineId::Row(r) => r,
                LineId::Col(c) => self.puzzle.height() + c,
            };
            self.queued[index] = false;
        }
    }

    /// Propagates clauses and lines to a fixpoint; returns the conflict if one is found.
    fn propagate(&mut self) -> Option<Conflict> {
        loop {
            while self.clause_head < self.a.trail.len() {
                let l = self.a.trail[self.clause_head];
                self.clause_head += 1;
                if let Some(clause) = self.propagate_clauses(l) {
                    self.clear_queue();
                    return Some(Conflict::Clause(clause));
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

    /// Solves one line and sets what it fixes; `false` if the line has no placement.
    fn solve_line(&mut self, line: LineId) -> bool {
        self.stats.line_solves += 1;
        let len = self.a.grid.line_len(line);
        let index = self.line_index(line);
        let (filled, empty) = self.a.grid.line(line);
        let words = filled.len();
        self.out_filled.resize(words, 0);
        self.out_empty.resize(words, 0);
        let clue = self.puzzle.clue(line).blocks();
        let solved = solve_cached(
            &mut self.solver,
            (&mut self.cache, index as u32),
            clue,
            len,
            (filled, empty),
            (&mut self.out_filled, &mut self.out_empty),
        );
        if solved.is_err() {
            return false;
        }
        let mark = self.a.trail.len() as u32;
        let (filled, empty) = self.a.grid.line(line);
        // Keep only the cells this solve fixed, then set them (no allocation on this hot path).
        for w in 0..words {
            self.out_filled[w] &= !filled[w];
            self.out_empty[w] &= !empty[w];
        }
        for w in 0..words {
            for (mut bits, value) in [(self.out_filled[w], true), (self.out_empty[w], false)] {
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    let cell = self.a.line_cell(line, i);
                    self.assign(lit(cell, value), Reason::Line { line, mark });
                    bits &= bits - 1;
                }
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
            self.a.record(l, Reason::Clause(clause));
            self.enqueue_cell(cell_of(l));
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

    /// Deletes half of the learned clauses (see [`ClauseDb::reduce`]), keeping the reasons of
    /// the cells set now.
    fn reduce(&mut self) {
        let deleted = self.db.reduce_keeping(&self.a.trail, &mut self.a.reason);
        self.stats.deleted += deleted as u64;
    }

    /// Undoes every level above `level`, saving phases and returning cells to the heap.
    fn backtrack(&mut self, level: u32) {
        if level >= self.a.decision_level() {
            return;
        }
        let order = &mut self.order;
        let explained = &mut self.explained;
        self.a.backtrack(level, |l| {
            let cell = cell_of(l);
            explained[cell as usize] = false;
            order.phase[cell as usize] = says_filled(l);
            order.insert(cell);
        });
        self.clause_head = self.clause_head.min(self.a.trail.len());
        self.clear_queue();
    }
}

impl Cdcl for Engine<'_> {
    type Conflict = Conflict;
    type Solution = Grid;

    fn propagate(&mut self) -> Option<Conflict> {
        Engine::propagate(self)
    }

    fn resolve(&mut self, conflict: Conflict) -> bool {
        Engine::resolve(self, conflict)
    }

    fn is_complete(&self) -> bool {
        match &self.scope {
            None => self.a.is_complete(),
            Some(scope) => scope.cells.iter().all(|&cell| !self.a.is_unknown(cell)),
        }
    }

    fn report(&self, on_solution: &mut impl FnMut(&Grid) -> Flow) -> Flow {
        on_solution(&self.a.grid)
    }

    fn block_solution(&mut self) -> bool {
        Engine::block_solution(self)
    }

    fn decay(&mut self) {
        self.order.decay();
    }

    fn reduce(&mut self) {
        Engine::reduce(self)
    }

    fn restart(&mut self) {
        self.backtrack(self.floor);
    }

    fn decide(&mut self) {
        Engine::decide(self)
    }

    fn stats(&mut self) -> &mut LearnStats {
        &mut self.stats
    }

    fn snapshot(&self) -> LearnStats {
        Engine::snapshot(self)
    }
}
