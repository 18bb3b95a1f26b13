//! The exact colour line solver: the dynamic program over (blocks placed, cells used) of the
//! black-and-white solvers ([`crate::line::LongLineSolver`]), bit-parallel, on lines whose
//! cells are sets of possible colours.
//!
//! Positions `0..=len` are bits of `(len + 2).div_ceil(64)` words ([`crate::line::words`]).
//! `reach[j]` holds the positions `p` such that the first `j` blocks fit in cells `0..p`, every
//! other cell there background; `ready[j]` those where block `j` may then start (`reach[j]`
//! itself when block `j - 1` has another colour, as blocks of two colours may touch, and the
//! positions one past a background cell of it when they share one). Block `j`, of length `L`,
//! ends at `s + L` for each start `s` in `ready[j]` where the `L` cells all allow its colour,
//! and `reach[j + 1]` runs right from those ends over cells that can be background: one
//! addition per word. `after[j]`, the positions `p` such that blocks `j..` fit in cells `p..`,
//! are the `reach` sets of the mirrored line, mirrored back. A cell can be background when some
//! `j` has it in `reach[j]` and the next position in `after[j]`; a start of block `j` is valid
//! when it is ready, fits, and the block's end (past a background cell, for a block of the same
//! colour next) is in `after[j + 1]`; each colour then covers what its valid starts cover. A
//! solve costs O(blocks x words) word operations, plus O(log L) passes per colour and length.
//! The result is every colour each cell takes in some placement that agrees with the input:
//! exact, which [`naive_solve`] (the test oracle) confirms.

use super::puzzle::Block;
use crate::line::Contradiction;
use crate::line::words::{
    Fits, lowest_and_highest, mirror, run_right_word, shl_in_place, shr_in_place, smear,
};

/// The colour line solver. Keeps its buffers between calls: one per thread.
#[derive(Debug, Default)]
pub(crate) struct ColorLineSolver {
    /// The line's sets, and the mirrored line's.
    line: LineSets,
    mirrored: LineSets,
    /// The mirrored line's clue.
    reversed_clue: Vec<Block>,
    /// `clue.len()` sets of `ready`, `clue.len() + 1` of `reach` and `after`, one after another.
    ready: Vec<u64>,
    reach: Vec<u64>,
    mirrored_ready: Vec<u64>,
    mirrored_reach: Vec<u64>,
    after: Vec<u64>,
    /// What each colour of `line.colours` covers, one set each; then cells that can be
    /// background, and a scratch set.
    cover: Vec<u64>,
    background: Vec<u64>,
    scratch: Vec<u64>,
    /// The earliest and latest start of each block in a placement that agrees with the line,
    /// as the last [`ColorLineSolver::place`] found them.
    valid: Vec<(u32, u32)>,
}

/// One line's cells as sets of positions: those that allow background, those that allow each
/// colour of the clue, and where blocks of each (colour, length) asked for fit.
#[derive(Debug, Default)]
struct LineSets {
    words: usize,
    background: Vec<u64>,
    colours: Vec<u8>,
    /// One set per entry of `colours`.
    allow: Vec<u64>,
    /// Where blocks of each (colour, length) of the clue fit.
    fits: Fits<(u8, u32)>,
    /// For each block of the clue, the index of its set in `fits`.
    block_fits: Vec<usize>,
}

impl LineSets {
    /// Loads `cells` for `clue`, in sets of `words` words.
    fn load(&mut self, clue: &[Block], cells: &[u64], words: usize) {
        self.words = words;
        self.background.clear();
        self.background.resize(words, 0);
        self.colours.clear();
        self.colours.extend(clue.iter().map(|b| b.color));
        self.colours.sort_unstable();
        self.colours.dedup();
        self.allow.clear();
        self.allow.resize(self.colours.len() * words, 0);
        for (i, chunk) in cells.chunks(64).enumerate() {
            self.background[i] = cells_allowing(chunk, 0);
            for (k, &colour) in self.colours.iter().enumerate() {
                self.allow[k * words + i] = cells_allowing(chunk, colour);
            }
        }
        self.fits.clear();
        self.block_fits.clear();
        for b in clue {
            let (colours, allow) = (&self.colours, &self.allow);
            let at = self.fits.index((b.color, b.len), b.len, || {
                let k = colour_index(colours, b.color);
                &allow[k * words..(k + 1) * words]
            });
            self.block_fits.push(at);
        }
    }

    /// Loads the line of `line` mirrored (`n` cells), for its clue reversed, with its fits in
    /// the order of `line`'s, so that no block looks its own up.
    fn load_mirrored(&mut self, line: &LineSets, n: usize) {
        let words = line.words;
        self.words = words;
        self.colours.clone_from(&line.colours);
        self.background.resize(words, 0);
        mirror(&mut self.background, &line.background, n);
        self.allow.resize(line.allow.len(), 0);
        for (mirrored, set) in self.allow.chunks_mut(words).zip(line.allow.chunks(words)) {
            mirror(mirrored, set, n);
        }
        self.fits.clear();
        for &(colour, len) in &line.fits.keys {
            let k = colour_index(&self.colours, colour);
            self.fits
                .add((colour, len), &self.allow[k * words..(k + 1) * words], len);
        }
        self.block_fits.clear();
        self.block_fits.extend(line.block_fits.iter().rev());
    }

    /// The positions `s` where block `j` of the clue loaded fits: cells `s..s + len` all
    /// allow its colour.
    #[inline]
    fn block_fits(&self, j: usize) -> &[u64] {
        self.fits.set(self.block_fits[j], self.words)
    }
}

/// The index in `colours` (sorted) of `colour`, one of the clue's.
fn colour_index(colours: &[u8], colour: u8) -> usize {
    colours
        .binary_search(&colour)
        .expect("a colour of the clue")
}

/// The word of the cells of `chunk` (at most 64) that allow colour `colour` (0: background).
#[inline]
fn cells_allowing(chunk: &[u64], colour: u8) -> u64 {
    chunk
        .iter()
        .enumerate()
        .fold(0, |word, (b, &c)| word | (c >> colour & 1) << b)
}

/// `dst` = the positions reachable from `seeds` moving right over set bits of `open`.
#[inline]
fn run_right(dst: &mut [u64], seeds: &[u64], open: &[u64]) {
    let mut carry = false;
    for ((d, &s), &o) in dst.iter_mut().zip(seeds).zip(open) {
        *d = run_right_word(s, o, &mut carry);
    }
}

/// Fills `ready` (`clue.len()` sets) and `reach` (`clue.len() + 1` sets) for the line of
/// `sets`, as the module documentation says; `scratch` is a set. Lines of up to eight words
/// (510 cells) take passes of a known number of words, which the compiler unrolls.
fn forward(
    sets: &mut LineSets,
    clue: &[Block],
    ready: &mut Vec<u64>,
    reach: &mut Vec<u64>,
    scratch: &mut [u64],
) {
    let buffers = (ready, reach, scratch);
    match sets.words {
        1 => forward_words::<1>(sets, clue, buffers),
        2 => forward_words::<2>(sets, clue, buffers),
        3 => forward_words::<3>(sets, clue, buffers),
        4 => forward_words::<4>(sets, clue, buffers),
        5 => forward_words::<5>(sets, clue, buffers),
        6 => forward_words::<6>(sets, clue, buffers),
        7 => forward_words::<7>(sets, clue, buffers),
        8 => forward_words::<8>(sets, clue, buffers),
        _ => forward_words::<0>(sets, clue, buffers),
    }
}

/// [`forward`] over sets of `N` words, or of `sets.words` for `N = 0`.
#[inline(always)]
fn forward_words<const N: usize>(
    sets: &mut LineSets,
    clue: &[Block],
    (ready, reach, scratch): (&mut Vec<u64>, &mut Vec<u64>, &mut [u64]),
) {
    let w = if N == 0 { sets.words } else { N };
    let scratch = &mut scratch[..w];
    ready.clear();
    ready.resize(clue.len() * w, 0);
    reach.clear();
    reach.resize((clue.len() + 1) * w, 0);
    scratch.fill(0);
    scratch[0] = 1;
    run_right(&mut reach[..w], scratch, &sets.background[..w]);
    for (j, b) in clue.iter().enumerate() {
        let starts = &mut ready[j * w..(j + 1) * w];
        starts.copy_from_slice(&reach[j * w..(j + 1) * w]);
        if j > 0 && clue[j - 1].color == b.color {
            starts
                .iter_mut()
                .zip(&sets.background[..w])
                .for_each(|(s, &bg)| *s &= bg);
            shl_in_place(starts, 1);
        }
        let fits = &sets.block_fits(j)[..w];
        for ((e, &s), &f) in scratch.iter_mut().zip(&*starts).zip(fits) {
            *e = s & f;
        }
        shl_in_place(scratch, b.len as usize);
        run_right(
            &mut reach[(j + 1) * w..(j + 2) * w],
            scratch,
            &sets.background[..w],
        );
    }
}

/// Calls `mark(i)` for each set bit `i` of `x`.
#[inline]
fn each_bit(x: &[u64], mut mark: impl FnMut(usize)) {
    for (k, &word) in x.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            mark(64 * k + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

impl ColorLineSolver {
    /// A solver with empty buffers.
    #[cfg(test)]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Narrows `cells` (possible colours of each cell of a line) to what `clue` allows, writing
    /// the result to `out` (same length). Fails if no placement agrees with `cells`.
    pub(crate) fn solve(
        &mut self,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<(), Contradiction> {
        // A line whose every cell is decided only needs checking.
        if cells.iter().all(|c| c.is_power_of_two()) {
            let blocks =
                super::puzzle::color_blocks_of(cells.iter().map(|c| c.trailing_zeros() as u8));
            if blocks != clue {
                return Err(Contradiction);
            }
            out.copy_from_slice(cells);
            return Ok(());
        }
        self.place(clue, cells, out)
    }

    /// The earliest and latest start of each block of `clue` over the placements that agree
    /// with `cells`, in `starts` (cleared first); fails if none agrees. Every placement puts
    /// block `j` between the two, so where the cells block `j` can cover end before those of
    /// block `j + 1` begin (with a cell between them when the two share a colour), the blocks
    /// on either side never interact. `out` is a buffer of the line's length.
    pub(crate) fn block_starts(
        &mut self,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
        starts: &mut Vec<(u32, u32)>,
    ) -> Result<(), Contradiction> {
        self.place(clue, cells, out)?;
        starts.clear();
        starts.extend_from_slice(&self.valid);
        Ok(())
    }

    /// Whether some placement of `clue` agrees with `cells`: the forward half of a solve.
    pub(crate) fn feasible(&mut self, clue: &[Block], cells: &[u64]) -> bool {
        if clue.iter().any(|b| b.len == 0) {
            return false;
        }
        let (n, k) = (cells.len(), clue.len());
        let w = (n + 2).div_ceil(64);
        self.scratch.clear();
        self.scratch.resize(w, 0);
        self.line.load(clue, cells, w);
        forward(
            &mut self.line,
            clue,
            &mut self.ready,
            &mut self.reach,
            &mut self.scratch,
        );
        self.reach[k * w + n / 64] >> (n % 64) & 1 == 1
    }

    /// [`ColorLineSolver::solve`] by the bit-parallel program, recording each block's earliest
    /// and latest valid start.
    fn place(
        &mut self,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<(), Contradiction> {
        if !self.feasible(clue, cells) {
            return Err(Contradiction);
        }
        let (k, w) = (clue.len(), self.line.words);
        self.backward(clue, cells);
        self.mark_background(k);
        self.mark_blocks(clue)?;
        out.fill(0);
        each_bit(&self.background, |i| out[i] |= 1);
        for (c, &colour) in self.line.colours.iter().enumerate() {
            each_bit(&self.cover[c * w..(c + 1) * w], |i| out[i] |= 1 << colour);
        }
        if out.contains(&0) {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Fills `after[j]` for `j` in `0..=clue.len()`: the `reach` sets of the mirrored line,
    /// mirrored back.
    fn backward(&mut self, clue: &[Block], cells: &[u64]) {
        let (n, k, w) = (cells.len(), clue.len(), self.line.words);
        self.reversed_clue.clear();
        self.reversed_clue.extend(clue.iter().rev());
        self.mirrored.load_mirrored(&self.line, n);
        forward(
            &mut self.mirrored,
            &self.reversed_clue,
            &mut self.mirrored_ready,
            &mut self.mirrored_reach,
            &mut self.scratch,
        );
        self.after.clear();
        self.after.resize((k + 1) * w, 0);
        for j in 0..=k {
            let from = &self.mirrored_reach[(k - j) * w..(k - j + 1) * w];
            mirror(&mut self.after[j * w..(j + 1) * w], from, n + 1);
        }
    }

    /// The cells that can be background: cell `c` when some `j` has `c` in `reach[j]` and
    /// `c + 1` in `after[j]`.
    fn mark_background(&mut self, k: usize) {
        let w = self.line.words;
        self.background.clear();
        self.background.resize(w, 0);
        for j in 0..=k {
            self.scratch
                .copy_from_slice(&self.after[j * w..(j + 1) * w]);
            shr_in_place(&mut self.scratch, 1);
            let reach = &self.reach[j * w..(j + 1) * w];
            for ((b, &r), &a) in self.background.iter_mut().zip(reach).zip(&self.scratch) {
                *b |= r & a;
            }
        }
        for (b, &bg) in self.background.iter_mut().zip(&self.line.background) {
            *b &= bg;
        }
    }

    /// What each colour covers: the cells of each valid start of its blocks. Records each
    /// block's valid starts; fails when a block has none.
    fn mark_blocks(&mut self, clue: &[Block]) -> Result<(), Contradiction> {
        let (k, w) = (clue.len(), self.line.words);
        self.cover.clear();
        self.cover.resize(self.line.colours.len() * w, 0);
        self.valid.clear();
        for (j, b) in clue.iter().enumerate() {
            let starts = &mut self.scratch;
            starts.copy_from_slice(&self.after[(j + 1) * w..(j + 2) * w]);
            if j + 1 < k && clue[j + 1].color == b.color {
                // The block of the same colour next needs a background cell between.
                shr_in_place(starts, 1);
                starts
                    .iter_mut()
                    .zip(&self.line.background)
                    .for_each(|(s, &bg)| *s &= bg);
            }
            shr_in_place(starts, b.len as usize);
            let ready = &self.ready[j * w..(j + 1) * w];
            let fits = self.line.block_fits(j);
            for ((s, &r), &f) in self.scratch.iter_mut().zip(ready).zip(fits) {
                *s &= r & f;
            }
            let Some((first, last)) = lowest_and_highest(&self.scratch) else {
                return Err(Contradiction);
            };
            self.valid.push((first as u32, last as u32));
            smear(&mut self.scratch, b.len);
            let c = colour_index(&self.line.colours, b.color);
            for (cover, &s) in self.cover[c * w..(c + 1) * w].iter_mut().zip(&self.scratch) {
                *cover |= s;
            }
        }
        Ok(())
    }
}

/// The test oracle: enumerates every placement of the clue, keeps those that agree with
/// `cells`, and returns the union of their colours per cell (`None` if none agrees).
#[cfg(test)]
pub(crate) fn naive_solve(clue: &[Block], cells: &[u64]) -> Option<Vec<u64>> {
    fn place(
        clue: &[Block],
        cells: &[u64],
        at: usize,
        line: &mut Vec<u8>,
        union: &mut Option<Vec<u64>>,
    ) {
        let n = cells.len();
        let Some((first, rest)) = clue.split_first() else {
            let mut full = line.clone();
            full.resize(n, 0);
            if full.iter().zip(cells).all(|(&c, &m)| m >> c & 1 == 1) {
                let u = union.get_or_insert_with(|| vec![0; n]);
                for (u, &c) in u.iter_mut().zip(&full) {
                    *u |= 1 << c;
                }
            }
            return;
        };
        let len = first.len as usize;
        for s in at..n {
            // Cells skipped before the block are background; it must fit where it starts.
            if s + len > n || s > at && cells[s - 1] & 1 == 0 {
                break;
            }
            if !cells[s..s + len].iter().all(|&m| m >> first.color & 1 == 1) {
                continue;
            }
            let mark = line.len();
            line.resize(s, 0);
            line.extend(std::iter::repeat_n(first.color, len));
            let next = match rest.first() {
                Some(b) if b.color == first.color => s + len + 1,
                _ => s + len,
            };
            place(rest, cells, next, line, union);
            line.truncate(mark);
        }
    }
    let mut union = None;
    place(clue, cells, 0, &mut Vec::new(), &mut union);
    union
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn blocks(spec: &[(u32, u8)]) -> Vec<Block> {
        spec.iter()
            .map(|&(len, color)| Block { len, color })
            .collect()
    }

    #[test]
    fn touching_colours_and_gaps() {
        let mut solver = ColorLineSolver::new();
        let mut out = vec![0; 3];
        // 2 red then 1 blue in 3 cells: forced, touching.
        solver
            .solve(&blocks(&[(2, 1), (1, 2)]), &[0b111; 3], &mut out)
            .unwrap();
        assert_eq!(out, vec![0b010, 0b010, 0b100]);
        // 2 red then 1 red needs 4 cells.
        assert_eq!(
            solver.solve(&blocks(&[(2, 1), (1, 1)]), &[0b111; 3], &mut out),
            Err(Contradiction)
        );
        // An empty clue makes every cell background.
        solver.solve(&[], &[0b111; 3], &mut out).unwrap();
        assert_eq!(out, vec![1; 3]);
        // "red or white" cells: 1 red in 3 cells, the middle cell cannot be blue.
        let mut out2 = vec![0; 3];
        solver
            .solve(&blocks(&[(1, 1)]), &[0b011, 0b111, 0b001], &mut out2)
            .unwrap();
        assert_eq!(out2, vec![0b011, 0b011, 0b001]);
    }

    fn case() -> impl Strategy<Value = (Vec<Block>, Vec<u64>)> {
        (1usize..12, 2u8..5).prop_flat_map(|(n, colors)| {
            let block = (1u32..4, 1..colors).prop_map(|(len, color)| Block { len, color });
            let all = (1u64 << colors) - 1;
            (
                proptest::collection::vec(block, 0..5),
                proptest::collection::vec(prop_oneof![3 => Just(all), 2 => 1..=all], n..=n),
            )
        })
    }

    /// A clue and cells revealed from a real line of a length in `lengths`, so that most cases
    /// are solvable: a cell is shown (its colour alone) with weight `shown`, and otherwise
    /// allows its colour and random others.
    fn revealed_lines(
        lengths: std::ops::Range<usize>,
        shown: u32,
        hidden: u32,
    ) -> impl Strategy<Value = (Vec<Block>, Vec<u64>)> {
        (lengths, 2u8..5).prop_flat_map(move |(n, colors)| {
            let all = (1u64 << colors) - 1;
            (
                proptest::collection::vec(0..colors, n..=n),
                proptest::collection::vec(
                    prop_oneof![hidden => Just(false), shown => Just(true)],
                    n..=n,
                ),
                proptest::collection::vec(0..=all, n..=n),
            )
                .prop_map(move |(line, reveal, extra)| {
                    let clue = super::super::puzzle::color_blocks_of(line.iter().copied());
                    let cells = line
                        .iter()
                        .zip(&reveal)
                        .zip(&extra)
                        .map(|((&c, &shown), &x)| if shown { 1u64 << c } else { (1u64 << c) | x })
                        .collect();
                    (clue, cells)
                })
        })
    }

    fn agrees(clue: &[Block], cells: &[u64]) -> Result<(), TestCaseError> {
        let mut solver = ColorLineSolver::new();
        let mut out = vec![0; cells.len()];
        let fast = solver.solve(clue, cells, &mut out).ok().map(|()| out);
        let naive = naive_solve(clue, cells);
        let feasible = solver.feasible(clue, cells);
        prop_assert_eq!(
            feasible,
            naive.is_some(),
            "feasible: {:?} {:?}",
            clue,
            cells
        );
        prop_assert_eq!(fast, naive, "{:?} {:?}", clue, cells);
        Ok(())
    }

    proptest! {
        #[test]
        fn dp_equals_naive_enumeration((clue, cells) in case()) {
            agrees(&clue, &cells)?;
        }

        #[test]
        fn dp_equals_naive_on_revealed_lines((clue, cells) in revealed_lines(1..14, 1, 3)) {
            agrees(&clue, &cells)?;
        }

        #[test]
        /// Lines of one to ten words (every unrolled width of the forward pass, and the general
        /// one), most cells shown so that the oracle's enumeration stays small.
        fn dp_equals_naive_on_long_lines((clue, cells) in revealed_lines(50..640, 8, 1)) {
            agrees(&clue, &cells)?;
        }
    }
}
