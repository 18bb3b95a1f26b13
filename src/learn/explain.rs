//! Explanations of line deductions: which facts of a line ("cell i has value k", "cell i does
//! not") force a variable, or leave the line no placement.
//!
//! All facts of the line would do, but short explanations make short learned clauses, which
//! prune far more. [`shrink`] starts from every fact the line held when it made the deduction
//! and drops them, latest first, keeping each drop after which the line solver still makes the
//! same deduction. Facts of level 0 cost nothing in a clause and stay. The result is minimal
//! (no single fact can be dropped) and prefers facts set early, which keeps learned clauses at
//! low decision levels. As line solvers are exact, each check only asks whether the line still
//! has a placement with the deduced variable the other way.
//!
//! Most facts go (five in six on a random 100x100 picture, two in three on a 25x25 one), so
//! [`shrink`] tries them a few at a time: a group that can go goes in one check, and one that
//! cannot is halved, the first half tried, and the second known to hold a needed fact if the
//! first went whole. The facts kept are exactly those of trying them one at a time (dropping
//! facts only makes a line easier to fill: a fact needed among more facts is needed among
//! fewer). [`GroupSize`] sizes the groups by the share of facts kept lately.

/// A fact of the line being explained: variable `sub` of cell `index` has value `value`, set
/// at trail position `position`. Packed in one word, the position in the high half, so that
/// facts compare by position (the order [`shrink`] tries them in) as plain integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fact(u64);

/// Bits of a fact's word below the index: the value (bit 0) and `sub` (bits 1 to 8).
const INDEX_SHIFT: u32 = 9;

impl Fact {
    /// The fact that variable `sub` of cell `index` has `value`, set at trail `position`.
    pub(super) fn new(position: u32, index: u32, sub: u8, value: bool) -> Self {
        debug_assert!(index < 1 << (32 - INDEX_SHIFT));
        Fact(
            u64::from(position) << 32
                | u64::from(index) << INDEX_SHIFT
                | u64::from(sub) << 1
                | u64::from(value),
        )
    }

    /// The fact without its trail position: which variable of which cell of the line, and its
    /// value.
    pub(super) fn place(self) -> u64 {
        self.0 & u64::from(u32::MAX)
    }

    /// Index of the cell in the line.
    pub(super) fn index(self) -> u32 {
        (self.0 as u32) >> INDEX_SHIFT
    }

    /// Which of the cell's variables (0 in black and white; the colour in colour).
    pub(super) fn sub(self) -> u8 {
        (self.0 >> 1) as u8
    }

    /// The variable's value.
    pub(super) fn value(self) -> bool {
        self.0 & 1 == 1
    }
}

/// What an explanation must keep true.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Deduction {
    /// The line has no placement.
    Contradiction,
    /// Variable `sub` of cell `index` of the line has value `value`.
    Forces { index: u32, sub: u8, value: bool },
}

/// One line under explanation, with the facts in it now.
pub(crate) trait LineCheck {
    /// Puts `fact` into the line if it is out, else takes it out.
    fn toggle(&mut self, fact: &Fact);
    /// Whether the line solver makes `deduction` from the facts in the line now.
    fn still_holds(&mut self, deduction: Deduction) -> bool;
}

/// Empties each of `buffers` and fills it with `len` zeros: a line under explanation starts
/// with no fact in it.
pub(super) fn zeroed<'a>(buffers: impl IntoIterator<Item = &'a mut Vec<u64>>, len: usize) {
    for buffer in buffers {
        buffer.clear();
        buffer.resize(len, 0);
    }
}

/// Shrinks `facts`, the facts not of level 0 that a line's deduction was made from, to a
/// minimal subset from which `check` still makes `deduction`: they go to `kept`, latest first.
/// `check` holds every fact of the deduction at first, those of level 0 (which stay) included.
/// Tries the facts in groups of `group` (at least 1); returns the checks made.
pub(super) fn shrink(
    check: &mut impl LineCheck,
    facts: &mut [Fact],
    deduction: Deduction,
    group: usize,
    kept: &mut Vec<Fact>,
) -> u64 {
    // Latest first.
    facts.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
    kept.clear();
    if group <= 1 {
        // One at a time without `drop_group`'s bookkeeping: on 25x25 puzzles, where groups do
        // not pay, going through it cost 3.4% more instructions per conflict.
        for f in facts.iter() {
            check.toggle(f);
            if !check.still_holds(deduction) {
                check.toggle(f);
                kept.push(*f);
            }
        }
        return facts.len() as u64;
    }
    let mut checks = 0;
    for facts in facts.chunks(group) {
        drop_group(check, facts, deduction, false, kept, &mut checks);
    }
    checks
}

/// Takes out of `check` the facts of `group` that `deduction` does without (as one at a time,
/// first to last, would) and pushes the others to `kept`. `needed`: the group is known to hold
/// a fact that cannot go, so trying all of it at once would be a wasted check.
fn drop_group(
    check: &mut impl LineCheck,
    group: &[Fact],
    deduction: Deduction,
    needed: bool,
    kept: &mut Vec<Fact>,
    checks: &mut u64,
) {
    if group.is_empty() {
        return;
    }
    if !needed {
        for f in group {
            check.toggle(f);
        }
        *checks += 1;
        if check.still_holds(deduction) {
            return;
        }
        for f in group {
            check.toggle(f);
        }
    }
    if let [f] = group {
        kept.push(*f);
        return;
    }
    let (first, second) = group.split_at(group.len() / 2);
    let kept_before = kept.len();
    drop_group(check, first, deduction, false, kept, checks);
    // Had the first half gone whole, the group without it still needs a fact of the second.
    let first_gone = kept.len() == kept_before;
    drop_group(check, second, deduction, first_gone, kept, checks);
}

/// The group size for [`shrink`], from the share of the facts offered that explanations kept
/// lately: the fewer stay, the larger the groups that go in one check.
#[derive(Debug, Default)]
pub(super) struct GroupSize {
    /// Facts offered and kept since the counts were last halved.
    offered: u64,
    kept: u64,
}

impl GroupSize {
    /// Counts above which both are halved, so that the share follows the search.
    const WINDOW: u64 = 1 << 16;

    /// Notes an explanation that kept `kept` of `offered` facts.
    pub(super) fn note(&mut self, offered: usize, kept: usize) {
        self.offered += offered as u64;
        self.kept += kept as u64;
        if self.offered > Self::WINDOW {
            self.offered /= 2;
            self.kept /= 2;
        }
    }

    /// The group size that makes the fewest checks, were the facts kept at random with the
    /// share seen lately (simulated), where that saves a sixth of the checks or more (groups
    /// cost their bookkeeping): one, facts tried one at a time, while no explanation is in.
    pub(super) fn get(&self) -> usize {
        if self.offered == 0 {
            return 1;
        }
        let share = self.kept as f64 / self.offered as f64;
        match share {
            s if s < 0.08 => 5,
            s if s < 0.17 => 4,
            s if s < 0.22 => 3,
            s if s < 0.26 => 2,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_keeps_its_parts_and_orders_by_position() {
        let fact = Fact::new(7, 4_000_000, 200, true);
        assert_eq!(
            (fact.index(), fact.sub(), fact.value()),
            (4_000_000, 200, true)
        );
        let other = Fact::new(8, 0, 0, false);
        assert_eq!((other.index(), other.sub(), other.value()), (0, 0, false));
        assert!(other.0 > fact.0, "later on the trail");
    }

    /// A black-and-white line of up to 128 cells under explanation, checked by the line
    /// solver's feasibility.
    struct BitLine {
        clue: Vec<u32>,
        len: usize,
        filled: [u64; 2],
        empty: [u64; 2],
    }

    impl LineCheck for BitLine {
        fn toggle(&mut self, fact: &Fact) {
            let plane = if fact.value() {
                &mut self.filled
            } else {
                &mut self.empty
            };
            plane[fact.index() as usize / 64] ^= 1 << (fact.index() % 64);
        }

        fn still_holds(&mut self, deduction: Deduction) -> bool {
            let other = match deduction {
                Deduction::Contradiction => None,
                Deduction::Forces { index, value, .. } => Some(Fact::new(0, index, 0, !value)),
            };
            other.iter().for_each(|f| self.toggle(f));
            let feasible = crate::line::BitLineSolver::new().feasible(
                &self.clue,
                self.len,
                &self.filled,
                &self.empty,
            );
            other.iter().for_each(|f| self.toggle(f));
            !feasible
        }
    }

    /// Random lines, some cells of a placement known (one of them, at times, turned the other
    /// way), and a deduction the line makes from them: shrinking by groups of any size keeps
    /// exactly the facts that one at a time keeps, and they are a minimal explanation.
    #[test]
    fn groups_keep_the_facts_one_at_a_time_keeps() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let mut explained = 0;
        for _ in 0..600 {
            let len = 1 + next(120) as usize;
            let cells: Vec<bool> = (0..len).map(|_| next(2) == 0).collect();
            let clue: Vec<u32> = cells
                .split(|&filled| !filled)
                .filter(|run| !run.is_empty())
                .map(|run| run.len() as u32)
                .collect();
            let mut facts = Vec::new();
            for (i, &filled) in cells.iter().enumerate() {
                if next(5) < 3 {
                    facts.push(Fact::new(next(1 << 20) as u32, i as u32, 0, filled));
                }
            }
            if !facts.is_empty() && next(3) == 0 {
                let at = next(facts.len() as u64) as usize;
                let f = facts[at];
                facts[at] = Fact::new((f.0 >> 32) as u32, f.index(), 0, !f.value());
            }
            let mut line = BitLine {
                clue,
                len,
                filled: [0; 2],
                empty: [0; 2],
            };
            facts.iter().for_each(|f| line.toggle(f));
            let deduction = if line.still_holds(Deduction::Contradiction) {
                Deduction::Contradiction
            } else {
                let known = |i: usize| facts.iter().any(|f| f.index() as usize == i);
                let forced = (0..len).filter(|&i| !known(i)).find_map(|i| {
                    let deduction = Deduction::Forces {
                        index: i as u32,
                        sub: 0,
                        value: cells[i],
                    };
                    line.still_holds(deduction).then_some(deduction)
                });
                match forced {
                    Some(deduction) => deduction,
                    None => continue,
                }
            };
            explained += 1;
            let mut one_at_a_time = Vec::new();
            let checks = shrink(&mut line, &mut facts, deduction, 1, &mut one_at_a_time);
            assert_eq!(checks, facts.len() as u64);
            // What is left in the line is the explanation: it holds, and each fact is needed.
            assert!(line.still_holds(deduction));
            for f in &one_at_a_time {
                line.toggle(f);
                assert!(!line.still_holds(deduction), "{f:?} is not needed");
                line.toggle(f);
            }
            for group in 2..=6 {
                let mut by_groups = Vec::new();
                one_at_a_time.iter().for_each(|f| line.toggle(f));
                facts.iter().for_each(|f| line.toggle(f));
                shrink(&mut line, &mut facts, deduction, group, &mut by_groups);
                assert_eq!(by_groups, one_at_a_time, "groups of {group}");
            }
        }
        assert!(explained > 300, "only {explained} deductions made");
    }

    #[test]
    fn group_size_follows_the_share_of_facts_kept() {
        let mut size = GroupSize::default();
        assert_eq!(size.get(), 1, "no explanation yet");
        size.note(100, 40);
        assert_eq!(size.get(), 1);
        for _ in 0..5_000 {
            size.note(50, 5);
        }
        assert_eq!(size.get(), 4, "a tenth kept: the earlier share forgotten");
    }
}
