//! The decision order: which unassigned variable a decision takes, and the value it tries.
//!
//! A search from the root takes the variables of recent conflicts first from a move-to-front
//! queue (`move_to_front`); the counter's completion checks, many short searches one after
//! another, keep VSIDS activities in a heap (`activity`), whose longer memory suits them (on
//! random 30x30 pictures the move-to-front queue made the backbone's checks 1.2 to 1.8 times
//! slower). A decision's value is the saved phase (the value the variable last had) or, where
//! target phases are on, the value it had in the longest conflict-free stretch of the trail
//! since the last restart, as stable-mode CDCL solvers do: the search keeps heading back to
//! the largest consistent partial grid it has seen, which finds the solutions of satisfiable
//! puzzles with far fewer conflicts. Both start from the domain's first guess (false where it
//! has none), whose order also leads a search from the root's first decisions (black and
//! white: see `beliefs`), and again every fourth restart (second on large grids), with the
//! values of the longest conflict-free trail of the whole search as targets.

mod activity;
mod move_to_front;

use std::sync::Arc;

use super::lit::{Lit, value, var_of};
use activity::Activity;
use move_to_front::MoveToFront;

/// The variables' order for decisions, and their phases.
#[derive(Debug)]
pub(super) struct Order {
    queue: Queue,
    /// The value each variable last had.
    pub(super) phase: Vec<bool>,
    /// The values of the longest conflict-free trail since the last restart, if decisions
    /// follow them.
    target: Option<LongestTrail>,
    /// What the search returns to every few restarts, if it started from a first guess.
    revisit: Option<Revisit>,
}

/// Restarts between two returns to the first guess's order (see [`Order::restarted`]).
const REVISIT_RESTARTS: u64 = 4;
/// The same on grids of at least [`LARGE_GRID`] variables, whose dives are long and whose
/// best trail is worth more (docs/tuning.md, "Constants").
const LARGE_GRID_REVISIT_RESTARTS: u64 = 2;
/// The fewest variables of a large grid: 50x50 cells in black and white.
const LARGE_GRID: usize = 2500;

/// The first guess's order, and the values of the longest conflict-free trail of the whole
/// search: a search that follows target phases returns to both every `every` restarts.
#[derive(Debug)]
struct Revisit {
    order: Vec<u32>,
    /// Never reset: the longest trail of the whole search.
    best: LongestTrail,
    restarts: u64,
    /// [`REVISIT_RESTARTS`], or [`LARGE_GRID_REVISIT_RESTARTS`] on a large grid.
    every: u64,
}

/// Which order decisions take variables in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decisions {
    /// The variables of the latest conflicts first (VMTF): for a search from the root.
    MoveToFront,
    /// The variables of highest activity first (VSIDS): for completion checks.
    Activity,
}

/// One of the two orders.
#[derive(Debug)]
enum Queue {
    MoveToFront(MoveToFront),
    Activity(Activity),
}

/// How decisions choose values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phases {
    /// From the domain's first guess, then target phases: for a search from the root.
    Targets,
    /// False at first, then saved phases: for a search resumed from check to check, whose
    /// next check should try the last completion first.
    Saved,
}

/// A domain's first guess: each variable's first value, and an order for the first decisions.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FirstGuess {
    /// The value each variable (by number) is first tried with.
    pub(super) phases: Vec<bool>,
    /// Variables for the first decisions, the first of them first; the others follow in
    /// variable order.
    pub(super) order: Vec<u32>,
    /// Where the rounds that made the guess left their messages, if it came from rounds of
    /// belief propagation: decimation goes on from them instead of repeating them.
    pub(super) settled: Option<Arc<Settled>>,
}

/// The messages of belief propagation (black and white, see `beliefs`) after the rounds of a
/// first guess: the chance that each cell is filled, by its row, by its column and by both,
/// and the rounds' work.
#[derive(Debug, PartialEq)]
pub(crate) struct Settled {
    pub(super) from_rows: Vec<f64>,
    pub(super) from_cols: Vec<f64>,
    pub(super) belief: Vec<f64>,
    pub(super) spent: usize,
}

/// The values of the longest conflict-free trail prefix seen (target phases, and the best
/// trail a search returns to); the other variables keep the values they started with.
#[derive(Debug)]
struct LongestTrail {
    phase: Vec<bool>,
    /// The length of the prefix `phase` was taken from (0 after a reset: any prefix will do).
    len: usize,
}

impl LongestTrail {
    fn new(phase: Vec<bool>) -> Self {
        LongestTrail { phase, len: 0 }
    }

    /// Takes the values of `prefix` if it is longer than the one taken last.
    fn offer(&mut self, prefix: &[Lit]) {
        if prefix.len() > self.len {
            self.len = prefix.len();
            for &l in prefix {
                self.phase[var_of(l) as usize] = value(l);
            }
        }
    }
}

impl Order {
    /// Every one of `vars` variables in `decisions` order (variable 0 first). With
    /// [`Phases::Targets`] they are first tried with the values `first` gives (false for each
    /// if `None`), decisions in a move-to-front queue take them in its order first, and
    /// decisions follow target phases.
    pub(super) fn new(
        vars: usize,
        phases: Phases,
        decisions: Decisions,
        first: impl FnOnce() -> Option<FirstGuess>,
    ) -> Self {
        let targets = phases == Phases::Targets;
        let guess = targets.then(first).flatten();
        let (phase, first_order) = match guess {
            Some(FirstGuess { phases, order, .. }) => (phases, order),
            None => (vec![false; vars], Vec::new()),
        };
        debug_assert_eq!(phase.len(), vars);
        let revisit = (targets && decisions == Decisions::MoveToFront && !first_order.is_empty())
            .then(|| Revisit {
                order: first_order.clone(),
                best: LongestTrail::new(phase.clone()),
                restarts: 0,
                every: if vars >= LARGE_GRID {
                    LARGE_GRID_REVISIT_RESTARTS
                } else {
                    REVISIT_RESTARTS
                },
            });
        Order {
            queue: match decisions {
                Decisions::MoveToFront => {
                    let mut queue = MoveToFront::new(vars);
                    queue.put_first(&first_order);
                    Queue::MoveToFront(queue)
                }
                Decisions::Activity => Queue::Activity(Activity::new(vars)),
            },
            target: targets.then(|| LongestTrail::new(phase.clone())),
            revisit,
            phase,
        }
    }

    /// Puts the first decisions in an order drawn from `seed` instead of variable order. Two
    /// searches of one puzzle with different seeds take different paths, and the faster of
    /// the two is much faster than either on average: run times are heavy-tailed.
    pub(super) fn perturb(&mut self, seed: u64) {
        let mut rng = crate::rng::SplitMix(seed);
        match &mut self.queue {
            Queue::MoveToFront(q) => q.shuffle(&mut rng),
            Queue::Activity(q) => q.shuffle(&mut rng),
        }
    }

    /// Whether decisions follow target phases.
    pub(super) fn follows_targets(&self) -> bool {
        self.target.is_some()
    }

    /// The value a decision on `var` tries.
    pub(super) fn value_for(&self, var: u32) -> bool {
        match &self.target {
            Some(target) => target.phase[var as usize],
            None => self.phase[var as usize],
        }
    }

    /// Notes that `prefix` (the trail below the level a conflict arose at) holds without
    /// conflict: if it is the longest since the last restart, its values become the targets.
    pub(super) fn conflict_free(&mut self, prefix: &[Lit]) {
        if let Some(target) = &mut self.target {
            target.offer(prefix);
        }
        if let Some(revisit) = &mut self.revisit {
            revisit.best.offer(prefix);
        }
    }

    /// A restart: the next conflict-free prefix, however short, sets the targets again. Every
    /// [`REVISIT_RESTARTS`] restarts (every [`LARGE_GRID_REVISIT_RESTARTS`] on a large grid)
    /// of a search that started from a first guess, its first decisions take the guess's order
    /// again, and the targets and saved phases are the values of the longest conflict-free
    /// trail so far: the search dives along the first guess once more, now with its learned
    /// clauses, from the best grid it has seen. (Random 100x100 pictures at density 0.5: 8 of
    /// seeds 1 to 10 decided within 60 s, against 4 without.)
    pub(super) fn restarted(&mut self) {
        if let Some(target) = &mut self.target {
            target.len = 0;
            if let Some(revisit) = &mut self.revisit {
                revisit.restarts += 1;
                if revisit.restarts.is_multiple_of(revisit.every) {
                    target.phase.copy_from_slice(&revisit.best.phase);
                    self.phase.copy_from_slice(&revisit.best.phase);
                    if let Queue::MoveToFront(queue) = &mut self.queue {
                        queue.put_first(&revisit.order);
                    }
                }
            }
        }
    }

    /// Starts over from `guess` as from a first guess (see [`Order::new`]), at a restart: its
    /// values become the saved and target phases, its order leads the queue, and the search
    /// returns to both every few restarts, as to the longest trail it meets from now on.
    pub(super) fn take_guess(&mut self, guess: FirstGuess) {
        let FirstGuess { phases, order, .. } = guess;
        debug_assert_eq!(phases.len(), self.phase.len());
        if let Some(target) = &mut self.target {
            *target = LongestTrail::new(phases.clone());
        }
        if let Some(revisit) = &mut self.revisit {
            revisit.best = LongestTrail::new(phases.clone());
            revisit.order.clone_from(&order);
        }
        if let Queue::MoveToFront(queue) = &mut self.queue {
            queue.put_first(&order);
        }
        self.phase = phases;
    }

    /// Notes that `var` lost its value: decisions will find it.
    #[inline]
    pub(super) fn insert(&mut self, var: u32) {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.insert(var),
            Queue::Activity(q) => q.insert(var),
        }
    }

    /// The next candidate for a decision, or `None` when there is none. It may have a value
    /// (the caller skips it); every variable without one comes in time.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<u32> {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.pop(),
            Queue::Activity(q) => q.pop(),
        }
    }

    /// Notes that `var` took part in the conflict under analysis.
    #[inline]
    pub(super) fn bump(&mut self, var: u32) {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.bump(var),
            Queue::Activity(q) => q.bump(var),
        }
    }

    /// Ends a conflict, after the jump back: the bumped variables move to the front, or the
    /// activities age. `unknown` says which variables have no value now.
    pub(super) fn requeue(&mut self, unknown: impl Fn(u32) -> bool) {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.requeue(unknown),
            Queue::Activity(q) => q.decay(),
        }
    }

    /// Takes `var`, which a search of a scope passed by (it is not the scope's to decide), out
    /// of the order until [`Order::restore`].
    pub(super) fn set_aside(&mut self, var: u32) {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.set_aside(var),
            // Popped from the heap, it is out already.
            Queue::Activity(_) => {}
        }
    }

    /// Puts the variables of `vars` set aside back.
    pub(super) fn restore(&mut self, vars: &mut [u32]) {
        match &mut self.queue {
            Queue::MoveToFront(q) => q.restore(vars),
            Queue::Activity(q) => {
                for &var in vars.iter() {
                    q.insert(var);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_follow_the_longest_conflict_free_prefix() {
        use crate::learn::lit::lit;
        let mut order = Order::new(4, Phases::Targets, Decisions::MoveToFront, || {
            Some(FirstGuess {
                phases: vec![true, false, false, true],
                order: Vec::new(),
                settled: None,
            })
        });
        assert_eq!(
            (0..4).map(|v| order.value_for(v)).collect::<Vec<_>>(),
            [true, false, false, true]
        );
        order.phase[1] = true;
        assert!(!order.value_for(1), "targets, not saved phases");
        order.conflict_free(&[lit(0, false), lit(1, true)]);
        assert!(!order.value_for(0) && order.value_for(1));
        // A shorter prefix changes nothing, until a restart.
        order.conflict_free(&[lit(2, true)]);
        assert!(!order.value_for(2));
        order.restarted();
        order.conflict_free(&[lit(2, true)]);
        assert!(order.value_for(2) && order.value_for(1));
        // Without targets, decisions take the saved phases, false at first.
        let mut saved = Order::new(2, Phases::Saved, Decisions::MoveToFront, || {
            Some(FirstGuess {
                phases: vec![true, true],
                order: Vec::new(),
                settled: None,
            })
        });
        saved.conflict_free(&[lit(0, true)]);
        assert!(!saved.value_for(0));
        saved.phase[0] = true;
        assert!(saved.value_for(0));
    }

    /// A guess for 5 variables: all false, variables 3 and 1 first.
    fn guess() -> Option<FirstGuess> {
        Some(FirstGuess {
            phases: vec![false; 5],
            order: vec![3, 1],
            settled: None,
        })
    }

    #[test]
    fn a_first_guess_orders_the_first_decisions() {
        let mut order = Order::new(5, Phases::Targets, Decisions::MoveToFront, guess);
        let popped: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped, [3, 1, 0, 2, 4]);
        // Saved phases take no guess, nor its order.
        let mut order = Order::new(5, Phases::Saved, Decisions::MoveToFront, guess);
        let popped: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn every_fourth_restart_returns_to_the_guess_with_the_best_trail() {
        use crate::learn::lit::lit;
        let mut order = Order::new(5, Phases::Targets, Decisions::MoveToFront, guess);
        order.conflict_free(&[lit(3, true), lit(1, true), lit(0, true)]);
        order.restarted();
        // A shorter trail after a restart sets the targets, and a conflict leads with 4.
        order.conflict_free(&[lit(3, false)]);
        order.bump(4);
        order.requeue(|_| true);
        order.restarted();
        order.restarted();
        assert!(!order.value_for(3));
        // The fourth restart: the longest trail's values, the guess's order first.
        order.restarted();
        assert!(order.value_for(3) && order.value_for(1) && order.value_for(0));
        assert!(!order.value_for(2) && !order.value_for(4));
        let popped: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped[..2], [3, 1]);
        assert_eq!(popped.len(), 5);
    }

    #[test]
    fn on_a_large_grid_every_second_restart_returns_to_the_guess() {
        use crate::learn::lit::lit;
        let vars = LARGE_GRID;
        let mut order = Order::new(vars, Phases::Targets, Decisions::MoveToFront, || {
            Some(FirstGuess {
                phases: vec![false; vars],
                order: vec![7],
                settled: None,
            })
        });
        order.conflict_free(&[lit(7, true), lit(1, true)]);
        order.restarted();
        order.conflict_free(&[lit(7, false)]);
        assert!(!order.value_for(7));
        order.restarted();
        assert!(order.value_for(7) && order.value_for(1));
        assert_eq!(order.pop(), Some(7));
    }

    #[test]
    fn a_guess_taken_mid_way_leads_as_a_first_guess_and_is_returned_to() {
        use crate::learn::lit::lit;
        let mut order = Order::new(5, Phases::Targets, Decisions::MoveToFront, guess);
        order.conflict_free(&[lit(3, true), lit(1, true), lit(0, true)]);
        order.restarted();
        order.take_guess(FirstGuess {
            phases: vec![false, false, true, false, true],
            order: vec![4, 2],
            settled: None,
        });
        // Its values and order now, not the best trail's nor the first guess's.
        let values = |order: &Order| (0..5).map(|v| order.value_for(v)).collect::<Vec<_>>();
        assert_eq!(values(&order), [false, false, true, false, true]);
        assert_eq!(order.phase, [false, false, true, false, true]);
        let popped: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped, [4, 2, 3, 1, 0]);
        // A later trail sets the targets; the revisit brings back the new guess's order with
        // the longest trail since it was taken.
        order.conflict_free(&[lit(0, true)]);
        assert!(order.value_for(0));
        order.restarted();
        order.conflict_free(&[lit(1, true)]);
        order.bump(3);
        order.requeue(|_| true);
        for _ in 0..3 {
            order.restarted();
        }
        assert_eq!(values(&order), [true, false, true, false, true]);
        let popped: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped[..2], [4, 2]);
    }

    #[test]
    fn a_seed_reorders_the_first_decisions_and_a_bump_still_leads() {
        for decisions in [Decisions::MoveToFront, Decisions::Activity] {
            let popped = |seed: u64, bumped: Option<u32>| {
                let mut order = Order::new(64, Phases::Saved, decisions, || None);
                order.perturb(seed);
                if let Some(var) = bumped {
                    order.bump(var);
                    order.requeue(|_| true);
                }
                std::iter::from_fn(|| order.pop()).collect::<Vec<u32>>()
            };
            let (one, other) = (popped(1, None), popped(2, None));
            let mut sorted = one.clone();
            sorted.sort_unstable();
            let every: Vec<u32> = (0..64).collect();
            assert_eq!(sorted, every, "{decisions:?}: every variable, once");
            assert_ne!(one, every, "{decisions:?}: not variable order");
            assert_ne!(one, other, "{decisions:?}: seeds differ");
            assert_eq!(one, popped(1, None), "{decisions:?}: one seed, one order");
            assert_eq!(
                popped(1, Some(40))[0],
                40,
                "{decisions:?}: the bumped leads"
            );
        }
    }
}
