//! The fast line solver: a dynamic program over (blocks placed, cells used), O(length x blocks).
//!
//! `fwd[j][i]` says whether the first `j` blocks fit in cells `0..i` (everything after the last
//! of them empty), `bwd[j][i]` whether blocks `j..` fit in cells `i..`. A cell can be empty when
//! some `j` has `fwd[j][c]` and `bwd[j][c + 1]`; it can be filled when some block `j` can start
//! at `s <= c < s + len_j` with `fwd` true on its left and `bwd` true on its right. Counting
//! prefix sums of known cells makes every range test O(1), and a difference array marks the
//! cells a placement covers in O(1), so the whole solve is O(length x blocks).

use super::{Contradiction, LineIn, LineOut, LineSolver, bit, set_bit};

/// The dynamic-programming line solver. Keeps its buffers between calls: create one per thread.
#[derive(Debug, Default)]
pub struct DpLineSolver {
    is_filled: Vec<bool>,
    filled_before: Vec<u32>,
    empty_before: Vec<u32>,
    fwd: Vec<bool>,
    bwd: Vec<bool>,
    cover: Vec<i32>,
    can_empty: Vec<bool>,
}

impl DpLineSolver {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    fn load(&mut self, len: usize, filled: &[u64], empty: &[u64]) {
        self.is_filled.clear();
        self.filled_before.clear();
        self.empty_before.clear();
        let (mut nf, mut ne) = (0u32, 0u32);
        self.filled_before.push(0);
        self.empty_before.push(0);
        for i in 0..len {
            let f = bit(filled, i);
            nf += u32::from(f);
            ne += u32::from(bit(empty, i));
            self.is_filled.push(f);
            self.filled_before.push(nf);
            self.empty_before.push(ne);
        }
    }

    #[inline]
    fn no_empty(&self, from: usize, to: usize) -> bool {
        self.empty_before[to] == self.empty_before[from]
    }

    #[inline]
    fn no_filled(&self, from: usize, to: usize) -> bool {
        self.filled_before[to] == self.filled_before[from]
    }

    /// Fills `fwd`: row `j` (stride `len + 1`) says which prefixes hold the first `j` blocks.
    fn forward(&mut self, clue: &[u32], len: usize) {
        let stride = len + 1;
        self.fwd.clear();
        self.fwd.resize((clue.len() + 1) * stride, false);
        for i in 0..=len {
            self.fwd[i] = self.no_filled(0, i);
        }
        for j in 1..=clue.len() {
            let b = clue[j - 1] as usize;
            let (done, rest) = self.fwd.split_at_mut(j * stride);
            let prev = &done[(j - 1) * stride..];
            let row = &mut rest[..stride];
            for i in 1..=len {
                let mut ok = !self.is_filled[i - 1] && row[i - 1];
                if !ok && i >= b {
                    let s = i - b;
                    let fits = self.empty_before[i] == self.empty_before[s];
                    ok = fits
                        && if j == 1 {
                            prev[s]
                        } else {
                            s >= 1 && !self.is_filled[s - 1] && prev[s - 1]
                        };
                }
                row[i] = ok;
            }
        }
    }

    /// Fills `bwd`: row `j` (stride `len + 1`) says which suffixes hold blocks `j..`.
    fn backward(&mut self, clue: &[u32], len: usize) {
        let stride = len + 1;
        let k = clue.len();
        self.bwd.clear();
        self.bwd.resize((k + 1) * stride, false);
        for i in 0..=len {
            self.bwd[k * stride + i] = self.no_filled(i, len);
        }
        for j in (0..k).rev() {
            let b = clue[j] as usize;
            let (row_part, next_part) = self.bwd.split_at_mut((j + 1) * stride);
            let row = &mut row_part[j * stride..];
            let next = &next_part[..stride];
            for i in (0..len).rev() {
                let mut ok = !self.is_filled[i] && row[i + 1];
                let e = i + b;
                if !ok && e <= len && self.empty_before[e] == self.empty_before[i] {
                    ok = if j + 1 == k {
                        next[e]
                    } else {
                        e < len && !self.is_filled[e] && next[e + 1]
                    };
                }
                row[i] = ok;
            }
        }
    }

    /// Marks, in `cover` (a difference array) and `can_empty`, every cell each value can take.
    fn mark(&mut self, clue: &[u32], len: usize) {
        let stride = len + 1;
        let k = clue.len();
        self.cover.clear();
        self.cover.resize(len + 1, 0);
        self.can_empty.clear();
        self.can_empty.resize(len, false);
        for c in 0..len {
            if self.is_filled[c] {
                continue;
            }
            self.can_empty[c] =
                (0..=k).any(|j| self.fwd[j * stride + c] && self.bwd[j * stride + c + 1]);
        }
        for (j, &b) in clue.iter().enumerate() {
            let b = b as usize;
            for s in 0..=len - b {
                let e = s + b;
                if !self.no_empty(s, e) {
                    continue;
                }
                let left = if j == 0 {
                    self.fwd[s]
                } else {
                    s >= 1 && !self.is_filled[s - 1] && self.fwd[j * stride + s - 1]
                };
                let right = left
                    && if j + 1 == k {
                        self.bwd[k * stride + e]
                    } else {
                        e < len && !self.is_filled[e] && self.bwd[(j + 1) * stride + e + 1]
                    };
                if right {
                    self.cover[s] += 1;
                    self.cover[e] -= 1;
                }
            }
        }
    }
}

impl LineSolver for DpLineSolver {
    fn solve(&mut self, line: LineIn<'_>, out: LineOut<'_>) -> Result<(), Contradiction> {
        let (clue, len) = (line.clue, line.len);
        let needed: usize = clue.iter().map(|&b| b as usize + 1).sum::<usize>();
        if needed > len + 1 || clue.contains(&0) {
            return Err(Contradiction);
        }
        self.load(len, line.filled, line.empty);
        self.forward(clue, len);
        if !self.fwd[clue.len() * (len + 1) + len] {
            return Err(Contradiction);
        }
        self.backward(clue, len);
        self.mark(clue, len);
        out.filled.fill(0);
        out.empty.fill(0);
        let mut covered = 0i32;
        for c in 0..len {
            covered += self.cover[c];
            match (covered > 0, self.can_empty[c]) {
                (true, false) => set_bit(out.filled, c),
                (false, true) => set_bit(out.empty, c),
                (true, true) => {}
                (false, false) => return Err(Contradiction),
            }
        }
        Ok(())
    }
}
