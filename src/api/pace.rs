//! The pace of a running count or enumeration, from which its time left is told. A count made
//! without enumerating: the share done (the lines fixed of the profiles' dynamic program, or
//! the share of its tree a sweep has finished) over the last few seconds of this run of the
//! method gives the time the rest will take at the same pace. An enumeration: its work and
//! solutions over the last quarter of its run ([`RecentPace`]).

use crate::count::{CountPhase, CountSnapshot};

/// The share of a count done, for the phases that know it: the profiles' lines fixed of all,
/// or the sweep's finished share of its tree (also while it races components); `None` for
/// components alone and for the root.
pub(crate) fn share_done(s: &CountSnapshot) -> Option<f64> {
    let share = match s.phase {
        CountPhase::Profiles if s.lines > 0 => s.lines_fixed as f64 / s.lines as f64,
        CountPhase::Sweep | CountPhase::Race => s.sweep_explored,
        _ => return None,
    };
    share.is_finite().then_some(share.clamp(0.0, 1.0))
}

/// How many earlier sightings the pace is taken over: the last few seconds, as a phase's
/// pace changes (the profiles' layers grow, and a sweep resumed from its memo first races
/// through what it had counted before).
const WINDOW: usize = 3;

/// The pace of one run of a method: the phase, and its share done and the seconds elapsed
/// at its last few sightings, the oldest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pace {
    phase: Option<CountPhase>,
    seen: std::collections::VecDeque<(f64, f64)>,
    /// Sightings of this run so far: its first second is left out of the pace, as a sweep
    /// resumed from its memo races through it.
    sightings: usize,
}

impl Pace {
    /// Seconds left for `share` done of `phase` after `elapsed` seconds of the count, at the
    /// pace of the last few sightings after the first: above zero and finite, or `None` until
    /// the share has grown, and once it is whole. A new phase, or a share that went down (a sweep from
    /// another side taking its turn), starts a new run.
    pub(crate) fn seconds_left(
        &mut self,
        phase: CountPhase,
        share: f64,
        elapsed: f64,
    ) -> Option<f64> {
        let went_down = self.seen.back().is_some_and(|&(last, _)| share < last);
        if self.phase != Some(phase) || went_down {
            self.phase = Some(phase);
            self.seen.clear();
            self.sightings = 0;
        }
        self.sightings += 1;
        if self.seen.len() > WINDOW || self.sightings == 2 {
            self.seen.pop_front();
        }
        let (from, since) = self.seen.front().copied().unwrap_or((share, elapsed));
        self.seen.push_back((share, elapsed));
        let (done, took) = (share - from, elapsed - since);
        if !(done > 0.0 && took > 0.0) || share >= 1.0 {
            return None;
        }
        let left = took * (1.0 - share) / done;
        (left > 0.0 && left.is_finite()).then_some(left)
    }
}

/// The share of an enumeration's run, the last, over which [`RecentPace`] takes its pace: the
/// pace changes as the run goes on (the estimator probes beside the search for its first
/// seconds, and the nodes near the root, which probe, cost more than those below), and the
/// last stretch says best how the rest will go (docs/benchmarks.md, "Progress estimates").
const RECENT_SHARE: f64 = 0.25;

/// The pace of an enumeration over the last [`RECENT_SHARE`] of its run: from the sighting at
/// or just before the stretch began (or from the start, before any), to now.
#[derive(Clone, Debug, Default)]
pub(crate) struct RecentPace {
    /// Sightings of (seconds elapsed, work, solutions), the oldest first: one at or before the
    /// last stretch, and those since.
    seen: std::collections::VecDeque<(f64, f64, f64)>,
}

impl RecentPace {
    /// Work (nodes plus solutions) and solutions a second over the last stretch of a run that
    /// has done `work` and found `solutions` in `elapsed` seconds; then notes this sighting.
    /// The pace so far where the stretch shows none (no time passed, or no work done in it).
    pub(crate) fn rates(&mut self, elapsed: f64, work: f64, solutions: f64) -> (f64, f64) {
        let began = elapsed * (1.0 - RECENT_SHARE);
        while self.seen.len() > 1 && self.seen[1].0 <= began {
            self.seen.pop_front();
        }
        let from = match self.seen.front() {
            Some(&first) if first.0 <= began => first,
            _ => (0.0, 0.0, 0.0),
        };
        self.seen.push_back((elapsed, work, solutions));
        let per_second = |from: (f64, f64, f64)| {
            let took = elapsed - from.0;
            ((work - from.1) / took, (solutions - from.2) / took)
        };
        match per_second(from) {
            (work, solutions) if work > 0.0 && work.is_finite() => (work, solutions.max(0.0)),
            _ if elapsed > 0.0 => per_second((0.0, 0.0, 0.0)),
            _ => (0.0, 0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_follows_the_pace_of_the_share_done() {
        let mut pace = Pace::default();
        // The time left by the sweep at `share` after `seconds`, once there is a pace.
        let mut left =
            |share: f64, seconds: f64| pace.seconds_left(CountPhase::Sweep, share, seconds);
        let near = |left: Option<f64>, expected: f64| {
            let left = left.expect("a pace");
            assert!((left - expected).abs() < 1e-9, "{left} against {expected}");
        };
        // First seen at 5% after 0.5 s, then at 10% after 1 s: no pace yet (the first sighting
        // is left out).
        assert_eq!(left(0.05, 0.5), None);
        assert_eq!(left(0.1, 1.0), None);
        // 20% more in 2 s: the remaining 70% in 7 s.
        near(left(0.3, 3.0), 7.0);
        // No progress since: the pace of the last few sightings stands, slower.
        near(left(0.3, 5.0), 14.0);
        // Only the last few sightings count: 0.3 -> 0.4 in 4 s, 60% left.
        left(0.3, 6.0);
        near(left(0.4, 7.0), 24.0);
        // Another side's turn starts from 0 again: a new run, no pace yet; its first second,
        // through the memo, is left out.
        assert_eq!(left(0.0, 8.0), None);
        assert_eq!(left(0.5, 9.0), None);
        near(left(0.6, 10.0), 4.0);
        // A new phase starts a new run too.
        assert_eq!(pace.seconds_left(CountPhase::Profiles, 0.6, 11.0), None);
    }

    #[test]
    fn an_enumerations_pace_is_that_of_the_last_quarter_of_its_run() {
        let mut pace = RecentPace::default();
        // Nothing seen before: the pace from the start.
        assert_eq!(pace.rates(1.0, 100.0, 10.0), (100.0, 10.0));
        assert_eq!(pace.rates(2.0, 200.0, 20.0), (100.0, 10.0));
        // From 4 s on, the run goes three times as fast.
        pace.rates(3.0, 300.0, 30.0);
        pace.rates(4.0, 400.0, 40.0);
        pace.rates(5.0, 700.0, 70.0);
        pace.rates(6.0, 1000.0, 100.0);
        // At 8 s the last quarter began at 6 s.
        assert_eq!(pace.rates(8.0, 1600.0, 160.0), (300.0, 30.0));
        // A stretch with no work in it (from 8 s to 16 s): the pace so far.
        assert_eq!(pace.rates(16.0, 1600.0, 160.0), (100.0, 10.0));
        // Only the sightings the stretch may need are kept.
        pace.rates(40.0, 2000.0, 200.0);
        assert!(pace.seen.len() <= 3, "{:?}", pace.seen);
        // No time passed: no pace.
        assert_eq!(RecentPace::default().rates(0.0, 0.0, 0.0), (0.0, 0.0));
    }

    #[test]
    fn the_time_left_is_never_zero_nor_unbounded() {
        let mut pace = Pace::default();
        assert_eq!(pace.seconds_left(CountPhase::Sweep, 0.0, 0.0), None);
        // All done: the count is about to end, with no time left to say.
        assert_eq!(pace.seconds_left(CountPhase::Sweep, 1.0, 1.0), None);
        let mut pace = Pace::default();
        for (share, elapsed) in [(0.0, f64::NAN), (f64::MIN_POSITIVE, 1.0), (1e-300, 2.0)] {
            let left = pace.seconds_left(CountPhase::Race, share, elapsed);
            assert!(left.is_none_or(|s| s > 0.0 && s.is_finite()), "{left:?}");
        }
    }
}
