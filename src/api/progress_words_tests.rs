//! The progress words' tests: numbers, durations and shares as words, a stopped count's
//! words, and an enumeration's lines.

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
        line.starts_with("3,000,000 solutions so far of at least 3,000,000 (past the estimate), "),
        "{line}"
    );
}
