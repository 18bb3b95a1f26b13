//! A running enumeration's or count's progress in words, as the `nonoenum` command shows it:
//! [`ProgressReport`]'s [`Display`](fmt::Display) is its one-line summary, and a
//! [`CountSnapshot`] says what a count is doing ([`CountSnapshot::describe`]) and how far each
//! of its methods got ([`CountSnapshot::how_far`]).

use std::fmt;
use std::time::Duration;

use super::checkpoint::CheckpointSnapshot;
use super::progress::{ProgressKind, ProgressReport};
use crate::count::{CountPhase, CountSnapshot};

/// The report in words: an enumeration's solutions so far, rate, elapsed time and what is
/// known of the total and the time left, or what a count is doing and its time left.
impl fmt::Display for ProgressReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&words(self))
    }
}

impl CountSnapshot {
    /// What the count is doing, in words, with the solutions counted for certain so far, the
    /// sweep's `share` of its tree done where given, and the `elapsed` time.
    pub fn describe(&self, elapsed: Duration, share: Option<f64>) -> String {
        exact_line(self, elapsed, share)
    }

    /// How far a count stopped after `elapsed` got: what it was doing ([`describe`]), then
    /// the backbone's cells, the sweep's nodes, the share of its tree it finished and what it
    /// counted there, and components' nodes, leaving out methods that did not run.
    ///
    /// [`describe`]: CountSnapshot::describe
    pub fn how_far(&self, elapsed: Duration) -> String {
        how_far(self, elapsed)
    }
}

/// A report in words: an enumeration's ([`search_line`], or [`known_total_line`] once its
/// total is known) or a count's ([`exact_line`] and [`exact_eta`]).
fn words(report: &ProgressReport) -> String {
    match report.kind {
        ProgressKind::Count(snapshot) => {
            let shown = report
                .fraction_done
                .filter(|_| snapshot.phase != CountPhase::Profiles);
            // While the sweep waits for the backbone, no pace says how long it will take.
            let eta = match snapshot.backbone_checking {
                Some(_) => String::new(),
                None => exact_eta(snapshot.phase, report.fraction_done, report.seconds_left),
            };
            format!("{}{eta}", exact_line(&snapshot, report.elapsed, shown))
        }
        ProgressKind::Enumeration { found, complete } => match report.total {
            Some(_) if complete => format!(
                "{} solution{} in all, {}/s, {}, done",
                grouped(&found.to_string()),
                if found == 1 { "" } else { "s" },
                number(report.rate),
                duration(report.elapsed.as_secs_f64())
            ),
            Some(total) => known_total_line(report, found, total),
            None => search_line(report),
        },
        ProgressKind::Checkpoint(snapshot) => checkpoint_line(report, snapshot),
    }
}

/// A checkpointed run's progress in words: the solutions found so far and those saved in
/// committed parts, the parts done, the rate and the elapsed time, and where the run
/// estimates, the total and the time left ([`estimate_words`]).
fn checkpoint_line(report: &ProgressReport, snapshot: CheckpointSnapshot) -> String {
    let parts = match snapshot.parts {
        0 => "cutting the search into parts".to_string(),
        parts => format!("{}/{parts} parts done", snapshot.parts_done),
    };
    // Once the run is complete, its count is the one saved.
    let (total, eta) = match report.total {
        Some(_) => (String::new(), String::new()),
        None => estimate_words(report),
    };
    format!(
        "{} found{total}, {} saved, {parts}, {}/s, {}{eta}",
        number(report.found()),
        grouped(&snapshot.committed.to_string()),
        number(report.rate),
        duration(report.elapsed.as_secs_f64())
    )
}

/// What the random probes say of the total and of the time left, in words (` of ~N (LOW–HIGH)`
/// and `, ETA ~T (LOW – HIGH)`), as the report made them agree with what was found: never a
/// total below the solutions found, never `0 s` left while the search runs.
fn estimate_words(report: &ProgressReport) -> (String, String) {
    let total = report.estimate.map_or(String::new(), |s| {
        if !s.high.is_finite() && s.mean <= report.found() {
            format!(" of at least {} (past the estimate)", number(s.mean))
        } else if !s.high.is_finite() {
            format!(" of ~{} (no range yet)", number(s.mean))
        } else if number(s.low) == number(s.high) {
            format!(" of ~{}", number(s.mean))
        } else {
            format!(
                " of ~{} ({}–{})",
                number(s.mean),
                number(s.low),
                number(s.high)
            )
        }
    });
    let left = (report.seconds_left, report.seconds_left_range);
    let eta = match report.estimate.map(|_| left) {
        None if !report.estimating => String::new(),
        None => ", ETA unknown yet".to_string(),
        Some((Some(mean), None)) => format!(", ETA {} (no range yet)", about(mean)),
        Some((None, None)) => ", ETA unknown (past the estimate)".to_string(),
        Some((None, Some((_, high)))) => {
            format!(", ETA unknown (past the estimate, up to {})", about(high))
        }
        Some((Some(mean), Some((low, high)))) if time_left(low) == time_left(high) => {
            format!(", ETA {}", about(mean))
        }
        Some((Some(mean), Some((low, high)))) => format!(
            ", ETA {} ({} – {})",
            about(mean),
            time_left(low),
            time_left(high)
        ),
    };
    (total, eta)
}

/// An enumeration's progress in words: solutions so far, rate, elapsed time, and what the
/// random probes say of the total and of the time left, as an estimate and its range
/// ([`estimate_words`]).
fn search_line(report: &ProgressReport) -> String {
    let (total, eta) = estimate_words(report);
    let learning = report.learning.map_or(String::new(), |l| {
        format!(
            "; learning: {} conflicts, deepest trail {} of {} variables",
            grouped(&l.conflicts.to_string()),
            grouped(&l.deepest.to_string()),
            grouped(&l.variables.to_string())
        )
    });
    // A search that decides stops at its second solution: its rate says nothing.
    let rate = match report.estimating {
        true => format!(", {}/s", number(report.rate)),
        false => String::new(),
    };
    let found = report.found();
    format!(
        "{} {} so far{total}{rate}, {}{eta}{learning}",
        number(found),
        if found == 1.0 {
            "solution"
        } else {
            "solutions"
        },
        duration(report.elapsed.as_secs_f64())
    )
}

/// An enumeration's progress once the side count knows the exact `total`: `N of TOTAL (P%)`,
/// the rate, the elapsed time, and the time left at that rate.
fn known_total_line(report: &ProgressReport, found: u64, total: u128) -> String {
    let eta = match report.seconds_left {
        Some(left) => format!("ETA {}", about(left)),
        None => "ETA unknown yet".to_string(),
    };
    format!(
        "{} of {} solutions ({}), {}/s, {}, {eta}",
        grouped(&found.to_string()),
        grouped(&total.to_string()),
        share(report.fraction_done.unwrap_or(0.0)),
        number(report.rate),
        duration(report.elapsed.as_secs_f64())
    )
}

/// Time left in words, as [`duration`] says it but `<1 s` below a second: a search that runs
/// has time left.
fn time_left(secs: f64) -> String {
    if secs < 1.0 {
        "<1 s".to_string()
    } else {
        duration(secs)
    }
}

/// An estimated time left in words: `~` and [`time_left`], or `<1 s`, or words that say it
/// is no figure (`over 1000 years`, `forever`) without `~`.
fn about(secs: f64) -> String {
    let words = duration(secs);
    if secs < 1.0 {
        "<1 s".to_string()
    } else if words.starts_with(|c: char| c.is_ascii_digit()) {
        format!("~{words}")
    } else {
        words
    }
}

/// What a count made without enumerating is doing, in words, with the solutions it has
/// counted for certain so far (a lower bound that never decreases), the sweep's `share` of
/// its tree done where given, and the time it took.
fn exact_line(s: &CountSnapshot, elapsed: Duration, share: Option<f64>) -> String {
    let done = |whose: &str| match (s.backbone_checking, share) {
        (Some(checking), _) => backbone_words(checking, s.backbone.1),
        (None, Some(share)) => format!(", {whose}{} done", self::share(share)),
        (None, None) => String::new(),
    };
    let so_far = |what: &str, whose: &str| {
        format!(
            "{what}: at least {} solutions so far{}, {}",
            number(s.counted),
            done(whose),
            duration(elapsed.as_secs_f64())
        )
    };
    match s.phase {
        CountPhase::Root => format!(
            "simplifying the puzzle, {}",
            duration(elapsed.as_secs_f64())
        ),
        CountPhase::Profiles => format!(
            "counting line by line: {} of {} lines, {}",
            s.lines_fixed,
            s.lines,
            duration(elapsed.as_secs_f64())
        ),
        CountPhase::Sweep => so_far("counting cell by cell", ""),
        CountPhase::Components => so_far("counting by components", ""),
        CountPhase::Race if s.lines > 0 => format!(
            "counting three ways at once: at least {} solutions so far{}, profiles {} of {} lines, {}",
            number(s.counted),
            done(""),
            s.lines_fixed,
            s.lines,
            duration(elapsed.as_secs_f64())
        ),
        CountPhase::Race => so_far("counting two ways at once", "sweep "),
    }
}

/// What the backbone search the sweep waits for has done, `(taken, cells)` as in
/// [`CountSnapshot::backbone_checking`], with `fixed` cells fixed.
fn backbone_words((taken, cells): (u64, u64), fixed: u64) -> String {
    if cells == 0 {
        return ", backbone: looking for a first solution".to_string();
    }
    format!(
        ", backbone: {} of {} cells checked, {} fixed",
        grouped(&taken.to_string()),
        grouped(&cells.to_string()),
        grouped(&fixed.to_string())
    )
}

/// The time left of a count made without enumerating, in words, for its live line: from the
/// pace of its share done (`left`, see [`ProgressReport::seconds_left`]), unknown until there is a pace, and never
/// known for components, which cannot tell how much is left. Nothing while simplifying, nor
/// once the `share` done is whole (the count ends).
fn exact_eta(phase: CountPhase, share: Option<f64>, left: Option<f64>) -> String {
    match (phase, left) {
        (CountPhase::Root, _) => String::new(),
        _ if share.is_some_and(|share| share >= 1.0) => String::new(),
        (CountPhase::Components, _) => ", ETA unknown: components give no estimate".to_string(),
        (_, Some(secs)) => format!(", ETA {}", about(secs)),
        (_, None) => ", ETA unknown yet".to_string(),
    }
}

/// A count in words: whole and with separators up to 10 million, else like `8.71e10` (three
/// figures, cut).
fn number(n: f64) -> String {
    if !n.is_finite() {
        return "∞".to_string();
    }
    if n >= 1e7 {
        // Three figures cut, not rounded: a count found so far never reads as more than it is.
        let precise = format!("{n:.15e}");
        let (mantissa, exponent) = precise.split_once('e').unwrap_or((&precise, "0"));
        return format!("{}e{exponent}", mantissa.get(..4).unwrap_or(mantissa));
    }
    grouped(&format!("{:.0}", n.max(0.0) + 0.0))
}

/// Decimal `digits` with a comma every three: `1,234,567`.
fn grouped(digits: &str) -> String {
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// What a stopped count was doing and how far each method got, for `--stats`.
fn how_far(s: &CountSnapshot, elapsed: Duration) -> String {
    let mut parts = vec![exact_line(s, elapsed, None)];
    let (backbone_checks, backbone_fixed) = s.backbone;
    if backbone_checks > 0 {
        parts.push(format!(
            "the backbone: {} cells fixed in {} checks",
            number(backbone_fixed as f64),
            number(backbone_checks as f64)
        ));
    }
    let (branched, from_memo) = s.sweep_nodes;
    let memo = memo_words(s.sweep_memo);
    if branched > 0 && s.sweep_gave_up {
        parts.push(format!(
            "the sweep: {} nodes branched, {} from its memo, then given up (its memo full, \
             {memo})",
            number(branched as f64),
            number(from_memo as f64),
        ));
    } else if branched > 0 {
        parts.push(format!(
            "the sweep: {} nodes branched, {} from its memo ({memo}), {} of its tree finished \
             (counting {} there)",
            number(branched as f64),
            number(from_memo as f64),
            share(s.sweep_explored),
            number(s.sweep_counted)
        ));
    }
    let (counted, from_cache) = s.component_nodes;
    if counted + from_cache > 0 {
        parts.push(format!(
            "components: {} counted by branching, {} from the cache",
            number(counted as f64),
            number(from_cache as f64)
        ));
    }
    parts.join("; ")
}

/// How much of their budget the sweep's memos took: `at most 1,234 of 5,900 MiB` (the
/// most bytes taken at once, then the budget, both rounded up to whole mebibytes, so that a
/// full memo never shows above its budget).
pub(crate) fn memo_words((peak, limit): (u64, u64)) -> String {
    const MIB: u64 = 1 << 20;
    format!(
        "at most {} of {} MiB",
        number(peak.div_ceil(MIB) as f64),
        number(limit.div_ceil(MIB) as f64)
    )
}

/// A fraction in `[0, 1]` as a percentage with as many decimals as a small one needs:
/// `42%`, `0.31%`, `0.0004%`; below a millionth of a percent, with an exponent (`1.8e-9%`,
/// where eight decimals read `0.00000000%`).
fn share(fraction: f64) -> String {
    // A fraction that is not a number shows as nothing done yet.
    let fraction = if fraction.is_nan() { 0.0 } else { fraction };
    // `+ 0.0` makes -0 a plain 0, which `format!` would print with its sign.
    let percent = 100.0 * fraction.clamp(0.0, 1.0) + 0.0;
    if percent >= 10.0 || percent == 0.0 {
        format!("{percent:.0}%")
    } else if percent < 1e-6 {
        format!("{percent:.1e}%")
    } else {
        let decimals = (1 - percent.log10().floor() as i32).clamp(1, 8) as usize;
        format!("{percent:.decimals$}%")
    }
}

/// A duration in words, rounded to its largest sensible unit: `45 s`, `12 min`, `3 days`.
fn duration(secs: f64) -> String {
    const UNITS: [(f64, f64, &str); 7] = [
        (1.0, 90.0, "s"),
        (60.0, 90.0 * 60.0, "min"),
        (3600.0, 36.0 * 3600.0, "h"),
        (86_400.0, 14.0 * 86_400.0, "days"),
        (7.0 * 86_400.0, 9.0 * 7.0 * 86_400.0, "weeks"),
        (30.0 * 86_400.0, 24.0 * 30.0 * 86_400.0, "months"),
        (365.0 * 86_400.0, 1000.0 * 365.0 * 86_400.0, "years"),
    ];
    if !secs.is_finite() {
        return "forever".to_string();
    }
    let secs = secs.max(0.0) + 0.0;
    for (unit, below, name) in UNITS {
        if secs < below {
            return format!("{:.0} {name}", (secs / unit).floor());
        }
    }
    "over 1000 years".to_string()
}

#[cfg(test)]
#[path = "progress_words_tests.rs"]
mod tests;
