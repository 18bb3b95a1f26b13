//! The dynamic program of a belief round: for one line, the share of its placements that fill
//! each cell, every placement weighted by what the crossing lines say of its cells.
//!
//! Sums of placements are kept forwards (`before`: blocks `0..j` in the first `i` cells) and
//! backwards (`after`: blocks `j..` in the cells from `i` on). Block `j` can only start within
//! its window, from the cells the blocks before it need to the latest start that leaves room
//! for the blocks after it, `slack + 1` cells wide; only the sums that a start in a window
//! reads are worked out, so a line costs `blocks x (slack + 1)` steps instead of `blocks x
//! length`. The buffers are kept from line to line: a round allocates nothing.

use crate::grid::Cell;

/// The buffers of [`LineShares::compute`].
#[derive(Debug, Default)]
pub(super) struct LineShares {
    /// `empty_before[i]`: the empty cells among cells `0..i`.
    empty_before: Vec<usize>,
    /// Each cell's factor where a placement leaves it empty.
    empty_weight: Vec<f64>,
    /// `filled_up_to[i]`: the fill factors of cells `0..i` multiplied.
    filled_up_to: Vec<f64>,
    /// `before[j * (len + 1) + i]`: placements of blocks `0..j` in cells `0..i`, the rest of
    /// them empty, weighted; only where a window reads them (elsewhere what earlier lines left).
    before: Vec<f64>,
    /// `after[j * (len + 1) + i]`: placements of blocks `j..` in cells `i..`, the rest of them
    /// empty, weighted; as `before`.
    after: Vec<f64>,
    /// A difference array of the placements' weight over the cells they fill.
    cover: Vec<f64>,
    /// The result.
    shares: Vec<f64>,
}

impl LineShares {
    /// For each cell of a line with clue `blocks` and cells `cells`, the share of the line's
    /// placements that fill it, each placement weighted by the product over its unknown cells
    /// of `prior[i]` where it fills cell `i` and `1 - prior[i]` where it leaves it empty (each
    /// prior strictly between 0 and 1). `None` when there is no placement or the sums leave
    /// the range of `f64`.
    pub(super) fn compute(
        &mut self,
        blocks: &[u32],
        cells: &[Cell],
        prior: &[f64],
    ) -> Option<&[f64]> {
        let len = cells.len();
        let k = blocks.len();
        // The cells the blocks need with one empty cell between each two.
        let needed = blocks.iter().map(|&b| b as usize).sum::<usize>() + k.saturating_sub(1);
        let slack = len.checked_sub(needed)?;
        self.weigh(cells, prior);
        let stride = len + 1;
        let line = Line {
            cells,
            empty_before: &self.empty_before,
            empty_weight: &self.empty_weight,
            filled_up_to: &self.filled_up_to,
            stride,
            blocks: k,
        };
        // Only the sums within the windows are worked out and read, and the one just outside
        // each window that a first step reads (set to 0 below): the rest of the tables keeps
        // what earlier lines left there, unread. Debug builds fill them with NaN to make sure.
        let tables = (k + 1) * stride;
        let (before, after) = (&mut self.before, &mut self.after);
        for table in [&mut *before, &mut *after] {
            if table.len() < tables {
                table.resize(tables, 0.0);
            }
            if cfg!(debug_assertions) {
                table[..tables].fill(f64::NAN);
            }
        }
        line.forwards(blocks, before, needed, slack);
        let total = before[k * stride + len];
        if !(total.is_finite() && total > 0.0) {
            return None;
        }
        line.backwards(blocks, after, needed, slack);
        let cover = &mut self.cover;
        line.cover(blocks, before, after, slack, cover);
        let mut running = 0.0;
        self.shares.clear();
        self.shares.extend(cover[..len].iter().map(|&d| {
            running += d;
            (running / total).clamp(0.0, 1.0)
        }));
        Some(&self.shares)
    }

    /// Each cell's factors, scaled so that the larger is 1 (known cells weigh 1), as
    /// `empty_weight` and the running product `filled_up_to`; and `empty_before`.
    fn weigh(&mut self, cells: &[Cell], prior: &[f64]) {
        self.empty_before.clear();
        self.empty_before.push(0);
        self.empty_weight.clear();
        self.filled_up_to.clear();
        self.filled_up_to.push(1.0);
        let (mut empties, mut filled) = (0, 1.0f64);
        for (&cell, &p) in cells.iter().zip(prior) {
            empties += usize::from(cell == Cell::Empty);
            self.empty_before.push(empties);
            let (fill, empty) = if cell == Cell::Unknown {
                let top = p.max(1.0 - p);
                (p / top, (1.0 - p) / top)
            } else {
                (1.0, 1.0)
            };
            // Each fill factor is at least the message floor, so no product reaches 0.
            filled *= fill;
            self.filled_up_to.push(filled);
            self.empty_weight.push(empty);
        }
    }
}

/// One line's cells and factors, for the sums' steps.
#[derive(Clone, Copy)]
struct Line<'a> {
    cells: &'a [Cell],
    empty_before: &'a [usize],
    empty_weight: &'a [f64],
    filled_up_to: &'a [f64],
    /// Line length + 1.
    stride: usize,
    /// The clue's number of blocks.
    blocks: usize,
}

impl Line<'_> {
    fn can_empty(&self, i: usize) -> bool {
        self.cells[i] != Cell::Filled
    }

    /// Whether cells `from..to` may all be filled.
    fn can_fill(&self, from: usize, to: usize) -> bool {
        self.empty_before[to] == self.empty_before[from]
    }

    /// The fill factors of cells `start..end` multiplied.
    fn block_weight(&self, start: usize, end: usize) -> f64 {
        self.filled_up_to[end] / self.filled_up_to[start]
    }

    /// Placements of blocks `0..j` before block `j` starting at `start` (with the cell before
    /// it empty).
    fn lead_in(&self, before: &[f64], j: usize, start: usize) -> f64 {
        if j == 0 {
            before[start]
        } else if start >= 1 && self.can_empty(start - 1) {
            before[j * self.stride + start - 1] * self.empty_weight[start - 1]
        } else {
            0.0
        }
    }

    /// Placements of blocks `j + 1..` after block `j` ending at `end` (with the cell after it
    /// empty).
    fn lead_out(&self, after: &[f64], j: usize, end: usize) -> f64 {
        if j + 1 == self.blocks {
            after[self.blocks * self.stride + end]
        } else if end < self.stride - 1 && self.can_empty(end) {
            after[(j + 1) * self.stride + end + 1] * self.empty_weight[end]
        } else {
            0.0
        }
    }
}

impl Line<'_> {
    /// Forwards: blocks 0..j in cells 0..i, cell i - 1 empty or block j - 1 ending there.
    /// Row j is read at `i = start - 1` (row 0 at `i = start`) for the starts of block j, and
    /// row k at the end of the line.
    #[inline]
    fn forwards(&self, blocks: &[u32], before: &mut [f64], needed: usize, slack: usize) {
        let (len, k, stride) = (self.cells.len(), self.blocks, self.stride);
        let mut first = 0;
        for j in 0..=k {
            let (from, to) = match j {
                0 if k == 0 => (0, len),
                0 => (0, slack),
                _ if j == k => (needed, len),
                _ => (first - 1, first + slack - 1),
            };
            if from >= 1 {
                // No room for blocks 0..j in fewer cells.
                before[j * stride + from - 1] = 0.0;
            }
            for i in from..=to {
                let mut ways = if i == 0 {
                    f64::from(u8::from(j == 0))
                } else if self.can_empty(i - 1) {
                    before[j * stride + i - 1] * self.empty_weight[i - 1]
                } else {
                    0.0
                };
                if j >= 1 && i >= 1 {
                    let block = blocks[j - 1] as usize;
                    if i >= block && self.can_fill(i - block, i) {
                        ways += self.lead_in(before, j - 1, i - block)
                            * self.block_weight(i - block, i);
                    }
                }
                before[j * stride + i] = ways;
            }
            if j < k {
                first += blocks[j] as usize + 1;
            }
        }
    }

    /// Backwards: blocks j.. in cells i..len, cell i empty or block j starting there. Row j
    /// (j >= 1) is read at the starts of block j, row k from the end of the last block on;
    /// row 0 is never read.
    #[inline]
    fn backwards(&self, blocks: &[u32], after: &mut [f64], needed: usize, slack: usize) {
        let (len, k, stride) = (self.cells.len(), self.blocks, self.stride);
        // Block j's earliest start, from the last block down (`needed + 1` past it).
        let mut first = needed + 1;
        for j in (1..=k).rev() {
            let (from, to) = if j == k {
                (needed, len)
            } else {
                first -= blocks[j] as usize + 1;
                (first, first + slack)
            };
            if to < len {
                // No room for blocks j.. past block j's latest start.
                after[j * stride + to + 1] = 0.0;
            }
            for i in (from..=to).rev() {
                let mut ways = if i == len {
                    f64::from(u8::from(j == k))
                } else if self.can_empty(i) {
                    after[j * stride + i + 1] * self.empty_weight[i]
                } else {
                    0.0
                };
                if j < k && i < len {
                    let end = i + blocks[j] as usize;
                    if end <= len && self.can_fill(i, end) {
                        ways += self.block_weight(i, end) * self.lead_out(after, j, end);
                    }
                }
                after[j * stride + i] = ways;
            }
        }
    }

    /// The difference array `cover` of the placements' weight over the cells they fill, from
    /// every start of every block.
    #[inline]
    fn cover(
        &self,
        blocks: &[u32],
        before: &[f64],
        after: &[f64],
        slack: usize,
        cover: &mut Vec<f64>,
    ) {
        cover.clear();
        cover.resize(self.cells.len() + 1, 0.0);
        let mut first = 0;
        for (j, &block) in blocks.iter().enumerate() {
            let block = block as usize;
            for start in first..=first + slack {
                let end = start + block;
                if self.can_fill(start, end) {
                    let weight = self.lead_in(before, j, start)
                        * self.block_weight(start, end)
                        * self.lead_out(after, j, end);
                    cover[start] += weight;
                    cover[end] -= weight;
                }
            }
            first += block + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(len: usize) -> Vec<Cell> {
        vec![Cell::Unknown; len]
    }

    /// Unweighted shares: every prior one half.
    fn fill_shares(blocks: &[u32], cells: &[Cell]) -> Option<Vec<f64>> {
        weighted_shares(blocks, cells, &vec![0.5; cells.len()])
    }

    /// [`LineShares::compute`] with buffers of its own.
    fn weighted_shares(blocks: &[u32], cells: &[Cell], prior: &[f64]) -> Option<Vec<f64>> {
        LineShares::default()
            .compute(blocks, cells, prior)
            .map(<[f64]>::to_vec)
    }

    #[test]
    fn shares_count_placements() {
        // Clue 2 in 3 cells: placements ##. and .##.
        assert_eq!(fill_shares(&[2], &unknown(3)), Some(vec![0.5, 1.0, 0.5]));
        // Clue 1 1 in 4 cells: #.#. #..# .#.# : cells filled 2, 1, 1, 2 of 3.
        let shares = fill_shares(&[1, 1], &unknown(4)).expect("placements");
        let expected = [2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0];
        for (s, e) in shares.iter().zip(expected) {
            assert!((s - e).abs() < 1e-12, "{shares:?}");
        }
        // An empty clue fills nothing.
        assert_eq!(fill_shares(&[], &unknown(3)), Some(vec![0.0; 3]));
    }

    #[test]
    fn shares_respect_known_cells() {
        // Clue 1 in 3 cells with the last one filled: only ..#.
        let mut cells = unknown(3);
        cells[2] = Cell::Filled;
        assert_eq!(fill_shares(&[1], &cells), Some(vec![0.0, 0.0, 1.0]));
        // No placement at all: no shares.
        cells[0] = Cell::Filled;
        assert_eq!(fill_shares(&[1], &cells), None);
    }

    /// Against every line of up to 12 cells that agrees with the known cells, weighed one by
    /// one; one set of buffers serves every line, long and short, in turn.
    #[test]
    fn weighted_shares_match_brute_force() {
        let mut rng = crate::rng::SplitMix(7);
        let mut sums = LineShares::default();
        for _ in 0..600 {
            let len = 1 + rng.below(12);
            let cells: Vec<Cell> = (0..len)
                .map(|_| match rng.below(5) {
                    0 => Cell::Filled,
                    1 => Cell::Empty,
                    _ => Cell::Unknown,
                })
                .collect();
            let prior: Vec<f64> = (0..len)
                .map(|_| 0.01 + 0.98 * rng.below(1000) as f64 / 999.0)
                .collect();
            // A clue from a line a little longer, one time in four: it may not fit.
            let clue_len = len + if rng.chance(1, 4) { 3 } else { 0 };
            let line: Vec<bool> = (0..clue_len).map(|_| rng.chance(1, 2)).collect();
            let blocks = crate::puzzle::blocks_of(line.iter().copied());
            let mut filled = vec![0.0f64; len];
            let mut total = 0.0f64;
            for mask in 0..1u32 << len {
                let candidate: Vec<bool> = (0..len).map(|i| mask >> i & 1 == 1).collect();
                let agrees = candidate.iter().zip(&cells).all(|(&f, &c)| match c {
                    Cell::Filled => f,
                    Cell::Empty => !f,
                    Cell::Unknown => true,
                });
                if agrees && crate::puzzle::blocks_of(candidate.iter().copied()) == blocks {
                    let weight: f64 = (0..len)
                        .filter(|&i| cells[i] == Cell::Unknown)
                        .map(|i| {
                            if candidate[i] {
                                prior[i]
                            } else {
                                1.0 - prior[i]
                            }
                        })
                        .product();
                    total += weight;
                    for (i, &f) in candidate.iter().enumerate() {
                        if f {
                            filled[i] += weight;
                        }
                    }
                }
            }
            let shares = sums.compute(&blocks, &cells, &prior);
            if total == 0.0 {
                assert_eq!(shares, None, "{blocks:?} {cells:?}");
                continue;
            }
            let shares = shares.expect("placements");
            for i in 0..len {
                let expected = filled[i] / total;
                assert!(
                    (shares[i] - expected).abs() < 1e-9,
                    "{blocks:?} {cells:?} {prior:?}: {shares:?}"
                );
            }
        }
    }

    #[test]
    fn long_lines_keep_their_products_in_range() {
        // 1,000 cells of alternating blocks, every prior at the floor against them.
        let line: Vec<bool> = (0..1000).map(|i| i % 3 == 0).collect();
        let blocks = crate::puzzle::blocks_of(line.iter().copied());
        let floor = super::super::message_floor(1000);
        let shares = weighted_shares(&blocks, &unknown(1000), &vec![floor; 1000]);
        assert!(shares.is_some(), "the weights underflowed");
    }

    #[test]
    fn lines_of_every_length_give_shares_or_none() {
        // Up to the longest line allowed, priors at the floor: sparse and dense blocks (whose
        // sums may pass the range of `f64`: then `None`), a full clue and an empty one (exact).
        for len in [1, 2, 664, 665, 2048, 4096] {
            let floor = super::super::message_floor(len);
            let pictures: [&dyn Fn(usize) -> bool; 4] =
                [&|i| i % 3 == 0, &|i| i % 5 != 4, &|_| true, &|_| false];
            for (p, picture) in pictures.iter().enumerate() {
                let line: Vec<bool> = (0..len).map(picture).collect();
                let blocks = crate::puzzle::blocks_of(line.iter().copied());
                let shares = weighted_shares(&blocks, &unknown(len), &vec![floor; len]);
                let Some(shares) = shares else {
                    assert!(p < 2, "{len}: a full or empty line has one placement");
                    continue;
                };
                for (&share, &filled) in shares.iter().zip(&line) {
                    assert!((0.0..=1.0).contains(&share), "{len} {p}: {share}");
                    if p >= 2 {
                        assert!((share - f64::from(u8::from(filled))).abs() < 1e-9);
                    }
                }
            }
        }
    }
}
