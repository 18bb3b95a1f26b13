//! Estimates of the size of a search tree from random probes (Knuth's method, and Chen's
//! stratified sampling): each probe is an unbiased estimate of the tree's nodes and solutions,
//! and the mean over many probes estimates the whole tree.
//!
//! This module holds what the probes add up to ([`Samples`], [`TreeEstimate`]); the probes
//! themselves walk the tree in `probe.rs`, on
//! one thread of their own when an enumeration is asked to estimate
//! ([`super::Solver::with_estimate`]), so that a progress display can say how big the tree is,
//! with a range, and when the run may end ([`TreeEstimate::seconds_left`]).

use super::duty::Ahead;

/// Probes before an estimate is given. Each of the estimator's probes is a wide one, a
/// breadth-first search and stratified sampling below it (see `probe.rs`), so one is already
/// an estimate; it says nothing of the spread, and its range is unbounded until a second.
pub(crate) const MIN_PROBES: u64 = 1;

/// Probes before the estimator may judge that they agree ([`Samples::settled`]).
const SETTLE_PROBES: u64 = 16;

/// The standard error of the mean of the probes' logarithms below which they agree: the
/// fitted estimate is then known within about a tenth either way.
const SETTLED_LOG_ERROR: f64 = 0.05;

/// One estimated quantity, and a range around it. Trees are lopsided: the probes spread over
/// orders of magnitude, most of them low, and their plain mean is carried by rare high ones, so
/// it swings with each of those. The estimate is instead the mean of the log-normal
/// distribution fitted to the probes (`exp(m + v / 2)`, where `m` and `v` are the mean and
/// variance of their logarithms), kept between the smallest and the largest probe. The low end
/// is two standard errors of the plain mean below that mean (never below zero, nor above the
/// estimate); the high end two above it, or the largest single probe if that is higher.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The estimate.
    pub mean: f64,
    /// The low end of the range.
    pub low: f64,
    /// The high end of the range.
    pub high: f64,
}

impl Spread {
    /// A figure known exactly: its range is the figure alone.
    pub(crate) fn exact(value: f64) -> Spread {
        Spread {
            mean: value,
            low: value,
            high: value,
        }
    }
}

/// What the random probes say about the search tree.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreeEstimate {
    /// Probes made.
    pub probes: u64,
    /// The number of nodes of the whole tree.
    pub nodes: Spread,
    /// The number of solutions (leaves that are solutions).
    pub solutions: Spread,
    /// The lines the search of the whole tree solves: the measure of its work that keeps a
    /// steady pace, where nodes near the root, which probe, cost a hundred times those below.
    pub line_solves: Spread,
}

/// What a search has done so far, in the units of a [`TreeEstimate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// Nodes visited.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Lines solved.
    pub line_solves: u64,
}

impl Done {
    /// The work done: nodes, solutions (below a product node the search visits no node but
    /// walks every solution) and line solves.
    pub fn work(self) -> f64 {
        self.nodes as f64 + self.solutions as f64 + self.line_solves as f64
    }
}

impl TreeEstimate {
    /// Seconds left, as `(estimate, low, high)`, for a search that has `done` this much in
    /// `elapsed` seconds, going on at the same rate; `None` before any node.
    pub fn seconds_left(&self, done: Done, elapsed: f64) -> Option<(f64, f64, f64)> {
        if done.nodes == 0 || elapsed <= 0.0 {
            return None;
        }
        let work = done.work();
        self.seconds_left_at(work, Ahead::steady(work / elapsed))
    }

    /// Seconds left, as `(estimate, low, high)`, with `done` work (see [`Done::work`]) done
    /// and going on at `pace`; `None` without a pace.
    fn seconds_left_at(&self, done: f64, pace: Ahead) -> Option<(f64, f64, f64)> {
        if !pace.is_valid() {
            return None;
        }
        let left = |end: fn(&Spread) -> f64| {
            let whole = end(&self.nodes) + end(&self.solutions) + end(&self.line_solves);
            pace.seconds_for(whole - done)
        };
        Some((left(|s| s.mean), left(|s| s.low), left(|s| s.high)))
    }
}

/// What an estimate says of a running search, made to agree with what the search has done
/// ([`TreeEstimate::outlook`]): never fewer solutions than found, never no time left while it
/// runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// The solutions in all: the estimate and both ends of its range at least those found,
    /// the high end at least the estimate, and unbounded (infinite) once more were found than
    /// the probes' high end: the search is past the estimate. Values that are not numbers
    /// read as those found.
    pub solutions: Spread,
    /// Seconds left by the estimate, above zero and finite; `None` when the search has already
    /// done as much work as estimated (the tree is bigger), or before it has a rate.
    pub seconds_left: Option<f64>,
    /// Seconds left by the low and high ends of the range: the low end 0 or more (the search
    /// may end at any moment), the high end above zero and finite; `None` when the search is
    /// past the high end too, before it has a rate, or while the range is unbounded (one
    /// probe).
    pub seconds_left_range: Option<(f64, f64)>,
    /// The share of the estimated work done, from 0 to 1 (below 1 but for rounding); `None`
    /// where [`Outlook::seconds_left`] is.
    pub fraction_done: Option<f64>,
}

impl TreeEstimate {
    /// This estimate made to agree with a search that has `done` this much in `elapsed`
    /// seconds and still runs (see [`Outlook`]; the time left from the rate so far, as
    /// [`TreeEstimate::seconds_left`] gives it).
    pub fn outlook(&self, done: Done, elapsed: f64) -> Outlook {
        let rate = if elapsed > 0.0 {
            done.work() / elapsed
        } else {
            0.0
        };
        self.outlook_at(done, elapsed, Ahead::steady(rate))
    }

    /// [`TreeEstimate::outlook`], the time left at `pace` (work a second, see [`Done::work`])
    /// instead of the rate so far: the pace of the last stretch of the run, as it will change
    /// once the estimator pauses, where the meter keeps it (see `api/pace.rs`).
    pub(crate) fn outlook_at(&self, done: Done, elapsed: f64, pace: Ahead) -> Outlook {
        let found = done.solutions as f64;
        // `f64::max` takes the number where one side is not a number.
        let mean = self.solutions.mean.max(found);
        // Past the whole range, the probes bound nothing: a range of the solutions found
        // alone would say the search is about to end.
        let high = match found > self.solutions.high {
            true => f64::INFINITY,
            false => self.solutions.high.max(mean),
        };
        let solutions = Spread {
            mean,
            low: self.solutions.low.max(found).min(mean),
            high,
        };
        let left = (done.nodes > 0 && elapsed > 0.0)
            .then(|| self.seconds_left_at(done.work(), pace))
            .flatten();
        let positive = |secs: f64| (secs > 0.0 && secs.is_finite()).then_some(secs);
        let seconds_left = left.and_then(|(mean, _, _)| positive(mean));
        let seconds_left_range = left.and_then(|(_, low, high)| {
            let low = if low.is_finite() { low.max(0.0) } else { 0.0 };
            positive(high).map(|high| (low.min(high), high))
        });
        let fraction_done = seconds_left.map(|secs| {
            let done = elapsed / (elapsed + secs);
            if done.is_finite() {
                done.clamp(0.0, 1.0)
            } else {
                0.0
            }
        });
        Outlook {
            solutions,
            seconds_left,
            seconds_left_range,
            fraction_done,
        }
    }
}

/// Sums of the probes' estimates, from which [`TreeEstimate`] is made.
#[derive(Debug, Default)]
pub(crate) struct Samples {
    probes: u64,
    nodes: Moments,
    solutions: Moments,
    line_solves: Moments,
}

/// A sum, sum of squares, smallest and largest value, and the sum and sum of squares of the
/// values' logarithms (of 1 for values below 1).
#[derive(Clone, Copy, Debug)]
struct Moments {
    sum: f64,
    squares: f64,
    min: f64,
    max: f64,
    logs: f64,
    log_squares: f64,
}

impl Default for Moments {
    fn default() -> Self {
        Moments {
            sum: 0.0,
            squares: 0.0,
            min: f64::INFINITY,
            max: 0.0,
            logs: 0.0,
            log_squares: 0.0,
        }
    }
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.squares += x * x;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        let log = x.max(1.0).ln();
        self.logs += log;
        self.log_squares += log * log;
    }

    /// The mean of the log-normal distribution fitted to `n` values, kept between the smallest
    /// and the largest; `None` where it is not a number (a value that is not finite).
    fn log_normal_mean(self, n: u64) -> Option<f64> {
        let (mean, variance) = self.log_mean_variance(n);
        // Not `clamp`, which panics where the bounds are not numbers or cross.
        let fitted = (mean + variance / 2.0).exp().max(self.min).min(self.max);
        fitted.is_finite().then_some(fitted)
    }

    /// The mean and the sample variance (0 for one value) of the logarithms of `n` values.
    fn log_mean_variance(self, n: u64) -> (f64, f64) {
        let count = n as f64;
        let mean = self.logs / count;
        let variance = if n > 1 {
            ((self.log_squares - count * mean * mean) / (count - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, variance)
    }

    /// The standard error of the mean of the logarithms of `n` values (two or more).
    fn log_error(self, n: u64) -> f64 {
        (self.log_mean_variance(n).1 / n as f64).sqrt()
    }

    /// The spread of `n` values. One value says nothing of the spread, and a sum of squares
    /// past `f64::MAX` says it is unbounded: the range is then from 0 to infinity.
    fn spread(self, n: u64) -> Spread {
        if n == 0 {
            return Spread::default();
        }
        let count = n as f64;
        let plain = self.sum / count;
        let variance = (self.squares / count - plain * plain) * count / (count - 1.0);
        let error = if n == 1 || variance.is_nan() {
            f64::INFINITY
        } else {
            2.0 * (variance.max(0.0) / count).sqrt()
        };
        let mean = self.log_normal_mean(n).unwrap_or(plain);
        Spread {
            mean,
            low: (plain - error).max(0.0).min(mean),
            high: (plain + error).max(self.max).max(mean),
        }
    }
}

impl Samples {
    /// Adds one probe's estimates.
    pub(crate) fn add(&mut self, probe: Probe) {
        self.probes += 1;
        self.nodes.add(probe.nodes);
        self.solutions.add(probe.solutions);
        self.line_solves.add(probe.line_solves);
    }

    /// Whether the probes agree: [`SETTLE_PROBES`] or more, whose logarithms' mean is known
    /// within [`SETTLED_LOG_ERROR`] for nodes, solutions and line solves alike. Probes of a
    /// lopsided tree, which spread over orders of magnitude, do not agree for many hundreds.
    pub(crate) fn settled(&self) -> bool {
        let n = self.probes;
        n >= SETTLE_PROBES
            && [self.nodes, self.solutions, self.line_solves]
                .iter()
                .all(|m| m.log_error(n) < SETTLED_LOG_ERROR)
    }

    /// The estimate, once there are [`MIN_PROBES`] probes.
    pub(crate) fn estimate(&self) -> Option<TreeEstimate> {
        (self.probes >= MIN_PROBES).then(|| TreeEstimate {
            probes: self.probes,
            nodes: self.nodes.spread(self.probes),
            solutions: self.solutions.spread(self.probes),
            line_solves: self.line_solves.spread(self.probes),
        })
    }
}

/// One probe's estimates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Probe {
    /// Nodes of the tree.
    pub(crate) nodes: f64,
    /// Solutions.
    pub(crate) solutions: f64,
    /// Line solves.
    pub(crate) line_solves: f64,
}

impl std::ops::Add for Probe {
    type Output = Probe;

    fn add(self, other: Probe) -> Probe {
        Probe {
            nodes: self.nodes + other.nodes,
            solutions: self.solutions + other.solutions,
            line_solves: self.line_solves + other.line_solves,
        }
    }
}

#[cfg(test)]
mod tests;
