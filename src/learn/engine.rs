//! The learning search loop: propagate (clauses, the cell rule if the domain has one, lines),
//! and on a conflict learn a clause and jump back; at a fixpoint decide a variable; at a
//! complete grid report it and block it.

mod analyze;
mod within;

use std::collections::VecDeque;

use thin_vec::ThinVec;

use super::LearnStats;
use super::analysis::LevelCount;
use super::assign::{Assignment, Reason};
use super::clauses::ClauseDb;
use super::domain::{LearnDomain, Shape};
use super::explain::{Fact, GroupSize};
use super::lit::{Lit, lit, negated, value, var_of};
use super::order::{Decisions, FirstGuess, Order, Phases};
use super::recall::ExplanationCache;
use super::schedule::{self, Cdcl, Hurry};
use super::share::Sharing;
use crate::flow::Flow;
use crate::puzzle::LineId;
pub(super) use within::Assumed;

/// A conflict: a line with no placement, a clause with every literal false, or a cell that
/// breaks the domain's cell rule.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Line(LineId),
    Clause(u32),
    Cell(usize),
}

/// The state of one learning search over the puzzles of domain `D`.
pub(super) struct Engine<'p, D: LearnDomain> {
    puzzle: &'p D,
    shape: Shape,
    a: Assignment<D::Cells>,
    db: ClauseDb,
    order: Order,
    lines: D::LearnLines,
    queue: LineQueue,
    /// Trail position up to which clauses and the cell rule have been propagated.
    clause_head: usize,
    seen: Vec<bool>,
    /// Counts the distinct levels of a clause's literals.
    levels: LevelCount,
    scratch: Vec<Lit>,
    /// Literals implied by clauses, with their clauses.
    implied: Vec<(Lit, u32)>,
    /// Literals forced by the cell rule, or known in a grid (kept to save allocations).
    forced: Vec<Lit>,
    facts: Vec<Fact>,
    /// The facts an explanation keeps.
    kept: Vec<Fact>,
    /// The explanation of each line-forced variable, once a conflict has asked for it; valid
    /// while `explained` (until the variable is unset).
    explanations: Vec<ThinVec<Lit>>,
    explained: Vec<bool>,
    /// Explanations already shrunk, to take again when a line state recurs.
    recalled: ExplanationCache,
    /// How many facts explanations try to drop at once.
    group_size: GroupSize,
    pub(super) stats: LearnStats,
    /// The level below which the search never goes back: 1 while a check of
    /// [`within`] holds its assumptions there, else 0.
    floor: u32,
    /// The variables a check decides, when not all of them (see [`within`]).
    scope: Option<Scope>,
    /// Clauses of one literal learned above level 0 (under assumptions), to set at level 0.
    units: Vec<Lit>,
    /// The scope's membership flags between checks, all `false` (kept to save allocations).
    scope_member: Vec<bool>,
    /// The seat at the exchange of clauses with the other searches of a race, if it shares.
    sharing: Option<Sharing<'p>>,
    /// Literals of a clause taken from the exchange (kept to save allocations).
    taken: Vec<Lit>,
    /// Whether the search is ending, asked during a conflict's analysis: then the rest of its
    /// explanations are not shrunk (longer, still valid), so that the analysis ends soon.
    hurry: Hurry,
}

/// The variables a scoped search may decide.
#[derive(Debug, Default)]
struct Scope {
    vars: Vec<u32>,
    /// One flag per variable.
    member: Vec<bool>,
    /// Unknown variables outside the scope taken out of the decision queue, to put back
    /// afterwards.
    set_aside: Vec<u32>,
}

/// The lines waiting to be solved, each at most once.
struct LineQueue {
    shape: Shape,
    lines: VecDeque<LineId>,
    queued: Vec<bool>,
}

impl LineQueue {
    fn push(&mut self, line: LineId) {
        let index = self.shape.index(line);
        if !self.queued[index] {
            self.queued[index] = true;
            self.lines.push_back(line);
        }
    }

    /// Queues the lines of the variable of `l` (just made true), if it changed them.
    fn lit_set<D: LearnDomain>(&mut self, puzzle: &D, l: Lit) {
        if D::changes_lines(l) {
            let cell = var_of(l) as usize / puzzle.vars_per_cell();
            let width = self.shape.width;
            self.push(LineId::Row(cell / width));
            self.push(LineId::Col(cell % width));
        }
    }

    /// Queues the line crossing `from` at the variable of `l`, which solving `from` just
    /// forced: `from` itself is still at its fixpoint, since an exact line solver forces only
    /// what every placement it allowed agrees on, so setting those cells leaves its placements
    /// (and its result) as they were.
    fn lit_forced_by<D: LearnDomain>(&mut self, puzzle: &D, l: Lit, from: LineId) {
        if D::changes_lines(l) {
            let cell = var_of(l) as usize / puzzle.vars_per_cell();
            let width = self.shape.width;
            self.push(match from {
                LineId::Row(_) => LineId::Col(cell % width),
                LineId::Col(_) => LineId::Row(cell / width),
            });
        }
    }

    fn pop(&mut self) -> Option<LineId> {
        let line = self.lines.pop_front()?;
        self.queued[self.shape.index(line)] = false;
        Some(line)
    }

    fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}

impl<'p, D: LearnDomain> Engine<'p, D> {
    /// A search whose level 0 is `root` (a grid at a propagation fixpoint), whose decisions
    /// take variables in `decisions` order and choose values as `phases` says.
    pub(super) fn new(puzzle: &'p D, root: &D::Grid, phases: Phases, decisions: Decisions) -> Self {
        Self::with_guess(puzzle, root, phases, decisions, || {
            puzzle.first_guess(root, &mut || false)
        })
    }

    /// [`Engine::new`], whose first guess (see [`LearnDomain::first_guess`]) `first` gives
    /// (called only where `phases` takes one): a guess worked out for `root` with a stop of its
    /// own, or one that another search of the race worked out.
    pub(super) fn with_guess(
        puzzle: &'p D,
        root: &D::Grid,
        phases: Phases,
        decisions: Decisions,
        first: impl FnOnce() -> Option<FirstGuess>,
    ) -> Self {
        let shape = puzzle.shape();
        let vars = shape.height * shape.width * puzzle.vars_per_cell();
        let mut a = Assignment::new(vars, puzzle.new_cells());
        let mut known = Vec::new();
        puzzle.known_lits(root, &mut known);
        for &l in &known {
            a.assign(l, Reason::Root);
        }
        let clause_head = a.trail.len();
        let mut engine = Engine {
            puzzle,
            shape,
            a,
            db: ClauseDb::new(vars),
            // Root variables stay in the queue: decisions skip variables already set.
            order: Order::new(vars, phases, decisions, first),
            lines: puzzle.new_lines(),
            queue: LineQueue {
                shape,
                lines: VecDeque::new(),
                queued: vec![false; shape.lines()],
            },
            clause_head,
            seen: vec![false; vars],
            levels: LevelCount::default(),
            scratch: Vec::new(),
            implied: Vec::new(),
            forced: known,
            facts: Vec::new(),
            kept: Vec::new(),
            explanations: vec![ThinVec::new(); vars],
            explained: vec![false; vars],
            recalled: ExplanationCache::default(),
            group_size: GroupSize::default(),
            stats: LearnStats::default(),
            floor: 0,
            scope: None,
            units: Vec::new(),
            scope_member: Vec::new(),
            sharing: None,
            taken: Vec::new(),
            hurry: Hurry::new(),
        };
        // The root should be a fixpoint already; solving every line once makes sure.
        for row in 0..shape.height {
            engine.queue.push(LineId::Row(row));
        }
        for col in 0..shape.width {
            engine.queue.push(LineId::Col(col));
        }
        engine
    }

    /// Explains every deduction unshrunk, as a search told to stop does (see [`Hurry`]).
    #[cfg(test)]
    pub(super) fn always_hurry(&mut self) {
        self.hurry = Hurry::always();
    }

    /// Starts the decisions in an order drawn from `seed` (see [`Order::perturb`]).
    pub(super) fn perturb(&mut self, seed: u64) {
        self.order.perturb(seed);
    }

    /// The decisions on the trail now.
    pub(super) fn decision_level(&self) -> u32 {
        self.a.decision_level()
    }

    /// Takes `guess` for the decisions from now on (see [`Order::take_guess`]); at level 0.
    pub(super) fn take_guess(&mut self, guess: FirstGuess) {
        debug_assert_eq!(self.decision_level(), 0);
        self.order.take_guess(guess);
    }

    /// Shares learned clauses through `sharing` with the other searches of a race.
    pub(super) fn share(&mut self, sharing: Sharing<'p>) {
        self.sharing = Some(sharing);
    }

    /// Hands the clauses learned since the last visit to the exchange and adds those that the
    /// other searches learned, at level 0; `false` if one of them leaves no solution.
    fn exchange_clauses(&mut self) -> bool {
        let Some(mut sharing) = self.sharing.take() else {
            return true;
        };
        debug_assert_eq!(self.a.decision_level(), 0, "clauses are taken at level 0");
        let mut taken = std::mem::take(&mut self.taken);
        let mut consistent = true;
        sharing.visit(self.stats.conflicts, |lits, lbd| {
            if !consistent || lits.iter().any(|&l| self.a.is_true(l)) {
                return;
            }
            taken.clear();
            taken.extend(
                lits.iter()
                    .copied()
                    .filter(|&l| !self.a.is_true(negated(l))),
            );
            self.stats.imported += 1;
            match taken.len() {
                0 => consistent = false,
                1 => self.assign(taken[0], Reason::Root),
                _ => {
                    let _ = self.db.add(&taken, lbd, false);
                }
            }
        });
        self.taken = taken;
        self.sharing = Some(sharing);
        consistent
    }

    /// The counters so far.
    pub(super) fn snapshot(&self) -> LearnStats {
        let (cache_lookups, cache_hits) = D::cache_stats(&self.lines);
        LearnStats {
            cache_lookups,
            cache_hits,
            ..self.stats
        }
    }

    fn decide(&mut self) {
        let var = loop {
            let var = self
                .order
                .pop()
                .expect("an incomplete assignment has an unknown variable in the queue");
            if !self.a.is_unknown(var) {
                continue;
            }
            match &mut self.scope {
                Some(scope) if !scope.member[var as usize] => {
                    self.order.set_aside(var);
                    scope.set_aside.push(var);
                }
                _ => break var,
            }
        };
        self.stats.decisions += 1;
        let l = lit(var, self.order.value_for(var));
        self.a.decide(l);
        self.queue.lit_set(self.puzzle, l);
    }

    /// Sets `l` and queues the lines it changes.
    fn assign(&mut self, l: Lit, reason: Reason) {
        self.a.assign(l, reason);
        self.queue.lit_set(self.puzzle, l);
    }

    /// Propagates clauses, the cell rule and lines to a fixpoint; returns the conflict if one
    /// is found.
    fn propagate(&mut self) -> Option<Conflict> {
        loop {
            while self.clause_head < self.a.trail.len() {
                let l = self.a.trail[self.clause_head];
                self.clause_head += 1;
                let conflict = match self.propagate_clauses(l) {
                    Some(clause) => Some(Conflict::Clause(clause)),
                    None => self.cell_rule(l),
                };
                if conflict.is_some() {
                    self.queue.clear();
                    return conflict;
                }
            }
            let line = self.queue.pop()?;
            if !self.solve_line(line) {
                self.queue.clear();
                return Some(Conflict::Line(line));
            }
        }
    }

    /// Solves one line and sets what it forces; `false` if the line has no placement.
    fn solve_line(&mut self, line: LineId) -> bool {
        self.stats.line_solves += 1;
        let puzzle = self.puzzle;
        let index = self.shape.index(line);
        if !LearnDomain::solve_line(puzzle, &mut self.lines, &self.a.cells, line, index) {
            return false;
        }
        let mark = self.a.trail.len() as u32;
        let number = index as u32;
        let (a, queue) = (&mut self.a, &mut self.queue);
        puzzle.forced(&self.lines, line, |l| {
            a.assign(l, Reason::Line { line: number, mark });
            queue.lit_forced_by(puzzle, l, line);
        });
        true
    }

    /// Propagates the cell rule from `l`, just made true; returns the cell it finds
    /// contradicted, if any.
    fn cell_rule(&mut self, l: Lit) -> Option<Conflict> {
        if !D::CELL_RULE {
            return None;
        }
        let mut forced = std::mem::take(&mut self.forced);
        forced.clear();
        let conflict = self.puzzle.cell_rule(&self.a, l, &mut forced);
        for &f in &forced {
            self.assign(f, Reason::Cell);
        }
        self.forced = forced;
        conflict.map(Conflict::Cell)
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
            self.queue.lit_set(self.puzzle, l);
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
        if let Some(sharing) = &mut self.sharing {
            sharing.stop_offering();
        }
        // Above assumptions (a completion check's floor) the decisions block it, as before.
        if D::BLOCK_BY_CELLS
            && self.floor == 0
            && let Some(more) = self.block_by_cells(level as usize)
        {
            return more;
        }
        let mut blocking: Vec<Lit> = self.a.decisions().map(negated).collect();
        blocking.reverse();
        self.backtrack(level - 1);
        let reason = self.db.add_blocking(&blocking);
        self.assign(blocking[0], reason);
        true
    }

    /// Blocks the complete assignment just reported by the cells of its rarer value (see
    /// [`LearnDomain::BLOCK_BY_CELLS`]), leaving out those known at level 0, when that clause
    /// has fewer than `decisions` literals. If one of them lies alone at its highest level, the
    /// search jumps back to the level of the next highest and asserts it; otherwise it goes
    /// back above the highest, where two of them are unknown. On a
    /// permutation grid of 1000x1000 a solution has 1,000 filled cells and about half a
    /// million decisions. `Some(false)` when no such cell is left above level 0 (no other
    /// solution); `None` when the decisions block it instead (they are no more).
    fn block_by_cells(&mut self, decisions: usize) -> Option<bool> {
        let vars = self.a.vars() as u32;
        let filled = (0..vars).filter(|&v| self.a.is_true(lit(v, true))).count();
        let rarer = filled * 2 <= vars as usize;
        let level_of = |a: &Assignment<D::Cells>, l: Lit| a.level[var_of(l) as usize];
        let mut clause: Vec<Lit> = (0..vars)
            .map(|v| lit(v, rarer))
            .filter(|&l| self.a.is_true(l) && level_of(&self.a, l) > 0)
            .map(negated)
            .collect();
        if clause.is_empty() {
            return Some(false);
        }
        if clause.len() >= decisions {
            return None;
        }
        clause.sort_by_key(|&l| std::cmp::Reverse(level_of(&self.a, l)));
        let top = level_of(&self.a, clause[0]);
        let next = clause.get(1).map_or(0, |&l| level_of(&self.a, l));
        if next == top {
            // Two literals or more at the top level: above it the clause has two unknown
            // literals to watch, and asserts nothing yet.
            self.backtrack(top - 1);
            let _ = self.db.add(&clause, clause.len() as u32, true);
            return Some(true);
        }
        self.backtrack(next);
        let reason = self.db.add_blocking(&clause);
        self.assign(clause[0], reason);
        Some(true)
    }

    /// Deletes half of the learned clauses (see [`ClauseDb::reduce`]), keeping the reasons of
    /// the variables set now.
    fn reduce(&mut self) {
        let deleted = self.db.reduce_keeping(&self.a.trail, &mut self.a.reason);
        self.stats.deleted += deleted as u64;
    }

    /// Undoes every level above `level`, saving phases and telling the decision order which
    /// variables lost their values.
    fn backtrack(&mut self, level: u32) {
        if level >= self.a.decision_level() {
            return;
        }
        let order = &mut self.order;
        let explained = &mut self.explained;
        self.a.backtrack(level, |l| {
            let var = var_of(l);
            explained[var as usize] = false;
            order.phase[var as usize] = value(l);
            order.insert(var);
        });
        self.clause_head = self.clause_head.min(self.a.trail.len());
        self.queue.clear();
    }
}

impl<D: LearnDomain> Cdcl for Engine<'_, D> {
    type Conflict = Conflict;
    type Solution = D::Grid;

    fn propagate(&mut self) -> Option<Conflict> {
        Engine::propagate(self)
    }

    fn resolve(&mut self, conflict: Conflict, ending: &mut dyn FnMut() -> bool) -> bool {
        Engine::resolve(self, conflict, ending)
    }

    fn is_complete(&self) -> bool {
        match &self.scope {
            None => self.a.is_complete(),
            Some(scope) => scope.vars.iter().all(|&var| !self.a.is_unknown(var)),
        }
    }

    fn report(&self, on_solution: &mut impl FnMut(&D::Grid) -> Flow) -> Flow {
        self.puzzle.report(&self.a.cells, on_solution)
    }

    fn block_solution(&mut self) -> bool {
        Engine::block_solution(self)
    }

    fn requeue(&mut self) {
        let a = &self.a;
        self.order.requeue(|var| a.is_unknown(var));
    }

    fn reduce(&mut self) {
        Engine::reduce(self)
    }

    fn restart(&mut self) -> bool {
        self.order.restarted();
        self.backtrack(self.floor);
        self.exchange_clauses()
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

    fn restart_unit(&self) -> u64 {
        if self.order.follows_targets() {
            schedule::TARGET_RESTART_UNIT
        } else {
            schedule::RESTART_UNIT
        }
    }
}
