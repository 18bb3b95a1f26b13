//! One level of Chen's stratified sampling of a search tree: the nodes below the nodes kept so
//! far fall into strata, and each stratum keeps one node, drawn in proportion to the weights
//! (how many nodes of the tree each stands for), which stands for the weight of all. Every
//! draw is fair, so the sampled sizes are unbiased; the split and the progress estimator share it.

use std::collections::HashMap;

/// The width of a stratum: nodes of one level whose unknown cells, divided by it, are equal
/// share a stratum.
pub(crate) const STRATUM_CELLS: usize = 4;
/// The most nodes a level keeps: on a large grid, where unknown cells vary widely,
/// neighbouring strata are merged down to this many.
pub(crate) const MOST_STRATA: usize = 64;

/// The nodes of the next level, one per stratum, in the order their strata were first met.
///
/// Each node comes with a *key*, an exponential variate of rate one drawn for it alone; a
/// stratum keeps the node whose key over its weight is the least. That least value is again
/// exponential, with the stratum's whole weight as its rate, whichever node it came from, so
/// each node is kept with the chance of its weight over the stratum's, and merged strata
/// compare their least values the same way. Keys drawn from a node's own hash (the split's
/// permanent random numbers) make samples of overlapping trees keep the same nodes.
pub(crate) struct Strata<T> {
    /// `(node, the stratum's weight, the least key over weight)`.
    kept: Vec<(T, f64, f64)>,
    slots: HashMap<usize, usize>,
}

impl<T> Strata<T> {
    pub(crate) fn new() -> Self {
        Strata {
            kept: Vec::new(),
            slots: HashMap::new(),
        }
    }

    /// Adds `node` of `weight` (positive) and `key` (see [`exponential`]) to `stratum`.
    pub(crate) fn add(&mut self, stratum: usize, node: T, weight: f64, key: f64) {
        let scaled = key / weight;
        let Some(&slot) = self.slots.get(&stratum) else {
            self.slots.insert(stratum, self.kept.len());
            self.kept.push((node, weight, scaled));
            return;
        };
        let (kept, total, least) = &mut self.kept[slot];
        *total += weight;
        if scaled < *least {
            (*kept, *least) = (node, scaled);
        }
    }

    /// The kept nodes with their weights, at most `most` of them (at least one): ordered by
    /// `order`, neighbours are merged in pairs, as strata are, until few enough are left.
    pub(crate) fn level<K: Ord>(self, most: usize, order: impl Fn(&T) -> K) -> Vec<(T, f64)> {
        let mut level = self.kept;
        while level.len() > most.max(1) {
            level.sort_by_key(|(node, ..)| order(node));
            let mut pairs = Vec::with_capacity(level.len().div_ceil(2));
            let mut nodes = level.into_iter();
            while let Some(first) = nodes.next() {
                let Some(second) = nodes.next() else {
                    pairs.push(first);
                    break;
                };
                let total = first.1 + second.1;
                let (node, least) = if first.2 <= second.2 {
                    (first.0, first.2)
                } else {
                    (second.0, second.2)
                };
                pairs.push((node, total, least));
            }
            level = pairs;
        }
        level
            .into_iter()
            .map(|(node, weight, _)| (node, weight))
            .collect()
    }
}

/// An exponential variate of rate one from `bits`, 64 uniformly random bits: a node's key.
pub(crate) fn exponential(bits: u64) -> f64 {
    // The top 53 bits, plus a half, as a fraction strictly between 0 and 1.
    let unit = ((bits >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    -unit.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stratum_keeps_its_least_key_over_weight_for_the_weight_of_all() {
        let mut strata = Strata::new();
        strata.add(3, 'a', 1.0, 2.0);
        strata.add(5, 'b', 2.0, 1.0);
        // 'c' has 3.0 / 3.0 = 1.0 < 2.0: it replaces 'a'; 'd' has 2.5 / 2.0 > 1.0: 'c' stays.
        strata.add(3, 'c', 3.0, 3.0);
        strata.add(3, 'd', 2.0, 2.5);
        assert_eq!(strata.level(8, |&c| c), [('c', 6.0), ('b', 2.0)]);
    }

    #[test]
    fn a_level_past_its_bound_is_merged_in_pairs_keeping_its_weight() {
        let mut strata = Strata::new();
        let mut rng = crate::rng::SplitMix(5);
        for i in 0..200usize {
            strata.add(i, i, 1.0 + (i % 3) as f64, exponential(rng.next()));
        }
        let level = strata.level(64, |&i| i);
        assert!((32..=64).contains(&level.len()), "{}", level.len());
        let weight: f64 = level.iter().map(|(_, w)| w).sum();
        assert_eq!(weight, (0..200).map(|i| 1.0 + (i % 3) as f64).sum::<f64>());
    }

    #[test]
    fn each_node_is_kept_in_proportion_to_its_weight() {
        let weights = [1.0, 2.0, 5.0];
        let mut rng = crate::rng::SplitMix(11);
        let (draws, mut kept) = (30_000, [0u32; 3]);
        for _ in 0..draws {
            let mut strata = Strata::new();
            // Two strata merged into one: the merge must keep the same chances.
            for (i, &w) in weights.iter().enumerate() {
                strata.add(i.min(1), i, w, exponential(rng.next()));
            }
            let level = strata.level(1, |&i| i);
            kept[level[0].0] += 1;
        }
        for (i, &w) in weights.iter().enumerate() {
            let share = f64::from(kept[i]) / f64::from(draws);
            assert!((share - w / 8.0).abs() < 0.015, "node {i}: {share}");
        }
    }
}
