//! Explanations of line deductions: which facts of a line ("cell i has value k", "cell i does
//! not") force a variable, or leave the line no placement.
//!
//! All facts of the line would do, but short explanations make short learned clauses, which
//! prune far more. [`shrink`] starts from every fact the line held when it made the deduction
//! and drops them one at a time, latest first, keeping each drop after which the line solver
//! still makes the same deduction. Facts of level 0 cost nothing in a clause and stay. The
//! result is minimal (no single fact can be dropped) and prefers facts set early, which keeps
//! learned clauses at low decision levels. As line solvers are exact, each check only asks
//! whether the line still has a placement with the deduced variable the other way. (Dropping
//! runs of facts by halves cost more solves than this on tournament puzzles: about a third of
//! the facts offered stay, scattered through the order.)

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
/// minimal subset from which `check` still makes `deduction`: they go to `kept`. `check` holds
/// every fact of the deduction at first, those of level 0 (which stay) included.
pub(super) fn shrink(
    check: &mut impl LineCheck,
    facts: &mut [Fact],
    deduction: Deduction,
    kept: &mut Vec<Fact>,
) {
    // Latest first.
    facts.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
    kept.clear();
    for f in facts.iter() {
        check.toggle(f);
        if !check.still_holds(deduction) {
            check.toggle(f);
            kept.push(*f);
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
}
