//! The exact colour line solver: a dynamic program over (blocks placed, cells used) on lines
//! whose cells are sets of possible colours, O(length x blocks).
//!
//! `fwd[j][i]`: the first `j` blocks fit in cells `0..i`, every other cell there background.
//! `bwd[j][i]`: blocks `j..` fit in cells `i..`. Block `j` may start at `s` after block `j - 1`
//! when the two differ in colour and `fwd[j][s]` (they may touch), or when they share it and
//! `fwd[j][s - 1]` with cell `s - 1` background (the gap). A cell can be background when some
//! `j` has `fwd[j][c]` and `bwd[j][c + 1]`; it can take block `j`'s colour when some valid start
//! of block `j` covers it. The result is every colour each cell takes in some placement that
//! agrees with the input: exact, which [`naive_solve`] (the test oracle) confirms.

use super::puzzle::Block;
use crate::line::Contradiction;

/// The colour line solver. Keeps its buffers between calls: one per thread.
#[derive(Debug, Default)]
pub(crate) struct ColorLineSolver {
    not_bg: Vec<u32>,
    fits: Vec<bool>,
    fwd: Vec<bool>,
    bwd: Vec<bool>,
    cover: Vec<i32>,
    /// The earliest and latest start of each block.
    lo: Vec<usize>,
    hi: Vec<usize>,
    /// Runs of cells allowing each colour of the clue, one `len + 1` slice per colour.
    run: Vec<u32>,
    /// Which slice of `run` belongs to which colour.
    run_of: Vec<(u8, usize)>,
    /// The earliest and latest start of each block in a placement that agrees with the line,
    /// as the last [`ColorLineSolver::place`] found them.
    valid: Vec<(u32, u32)>,
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

    /// [`ColorLineSolver::solve`] by the dynamic program, recording each block's earliest and
    /// latest valid start.
    fn place(
        &mut self,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<(), Contradiction> {
        self.start_ranges(clue, cells.len())?;
        self.count_not_background(cells);
        self.find_fits(clue, cells);
        self.forward(clue, cells)?;
        self.backward(clue, cells);
        self.mark_background(clue, cells, out);
        self.mark_blocks(clue, cells, out)?;
        if out.contains(&0) {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Block j can only start in lo[j]..=hi[j]: packed as far left, or right, as the clue
    /// allows. Every pass visits only the positions those ranges can reach, which on long lines
    /// with many blocks is a small part of the (block, cell) table.
    #[inline]
    fn start_ranges(&mut self, clue: &[Block], n: usize) -> Result<(), Contradiction> {
        let k = clue.len();
        self.lo.clear();
        self.hi.clear();
        let gap_after = |j: usize| usize::from(j + 1 < k && clue[j + 1].color == clue[j].color);
        let mut at = 0;
        for (j, b) in clue.iter().enumerate() {
            self.lo.push(at);
            at += b.len as usize + gap_after(j);
        }
        if at > n || clue.iter().any(|b| b.len == 0) {
            return Err(Contradiction);
        }
        self.hi.resize(k, 0);
        let mut end = n;
        for j in (0..k).rev() {
            end -= gap_after(j);
            end -= clue[j].len as usize;
            self.hi[j] = end;
        }
        Ok(())
    }

    /// not_bg[i]: cells in 0..i that cannot be background.
    #[inline]
    fn count_not_background(&mut self, cells: &[u64]) {
        self.not_bg.clear();
        self.not_bg.push(0);
        let mut count = 0;
        for &c in cells {
            count += u32::from(c & 1 == 0);
            self.not_bg.push(count);
        }
    }

    /// fits[j][s]: block j fits at start s (every cell allows its colour), for s in its range.
    #[inline]
    fn find_fits(&mut self, clue: &[Block], cells: &[u64]) {
        let stride = cells.len() + 1;
        self.fits.clear();
        self.fits.resize(clue.len() * stride, false);
        self.run.clear();
        self.run_of.clear();
        for (j, b) in clue.iter().enumerate() {
            let len = b.len as usize;
            // Runs of cells allowing the colour: computed once per colour of the clue.
            let at = match self.run_of.iter().find(|(c, _)| *c == b.color) {
                Some(&(_, at)) => at,
                None => {
                    let at = self.run.len();
                    let bit = 1u64 << b.color;
                    self.run.push(0);
                    let mut r = 0;
                    for &c in cells {
                        r = if c & bit != 0 { r + 1 } else { 0 };
                        self.run.push(r);
                    }
                    self.run_of.push((b.color, at));
                    at
                }
            };
            let run = &self.run[at..at + stride];
            let row = &mut self.fits[j * stride..(j + 1) * stride];
            for s in self.lo[j]..=self.hi[j] {
                row[s] = run[s + len] as usize >= len;
            }
        }
    }

    /// Forward pass: fwd[j + 1][e] for e from where block j can end at the earliest to where
    /// the prefix may end at the latest; everything else stays false. Fails when the whole
    /// clue fits nowhere.
    #[inline]
    fn forward(&mut self, clue: &[Block], cells: &[u64]) -> Result<(), Contradiction> {
        let (n, k) = (cells.len(), clue.len());
        let stride = n + 1;
        let ranges = Ranges::new(clue, &self.lo, &self.hi, n);
        let (hi, not_bg, fits) = (&self.hi, &self.not_bg, &self.fits);
        let bg = |i: usize| cells[i] & 1 != 0;
        let fwd = &mut self.fwd;
        fwd.clear();
        fwd.resize((k + 1) * stride, false);
        for i in 0..=n {
            fwd[i] = not_bg[i] == 0;
        }
        for j in 0..k {
            let len = clue[j].len as usize;
            let same = j > 0 && clue[j - 1].color == clue[j].color;
            let (done, rest) = fwd.split_at_mut((j + 1) * stride);
            let prev = &done[j * stride..];
            let row = &mut rest[..stride];
            for e in ranges.prefix_end(j + 1)..=ranges.suffix_start(j + 1) {
                let mut ok = e > 0 && row[e - 1] && bg(e - 1);
                if !ok {
                    let s = e - len;
                    ok = s <= hi[j]
                        && fits[j * stride + s]
                        && if same {
                            s >= 1 && prev[s - 1] && bg(s - 1)
                        } else {
                            prev[s]
                        };
                }
                row[e] = ok;
            }
        }
        if !fwd[k * stride + n] {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Backward pass, likewise: bwd[j][s] from the latest start of block j down to where the
    /// prefix before it can end at the earliest.
    #[inline]
    fn backward(&mut self, clue: &[Block], cells: &[u64]) {
        let (n, k) = (cells.len(), clue.len());
        let stride = n + 1;
        let ranges = Ranges::new(clue, &self.lo, &self.hi, n);
        let (lo, hi, not_bg, fits) = (&self.lo, &self.hi, &self.not_bg, &self.fits);
        let bg = |i: usize| cells[i] & 1 != 0;
        let bwd = &mut self.bwd;
        bwd.clear();
        bwd.resize((k + 1) * stride, false);
        for i in 0..=n {
            bwd[k * stride + i] = not_bg[n] == not_bg[i];
        }
        for j in (0..k).rev() {
            let len = clue[j].len as usize;
            let same = j + 1 < k && clue[j + 1].color == clue[j].color;
            let (row_part, next_part) = bwd.split_at_mut((j + 1) * stride);
            let row = &mut row_part[j * stride..];
            let next = &next_part[..stride];
            for s in (ranges.prefix_end(j)..=hi[j]).rev() {
                let mut ok = bg(s) && row[s + 1];
                let e = s + len;
                if !ok && s >= lo[j] && fits[j * stride + s] {
                    ok = if same {
                        e < n && bg(e) && next[e + 1]
                    } else {
                        next[e]
                    };
                }
                row[s] = ok;
            }
        }
    }

    /// What each cell can be, first part: background between blocks j - 1 and j.
    #[inline]
    fn mark_background(&self, clue: &[Block], cells: &[u64], out: &mut [u64]) {
        let n = cells.len();
        let stride = n + 1;
        let ranges = Ranges::new(clue, &self.lo, &self.hi, n);
        let (fwd, bwd) = (&self.fwd, &self.bwd);
        out.fill(0);
        for j in 0..=clue.len() {
            for c in ranges.prefix_end(j)..ranges.suffix_start(j) {
                if cells[c] & 1 != 0 && fwd[j * stride + c] && bwd[j * stride + c + 1] {
                    out[c] = 1;
                }
            }
        }
    }

    /// What each cell can be, second part: block j's colour, where a valid start of block j
    /// covers it. Records each block's valid starts; fails when a block has none.
    #[inline]
    fn mark_blocks(
        &mut self,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<(), Contradiction> {
        let (n, k) = (cells.len(), clue.len());
        let stride = n + 1;
        let (lo, hi, fits, fwd, bwd) = (&self.lo, &self.hi, &self.fits, &self.fwd, &self.bwd);
        let bg = |i: usize| cells[i] & 1 != 0;
        self.cover.resize(n + 1, 0);
        self.valid.clear();
        for (j, b) in clue.iter().enumerate() {
            let len = b.len as usize;
            let same_before = j > 0 && clue[j - 1].color == b.color;
            let same_after = j + 1 < k && clue[j + 1].color == b.color;
            self.cover.fill(0);
            let mut any = false;
            for s in lo[j]..=hi[j] {
                if !fits[j * stride + s] {
                    continue;
                }
                let left = if j == 0 {
                    fwd[s]
                } else if same_before {
                    s >= 1 && fwd[j * stride + s - 1] && bg(s - 1)
                } else {
                    fwd[j * stride + s]
                };
                let e = s + len;
                let right = left
                    && if j + 1 == k {
                        bwd[k * stride + e]
                    } else if same_after {
                        e < n && bg(e) && bwd[(j + 1) * stride + e + 1]
                    } else {
                        bwd[(j + 1) * stride + e]
                    };
                if right {
                    self.cover[s] += 1;
                    self.cover[e] -= 1;
                    if any {
                        self.valid[j].1 = s as u32;
                    } else {
                        self.valid.push((s as u32, s as u32));
                    }
                    any = true;
                }
            }
            if !any {
                return Err(Contradiction);
            }
            let bit = 1u64 << b.color;
            let mut covered = 0;
            for (c, o) in out.iter_mut().enumerate().take(hi[j] + len).skip(lo[j]) {
                covered += self.cover[c];
                if covered > 0 {
                    *o |= bit;
                }
            }
        }
        Ok(())
    }
}

/// The start ranges of a clue's blocks on a line of `n` cells, as [`ColorLineSolver`] found
/// them, and the cells where a prefix of blocks can end.
struct Ranges<'a> {
    clue: &'a [Block],
    lo: &'a [usize],
    hi: &'a [usize],
    n: usize,
}

impl<'a> Ranges<'a> {
    #[inline]
    fn new(clue: &'a [Block], lo: &'a [usize], hi: &'a [usize], n: usize) -> Self {
        Self { clue, lo, hi, n }
    }

    /// The earliest cell where the prefix of blocks 0..j can end (0 for j = 0).
    #[inline]
    fn prefix_end(&self, j: usize) -> usize {
        if j == 0 {
            0
        } else {
            self.lo[j - 1] + self.clue[j - 1].len as usize
        }
    }

    /// The latest cell where the prefix of blocks 0..j can end: the latest start of block j,
    /// or n for j = k.
    #[inline]
    fn suffix_start(&self, j: usize) -> usize {
        if j == self.clue.len() {
            self.n
        } else {
            self.hi[j]
        }
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
            if s + len > n {
                break;
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

    /// A clue and cells revealed from a real line, so that most cases are solvable.
    fn revealed() -> impl Strategy<Value = (Vec<Block>, Vec<u64>)> {
        (1usize..14, 2u8..5).prop_flat_map(|(n, colors)| {
            let all = (1u64 << colors) - 1;
            (
                proptest::collection::vec(0..colors, n..=n),
                proptest::collection::vec(prop_oneof![3 => Just(None), 1 => Just(Some(()))], n..=n),
                proptest::collection::vec(0..=all, n..=n),
            )
                .prop_map(move |(line, reveal, extra)| {
                    let clue = super::super::puzzle::color_blocks_of(line.iter().copied());
                    let cells = line
                        .iter()
                        .zip(&reveal)
                        .zip(&extra)
                        .map(|((&c, r), &x)| match r {
                            Some(()) => 1u64 << c,
                            None => (1u64 << c) | (x & all),
                        })
                        .collect();
                    (clue, cells)
                })
        })
    }

    fn agrees(clue: &[Block], cells: &[u64]) -> Result<(), TestCaseError> {
        let mut solver = ColorLineSolver::new();
        let mut out = vec![0; cells.len()];
        let fast = solver.solve(clue, cells, &mut out).ok().map(|()| out);
        prop_assert_eq!(fast, naive_solve(clue, cells), "{:?} {:?}", clue, cells);
        Ok(())
    }

    proptest! {
        #[test]
        fn dp_equals_naive_enumeration((clue, cells) in case()) {
            agrees(&clue, &cells)?;
        }

        #[test]
        fn dp_equals_naive_on_revealed_lines((clue, cells) in revealed()) {
            agrees(&clue, &cells)?;
        }
    }
}
