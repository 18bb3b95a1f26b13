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

/// A fact of the line being explained: variable `sub` of cell `index` has value `value`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fact {
    /// Index of the cell in the line.
    pub(super) index: u32,
    /// Which of the cell's variables (0 in black and white; the colour in colour).
    pub(super) sub: u8,
    pub(super) value: bool,
    /// Known at level 0: free, always kept.
    pub(super) root: bool,
    /// Trail position: later facts are tried first.
    pub(super) position: u32,
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

/// Shrinks `facts` (those a line's deduction was made from) to a minimal subset from which
/// `check`, an empty line, still makes `deduction`: the non-root facts kept go to `kept`.
pub(super) fn shrink(
    check: &mut impl LineCheck,
    facts: &mut [Fact],
    deduction: Deduction,
    kept: &mut Vec<Fact>,
) {
    for f in facts.iter() {
        check.toggle(f);
    }
    // Non-root facts first (root facts stay in the line and need no order), latest first.
    let mut candidates = 0;
    for i in 0..facts.len() {
        if !facts[i].root {
            facts.swap(i, candidates);
            candidates += 1;
        }
    }
    facts[..candidates].sort_unstable_by_key(|f| u32::MAX - f.position);
    kept.clear();
    for f in &facts[..candidates] {
        check.toggle(f);
        if !check.still_holds(deduction) {
            check.toggle(f);
            kept.push(*f);
        }
    }
}
