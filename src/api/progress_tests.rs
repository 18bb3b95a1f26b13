//! The progress meter's reports: estimates that never fall below what was found, exact
//! totals, the recent rate, the JSON form, and finished runs.

use std::sync::Arc;
use std::time::Duration;

use super::progress::*;
use crate::color::AnyPuzzle;
use crate::count::{CountPhase, CountProgress};
use crate::search::duty::Ahead;
use crate::search::estimate::{Spread, TreeEstimate};
use crate::search::{SolverOptions, StatsSnapshot};

#[test]
fn a_line_interval_is_a_second_unless_set() {
    let interval = ProgressMeter::line_interval;
    assert_eq!(interval(None), Duration::from_secs(1));
    assert_eq!(interval(Some("often")), Duration::from_secs(1));
    assert_eq!(interval(Some(" 250 ")), Duration::from_millis(250));
    assert_eq!(interval(Some("0")), Duration::from_millis(10));
}

/// An enumeration's counters: `found` solutions in `nodes` nodes.
fn stats(found: u64, nodes: u64) -> StatsSnapshot {
    StatsSnapshot {
        solutions: found,
        nodes,
        ..StatsSnapshot::default()
    }
}

/// An estimate of `mean` (`low` to `high`) nodes and solutions alike.
fn estimate(mean: f64, low: f64, high: f64) -> TreeEstimate {
    let spread = Spread { mean, low, high };
    TreeEstimate {
        probes: 100,
        nodes: spread,
        solutions: spread,
        line_solves: Spread::default(),
    }
}

#[test]
fn the_estimate_is_never_below_what_was_found_nor_the_time_left_zero() {
    let ten = Duration::from_secs(10);
    // As in issue 67: 1.47e7 found of an estimated 8,028,322; past the estimate.
    let e = Some(estimate(8e6, 1e5, 1.72e10));
    let report = ProgressReport::enumeration(&stats(14_700_000, 30_000_000), e, None, ten);
    let total = report.estimate.expect("an estimate");
    assert_eq!(
        (total.mean, total.low, total.high),
        (1.47e7, 1.47e7, 1.72e10)
    );
    assert_eq!(report.seconds_left, None);
    assert_eq!(report.fraction_done, None);
    let (low, high) = report.seconds_left_range.expect("up to the high end");
    assert!(low == 0.0 && high > 7000.0, "{low} {high}");
    // Past the high end too.
    let e = Some(estimate(8e6, 1e5, 1e7));
    let report = ProgressReport::enumeration(&stats(14_700_000, 30_000_000), e, None, ten);
    assert_eq!(report.seconds_left_range, None);
    // Nearly done: under a second left, but never none.
    let e = Some(estimate(1_001.0, 500.0, 1_002.0));
    let report = ProgressReport::enumeration(&stats(1_000, 1_000), e, None, ten);
    let left = report.seconds_left.expect("time left");
    assert!(left > 0.0 && left < 1.0, "{left}");
    // An estimate of nothing, and estimates that are not numbers.
    for e in [
        (0.0, 0.0, 0.0),
        (f64::NAN, f64::NAN, f64::NAN),
        (f64::INFINITY, 0.0, f64::INFINITY),
    ] {
        for (found, nodes) in [(0, 0), (0, 5), (42, 100)] {
            let e = Some(estimate(e.0, e.1, e.2));
            let report = ProgressReport::enumeration(&stats(found, nodes), e, None, ten);
            let total = report.estimate.expect("an estimate");
            let found = found as f64;
            assert!(found <= total.low && total.low <= total.mean, "{report:?}");
            assert!(total.mean <= total.high, "{report:?}");
            assert!(report.seconds_left.is_none_or(|s| s > 0.0 && s.is_finite()));
            let range = report.seconds_left_range;
            assert!(range.is_none_or(|(low, high)| 0.0 <= low && low <= high && high > 0.0));
            assert_eq!(report.explored, Some(0.0));
        }
    }
}

#[test]
fn an_exact_total_gives_the_share_found_and_the_time_left_at_the_rate_so_far() {
    let report =
        ProgressReport::enumeration(&stats(250, 900), None, Some(1000), Duration::from_secs(5));
    assert_eq!(report.fraction_done, Some(0.25));
    assert_eq!(report.rate, 50.0);
    assert_eq!(report.seconds_left, Some(15.0));
    assert_eq!(report.seconds_left_range, Some((15.0, 15.0)));
    assert_eq!(
        report.estimate.map(|e| (e.low, e.mean, e.high)),
        Some((1e3, 1e3, 1e3))
    );
    assert_eq!(report.explored, None);
    // All found: no time left at that rate, while the search ends its tree.
    let report =
        ProgressReport::enumeration(&stats(1000, 900), None, Some(1000), Duration::from_secs(5));
    assert_eq!(
        (report.seconds_left, report.fraction_done),
        (Some(0.0), Some(1.0))
    );
    // Nothing found yet: no rate, no time left; a total of nothing is all done.
    let report = ProgressReport::enumeration(&stats(0, 9), None, Some(7), Duration::ZERO);
    assert_eq!((report.rate, report.seconds_left), (0.0, None));
    let report = ProgressReport::enumeration(&stats(0, 9), None, Some(0), Duration::ZERO);
    assert_eq!(report.fraction_done, Some(1.0));
}

#[test]
fn a_meter_shows_the_recent_rate_and_tells_the_time_left_at_it() {
    let five = Duration::from_secs(5);
    // 250 of 1000 found in 5 s (50/s so far), 100/s over the last stretch.
    let report = ProgressReport::enumeration_at(
        &stats(250, 900),
        None,
        Some(1000),
        five,
        (Ahead::steady(300.0), 100.0),
    );
    assert_eq!(report.rate, 100.0);
    assert_eq!(report.seconds_left, Some(7.5));
    // A last stretch that found nothing: the rate so far, for the rate and the time left.
    let recent = (Ahead::steady(300.0), 0.0);
    let report = ProgressReport::enumeration_at(&stats(250, 900), None, Some(1000), five, recent);
    assert_eq!((report.rate, report.seconds_left), (50.0, Some(15.0)));
}

#[test]
fn the_json_form_has_every_figure_and_null_where_unknown() {
    let two = Duration::from_secs(2);
    let report = ProgressReport::enumeration(&stats(10, 20), None, None, two);
    assert_eq!(
        report.to_json("puzzle 1"),
        "{\"type\":\"progress\",\"label\":\"puzzle 1\",\"elapsed_seconds\":2.0,\"found\":10,\
         \"total\":null,\"estimate\":null,\"estimate_low\":null,\"estimate_high\":null,\
         \"eta_seconds\":null,\"eta_low_seconds\":null,\"eta_high_seconds\":null,\
         \"fraction_done\":null,\"explored\":0.0}"
    );
    let report = ProgressReport::enumeration(&stats(10, 20), None, Some(40), two);
    let json = report.to_json("p");
    assert!(
        json.contains("\"total\":\"40\",\"estimate\":40.0,"),
        "{json}"
    );
    assert!(
        json.ends_with("\"eta_high_seconds\":6.0,\"fraction_done\":0.25}"),
        "{json}"
    );
    let mut snapshot = CountProgress::default().snapshot();
    snapshot.phase = CountPhase::Sweep;
    snapshot.counted = 12.0;
    let json = ProgressReport::count(snapshot, two, Some(0.5), None).to_json("p");
    assert!(json.contains("\"phase\":\"sweep\",\"found\":12,"), "{json}");
    assert!(json.ends_with("\"fraction_done\":0.5}"), "{json}");
    snapshot.counted = 1e300;
    let json = ProgressReport::count(snapshot, two, None, None).to_json("p");
    assert!(json.contains("\"found\":1e+300,"), "{json}");
    // While the sweep waits for the backbone, the line says how far that got.
    (snapshot.backbone_checking, snapshot.backbone) = (Some((30, 800)), (12, 45));
    let json = ProgressReport::count(snapshot, two, Some(0.0), None).to_json("p");
    assert!(
        json.ends_with("\"backbone\":{\"checked\":30,\"cells\":800,\"fixed\":45}}"),
        "{json}"
    );
}

#[test]
fn a_meter_reads_a_finished_enumeration_and_count() {
    let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n").expect("a puzzle");
    let solver = puzzle.solver(SolverOptions::default());
    let mut meter = ProgressMeter::enumeration(solver.stats(), Arc::default());
    solver.run(|_| crate::Flow::Continue).expect("a search");
    let report = meter.report();
    assert!(matches!(
        report.kind,
        ProgressKind::Enumeration {
            found: 2,
            complete: true
        }
    ));
    assert_eq!(report.found(), 2.0);
    // Its last report gives the exact total, all done, with no time left.
    assert_eq!((report.total, report.fraction_done), (Some(2), Some(1.0)));
    assert_eq!(
        (report.seconds_left, report.seconds_left_range),
        (None, None)
    );
    let words = report.to_string();
    assert!(words.starts_with("2 solutions in all, ") && words.ends_with(", done"));
    assert!(report.to_json("p").contains(r#""total":"2""#));
    assert_eq!(meter.last_report().map(|r| r.total), Some(Some(2)));
    let counter = puzzle.counter(super::super::CountOptions::default());
    let mut meter = ProgressMeter::count(counter.progress());
    counter.run().expect("a count");
    let report = meter.report();
    assert!(matches!(report.kind, ProgressKind::Count(_)), "{report:?}");
    assert_eq!((report.total, report.estimate), (None, None));
}

/// A search stopped at a limit has not exhausted its tree: its last report still estimates.
#[test]
fn a_meter_of_a_stopped_enumeration_gives_no_total() {
    let puzzle = AnyPuzzle::parse(&format!("4 4\n{}", "1\n".repeat(8))).expect("a puzzle");
    let solver = puzzle
        .solver(SolverOptions::default())
        .with_solution_limit(5);
    let mut meter = ProgressMeter::enumeration(solver.stats(), Arc::default());
    let mut kept = 0;
    let outcome = solver
        .run(|_| {
            kept += 1;
            match kept {
                5 => crate::Flow::Stop,
                _ => crate::Flow::Continue,
            }
        })
        .expect("a search");
    assert!(!outcome.exhausted);
    let report = meter.report();
    assert!(matches!(
        report.kind,
        ProgressKind::Enumeration {
            complete: false,
            ..
        }
    ));
    assert_eq!(report.total, None);
    assert!(!report.to_string().contains("in all"), "{report}");
    assert!(meter.last_report().is_none());
}

#[test]
fn a_meter_reads_how_far_a_learning_search_got() {
    // 24 solutions: the learning search meets conflicts as it blocks them.
    let puzzle = AnyPuzzle::parse(&format!("4 4\n{}", "1\n".repeat(8))).expect("a puzzle");
    let options = SolverOptions {
        engine: crate::Engine::Learn,
        ..SolverOptions::default()
    };
    let solver = puzzle.solver(options);
    let mut meter = ProgressMeter::enumeration(solver.stats(), Arc::default());
    solver.run(|_| crate::Flow::Continue).expect("a search");
    let report = meter.report();
    let learning = report.learning.expect("the learning search met a conflict");
    assert_eq!(learning.variables, 16);
    assert!(
        learning.conflicts > 0 && learning.deepest <= 16,
        "{learning:?}"
    );
    assert!(!report.estimating);
    assert!(!report.to_string().contains("ETA"), "{report}");
}
