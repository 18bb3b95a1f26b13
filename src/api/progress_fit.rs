//! A progress line fitted to a narrow terminal: a spinner line longer than the terminal is cut
//! at its end, where the time left stands, so a line that does not fit first drops its
//! ranges, then puts its time left first.

use super::progress::ProgressReport;

impl ProgressReport {
    /// The report in words ([`Display`](std::fmt::Display)), within `width` characters where
    /// it can be: without the ranges of the total and of the time left if the whole line is
    /// longer, and then with the time left first (`ETA ~5 s · 491,151 solutions so far ...`),
    /// so that a display which cuts the line keeps it.
    pub fn words_within(&self, width: usize) -> String {
        let full = self.to_string();
        if full.chars().count() <= width {
            return full;
        }
        let compact = without_ranges(&full);
        if compact.chars().count() <= width {
            return compact;
        }
        match compact.split_once(", ETA ") {
            Some((before, after)) => {
                let (eta, rest) = after.split_once("; ").unwrap_or((after, ""));
                let rest = if rest.is_empty() {
                    String::new()
                } else {
                    format!("; {rest}")
                };
                format!("ETA {eta} · {before}{rest}")
            }
            None => compact,
        }
    }
}

/// `line` without its ranges: the parenthesised groups that hold a range (`–`) or say there
/// is none yet, each with the space before it.
fn without_ranges(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find(" (") {
        let Some(close) = rest[open..].find(')').map(|at| open + at) else {
            break;
        };
        let inside = &rest[open + 2..close];
        out.push_str(&rest[..open]);
        if !(inside.contains('–') || inside.contains("range")) {
            out.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::without_ranges;
    use crate::ProgressReport;
    use crate::api::progress::ProgressKind;
    use crate::search::estimate::Spread;

    /// An enumeration's line gives up its ranges, then its place, to keep its time left.
    #[test]
    fn a_narrow_line_keeps_its_time_left() {
        let report = ProgressReport {
            elapsed: Duration::from_secs(3),
            kind: ProgressKind::Enumeration {
                found: 1_485_451,
                complete: false,
            },
            total: None,
            rate: 515_665.0,
            estimate: Some(Spread {
                mean: 2_514_876.0,
                low: 2_326_984.0,
                high: 1.74e7,
            }),
            seconds_left: Some(5.0),
            seconds_left_range: Some((1.0, 15.0)),
            fraction_done: Some(0.4),
            explored: Some(0.9),
            estimating: true,
            learning: None,
        };
        let full = report.to_string();
        assert_eq!(report.words_within(200), full);
        let compact = "1,485,451 solutions so far of ~2,514,876, 515,665/s, 3 s, ETA ~5 s";
        assert_eq!(report.words_within(70), compact);
        let first = report.words_within(40);
        assert_eq!(
            first,
            "ETA ~5 s · 1,485,451 solutions so far of ~2,514,876, 515,665/s, 3 s"
        );
    }

    #[test]
    fn ranges_go_and_other_parentheses_stay() {
        let line = "1,485,451 solutions so far of ~2,514,876 (2,326,984–1.74e7), 515,665/s, 3 s, \
                    ETA ~1 s (1 s – 15 s)";
        assert_eq!(
            without_ranges(line),
            "1,485,451 solutions so far of ~2,514,876, 515,665/s, 3 s, ETA ~1 s"
        );
        let known = "2,397,145 of 2,581,611 solutions (93%), 713,414/s, 4 s, ETA <1 s";
        assert_eq!(without_ranges(known), known);
        let first = "8 solutions so far of ~9 (no range yet), 1/s, 0 s, ETA ~8 s (no range yet)";
        assert_eq!(
            without_ranges(first),
            "8 solutions so far of ~9, 1/s, 0 s, ETA ~8 s"
        );
    }
}
