//! Packing a split's subtrees, in search order, into runs of near-equal estimated size: one
//! run per part.

use std::ops::Range;

use super::Part;
use crate::domain::Domain;

/// `subtrees` packed into `parts` runs of near-equal estimated size (see [`pack`]).
pub(super) fn packed<P: Domain>(subtrees: Vec<Part<P>>, parts: usize) -> Vec<Vec<Part<P>>> {
    let sizes: Vec<f64> = subtrees.iter().map(|p| p.estimate).collect();
    let mut rest = subtrees.into_iter();
    pack(&sizes, parts)
        .into_iter()
        .map(|run| rest.by_ref().take(run.len()).collect())
        .collect()
}

/// Cuts `sizes` into `groups` consecutive runs (fewer only if there are fewer sizes) whose
/// largest sum is the smallest possible (the linear partition problem): a bisection on that
/// largest sum, each candidate tried by filling runs greedily from the left.
pub(crate) fn pack(sizes: &[f64], groups: usize) -> Vec<Range<usize>> {
    let groups = groups.clamp(1, sizes.len().max(1));
    // Runs of sum at most `limit`, each closed early when only one size per run is left.
    let runs = |limit: f64| {
        let mut runs = Vec::with_capacity(groups);
        let (mut start, mut sum) = (0, 0.0);
        for (i, &size) in sizes.iter().enumerate() {
            let left_after = groups.saturating_sub(runs.len() + 1);
            let must_close = i > start && sizes.len() - i <= left_after;
            if i > start && (sum + size > limit || must_close) {
                runs.push(start..i);
                (start, sum) = (i, 0.0);
            }
            sum += size;
        }
        if start < sizes.len() {
            runs.push(start..sizes.len());
        }
        runs
    };
    let (mut low, mut high) = (
        sizes.iter().copied().fold(0.0, f64::max),
        sizes.iter().sum::<f64>(),
    );
    for _ in 0..64 {
        let mid = low + (high - low) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if runs(mid).len() <= groups {
            high = mid;
        } else {
            low = mid;
        }
    }
    runs(high)
}
