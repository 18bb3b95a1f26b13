//! A cache of colour line-solver results, keyed by the line and the sets of colours its cells
//! may still take. The colour line solver costs microseconds on long lines, and probing
//! propagates hundreds of near-identical grids at every node, so line states recur often.
//!
//! Each line owns a direct-mapped region of one byte table. An entry is a state byte, then the
//! line's cells packed into the fewest bytes that hold the palette (one byte per cell for up to
//! 8 colours), then the result packed the same way. The key is compared in full, so a hit is
//! always exact.
//!
//! The key does not hold the clue, so a cache serves one puzzle: its owner
//! (the colour [`crate::propagate::Propagator`]) calls [`ColorLineCache::configure`] whenever it is handed
//! another puzzle.

use super::line::ColorLineSolver;
use super::puzzle::Block;
use crate::line::Contradiction;

/// The table's size in bytes, at most (its regions are powers of two).
const BUDGET_BYTES: usize = 16 << 20;
/// Entries of one line's region, at least and at most.
const MIN_REGION: usize = 1 << 2;
const MAX_REGION: usize = 1 << 14;

/// Entry states (the first byte of an entry).
const VACANT: u8 = 0;
const CONSISTENT: u8 = 1;
const REFUTED: u8 = 2;

/// The cache (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct ColorLineCache {
    table: Vec<u8>,
    /// Bytes per packed cell: 1, 2, 4 or 8.
    cell_bytes: usize,
    /// Bytes per entry.
    stride: usize,
    /// log2 of the entries in one line's region.
    region_bits: u32,
    /// The packed key of the last lookup.
    key: Vec<u8>,
    /// Lookups, for statistics.
    pub(crate) lookups: u64,
    /// Lookups answered from the table.
    pub(crate) hits: u64,
}

/// Where a missed lookup's result belongs: hand it to [`ColorLineCache::store`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Miss {
    at: usize,
}

impl ColorLineCache {
    /// Empties the table and sizes it for a puzzle of `lines` lines, the longest of `longest`
    /// cells, whose cells are subsets of `colors`.
    pub(crate) fn configure(&mut self, lines: usize, longest: usize, colors: u64) {
        let bits = u64::BITS - colors.leading_zeros();
        self.cell_bytes = match bits {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            _ => 8,
        };
        self.stride = (1 + 2 * longest * self.cell_bytes).next_multiple_of(8);
        let per_line = (BUDGET_BYTES / self.stride / lines.max(1)).clamp(MIN_REGION, MAX_REGION);
        self.region_bits = usize::BITS - 1 - per_line.leading_zeros();
        self.table.clear();
        self.table
            .resize((lines << self.region_bits) * self.stride, VACANT);
    }

    /// Packs `cells` into `out`, `cell_bytes` bytes each.
    fn pack(cell_bytes: usize, cells: &[u64], out: &mut Vec<u8>) {
        out.clear();
        match cell_bytes {
            1 => out.extend(cells.iter().map(|&c| c as u8)),
            2 => out.extend(cells.iter().flat_map(|&c| (c as u16).to_le_bytes())),
            4 => out.extend(cells.iter().flat_map(|&c| (c as u32).to_le_bytes())),
            _ => out.extend(cells.iter().flat_map(|&c| c.to_le_bytes())),
        }
    }

    /// Unpacks `bytes` into `out`, `cell_bytes` bytes per cell.
    fn unpack(cell_bytes: usize, bytes: &[u8], out: &mut [u64]) {
        for (cell, chunk) in out.iter_mut().zip(bytes.chunks_exact(cell_bytes)) {
            let mut word = [0u8; 8];
            word[..cell_bytes].copy_from_slice(chunk);
            *cell = u64::from_le_bytes(word);
        }
    }

    fn hash(bytes: &[u8]) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            h = (h ^ word)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(23);
        }
        for &byte in chunks.remainder() {
            h = (h ^ u64::from(byte)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        }
        (h ^ (h >> 29)).wrapping_mul(0x94d0_49bb_1331_11eb)
    }

    /// Looks up `line` with these cells: on a hit, writes the solved cells into `out` (as long
    /// as `cells`) or returns the contradiction; on a miss, says where to store the result.
    pub(super) fn lookup(
        &mut self,
        line: usize,
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<Result<(), Contradiction>, Miss> {
        self.lookups += 1;
        Self::pack(self.cell_bytes, cells, &mut self.key);
        let within = (Self::hash(&self.key) >> (64 - self.region_bits)) as usize;
        let at = ((line << self.region_bits) | within) * self.stride;
        let n = self.key.len();
        let entry = &self.table[at..at + 1 + 2 * n];
        if entry[0] == VACANT || entry[1..=n] != self.key[..] {
            return Err(Miss { at });
        }
        self.hits += 1;
        if entry[0] == REFUTED {
            return Ok(Err(Contradiction));
        }
        Self::unpack(self.cell_bytes, &entry[1 + n..], out);
        Ok(Ok(()))
    }

    /// Solves `line` (cells `cells`, clue `clue`) with `solver` into `out`, answering from the
    /// table when it can and storing what it computes.
    pub(crate) fn solve(
        &mut self,
        solver: &mut ColorLineSolver,
        line: usize,
        clue: &[Block],
        cells: &[u64],
        out: &mut [u64],
    ) -> Result<(), Contradiction> {
        match self.lookup(line, cells, out) {
            Ok(result) => result,
            Err(miss) => {
                let result = solver.solve(clue, cells, out);
                self.store(miss, result.map(|()| &*out));
                result
            }
        }
    }

    /// Stores the result of the line whose lookup just missed: the solved cells, or the
    /// contradiction.
    pub(super) fn store(&mut self, miss: Miss, result: Result<&[u64], Contradiction>) {
        let n = self.key.len();
        let entry = &mut self.table[miss.at..miss.at + 1 + 2 * n];
        entry[1..=n].copy_from_slice(&self.key);
        match result {
            Ok(solved) => {
                entry[0] = CONSISTENT;
                let mut packed = std::mem::take(&mut self.key);
                Self::pack(self.cell_bytes, solved, &mut packed);
                entry[1 + n..].copy_from_slice(&packed);
                self.key = packed;
            }
            Err(Contradiction) => entry[0] = REFUTED,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(colors: u64, cells: &[u64], solved: &[u64]) {
        let mut cache = ColorLineCache::default();
        cache.configure(3, cells.len(), colors);
        let mut out = vec![0; cells.len()];
        let miss = cache.lookup(1, cells, &mut out).expect_err("empty cache");
        cache.store(miss, Ok(solved));
        assert_eq!(cache.lookup(1, cells, &mut out).ok(), Some(Ok(())));
        assert_eq!(out, solved);
        // Another line, or other cells, miss.
        assert!(cache.lookup(2, cells, &mut out).is_err());
        let mut other = cells.to_vec();
        other[0] ^= 1;
        let miss = cache.lookup(1, &other, &mut out).expect_err("other cells");
        cache.store(miss, Err(Contradiction));
        assert_eq!(
            cache.lookup(1, &other, &mut out).ok(),
            Some(Err(Contradiction))
        );
        assert_eq!((cache.lookups, cache.hits), (5, 2));
        cache.configure(3, cells.len(), colors);
        assert!(
            cache.lookup(1, cells, &mut out).is_err(),
            "configure forgets"
        );
    }

    /// What the stress test stores for `cells`: a contradiction for some, else each cell's
    /// lowest colour.
    fn made_up_result(cells: &[u64]) -> Result<Vec<u64>, Contradiction> {
        if cells.iter().sum::<u64>().is_multiple_of(7) {
            Err(Contradiction)
        } else {
            Ok(cells.iter().map(|&c| c & c.wrapping_neg()).collect())
        }
    }

    #[test]
    fn colliding_keys_never_answer_for_each_other() {
        // So many lines that each region has the fewest entries: keys that differ in any one
        // cell, the last included, keep evicting each other from the same few slots.
        let mut cache = ColorLineCache::default();
        cache.configure(1 << 16, 40, 0xff);
        let mut out = vec![0; 40];
        let keys: Vec<Vec<u64>> = (0..64u64)
            .map(|k| {
                let mut cells = vec![0xffu64; 40];
                cells[39] = 1 + k * 3;
                cells
            })
            .collect();
        for round in 0..4000 {
            // Each key thrice in a row, then another.
            let cells = &keys[(round / 3 * 37) % keys.len()];
            let expected = made_up_result(cells);
            match cache.lookup(9, cells, &mut out) {
                Ok(Ok(())) => assert_eq!(Ok(out.clone()), expected, "round {round}"),
                Ok(Err(Contradiction)) => assert_eq!(Err(Contradiction), expected),
                Err(miss) => cache.store(miss, expected.as_deref().map_err(|&c| c)),
            }
        }
        assert!(cache.hits > 0 && cache.hits < cache.lookups, "{cache:?}");
    }

    #[test]
    fn returns_what_was_stored_for_every_cell_width() {
        round_trip(0b111, &[0b111, 0b011, 0b101], &[0b001, 0b010, 0b100]);
        round_trip(0xffff, &[0xffff, 0x8001], &[0x8000, 0x0001]);
        round_trip(0xffff_ffff, &[0xffff_ffff, 3], &[1 << 31, 2]);
        round_trip(u64::MAX, &[u64::MAX, 1 << 63], &[1 << 40, 1 << 63]);
    }
}
