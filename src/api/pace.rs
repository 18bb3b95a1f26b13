//! The pace of a running count or enumeration, from which its time left is told. A count made
//! by profiles: the share of lines fixed over the last few seconds gives the time the rest
//! will take at the same pace. A count by sweeps, which take turns from the grid's sides: the
//! most of its tree any side still kept has finished, over all the sweeps' time
//! ([`SweepPace`]). An enumeration: its work and solutions over the last quarter of its run
//! ([`RecentPace`]).

use std::collections::VecDeque;

use crate::count::{CountPhase, CountSnapshot, SweepStats};

/// How many earlier sightings the profiles' pace is taken over: the last few seconds, as
/// their layers grow.
const WINDOW: usize = 3;

/// The pace of a count made without enumerating: of the profiles' layers, or of the sweeps.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pace {
    /// The profiles' phase: their share done and the seconds elapsed at the last few
    /// sightings, the oldest first.
    layers: VecDeque<(f64, f64)>,
    sweeps: SweepPace,
    /// The seconds elapsed at the last sighting.
    last: f64,
}

impl Pace {
    /// The share of the count done and the seconds left at the pace seen so far, from
    /// `snapshot` taken `elapsed` seconds into the count; then notes the sighting. `None`
    /// for a phase that cannot tell (components alone, the root), and for a time left until
    /// the share has grown; a time left is above zero and finite. Sweeps not started yet have
    /// done nothing.
    pub(crate) fn sight(
        &mut self,
        snapshot: &CountSnapshot,
        elapsed: f64,
    ) -> (Option<f64>, Option<f64>) {
        let before = std::mem::replace(&mut self.last, elapsed);
        let (share, left) = match snapshot.phase {
            CountPhase::Profiles if snapshot.lines > 0 => {
                let share = snapshot.lines_fixed as f64 / snapshot.lines as f64;
                (share, self.layers_left(share, elapsed))
            }
            CountPhase::Sweep | CountPhase::Race => {
                // Profiles race while their layers stay small enough: the racer that should
                // finish first says how far the race is.
                let profiles = (snapshot.phase == CountPhase::Race && snapshot.lines > 0)
                    .then(|| snapshot.lines_fixed as f64 / snapshot.lines as f64)
                    .map(|share| (share, self.layers_left(share, elapsed)));
                let sweeps = self.sweeps_left(snapshot, (before, elapsed));
                match (sweeps, profiles) {
                    (Some(sweeps), Some(profiles)) => sooner(sweeps, profiles),
                    (Some(one), None) | (None, Some(one)) => one,
                    // Components alone cannot tell.
                    (None, None) => return (None, None),
                }
            }
            _ => return (None, None),
        };
        (Some(share), left)
    }

    /// The sweeps' share done and time left, from `snapshot` seen at `elapsed`, the sighting
    /// before at `before`; `None` once they gave up. No sweep has started yet (the backbone
    /// comes first): nothing done.
    fn sweeps_left(
        &mut self,
        snapshot: &CountSnapshot,
        seen: (f64, f64),
    ) -> Option<(f64, Option<f64>)> {
        if snapshot.sweep_gave_up {
            return None;
        }
        if snapshot.sweep_turn == 0 {
            return Some((0.0, None));
        }
        let (turn, share) = (snapshot.sweep_turn, snapshot.sweep_kept_explored);
        Some(self.sweeps.sight(turn, share, seen))
    }

    /// Seconds left for `share` of the profiles' lines fixed, at the pace of the last few
    /// sightings. Profiles that start again (racing, after a first try) start a new pace.
    fn layers_left(&mut self, share: f64, elapsed: f64) -> Option<f64> {
        if self.layers.back().is_some_and(|&(last, _)| share < last) {
            self.layers.clear();
        }
        if self.layers.len() > WINDOW {
            self.layers.pop_front();
        }
        let (from, since) = self.layers.front().copied().unwrap_or((share, elapsed));
        self.layers.push_back((share, elapsed));
        seconds_left(share, share - from, elapsed - since)
    }
}

/// Of two racers' share done and time left, those of the one that should finish first: the
/// sooner time left, or the one that tells one, or else the larger share.
fn sooner(a: (f64, Option<f64>), b: (f64, Option<f64>)) -> (f64, Option<f64>) {
    match (a.1, b.1) {
        (Some(x), Some(y)) if y < x => b,
        (None, Some(_)) => b,
        (None, None) if b.0 > a.0 => b,
        _ => a,
    }
}

/// Seconds left for the rest of a share of `share` done, at `done` of it in `took` seconds:
/// above zero and finite, or `None`.
fn seconds_left(share: f64, done: f64, took: f64) -> Option<f64> {
    if !(done > 0.0 && took > 0.0 && share < 1.0) {
        return None;
    }
    let left = took * (1.0 - share) / done;
    (left > 0.0 && left.is_finite()).then_some(left)
}

/// The least share of a sweep's tree finished from which [`SweepPace`] tells a time left: below
/// it, the share is a subtree or two, and the time left a guess (a random 20x20 picture showing
/// 0.2% done at a tenth of its run gave 300 times the true time left).
const MIN_SWEEP_SHARE: f64 = 0.01;

/// The pace of sweeps that take turns from the sides of one grid. Each side's finished share
/// grows only in its own turns, and a turn first races through its memo back to where the
/// side's last turn stopped; the first side to finish ends the count. So the share done is
/// the most any side still kept has finished ([`CountSnapshot::sweep_kept_explored`]), and the
/// time left is what the rest of it takes at the pace of all the sweeps' time so far (every
/// side's turns included, as they will go on, and those of sweeps dropped to make room in
/// memory). The pace of the last half of that time, side by side, was tried and was further
/// off: the share grows by fits and starts (docs/benchmarks.md, "Counts made without
/// enumerating").
#[derive(Clone, Debug, Default)]
pub(crate) struct SweepPace {
    /// The grid the sweeps count (see [`CountSnapshot::sweep_turn`]); a new grid starts over.
    grid: Option<u32>,
    /// When this grid's sweeps began, as near as the sightings tell: half way between the
    /// first sighting of them and the one before.
    began: f64,
}

impl SweepPace {
    /// The share done, and the time left at the pace so far, from the sweeps' turn `turn`
    /// with `share` of a tree finished by the sweeps still kept after `elapsed` seconds, the
    /// sighting before having been at `before`; then notes it. A new grid's sweeps began half
    /// way between.
    fn sight(
        &mut self,
        turn: u32,
        share: f64,
        (before, elapsed): (f64, f64),
    ) -> (f64, Option<f64>) {
        let share = if share.is_finite() {
            share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let grid = SweepStats::grid_of(turn);
        if self.grid != Some(grid) {
            *self = SweepPace {
                grid: Some(grid),
                began: (before + elapsed) / 2.0,
            };
        }
        let left = (share >= MIN_SWEEP_SHARE)
            .then(|| seconds_left(share, share, elapsed - self.began))
            .flatten();
        (share, left)
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
    /// Sightings, the oldest first: one at or before the last stretch, and those since.
    seen: std::collections::VecDeque<Sighting>,
}

/// What an enumeration had done at one moment: seconds elapsed, work (nodes, solutions and
/// line solves), solutions, and seconds its estimator had spent probing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Sighting {
    pub(crate) elapsed: f64,
    pub(crate) work: f64,
    pub(crate) solutions: f64,
    pub(crate) probing: f64,
}

/// An enumeration's pace over a stretch of its run: work and solutions a second, and the share
/// of the stretch its estimator spent probing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Rates {
    pub(crate) work: f64,
    pub(crate) solutions: f64,
    pub(crate) probing: f64,
}

impl RecentPace {
    /// The pace over the last stretch of a run that stands at `now`; then notes this sighting.
    /// The pace so far where the stretch shows none (no time passed, or no work done in it).
    pub(crate) fn rates(&mut self, now: Sighting) -> Rates {
        let began = now.elapsed * (1.0 - RECENT_SHARE);
        while self.seen.len() > 1 && self.seen[1].elapsed <= began {
            self.seen.pop_front();
        }
        let from = match self.seen.front() {
            Some(&first) if first.elapsed <= began => first,
            _ => Sighting::default(),
        };
        self.seen.push_back(now);
        let per_second = |from: Sighting| {
            let took = now.elapsed - from.elapsed;
            Rates {
                work: (now.work - from.work) / took,
                solutions: ((now.solutions - from.solutions) / took).max(0.0),
                probing: ((now.probing - from.probing) / took).clamp(0.0, 1.0),
            }
        };
        match per_second(from) {
            rates if rates.work > 0.0 && rates.work.is_finite() => rates,
            _ if now.elapsed > 0.0 => per_second(Sighting::default()),
            _ => Rates::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot of a count in `phase`, with `lines_fixed` of 10 lines of profiles, or the
    /// sweep `turn` at work, the sweeps kept having finished `explored` of their tree.
    fn snapshot(phase: CountPhase, lines_fixed: usize, turn: u32, explored: f64) -> CountSnapshot {
        CountSnapshot {
            phase,
            lines_fixed,
            lines: 10,
            profiles: 0,
            sweep_nodes: (0, 0),
            sweep_explored: explored,
            sweep_turn: turn,
            sweep_counted: 0.0,
            sweep_kept_explored: explored,
            sweep_memo: (0, 0),
            sweep_gave_up: false,
            counted: 0.0,
            component_nodes: (0, 0),
            backbone: (0, 0),
            backbone_checking: None,
        }
    }

    /// Asserts that `left` is `expected` seconds.
    fn near(left: Option<f64>, expected: f64) {
        let left = left.expect("a pace");
        assert!((left - expected).abs() < 1e-9, "{left} against {expected}");
    }

    #[test]
    fn the_profiles_time_left_follows_the_pace_of_the_last_few_layers() {
        let mut pace = Pace::default();
        let mut sight = |lines: usize, seconds: f64| {
            pace.sight(&snapshot(CountPhase::Profiles, lines, 0, 0.0), seconds)
        };
        assert_eq!(sight(1, 1.0), (Some(0.1), None));
        // A line more in 1 s: the other 8 in 8 s.
        let (share, left) = sight(2, 2.0);
        assert_eq!(share, Some(0.2));
        near(left, 8.0);
        // Slower layers: only the last few sightings count.
        sight(2, 4.0);
        sight(3, 8.0);
        near(sight(3, 10.0).1, 7.0 * 8.0 / 1.0);
        near(sight(4, 12.0).1, 6.0 * 8.0 / 2.0);
        // Components alone cannot tell.
        let components = snapshot(CountPhase::Components, 4, 0, 0.0);
        assert_eq!(pace.sight(&components, 13.0), (None, None));
    }

    #[test]
    fn sweeps_taking_turns_show_the_furthest_side_kept_and_its_pace_so_far() {
        let mut pace = Pace::default();
        // Side 1 of grid 1 is turn 9, side 2 turn 10; grid 2's side 1 is turn 17.
        let mut sight = |turn: u32, kept: f64, seconds: f64| {
            pace.sight(&snapshot(CountPhase::Race, 0, turn, kept), seconds)
        };
        // No sweep started yet: nothing done.
        assert_eq!(sight(0, 0.0, 0.5), (Some(0.0), None));
        // The sweeps began between the two sightings, at 0.75 s: 20% in 0.25 s.
        let (share, left) = sight(9, 0.2, 1.0);
        assert_eq!(share, Some(0.2));
        near(left, 0.25 * 0.8 / 0.2);
        // Side 2's turn: side 1's 30% still holds, and the time goes on.
        let (share, left) = sight(10, 0.3, 3.0);
        assert_eq!(share, Some(0.3));
        near(left, 2.25 * 0.7 / 0.3);
        // Side 1's sweep dropped to make room: side 2's 5% is what holds, at the pace of all
        // the time the sweeps took.
        let (share, left) = sight(10, 0.05, 4.0);
        assert_eq!(share, Some(0.05));
        near(left, 3.25 * 0.95 / 0.05);
        // Sweeps of a smaller grid (after the backbone) start over, from 5 s, and tell no
        // time left until 1% of the tree is done.
        assert_eq!(sight(17, 0.004, 6.0), (Some(0.004), None));
        let (share, left) = sight(17, 0.1, 7.0);
        assert_eq!(share, Some(0.1));
        near(left, 2.0 * 0.9 / 0.1);
        // Once the sweeps give up, components alone cannot tell; racing profiles still can.
        let mut gone = snapshot(CountPhase::Race, 0, 17, 0.1);
        (gone.lines, gone.sweep_gave_up) = (0, true);
        assert_eq!(pace.sight(&gone, 8.0), (None, None));
        (gone.lines_fixed, gone.lines) = (5, 10);
        assert_eq!(pace.sight(&gone, 9.0).0, Some(0.5));
    }

    #[test]
    fn a_race_with_profiles_shows_the_racer_that_should_finish_first() {
        let mut pace = Pace::default();
        let mut sight = |lines: usize, explored: f64, seconds: f64| {
            pace.sight(&snapshot(CountPhase::Race, lines, 9, explored), seconds)
        };
        // The sweeps began at 0.5 s; profiles have no pace yet.
        let (share, left) = sight(1, 0.05, 1.0);
        assert_eq!(share, Some(0.05));
        near(left, 0.5 * 0.95 / 0.05);
        // A line more in 1 s: profiles' 8 lines left take 8 s, the sweeps' 90% 13.5 s.
        let (share, left) = sight(2, 0.1, 2.0);
        assert_eq!(share, Some(0.2));
        near(left, 8.0);
        // The sweeps go faster: 50% in 2.5 s, 2.5 s more.
        let (share, left) = sight(2, 0.5, 3.0);
        assert_eq!(share, Some(0.5));
        near(left, 2.5);
        // Profiles that start again start a new pace.
        let mut pace = Pace::default();
        pace.sight(&snapshot(CountPhase::Profiles, 6, 0, 0.0), 1.0);
        let raced = snapshot(CountPhase::Race, 1, 0, 0.0);
        assert_eq!(pace.sight(&raced, 2.0), (Some(0.1), None));
    }

    #[test]
    fn an_enumerations_pace_is_that_of_the_last_quarter_of_its_run() {
        let mut pace = RecentPace::default();
        let mut rates = |elapsed: f64, work: f64, probing: f64| {
            let r = pace.rates(Sighting {
                elapsed,
                work,
                solutions: work / 10.0,
                probing,
            });
            (r.work, r.solutions, r.probing)
        };
        // Nothing seen before: the pace from the start, the estimator probing all along.
        assert_eq!(rates(1.0, 100.0, 1.0), (100.0, 10.0, 1.0));
        assert_eq!(rates(2.0, 200.0, 2.0), (100.0, 10.0, 1.0));
        // From 4 s on, the run goes three times as fast, the estimator probing a tenth of the
        // time from 3 s.
        rates(3.0, 300.0, 3.0);
        rates(4.0, 400.0, 3.1);
        rates(5.0, 700.0, 3.2);
        rates(6.0, 1000.0, 3.3);
        // At 8 s the last quarter began at 6 s.
        let (work, solutions, probing) = rates(8.0, 1600.0, 3.5);
        assert_eq!((work, solutions), (300.0, 30.0));
        assert!((probing - 0.1).abs() < 1e-9, "{probing}");
        // A stretch with no work in it (from 8 s to 16 s): the pace so far.
        assert_eq!(rates(16.0, 1600.0, 4.3).0, 100.0);
        // Only the sightings the stretch may need are kept.
        rates(40.0, 2000.0, 6.7);
        assert!(pace.seen.len() <= 3, "{:?}", pace.seen);
        // No time passed: no pace.
        assert_eq!(
            RecentPace::default().rates(Sighting::default()),
            Rates::default()
        );
    }

    #[test]
    fn the_time_left_is_never_zero_nor_unbounded() {
        for phase in [CountPhase::Profiles, CountPhase::Sweep, CountPhase::Race] {
            let mut pace = Pace::default();
            let sightings = [
                (0, 0.0, 0.0),
                (0, 0.0, f64::NAN),
                (0, f64::MIN_POSITIVE, 1.0),
                (0, 1e-300, 2.0),
                (10, 1.0, 3.0),
                (10, f64::NAN, 4.0),
            ];
            for (lines, explored, seconds) in sightings {
                let (share, left) = pace.sight(&snapshot(phase, lines, 9, explored), seconds);
                assert!(share.is_some_and(|s| (0.0..=1.0).contains(&s)), "{share:?}");
                assert!(left.is_none_or(|s| s > 0.0 && s.is_finite()), "{left:?}");
            }
            // All done: the count is about to end, with no time left to say.
            assert_eq!(pace.sight(&snapshot(phase, 10, 9, 1.0), 5.0).1, None);
        }
    }
}
