//! What search frames hold for their later children, within memory budgets per thread: the
//! later children themselves, as whole grids (past the budget, frames explore in place, see
//! `in_place`), and the probe memos: when a new memo would go over its budget, the memos of
//! the shallowest frames are dropped first.
//!
//! A node hands its [`SealedMemo`] to its children: the first child reads it at once, the
//! second only when the first child's whole subtree is done, so the frame keeps it until then.
//! On a path thousands of levels deep (a 100 x 100 puzzle of 1,089 independent choices) the
//! memos of every level would add up to well over 100 MiB per thread. The frames near the root
//! are visited once; those near the leaves, where the search spends its time, again and again,
//! so when the budget is full it is the shallowest memos that go (their second children probe
//! afresh), and the deep ones stay.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use crate::choose::SealedMemo;
use crate::domain::DomainGrid;

/// The bytes of probe memos that one thread's search frames may hold at once. The library's
/// own tests use a budget of a few memos, so that their searches drop memos too.
const MEMO_BUDGET: usize = if cfg!(test) { 16 << 10 } else { 12 << 20 };

/// A memo that a frame holds for its children, until the budget drops it.
pub(crate) struct MemoSlot<G> {
    memo: Mutex<Option<Arc<SealedMemo<G>>>>,
}

impl<G> MemoSlot<G> {
    /// The memo, unless it was dropped to keep within the budget.
    pub(crate) fn get(&self) -> Option<Arc<SealedMemo<G>>> {
        self.memo
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// A slot that the budget can empty.
trait Evict {
    fn evict(&self);
}

impl<G> Evict for MemoSlot<G> {
    fn evict(&self) {
        self.memo
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

/// The slots this thread's frames hold, shallowest first, with their bytes.
#[derive(Default)]
struct Held {
    bytes: usize,
    next_id: u64,
    slots: VecDeque<(u64, usize, Arc<dyn Evict>)>,
}

thread_local! {
    static HELD: RefCell<Held> = RefCell::new(Held::default());
}

/// A frame's hold on its memo: [`release`](Hold::release) it when the children are done.
pub(crate) struct Hold<G> {
    slot: Arc<MemoSlot<G>>,
    id: u64,
}

impl<G: Send + Sync + 'static> Hold<G> {
    /// Holds `memo` for a frame's children, dropping the shallowest memos this thread holds if
    /// it would go over the budget (never the newest).
    pub(crate) fn new(memo: Arc<SealedMemo<G>>, bytes: usize) -> Self
    where
        G: DomainGrid,
    {
        let slot = Arc::new(MemoSlot {
            memo: Mutex::new(Some(memo)),
        });
        let id = HELD.with_borrow_mut(|held| {
            let id = held.next_id;
            held.next_id += 1;
            held.bytes += bytes;
            held.slots.push_back((id, bytes, slot.clone()));
            while held.bytes > MEMO_BUDGET && held.slots.len() > 1 {
                if let Some((_, dropped, evicted)) = held.slots.pop_front() {
                    evicted.evict();
                    held.bytes -= dropped;
                }
            }
            id
        });
        Hold { slot, id }
    }

    /// The slot the children read the memo from.
    pub(crate) fn slot(&self) -> &MemoSlot<G> {
        &self.slot
    }

    /// Ends the hold (on the thread that made it): the memo is dropped, unless a child still
    /// reads it.
    pub(crate) fn release(self) {
        HELD.with_borrow_mut(|held| {
            let at = held.slots.iter().rposition(|&(id, _, _)| id == self.id);
            if let Some((_, bytes, _)) = at.and_then(|at| held.slots.remove(at)) {
                held.bytes -= bytes;
            }
        });
        self.slot.evict();
    }
}

/// The bytes of later children that one thread's search frames may hold as whole grids. The
/// library's own tests use a budget of a few small grids, so that their searches go in place
/// too.
const SIBLING_BUDGET: usize = if cfg!(test) { 4 << 10 } else { 32 << 20 };

thread_local! {
    /// The bytes of later children this thread's frames hold as whole grids.
    static HELD_SIBLINGS: Cell<usize> = const { Cell::new(0) };
}

/// A frame's count of the later children it holds as whole grids while its first child runs.
pub(crate) struct Siblings {
    bytes: usize,
}

impl Siblings {
    /// Counts the later children of `children` as held, or returns `None` when that would
    /// take this thread's frames over the budget.
    pub(crate) fn hold<G: DomainGrid>(children: &[G]) -> Option<Siblings> {
        let bytes: usize = children.iter().skip(1).map(DomainGrid::heap_bytes).sum();
        HELD_SIBLINGS.with(|held| {
            let now = held.get();
            if now.saturating_add(bytes) > SIBLING_BUDGET {
                return None;
            }
            held.set(now + bytes);
            Some(Siblings { bytes })
        })
    }
}

impl Drop for Siblings {
    fn drop(&mut self) {
        HELD_SIBLINGS.with(|held| held.set(held.get().saturating_sub(self.bytes)));
    }
}

/// Holds a node's probe memo for its children (see [`super::held`]).
pub(crate) fn hold_memo<G: DomainGrid>(
    memo: Option<std::sync::Arc<crate::choose::SealedMemo<G>>>,
) -> Option<Hold<G>> {
    memo.map(|memo| {
        let bytes = memo.heap_bytes();
        Hold::new(memo, bytes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choose::ProbeMemo;
    use crate::grid::Grid;

    fn memo(grid: &Grid) -> Arc<SealedMemo<Grid>> {
        let mut memo = ProbeMemo::inherit(None, grid, 2);
        memo.record(0, 0, crate::domain::FILLED, 1, &[0, 1]);
        memo.seal(grid, &[])
    }

    #[test]
    fn the_shallowest_memos_go_first_and_releases_balance() {
        let grid = Grid::new(40, 40);
        let bytes = MEMO_BUDGET / 3;
        let holds: Vec<_> = (0..5).map(|_| Hold::new(memo(&grid), bytes)).collect();
        // Three fit: the two shallowest were dropped, the newest three kept.
        let kept: Vec<bool> = holds.iter().map(|h| h.slot().get().is_some()).collect();
        assert_eq!(kept, [false, false, true, true, true]);
        for hold in holds.into_iter().rev() {
            hold.release();
        }
        HELD.with_borrow(|held| {
            assert_eq!(held.bytes, 0);
            assert!(held.slots.is_empty());
        });
    }

    #[test]
    fn frames_past_the_budget_go_in_place_and_holds_balance() {
        let grids = vec![Grid::new(10, 10); 2];
        let bytes = grids[1].heap_bytes();
        let holds: Vec<_> = std::iter::from_fn(|| Siblings::hold(&grids))
            .take(1000)
            .collect();
        assert_eq!(holds.len(), SIBLING_BUDGET / bytes);
        drop(holds);
        HELD_SIBLINGS.with(|held| assert_eq!(held.get(), 0));
    }
}
