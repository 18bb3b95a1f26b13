//! Profiles as hash keys: one class per tracked line, packed into one or two machine words
//! when the classes fit (no allocation, cheap hashing and comparison), else a boxed slice.

use std::hash::Hash;

use super::dfa::LineDfa;

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
    pub(super) fn new(tracked: &[LineDfa]) -> Self {
        let mut shift = Vec::with_capacity(tracked.len());
        let mut mask = Vec::with_capacity(tracked.len());
        let mut bits = 0u32;
        for line in tracked {
            let widest = (0..=line.len())
                .map(|p| line.width_at(p))
                .max()
                .unwrap_or(1);
            let need = usize::BITS - widest.saturating_sub(1).leading_zeros();
            shift.push(bits);
            mask.push((1u128 << need) - 1);
            bits += need;
        }
        Layout { shift, mask, bits }
    }
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
                let shift = layout.shift[t];
                *self =
                    *self & !((layout.mask[t] as $word) << shift) | <$word>::from(class) << shift;
            }
        }
    };
}

packed_key!(u64);
packed_key!(u128);

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
        round_trip::<u128>(&layout, &classes);
        round_trip::<Box<[u16]>>(&layout, &classes);
    }
}
