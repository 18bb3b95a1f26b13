//! The activity decision order (VSIDS): variables that took part in recent conflicts are
//! bumped, all activities decay by growing the bump step, so recent conflicts weigh most, and a
//! decision takes the unassigned variable of highest activity, from an indexed binary max-heap.
//! It keeps a longer memory than the move-to-front queue, which suits the completion checks of
//! the counter: many short searches of one puzzle, one after another.

/// Activities of the variables and the heap of unassigned ones.
#[derive(Debug)]
pub(super) struct Activity {
    activity: Vec<f64>,
    /// Variables in the heap, a max-heap on activity.
    heap: Vec<u32>,
    /// Each variable's index in `heap`, or `NOT_IN_HEAP`.
    slot: Vec<u32>,
    step: f64,
}

const NOT_IN_HEAP: u32 = u32::MAX;
/// Activities are rescaled when one grows past this.
const RESCALE_ABOVE: f64 = 1e100;
/// The bump step grows by `1 / DECAY` at every conflict.
const DECAY: f64 = 0.95;
/// Activities that [`Activity::shuffle`] gives lie below this: the first bump (1) outweighs
/// them all.
const TIE_BREAK: f64 = 1e-3;

impl Activity {
    /// Every one of `vars` variables in the heap with activity 0.
    pub(super) fn new(vars: usize) -> Self {
        Activity {
            activity: vec![0.0; vars],
            heap: (0..vars as u32).collect(),
            slot: (0..vars as u32).collect(),
            step: 1.0,
        }
    }

    /// Breaks the ties of the first decisions by `rng`: every activity gets a distinct tiny
    /// value, far below one bump, so the order starts at random instead of in variable order.
    pub(super) fn shuffle(&mut self, rng: &mut crate::rng::SplitMix) {
        for a in &mut self.activity {
            *a = (rng.next() >> 11) as f64 * (TIE_BREAK / (1u64 << 53) as f64);
        }
        for at in (0..self.heap.len()).rev() {
            self.sift_down(at);
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
        let mut order = Activity::new(5);
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
}
