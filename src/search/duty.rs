//! The estimator's share of the machine, and the pace an enumeration will go at once that
//! share changes. The estimator probes without pause for its first seconds, or until its
//! probes agree, then a tenth of the time; where its thread and the search's outnumber the
//! cores, the search runs faster once the estimator pauses (a 11x11 permutation puzzle on two
//! cores and two threads: 2.2 then 3.8 million solutions a second), and a time left from the
//! first pace overshoots.

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How long the estimator probes without pause at the start of a search, unless its probes
/// agree sooner ([`Shifts::settle`]).
pub(super) const STEADY: Duration = Duration::from_secs(3);
/// After [`STEADY`], the estimator sleeps this many times as long as it probed.
pub(super) const PAUSE_FACTOR: u32 = 9;

/// The longest stretch the estimator probes past [`STEADY`] before it rests, even in the
/// middle of a probe: one probe of a large colour puzzle can take a minute.
const STRETCH: Duration = Duration::from_millis(100);

/// The share of the time the estimator probes once past [`STEADY`].
fn paused_share() -> f64 {
    1.0 / f64::from(PAUSE_FACTOR + 1)
}

/// What the estimator's thread has done with its time, live: written by the estimator, read
/// by a progress meter.
#[derive(Debug)]
pub(crate) struct EstimatorDuty {
    /// When the estimator started; unset before it starts.
    start: OnceLock<Instant>,
    /// Nanoseconds from `start` to when its probes agreed ([`Shifts::settle`]), which ends
    /// its steady probing if sooner than [`STEADY`]; `u64::MAX` before they do.
    settled: AtomicU64,
    /// Nanoseconds spent probing so far.
    busy: AtomicU64,
    /// The search's threads beside the estimator.
    threads: AtomicU64,
}

impl Default for EstimatorDuty {
    fn default() -> Self {
        EstimatorDuty {
            start: OnceLock::new(),
            settled: AtomicU64::new(u64::MAX),
            busy: AtomicU64::new(0),
            threads: AtomicU64::new(0),
        }
    }
}

/// `time` in nanoseconds, at most `u64::MAX`.
fn nanos(time: Duration) -> u64 {
    u64::try_from(time.as_nanos()).unwrap_or(u64::MAX)
}

impl EstimatorDuty {
    /// Notes that the estimator starts now, beside a search on `threads` threads.
    pub(super) fn begin(&self, threads: usize) {
        let _ = self.start.set(Instant::now());
        self.threads.store(threads as u64, Relaxed);
    }

    /// When the estimator's steady probing ends; `None` before it starts.
    fn steady_end(&self) -> Option<Instant> {
        let start = *self.start.get()?;
        let settled = Duration::from_nanos(self.settled.load(Relaxed));
        Some(start + STEADY.min(settled))
    }

    /// Notes that the estimator's probes agreed at `at`, ending its steady probing then.
    fn settle(&self, at: Instant) {
        if let Some(start) = self.start.get() {
            let _ = self
                .settled
                .fetch_min(nanos(at.saturating_duration_since(*start)), Relaxed);
        }
    }

    /// Adds a stretch of probing.
    pub(super) fn add_busy(&self, time: Duration) {
        self.busy.fetch_add(nanos(time), Relaxed);
    }

    /// Where the estimator stands now; `None` before it starts.
    pub(crate) fn snapshot(&self) -> Option<DutySnapshot> {
        let end = self.steady_end()?;
        Some(DutySnapshot {
            busy_seconds: self.busy.load(Relaxed) as f64 * 1e-9,
            steady_left: end.saturating_duration_since(Instant::now()).as_secs_f64(),
            threads: self.threads.load(Relaxed) as f64,
        })
    }
}

/// The estimator's thread at work in stretches: past [`STEADY`], each stretch of probing is
/// followed by a rest [`PAUSE_FACTOR`] times as long, at the end of a probe or, in a long
/// probe, every [`STRETCH`]. Its probing time goes to the [`EstimatorDuty`].
pub(super) struct Shifts<'a> {
    duty: &'a EstimatorDuty,
    steady_end: Cell<Instant>,
    /// When the stretch at work began.
    since: Cell<Instant>,
    /// Calls of [`Shifts::rest_if_due`], which reads the clock every 64th.
    calls: Cell<u32>,
}

impl<'a> Shifts<'a> {
    /// Stretches from now on, steady until [`STEADY`] after `start`.
    pub(super) fn new(duty: &'a EstimatorDuty, start: Instant) -> Self {
        Shifts {
            duty,
            steady_end: Cell::new(start + STEADY),
            since: Cell::new(Instant::now()),
            calls: Cell::new(0),
        }
    }

    /// Ends the steady probing now, if it has not ended: the probes agree, and more of them
    /// would take the search's cores for little.
    pub(super) fn settle(&self) {
        let now = Instant::now();
        if now < self.steady_end.get() {
            self.steady_end.set(now);
            self.duty.settle(now);
        }
    }

    /// Rests (see [`Shifts::rest`]) if the stretch at work is past [`STEADY`] and
    /// [`STRETCH`] long.
    pub(super) fn rest_if_due(&self, stopped: &dyn Fn() -> bool) {
        let calls = self.calls.get().wrapping_add(1);
        self.calls.set(calls);
        if calls.is_multiple_of(64) && self.owed(Instant::now()) >= STRETCH {
            self.rest(stopped);
        }
    }

    /// Ends the stretch at work: its time goes to the duty, and the thread sleeps
    /// [`PAUSE_FACTOR`] times as long as it probed past [`STEADY`], waking often enough to
    /// end soon after `stopped` says so.
    pub(super) fn rest(&self, stopped: &dyn Fn() -> bool) {
        let now = Instant::now();
        self.duty.add_busy(now - self.since.get());
        let until = now + self.owed(now) * PAUSE_FACTOR;
        while Instant::now() < until && !stopped() {
            std::thread::sleep(until.saturating_duration_since(Instant::now()).min(NAP));
        }
        self.since.set(Instant::now());
    }

    /// The probing time of the stretch at work past [`STEADY`], at `now`.
    fn owed(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.since.get().max(self.steady_end.get()))
    }
}

/// The longest sleep of a rest between two looks at the stop flag.
const NAP: Duration = Duration::from_millis(50);

/// A copy of an [`EstimatorDuty`] at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DutySnapshot {
    /// Seconds the estimator has spent probing.
    pub(crate) busy_seconds: f64,
    /// Seconds of steady probing left (0 once past it).
    pub(crate) steady_left: f64,
    /// The search's threads beside the estimator.
    pub(crate) threads: f64,
}

impl DutySnapshot {
    /// The pace ahead of a search that did `rate` work a second lately, while the estimator
    /// probed `busy_share` of the time, on a machine of `cores` cores. The search's threads
    /// are taken to share the cores evenly with the estimator's: they get `cores x threads /
    /// (threads + b)` cores while it probes a share `b`, and never more than one each.
    pub(crate) fn ahead(&self, rate: f64, busy_share: f64, cores: f64) -> Ahead {
        let threads = self.threads;
        if !(threads >= 1.0 && cores >= 1.0) {
            return Ahead::steady(rate);
        }
        let cores_for_search = |b: f64| threads * (cores / (threads + b)).min(1.0);
        let per_core = rate / cores_for_search(busy_share.clamp(0.0, 1.0));
        Ahead {
            now: per_core * cores_for_search(1.0),
            until: self.steady_left,
            after: per_core * cores_for_search(paused_share()),
        }
    }
}

/// The pace of a search from now on, in work a second: `now` for the next `until` seconds,
/// then `after`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ahead {
    now: f64,
    until: f64,
    after: f64,
}

impl Ahead {
    /// A pace that holds: `rate` work a second from now on.
    pub(crate) fn steady(rate: f64) -> Ahead {
        Ahead {
            now: rate,
            until: 0.0,
            after: rate,
        }
    }

    /// Whether it is a pace at all: positive and finite, now and after.
    pub(crate) fn is_valid(&self) -> bool {
        let ok = |r: f64| r > 0.0 && r.is_finite();
        ok(self.now) && ok(self.after) && self.until >= 0.0 && self.until.is_finite()
    }

    /// Seconds to do `work` more at this pace (0 for none).
    pub(crate) fn seconds_for(&self, work: f64) -> f64 {
        let work = work.max(0.0);
        let first = self.now * self.until;
        if work <= first {
            work / self.now
        } else {
            self.until + (work - first) / self.after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stretches whose steady time ended `ago` and whose stretch at work began `worked` ago.
    fn shifts_at(duty: &EstimatorDuty, ago: Duration, worked: Duration) -> Shifts<'_> {
        let shifts = Shifts::new(duty, Instant::now() - STEADY - ago);
        shifts.since.set(Instant::now() - worked);
        shifts
    }

    /// Whether `shifts` rests within 64 looks (which read the clock once), ending each rest
    /// at once.
    fn rests(shifts: &Shifts<'_>) -> bool {
        let rested = Cell::new(false);
        for _ in 0..64 {
            shifts.rest_if_due(&|| {
                rested.set(true);
                true
            });
        }
        rested.get()
    }

    #[test]
    fn a_stretch_rests_only_past_the_steady_time() {
        let duty = EstimatorDuty::default();
        let steady = Shifts::new(&duty, Instant::now());
        steady.since.set(Instant::now() - 2 * STRETCH);
        for _ in 0..256 {
            steady.rest_if_due(&|| panic!("a rest in the steady time"));
        }
        let past = shifts_at(&duty, Duration::from_secs(1), 2 * STRETCH);
        assert!(rests(&past), "no rest after a long stretch");
        assert!(duty.busy.load(Relaxed) >= (2 * STRETCH).as_nanos() as u64);
    }

    #[test]
    fn probes_that_agree_end_the_steady_time() {
        let duty = EstimatorDuty::default();
        duty.begin(2);
        let shifts = Shifts::new(&duty, Instant::now());
        let steady_left = |duty: &EstimatorDuty| duty.snapshot().expect("begun").steady_left;
        assert!(steady_left(&duty) > 2.0);
        shifts.settle();
        assert_eq!(steady_left(&duty), 0.0);
        // Past it, a long stretch of probing rests.
        std::thread::sleep(STRETCH + Duration::from_millis(10));
        assert!(rests(&shifts), "no rest after a long stretch");
    }

    #[test]
    fn the_steady_time_is_not_owed() {
        let duty = EstimatorDuty::default();
        let shifts = shifts_at(&duty, Duration::from_millis(10), Duration::from_secs(2));
        let owed = shifts.owed(Instant::now());
        assert!(
            owed >= Duration::from_millis(10) && owed < Duration::from_secs(1),
            "{owed:?}"
        );
        shifts.rest(&|| true);
        assert!(duty.busy.load(Relaxed) >= Duration::from_secs(2).as_nanos() as u64);
    }

    fn near(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} against {b}");
    }

    #[test]
    fn a_steady_pace_takes_work_over_rate() {
        let pace = Ahead::steady(4.0);
        assert!(pace.is_valid());
        near(pace.seconds_for(10.0), 2.5);
        near(pace.seconds_for(-1.0), 0.0);
        assert!(!Ahead::steady(0.0).is_valid());
        assert!(!Ahead::steady(f64::INFINITY).is_valid());
    }

    #[test]
    fn a_pace_that_rises_takes_the_first_stretch_then_the_rest_faster() {
        let pace = Ahead {
            now: 2.0,
            until: 3.0,
            after: 4.0,
        };
        // Within the first stretch: 4 work in 2 s.
        near(pace.seconds_for(4.0), 2.0);
        // 6 work in the first 3 s, the other 8 in 2 s.
        near(pace.seconds_for(14.0), 5.0);
    }

    #[test]
    fn the_search_speeds_up_once_the_estimator_pauses_where_threads_outnumber_cores() {
        let duty = DutySnapshot {
            busy_seconds: 1.0,
            steady_left: 2.0,
            threads: 2.0,
        };
        // Two search threads and a busy estimator on two cores: the search has 4/3 cores, and
        // 2 / 2.1 x 2 once the estimator probes a tenth of the time.
        let pace = duty.ahead(4.0, 1.0, 2.0);
        near(pace.now, 4.0);
        near(pace.until, 2.0);
        near(pace.after, 4.0 / (4.0 / 3.0) * (2.0 * 2.0 / 2.1));
        // Measured while the estimator probed half the time: the pace now is slower than
        // that, the pace after faster.
        let half = duty.ahead(4.0, 0.5, 2.0);
        assert!(half.now < 4.0 && half.after > 4.0);
        // A core to spare: nothing changes.
        let spare = duty.ahead(4.0, 1.0, 3.0);
        near(spare.now, 4.0);
        near(spare.after, 4.0);
        // Past the steady probing, measured at a tenth: the pace holds.
        let past = DutySnapshot {
            steady_left: 0.0,
            ..duty
        };
        let held = past.ahead(4.0, 0.1, 2.0);
        near(held.seconds_for(8.0), 2.0);
        // No threads known: a steady pace.
        let unknown = DutySnapshot {
            threads: 0.0,
            ..duty
        };
        assert_eq!(unknown.ahead(4.0, 1.0, 2.0), Ahead::steady(4.0));
    }
}
