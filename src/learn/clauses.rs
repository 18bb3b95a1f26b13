//! The clauses a learning search adds: learned ones (implied by the clues, so they never cut a
//! solution) and blocking ones (each excludes one solution already reported), watched by two
//! literals each.
//!
//! Clauses live one after another in one arena of `u32`s, a four-word header (length, literal
//! block distance, flags, where the last search for a watch ended) then the literals, so that
//! visiting a clause touches one cache line or two; a clause is named by the offset of its
//! header. A clause is watched by its first two literals and needs looking at only when one of
//! them becomes false. A watch also carries a *blocker*, another literal of the clause: when
//! the blocker is true the clause is satisfied and is skipped without being read. The search
//! for a new watch starts where the clause's last one ended and wraps around: learned clauses
//! of nonograms run to dozens of literals, and the false ones gather at the front. Conflict
//! analysis marks the learned clauses it uses (and lowers their distance when their literals
//! now lie on fewer levels); a reduction spares those and clears the marks. Deleting clauses
//! compacts the arena, which renames the clauses that remain.

use std::collections::{HashMap, HashSet};

use thin_vec::ThinVec;

use super::assign::Reason;
use super::lit::{Lit, negated, value_of, var_of};

/// Header words: length, literal block distance, flags, where the last search for a watch
/// ended.
const HEADER: usize = 4;
/// Where in the header the last search for a watch ended.
const SEARCH_FROM: usize = 3;
const PERMANENT: u32 = 1;
const DELETED: u32 = 2;
/// Set when conflict analysis uses the clause; each reduction spares it and clears the flag.
const USED: u32 = 4;

/// Whether `lit` is true in `values`.
fn is_true(values: &[u8], lit: Lit) -> bool {
    values[var_of(lit) as usize] == value_of(lit)
}

/// Whether `lit` is false in `values`.
fn is_false(values: &[u8], lit: Lit) -> bool {
    values[var_of(lit) as usize] == value_of(negated(lit))
}

/// A clause watching a literal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    pub(super) clause: u32,
    pub(super) blocker: Lit,
}

/// Every clause, and for each literal the clauses to look at when it becomes false.
#[derive(Debug, Default)]
pub(super) struct ClauseDb {
    arena: Vec<u32>,
    /// One list per literal, each a pointer (an empty one allocates nothing): two per
    /// variable, millions on a large grid.
    pub(super) watches: Vec<ThinVec<Watch>>,
    /// Clauses in the database now (not deleted).
    pub(super) live: usize,
}

impl ClauseDb {
    /// An empty database for `vars` variables.
    pub(super) fn new(vars: usize) -> Self {
        ClauseDb {
            watches: vec![ThinVec::new(); 2 * vars],
            ..Self::default()
        }
    }

    /// The literals of a clause.
    pub(super) fn lits(&self, clause: u32) -> &[Lit] {
        let at = clause as usize;
        let len = self.arena[at] as usize;
        &self.arena[at + HEADER..at + HEADER + len]
    }

    /// Adds a clause of at least two literals, watched by its first two; returns its name.
    pub(super) fn add(&mut self, lits: &[Lit], lbd: u32, permanent: bool) -> u32 {
        debug_assert!(lits.len() >= 2);
        let clause = u32::try_from(self.arena.len()).expect("clause arena below 4 G words");
        self.arena.push(lits.len() as u32);
        self.arena.push(lbd);
        self.arena.push(if permanent { PERMANENT } else { 0 });
        self.arena.push(2);
        self.arena.extend_from_slice(lits);
        self.watch(clause);
        self.live += 1;
        clause
    }

    fn watch(&mut self, clause: u32) {
        let (first, second) = (self.lits(clause)[0], self.lits(clause)[1]);
        self.watches[first as usize].push(Watch {
            clause,
            blocker: second,
        });
        self.watches[second as usize].push(Watch {
            clause,
            blocker: first,
        });
    }

    /// The clauses in the arena, in order.
    fn clauses(&self) -> impl Iterator<Item = u32> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            (at < self.arena.len()).then(|| {
                let clause = at as u32;
                at += HEADER + self.arena[at] as usize;
                clause
            })
        })
    }

    /// Adds `lits`, a clause whose first literal is to be asserted (all others false), and
    /// returns the reason to assert it with: the root for a clause of one literal, which is
    /// not stored, else the clause.
    pub(super) fn add_asserting(&mut self, lits: &[Lit], lbd: u32, permanent: bool) -> Reason {
        if lits.len() == 1 {
            Reason::Root
        } else {
            Reason::Clause(self.add(lits, lbd, permanent))
        }
    }

    /// Adds the clause that excludes a solution, `blocking` (its decisions negated, the latest
    /// first), to assert once the search is one level back up; returns the reason to assert
    /// its first literal with. Kept for good, with the worst literal block distance.
    pub(super) fn add_blocking(&mut self, blocking: &[Lit]) -> Reason {
        self.add_asserting(blocking, blocking.len() as u32, true)
    }

    /// [`Self::reduce`], keeping the clauses that are reasons of the literals on `trail`
    /// (`reasons` indexed by variable) and renaming those reasons; returns how many clauses
    /// were deleted.
    pub(super) fn reduce_keeping(&mut self, trail: &[Lit], reasons: &mut [Reason]) -> usize {
        let locked: HashSet<u32> = trail
            .iter()
            .filter_map(|&l| match reasons[var_of(l) as usize] {
                Reason::Clause(c) => Some(c),
                _ => None,
            })
            .collect();
        let (deleted, renamed) = self.reduce(|c| locked.contains(&c));
        for &l in trail {
            if let Reason::Clause(c) = &mut reasons[var_of(l) as usize] {
                *c = renamed[c];
            }
        }
        deleted
    }

    /// Deletes half of the learned clauses that conflict analysis has not used since the last
    /// reduction, those of highest literal block distance first, keeping blocking clauses and
    /// those `locked` says are reasons now. Returns how many were deleted, and the new names of
    /// the clauses kept.
    ///
    /// No distance earns a clause a place for good, as Glucose's distance 2 does: the clauses
    /// of a nonogram search meet few levels (a level sets many cells), and kept for good they
    /// filled the database, which propagation spent half its time walking.
    pub(super) fn reduce(&mut self, locked: impl Fn(u32) -> bool) -> (usize, HashMap<u32, u32>) {
        let mut candidates: Vec<u32> = self
            .clauses()
            .filter(|&c| {
                let at = c as usize;
                self.arena[at + 2] & (PERMANENT | USED) == 0 && !locked(c)
            })
            .collect();
        // Highest distance first; among equals, the older clause (lower offset) goes first.
        candidates.sort_by_key(|&c| (std::cmp::Reverse(self.arena[c as usize + 1]), c));
        let doomed = candidates.len() / 2;
        for &c in &candidates[..doomed] {
            self.arena[c as usize + 2] |= DELETED;
        }
        let mut renamed = HashMap::new();
        let mut arena = Vec::with_capacity(self.arena.len());
        for c in self.clauses() {
            let at = c as usize;
            if self.arena[at + 2] & DELETED == 0 {
                let kept = arena.len();
                let _ = renamed.insert(c, kept as u32);
                arena.extend_from_slice(&self.arena[at..at + HEADER + self.arena[at] as usize]);
                arena[kept + 2] &= !USED;
            }
        }
        self.arena = arena;
        for list in &mut self.watches {
            list.clear();
        }
        let kept: Vec<u32> = self.clauses().collect();
        for c in kept {
            self.watch(c);
        }
        self.live -= doomed;
        (doomed, renamed)
    }

    /// Visits the clauses watching `false_lit`, which just became false, in an assignment
    /// whose values are `values` (see [`value_of`]). A clause left with one literal that is not
    /// false, an unknown one, implies it: its value goes into `values` at once, so that the
    /// clauses visited after it see it, and `(literal, clause)` onto `implied`, for the caller
    /// to finish those assignments in that order. Returns a clause whose literals are all
    /// false, if it meets one.
    pub(super) fn propagate(
        &mut self,
        false_lit: Lit,
        values: &mut [u8],
        implied: &mut Vec<(Lit, u32)>,
    ) -> Option<u32> {
        let mut watches = std::mem::take(&mut self.watches[false_lit as usize]);
        let (mut read, mut write) = (0, 0);
        let mut conflict = None;
        while read < watches.len() {
            let watch = watches[read];
            read += 1;
            if is_true(values, watch.blocker) {
                watches[write] = watch;
                write += 1;
                continue;
            }
            let at = watch.clause as usize;
            let len = self.arena[at] as usize;
            let (header, rest) = self.arena[at..].split_at_mut(HEADER);
            let clause = &mut rest[..len];
            if clause[0] == false_lit {
                clause.swap(0, 1);
            }
            let first = clause[0];
            if first != watch.blocker && is_true(values, first) {
                watches[write] = Watch {
                    clause: watch.clause,
                    blocker: first,
                };
                write += 1;
                continue;
            }
            // The search for a replacement goes on from where the last one ended, so that a
            // long clause is not scanned from its start every time.
            let from = (header[SEARCH_FROM] as usize).clamp(2, len);
            let replacement = (from..len)
                .chain(2..from)
                .find(|&k| !is_false(values, clause[k]));
            if let Some(k) = replacement {
                header[SEARCH_FROM] = k as u32;
                clause.swap(1, k);
                let new_watch = clause[1];
                self.watches[new_watch as usize].push(Watch {
                    clause: watch.clause,
                    blocker: first,
                });
                continue;
            }
            watches[write] = watch;
            write += 1;
            if is_false(values, first) {
                conflict = Some(watch.clause);
                while read < watches.len() {
                    watches[write] = watches[read];
                    write += 1;
                    read += 1;
                }
                break;
            }
            values[var_of(first) as usize] = value_of(first);
            implied.push((first, watch.clause));
        }
        watches.truncate(write);
        self.watches[false_lit as usize] = watches;
        conflict
    }

    /// Appends to `out` the literals that make a clause's implied literal (`lits[0]`) true, as
    /// true literals: the negations of its other literals.
    pub(super) fn antecedents(&self, clause: u32, out: &mut Vec<Lit>) {
        out.extend(self.lits(clause)[1..].iter().map(|&l| negated(l)));
    }

    /// Marks a learned clause used by conflict analysis, so that the next reduction spares it,
    /// and lowers its literal block distance to what `lbd` gives for its literals now, when
    /// that is less (a clause whose literals keep meeting at few levels is worth more than the
    /// distance it was learned with says).
    pub(super) fn used(&mut self, clause: u32, lbd: impl FnOnce(&[Lit]) -> u32) {
        let at = clause as usize;
        if self.arena[at + 2] & PERMANENT != 0 {
            return;
        }
        self.arena[at + 2] |= USED;
        if self.arena[at + 1] > 2 {
            let now = lbd(self.lits(clause));
            self.arena[at + 1] = self.arena[at + 1].min(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::lit::{UNKNOWN, lit};

    /// A clause of six literals keeps being watched, the search for a new watch wrapping
    /// around the clause's end, until one literal is left: then it implies it.
    #[test]
    fn a_long_clause_finds_its_watches_around_its_end() {
        let mut db = ClauseDb::new(6);
        let lits: Vec<Lit> = (0..6).map(|v| lit(v, true)).collect();
        let clause = db.add(&lits, 3, false);
        let mut values = vec![0u8; 6];
        let mut implied = Vec::new();
        let mut make_false = |db: &mut ClauseDb, values: &mut Vec<u8>, v: u32| {
            values[v as usize] = value_of(negated(lit(v, true)));
            db.propagate(lit(v, true), values, &mut implied);
            std::mem::take(&mut implied)
        };
        // The watches move on to 3 and 4; the searches ended at the clause's fifth literal.
        for v in [0, 1, 2] {
            assert!(make_false(&mut db, &mut values, v).is_empty());
        }
        // Jumping back unsets 0 (before where the searches ended). With 5 and 4 false, the
        // search wraps around to find it: nothing is implied.
        values[0] = UNKNOWN;
        assert!(make_false(&mut db, &mut values, 5).is_empty());
        assert!(make_false(&mut db, &mut values, 4).is_empty());
        // 3 false leaves 0 alone.
        assert_eq!(
            make_false(&mut db, &mut values, 3),
            [(lit(0, true), clause)]
        );
    }

    /// The clauses of `db`, by their first literal's variable (renaming keeps literals).
    fn first_vars(db: &ClauseDb) -> Vec<u32> {
        db.clauses().map(|c| var_of(db.lits(c)[0])).collect()
    }

    /// Four learned clauses of distances 10, 9, 8 and 7, of two literals each, their first
    /// literals on variables 0, 2, 4 and 6.
    fn four_clauses() -> ClauseDb {
        let mut db = ClauseDb::new(8);
        for (first, lbd) in [(0u32, 10u32), (2, 9), (4, 8), (6, 7)] {
            let _ = db.add(&[lit(first, true), lit(first + 1, true)], lbd, false);
        }
        db
    }

    /// A reduction deletes the worst of the clauses no analysis used since the last one: a
    /// used clause is spared once, whatever its distance, and goes at the next reduction if
    /// nothing used it since.
    #[test]
    fn a_used_clause_is_spared_by_the_next_reduction_only() {
        let mut db = four_clauses();
        db.used(0, |_| 10);
        let (deleted, _) = db.reduce(|_| false);
        assert_eq!(deleted, 1);
        assert_eq!(first_vars(&db), [0, 4, 6]);
        let (deleted, _) = db.reduce(|_| false);
        assert_eq!(deleted, 1);
        assert_eq!(first_vars(&db), [4, 6]);
    }

    /// A use whose literals now lie on two levels lowers the clause's distance to 2 for good:
    /// the clauses of higher distance go before it, and it goes when no other is left to
    /// delete before it. Blocking clauses are never deleted.
    #[test]
    fn a_use_lowers_the_distance_for_good() {
        let mut db = four_clauses();
        db.used(0, |lits| {
            assert_eq!(lits.len(), 2);
            2
        });
        let _ = db.add_blocking(&[lit(7, false), lit(5, false), lit(3, false)]);
        // The first reduction spares the clause just used; the next two delete the clauses of
        // distance 8 and 7, the highest left.
        let mut left = Vec::new();
        for _ in 0..3 {
            let _ = db.reduce(|_| false);
            left.push(first_vars(&db));
        }
        assert_eq!(left, [vec![0, 4, 6, 7], vec![0, 6, 7], vec![0, 7]]);
        // Half of the candidates, rounded down, go: the last one stays.
        let _ = db.reduce(|_| false);
        assert_eq!(first_vars(&db), [0, 7]);
        // Distance 2 keeps no clause for good: among three of distance 2, the oldest goes.
        let _ = db.add(&[lit(2, true), lit(3, true)], 2, false);
        let _ = db.add(&[lit(4, true), lit(5, true)], 2, false);
        let _ = db.reduce(|_| false);
        assert_eq!(first_vars(&db), [7, 2, 4]);
        // Using a blocking clause changes nothing.
        let blocking = db.clauses().next().expect("the blocking clause is left");
        db.used(blocking, |_| {
            unreachable!("a blocking clause keeps its distance")
        });
    }
}
