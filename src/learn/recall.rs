//! A cache of line explanations: the same line state recurs after every jump back and restart
//! (on Knotty and Meow four explanations in ten are asked of a line, a deduction and known
//! cells already explained), and its minimal explanation can be taken again instead of
//! shrunk again fact by fact.
//!
//! A slot is found by a 64-bit digest of the line, the deduction and every fact in the line
//! (those of level 0 included), and holds the facts the explanation kept. A digest can
//! collide, so what a slot recalls is never trusted: [`ExplanationCache::recall`] takes it only
//! if every fact it names is in the line now and the line still makes the deduction from them
//! (one feasibility check instead of one per fact).

use super::explain::{Deduction, Fact, LineCheck};

/// Slots in the cache (a power of two): 160 KiB per search, which stays in the core's L2
/// cache (32,768 slots recalled 25% more explanations but took longer).
const SLOTS: usize = 1 << 12;
/// The most facts a slot holds; longer explanations (few) are not cached.
const MAX_FACTS: usize = 7;

/// The digest of an explanation request, built fact by fact.
#[derive(Clone, Copy, Debug)]
pub(super) struct Digest(u64);

impl Digest {
    /// The digest of `deduction` in the line numbered `line`, before any fact.
    pub(super) fn new(line: usize, deduction: Deduction) -> Self {
        let deduced = match deduction {
            Deduction::Contradiction => u64::MAX,
            Deduction::Forces { index, sub, value } => Fact::new(0, index, sub, value).place(),
        };
        Digest(0).mix(line as u64).mix(deduced)
    }

    /// Adds a fact of the line.
    pub(super) fn add(&mut self, fact: Fact) {
        *self = self.mix(fact.place());
    }

    fn mix(self, word: u64) -> Self {
        // FxHash's step: cheap, and spreads well enough for a direct-mapped table.
        Digest((self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95))
    }

    /// The key stored in a slot: never 0, which marks an empty slot.
    fn key(self) -> u64 {
        self.0 | 1
    }
}

/// One cached explanation.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    len: u8,
    /// The kept facts' places in the line ([`Fact::place`]).
    facts: [u32; MAX_FACTS],
}

/// Explanations already shrunk, by the digest of what they explain.
#[derive(Debug)]
pub(super) struct ExplanationCache {
    slots: Vec<Slot>,
}

impl Default for ExplanationCache {
    fn default() -> Self {
        ExplanationCache {
            slots: vec![Slot::default(); SLOTS],
        }
    }
}

impl ExplanationCache {
    fn slot(&self, digest: Digest) -> usize {
        (digest.0 >> 32) as usize & (SLOTS - 1)
    }

    /// Recalls the explanation stored under `digest` into `kept`, if every fact it keeps is
    /// among `facts` (the line's facts not of level 0, none of them in `check` yet) and `check`
    /// (which holds the facts of level 0) still makes `deduction` with them in: they are then
    /// in `check`, and `true` is returned. Otherwise `check` is as it was, and `false`.
    pub(super) fn recall(
        &self,
        digest: Digest,
        facts: &[Fact],
        check: &mut impl LineCheck,
        deduction: Deduction,
        kept: &mut Vec<Fact>,
    ) -> bool {
        let slot = &self.slots[self.slot(digest)];
        if slot.key != digest.key() {
            return false;
        }
        kept.clear();
        for &place in &slot.facts[..usize::from(slot.len)] {
            match facts.iter().find(|f| f.place() == u64::from(place)) {
                Some(&fact) => kept.push(fact),
                None => return false,
            }
        }
        for fact in kept.iter() {
            check.toggle(fact);
        }
        if check.still_holds(deduction) {
            return true;
        }
        for fact in kept.iter() {
            check.toggle(fact);
        }
        false
    }

    /// Stores `kept`, the explanation just shrunk for `digest`, if it is short enough.
    pub(super) fn store(&mut self, digest: Digest, kept: &[Fact]) {
        if kept.len() > MAX_FACTS {
            return;
        }
        let at = self.slot(digest);
        let slot = &mut self.slots[at];
        slot.key = digest.key();
        slot.len = kept.len() as u8;
        for (to, fact) in slot.facts.iter_mut().zip(kept) {
            *to = fact.place() as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line whose deduction holds while every fact of `needed` is in it.
    #[derive(Default)]
    struct NeedsAll {
        needed: Vec<u64>,
        holding: Vec<u64>,
    }

    impl LineCheck for NeedsAll {
        fn toggle(&mut self, fact: &Fact) {
            match self.holding.iter().position(|&p| p == fact.place()) {
                Some(at) => {
                    self.holding.swap_remove(at);
                }
                None => self.holding.push(fact.place()),
            }
        }

        fn still_holds(&mut self, _: Deduction) -> bool {
            self.needed.iter().all(|p| self.holding.contains(p))
        }
    }

    const FORCES: Deduction = Deduction::Forces {
        index: 3,
        sub: 0,
        value: true,
    };

    fn digest_of(facts: &[Fact]) -> Digest {
        let mut digest = Digest::new(5, FORCES);
        for &fact in facts {
            digest.add(fact);
        }
        digest
    }

    #[test]
    fn recalls_what_it_stored_for_the_same_line_state_and_positions_do_not_matter() {
        let facts = [Fact::new(9, 0, 0, true), Fact::new(12, 6, 0, false)];
        let mut cache = ExplanationCache::default();
        cache.store(digest_of(&facts), &facts[1..]);
        // The same cells, set at other trail positions.
        let later = [Fact::new(20, 0, 0, true), Fact::new(31, 6, 0, false)];
        assert_eq!(digest_of(&later).0, digest_of(&facts).0);
        let mut check = NeedsAll {
            needed: vec![later[1].place()],
            holding: Vec::new(),
        };
        let mut kept = Vec::new();
        assert!(cache.recall(digest_of(&later), &later, &mut check, FORCES, &mut kept));
        assert_eq!(kept, [later[1]]);
        assert_eq!(check.holding, [later[1].place()]);
    }

    #[test]
    fn refuses_a_slot_whose_facts_are_not_in_the_line_or_do_not_explain() {
        let facts = [Fact::new(9, 0, 0, true), Fact::new(12, 6, 0, false)];
        let mut cache = ExplanationCache::default();
        let digest = digest_of(&facts);
        cache.store(digest, &facts[1..]);
        let mut kept = Vec::new();
        // As if another line state had the same digest: the stored fact is not in it.
        let mut check = NeedsAll::default();
        let other = [Fact::new(9, 0, 0, true), Fact::new(12, 6, 0, true)];
        assert!(!cache.recall(digest, &other, &mut check, FORCES, &mut kept));
        // The stored fact is there, but the line needs another one too: nothing changes.
        let mut check = NeedsAll {
            needed: vec![facts[0].place(), facts[1].place()],
            holding: Vec::new(),
        };
        assert!(!cache.recall(digest, &facts, &mut check, FORCES, &mut kept));
        assert!(check.holding.is_empty());
        // A digest never stored recalls nothing.
        assert!(!cache.recall(
            digest_of(&facts[..1]),
            &facts,
            &mut check,
            FORCES,
            &mut kept
        ));
    }

    #[test]
    fn explanations_too_long_are_not_stored() {
        let facts: Vec<Fact> = (0..=MAX_FACTS as u32)
            .map(|i| Fact::new(i, i, 0, true))
            .collect();
        let mut cache = ExplanationCache::default();
        let digest = digest_of(&facts);
        cache.store(digest, &facts);
        let mut check = NeedsAll::default();
        assert!(!cache.recall(digest, &facts, &mut check, FORCES, &mut Vec::new()));
    }
}
