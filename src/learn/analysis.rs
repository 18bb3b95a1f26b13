//! First-UIP conflict analysis and clause minimisation, over a trail of true literals
//! (`2 * variable + value`) with a level and a reason per variable; how a reason is explained
//! is the search's business.

use super::lit::{Lit, negated, var_of};

/// What conflict analysis needs from a search: its trail, levels and reasons.
pub(super) trait Implications {
    /// The current decision level.
    fn decision_level(&self) -> u32;
    /// The level at which `var` was set.
    fn level(&self, var: u32) -> u32;
    /// The true literals, oldest first.
    fn trail(&self) -> &[Lit];
    /// Whether `var` was set by a decision.
    fn is_decision(&self, var: u32) -> bool;
    /// Appends to `out` the true literals that forced `var` (none for decisions and root
    /// variables); `ending` says whether the search is ending, and the explanation may then
    /// be longer than it need be.
    fn antecedents(&mut self, var: u32, out: &mut Vec<Lit>, ending: &mut dyn FnMut() -> bool);
    /// Notes that `var` took part in the conflict, for the decision order.
    fn bump(&mut self, var: u32);
    /// Marks of the variables in the clause being built, one per variable, all `false`
    /// between analyses.
    fn seen(&mut self) -> &mut [bool];
}

/// A clause learned from a conflict.
pub(super) struct Learned {
    /// The clause, its asserting literal first and a literal of the jump level second.
    pub(super) clause: Vec<Lit>,
    /// The level to jump back to, where the clause forces its first literal.
    pub(super) jump: u32,
    /// Literals dropped by minimisation.
    pub(super) minimized: usize,
}

/// First-UIP analysis of the conflict whose true literals are `lits` (all set, the latest at
/// the current level; `lits` serves as a buffer afterwards).
pub(super) fn analyze(
    e: &mut impl Implications,
    lits: &mut Vec<Lit>,
    ending: &mut dyn FnMut() -> bool,
) -> Learned {
    let level = e.decision_level();
    let mut clause: Vec<Lit> = vec![0];
    let mut pending = 0usize;
    let mut at = e.trail().len();
    let uip = loop {
        for &l in lits.iter() {
            let var = var_of(l);
            if e.seen()[var as usize] || e.level(var) == 0 {
                continue;
            }
            e.seen()[var as usize] = true;
            e.bump(var);
            if e.level(var) == level {
                pending += 1;
            } else {
                clause.push(negated(l));
            }
        }
        let next = loop {
            at -= 1;
            let l = e.trail()[at];
            if e.seen()[var_of(l) as usize] {
                break l;
            }
        };
        e.seen()[var_of(next) as usize] = false;
        pending -= 1;
        if pending == 0 {
            break next;
        }
        lits.clear();
        e.antecedents(var_of(next), lits, ending);
    };
    clause[0] = negated(uip);
    let minimized = minimize(e, &mut clause, lits, ending);
    for &l in &clause[1..] {
        e.seen()[var_of(l) as usize] = false;
    }
    // The literal of the highest level after the asserting one goes second (it is watched).
    let mut jump = 0;
    for i in 1..clause.len() {
        let level = e.level(var_of(clause[i]));
        if level > jump {
            jump = level;
            clause.swap(1, i);
        }
    }
    Learned {
        clause,
        jump,
        minimized,
    }
}

/// Drops from `clause` each literal (after the first) whose variable was forced by variables
/// all already in the clause or at level 0; returns how many it dropped. `seen` marks the
/// clause's variables.
fn minimize(
    e: &mut impl Implications,
    clause: &mut Vec<Lit>,
    buffer: &mut Vec<Lit>,
    ending: &mut dyn FnMut() -> bool,
) -> usize {
    let mut keep = 1;
    for i in 1..clause.len() {
        let l = clause[i];
        let var = var_of(l);
        let redundant = !e.is_decision(var) && {
            buffer.clear();
            e.antecedents(var, buffer, ending);
            buffer.iter().all(|&a| {
                let v = var_of(a);
                e.seen()[v as usize] || e.level(v) == 0
            })
        };
        if redundant {
            e.seen()[var as usize] = false;
        } else {
            clause[keep] = l;
            keep += 1;
        }
    }
    let dropped = clause.len() - keep;
    clause.truncate(keep);
    dropped
}

/// Counts the distinct decision levels among a clause's literals (its literal block
/// distance) by stamping each level met, without allocating.
#[derive(Debug, Default)]
pub(super) struct LevelCount {
    /// Per level, the stamp of the last count that met it.
    stamps: Vec<u32>,
    stamp: u32,
}

impl LevelCount {
    /// The number of distinct levels among the variables of `lits` (all set), `level` giving
    /// each variable's.
    pub(super) fn distinct(&mut self, level: &[u32], lits: &[Lit]) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let mut count = 0;
        for &l in lits {
            let at = level[var_of(l) as usize] as usize;
            if at >= self.stamps.len() {
                self.stamps.resize(at + 1, 0);
            }
            if self.stamps[at] != self.stamp {
                self.stamps[at] = self.stamp;
                count += 1;
            }
        }
        count
    }
}

/// The highest level among the variables of `lits` (0 for none).
pub(super) fn top_level(e: &impl Implications, lits: &[Lit]) -> u32 {
    lits.iter().map(|&l| e.level(var_of(l))).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::LevelCount;
    use crate::learn::lit::lit;

    #[test]
    fn level_count_counts_each_level_once_per_count() {
        // Variables 0 to 5 set at levels 3, 1, 3, 0, 1, 5.
        let level = [3, 1, 3, 0, 1, 5];
        let lits = |vars: &[u32]| vars.iter().map(|&v| lit(v, v % 2 == 0)).collect::<Vec<_>>();
        let mut count = LevelCount::default();
        assert_eq!(count.distinct(&level, &lits(&[0, 1, 2, 3, 4])), 3);
        assert_eq!(count.distinct(&level, &lits(&[5])), 1);
        assert_eq!(count.distinct(&level, &[]), 0);
        assert_eq!(count.distinct(&level, &lits(&[1, 2, 3])), 3);
    }
}
