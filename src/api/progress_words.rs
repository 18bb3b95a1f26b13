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
mod tests {
    use super::*;
    use crate::search::StatsSnapshot;
    use crate::search::estimate::{Spread, TreeEstimate};

    #[test]
    fn extreme_values_read_as_words() {
        let extremes = [0.0, -0.0, -1.0, f64::MIN_POSITIVE, 1e-320, 1e300, f64::MAX];
        for x in extremes
            .into_iter()
            .chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY])
        {
            let (p, d, n) = (share(x), duration(x), number(x));
            assert!(
                p.ends_with('%') && !p.contains("NaN") && !p.starts_with('-'),
                "{x}: {p}"
            );
            assert!(!d.contains("NaN") && !d.starts_with('-'), "{x}: {d}");
            assert!(!n.contains("NaN") && !n.starts_with('-'), "{x}: {n}");
        }
        assert_eq!(share(f64::NAN), "0%");
        assert_eq!(share(1e-320), "1.0e-318%");
        assert_eq!(share(1.83e-11), "1.8e-9%");
        assert_eq!(share(1e-8), "0.0000010%");
        assert_eq!(duration(-3.0), "0 s");
    }

    #[test]
    fn numbers_and_durations_read_as_words() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(999.0), "999");
        assert_eq!(number(1234567.0), "1,234,567");
        assert_eq!(number(87_178_291_200.0), "8.71e10");
        assert_eq!(number(336_573_916.0), "3.36e8");
        assert_eq!(number(9_999_999_999.0), "9.99e9");
        assert_eq!(number(3.37e8), "3.37e8");
        assert_eq!(about(1e12), "over 1000 years");
        assert_eq!(about(f64::INFINITY), "forever");
        assert_eq!(about(600.0), "~10 min");
        assert_eq!(duration(8.4), "8 s");
        assert_eq!(duration(600.0), "10 min");
        assert_eq!(duration(3.0 * 86_400.0), "3 days");
        assert_eq!(duration(30.0 * 86_400.0), "4 weeks");
        assert_eq!(duration(f64::INFINITY), "forever");
    }

    #[test]
    fn a_stopped_count_says_how_far_each_method_got() {
        let mut snapshot = CountSnapshot {
            phase: CountPhase::Race,
            lines_fixed: 0,
            lines: 0,
            profiles: 0,
            sweep_nodes: (0, 0),
            sweep_explored: 0.0,
            sweep_turn: 0,
            sweep_counted: 0.0,
            sweep_kept_explored: 0.0,
            sweep_memo: (1_500_000, 6_000 << 20),
            sweep_gave_up: false,
            counted: 0.0,
            component_nodes: (0, 0),
            backbone: (0, 0),
            backbone_checking: None,
        };
        let doing = "counting two ways at once: at least 0 solutions so far, 0 s";
        assert_eq!(snapshot.how_far(Duration::ZERO), doing);
        snapshot.sweep_nodes = (14_660_349, 1_643_555);
        snapshot.sweep_explored = 0.0031;
        snapshot.sweep_counted = 1.2e8;
        snapshot.component_nodes = (23_307, 19_238);
        snapshot.backbone = (400, 86);
        assert_eq!(
            snapshot.how_far(Duration::ZERO),
            "counting two ways at once: at least 0 solutions so far, 0 s; the backbone: 86 cells \
             fixed in 400 checks; the sweep: 1.46e7 nodes branched, 1,643,555 from its memo (at \
             most 2 of 6,000 MiB), 0.31% of its tree finished (counting 1.20e8 there); \
             components: 23,307 counted by branching, 19,238 from the cache"
        );
        // The sweeps gave up, and components count on alone.
        (snapshot.phase, snapshot.sweep_gave_up) = (CountPhase::Components, true);
        assert_eq!(
            snapshot.how_far(Duration::ZERO),
            "counting by components: at least 0 solutions so far, 0 s; the backbone: 86 cells \
             fixed in 400 checks; the sweep: 1.46e7 nodes branched, 1,643,555 from its memo, \
             then given up (its memo full, at most 2 of 6,000 MiB); components: 23,307 counted \
             by branching, 19,238 from the cache"
        );
        // A full memo whose budget is not whole mebibytes shows at its budget, not above.
        assert_eq!(
            memo_words((6_150_000_000, 6_150_000_010)),
            "at most 5,866 of 5,866 MiB"
        );
        (snapshot.phase, snapshot.sweep_gave_up) = (CountPhase::Race, false);
        // The sweep waits for the backbone: its share says nothing yet.
        snapshot.backbone_checking = Some((0, 0));
        assert_eq!(
            snapshot.describe(Duration::from_secs(2), Some(0.0)),
            "counting two ways at once: at least 0 solutions so far, backbone: looking for a \
             first solution, 2 s"
        );
        (snapshot.backbone_checking, snapshot.backbone) = (Some((3_100, 3_800)), (2_000, 741));
        assert_eq!(
            snapshot.describe(Duration::from_secs(40), Some(0.0)),
            "counting two ways at once: at least 0 solutions so far, backbone: 3,100 of 3,800 \
             cells checked, 741 fixed, 40 s"
        );
        snapshot.backbone_checking = None;
        // Profiles racing too.
        snapshot.sweep_nodes = (0, 0);
        snapshot.component_nodes = (0, 0);
        snapshot.backbone = (0, 0);
        (snapshot.lines_fixed, snapshot.lines) = (9, 24);
        assert_eq!(
            snapshot.describe(Duration::from_secs(3), Some(0.4)),
            "counting three ways at once: at least 0 solutions so far, 40% done, profiles 9 \
             of 24 lines, 3 s"
        );
        assert_eq!(share(0.42), "42%");
        assert_eq!(share(0.0), "0%");
        assert_eq!(share(0.05), "5.0%");
        assert_eq!(share(0.000_004), "0.00040%");
    }

    /// The words of an enumeration that found `found` solutions in `nodes` nodes, in
    /// `secs` seconds, with the probes' `estimate` and the exact `total` where known.
    fn enumeration(
        found: u64,
        nodes: u64,
        estimate: Option<TreeEstimate>,
        total: Option<u128>,
        secs: u64,
    ) -> String {
        let stats = StatsSnapshot {
            solutions: found,
            nodes,
            estimating: true,
            ..StatsSnapshot::default()
        };
        let elapsed = Duration::from_secs(secs);
        ProgressReport::enumeration(&stats, estimate, total, elapsed).to_string()
    }

    #[test]
    fn a_search_that_decides_gives_no_eta_and_says_how_far_its_learning_got() {
        let mut stats = StatsSnapshot {
            nodes: 190_000,
            variables: 22_500,
            ..StatsSnapshot::default()
        };
        let line = |stats: &StatsSnapshot| {
            ProgressReport::enumeration(stats, None, None, Duration::from_secs(12)).to_string()
        };
        // Before its first conflict the learning search has nothing to say.
        assert_eq!(line(&stats), "0 solutions so far, 12 s");
        stats.solutions = 1;
        assert_eq!(line(&stats), "1 solution so far, 12 s");
        stats.solutions = 0;
        (stats.conflicts, stats.deepest) = (48_187, 12_823);
        assert_eq!(
            line(&stats),
            "0 solutions so far, 12 s; learning: 48,187 conflicts, deepest trail 12,823 of \
             22,500 variables"
        );
        // An estimating enumeration still promises an estimate.
        stats.estimating = true;
        assert!(line(&stats).contains("0/s, 12 s, ETA unknown yet; learning: 48,187 conflicts"));
        let json = ProgressReport::enumeration(&stats, None, None, Duration::from_secs(12))
            .to_json("puzzle 1");
        assert!(
            json.contains(r#""learning":{"conflicts":48187,"deepest":12823,"variables":22500}"#),
            "{json}"
        );
    }

    #[test]
    fn an_enumeration_line_gives_an_eta_with_its_range_or_says_it_is_unknown() {
        let line = enumeration(1_040_000, 2_000_000, None, None, 8);
        assert_eq!(
            line,
            "1,040,000 solutions so far, 130,000/s, 8 s, ETA unknown yet"
        );
        let spread = |mean: f64| Spread {
            mean,
            low: mean / 2.0,
            high: mean * 2.0,
        };
        let estimate = TreeEstimate {
            probes: 100,
            nodes: spread(2e11),
            solutions: spread(8.7e10),
            line_solves: Spread::default(),
        };
        let line = enumeration(1_040_000, 2_000_000, Some(estimate), None, 8);
        assert_eq!(
            line,
            "1,040,000 solutions so far of ~8.70e10 (4.35e10–1.74e11), 130,000/s, 8 s, \
             ETA ~8 days (4 days – 2 weeks)"
        );
        assert!(line.len() < 120, "{line}");
        // Once the exact total is known.
        let line = enumeration(1_040_000, 2_000_000, Some(estimate), Some(4_160_000), 8);
        assert_eq!(
            line,
            "1,040,000 of 4,160,000 solutions (25%), 130,000/s, 8 s, ETA ~24 s"
        );
    }

    #[test]
    fn an_enumeration_line_never_says_less_than_it_found_nor_0_s_left() {
        let estimate = |mean: f64, low: f64, high: f64| TreeEstimate {
            probes: 100,
            nodes: Spread { mean, low, high },
            solutions: Spread { mean, low, high },
            line_solves: Spread::default(),
        };
        // As in issue 67: 1.47e7 found of an estimated 8,028,322.
        let wide = Some(estimate(8e6, 1e5, 1.72e10));
        let line = enumeration(14_700_000, 30_000_000, wide, None, 10);
        assert_eq!(
            line,
            "1.47e7 solutions so far of ~1.47e7 (1.47e7–1.72e10), 1,470,000/s, 10 s, ETA unknown \
             (past the estimate, up to ~2 h)"
        );
        // Past the high end too: the total is at least what was found, nothing bounds it.
        let past = Some(estimate(8e6, 1e5, 1e7));
        let line = enumeration(14_700_000, 30_000_000, past, None, 10);
        assert!(
            line.contains(" so far of at least 1.47e7 (past the estimate), "),
            "{line}"
        );
        assert!(line.ends_with("ETA unknown (past the estimate)"), "{line}");
        // Nearly done: under a second left reads `<1 s`, never `0 s`.
        let near = Some(estimate(1_001.0, 500.0, 1_002.0));
        let line = enumeration(1_000, 1_000, near, None, 10);
        assert!(line.ends_with("ETA <1 s"), "{line}");
    }

    #[test]
    fn an_estimate_of_one_probe_says_it_has_no_range_yet() {
        let one = Spread {
            mean: 2e6,
            low: 0.0,
            high: f64::INFINITY,
        };
        let estimate = TreeEstimate {
            probes: 1,
            nodes: one,
            solutions: one,
            line_solves: Spread::default(),
        };
        // 200,000 of an estimated 4e6 nodes and solutions, in 1 s: 19 s left.
        let line = enumeration(100_000, 100_000, Some(estimate), None, 1);
        assert_eq!(
            line,
            "100,000 solutions so far of ~2,000,000 (no range yet), 100,000/s, 1 s, \
             ETA ~19 s (no range yet)"
        );
        // More found than that one probe said.
        let line = enumeration(3_000_000, 3_000_000, Some(estimate), None, 1);
        assert!(
            line.starts_with(
                "3,000,000 solutions so far of at least 3,000,000 (past the estimate), "
            ),
            "{line}"
        );
    }
}
