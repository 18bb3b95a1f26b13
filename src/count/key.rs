//! Profiles as hash keys: one class per tracked line, packed into one, two, three, four or
//! eight machine words when the classes fit (no allocation, cheap hashing and comparison), else
//! a boxed slice. The words are `u64`s, so that a table's entries take no padding.

use std::hash::Hash;

use super::dfa::{LineDfa, Successors};

/// Where each tracked line's class sits in a packed key.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    shift: Vec<u32>,
    mask: Vec<u128>,
    /// Bits used in all.
    pub(super) bits: u32,
}

impl Layout {
    /// The layout for `tracked` lines: each gets the bits its widest position needs.
    pub(super) fn new<S: Successors>(tracked: &[LineDfa<S>]) -> Self {
        let mut layout = Layout {
            shift: Vec::with_capacity(tracked.len()),
            mask: Vec::with_capacity(tracked.len()),
            bits: 0,
        };
        for line in tracked {
            layout.push(bits_for(line.widest()));
        }
        layout
    }

    /// The layout with fields of `widths` bits (at most 16 each) after the tracked lines'.
    pub(super) fn with_fields(mut self, widths: &[u32]) -> Self {
        for &width in widths {
            debug_assert!(width <= 16);
            self.push(width);
        }
        self
    }

    /// Adds a field of `width` bits. A field of no bits sits at bit 0 (its mask keeps it from
    /// touching anything): placed after the others, it could lie past a full key's last word.
    fn push(&mut self, width: u32) {
        self.shift.push(if width == 0 { 0 } else { self.bits });
        self.mask.push((1u128 << width) - 1);
        self.bits += width;
    }

    /// The fields of a key: the tracked lines' and those added.
    pub(super) fn fields(&self) -> usize {
        self.shift.len()
    }
}

/// The bits that values below `count` take (0 for a single value).
pub(super) fn bits_for(count: usize) -> u32 {
    usize::BITS - count.saturating_sub(1).leading_zeros()
}

/// A profile key.
pub(super) trait Key: Clone + Eq + Hash + Send + Sync + 'static {
    /// Whether the key is a few machine words (cloning it costs nothing).
    const PACKED: bool;
    /// Whether keys of this type can hold `layout`.
    fn fits(layout: &Layout) -> bool;
    /// A key with every class 0, for `count` tracked lines.
    fn blank(count: usize) -> Self;
    /// The class of tracked line `t`.
    fn get(&self, layout: &Layout, t: usize) -> u16;
    /// Sets the class of tracked line `t`.
    fn set(&mut self, layout: &Layout, t: usize, class: u16);
}

macro_rules! packed_key {
    ($word:ty) => {
        impl Key for $word {
            const PACKED: bool = true;
            fn fits(layout: &Layout) -> bool {
                layout.bits <= <$word>::BITS
            }
            fn blank(_: usize) -> Self {
                0
            }
            #[inline]
            fn get(&self, layout: &Layout, t: usize) -> u16 {
                (*self >> layout.shift[t]) as u16 & layout.mask[t] as u16
            }
            #[inline]
            fn set(&mut self, layout: &Layout, t: usize, class: u16) {
                let (shift, mask) = (layout.shift[t], layout.mask[t] as $word);
                *self = *self & !(mask << shift) | (<$word>::from(class) & mask) << shift;
            }
        }
    };
}

packed_key!(u64);

/// `N` words: 256 bits for four, enough for the classes of 30 to 50 lines of a random picture,
/// 512 for eight. A class may straddle two words.
impl<const N: usize> Key for [u64; N] {
    const PACKED: bool = true;
    fn fits(layout: &Layout) -> bool {
        layout.bits as usize <= 64 * N
    }
    fn blank(_: usize) -> Self {
        [0; N]
    }
    #[inline]
    fn get(&self, layout: &Layout, t: usize) -> u16 {
        let (word, offset) = (layout.shift[t] as usize / 64, layout.shift[t] % 64);
        let mut bits = self[word] >> offset;
        if offset > 0 && word + 1 < N {
            bits |= self[word + 1] << (64 - offset);
        }
        bits as u16 & layout.mask[t] as u16
    }
    #[inline]
    fn set(&mut self, layout: &Layout, t: usize, class: u16) {
        let (word, offset) = (layout.shift[t] as usize / 64, layout.shift[t] % 64);
        let mask = layout.mask[t] as u64;
        let class = u64::from(class) & mask;
        self[word] = self[word] & !(mask << offset) | class << offset;
        if offset > 0 && word + 1 < N {
            let high = 64 - offset;
            self[word + 1] = self[word + 1] & !(mask >> high) | class >> high;
        }
    }
}

impl Key for Box<[u16]> {
    const PACKED: bool = false;
    fn fits(_: &Layout) -> bool {
        true
    }
    fn blank(count: usize) -> Self {
        vec![0; count].into_boxed_slice()
    }
    #[inline]
    fn get(&self, _: &Layout, t: usize) -> u16 {
        self[t]
    }
    #[inline]
    fn set(&mut self, _: &Layout, t: usize, class: u16) {
        self[t] = class;
    }
}

/// Evaluates `$body` with `$key` standing for the narrowest key type that holds `$layout`:
/// one, two, three, four or eight words, else a boxed slice.
macro_rules! with_narrowest_key {
    ($layout:expr, $key:ident => $body:expr) => {{
        let layout: &$crate::count::key::Layout = $layout;
        $crate::count::key::with_narrowest_key!(
            @first layout, $key => $body; u64, [u64; 2], [u64; 3], [u64; 4], [u64; 8]
        )
    }};
    // The first of the packed types that holds the layout, else a boxed slice.
    (@first $layout:ident, $key:ident => $body:expr; $word:ty $(, $wider:ty)*) => {{
        use $crate::count::key::Key as _;
        if <$word>::fits($layout) {
            type $key = $word;
            $body
        } else {
            $crate::count::key::with_narrowest_key!(@first $layout, $key => $body; $($wider),*)
        }
    }};
    (@first $layout:ident, $key:ident => $body:expr;) => {{
        type $key = Box<[u16]>;
        $body
    }};
}
pub(super) use with_narrowest_key;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn round_trip<K: Key + std::fmt::Debug>(layout: &Layout, classes: &[u16]) {
        let mut key = K::blank(classes.len());
        for (t, &c) in classes.iter().enumerate() {
            key.set(layout, t, c);
        }
        // Overwrite one and set it back: neighbours must not change.
        key.set(layout, 1, 0);
        key.set(layout, 1, classes[1]);
        let read: Vec<u16> = (0..classes.len()).map(|t| key.get(layout, t)).collect();
        assert_eq!(read, classes);
    }

    #[test]
    fn classes_read_back_from_every_key_type() {
        let lines: Vec<LineDfa> = [vec![1], vec![2, 2], vec![1, 1, 1], vec![5]]
            .iter()
            .map(|clue| LineDfa::new(clue, &[Cell::Unknown; 9]).expect("small"))
            .collect();
        let layout = Layout::new(&lines);
        let classes: Vec<u16> = lines
            .iter()
            .map(|l| (0..=l.len()).map(|p| l.width_at(p)).max().unwrap_or(1) as u16 - 1)
            .collect();
        assert!(u64::fits(&layout));
        round_trip::<u64>(&layout, &classes);
        round_trip::<[u64; 2]>(&layout, &classes);
        round_trip::<[u64; 3]>(&layout, &classes);
        round_trip::<[u64; 4]>(&layout, &classes);
        round_trip::<[u64; 8]>(&layout, &classes);
        round_trip::<Box<[u16]>>(&layout, &classes);
    }

    /// Fields added after the lines' classes read back, neither they nor the classes
    /// disturbing the others, in a key of the narrowest type that holds them.
    #[test]
    fn added_fields_read_back() {
        let lines: Vec<LineDfa> = (0..20)
            .map(|_| LineDfa::new(&[1, 1, 1], &[Cell::Unknown; 12]).expect("small"))
            .collect();
        let bare = Layout::new(&lines);
        let layout = bare.clone().with_fields(&[5, 16, 3]);
        assert_eq!((layout.fields(), layout.bits), (23, bare.bits + 24));
        assert_eq!((bits_for(1), bits_for(2), bits_for(17)), (0, 1, 5));
        let classes: Vec<u16> = (0..20u16).map(|t| t % 4).chain([31, 0xbeef, 5]).collect();
        with_narrowest_key!(&layout, K => round_trip::<K>(&layout, &classes));
        round_trip::<Box<[u16]>>(&layout, &classes);
        // Fields that fill one or two words exactly, then one of no bits: each reads back,
        // at its largest value, from a key of just those words.
        let few = Layout::new(&lines[..4]);
        for total in [64, 128] {
            let mut widths: Vec<u32> = Vec::new();
            let mut left = total - few.bits;
            while left > 0 {
                widths.push(left.min(16));
                left -= left.min(16);
            }
            widths.push(0);
            let layout = few.clone().with_fields(&widths);
            assert_eq!(layout.bits, total);
            let largest: Vec<u16> = layout.mask.iter().map(|&m| m as u16).collect();
            if total == 64 {
                round_trip::<u64>(&layout, &largest);
            }
            round_trip::<[u64; 2]>(&layout, &largest);
        }
    }

    /// Lines of 1 to 4 bits, more than two words' worth: some classes straddle the words of a
    /// four-word key.
    #[test]
    fn classes_straddling_words_read_back() {
        let clues: [&[u32]; 4] = [&[1], &[2, 2], &[1, 1, 1], &[1, 1, 1, 1, 1, 1, 1]];
        let lines: Vec<LineDfa> = (0..56)
            .map(|t| LineDfa::new(clues[t % 4], &[Cell::Unknown; 20]).expect("small"))
            .collect();
        let layout = Layout::new(&lines);
        assert!(
            !<[u64; 2]>::fits(&layout) && <[u64; 3]>::fits(&layout),
            "{}",
            layout.bits
        );
        let straddles =
            (0..lines.len()).any(|t| layout.shift[t] % 64 + layout.mask[t].count_ones() > 64);
        assert!(straddles);
        let widest = |l: &LineDfa| (0..=l.len()).map(|p| l.width_at(p)).max().unwrap_or(1);
        let top: Vec<u16> = lines.iter().map(|l| widest(l) as u16 - 1).collect();
        round_trip::<[u64; 4]>(&layout, &top);
        for shift in 0..5 {
            let classes: Vec<u16> = lines
                .iter()
                .enumerate()
                .map(|(t, l)| ((t + shift) % widest(l)) as u16)
                .collect();
            round_trip::<[u64; 3]>(&layout, &classes);
            round_trip::<[u64; 4]>(&layout, &classes);
            round_trip::<[u64; 8]>(&layout, &classes);
        }
    }
}
