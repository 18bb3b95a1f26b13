//! Tests of the probes' samples, their spread and the outlook they give.

use super::*;
use crate::rng::SplitMix;

/// The spread of `values` taken as probes.
fn moments(values: &[f64]) -> Spread {
    let mut m = Moments::default();
    values.iter().for_each(|&x| m.add(x));
    m.spread(values.len() as u64)
}

/// A probe of `solutions` solutions, with twice as many nodes and ten times the line solves.
fn probe(solutions: f64) -> Probe {
    Probe {
        nodes: 2.0 * solutions,
        solutions,
        line_solves: 10.0 * solutions,
    }
}

#[test]
fn probes_that_agree_settle_and_spread_ones_do_not() {
    let mut agreeing = Samples::default();
    for i in 1..SETTLE_PROBES {
        agreeing.add(probe(1000.0 + 10.0 * i as f64));
    }
    assert!(!agreeing.settled(), "too few probes");
    agreeing.add(probe(1000.0));
    assert!(agreeing.settled());
    // Probes over five orders of magnitude, as on a lopsided tree, do not settle in a
    // thousand.
    let mut spread = Samples::default();
    for i in 0..1000 {
        spread.add(probe(if i % 2 == 0 { 10.0 } else { 1e6 }));
    }
    assert!(!spread.settled());
    // Solutions that agree are not enough where the work does not.
    let mut work_apart = Samples::default();
    for i in 0..100 {
        let nodes = if i % 2 == 0 { 100.0 } else { 1e5 };
        work_apart.add(Probe {
            nodes,
            ..probe(1000.0)
        });
    }
    assert!(!work_apart.settled());
}

#[test]
fn a_spread_is_a_range_at_every_count_and_size() {
    assert_eq!(moments(&[]), Spread::default());
    let cases: [&[f64]; 8] = [
        &[5.0],
        &[0.0, 0.0],
        &[3.0, 3.0, 3.0],
        &[1e200, 1.0],
        &[f64::MAX, f64::MAX],
        &[f64::INFINITY, 2.0],
        &[f64::NAN, 2.0],
        &[f64::NAN, f64::NAN],
    ];
    for values in cases {
        let s = moments(values);
        assert!(s.low >= 0.0 && !s.high.is_nan(), "{values:?}: {s:?}");
        assert!(s.low <= s.high, "{values:?}: {s:?}");
        if s.mean.is_finite() {
            assert!(s.low <= s.mean && s.mean <= s.high, "{values:?}: {s:?}");
        }
    }
    // One probe: anything from 0 up.
    let one = moments(&[5.0]);
    assert_eq!((one.mean, one.low, one.high), (5.0, 0.0, f64::INFINITY));
    // Equal probes: no spread.
    let equal = moments(&[3.0, 3.0, 3.0]);
    assert_eq!((equal.low, equal.high), (3.0, 3.0));
}

#[test]
fn the_estimate_is_the_mean_of_a_log_normal_fit_within_the_probes() {
    // Logarithms 0, 1, 1, 2: their mean 1 and variance 2/3, so exp(1 + 1/3), above the
    // plain mean (3.46) and below the largest probe (e^2).
    let e = std::f64::consts::E;
    let s = moments(&[1.0, e, e, e * e]);
    assert!((s.mean - (4.0f64 / 3.0).exp()).abs() < 1e-9, "{s:?}");
    assert!(s.low <= s.mean && s.mean <= s.high, "{s:?}");
    // One high probe among four low ones says the spread is wide, and the fit's mean (470)
    // is above the plain mean (200.8), which the low probes hold down.
    let lopsided = moments(&[1.0, 1.0, 1.0, 1.0, 1000.0]);
    assert!((lopsided.mean - 470.2476).abs() < 1e-3, "{lopsided:?}");
    assert_eq!((lopsided.low, lopsided.high), (0.0, 1000.0));
    // Two probes orders of magnitude apart: the fit stays at most the largest.
    assert_eq!(moments(&[1.0, 1e12]).mean, 1e12);
    // Probes of no solutions: none.
    assert_eq!(moments(&[0.0, 0.0, 0.0]).mean, 0.0);
}

#[test]
fn the_time_left_goes_faster_once_the_estimator_pauses() {
    let e = a_thousand_nodes();
    // 100 nodes a second, measured while the estimator probed without pause beside two
    // search threads on two cores, with 2 s of that left: 200 nodes in those 2 s, the
    // other 700 with 1.9 cores instead of 4/3.
    let duty = crate::search::duty::DutySnapshot {
        busy_seconds: 1.0,
        steady_left: 2.0,
        threads: 2.0,
    };
    let outlook = e.outlook_at(done(100, 0), 1.0, duty.ahead(100.0, 1.0, 2.0));
    let faster = 100.0 * (2.0 * 2.0 / 2.1) / (4.0 / 3.0);
    let left = outlook.seconds_left.expect("a time left");
    assert!((left - (2.0 + 700.0 / faster)).abs() < 1e-9, "{left}");
    assert!(left < 9.0, "sooner than at the pace measured");
    let (low, high) = outlook.seconds_left_range.expect("a range");
    assert!((low - (2.0 + 200.0 / faster)).abs() < 1e-9, "{low}");
    assert!((high - (2.0 + 1700.0 / faster)).abs() < 1e-9, "{high}");
}

/// An estimate of 1000 nodes (500 to 2000), and nothing else.
fn a_thousand_nodes() -> TreeEstimate {
    TreeEstimate {
        probes: 20,
        nodes: Spread {
            mean: 1000.0,
            low: 500.0,
            high: 2000.0,
        },
        solutions: Spread::default(),
        line_solves: Spread::default(),
    }
}

#[test]
fn seconds_left_follow_the_rate() {
    let e = a_thousand_nodes();
    assert_eq!(e.seconds_left(done(0, 0), 1.0), None);
    // 100 nodes a second.
    assert_eq!(e.seconds_left(done(100, 0), 1.0), Some((9.0, 4.0, 19.0)));
    assert_eq!(e.seconds_left(done(3000, 0), 30.0), Some((0.0, 0.0, 0.0)));
    // Solutions count as work: 50 nodes and 50 solutions a second, of 1000 + 1000.
    let with_solutions = TreeEstimate {
        solutions: e.nodes,
        ..e
    };
    assert_eq!(
        with_solutions.seconds_left(done(50, 50), 1.0),
        Some((19.0, 9.0, 39.0))
    );
    // Line solves count as work too: 10 nodes and 90 line solves a second, of 1000 + 9000.
    let with_solves = TreeEstimate {
        line_solves: Spread {
            mean: 9000.0,
            low: 4500.0,
            high: 18000.0,
        },
        ..e
    };
    let ten = Done {
        nodes: 10,
        solutions: 0,
        line_solves: 90,
    };
    assert_eq!(
        with_solves.seconds_left(ten, 1.0),
        Some((99.0, 49.0, 199.0))
    );
}

/// What a search of `nodes` nodes and `solutions` solutions has done, with no line solved.
fn done(nodes: u64, solutions: u64) -> Done {
    Done {
        nodes,
        solutions,
        line_solves: 0,
    }
}

fn spread(mean: f64, low: f64, high: f64) -> Spread {
    Spread { mean, low, high }
}

/// An estimate of `solutions` (and as many nodes), with its range.
fn estimated(solutions: Spread) -> TreeEstimate {
    TreeEstimate {
        probes: 20,
        nodes: solutions,
        solutions,
        line_solves: Spread::default(),
    }
}

#[test]
fn the_outlook_never_says_fewer_solutions_than_found() {
    // 10 solutions of an estimated 5 (4 to 8) are found in 10 nodes: past even the high
    // end, which then bounds nothing.
    let low = estimated(spread(5.0, 4.0, 8.0)).outlook(done(10, 10), 2.0);
    assert_eq!(low.solutions, spread(10.0, 10.0, f64::INFINITY));
    // At the high end, not past it: an exact estimate, all found.
    let exact = estimated(spread(10.0, 10.0, 10.0)).outlook(done(10, 10), 2.0);
    assert_eq!(exact.solutions, spread(10.0, 10.0, 10.0));
    assert_eq!(
        (low.seconds_left, low.seconds_left_range, low.fraction_done),
        (None, None, None)
    );
    // Past the estimate but not its high end: the time left is unknown, up to the high end.
    let past = estimated(spread(5.0, 4.0, 100.0)).outlook(done(10, 10), 2.0);
    assert_eq!(past.solutions, spread(10.0, 10.0, 100.0));
    assert_eq!(past.seconds_left, None);
    // 10 units of work a second; 200 - 20 left at the high end.
    assert_eq!(past.seconds_left_range, Some((0.0, 18.0)));
    // An estimate of nothing, nothing found yet.
    let zero = estimated(Spread::default()).outlook(done(3, 0), 1.0);
    assert_eq!(zero.solutions, Spread::default());
    assert_eq!((zero.seconds_left, zero.seconds_left_range), (None, None));
}

#[test]
fn the_outlook_of_numbers_that_are_not_numbers_is_what_is_known() {
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let outlook = estimated(spread(x, x, x)).outlook(done(100, 7), 1.0);
        let s = outlook.solutions;
        assert!(
            s.mean >= 7.0 && s.low >= 7.0 && s.low <= s.mean && s.high >= s.mean,
            "{x}: {outlook:?}"
        );
        for secs in [
            outlook.seconds_left,
            outlook.seconds_left_range.map(|r| r.1),
        ] {
            assert!(
                secs.is_none_or(|s| s > 0.0 && s.is_finite()),
                "{x}: {outlook:?}"
            );
        }
        assert!(outlook.fraction_done.is_none(), "{x}: {outlook:?}");
    }
    // Elapsed time that is not a number gives no rate.
    let e = estimated(spread(1000.0, 500.0, 2000.0));
    for elapsed in [f64::NAN, f64::INFINITY, 0.0, -1.0] {
        let outlook = e.outlook(done(100, 7), elapsed);
        assert_eq!(outlook.seconds_left, None, "{elapsed}");
        assert_eq!(outlook.fraction_done, None, "{elapsed}");
    }
}

#[test]
fn the_fraction_done_runs_from_0_to_1() {
    let e = estimated(spread(1000.0, 500.0, 2000.0));
    // Nothing done yet: no rate.
    assert_eq!(e.outlook(done(0, 0), 1.0).fraction_done, None);
    // 200 of 2000 units of work (nodes and solutions) in 1 s: a tenth, 9 s left.
    let early = e.outlook(done(100, 100), 1.0);
    assert_eq!(early.fraction_done, Some(0.1));
    assert_eq!(early.seconds_left, Some(9.0));
    assert_eq!(early.seconds_left_range, Some((4.0, 19.0)));
    // All the estimated work done: no time left by the estimate, yet the search runs.
    let all = e.outlook(done(1000, 1000), 10.0);
    assert_eq!((all.seconds_left, all.fraction_done), (None, None));
    assert_eq!(all.seconds_left_range, Some((0.0, 10.0)));
    // Almost all: a share just under 1.
    let almost = e
        .outlook(done(999, 999), 10.0)
        .fraction_done
        .expect("a share");
    assert!((0.99..1.0).contains(&almost), "{almost}");
}

#[test]
fn split_mix_stays_below_its_bound() {
    let mut rng = SplitMix(1);
    let mut seen = [0u32; 3];
    for _ in 0..3000 {
        seen[rng.below(3)] += 1;
    }
    assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
}
