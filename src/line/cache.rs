//! A cache of line-solver results for lines of up to two machine words, keyed by the line and
//! its known cells. Probing propagates hundreds of near-identical grids at every node, so most
//! line states recur: on 25x25 tournament puzzles over 80% of the line solves hit. The
//! learning search's states recur after its jumps back and restarts: half of its line solves
//! on random 100x100 pictures.
//!
//! Each line owns a direct-mapped region of the table, so an entry need not name its line.
//! When every line has at most 32 cells, an entry is two words (the known cells packed into
//! one, the result into the other): the table then stays within the core's L2 cache, which
//! matters more than its size, because a lookup that misses L2 costs a third of a line solve.
//! Up to 64 cells an entry is four words; on grids with longer lines, eight (the two words of
//! each of filled, empty and their results), or sixteen past 128 cells (four words each, for
//! lines of up to 256), in a larger table, as a solve of such a line costs several misses
//! (`WIDE_BUDGET_BYTES`). Longer lines are not cached.
//!
//! The key does not hold the clue, so a cache serves one puzzle: its owner
//! ([`crate::propagate::Propagator`]) calls [`LineCache::configure`] whenever it is handed
//! another puzzle.

use super::{Contradiction, LineIn, LineOut, LineSolver, first_words};

/// The table's size in bytes, at most (its regions are powers of two).
const BUDGET_BYTES: usize = 1 << 17;
/// The same, for grids with lines of over 64 cells.
const WIDE_BUDGET_BYTES: usize = 1 << 22;

/// Entries of one line's region, at least and at most.
const MIN_REGION: usize = 1 << 4;
const MAX_REGION: usize = 1 << 14;

/// In a key word: no query has a cell both filled and empty, so this marks an empty slot.
const VACANT: u64 = u64::MAX;
/// In a result word: the line has no placement (no real result has a cell filled and empty).
const REFUTED: u64 = u64::MAX;

/// What the line solver said about one line state: the cells known afterwards, or a
/// contradiction.
pub type LineResult = Result<(u64, u64), Contradiction>;

/// How entries hold a line's known cells and its result, by the longest line of the puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Layout {
    /// At most 32 cells: filled and empty packed in one word, the result in another.
    Narrow,
    /// At most 64: filled, empty, and the result's two.
    #[default]
    Word,
    /// At most 128: filled and empty of two words each, and the result's four.
    TwoWords,
    /// Longer (lines of up to 256 cells looked up): filled and empty of four words each, and
    /// the result's eight.
    FourWords,
}

/// The cache (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct LineCache {
    /// Entries of `stride` words: the key (filled and empty packed in one word if narrow, else
    /// a word each, or two or four each in the wider layouts), then the result (likewise).
    words: Vec<u64>,
    /// How the entries hold their keys and results.
    layout: Layout,
    /// log2 of the entries in one line's region.
    region_bits: u32,
    /// Lookups, for statistics.
    pub lookups: u64,
    /// Lookups answered from the table.
    pub hits: u64,
}

impl LineCache {
    /// Empties the table and sizes it for a puzzle of `lines` lines, the longest of which has
    /// `longest` cells (only lines of at most 256 cells are looked up).
    pub fn configure(&mut self, lines: usize, longest: usize) {
        self.layout = match longest {
            0..=32 => Layout::Narrow,
            33..=64 => Layout::Word,
            65..=128 => Layout::TwoWords,
            _ => Layout::FourWords,
        };
        let budget = match self.layout {
            Layout::Narrow | Layout::Word => BUDGET_BYTES,
            Layout::TwoWords | Layout::FourWords => WIDE_BUDGET_BYTES,
        };
        let stride_bytes = 8 * self.stride();
        let per_line = (budget / stride_bytes / lines.max(1)).clamp(MIN_REGION, MAX_REGION);
        // The largest power of two that fits.
        self.region_bits = usize::BITS - 1 - per_line.leading_zeros();
        self.words.clear();
        self.words
            .resize((lines << self.region_bits) * self.stride(), VACANT);
    }

    fn stride(&self) -> usize {
        match self.layout {
            Layout::Narrow => 2,
            Layout::Word => 4,
            Layout::TwoWords => 8,
            Layout::FourWords => 16,
        }
    }

    /// The first word of the entry for `line` with these known cells (each folded into one word
    /// first in the wider layouts, see [`Self::words_slot`]).
    fn slot(&self, line: u32, filled: u64, empty: u64) -> usize {
        let h =
            filled.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ empty.wrapping_mul(0x94d0_49bb_1331_11eb);
        let h = (h ^ (h >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let within = (h >> (64 - self.region_bits)) as usize;
        ((line as usize) << self.region_bits | within) * self.stride()
    }

    /// Solves the line the puzzle numbers `index`, whose known cells are `known` (filled,
    /// empty), with `solver`, looking a line of one word up first and storing what it
    /// computes; `line` gives the whole line (its clue and length) for the solver on a miss.
    /// Same contract as [`LineSolver::solve`].
    #[inline]
    pub fn solve<'a>(
        &mut self,
        solver: &mut impl LineSolver,
        index: u32,
        known: (&[u64], &[u64]),
        line: impl FnOnce() -> LineIn<'a>,
        mut out: LineOut<'_>,
    ) -> Result<(), Contradiction> {
        match self.layout {
            Layout::TwoWords => return self.solve_words::<2>(solver, index, known, line, out),
            Layout::FourWords => return self.solve_words::<4>(solver, index, known, line, out),
            Layout::Narrow | Layout::Word => {}
        }
        let ([f], [e]) = known else {
            return solver.solve(line(), out);
        };
        let result = match self.get(index, *f, *e) {
            Some(result) => result,
            None => {
                let result = solver
                    .solve(line(), out.reborrow())
                    .map(|()| (out.filled[0], out.empty[0]));
                self.put(index, *f, *e, result);
                result
            }
        };
        (out.filled[0], out.empty[0]) = result?;
        Ok(())
    }

    /// [`Self::solve`] in a layout of `W` words a half: shorter lines are keyed as `W` words,
    /// the high ones zero; longer ones are solved without the cache.
    fn solve_words<'a, const W: usize>(
        &mut self,
        solver: &mut impl LineSolver,
        index: u32,
        (filled, empty): (&[u64], &[u64]),
        line: impl FnOnce() -> LineIn<'a>,
        mut out: LineOut<'_>,
    ) -> Result<(), Contradiction> {
        let words = filled.len();
        if words > W {
            return solver.solve(line(), out);
        }
        let key = [first_words::<W>(filled), first_words::<W>(empty)];
        let result = match self.get_words(index, key) {
            Some(result) => result,
            None => {
                let result = solver
                    .solve(line(), out.reborrow())
                    .map(|()| [first_words::<W>(out.filled), first_words::<W>(out.empty)]);
                self.put_words(index, key, result);
                result
            }
        };
        let [f, e] = result?;
        out.filled.copy_from_slice(&f[..words]);
        out.empty.copy_from_slice(&e[..words]);
        Ok(())
    }

    /// The first word of the entry of `W` words a half for `line` with known cells
    /// `[filled, empty]`.
    fn words_slot<const W: usize>(&self, line: u32, [filled, empty]: [[u64; W]; 2]) -> usize {
        const MIX: [u64; 3] = [
            0xd6e8_feb8_6659_fd93,
            0xa076_1d64_78bd_642f,
            0xe703_7ed1_a0b4_28db,
        ];
        let fold = |w: [u64; W]| {
            (w.iter().skip(1).zip(MIX))
                .fold(w[0], |h, (&x, mix)| h ^ (x ^ (x >> 29)).wrapping_mul(mix))
        };
        self.slot(line, fold(filled), fold(empty))
    }

    /// [`Self::get`] in a layout of `W` words a half.
    fn get_words<const W: usize>(
        &mut self,
        line: u32,
        key: [[u64; W]; 2],
    ) -> Option<Result<[[u64; W]; 2], Contradiction>> {
        self.lookups += 1;
        let at = self.words_slot(line, key);
        let entry = &self.words[at..at + 4 * W];
        if entry[..2 * W] != *key.as_flattened() {
            return None;
        }
        self.hits += 1;
        let value = &entry[2 * W..];
        if value.iter().all(|&w| w == REFUTED) {
            return Some(Err(Contradiction));
        }
        Some(Ok([
            first_words::<W>(&value[..W]),
            first_words::<W>(&value[W..]),
        ]))
    }

    /// [`Self::put`] in a layout of `W` words a half.
    fn put_words<const W: usize>(
        &mut self,
        line: u32,
        key: [[u64; W]; 2],
        result: Result<[[u64; W]; 2], Contradiction>,
    ) {
        let at = self.words_slot(line, key);
        let entry = &mut self.words[at..at + 4 * W];
        entry[..2 * W].copy_from_slice(key.as_flattened());
        match result {
            Ok(value) => entry[2 * W..].copy_from_slice(value.as_flattened()),
            Err(Contradiction) => entry[2 * W..].fill(REFUTED),
        }
    }

    /// The cached result for `line` with these known cells, if any.
    pub fn get(&mut self, line: u32, filled: u64, empty: u64) -> Option<LineResult> {
        match self.layout {
            Layout::TwoWords => {
                let found = self.get_words::<2>(line, [[filled, 0], [empty, 0]])?;
                return Some(found.map(|[f, e]| (f[0], e[0])));
            }
            Layout::FourWords => {
                let found =
                    self.get_words::<4>(line, [first_words(&[filled]), first_words(&[empty])])?;
                return Some(found.map(|[f, e]| (f[0], e[0])));
            }
            Layout::Narrow | Layout::Word => {}
        }
        self.lookups += 1;
        let at = self.slot(line, filled, empty);
        let result = if self.layout == Layout::Narrow {
            let entry = &self.words[at..at + 2];
            if entry[0] != filled | empty << 32 {
                return None;
            }
            (entry[1] != REFUTED).then_some((entry[1] & 0xffff_ffff, entry[1] >> 32))
        } else {
            let entry = &self.words[at..at + 4];
            if entry[0] != filled || entry[1] != empty {
                return None;
            }
            (entry[2] != REFUTED || entry[3] != REFUTED).then_some((entry[2], entry[3]))
        };
        self.hits += 1;
        Some(result.ok_or(Contradiction))
    }

    /// Records the result for `line` with these known cells.
    pub fn put(&mut self, line: u32, filled: u64, empty: u64, result: LineResult) {
        match self.layout {
            Layout::TwoWords => {
                let result = result.map(|(f, e)| [[f, 0], [e, 0]]);
                return self.put_words::<2>(line, [[filled, 0], [empty, 0]], result);
            }
            Layout::FourWords => {
                let result = result.map(|(f, e)| [first_words(&[f]), first_words(&[e])]);
                let key = [first_words(&[filled]), first_words(&[empty])];
                return self.put_words::<4>(line, key, result);
            }
            Layout::Narrow | Layout::Word => {}
        }
        let at = self.slot(line, filled, empty);
        if self.layout == Layout::Narrow {
            let value = result.map_or(REFUTED, |(f, e)| f | e << 32);
            self.words[at] = filled | empty << 32;
            self.words[at + 1] = value;
        } else {
            let (f, e) = result.unwrap_or((REFUTED, REFUTED));
            self.words[at..at + 4].copy_from_slice(&[filled, empty, f, e]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cache: &mut LineCache) {
        assert_eq!(cache.get(3, 0b01, 0b10), None);
        cache.put(3, 0b01, 0b10, Ok((0b101, 0b010)));
        cache.put(4, 0b01, 0b10, Err(Contradiction));
        assert_eq!(cache.get(3, 0b01, 0b10), Some(Ok((0b101, 0b010))));
        assert_eq!(cache.get(4, 0b01, 0b10), Some(Err(Contradiction)));
        assert_eq!(cache.get(3, 0b01, 0b00), None);
        assert_eq!(cache.get(5, 0b01, 0b10), None);
        // The all-unknown state is a key like any other.
        cache.put(0, 0, 0, Ok((0, 0)));
        assert_eq!(cache.get(0, 0, 0), Some(Ok((0, 0))));
        assert_eq!((cache.lookups, cache.hits), (6, 3));
    }

    #[test]
    fn returns_what_was_put_and_nothing_else() {
        let mut narrow = LineCache::default();
        narrow.configure(10, 20);
        check(&mut narrow);
        for longest in [64, 100, 200] {
            let mut wide = LineCache::default();
            wide.configure(10, longest);
            check(&mut wide);
            // Results that use the high cells of a wide line survive.
            wide.put(1, 1 << 63, 1, Ok((u64::MAX - 2, 2)));
            assert_eq!(wide.get(1, 1 << 63, 1), Some(Ok((u64::MAX - 2, 2))));
        }
    }

    /// Lines of 1 to 128 cells, each state met several times, on a grid whose longest line
    /// has 128: the cache answers as the solver does, and lines differing only in their
    /// second word never answer for each other.
    #[test]
    fn two_word_lines_answer_as_the_solver_does() {
        lines_answer_as_the_solver_does(128);
    }

    /// The same with lines of up to 256 cells, four words, and on a grid with lines too long
    /// for the cache (solved past it).
    #[test]
    fn four_word_and_longer_lines_answer_as_the_solver_does() {
        lines_answer_as_the_solver_does(256);
        lines_answer_as_the_solver_does(300);
    }

    /// Lines of 1 to `longest` cells, each state met several times, on a grid whose longest
    /// line has `longest`: the cache answers as the solver does, and lines differing only in
    /// their last word never answer for each other.
    fn lines_answer_as_the_solver_does(longest: usize) {
        use crate::line::BitLineSolver;
        let mut solver = BitLineSolver::new();
        let mut seed = 99u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 11
        };
        let mut states = Vec::new();
        for i in 0..300 {
            // The first a long line with no cell known the wrong way, so it has a placement.
            let len = if i == 0 {
                longest - 1
            } else {
                1 + (random() % longest as u64) as usize
            };
            let words = len.div_ceil(64);
            let cells: Vec<bool> = (0..len).map(|_| random() % 2 == 0).collect();
            let clue: Vec<u32> = cells
                .split(|&filled| !filled)
                .filter(|run| !run.is_empty())
                .map(|run| run.len() as u32)
                .collect();
            let (mut filled, mut empty) = (vec![0u64; words], vec![0u64; words]);
            for (c, &cell) in cells.iter().enumerate() {
                // Most cells known; a few the other way, so that some states are refuted.
                match random() % 16 {
                    0..=5 => {}
                    6 if i > 0 => {
                        (if cell { &mut empty } else { &mut filled })[c / 64] |= 1 << (c % 64)
                    }
                    _ => (if cell { &mut filled } else { &mut empty })[c / 64] |= 1 << (c % 64),
                }
            }
            states.push((clue, len, filled, empty));
        }
        // A long line's state, and as many again differing from it in one cell of the second
        // word only (filled, empty or unknown): many more than its region of the table holds
        // (so many lines that each region has the fewest entries), so they share slots.
        let feasible = |(clue, len, filled, empty): &(Vec<u32>, usize, Vec<u64>, Vec<u64>)| {
            BitLineSolver::new().feasible(clue, *len, filled, empty)
        };
        let long = (states.iter())
            .position(|s| s.1 > longest - 28 && feasible(s))
            .expect("a long line with a placement");
        let (lines, twins) = (states.len(), 300);
        let last = (states[long].1 - 1) / 64;
        let spare = states[long].1 - 64 * last;
        for t in 0..twins {
            let mut twin = states[long].clone();
            let (bit, value) = (1u64 << (t % spare.min(36)), t / 36 % 3);
            twin.2[last] &= !bit;
            twin.3[last] &= !bit;
            match value {
                0 => twin.2[last] |= bit,
                1 => twin.3[last] |= bit,
                _ => {}
            }
            states.push(twin);
        }
        let mut cache = LineCache::default();
        cache.configure(5000, longest);
        assert_eq!(cache.region_bits, MIN_REGION.trailing_zeros());
        for round in 0..4 {
            for (k, (clue, len, filled, empty)) in states.iter().enumerate() {
                let line = || LineIn {
                    clue,
                    len: *len,
                    filled,
                    empty,
                };
                let words = filled.len();
                let (mut f, mut e) = (vec![0; words], vec![0; words]);
                let (mut want_f, mut want_e) = (vec![0; words], vec![0; words]);
                let index = if k >= lines { long } else { k } as u32;
                let got = cache.solve(
                    &mut solver,
                    index,
                    (filled, empty),
                    line,
                    LineOut {
                        filled: &mut f,
                        empty: &mut e,
                    },
                );
                let want = solver.solve(
                    line(),
                    LineOut {
                        filled: &mut want_f,
                        empty: &mut want_e,
                    },
                );
                assert_eq!(got, want, "state {k}, round {round}");
                if want.is_ok() {
                    assert_eq!((f, e), (want_f, want_e), "state {k}, round {round}");
                }
            }
        }
        assert!(cache.hits > 0 && cache.hits < cache.lookups);
    }

    #[test]
    fn colliding_keys_never_answer_for_each_other() {
        // So many lines that each region has the fewest entries, and more keys than that:
        // keys that differ in either word keep evicting each other from the same few slots.
        for longest in [20, 64] {
            let mut cache = LineCache::default();
            cache.configure(1000, longest);
            let cell_mask = (1u64 << (longest - 1) << 1).wrapping_sub(1);
            let made_up = |filled: u64, empty: u64| -> LineResult {
                if (filled ^ empty).count_ones().is_multiple_of(5) {
                    Err(Contradiction)
                } else {
                    Ok((filled | (!empty & cell_mask & (filled << 1)), empty))
                }
            };
            // Keys share their filled cells in fours and their empty cells in fives.
            let mut seed = 12345u64;
            let mut random = || {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                seed >> 11
            };
            let fills: Vec<u64> = (0..25).map(|_| random() & random() & cell_mask).collect();
            let empties: Vec<u64> = (0..20).map(|_| random() & random() & cell_mask).collect();
            let keys: Vec<(u64, u64)> = (0..100)
                .map(|k| (fills[k / 4], empties[k / 5] & !fills[k / 4]))
                .collect();
            for round in 0..5000 {
                // Each key thrice in a row, then the next, which likely shares a word with it.
                let (filled, empty) = keys[round / 3 % keys.len()];
                match cache.get(7, filled, empty) {
                    Some(result) => assert_eq!(result, made_up(filled, empty), "round {round}"),
                    None => cache.put(7, filled, empty, made_up(filled, empty)),
                }
            }
            assert!(cache.hits > 0 && cache.hits < cache.lookups);
        }
    }

    #[test]
    fn configuring_forgets_everything() {
        let mut cache = LineCache::default();
        cache.configure(4, 8);
        cache.put(3, 0b01, 0b10, Ok((0b101, 0b010)));
        cache.configure(4, 8);
        assert_eq!(cache.get(3, 0b01, 0b10), None);
    }
}
