//! The bit-parallel line solver for lines of any length: the dynamic program of
//! [`super::bits`], over bitsets of as many `u64` words as the line needs.
//!
//! Positions `0..=len + 1` are bits of `len.div_ceil(64)`-ish words (`(len + 2).div_ceil(64)`),
//! least significant word first; a virtual empty cell at `len` ends every line. As in
//! [`super::bits`], for each `j`, `fwd[j]` holds the positions `p` such that exactly blocks
//! `0..j` fit in cells `0..p`, `ready[j]` those where block `j` may then start, and `bwd[j]` the
//! positions `p` such that exactly blocks `j..` fit in cells `p..len` (the `fwd` sets of the
//! mirrored line, mirrored back). A cell can be empty when some `j` has it in `fwd[j]` and the
//! next position in `bwd[j]`; block `j` can start at `s` when `s` is in `ready[j]`, its cells
//! can be filled, the cell after it can be empty and the position after that is in
//! `bwd[j + 1]`.
//!
//! The word operations become loops over words: a shift by `k` moves whole words by `k / 64`
//! and bits by `k % 64`, each word taking the bits that cross from its neighbour; "run right
//! over the cells that can be empty" is one addition whose carry ripples from word to word. A
//! solve costs O(blocks x words x log of the longest block) word operations, against
//! O(blocks x cells) steps for [`super::DpLineSolver`]: about 2000 / 32 fewer on a 2000-cell
//! line with one block. Every set lives in buffers kept between calls.

use super::{Contradiction, LineIn, LineOut, LineSolver};

/// The bit-parallel solver for lines of any length of at least one cell, whose blocks are all
/// at least one cell long. Keeps its buffers between calls: create one per thread.
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
    bwd: Vec<u64>,
    /// Where a block of length `fit_len` fits in `can_fill` (see [`Fit`]).
    fit: Fit,
    /// Scratch sets.
    scratch: Vec<u64>,
    union: Vec<u64>,
    reversed_clue: Vec<u32>,
}

/// The starts of runs of `len` cells that can be filled, for the last block length asked for:
/// consecutive blocks of the same length share them.
#[derive(Debug, Default)]
struct Fit {
    starts: Vec<u64>,
    /// The block length `starts` is for; 0 when stale.
    len: u32,
}

impl Fit {
    /// The positions `s` such that cells `s..s + len` are all in `cells`.
    fn get<'a>(&'a mut self, cells: &'a [u64], len: u32) -> &'a [u64] {
        if len == 1 {
            return cells;
        }
        if self.len != len {
            self.starts.clear();
            self.starts.extend_from_slice(cells);
            let mut covered = 1;
            while covered < len {
                let step = covered.min(len - covered);
                and_shifted_right(&mut self.starts, step as usize);
                covered += step;
            }
            self.len = len;
        }
        &self.starts
    }
}

/// Word `i` of `src << k` (bits shifted past the last word are lost).
#[inline]
fn word_shl(src: &[u64], i: usize, k: usize) -> u64 {
    let (q, r) = (k / 64, k % 64);
    if i < q {
        return 0;
    }
    let high = src[i - q] << r;
    if r == 0 || i == q {
        high
    } else {
        high | src[i - q - 1] >> (64 - r)
    }
}

/// Word `i` of `src >> k`.
#[inline]
fn word_shr(src: &[u64], i: usize, k: usize) -> u64 {
    let (q, r) = (k / 64, k % 64);
    let n = src.len();
    if i + q >= n {
        return 0;
    }
    let low = src[i + q] >> r;
    if r == 0 || i + q + 1 == n {
        low
    } else {
        low | src[i + q + 1] << (64 - r)
    }
}

/// `x &= x >> k`, in place: word `i` reads words `i..`, which are not written yet when going
/// up.
fn and_shifted_right(x: &mut [u64], k: usize) {
    for i in 0..x.len() {
        x[i] &= word_shr(x, i, k);
    }
}

/// `x |= x << k`, in place: word `i` reads words `..=i`, not written yet when going down.
fn or_shifted_left(x: &mut [u64], k: usize) {
    for i in (0..x.len()).rev() {
        x[i] |= word_shl(x, i, k);
    }
}

/// `x |= x << 1 | x << 2 | ... | x << (len - 1)`: every bit within `len` above a set bit, the
/// cells that blocks of length `len` starting there cover.
fn smear(x: &mut [u64], len: u32) {
    let mut covered = 1;
    while covered < len {
        let step = covered.min(len - covered);
        or_shifted_left(x, step as usize);
        covered += step;
    }
}

/// Word `i` of the set of bits `from..to`.
#[inline]
fn range_word(i: usize, from: usize, to: usize) -> u64 {
    let below = |end: usize| match end.saturating_sub(64 * i) {
        0 => 0,
        bits if bits >= 64 => !0,
        bits => (1 << bits) - 1,
    };
    below(to) & !below(from)
}

/// Whether a cell of `line` is known filled.
fn any_filled(line: &LineIn<'_>) -> bool {
    let n = line.len.div_ceil(64);
    let last_cells = range_word(n - 1, 0, line.len);
    line.filled[..n - 1].iter().any(|&w| w != 0) || line.filled[n - 1] & last_cells != 0
}

/// The lowest and the highest set bit of `x`, if any.
fn lowest_and_highest(x: &[u64]) -> Option<(usize, usize)> {
    let first = x.iter().position(|&w| w != 0)?;
    let last = x.iter().rposition(|&w| w != 0)?;
    Some((
        64 * first + x[first].trailing_zeros() as usize,
        64 * last + 63 - x[last].leading_zeros() as usize,
    ))
}

/// Mirrors the bits `0..width` of `src` into `dst`: bit `i` goes to `width - 1 - i`, and bits
/// from `width` on are dropped. Reversing every word and their order sends bit `i` to
/// `64n - 1 - i`; the shift right by `64n - width` finishes (and drops those below it).
fn mirror(dst: &mut [u64], src: &[u64], width: usize) {
    let n = src.len();
    let k = 64 * n - width;
    let (q, r) = (k / 64, k % 64);
    // Word `w` of the full reversal, each source word reversed once.
    let reversed = |w: usize| {
        if w < n {
            src[n - 1 - w].reverse_bits()
        } else {
            0
        }
    };
    let mut next = reversed(q);
    for (i, out) in dst.iter_mut().enumerate() {
        let now = next;
        next = reversed(i + q + 1);
        *out = if r == 0 {
            now
        } else {
            now >> r | next << (64 - r)
        };
    }
}

/// Fills `ready` and `reach` (`clue.len() + 1` sets of `n` words each) as
/// [`super::bits`]'s `forward` does: `reach[j]` the positions `p` such that exactly the first
/// `j` blocks fit in cells `0..p`, `ready[j]` those where besides a block may start at `p`.
/// `can_empty` includes the virtual empty cell at the line's end.
fn forward(
    ready: &mut Vec<u64>,
    reach: &mut Vec<u64>,
    fit: &mut Fit,
    ends: &mut Vec<u64>,
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    let n = can_fill.len();
    // Every word of these is written below.
    ready.resize((clue.len() + 1) * n, 0);
    reach.resize((clue.len() + 1) * n, 0);
    ends.resize(n, 0);
    fit.len = 0;
    // Runs right from position 0.
    let mut carry = false;
    for i in 0..n {
        let seed = u64::from(i == 0);
        let word = run_right_word(seed, can_empty[i], &mut carry);
        ready[i] = word;
        reach[i] = word;
    }
    for (j, &block) in clue.iter().enumerate() {
        let starts = fit.get(can_fill, block);
        let (done, next) = ready.split_at_mut((j + 1) * n);
        let now = &done[j * n..];
        // The ends of block `j` placed at a start it may take.
        for (i, end) in ends.iter_mut().enumerate() {
            let k = block as usize;
            let (q, r) = (k / 64, k % 64);
            let placed = |w: usize| now[w] & starts[w];
            *end = if i < q {
                0
            } else if r == 0 || i == q {
                placed(i - q) << r
            } else {
                placed(i - q) << r | placed(i - q - 1) >> (64 - r)
            };
        }
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

/// One word of [`super::bits`]'s `run_right`: `seeds | (open + (seeds & open)) ^ open`, the
/// addition's carry coming in and going out through `carry`.
#[inline]
fn run_right_word(seeds: u64, open: u64, carry: &mut bool) -> u64 {
    let (sum, c1) = open.overflowing_add(seeds & open);
    let (sum, c2) = sum.overflowing_add(u64::from(*carry));
    *carry = c1 | c2;
    seeds | (sum ^ open)
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
            let full = (i + 1) * 64;
            self.cells[i] = if full <= len {
                !0
            } else if i * 64 >= len {
                0
            } else {
                (1 << (len % 64)) - 1
            };
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
            &mut self.fit,
            &mut self.scratch,
            clue,
            &self.can_fill,
            &self.can_empty,
        );
        let last = clue.len() * self.words;
        self.fwd[last + len / 64] >> (len % 64) & 1 == 1
    }

    /// Both passes over the loaded line: `fwd`/`ready` and `bwd` filled, or the contradiction.
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
            &mut self.fit,
            &mut self.scratch,
            &self.reversed_clue,
            &self.mirrored_fill,
            &self.mirrored_empty,
        );
        // The mirrored line's sets, last block first, become `bwd[j]` for blocks `j..`:
        // position `p` of the mirrored line is `len - p` of the line.
        // Every word is written below.
        self.bwd.resize((k + 1) * n, 0);
        for j in 0..=k {
            let set = &self.mirrored_reach[(k - j) * n..(k - j + 1) * n];
            mirror(&mut self.bwd[j * n..(j + 1) * n], set, len + 1);
        }
        // After the last block, the virtual empty cell may serve as its separator.
        self.bwd[k * n + (len + 1) / 64] |= 1 << ((len + 1) % 64);
        // `fit` was last asked about the mirrored line.
        self.fit.len = 0;
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
        let mut covered = 1;
        while covered < block {
            let step = covered.min(block - covered);
            and_shifted_right(starts, step as usize);
            covered += step;
        }
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
    /// [`Self::both_passes`], left in `scratch`.
    fn valid_starts(&mut self, j: usize, block: u32) {
        let n = self.words;
        let k = block as usize;
        // The cell after the block can be empty and the rest holds blocks `j + 1..`: bit `e`
        // of `union` for a block ending at `e`.
        let after = &self.bwd[(j + 1) * n..(j + 2) * n];
        for i in 0..n {
            self.union[i] = self.can_empty[i] & word_shr(after, i, 1);
        }
        let starts = self.fit.get(&self.can_fill, block);
        let ready = &self.ready[j * n..(j + 1) * n];
        for i in 0..n {
            self.scratch[i] = ready[i] & starts[i] & word_shr(&self.union, i, k);
        }
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
        self.load(line.len, line.filled, line.empty);
        self.forward_fits(line.clue, line.len)
    }
}

impl LineSolver for LongLineSolver {
    /// Solves a line of at least one cell whose blocks are all at least one cell long.
    fn solve(&mut self, line: LineIn<'_>, mut out: LineOut<'_>) -> Result<(), Contradiction> {
        if let Some(solved) = self.solve_short_clue(&line, out.reborrow()) {
            return solved;
        }
        let LineIn { clue, len, .. } = line;
        self.load(len, line.filled, line.empty);
        self.both_passes(clue, len)?;
        let n = self.words;
        self.scratch.resize(n, 0);
        self.union.resize(n, 0);
        // The cells some placement fills, gathered in `fillable`.
        let mut fillable = std::mem::take(&mut self.mirrored_fill);
        fillable.fill(0);
        for (j, &block) in clue.iter().enumerate() {
            self.valid_starts(j, block);
            smear(&mut self.scratch, block);
            for (f, s) in fillable.iter_mut().zip(&self.scratch) {
                *f |= s;
            }
        }
        // The cells some placement leaves empty: cell `c` between blocks `j - 1` and `j`.
        let emptyable = &mut self.union;
        emptyable.fill(0);
        for j in 0..=clue.len() {
            let (fwd, bwd) = (&self.fwd[j * n..(j + 1) * n], &self.bwd[j * n..(j + 1) * n]);
            for (i, e) in emptyable.iter_mut().enumerate() {
                *e |= fwd[i] & word_shr(bwd, i, 1);
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
        self.mirrored_fill = fillable;
        Ok(())
    }
}
