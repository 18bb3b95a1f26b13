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
//! On lines of over eight words (510 cells) each set is computed only over its *window*, the
//! words where it can have a bit ([`forward`]): block `j` lies between where the blocks before
//! it can end and where the cells that can be empty after it run out. On a mostly known line a
//! window is a word or two, so a solve there costs about blocks + words instead of their
//! product (figures in docs/benchmarks.md, "Long lines").
//!
//! A clue of one block (or none) needs no backward pass: the block's possible starts are the
//! runs of cells that can be filled and hold every filled cell, and the answer follows from
//! them at once (a permutation puzzle, every clue `1`, has nothing else).
//!
//! Every set lives in buffers kept between calls.

mod forward;

use super::words::{
    Fits, lowest_and_highest, mirror, mirror_window, range_word, run_starts, smear,
};
use super::{Contradiction, LineIn, LineOut, LineSolver};
use forward::{forward, window};

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
    /// For each set of `ready` and `fwd`, of the mirrored ones, and of `after`, the words that
    /// may be set: only these words were written for the line, the others hold what earlier
    /// lines left and are never read. Empty for lines of up to eight words, whose sets are
    /// written whole (see [`window`]).
    windows: Vec<(usize, usize)>,
    mirrored_windows: Vec<(usize, usize)>,
    after_windows: Vec<(usize, usize)>,
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
            (&mut self.ready, &mut self.fwd, &mut self.windows),
            &mut self.fits,
            &mut self.scratch,
            clue,
            &self.can_fill,
            &self.can_empty,
        );
        let (lo, hi) = window(&self.windows, clue.len(), self.words);
        let word = len / 64;
        (lo..hi).contains(&word) && self.fwd[clue.len() * self.words + word] >> (len % 64) & 1 == 1
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
        let mirrored_sets = (
            &mut self.mirrored_ready,
            &mut self.mirrored_reach,
            &mut self.mirrored_windows,
        );
        forward(
            mirrored_sets,
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
        self.after_windows.clear();
        for j in 0..=k {
            let set = &self.mirrored_reach[(k - j) * n..(k - j + 1) * n];
            let after = &mut self.after[j * n..(j + 1) * n];
            // Lines of up to eight words mirror every word: the faster pass there.
            match self.mirrored_windows.get(k - j) {
                None => mirror(after, set, len),
                Some(&from) => self
                    .after_windows
                    .push(mirror_window(after, set, len, from)),
            }
        }
        // After the last block, the virtual empty cell may serve as its separator; the words
        // the window takes in to reach it are zeroed first.
        let (word, (lo, hi)) = (len / 64, window(&self.after_windows, k, n));
        let (from, to) = match lo < hi {
            true => (lo.min(word), hi.max(word + 1)),
            false => (word, word + 1),
        };
        for w in (from..to).filter(|w| !(lo..hi).contains(w)) {
            self.after[k * n + w] = 0;
        }
        self.after[k * n + word] |= 1 << (len % 64);
        if let Some(window) = self.after_windows.get_mut(k) {
            *window = (from, to);
        }
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
    /// [`Self::both_passes`], left in `scratch` within the words of the range returned (the
    /// words outside it are not written and hold no start); returns the index of `block` in
    /// `fits`, and that range.
    fn valid_starts(&mut self, j: usize, block: u32) -> (usize, (usize, usize)) {
        let n = self.words;
        let (q, r) = (block as usize / 64, block % 64);
        // The cell after the block can be empty and the rest holds blocks `j + 1..`: bit `e`
        // of `after & can_empty` for a block ending at `e`, shifted right by `block`.
        let after = &self.after[(j + 1) * n..(j + 2) * n];
        let (after_lo, after_hi) = window(&self.after_windows, j + 1, n);
        let ending = |w: usize| match (after_lo..after_hi).contains(&w) {
            true => after[w] & self.can_empty[w],
            false => 0,
        };
        let fit = self.fits.index(block, block, || &self.can_fill);
        let starts = self.fits.set(fit, n);
        let ready = &self.ready[j * n..(j + 1) * n];
        let (ready_lo, ready_hi) = window(&self.windows, j, n);
        let lo = ready_lo.max(after_lo.saturating_sub(q + 1));
        let hi = ready_hi.min(after_hi.saturating_sub(q)).max(lo);
        for i in lo..hi {
            let shifted = match r {
                0 => ending(i + q),
                _ => ending(i + q) >> r | ending(i + q + 1) << (64 - r),
            };
            self.scratch[i] = ready[i] & starts[i] & shifted;
        }
        (fit, (lo, hi))
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
        for (j, &block) in line.clue.iter().enumerate() {
            let (_, (lo, hi)) = self.valid_starts(j, block);
            let (earliest, latest) =
                lowest_and_highest(&self.scratch[lo..hi]).ok_or(Contradiction)?;
            out.push(((64 * lo + earliest) as u32, (64 * lo + latest) as u32));
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
            let (fit, (lo, hi)) = self.valid_starts(j, block);
            let gathered = &mut self.starts_by_len[fit * n + lo..fit * n + hi];
            for (g, &s) in gathered.iter_mut().zip(&self.scratch[lo..hi]) {
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
            let (fwd_lo, fwd_hi) = window(&self.windows, j, n);
            let (after_lo, after_hi) = window(&self.after_windows, j, n);
            let lo = fwd_lo.max(after_lo);
            let hi = fwd_hi.min(after_hi).max(lo);
            let fwd = &self.fwd[j * n + lo..j * n + hi];
            let after = &self.after[j * n + lo..j * n + hi];
            for ((e, &f), &a) in emptyable[lo..hi].iter_mut().zip(fwd).zip(after) {
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
