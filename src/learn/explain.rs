//! Explanations of line deductions: which known cells of a line force a cell, or make the
//! line impossible.
//!
//! All known cells of the line would do, but short explanations make short learned clauses,
//! which prune far more. The explainer starts from every known cell and drops them one at a
//! time, latest first, keeping each drop after which the line solver still makes the same
//! deduction. Cells known at level 0 cost nothing in a clause and stay. The result is
//! minimal (no single cell can be dropped) and prefers cells set early, which keeps learned
//! clauses at low decision levels. As the line solver is exact, each check only asks whether
//! the line still has a placement with the deduced cell the other way: the forward half of the
//! bit-parallel solver, a third of a whole solve (or a cached result).

use crate::line::{BitLineSolver, Contradiction, LineCache, LineSolver, set_bit};

/// A known cell of the line being explained.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known {
    /// Index of the cell in the line.
    pub(super) index: u32,
    pub(super) filled: bool,
    /// Known at level 0: free, always kept.
    pub(super) root: bool,
    /// Trail position: later cells are tried first.
    pub(super) position: u32,
}

/// What an explanation must keep true.
#[derive(Clone, Copy, Debug)]
pub(super) enum Deduction {
    /// The line has no placement.
    Contradiction,
    /// Cell `index` of the line has value `filled`.
    Forces { index: u32, filled: bool },
}

/// Buffers for explaining, one per search.
#[derive(Debug, Default)]
pub(super) struct Explainer {
    solver: BitLineSolver,
    filled: Vec<u64>,
    empty: Vec<u64>,
    kept: Vec<Known>,
    /// Line-solver calls made while explaining.
    pub(super) line_solves: u64,
}

impl Explainer {
    /// Shrinks `known` (the cells a line's deduction was made from) to a minimal subset from
    /// which the line solver still makes `deduction`; returns the non-root cells kept.
    /// Line states of one word are looked up in `cache` (line `line`) first.
    pub(super) fn explain(
        &mut self,
        clue: &[u32],
        len: usize,
        (cache, line): (&mut LineCache, u32),
        known: &mut [Known],
        deduction: Deduction,
    ) -> &[Known] {
        let words = len.div_ceil(64).max(1);
        for v in [&mut self.filled, &mut self.empty] {
            v.clear();
            v.resize(words, 0);
        }
        for k in known.iter() {
            let plane = if k.filled {
                &mut self.filled
            } else {
                &mut self.empty
            };
            set_bit(plane, k.index as usize);
        }
        known.sort_unstable_by_key(|k| (k.root, std::cmp::Reverse(k.position)));
        let candidates = known.iter().take_while(|k| !k.root).count();
        self.kept.clear();
        self.shrink(clue, len, (cache, line), &known[..candidates], deduction);
        &self.kept
    }

    /// Drops from the line each of `cells` (all in the line now, latest first) after which
    /// the deduction still holds; cells that must stay go to `kept`. (Dropping runs of cells
    /// by halves cost more solves than this on tournament puzzles: about a third of the cells
    /// offered stay, scattered through the order.)
    fn shrink(
        &mut self,
        clue: &[u32],
        len: usize,
        (cache, line): (&mut LineCache, u32),
        cells: &[Known],
        deduction: Deduction,
    ) {
        for cell in cells {
            let one = std::slice::from_ref(cell);
            self.toggle(one, false);
            if !self.still_holds(clue, len, (&mut *cache, line), deduction) {
                self.toggle(one, true);
                self.kept.push(*cell);
            }
        }
    }

    /// Puts `cells` into the line (`present`) or takes them out.
    fn toggle(&mut self, cells: &[Known], present: bool) {
        for k in cells {
            let plane = if k.filled {
                &mut self.filled
            } else {
                &mut self.empty
            };
            let (w, mask) = (k.index as usize / 64, 1u64 << (k.index % 64));
            if present {
                plane[w] |= mask;
            } else {
                plane[w] &= !mask;
            }
        }
    }

    /// Whether the line solver makes `deduction` from the cells now in `filled`/`empty`: as
    /// the line solver is exact, whether no placement has the deduced cell the other way (or
    /// none at all). One-word lines are looked up in `cache` first; otherwise only that
    /// feasibility is computed, not the whole line.
    fn still_holds(
        &mut self,
        clue: &[u32],
        len: usize,
        (cache, line): (&mut LineCache, u32),
        deduction: Deduction,
    ) -> bool {
        self.line_solves += 1;
        if let ([f], [e]) = (&self.filled[..], &self.empty[..])
            && let Some(cached) = cache.get(line, *f, *e)
        {
            return match (deduction, cached) {
                (_, Err(_)) => true,
                (Deduction::Contradiction, Ok(_)) => false,
                (Deduction::Forces { index, filled }, Ok((f, e))) => {
                    let plane = if filled { f } else { e };
                    plane >> index & 1 == 1
                }
            };
        }
        match deduction {
            Deduction::Contradiction => !self.solver.feasible(clue, len, &self.filled, &self.empty),
            Deduction::Forces { index, filled } => {
                // Put the deduced cell the other way, ask, and take it out again.
                let other = Known {
                    index,
                    filled: !filled,
                    root: false,
                    position: 0,
                };
                let one = std::slice::from_ref(&other);
                self.toggle(one, true);
                let feasible = self.solver.feasible(clue, len, &self.filled, &self.empty);
                self.toggle(one, false);
                !feasible
            }
        }
    }
}

/// Solves a line with `solver`, looking one-word lines up in `cache` (line `line`) first and
/// storing what it computes. Same contract as [`LineSolver::solve`].
pub(super) fn solve_cached(
    solver: &mut BitLineSolver,
    (cache, line): (&mut LineCache, u32),
    clue: &[u32],
    len: usize,
    (filled, empty): (&[u64], &[u64]),
    (out_filled, out_empty): (&mut [u64], &mut [u64]),
) -> Result<(), Contradiction> {
    if filled.len() != 1 {
        return solver.solve(clue, len, filled, empty, out_filled, out_empty);
    }
    let (f, e) = (filled[0], empty[0]);
    let result = cache.get(line, f, e).unwrap_or_else(|| {
        let result = solver
            .solve(clue, len, filled, empty, out_filled, out_empty)
            .map(|()| (out_filled[0], out_empty[0]));
        cache.put(line, f, e, result);
        result
    });
    result.map(|(f, e)| (out_filled[0], out_empty[0]) = (f, e))
}
