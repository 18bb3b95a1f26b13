//! A sweep's live counters, which a progress display reads while the sweeps run: nodes,
//! the share of the tree finished by the sweep at work and by every sweep still kept, the
//! solutions counted in finished subtrees, and whether the sweeps gave up.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use num_bigint::BigUint;

use super::WHOLE_TREE;
use crate::count::tally::LowerBound;

/// What a sweep did, updated live (a progress display may read it while the sweep runs).
#[derive(Debug, Default)]
pub struct SweepStats {
    /// Nodes whose count was not in the memo (each branched on one cell).
    pub branched: AtomicU64,
    /// Nodes whose count came from the memo.
    pub memo_hits: AtomicU64,
    /// The finished part of the sweep's tree, in units of [`WHOLE_TREE`] (see
    /// [`share_among_children`](super::share_among_children) for how a node's part is shared among its children).
    explored: AtomicU64,
    /// Solutions counted in finished subtrees so far, as the bits of an `f64`.
    counted: AtomicU64,
    /// The most solutions a sweep that stopped before it finished had counted for certain.
    at_least: LowerBound,
    /// Which sweep the explored fraction is of: see [`SweepStats::turn`].
    turn: AtomicU32,
    /// For each side (an index of [`Orientation::ALL`](crate::count::Orientation::ALL)), the most of its tree its sweep had
    /// finished at the end of a turn, in units of [`WHOLE_TREE`]; 0 once the sweep is dropped.
    kept: [AtomicU64; 4],
    /// Whether the sweeps of the grid gave up before one finished.
    gave_up: AtomicBool,
    /// The most bytes the memos took at once, at the end of a turn, and their budget.
    memo: [AtomicU64; 2],
}

/// Bits of [`SweepStats::turn`] below the grid's number, for the side plus one.
const SIDE_BITS: u32 = 3;

impl SweepStats {
    /// The fraction of the sweep's tree finished, in `[0, 1]`.
    pub fn explored(&self) -> f64 {
        self.explored.load(Ordering::Relaxed) as f64 / WHOLE_TREE as f64
    }

    /// Solutions counted so far in finished subtrees (about: an `f64`); the count, once the
    /// sweep ends.
    pub fn counted(&self) -> f64 {
        f64::from_bits(self.counted.load(Ordering::Relaxed))
    }

    /// The most solutions a sweep that stopped before it finished (cancelled, or its memo
    /// full) had counted for certain, exactly: a lower bound on the count.
    pub fn at_least(&self) -> BigUint {
        self.at_least.get()
    }

    /// Offers the solutions a sweep that stopped had counted for certain to
    /// [`SweepStats::at_least`].
    pub(in crate::count) fn offer_at_least(&self, counted: BigUint) {
        self.at_least.offer(counted);
    }

    /// Which sweep [`SweepStats::explored`] is of, as a number: two equal numbers are one
    /// sweep (one side of one grid), whose explored fraction only grows over its turns
    /// (after racing back through its memo at the start of each); 0 before any sweep.
    pub fn turn(&self) -> u32 {
        self.turn.load(Ordering::Relaxed)
    }

    /// Starts the explored fraction and the partial count again, for a turn of the sweep
    /// with side `side` (an index of [`Orientation::ALL`](crate::count::Orientation::ALL)) of the grid it counts now.
    pub(in crate::count) fn restart(&self, side: u32) {
        self.explored.store(0, Ordering::Relaxed);
        self.counted.store(0f64.to_bits(), Ordering::Relaxed);
        let grid = self.turn.load(Ordering::Relaxed) >> SIDE_BITS;
        self.turn
            .store(grid << SIDE_BITS | (side + 1), Ordering::Relaxed);
    }

    /// The grid a sweep's turn number (see [`SweepStats::turn`]) counts: equal for the sweeps
    /// of every side of one grid, another once the backbone makes it smaller.
    pub(crate) fn grid_of(turn: u32) -> u32 {
        turn >> SIDE_BITS
    }

    /// Notes that the sweeps from now on count another grid (the backbone made it smaller),
    /// so that their fractions are not taken for those of the sweeps before.
    pub(in crate::count) fn new_grid(&self) {
        self.turn.fetch_add(1 << SIDE_BITS, Ordering::Relaxed);
        self.gave_up.store(false, Ordering::Relaxed);
        for kept in &self.kept {
            kept.store(0, Ordering::Relaxed);
        }
    }

    /// Notes that the turn of the sweep from `side` (an index of [`Orientation::ALL`](crate::count::Orientation::ALL)) ended,
    /// having finished [`SweepStats::explored`] of its tree.
    pub(in crate::count) fn end_turn(&self, side: usize) {
        let explored = self.explored.load(Ordering::Relaxed);
        if let Some(kept) = self.kept.get(side) {
            kept.fetch_max(explored, Ordering::Relaxed);
        }
    }

    /// Notes that the memos have taken at most `peak` bytes at once of their budget of
    /// `limit` bytes.
    pub(in crate::count) fn note_memo(&self, (peak, limit): (usize, usize)) {
        self.memo[0].fetch_max(peak as u64, Ordering::Relaxed);
        self.memo[1].store(limit as u64, Ordering::Relaxed);
    }

    /// The most bytes the memos took at once (as their budget estimates them), as of the end
    /// of the last turn, and their budget in bytes.
    pub fn memo_bytes(&self) -> (u64, u64) {
        let [peak, limit] = &self.memo;
        (peak.load(Ordering::Relaxed), limit.load(Ordering::Relaxed))
    }

    /// Notes that the sweep from `side` was dropped with the subtrees it had finished (to
    /// make room for another side's memo, or to count again in wider numbers): what it
    /// finished no longer counts, and a sweep from that side starts from nothing.
    pub(in crate::count) fn drop_side(&self, side: usize) {
        if let Some(kept) = self.kept.get(side) {
            kept.store(0, Ordering::Relaxed);
        }
        if self.turn.load(Ordering::Relaxed) & ((1 << SIDE_BITS) - 1) == side as u32 + 1 {
            self.explored.store(0, Ordering::Relaxed);
        }
    }

    /// The most of its tree the sweep from `side` (an index of
    /// [`Orientation::ALL`](crate::count::Orientation::ALL)) had finished at the end of a turn,
    /// in `[0, 1]`; 0 once it is dropped.
    pub(in crate::count) fn kept_by(&self, side: usize) -> f64 {
        let kept = self.kept.get(side).map_or(0, |k| k.load(Ordering::Relaxed));
        kept as f64 / WHOLE_TREE as f64
    }

    /// The most of its tree any sweep still kept has finished, in `[0, 1]`: the sweep at
    /// work, which races back through its memo at the start of each turn, or another side
    /// at the end of its last turn.
    pub fn kept_explored(&self) -> f64 {
        let kept = self.kept.iter().map(|k| k.load(Ordering::Relaxed)).max();
        let most = kept.unwrap_or(0).max(self.explored.load(Ordering::Relaxed));
        most as f64 / WHOLE_TREE as f64
    }

    /// Notes that the sweeps gave up (their memos full, or a line they cannot read) while
    /// the count goes on by other methods.
    pub(in crate::count) fn give_up(&self) {
        self.gave_up.store(true, Ordering::Relaxed);
    }

    /// Whether the sweeps gave up before one finished: their memos full, or a line they could
    /// not read, while other methods count on.
    pub fn gave_up(&self) -> bool {
        self.gave_up.load(Ordering::Relaxed)
    }

    /// Records that a node finished, with `weight` (in units of [`WHOLE_TREE`]) of its own
    /// (all of it for a node that did not branch, what its children were not given for one
    /// that did), counting `solutions` of its own (`0.0` for a node whose children already
    /// counted theirs).
    pub(in crate::count) fn finish(&self, weight: u64, solutions: f64) {
        if weight > 0 {
            self.explored.fetch_add(weight, Ordering::Relaxed);
        }
        if solutions > 0.0 {
            let _ = self
                .counted
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                    Some((f64::from_bits(bits) + solutions).to_bits())
                });
        }
    }
}
