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
pub(crate) struct Strata<T> {
    kept: Vec<(T, f64)>,
    slots: HashMap<usize, usize>,
}

impl<T> Strata<T> {
    pub(crate) fn new() -> Self {
        Strata {
            kept: Vec::new(),
            slots: HashMap::new(),
        }
    }

    /// Adds `node` of `weight` to `stratum`: the first node of a stratum is kept; a later one
    /// replaces it with the chance of its weight over the stratum's, `draw()` being uniform in
    /// `[0, 1)` (called only then, so that the draws follow the nodes' order).
    pub(crate) fn add(
        &mut self,
        stratum: usize,
        node: T,
        weight: f64,
        draw: &mut impl FnMut() -> f64,
    ) {
        let Some(&slot) = self.slots.get(&stratum) else {
            self.slots.insert(stratum, self.kept.len());
            self.kept.push((node, weight));
            return;
        };
        let (kept, total) = &mut self.kept[slot];
        *total += weight;
        if draw() * *total < weight {
            *kept = node;
        }
    }

    /// The kept nodes with their weights, at most `most` of them (at least one): ordered by
    /// `order`, neighbours are merged in pairs, as strata are, until few enough are left.
    pub(crate) fn level<K: Ord>(
        self,
        most: usize,
        order: impl Fn(&T) -> K,
        draw: &mut impl FnMut() -> f64,
    ) -> Vec<(T, f64)> {
        let mut level = self.kept;
        while level.len() > most.max(1) {
            level.sort_by_key(|(node, _)| order(node));
            let mut pairs = Vec::with_capacity(level.len().div_ceil(2));
            let mut nodes = level.into_iter();
            while let Some(first) = nodes.next() {
                let Some(second) = nodes.next() else {
                    pairs.push(first);
                    break;
                };
                let total = first.1 + second.1;
                let node = if draw() * total < first.1 {
                    first.0
                } else {
                    second.0
                };
                pairs.push((node, total));
            }
            level = pairs;
        }
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stratum_keeps_one_node_for_the_weight_of_all() {
        let mut draws = [0.9, 0.1].into_iter();
        let mut draw = || draws.next().expect("two draws");
        let mut strata = Strata::new();
        strata.add(3, 'a', 1.0, &mut draw);
        strata.add(5, 'b', 2.0, &mut draw);
        // 0.9 * 4 >= 3: 'a' stays; then 0.1 * 6 < 2: 'd' replaces it.
        strata.add(3, 'c', 3.0, &mut draw);
        strata.add(3, 'd', 2.0, &mut draw);
        assert_eq!(
            strata.level(8, |&c| c, &mut || 0.0),
            [('d', 6.0), ('b', 2.0)]
        );
    }

    #[test]
    fn a_level_past_its_bound_is_merged_in_pairs_keeping_its_weight() {
        let mut strata = Strata::new();
        let mut never = || -> f64 { unreachable!("strata of one node draw nothing") };
        for i in 0..200usize {
            strata.add(i, i, 1.0 + (i % 3) as f64, &mut never);
        }
        let mut rng = crate::rng::SplitMix(5);
        let mut draw = || rng.unit();
        let level = strata.level(64, |&i| i, &mut draw);
        assert!((32..=64).contains(&level.len()), "{}", level.len());
        let weight: f64 = level.iter().map(|(_, w)| w).sum();
        assert_eq!(weight, (0..200).map(|i| 1.0 + (i % 3) as f64).sum::<f64>());
    }
}
