//! What a running enumeration or count has done and what is left, as the figures a progress
//! display shows: [`ProgressMeter`] reads the library's counters ([`SearchStats`] and its
//! [`TreeEstimate`], or a [`CountProgress`]) and gives a [`ProgressReport`]: the solutions
//! found, the total (exact, or an estimate with its range), the rate, the time left with its
//! range and the share done, made to agree with what the run has done. The report also has
//! the `--progress=json` form of the command ([`ProgressReport::to_json`]).

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::json;

use super::checkpoint::{CheckpointProgress, CheckpointSnapshot};
use super::pace::{Pace, RecentPace, Sighting};
use crate::count::{CountPhase, CountProgress, CountSnapshot};
use crate::search::duty::Ahead;
use crate::search::estimate::{Done, Spread, TreeEstimate};
use crate::search::{SearchStats, StatsSnapshot};

/// Reads the counters of one running enumeration or count, from a thread of its own, and
/// reports its progress ([`ProgressMeter::report`]); its clock starts when it is made.
#[derive(Debug)]
pub struct ProgressMeter {
    start: Instant,
    source: Source,
}

/// The counters a meter reads.
#[derive(Debug)]
enum Source {
    Enumeration {
        stats: Arc<SearchStats>,
        total: Arc<OnceLock<u128>>,
        pace: RecentPace,
        /// The cores the search and its estimator share.
        cores: f64,
    },
    Count {
        progress: Arc<CountProgress>,
        pace: Pace,
    },
    Checkpoint {
        progress: Arc<CheckpointProgress>,
        pace: RecentPace,
        cores: f64,
    },
}

impl ProgressMeter {
    /// The meter of an enumeration whose counters are `stats` (the solver's `stats()`; its
    /// estimate needs `with_estimate(true)`). `total` is where the exact total appears once
    /// counted ([`SideCount::total`](super::SideCount::total)), or an empty `OnceLock`.
    pub fn enumeration(stats: Arc<SearchStats>, total: Arc<OnceLock<u128>>) -> ProgressMeter {
        ProgressMeter {
            start: Instant::now(),
            source: Source::Enumeration {
                stats,
                total,
                pace: RecentPace::default(),
                cores: cores(),
            },
        }
    }

    /// The meter of a count made without enumerating, whose counters are `progress`
    /// ([`Counter::progress`](super::Counter::progress)).
    pub fn count(progress: Arc<CountProgress>) -> ProgressMeter {
        ProgressMeter {
            start: Instant::now(),
            source: Source::Count {
                progress,
                pace: Pace::default(),
            },
        }
    }

    /// The meter of a checkpointed run, whose counters are `progress`
    /// ([`Checkpoint::progress`](super::Checkpoint::progress)).
    pub fn checkpoint(progress: Arc<CheckpointProgress>) -> ProgressMeter {
        ProgressMeter {
            start: Instant::now(),
            source: Source::Checkpoint {
                progress,
                pace: RecentPace::default(),
                cores: cores(),
            },
        }
    }

    /// How often a progress line is wanted, by the setting `every_ms` (the command's
    /// `NONOENUM_PROGRESS_EVERY_MS`): that many milliseconds, at least 10, or a second when
    /// it is missing or not a number.
    pub fn line_interval(every_ms: Option<&str>) -> Duration {
        every_ms
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .map_or(Duration::from_secs(1), |ms| {
                Duration::from_millis(ms.max(10))
            })
    }

    /// The report to end a display's lines with, once the run has ended: a count's or a
    /// checkpointed run's, and an enumeration's when it exhausted its tree (one stopped at a
    /// limit or a signal has its own last words, and its workers may have found more
    /// solutions than it kept).
    pub fn last_report(&mut self) -> Option<ProgressReport> {
        match &self.source {
            Source::Enumeration { stats, .. } if !stats.is_complete() => None,
            _ => Some(self.report()),
        }
    }

    /// Where the run stands now. A count's time left is taken at the pace of the last few
    /// reports, so call this at a steady interval (the command does, every second or 100 ms).
    pub fn report(&mut self) -> ProgressReport {
        let elapsed = self.start.elapsed();
        match &mut self.source {
            Source::Enumeration {
                stats,
                total,
                pace,
                cores,
            } => {
                let snapshot = stats.snapshot();
                let total = total.get().copied();
                debug_assert!(
                    total.is_none_or(|total| u128::from(snapshot.solutions) <= total),
                    "the enumeration found {} solutions of an exact total of {total:?}",
                    snapshot.solutions
                );
                let rates = pace_ahead(stats, &snapshot, pace, *cores, elapsed);
                let estimate = stats.estimate();
                let report =
                    ProgressReport::enumeration_at(&snapshot, estimate, total, elapsed, rates);
                match stats.is_complete() {
                    true => report.complete(),
                    false => report,
                }
            }
            Source::Count { progress, pace } => {
                let snapshot = progress.snapshot();
                let (share, left) = pace.sight(&snapshot, elapsed.as_secs_f64());
                ProgressReport::count(snapshot, elapsed, share, left)
            }
            Source::Checkpoint {
                progress,
                pace,
                cores,
            } => {
                let counters = progress.snapshot();
                let search = progress.search();
                let estimating = search.is_some();
                let estimated = search.and_then(|stats| {
                    let snapshot = stats.snapshot();
                    let (ahead, _) = pace_ahead(&stats, &snapshot, pace, *cores, elapsed);
                    let mut done = snapshot.done();
                    done.solutions = progress.found_before().saturating_add(done.solutions);
                    Some((stats.estimate()?, done, ahead))
                });
                ProgressReport::checkpoint(counters, (estimating, estimated), elapsed)
            }
        }
    }
}

/// The cores of the machine, 0 where unknown.
fn cores() -> f64 {
    std::thread::available_parallelism().map_or(0.0, |n| n.get() as f64)
}

/// The pace of a search whose counters are `stats` (read as `snapshot`) over the last stretch
/// of its run, as `pace` keeps it, with its estimator's share of the `cores`: the work ahead a
/// second, and solutions a second.
fn pace_ahead(
    stats: &SearchStats,
    snapshot: &StatsSnapshot,
    pace: &mut RecentPace,
    cores: f64,
    elapsed: Duration,
) -> (Ahead, f64) {
    let duty = stats.estimator_duty();
    let rates = pace.rates(Sighting {
        elapsed: elapsed.as_secs_f64(),
        work: snapshot.done().work(),
        solutions: snapshot.solutions as f64,
        probing: duty.map_or(0.0, |d| d.busy_seconds),
    });
    let ahead = match duty {
        Some(duty) => duty.ahead(rates.work, rates.probing, cores),
        None => Ahead::steady(rates.work),
    };
    (ahead, rates.solutions)
}

/// What a [`ProgressReport`] is of, with the figures of its own.
#[derive(Clone, Copy, Debug)]
pub enum ProgressKind {
    /// An enumeration (a listing, or a count by enumeration): its solutions found so far.
    Enumeration {
        /// Solutions found by the workers so far.
        found: u64,
        /// Whether the search has exhausted its tree: `found` is then the exact total, and
        /// the report has no time left.
        complete: bool,
    },
    /// A count made without enumerating: its counters, among them the method at work and the
    /// solutions counted for certain so far (`counted`, a lower bound that never decreases).
    Count(CountSnapshot),
    /// A checkpointed run: the solutions committed and found, and the parts done.
    Checkpoint(CheckpointSnapshot),
}

/// Where a running enumeration or count stands, in the figures a display shows. The total is
/// never below the solutions found, and a time left from the estimate or a count's pace is
/// never zero while the run goes on.
#[derive(Clone, Copy, Debug)]
pub struct ProgressReport {
    /// Time since the run began (since its [`ProgressMeter`] was made).
    pub elapsed: Duration,
    /// An enumeration or a count, and its own figures.
    pub kind: ProgressKind,
    /// The exact number of solutions: for an enumeration once the count made alongside it
    /// has ended or its search has exhausted the tree, for a checkpointed run once every part
    /// is committed; `None` so far, and always for a count.
    pub total: Option<u128>,
    /// Solutions found (or counted for certain) a second: for an enumeration that a
    /// [`ProgressMeter`] reports, over the last quarter of the run (the pace its time left
    /// takes), else so far; 0 before any time passed.
    pub rate: f64,
    /// The number of solutions in all: the random probes' estimate and its range, each at
    /// least the solutions found, or the total three times once it is known; `None` before
    /// the probes say (and for a count).
    pub estimate: Option<Spread>,
    /// Seconds left, finite: from the estimate or a count's pace, above zero; from the exact
    /// total, at the pace of the last quarter of the run where a [`ProgressMeter`] reports it
    /// (0 once all are found, while the search ends its tree).
    /// `None` while unknown, once an enumeration has done as much work as estimated, and
    /// once an enumeration or a checkpointed run is complete.
    pub seconds_left: Option<f64>,
    /// The range of the seconds left, `0 <= low <= high`, and `high > 0` but for an exact
    /// total (both ends its time left); `None` where unknown, once an enumeration is past the
    /// high end too, and for a count.
    pub seconds_left_range: Option<(f64, f64)>,
    /// The share done, from 0 to 1: of an enumeration's estimated work (where
    /// [`seconds_left`](Self::seconds_left) is known) or of its total; of a count's lines
    /// fixed by profiles or of its sweep's tree; `None` for components.
    pub fraction_done: Option<f64>,
    /// An enumeration's share of its search tree finished, each finished subtree weighing
    /// `2^-depth`, until its total is known; `None` then, and for a count.
    pub explored: Option<f64>,
    /// Whether an enumeration's random probes estimate its total (not while it decides a
    /// puzzle: `solve`); false for a count.
    pub estimating: bool,
    /// How far an enumeration's learning search got, once it met a conflict; `None` without
    /// one, and for a count.
    pub learning: Option<Learning>,
}

/// How far the learning search of an enumeration got: the conflicts it learned from, and
/// the most of its variables it had set without one (a cell each in black and white).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Learning {
    /// Conflicts met so far.
    pub conflicts: u64,
    /// The deepest consistent trail: the most variables set below a conflict's level.
    pub deepest: u64,
    /// The search's variables.
    pub variables: u64,
}

impl ProgressReport {
    /// The report of an enumeration whose counters read `stats` after `elapsed`, with the
    /// random probes' `estimate` and the exact `total` where known: an estimate made to agree
    /// with what was found ([`TreeEstimate::outlook`]), or, given the total, the time left at
    /// the rate so far.
    pub fn enumeration(
        stats: &StatsSnapshot,
        estimate: Option<TreeEstimate>,
        total: Option<u128>,
        elapsed: Duration,
    ) -> ProgressReport {
        let secs = elapsed.as_secs_f64();
        let found = stats.solutions as f64;
        let rates = (
            Ahead::steady(rate(stats.done().work(), secs)),
            rate(found, secs),
        );
        ProgressReport::enumeration_at(stats, estimate, total, elapsed, rates)
    }

    /// [`ProgressReport::enumeration`], with the time left at the pace `work` ahead (work as
    /// [`Done::work`](crate::Done::work) counts it) and `solution_rate` solutions a second:
    /// the pace of the run's last stretch, where a meter keeps it ([`RecentPace`]).
    pub(super) fn enumeration_at(
        stats: &StatsSnapshot,
        estimate: Option<TreeEstimate>,
        total: Option<u128>,
        elapsed: Duration,
        (work, solution_rate): (Ahead, f64),
    ) -> ProgressReport {
        let (found, secs) = (stats.solutions, elapsed.as_secs_f64());
        let solution_rate = if solution_rate > 0.0 {
            solution_rate
        } else {
            rate(found as f64, secs)
        };
        let mut report = ProgressReport {
            elapsed,
            kind: ProgressKind::Enumeration {
                found,
                complete: false,
            },
            total,
            rate: solution_rate,
            estimate: None,
            seconds_left: None,
            seconds_left_range: None,
            fraction_done: None,
            explored: None,
            estimating: stats.estimating,
            learning: (stats.variables > 0 && stats.conflicts > 0).then_some(Learning {
                conflicts: stats.conflicts,
                deepest: stats.deepest,
                variables: stats.variables,
            }),
        };
        if let Some(total) = total {
            let whole = total as f64;
            let left = (solution_rate > 0.0)
                .then(|| total.saturating_sub(u128::from(found)) as f64 / solution_rate);
            report.estimate = Some(Spread::exact(whole));
            report.seconds_left = left;
            report.seconds_left_range = left.map(|left| (left, left));
            report.fraction_done = Some(if total == 0 {
                1.0
            } else {
                found as f64 / whole
            });
        } else {
            let outlook = estimate.map(|e| e.outlook_at(stats.done(), secs, work));
            report.estimate = outlook.map(|o| o.solutions);
            report.seconds_left = outlook.and_then(|o| o.seconds_left);
            report.seconds_left_range = outlook.and_then(|o| o.seconds_left_range);
            report.fraction_done = outlook.and_then(|o| o.fraction_done);
            report.explored = Some(stats.explored);
        }
        report
    }

    /// This report of an enumeration, once its search has exhausted the tree: its solutions
    /// found are the total ([`Self::ended`]).
    fn complete(self) -> ProgressReport {
        let ProgressKind::Enumeration { found, .. } = self.kind else {
            return self;
        };
        let kind = ProgressKind::Enumeration {
            found,
            complete: true,
        };
        ProgressReport { kind, ..self }.ended(u128::from(found))
    }

    /// This report of a run that is complete with `total` solutions: the exact total, all
    /// done, with no time left and nothing more to estimate.
    fn ended(self, total: u128) -> ProgressReport {
        ProgressReport {
            total: Some(total),
            estimate: Some(Spread::exact(total as f64)),
            seconds_left: None,
            seconds_left_range: None,
            fraction_done: Some(1.0),
            explored: None,
            estimating: false,
            ..self
        }
    }

    /// The report of a count whose counters read `snapshot` after `elapsed`, its `share`
    /// done and the seconds `left` at its pace, where known.
    pub(super) fn count(
        snapshot: CountSnapshot,
        elapsed: Duration,
        share: Option<f64>,
        left: Option<f64>,
    ) -> ProgressReport {
        ProgressReport {
            elapsed,
            kind: ProgressKind::Count(snapshot),
            total: None,
            rate: rate(snapshot.counted, elapsed.as_secs_f64()),
            estimate: None,
            seconds_left: left,
            seconds_left_range: None,
            fraction_done: share,
            explored: None,
            estimating: false,
            learning: None,
        }
    }

    /// The report of a checkpointed run whose counters read `snapshot` after `elapsed`: if it
    /// is `estimating`, what its estimator's probes say once they do, beside the work done by
    /// its parts' searches (the solutions of earlier runs included) and the pace ahead; once
    /// every part is committed, the exact total and no time left.
    fn checkpoint(
        snapshot: CheckpointSnapshot,
        (estimating, estimated): (bool, Option<(TreeEstimate, Done, Ahead)>),
        elapsed: Duration,
    ) -> ProgressReport {
        let secs = elapsed.as_secs_f64();
        let mut report = ProgressReport {
            elapsed,
            kind: ProgressKind::Checkpoint(snapshot),
            total: None,
            rate: rate(snapshot.found_here as f64, secs),
            estimate: None,
            seconds_left: None,
            seconds_left_range: None,
            fraction_done: None,
            explored: None,
            estimating,
            learning: None,
        };
        if snapshot.parts > 0 && snapshot.parts_done == snapshot.parts {
            // Every part is committed: the count is exact, and nothing is left.
            report = report.ended(snapshot.committed);
        } else if let Some((estimate, done, ahead)) = estimated {
            let outlook = estimate.outlook_at(done, secs, ahead);
            report.estimate = Some(outlook.solutions);
            report.seconds_left = outlook.seconds_left;
            report.seconds_left_range = outlook.seconds_left_range;
            report.fraction_done = outlook.fraction_done;
        }
        report
    }

    /// The solutions found so far by an enumeration, counted for certain by a count, or
    /// committed and found by a checkpointed run's part in progress.
    pub fn found(&self) -> f64 {
        match self.kind {
            ProgressKind::Enumeration { found, .. } => found as f64,
            ProgressKind::Count(snapshot) => snapshot.counted,
            ProgressKind::Checkpoint(s) => (s.committed + u128::from(s.in_part)) as f64,
        }
    }

    /// The report as the one-line JSON object of `nonoenum count --progress=json`, labelled
    /// `label` (docs/commands.md): every figure, `null` where unknown (or not finite).
    pub fn to_json(&self, label: &str) -> String {
        let range = self.seconds_left_range;
        let (phase, found, backbone) = match self.kind {
            ProgressKind::Enumeration { found, .. } => (None, json!(found), None),
            ProgressKind::Checkpoint(_) => (None, whole(self.found()), None),
            ProgressKind::Count(snapshot) => (
                Some(phase_name(snapshot.phase)),
                whole(snapshot.counted),
                snapshot
                    .backbone_checking
                    .map(|(checked, cells)| BackboneJson {
                        checked,
                        cells,
                        fixed: snapshot.backbone.1,
                    }),
            ),
        };
        let line = JsonProgress {
            r#type: "progress",
            label,
            elapsed_seconds: self.elapsed.as_secs_f64(),
            phase,
            found,
            total: self.total.map(|total| total.to_string()),
            estimate: self.estimate.map(|e| e.mean),
            estimate_low: self.estimate.map(|e| e.low),
            estimate_high: self.estimate.map(|e| e.high),
            eta_seconds: self.seconds_left,
            eta_low_seconds: range.map(|r| r.0),
            eta_high_seconds: range.map(|r| r.1),
            fraction_done: self.fraction_done,
            explored: self.explored,
            learning: self.learning,
            backbone,
            parts: match self.kind {
                ProgressKind::Checkpoint(s) => Some(PartsJson {
                    committed: s.committed.to_string(),
                    parts: s.parts,
                    parts_done: s.parts_done,
                }),
                _ => None,
            },
        };
        // Only strings, numbers and options: this cannot fail.
        serde_json::to_string(&line).unwrap_or_default()
    }
}

/// Solutions a second.
fn rate(solutions: f64, secs: f64) -> f64 {
    if secs > 0.0 { solutions / secs } else { 0.0 }
}

/// One `--progress=json` line: `null` where a figure is unknown, and a float that is not
/// finite is written as `null` too.
#[derive(serde::Serialize)]
struct JsonProgress<'a> {
    r#type: &'static str,
    label: &'a str,
    elapsed_seconds: f64,
    /// A count's phase; absent for an enumeration.
    #[serde(skip_serializing_if = "Option::is_none")]
    phase: Option<&'static str>,
    found: serde_json::Value,
    /// The exact total, as a decimal string.
    total: Option<String>,
    estimate: Option<f64>,
    estimate_low: Option<f64>,
    estimate_high: Option<f64>,
    eta_seconds: Option<f64>,
    eta_low_seconds: Option<f64>,
    eta_high_seconds: Option<f64>,
    fraction_done: Option<f64>,
    /// Absent for a count, and once an enumeration's total is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    explored: Option<f64>,
    /// A learning search's conflicts, deepest consistent trail and variables; absent
    /// without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    learning: Option<Learning>,
    /// The backbone search a count's sweep waits for; absent when none runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    backbone: Option<BackboneJson>,
    /// A checkpointed run's committed count and parts; absent for other runs.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    parts: Option<PartsJson>,
}

/// A checkpointed run in the JSON form: the solutions in committed parts (a decimal string),
/// the parts the search was cut into (0 before the split) and those committed.
#[derive(serde::Serialize)]
struct PartsJson {
    committed: String,
    parts: usize,
    parts_done: usize,
}

/// The backbone search of a count, in the JSON form: cells taken to check, cells to check (0
/// while it looks for a first solution), and cells fixed.
#[derive(serde::Serialize)]
struct BackboneJson {
    checked: u64,
    cells: u64,
    fixed: u64,
}

/// A count kept as a float, as a JSON integer where it is one (up to 2^53), else as a number
/// (`null` if not finite).
fn whole(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&x) {
        json!(x as u64)
    } else {
        json!(x)
    }
}

/// The name of a count's phase in the JSON form.
fn phase_name(phase: CountPhase) -> &'static str {
    match phase {
        CountPhase::Root => "simplifying",
        CountPhase::Profiles => "profiles",
        CountPhase::Sweep => "sweep",
        CountPhase::Components => "components",
        CountPhase::Race => "race",
    }
}
