//! The decision order: VSIDS activities in an indexed binary max-heap, and the value each
//! decision tries.
//!
//! Cells that took part in recent conflicts are bumped; all activities decay by growing the
//! bump step, so recent conflicts weigh most. A decision takes the unassigned cell of highest
//! activity. Its value is the saved phase (the value the variable last had) or, where target
//! phases are on, the value it had in the longest conflict-free stretch of the trail since the
//! last restart, as stable-mode CDCL solvers do: the search keeps heading back to the largest
//! consistent partial grid it has seen, which finds the solutions of satisfiable puzzles with
//! far fewer conflicts. Both start from the domain's first phases (false where it has none).

use super::lit::{Lit, value, var_of};

/// Activities of the cells and the heap of unassigned ones.
#[derive(Debug)]
pub(super) struct Order {
    activity: Vec<f64>,
    /// Cells in the heap, a max-heap on activity.
    heap: Vec<u32>,
    /// Each cell's index in `heap`, or `NOT_IN_HEAP`.
    slot: Vec<u32>,
    step: f64,
    /// The value each variable last had.
    pub(super) phase: Vec<bool>,
    /// The values of the longest conflict-free trail since the last restart, if decisions
    /// follow them.
    target: Option<Target>,
}

/// How decisions choose values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phases {
    /// From the domain's first phases, then target phases: for a search from the root.
    Targets,
    /// False at first, then saved phases: for a search resumed from check to check, whose
    /// next check should try the last completion first.
    Saved,
}

/// Target phases: the values of the longest conflict-free trail prefix seen.
#[derive(Debug)]
struct Target {
    phase: Vec<bool>,
    /// The length of the prefix `phase` was taken from (0 after a restart: any prefix will do).
    len: usize,
}

const NOT_IN_HEAP: u32 = u32::MAX;
/// Activities are rescaled when one grows past this.
const RESCALE_ABOVE: f64 = 1e100;
/// The bump step grows by `1 / DECAY` at every conflict.
const DECAY: f64 = 0.95;
/// Activities that [`Order::perturb`] gives lie below this: the first bump (1) outweighs
/// them all.
const TIE_BREAK: f64 = 1e-3;

impl Order {
    /// Every one of `cells` cells in the heap with activity 0. With [`Phases::Targets`] they
    /// are first tried with the values `first` gives (false for each if `None`), and decisions
    /// follow target phases.
    pub(super) fn new(
        cells: usize,
        phases: Phases,
        first: impl FnOnce() -> Option<Vec<bool>>,
    ) -> Self {
        let targets = phases == Phases::Targets;
        let phase = targets
            .then(first)
            .flatten()
            .unwrap_or_else(|| vec![false; cells]);
        debug_assert_eq!(phase.len(), cells);
        Order {
            activity: vec![0.0; cells],
            heap: (0..cells as u32).collect(),
            slot: (0..cells as u32).collect(),
            step: 1.0,
            target: targets.then(|| Target {
                phase: phase.clone(),
                len: 0,
            }),
            phase,
        }
    }

    /// Breaks the ties of the first decisions by `seed`: every activity gets a distinct tiny
    /// value, far below one bump, so the order starts at random instead of in cell order. Two
    /// searches of one puzzle with different seeds take different paths, and the faster of
    /// the two is much faster than either on average: run times are heavy-tailed.
    pub(super) fn perturb(&mut self, seed: u64) {
        let mut rng = crate::rng::SplitMix(seed);
        for a in &mut self.activity {
            *a = (rng.next() >> 11) as f64 * (TIE_BREAK / (1u64 << 53) as f64);
        }
        for at in (0..self.heap.len()).rev() {
            self.sift_down(at);
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
        if let Some(target) = &mut self.target
            && prefix.len() > target.len
        {
            target.len = prefix.len();
            for &l in prefix {
                target.phase[var_of(l) as usize] = value(l);
            }
        }
    }

    /// A restart: the next conflict-free prefix, however short, sets the targets again.
    pub(super) fn restarted(&mut self) {
        if let Some(target) = &mut self.target {
            target.len = 0;
        }
    }

    /// Puts `cell` back into the heap (it became unassigned).
    pub(super) fn insert(&mut self, cell: u32) {
        if self.slot[cell as usize] == NOT_IN_HEAP {
            self.slot[cell as usize] = self.heap.len() as u32;
            self.heap.push(cell);
            self.sift_up(self.heap.len() - 1);
        }
    }

    /// Removes and returns the cell of highest activity.
    pub(super) fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.slot[top as usize] = NOT_IN_HEAP;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.slot[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    /// Raises the activity of a cell that took part in a conflict.
    pub(super) fn bump(&mut self, cell: u32) {
        let a = &mut self.activity[cell as usize];
        *a += self.step;
        if *a > RESCALE_ABOVE {
            for a in &mut self.activity {
                *a /= RESCALE_ABOVE;
            }
            self.step /= RESCALE_ABOVE;
        }
        let at = self.slot[cell as usize];
        if at != NOT_IN_HEAP {
            self.sift_up(at as usize);
        }
    }

    /// Ages every activity (by growing the step of later bumps).
    pub(super) fn decay(&mut self) {
        self.step /= DECAY;
    }

    fn sift_up(&mut self, mut at: usize) {
        let cell = self.heap[at];
        let key = self.activity[cell as usize];
        while at > 0 {
            let parent = (at - 1) / 2;
            let above = self.heap[parent];
            if self.activity[above as usize] >= key {
                break;
            }
            self.put(at, above);
            at = parent;
        }
        self.put(at, cell);
    }

    fn sift_down(&mut self, mut at: usize) {
        let cell = self.heap[at];
        let key = self.activity[cell as usize];
        loop {
            let left = 2 * at + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len()
                && self.activity[self.heap[right] as usize]
                    > self.activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let below = self.heap[child];
            if self.activity[below as usize] <= key {
                break;
            }
            self.put(at, below);
            at = child;
        }
        self.put(at, cell);
    }

    /// Puts `cell` at position `at` of the heap.
    #[inline]
    fn put(&mut self, at: usize, cell: u32) {
        self.heap[at] = cell;
        self.slot[cell as usize] = at as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_activity_and_reinserts() {
        let mut order = Order::new(5, Phases::Saved, || None);
        order.bump(3);
        order.bump(3);
        order.bump(1);
        assert_eq!(order.pop(), Some(3));
        assert_eq!(order.pop(), Some(1));
        order.insert(3);
        order.insert(3);
        assert_eq!(order.pop(), Some(3));
        let rest: Vec<u32> = std::iter::from_fn(|| order.pop()).collect();
        let mut sorted = rest.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 2, 4]);
        assert_eq!(order.pop(), None);
    }

    #[test]
    fn a_seed_reorders_the_first_decisions_and_a_bump_still_leads() {
        let popped = |seed: u64, bumped: Option<u32>| {
            let mut order = Order::new(64, Phases::Saved, || None);
            order.perturb(seed);
            if let Some(cell) = bumped {
                order.bump(cell);
            }
            std::iter::from_fn(|| order.pop()).collect::<Vec<u32>>()
        };
        let (one, other) = (popped(1, None), popped(2, None));
        let mut sorted = one.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..64).collect::<Vec<u32>>(), "every cell, once");
        assert_ne!(one, (0..64).collect::<Vec<u32>>(), "not cell order");
        assert_ne!(one, other, "seeds differ");
        assert_eq!(one, popped(1, None), "one seed, one order");
        assert_eq!(popped(1, Some(40))[0], 40);
    }

    #[test]
    fn decisions_follow_the_longest_conflict_free_prefix() {
        use crate::learn::lit::lit;
        let mut order = Order::new(4, Phases::Targets, || Some(vec![true, false, false, true]));
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
        let mut saved = Order::new(2, Phases::Saved, || Some(vec![true, true]));
        saved.conflict_free(&[lit(0, true)]);
        assert!(!saved.value_for(0));
        saved.phase[0] = true;
        assert!(saved.value_for(0));
    }
}
