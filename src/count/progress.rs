//! Live counters of an exact count, which another thread may read while the count runs (for
//! `count --progress`): which method is at work, and how far it has got.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};

use super::backbone::BackboneStats;
use super::components::ComponentStats;
use super::sweep::SweepStats;

/// The method an exact count is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountPhase {
    /// Propagating and probing the root grid.
    Root,
    /// The dynamic program over profiles.
    Profiles,
    /// The propagated sweep.
    Sweep,
    /// Components and their cache.
    Components,
    /// The sweep and components at once, the first to finish winning.
    Race,
}

/// Where an exact count stands; share it with a display thread and pass it to
/// `count_exact`.
#[derive(Debug, Default)]
pub struct CountProgress {
    phase: AtomicU8,
    lines_fixed: AtomicUsize,
    lines: AtomicUsize,
    profiles: AtomicUsize,
    /// The most solutions counted for certain so far, as the bits of a non-negative `f64`
    /// (whose bits order as the numbers do): see [`CountProgress::counted`].
    counted: AtomicU64,
    /// The sweep's counters.
    pub sweep: SweepStats,
    /// The component counter's counters.
    pub components: ComponentStats,
    /// The backbone search's counters.
    pub backbone: BackboneStats,
}

/// A copy of [`CountProgress`] at one moment.
#[derive(Clone, Copy, Debug)]
pub struct CountSnapshot {
    /// The method at work: a race whose sweeps gave up, with no profiles racing, is
    /// components alone.
    pub phase: CountPhase,
    /// Profiles: lines fixed so far, of `lines`.
    pub lines_fixed: usize,
    /// Profiles: lines to fix in all.
    pub lines: usize,
    /// Profiles: distinct profiles in the last layer.
    pub profiles: usize,
    /// Sweep: nodes branched, and nodes whose count came from the memo.
    pub sweep_nodes: (u64, u64),
    /// Sweep: the fraction of its tree finished, in `[0, 1]`, by the sweep at work.
    pub sweep_explored: f64,
    /// Sweep: which sweep `sweep_explored` is of (see [`SweepStats::turn`]); sweeps from
    /// different sides take turns, each starting again from 0 and racing through its memo
    /// to where its last turn stopped.
    pub sweep_turn: u32,
    /// Sweep: solutions counted in finished subtrees of the sweep at work (about); it starts
    /// again from 0 when a sweep from another side takes its turn.
    pub sweep_counted: f64,
    /// Sweep: the most of its tree any sweep still kept has finished (see
    /// [`SweepStats::kept_explored`]); it goes down only when sweeps are dropped with their
    /// work, to make room in memory.
    pub sweep_kept_explored: f64,
    /// Sweep: the most bytes its memos took at once (as their budget estimates them), as of
    /// the end of the last turn, and their budget in bytes.
    pub sweep_memo: (u64, u64),
    /// Sweep: whether the sweeps gave up (see [`SweepStats::gave_up`]) while other methods
    /// count on.
    pub sweep_gave_up: bool,
    /// Solutions counted for certain so far, by any method (about): a lower bound on the
    /// count that never decreases from one snapshot to the next.
    pub counted: f64,
    /// Components: counted by branching, and taken from the cache.
    pub component_nodes: (u64, u64),
    /// Backbone: checks made, and cells fixed.
    pub backbone: (u64, u64),
    /// Backbone: while its search runs, the cells taken to check and the cells to check
    /// (`(0, 0)` while it looks for a first solution); `None` otherwise. The sweep waits
    /// for it, unless `CountLimits::backbone_after` lets the sweep go first.
    pub backbone_checking: Option<(u64, u64)>,
}

impl CountProgress {
    /// Records the method now at work.
    pub(super) fn enter(&self, phase: CountPhase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// Records a layer of the profiles' dynamic program.
    pub(super) fn layer(&self, lines_fixed: usize, lines: usize, profiles: usize) {
        self.lines_fixed.store(lines_fixed, Ordering::Relaxed);
        self.lines.store(lines, Ordering::Relaxed);
        self.profiles.store(profiles, Ordering::Relaxed);
    }

    /// Once a count has stopped before it finished: how many solutions it had counted for
    /// certain (the most either the sweep or components had), exactly; 0 if neither counted
    /// any, or neither ran.
    pub fn at_least(&self) -> num_bigint::BigUint {
        self.sweep.at_least().max(self.components.at_least())
    }

    /// Solutions counted for certain so far (about: an `f64`): the most that any sweep had
    /// counted in its finished subtrees, or any method that stopped had counted. Sweeps from
    /// different sides take turns, each counting from 0 again, so each alone goes up and down;
    /// this never decreases.
    pub fn counted(&self) -> f64 {
        let now = self
            .sweep
            .counted()
            .max(num_traits::ToPrimitive::to_f64(&self.at_least()).unwrap_or(0.0))
            .max(0.0);
        let before = self.counted.fetch_max(now.to_bits(), Ordering::Relaxed);
        f64::from_bits(before).max(now)
    }

    /// The counters now.
    pub fn snapshot(&self) -> CountSnapshot {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        let phase = match self.phase.load(Ordering::Relaxed) {
            p if p == CountPhase::Profiles as u8 => CountPhase::Profiles,
            p if p == CountPhase::Sweep as u8 => CountPhase::Sweep,
            p if p == CountPhase::Components as u8 => CountPhase::Components,
            p if p == CountPhase::Race as u8 => CountPhase::Race,
            _ => CountPhase::Root,
        };
        let lines = self.lines.load(Ordering::Relaxed);
        let phase = match phase {
            CountPhase::Race if self.sweep.gave_up() && lines == 0 => CountPhase::Components,
            phase => phase,
        };
        CountSnapshot {
            phase,
            lines_fixed: self.lines_fixed.load(Ordering::Relaxed),
            lines,
            profiles: self.profiles.load(Ordering::Relaxed),
            sweep_nodes: (load(&self.sweep.branched), load(&self.sweep.memo_hits)),
            sweep_explored: self.sweep.explored(),
            sweep_turn: self.sweep.turn(),
            sweep_counted: self.sweep.counted(),
            sweep_kept_explored: self.sweep.kept_explored(),
            sweep_memo: self.sweep.memo_bytes(),
            sweep_gave_up: self.sweep.gave_up(),
            counted: self.counted(),
            component_nodes: (
                load(&self.components.branched),
                load(&self.components.cache_hits),
            ),
            backbone: (load(&self.backbone.checks), load(&self.backbone.fixed)),
            backbone_checking: self.backbone.checking(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sweep::WHOLE_TREE;
    use super::*;

    #[test]
    fn the_share_shown_is_the_most_a_sweep_still_kept_has_finished() {
        let stats = SweepStats::default();
        // Side 0 finishes a quarter in its turn; side 1 then starts from nothing.
        stats.restart(0);
        stats.finish(WHOLE_TREE >> 2, 0.0);
        stats.end_turn(0);
        stats.restart(1);
        stats.finish(WHOLE_TREE >> 4, 0.0);
        assert_eq!(stats.kept_explored(), 0.25);
        // Side 0's sweep is dropped to make room for side 1's memo: its quarter is gone.
        stats.drop_side(0);
        assert_eq!(stats.kept_explored(), 1.0 / 16.0);
        // Side 1 goes on, racing back through its memo: what it had finished still shows.
        stats.end_turn(1);
        stats.restart(1);
        assert_eq!(stats.kept_explored(), 1.0 / 16.0);
        // Dropped itself, nothing is left; a new grid starts over.
        stats.drop_side(1);
        assert_eq!(stats.kept_explored(), 0.0);
        stats.give_up();
        assert!(stats.gave_up());
        stats.new_grid();
        assert!(!stats.gave_up());
    }

    #[test]
    fn a_race_whose_sweeps_gave_up_is_components_alone_unless_profiles_race() {
        let progress = CountProgress::default();
        progress.enter(CountPhase::Race);
        progress.sweep.give_up();
        assert_eq!(progress.snapshot().phase, CountPhase::Components);
        progress.layer(3, 20, 1000);
        assert_eq!(progress.snapshot().phase, CountPhase::Race);
    }

    #[test]
    fn the_count_so_far_never_decreases_when_sweeps_take_turns() {
        let progress = CountProgress::default();
        assert_eq!(progress.snapshot().counted, 0.0);
        progress.sweep.finish(WHOLE_TREE >> 3, 500.0);
        assert_eq!(progress.snapshot().counted, 500.0);
        // A sweep from another side starts counting again.
        progress.sweep.restart(1);
        progress.sweep.finish(WHOLE_TREE >> 2, 120.0);
        let snapshot = progress.snapshot();
        assert_eq!(snapshot.sweep_counted, 120.0);
        assert_eq!(snapshot.counted, 500.0);
        progress.sweep.finish(WHOLE_TREE >> 2, 400.0);
        assert_eq!(progress.snapshot().counted, 520.0);
        // An exact bound from a method that stopped counts too.
        progress
            .components
            .at_least
            .offer(num_bigint::BigUint::from(600u32));
        assert_eq!(progress.snapshot().counted, 600.0);
        assert_eq!(progress.at_least(), num_bigint::BigUint::from(600u32));
    }
}
