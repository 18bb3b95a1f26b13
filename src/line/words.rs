//! Bitsets of several `u64` words (least significant word first) for
//! [`LongLineSolver`](super::LongLineSolver): shifts, in place or into another set, that move
//! whole words by `k / 64` and bits by `k % 64`; runs and their covers; mirroring; one word of
//! a carry-propagating addition. Bits shifted past the last word are lost, as in one machine
//! word. Every loop is a plain pass over the words, which the compiler can unroll.

/// `x[i] = op(x[i], (x >> k)[i])` for every word, in place: going up, word `i` reads words
/// `i + k / 64..`, not written yet; the words past the shifted ones see 0.
#[inline]
fn combine_shifted_right(x: &mut [u64], k: usize, op: impl Fn(u64, u64) -> u64) {
    let n = x.len();
    let (q, r) = (k / 64, k % 64);
    let kept = n.saturating_sub(q);
    for i in 0..kept {
        let carried = if r == 0 || i + q + 1 >= n {
            0
        } else {
            x[i + q + 1] << (64 - r)
        };
        x[i] = op(x[i], x[i + q] >> r | carried);
    }
    for word in &mut x[kept..] {
        *word = op(*word, 0);
    }
}

/// `x[i] = op(x[i], (x << k)[i])` for every word, in place: going down, word `i` reads words
/// `..=i - k / 64`, not written yet; the words below the shifted ones see 0.
#[inline]
fn combine_shifted_left(x: &mut [u64], k: usize, op: impl Fn(u64, u64) -> u64) {
    let n = x.len();
    let (q, r) = (k / 64, k % 64);
    for i in (q.min(n)..n).rev() {
        let carried = if r == 0 || i == q {
            0
        } else {
            x[i - q - 1] >> (64 - r)
        };
        x[i] = op(x[i], x[i - q] << r | carried);
    }
    for word in &mut x[..q.min(n)] {
        *word = op(*word, 0);
    }
}

/// `x >>= k`, in place.
#[inline]
pub(crate) fn shr_in_place(x: &mut [u64], k: usize) {
    combine_shifted_right(x, k, |_, shifted| shifted);
}

/// `x <<= k`, in place.
#[inline]
pub(crate) fn shl_in_place(x: &mut [u64], k: usize) {
    combine_shifted_left(x, k, |_, shifted| shifted);
}

/// `x &= x >> k`, in place.
#[inline]
pub(crate) fn and_shifted_right(x: &mut [u64], k: usize) {
    combine_shifted_right(x, k, |word, shifted| word & shifted);
}

/// `x |= x << k`, in place.
#[inline]
pub(crate) fn or_shifted_left(x: &mut [u64], k: usize) {
    combine_shifted_left(x, k, |word, shifted| word | shifted);
}

/// Keeps in `x` the positions `s` such that bits `s..s + len` are all set in it (`len >= 1`):
/// where a block of `len` cells fits.
#[inline]
pub(crate) fn run_starts(x: &mut [u64], len: u32) {
    by_doubling(x, len, and_shifted_right);
}

/// Adds to `x` every bit within `len` above a set bit: the cells that blocks of `len` cells
/// starting there cover.
#[inline]
pub(crate) fn smear(x: &mut [u64], len: u32) {
    by_doubling(x, len, or_shifted_left);
}

/// Applies `combine` (an `and` or `or` with a shifted copy) with shifts that double the span
/// covered, from one cell up to `len`: O(log len) passes.
#[inline]
fn by_doubling(x: &mut [u64], len: u32, combine: impl Fn(&mut [u64], usize)) {
    let mut covered = 1;
    while covered < len {
        let step = covered.min(len - covered);
        combine(x, step as usize);
        covered += step;
    }
}

/// Where blocks fit, by key: for each key asked for, the positions `s` such that cells
/// `s..s + len` all lie in a set of cells, computed once per key and solve. A clue has few
/// distinct keys (a length, or a colour and a length: `d` lengths take at least
/// `d (d + 1) / 2` cells), so looking one up is a short search.
#[derive(Debug, Default)]
pub(crate) struct Fits<K> {
    pub(crate) keys: Vec<K>,
    /// One set per entry of `keys`.
    sets: Vec<u64>,
}

impl<K: Copy + PartialEq> Fits<K> {
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
        self.sets.clear();
    }

    /// The index of the positions where blocks of `key` (of `len` cells) fit in the set
    /// `cells` gives, computed the first time `key` is asked for.
    #[inline(always)]
    pub(crate) fn index<'c>(
        &mut self,
        key: K,
        len: u32,
        cells: impl FnOnce() -> &'c [u64],
    ) -> usize {
        match self.keys.iter().position(|&k| k == key) {
            Some(at) => at,
            None => self.add(key, cells(), len),
        }
    }

    /// Adds the positions where blocks of `len` cells fit in `cells`, for `key` (which must
    /// not be there yet); returns their index.
    #[inline(never)]
    pub(crate) fn add(&mut self, key: K, cells: &[u64], len: u32) -> usize {
        self.keys.push(key);
        let start = self.sets.len();
        self.sets.extend_from_slice(cells);
        run_starts(&mut self.sets[start..start + cells.len()], len);
        self.keys.len() - 1
    }

    /// The set at `index` (sets of `n` words).
    #[inline]
    pub(crate) fn set(&self, index: usize, n: usize) -> &[u64] {
        &self.sets[index * n..(index + 1) * n]
    }
}

/// One word of `seeds | (open + (seeds & open)) ^ open`, the positions reachable from a seed
/// moving right over set bits of `open` (a carry runs through each stretch of set bits that a
/// seed starts), the addition's carry coming in and going out through `carry`.
#[inline]
pub(crate) fn run_right_word(seeds: u64, open: u64, carry: &mut bool) -> u64 {
    let (sum, c1) = open.overflowing_add(seeds & open);
    let (sum, c2) = sum.overflowing_add(u64::from(*carry));
    *carry = c1 | c2;
    seeds | (sum ^ open)
}

/// Mirrors the bits `0..width` of `src` into `dst` (as many words): bit `i` goes to
/// `width - 1 - i`, and bits from `width` on are dropped. Reversing every word and their order
/// sends bit `i` to `64n - 1 - i`; the shift right by `64n - width` finishes (and drops those
/// below it).
pub(crate) fn mirror(dst: &mut [u64], src: &[u64], width: usize) {
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

/// [`mirror`] of the words `lo..hi` of `src` (the others taken as zero), written only to the
/// words of `dst` they can reach: returns that range (empty when `lo..hi` is), outside which
/// `dst` is left as it was and the mirror is zero.
pub(crate) fn mirror_window(
    dst: &mut [u64],
    src: &[u64],
    width: usize,
    (lo, hi): (usize, usize),
) -> (usize, usize) {
    let n = src.len();
    if lo >= hi {
        return (0, 0);
    }
    let k = 64 * n - width;
    let (q, r) = (k / 64, k % 64);
    let reversed = |w: usize| {
        if (n - hi..n - lo).contains(&w) {
            src[n - 1 - w].reverse_bits()
        } else {
            0
        }
    };
    // Word `i` reads words `i + q` and `i + q + 1` of the reversal, set within `n - hi..n - lo`.
    let from = (n - hi).saturating_sub(q + 1);
    let to = (n - lo).saturating_sub(q).min(n);
    for (i, out) in dst.iter_mut().enumerate().take(to).skip(from) {
        let now = reversed(i + q);
        *out = if r == 0 {
            now
        } else {
            now >> r | reversed(i + q + 1) << (64 - r)
        };
    }
    (from, to.max(from))
}

/// Word `i` of the set of bits `from..to`.
#[inline]
pub(crate) fn range_word(i: usize, from: usize, to: usize) -> u64 {
    let below = |end: usize| match end.saturating_sub(64 * i) {
        0 => 0,
        bits if bits >= 64 => !0,
        bits => (1 << bits) - 1,
    };
    below(to) & !below(from)
}

/// The lowest and the highest set bit of `x`, if any.
pub(crate) fn lowest_and_highest(x: &[u64]) -> Option<(usize, usize)> {
    let first = x.iter().position(|&w| w != 0)?;
    let last = x.iter().rposition(|&w| w != 0)?;
    Some((
        64 * first + x[first].trailing_zeros() as usize,
        64 * last + 63 - x[last].leading_zeros() as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits of a set as a `Vec<bool>` of `64 * words` entries.
    fn bits(x: &[u64]) -> Vec<bool> {
        (0..64 * x.len())
            .map(|i| x[i / 64] >> (i % 64) & 1 == 1)
            .collect()
    }

    fn from_bits(b: &[bool]) -> Vec<u64> {
        let mut x = vec![0; b.len() / 64];
        for (i, _) in b.iter().enumerate().filter(|(_, set)| **set) {
            x[i / 64] |= 1 << (i % 64);
        }
        x
    }

    /// [`mirror_window`] of `x` cut to each window of its words gives [`mirror`] of the cut
    /// set, and its range holds every word that mirror sets.
    fn mirror_windows_agree(x: &[u64], width: usize) {
        let words = x.len();
        for lo in 0..=words {
            for hi in lo..=words {
                let cut: Vec<u64> = (0..words)
                    .map(|w| if (lo..hi).contains(&w) { x[w] } else { 0 })
                    .collect();
                let mut expected = vec![0; words];
                mirror(&mut expected, &cut, width);
                // What `dst` held before is left outside the range.
                let mut got = vec![0x5a5a; words];
                let (from, to) = mirror_window(&mut got, x, width, (lo, hi));
                for w in 0..words {
                    let (expected, got) = (expected[w], got[w]);
                    match (from..to).contains(&w) {
                        true => assert_eq!(got, expected, "word {w}, {lo}..{hi} of {x:x?}"),
                        false => assert_eq!((got, expected), (0x5a5a, 0), "word {w} outside"),
                    }
                }
            }
        }
    }

    #[test]
    fn shifts_move_every_bit_by_k() {
        let mut seed = 5u64;
        for words in 1..5 {
            for k in [0, 1, 5, 63, 64, 65, 127, 128, 130, 200, 400] {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1442695040888963407);
                let x: Vec<u64> = (0..words as u64)
                    .map(|w| seed.rotate_left(w as u32 * 13))
                    .collect();
                let b = bits(&x);
                let n = b.len();
                let right: Vec<bool> = (0..n).map(|i| i + k < n && b[i + k]).collect();
                let left: Vec<bool> = (0..n).map(|i| i >= k && b[i - k]).collect();
                let mut y = x.clone();
                shr_in_place(&mut y, k);
                assert_eq!(y, from_bits(&right), "shr {k} of {x:x?}");
                let mut y = x.clone();
                shl_in_place(&mut y, k);
                assert_eq!(y, from_bits(&left), "shl {k} of {x:x?}");
                let mut y = x.clone();
                and_shifted_right(&mut y, k);
                let and: Vec<bool> = b.iter().zip(&right).map(|(a, c)| *a && *c).collect();
                assert_eq!(y, from_bits(&and), "and-shr {k} of {x:x?}");
                let mut y = x.clone();
                or_shifted_left(&mut y, k);
                let or: Vec<bool> = b.iter().zip(&left).map(|(a, c)| *a || *c).collect();
                assert_eq!(y, from_bits(&or), "or-shl {k} of {x:x?}");
                for width in [n, n - 1, n / 2 + 1, 1] {
                    let mut m = vec![0; words];
                    mirror(&mut m, &x, width);
                    let expected: Vec<bool> =
                        (0..n).map(|i| i < width && b[width - 1 - i]).collect();
                    assert_eq!(m, from_bits(&expected), "mirror {width} of {x:x?}");
                    mirror_windows_agree(&x, width);
                }
            }
        }
    }
}
