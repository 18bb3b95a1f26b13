//! The bit-parallel line solver for lines of any length: the dynamic program of
//! [`super::bits`], over bitsets of as many `u64` words as the line needs ([`super::words`]).
//!
//! Positions `0..=len + 1` are bits of `(len + 2).div_ceil(64)` words, least significant word
//! first; a virtual empty cell at `len` ends every line. As in [`super::bits`], for each `j`,
//! `fwd[j]` holds the positions `p` such that exactly blocks `0..j` fit in cells `0..p`, and
//! `ready[j]` those where block `j` may then start; `after[j]` holds the positions `p` such
//! that exactly blocks `j..` fit in cells `p + 1..len` (the `fwd` sets of the mirrored line,
//! mirrored back). A cell `c` can be empty when some `j` has `c` in both `fwd[j]` and
//! `after[j]`; block `j`, of length `L`, can start at `s` when `s` is in `ready[j]`, cells
//! `s..s + L` can be filled, and `s + L` can be empty and is in `after[j + 1]`.
//!
//! The word operations become passes over the words: a shift by `k` moves whole words by
//! `k / 64` and bits by `k % 64`; "run right over the cells that can be empty" is one addition
//! whose carry ripples from word to word. Where blocks of one length fit is computed once per
//! length, and the cells that blocks of one length cover are smeared once for all of them. A
//! solve costs O(blocks x words + lengths x words x log of the longest block) word operations,
//! against O(blocks x cells) steps for [`super::DpLineSolver`].
//!
//! A clue of one block (or none) needs no backward pass: the block's possible starts are the
//! runs of cells that can be filled and hold every filled cell, and the answer follows from
//! them at once (a permutation puzzle, every clue `1`, has nothing else).
//!
//! Every set lives in buffers kept between calls.

use super::words::{
    Fits, lowest_and_highest, mirror, range_word, run_right_word, run_starts, shl_in_place,
    shr_in_place, smear,
};
use super::{Contradiction, LineIn, LineOut, LineSolver};

/// The bit-parallel solver for lines of any length whose blocks are all at least one cell long
/// (a line of no cells only fits the empty clue). Keeps its buffers between calls: create one
/// per thread.
#[derive(Debug, Default)]
pub struct LongLineSolver {
    /// Words per set of positions.
    words: usize,
    /// The line's cells, and the cells that can be filled or empty (`can_empty` with the
    /// virtual cell at `len`).
    cells: Vec<u64>,
    can_fill: Vec<u64>,
    can_empty: Vec<u64>,
    /// The same, mirrored.
    mirrored_fill: Vec<u64>,
    mirrored_empty: Vec<u64>,
    /// `clue.len() + 1` sets each, one after another.
    ready: Vec<u64>,
    fwd: Vec<u64>,
    mirrored_ready: Vec<u64>,
    mirrored_reach: Vec<u64>,
    after: Vec<u64>,
    /// Where blocks of each length fit, in the line and in the mirrored line.
    fits: Fits<u32>,
    mirrored_fits: Fits<u32>,
    /// For each length in `fits`, the valid starts of the blocks of that length.
    starts_by_len: Vec<u64>,
    /// Scratch sets.
    scratch: Vec<u64>,
    union: Vec<u64>,
    reversed_clue: Vec<u32>,
}

/// Fills `ready` and `reach` (`clue.len() + 1` sets of `n` words each) as
/// [`super::bits`]'s `forward` does: `reach[j]` the positions `p` such that exactly the first
/// `j` blocks fit in cells `0..p`, `ready[j]` those where besides a block may start at `p`.
/// `can_empty` includes the virtual empty cell at the line's end; `fits` serves `can_fill`.
fn forward(
    ready: &mut Vec<u64>,
    reach: &mut Vec<u64>,
    fits: &mut Fits<u32>,
    ends: &mut Vec<u64>,
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    // Lines of 127 to 510 cells (three to eight words, with the virtual cell) get passes of a
    // known number of words, which the compiler unrolls; longer ones take the general passes.
    let sets = (ready, reach, fits, ends);
    match can_fill.len() {
        3 => forward_words::<3>(sets, clue, can_fill, can_empty),
        4 => forward_words::<4>(sets, clue, can_fill, can_empty),
        5 => forward_words::<5>(sets, clue, can_fill, can_empty),
        6 => forward_words::<6>(sets, clue, can_fill, can_empty),
        7 => forward_words::<7>(sets, clue, can_fill, can_empty),
        8 => forward_words::<8>(sets, clue, can_fill, can_empty),
        _ => forward_words::<0>(sets, clue, can_fill, can_empty),
    }
}

/// [`forward`] over sets of `N` words, or of as many as `can_fill` has for `N = 0`.
#[inline(always)]
fn forward_words<const N: usize>(
    (ready, reach, fits, ends): (&mut Vec<u64>, &mut Vec<u64>, &mut Fits<u32>, &mut Vec<u64>),
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    let n = if N == 0 { can_fill.len() } else { N };
    let (can_fill, can_empty) = (&can_fill[..n], &can_empty[..n]);
    // Every word of these is written below.
    ready.resize((clue.len() + 1) * n, 0);
    reach.resize((clue.len() + 1) * n, 0);
    ends.resize(n, 0);
    fits.clear();
    // Runs right from position 0.
    let mut carry = false;
    for i in 0..n {
        let seed = u64::from(i == 0);
        let word = run_right_word(seed, can_empty[i], &mut carry);
        ready[i] = word;
        reach[i] = word;
    }
    for (j, &block) in clue.iter().enumerate() {
        let fit = fits.index(block, block, || can_fill);
        let starts = fits.set(fit, n);
        let (done, next) = ready.split_at_mut((j + 1) * n);
        let ends = &mut ends[..n];
        // The ends of block `j` placed at a start it may take.
        for ((end, &now), &fits) in ends.iter_mut().zip(&done[j * n..]).zip(starts) {
            *end = now & fits;
        }
        shl_in_place(ends, block as usize);
        // Past an empty cell after the end, then on over cells that can be empty.
        let (next, reach_next) = (&mut next[..n], &mut reach[(j + 1) * n..(j + 2) * n]);
        let (mut carry, mut below) = (false, 0u64);
        for i in 0..n {
            let separated = ends[i] & can_empty[i];
            let seed = separated << 1 | below >> 63;
            below = separated;
            let word = run_right_word(seed, can_empty[i], &mut carry);
            next[i] = word;
            reach_next[i] = word | ends[i];
        }
    }
}

/// A line of no cells: only the empty clue fits.
fn no_cells(clue: &[u32]) -> Result<(), Contradiction> {
    if clue.is_empty() {
        Ok(())
    } else {
        Err(Contradiction)
    }
}

/// Whether a cell of `line` (of at least one cell) is known filled.
fn any_filled(line: &LineIn<'_>) -> bool {
    let n = line.len.div_ceil(64);
    let last_cells = range_word(n - 1, 0, line.len);
    line.filled[..n - 1].iter().any(|&w| w != 0) || line.filled[n - 1] & last_cells != 0
}

impl LongLineSolver {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Loads the line's known cells into the `cells`, `can_fill` and `can_empty` sets.
    fn load(&mut self, len: usize, filled: &[u64], empty: &[u64]) {
        let n = (len + 2).div_ceil(64);
        self.words = n;
        for set in [&mut self.cells, &mut self.can_fill, &mut self.can_empty] {
            // Every word is written below.
            set.resize(n, 0);
        }
        for i in 0..n {
            self.cells[i] = range_word(i, 0, len);
            let known = |plane: &[u64]| plane.get(i).copied().unwrap_or(0);
            self.can_fill[i] = self.cells[i] & !known(empty);
            self.can_empty[i] = self.cells[i] & !known(filled);
        }
        self.can_empty[len / 64] |= 1 << (len % 64);
    }

    /// The forward pass over the loaded line: whether the clue fits.
    fn forward_fits(&mut self, clue: &[u32], len: usize) -> bool {
        forward(
            &mut self.ready,
            &mut self.fwd,
            &mut self.fits,
            &mut self.scratch,
            clue,
            &self.can_fill,
            &self.can_empty,
        );
        let last = clue.len() * self.words;
        self.fwd[last + len / 64] >> (len % 64) & 1 == 1
    }

    /// Both passes over the loaded line: `fwd`/`ready` and `after` filled, or the
    /// contradiction.
    fn both_passes(&mut self, clue: &[u32], len: usize) -> Result<(), Contradiction> {
        if !self.forward_fits(clue, len) {
            return Err(Contradiction);
        }
        let n = self.words;
        let k = clue.len();
        self.mirrored_fill.resize(n, 0);
        self.mirrored_empty.resize(n, 0);
        mirror(&mut self.mirrored_fill, &self.can_fill, len);
        // The virtual cell at `len` is not mirrored: it is put back at the end.
        mirror(&mut self.mirrored_empty, &self.can_empty, len);
        self.mirrored_empty[len / 64] |= 1 << (len % 64);
        self.reversed_clue.clear();
        self.reversed_clue.extend(clue.iter().rev());
        forward(
            &mut self.mirrored_ready,
            &mut self.mirrored_reach,
            &mut self.mirrored_fits,
            &mut self.scratch,
            &self.reversed_clue,
            &self.mirrored_fill,
            &self.mirrored_empty,
        );
        // The mirrored line's sets, last block first, give `after[j]` for blocks `j..`:
        // position `p` of the mirrored line is `len - p` of the line, and `after` is one
        // position to the left of that, `len - 1 - p`: a mirror of width `len`.
        self.after.resize((k + 1) * n, 0);
        for j in 0..=k {
            let set = &self.mirrored_reach[(k - j) * n..(k - j + 1) * n];
            mirror(&mut self.after[j * n..(j + 1) * n], set, len);
        }
        // After the last block, the virtual empty cell may serve as its separator.
        self.after[k * n + len / 64] |= 1 << (len % 64);
        Ok(())
    }

    /// For a clue of one block, of length `block`: its starts in some placement, left in
    /// `scratch` (the line's own words, with no room for the virtual cell), found with no
    /// backward pass and no [`Self::load`]: the runs of `block` cells that can be filled and
    /// hold every filled cell. Returns the earliest and the latest, or `None` if there is none.
    fn only_block_starts(&mut self, line: &LineIn<'_>, block: u32) -> Option<(usize, usize)> {
        let len = line.len;
        let n = len.div_ceil(64);
        let (filled, empty) = (&line.filled[..n], &line.empty[..n]);
        let last_cells = range_word(n - 1, 0, len);
        let cells = |i: usize| if i + 1 < n { !0 } else { last_cells };
        // The cells that can be filled, and the words of the first and last filled cells.
        let starts = &mut self.union;
        starts.resize(n, 0);
        let mut filled_words = None;
        for i in 0..n {
            if filled[i] & cells(i) != 0 {
                filled_words = Some((filled_words.map_or(i, |(first, _)| first), i));
            }
            starts[i] = cells(i) & !empty[i];
        }
        run_starts(starts, block);
        // The block holds every filled cell: it starts in `from..to`.
        let (from, to) = match filled_words {
            None => (0, len),
            Some((first, last)) => {
                let lowest = 64 * first + filled[first].trailing_zeros() as usize;
                let highest =
                    64 * last + 63 - (filled[last] & cells(last)).leading_zeros() as usize;
                ((highest + 1).saturating_sub(block as usize), lowest + 1)
            }
        };
        if from >= to {
            return None;
        }
        let (from_word, to_word) = (from / 64, (to - 1) / 64);
        self.scratch.clear();
        self.scratch.resize(n, 0);
        self.scratch[from_word..=to_word].copy_from_slice(&starts[from_word..=to_word]);
        self.scratch[from_word] &= range_word(from_word, from, to);
        self.scratch[to_word] &= range_word(to_word, from, to);
        lowest_and_highest(&self.scratch)
    }

    /// Solves a line whose clue has at most one block, writing the cells known afterwards to
    /// `out`; `None` for longer clues.
    fn solve_short_clue(
        &mut self,
        line: &LineIn<'_>,
        out: LineOut<'_>,
    ) -> Option<Result<(), Contradiction>> {
        let n = line.len.div_ceil(64);
        let last_cells = range_word(n - 1, 0, line.len);
        let coverable = match *line.clue {
            [] => {
                if any_filled(line) {
                    return Some(Err(Contradiction));
                }
                out.filled.fill(0);
                &[][..]
            }
            [block] => {
                let Some((earliest, latest)) = self.only_block_starts(line, block) else {
                    return Some(Err(Contradiction));
                };
                // Filled in every placement: from the latest start to the earliest end.
                out.filled.fill(0);
                let end = earliest + block as usize;
                if latest < end {
                    for i in latest / 64..=(end - 1) / 64 {
                        out.filled[i] = range_word(i, latest, end);
                    }
                }
                smear(&mut self.scratch, block);
                &self.scratch[..]
            }
            _ => return None,
        };
        // Empty in some placement: every cell that no placement covers.
        for (i, empty) in out.empty.iter_mut().enumerate() {
            *empty = !coverable.get(i).copied().unwrap_or(0);
        }
        out.empty[n - 1] &= last_cells;
        out.empty[n..].fill(0);
        Some(Ok(()))
    }

    /// The starts of block `j` (of length `block`) in some placement of the whole clue, after
    /// [`Self::both_passes`], left in `scratch`; returns the index of `block` in `fits`.
    fn valid_starts(&mut self, j: usize, block: u32) -> usize {
        let n = self.words;
        // The cell after the block can be empty and the rest holds blocks `j + 1..`: bit `e`
        // of `union` for a block ending at `e`.
        let after = &self.after[(j + 1) * n..(j + 2) * n];
        for ((u, &a), &e) in self.union.iter_mut().zip(after).zip(&self.can_empty) {
            *u = a & e;
        }
        shr_in_place(&mut self.union, block as usize);
        let fit = self.fits.index(block, block, || &self.can_fill);
        let starts = self.fits.set(fit, n);
        let ready = &self.ready[j * n..(j + 1) * n];
        for (i, s) in self.scratch.iter_mut().enumerate() {
            *s = ready[i] & starts[i] & self.union[i];
        }
        fit
    }

    /// The earliest and latest start of each block over the placements that agree with the
    /// known cells, pushed to `out` (cleared first). Same conditions as
    /// [`LineSolver::solve`].
    pub fn block_starts(
        &mut self,
        line: LineIn<'_>,
        out: &mut Vec<(u32, u32)>,
    ) -> Result<(), Contradiction> {
        out.clear();
        if line.len == 0 {
            return no_cells(line.clue);
        }
        match *line.clue {
            [] if any_filled(&line) => return Err(Contradiction),
            [] => return Ok(()),
            [block] => {
                let (earliest, latest) =
                    self.only_block_starts(&line, block).ok_or(Contradiction)?;
                out.push((earliest as u32, latest as u32));
                return Ok(());
            }
            _ => {}
        }
        self.load(line.len, line.filled, line.empty);
        self.both_passes(line.clue, line.len)?;
        let n = self.words;
        self.scratch.resize(n, 0);
        self.union.resize(n, 0);
        for (j, &block) in line.clue.iter().enumerate() {
            self.valid_starts(j, block);
            let (earliest, latest) = lowest_and_highest(&self.scratch).ok_or(Contradiction)?;
            out.push((earliest as u32, latest as u32));
        }
        Ok(())
    }

    /// Whether some placement of `clue` agrees with the known cells: the forward half of a
    /// solve. Same conditions as [`LineSolver::solve`].
    pub fn feasible(&mut self, line: LineIn<'_>) -> bool {
        if line.len == 0 {
            return no_cells(line.clue).is_ok();
        }
        self.load(line.len, line.filled, line.empty);
        self.forward_fits(line.clue, line.len)
    }
}

impl LineSolver for LongLineSolver {
    /// Solves a line whose blocks are all at least one cell long.
    fn solve(&mut self, line: LineIn<'_>, mut out: LineOut<'_>) -> Result<(), Contradiction> {
        if line.len == 0 {
            out.filled.fill(0);
            out.empty.fill(0);
            return no_cells(line.clue);
        }
        if let Some(solved) = self.solve_short_clue(&line, out.reborrow()) {
            return solved;
        }
        let LineIn { clue, len, .. } = line;
        self.load(len, line.filled, line.empty);
        self.both_passes(clue, len)?;
        let n = self.words;
        self.scratch.resize(n, 0);
        self.union.resize(n, 0);
        // The valid starts of the blocks of each length, gathered to be smeared once.
        self.starts_by_len.clear();
        self.starts_by_len.resize(self.fits.keys.len() * n, 0);
        for (j, &block) in clue.iter().enumerate() {
            let fit = self.valid_starts(j, block);
            let gathered = &mut self.starts_by_len[fit * n..(fit + 1) * n];
            for (g, &s) in gathered.iter_mut().zip(&self.scratch) {
                *g |= s;
            }
        }
        // The cells some placement fills: every cell a valid start's block covers.
        let fillable = &mut self.scratch;
        fillable.fill(0);
        for (fit, &block) in self.fits.keys.iter().enumerate() {
            let starts = &mut self.starts_by_len[fit * n..(fit + 1) * n];
            smear(starts, block);
            for (f, &s) in fillable.iter_mut().zip(&*starts) {
                *f |= s;
            }
        }
        // The cells some placement leaves empty: cell `c` between blocks `j - 1` and `j`.
        let emptyable = &mut self.union;
        emptyable.fill(0);
        for j in 0..=clue.len() {
            let (fwd, after) = (
                &self.fwd[j * n..(j + 1) * n],
                &self.after[j * n..(j + 1) * n],
            );
            for ((e, &f), &a) in emptyable.iter_mut().zip(fwd).zip(after) {
                *e |= f & a;
            }
        }
        let words = out.filled.len().min(n);
        for i in 0..words {
            let cells = self.cells[i];
            let emptyable = emptyable[i] & self.can_empty[i] & cells;
            out.filled[i] = cells & !emptyable;
            out.empty[i] = cells & !fillable[i];
        }
        out.filled[words..].fill(0);
        out.empty[words..].fill(0);
        Ok(())
    }
}
