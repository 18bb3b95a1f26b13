//! The move-to-front decision queue (VMTF, as CaDiCaL and Kissat have it): the variables of
//! each conflict's analysis move to the front, in the order they stood in, and a decision takes
//! the unassigned variable nearest the front. Recent conflicts lead, and moving a variable costs
//! a few links, not a heap's sifting.

/// The queue of variables, with the place decisions search from.
#[derive(Debug)]
pub(super) struct MoveToFront {
    /// Each variable's neighbour towards the back (older), or `NONE`.
    older: Vec<u32>,
    /// Each variable's neighbour towards the front (newer), or `NONE`.
    newer: Vec<u32>,
    /// When each variable last moved to the front: stamps rise from back to front.
    stamp: Vec<u64>,
    /// The front of the queue.
    front: u32,
    /// The back of the queue.
    back: u32,
    /// Where the next decision starts looking, towards the back: every variable in front of
    /// it has a value.
    search: u32,
    /// The last stamp given at the front.
    stamps: u64,
    /// The last stamp given at the back: stamps at the back fall below every other.
    back_stamps: u64,
    /// Whether each variable is out of the queue, set aside by a search of a scope.
    aside: Vec<bool>,
    /// The variables bumped by the conflict analysis under way.
    bumped: Vec<u32>,
}

/// No variable: the end of the queue.
const NONE: u32 = u32::MAX;
/// The stamp the queue starts from: those of the front rise from it, those of the back fall.
const FIRST_STAMP: u64 = 1 << 62;

impl MoveToFront {
    /// Every one of `vars` variables in the queue, variable 0 in front: the first decisions
    /// come in variable order.
    pub(super) fn new(vars: usize) -> Self {
        let mut queue = MoveToFront {
            older: vec![NONE; vars],
            newer: vec![NONE; vars],
            stamp: vec![0; vars],
            front: NONE,
            back: NONE,
            search: NONE,
            stamps: FIRST_STAMP,
            back_stamps: FIRST_STAMP,
            aside: vec![false; vars],
            bumped: Vec::new(),
        };
        for var in (0..vars as u32).rev() {
            queue.push_front(var);
        }
        queue.search = queue.front;
        queue
    }

    /// Puts the variables in an order drawn from `rng` instead of variable order.
    pub(super) fn shuffle(&mut self, rng: &mut crate::rng::SplitMix) {
        let mut vars: Vec<u32> = (0..self.stamp.len() as u32).collect();
        // Fisher-Yates.
        for i in (1..vars.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            vars.swap(i, j);
        }
        for var in vars {
            self.move_to_front(var);
        }
        self.search = self.front;
    }

    /// Puts `vars` in front, in their order (the first of them at the front); the others
    /// keep theirs behind them.
    pub(super) fn put_first(&mut self, vars: &[u32]) {
        for &var in vars.iter().rev() {
            self.move_to_front(var);
        }
        self.search = self.front;
    }

    /// Notes that `var` lost its value: decisions search from it if it is nearer the front.
    pub(super) fn insert(&mut self, var: u32) {
        if self.aside[var as usize] {
            return;
        }
        if self.search == NONE || self.stamp[var as usize] > self.stamp[self.search as usize] {
            self.search = var;
        }
    }

    /// The next candidate for a decision, from the front back, or `None` past the back. It
    /// may have a value (the caller skips it); every variable without one comes in time.
    pub(super) fn pop(&mut self) -> Option<u32> {
        let var = self.search;
        if var == NONE {
            return None;
        }
        self.search = self.older[var as usize];
        Some(var)
    }

    /// Marks `var`, which took part in the conflict under analysis, to move to the front.
    pub(super) fn bump(&mut self, var: u32) {
        self.bumped.push(var);
    }

    /// Moves the variables bumped since the last call to the front, keeping their order;
    /// `unknown` says which have no value now (after the jump back), so that decisions find
    /// them.
    pub(super) fn requeue(&mut self, unknown: impl Fn(u32) -> bool) {
        let mut bumped = std::mem::take(&mut self.bumped);
        bumped.sort_unstable_by_key(|&var| self.stamp[var as usize]);
        let mut newest_unknown = None;
        for &var in &bumped {
            self.move_to_front(var);
            if !self.aside[var as usize] && unknown(var) {
                newest_unknown = Some(var);
            }
        }
        if let Some(var) = newest_unknown {
            self.search = var;
        }
        bumped.clear();
        self.bumped = bumped;
    }

    /// Takes `var` out of the queue until [`MoveToFront::restore`]: a search of a scope passed it
    /// by, as it is not the scope's to decide.
    pub(super) fn set_aside(&mut self, var: u32) {
        if !self.aside[var as usize] {
            self.unlink(var);
            self.aside[var as usize] = true;
        }
    }

    /// Puts the variables set aside among `vars` back, behind every other, in the order they
    /// stood in.
    pub(super) fn restore(&mut self, vars: &mut [u32]) {
        vars.sort_unstable_by_key(|&var| std::cmp::Reverse(self.stamp[var as usize]));
        for &var in vars.iter() {
            let v = var as usize;
            if !self.aside[v] {
                continue;
            }
            self.aside[v] = false;
            self.push_back(var);
            self.insert(var);
        }
    }

    /// Takes `var` out of its place and puts it in front (if it is in the queue, not aside).
    fn move_to_front(&mut self, var: u32) {
        let v = var as usize;
        if self.aside[v] {
            return;
        }
        self.unlink(var);
        self.push_front(var);
    }

    /// Takes `var` out of the queue, mending the links around it.
    fn unlink(&mut self, var: u32) {
        let v = var as usize;
        let (older, newer) = (self.older[v], self.newer[v]);
        if older != NONE {
            self.newer[older as usize] = newer;
        } else {
            self.back = newer;
        }
        if newer != NONE {
            self.older[newer as usize] = older;
        } else {
            self.front = older;
        }
        if self.search == var {
            self.search = older;
        }
    }

    /// Links `var` (out of the queue) in front, with the next stamp.
    fn push_front(&mut self, var: u32) {
        let v = var as usize;
        self.older[v] = self.front;
        self.newer[v] = NONE;
        if self.front != NONE {
            self.newer[self.front as usize] = var;
        } else {
            self.back = var;
        }
        self.front = var;
        self.stamps += 1;
        self.stamp[v] = self.stamps;
    }

    /// Links `var` (out of the queue) behind every other, with a stamp below theirs.
    fn push_back(&mut self, var: u32) {
        let v = var as usize;
        self.older[v] = NONE;
        self.newer[v] = self.back;
        if self.back != NONE {
            self.older[self.back as usize] = var;
        } else {
            self.front = var;
        }
        self.back = var;
        self.back_stamps -= 1;
        self.stamp[v] = self.back_stamps;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every candidate `queue` offers from where its search stands, to the back.
    fn drain(queue: &mut MoveToFront) -> Vec<u32> {
        std::iter::from_fn(|| queue.pop()).collect()
    }

    #[test]
    fn decisions_come_in_variable_order_and_bumped_variables_lead() {
        let mut order = MoveToFront::new(5);
        order.bump(3);
        order.bump(1);
        order.requeue(|_| true);
        // Bumped variables keep their order among themselves: 1 stood nearer the front.
        assert_eq!(order.pop(), Some(1));
        assert_eq!(order.pop(), Some(3));
        // 3 loses its value again: the search comes back to it.
        order.insert(3);
        assert_eq!(drain(&mut order), vec![3, 0, 2, 4]);
        assert_eq!(order.pop(), None);
    }

    #[test]
    fn a_bumped_variable_with_a_value_is_not_searched_again_until_it_loses_it() {
        let mut order = MoveToFront::new(4);
        assert_eq!((order.pop(), order.pop()), (Some(0), Some(1)));
        // 1 was decided and took part in a conflict; it keeps its value.
        order.bump(1);
        order.requeue(|var| var != 1 && var != 0);
        assert_eq!(order.pop(), Some(2));
        order.insert(1);
        assert_eq!(drain(&mut order), vec![1, 0, 2, 3]);
    }

    #[test]
    fn variables_set_aside_leave_the_queue_and_come_back_behind_it() {
        let mut order = MoveToFront::new(6);
        // A search of a scope that holds 0, 2 and 4 passes 1 and 3 by.
        assert_eq!(order.pop(), Some(0));
        assert_eq!(order.pop(), Some(1));
        order.set_aside(1);
        assert_eq!(order.pop(), Some(2));
        assert_eq!(order.pop(), Some(3));
        order.set_aside(3);
        // A jump back: 2 and 3 lose their values; 3 stays out, and a bump leaves it out.
        order.insert(3);
        order.insert(2);
        order.bump(3);
        order.requeue(|_| true);
        assert_eq!(drain(&mut order), vec![2, 4, 5]);
        // The check ends: 1 and 3 come back behind the rest, in their order, and decisions
        // find them.
        order.restore(&mut [3, 1]);
        assert_eq!(drain(&mut order), vec![1, 3]);
        order.insert(0);
        assert_eq!(drain(&mut order), vec![0, 2, 4, 5, 1, 3]);
    }
}
